"""Plotly builders for the coverage story: the 16 × 7 core grid, coverage, comparable ground and Metric Orbit.

They take tidy frames from helm_core and return figures; no Streamlit here. Colour never carries meaning alone:
blank cells are crossed squares, groups have their own marker symbols, and cells carry text labels.
"""
from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from . import palette
from .charts import BLUE, GREY, SKY, base_layout, chart_labels, wrap_label
from .stage import plain
from helm_core.escape import chart_label

SYMBOLS = ["circle", "diamond", "square", "triangle-up", "cross", "star", "triangle-down", "hexagon"]
DASHES = ["solid", "dash", "dot", "dashdot", "longdash", "longdashdot"]
BLANK = "square-x-open"
# Diverging, colour-blind-safe: vermillion (disagrees with accuracy) – white – blue (agrees).
SEQUENTIAL = [[0.0, "#EAF3FB"], [1.0, BLUE]]
CELL_SIZE = 30
ROW_PX = 38


def stack(df: pd.DataFrame, cols: list[str]) -> np.ndarray | None:
    """Columns of `df` as customdata a hovertemplate shows: plotly text (chart_label)."""
    return df[cols].astype(str).map(chart_label).to_numpy() if len(df) else None


def _square_axes(fig: go.Figure, x_order: list[str], y_order: list[str]) -> None:
    fig.update_xaxes(categoryorder="array", categoryarray=x_order, side="top", showgrid=False, zeroline=False,
                     fixedrange=True, tickangle=-45, tickfont=dict(size=11))
    fig.update_yaxes(categoryorder="array", categoryarray=list(reversed(y_order)), showgrid=False, zeroline=False,
                     fixedrange=True)


# ----------------------------------------------------------------------------- the core grid

GRID_HOVER = (
    "<b>%{customdata[1]} × %{customdata[2]}</b><br>"
    "HELM metric(s): %{customdata[3]}<br>"
    "Models with a value: %{customdata[4]}<br>"
    "Best: %{customdata[5]}<br>"
    "%{customdata[6]}<extra></extra>"
)


def _grid_custom(cells: pd.DataFrame) -> np.ndarray | None:
    """A tile's customdata: its raw token first (what a click selects), then the hover's text (plotly text)."""
    if cells.empty:
        return None
    c = cells.copy()
    c["n_of"] = c["models_with_value"].astype(int).astype(str) + " of " + c["cohort_size"].astype(int).astype(str)
    c["best_text"] = c["best"].replace("", "none (no value with a direction)")
    status = np.where(
        c["measured"],
        "Measured in this view" + np.where(c["differs"] != "", " (note: " + c["differs"] + ")", ""),
        "Blank: " + c["reason"] + " [" + c["confidence"] + "]"
        + np.where(c["differs"] != "", " (note: " + c["differs"] + ")", ""),
    )
    c["status"] = [wrap_label(s) for s in status]
    # "; "-joined as helm_core.grid writes it, wrapped (not split there: a name may hold "; " itself)
    c["best_text"] = c["best_text"].map(lambda s: wrap_label(s, 60))
    for col in ("scenario", "group_label", "metrics"):
        c[col] = c[col].map(chart_label)
    return c[["token", "scenario", "group_label", "metrics", "n_of", "best_text", "status"]].astype(str).to_numpy()


TILE_HALF = 0.45  # half a tile, in category units: tiles never overlap, a gap of 0.1 between neighbours
CLEAR = "rgba(0,0,0,0)"


def mix(c0: str, c1: str, t: float) -> str:
    """The colour a share t (0–1) of the way from hex c0 to hex c1."""
    a = [int(c0[i:i + 2], 16) for i in (1, 3, 5)]
    b = [int(c1[i:i + 2], 16) for i in (1, 3, 5)]
    t = float(min(max(t, 0.0), 1.0))
    return "#" + "".join(f"{round(x + (y - x) * t):02x}" for x, y in zip(a, b))


def tile(x: int, y: int, fill: str, line: str, width: float = 1.0) -> dict:
    h = TILE_HALF
    return dict(type="rect", xref="x", yref="y", x0=x - h, x1=x + h, y0=y - h, y1=y + h, layer="below",
                fillcolor=fill, line=dict(color=line, width=width))


def cross(x: int, y: int, colour: str) -> dict:
    h = TILE_HALF * 0.7
    return dict(type="path", xref="x", yref="y", layer="below", line=dict(color=colour, width=2),
                path=f"M {x - h} {y - h} L {x + h} {y + h} M {x - h} {y + h} L {x + h} {y - h}")


def tile_index(x_order: list[str], y_order: list[str]) -> tuple[dict[str, int], dict[str, int]]:
    """Category positions of a tile grid (rows top to bottom in `y_order`)."""
    return {g: i for i, g in enumerate(x_order)}, {s: i for i, s in enumerate(reversed(y_order))}


def tile_layout(fig: go.Figure, shapes: list[dict], x_order: list[str], y_order: list[str]) -> go.Figure:
    """Finish a tile grid: category axes spanning exactly the tiles (the legend keys' empty traces would
    otherwise make them linear), the tiles as shapes, click-to-select, the legend below. The orders are plotly
    text (escaped as the traces' category values are)."""
    _square_axes(fig, x_order, y_order)
    fig.update_xaxes(type="category", range=[-0.5, len(x_order) - 0.5], showline=False)
    fig.update_yaxes(type="category", range=[-0.5, len(y_order) - 0.5], showline=False)
    fig.update_layout(shapes=shapes, clickmode="event+select", dragmode=False)
    base_layout(fig, height=ROW_PX * len(y_order) + 150)
    fig.update_layout(legend=dict(orientation="h", yanchor="top", y=-0.02, xanchor="left", x=0))
    return fig


def core_grid(cells: pd.DataFrame, view: str, group_order: list[str], scenario_order: list[str],
              other: frozenset[str] | set[str] = frozenset()) -> go.Figure:
    """The 16 × 7 grid as real tiles: equal rectangles in axis units (layout shapes), so neighbours never
    overlap at any window size, with a small gap between them. Over each tile sits an invisible marker that
    carries its hover detail and makes it selectable by click (selection events do not work on heatmaps).

    Measured cells are filled tiles labelled ✓ (paper, schema) or with the number of models that have a value
    (data, shaded by the share of the cohort). Blank cells are empty tiles with a cross; blank cells another view
    counts are drawn in vermillion. The figure depends only on the cells (view and cohort), so a selection
    survives reruns. Rows in `other` (a loaded suite's scenarios that are not among classic's 16 core scenarios,
    drawn after the core ones) are labelled "(other)" in italics, below a dashed line when core rows come first.
    """
    fig = go.Figure()
    xi, yi = tile_index(group_order, scenario_order)  # tile positions (shapes), by the raw names
    gx, sy = dict(zip(group_order, chart_labels(group_order))), dict(zip(scenario_order, chart_labels(scenario_order)))
    shapes: list[dict] = []
    meas = cells[cells["measured"]]
    empty = meas.iloc[0:0]
    if view != "data":
        empty = meas[meas["models_with_value"] == 0]
        meas = meas[meas["models_with_value"] > 0]
    if view == "data":
        shade = meas["share"].fillna(0).to_numpy()
        text = meas["models_with_value"].astype(int).astype(str)
        text_colour = np.where(shade > 0.55, "white", "#1F1F1F")
        fills = [mix(SEQUENTIAL[0][1], SEQUENTIAL[1][1], v) for v in shade]
        name = "measured: the number of cohort models with a value (darker = a larger share)"
        key_colour = mix(SEQUENTIAL[0][1], SEQUENTIAL[1][1], 0.6)
    else:
        text = pd.Series(["✓"] * len(meas), index=meas.index)
        text_colour = np.array(["white"] * len(meas))
        fills = [BLUE] * len(meas)
        name = "measured (✓)"
        key_colour = BLUE
    shapes += [tile(xi[g], yi[sc], f, BLUE) for g, sc, f in zip(meas["group_label"], meas["scenario"], fills)]
    shapes += [tile(xi[g], yi[sc], SKY, BLUE, 2) for g, sc in zip(empty["group_label"], empty["scenario"])]
    blank = cells[~cells["measured"]]
    differs = blank["differs"] != ""
    blank_kinds = ((blank[~differs], GREY, "blank (crossed square)"),
                   (blank[differs], palette.CLAIM, "blank here, but another view counts it"))
    for sub, colour, _ in blank_kinds:
        for g, sc in zip(sub["group_label"], sub["scenario"]):
            shapes += [tile(xi[g], yi[sc], CLEAR, colour, 1.5), cross(xi[g], yi[sc], colour)]

    # Legend keys first (the tiles are shapes, which have no legend entry), then the hover/select layers.
    keys = [(name, dict(symbol="square", color=key_colour, line=dict(width=1, color=BLUE)))]
    if not empty.empty:
        keys.append(("counted here, but no model has a value (∅)",
                     dict(symbol="square", color=SKY, line=dict(width=2, color=BLUE))))
    keys += [(label, dict(symbol=BLANK, color=colour, line=dict(width=2, color=colour)))
             for sub, colour, label in blank_kinds if len(sub)]
    for label, marker in keys:
        fig.add_trace(go.Scatter(x=[None], y=[None], mode="markers", name=label, hoverinfo="skip",
                                 marker=dict(size=14, **marker)))
    # Invisible markers (the same size as a tile at the default height) carry hover and click; the text labels
    # (✓, counts, ∅) are drawn by them, centred on the tile.
    hit = dict(size=CELL_SIZE, color=CLEAR, line=dict(width=0, color=CLEAR))
    pick = dict(selected=dict(marker=dict(opacity=1)), unselected=dict(marker=dict(opacity=1)))
    fig.add_trace(go.Scatter(
        x=meas["group_label"].map(gx), y=meas["scenario"].map(sy), mode="markers+text", name=name, text=text,
        showlegend=False,
        textfont=dict(color=list(text_colour), size=12), textposition="middle center",
        marker=dict(symbol="square", **hit), customdata=_grid_custom(meas), hovertemplate=GRID_HOVER, **pick,
    ))
    if not empty.empty:
        fig.add_trace(go.Scatter(
            x=empty["group_label"].map(gx), y=empty["scenario"].map(sy), mode="markers+text", showlegend=False,
            name="counted here, but no model has a value (∅)", text=["∅"] * len(empty),
            textfont=dict(color="#1F1F1F", size=13), textposition="middle center",
            marker=dict(symbol="square", **hit), customdata=_grid_custom(empty), hovertemplate=GRID_HOVER, **pick,
        ))
    for sub, colour, label in blank_kinds:
        fig.add_trace(go.Scatter(
            x=sub["group_label"].map(gx), y=sub["scenario"].map(sy), mode="markers", name=label, showlegend=False,
            marker=dict(symbol=BLANK, **hit), customdata=_grid_custom(sub), hovertemplate=GRID_HOVER, **pick,
        ))
    tile_layout(fig, shapes, list(gx.values()), list(sy.values()))
    if other:
        fig.update_yaxes(tickmode="array", tickvals=list(sy.values()),
                         ticktext=[f"<i>{sy[s]} (other)</i>" if s in other else sy[s] for s in scenario_order])
        n_core = sum(s not in other for s in scenario_order)
        if n_core:  # a dashed rule between the core rows and the others
            y = len(scenario_order) - n_core - 0.5
            fig.add_shape(type="line", xref="paper", x0=0, x1=1, yref="y", y0=y, y1=y,
                          line=dict(color=GREY, width=1.5, dash="dash"))
    return fig


# ----------------------------------------------------------------------------- coverage
# The builders below take the screen they are drawn for (`mode`: "presenter", "desktop", "phone" or "handout", part
# of a cached spec's key): ui.stage raises their text to 16 px on a stage, so they plan for it (fewer labels, labels
# where they fit, a compact form on a phone); colours come from ui.palette, one meaning each.

GROUP_STYLE = {  # the 2022 paper's cohort and the models added after it: identity series (named in the legend)
    "in the 2022 paper's cohort": ("circle", palette.SERIES[0], ""),
    "added after the paper": ("diamond", palette.SERIES[1], "/"),
    "all models": ("circle", palette.DATA, ""),
}


def phone_mode(mode: str) -> bool:
    return mode == "phone"


def _stage(mode: str) -> bool:
    return mode in ("presenter", "handout")


def coverage_bars(rows: pd.DataFrame, scenarios_word: str = "core-scenario", *, mode: str = "desktop") -> go.Figure:
    """Horizontal bars of coverage rates. `rows`: label, rate (0–1), kind ("paper claim" / "computed"), detail.
    A paper claim is purple and hatched (palette.CLAIM) and says so in its label; a computed rate is solid blue
    (palette.DATA). Each bar is labelled with its rate; on a phone the labels wrap onto two lines."""
    fig = go.Figure()
    phone = phone_mode(mode)
    labels = [wrap_label(x, 20) if phone else chart_label(x) for x in rows["label"]]
    rows = rows.assign(shown=labels)
    for kind, name, colour, pattern in (("paper claim", "paper claim (hatched)", palette.CLAIM, "/"),
                                        ("computed", "computed from the data", palette.DATA, "")):
        sub = rows[rows["kind"] == kind]
        if sub.empty:
            continue
        fig.add_trace(go.Bar(
            x=sub["rate"], y=sub["shown"], orientation="h", name=name,
            marker=dict(color=colour, pattern=dict(shape=pattern, fillmode="overlay", fgcolor="white", solidity=0.3)
                        if pattern else None),
            text=[f"{v:.1%}" for v in sub["rate"]], textposition="outside", cliponaxis=False,
            customdata=stack(sub, ["detail"]),
            hovertemplate="<b>%{y}</b><br>%{x:.1%}<br>%{customdata[0]}<extra></extra>",
        ))
    fig.update_xaxes(range=[0, 1.3 if phone else 1.15], tickvals=[0, 0.25, 0.5, 0.75, 1], tickformat=".0%",
                     title="share of cells measured" if phone else f"share of model × {scenarios_word} cells measured")
    fig.update_yaxes(categoryorder="array", categoryarray=list(reversed(labels)), automargin=True)
    base_layout(fig, height=(110 if phone else 100) + (56 if phone else 46) * len(rows))
    return fig.update_layout(legend=dict(orientation="h", yanchor="bottom", y=1.02, x=0))


def coverage_counts_chart(counts: pd.DataFrame, total: int, *, mode: str = "desktop") -> go.Figure:
    """How many models were measured on how many scenarios (helm_core.coverage.coverage_counts): bars per number of
    scenarios, one series per group (the 2022 paper's cohort and the models added after it, on classic), each bar
    labelled with its count; the models are named in the hover and the data table."""
    fig = go.Figure()
    present = sorted(int(v) for v in counts["measured"].unique()) if len(counts) else [total]
    present_groups = set(counts["group"])
    order = [g for g in GROUP_STYLE if g in present_groups] + sorted(present_groups - set(GROUP_STYLE))
    for group in order:  # the paper's cohort first, as in every chart of the page
        sub = counts[counts["group"] == group]
        symbol, colour, pattern = GROUP_STYLE.get(group, ("circle", palette.DATA, ""))
        names = sub["models"].map(lambda s: wrap_label(str(s), 60))  # "; "-joined; a name may hold "; " itself
        fig.add_trace(go.Bar(
            x=sub["measured"], y=sub["n_models"], name=chart_label(group), text=sub["n_models"].astype(str),
            textposition="outside", cliponaxis=False,
            marker=dict(color=colour, pattern=dict(shape=pattern, fillmode="overlay", fgcolor="white", solidity=0.3)
                        if pattern else None),
            customdata=np.stack([names.astype(str)], axis=-1),
            hovertemplate=(f"<b>%{{y}} model(s), {chart_label(group)}</b><br>"
                           f"measured on %{{x}} of {total} scenarios<br>"
                           "%{customdata[0]}<extra></extra>"),
        ))
    top = float(counts.groupby("measured")["n_models"].max().max()) if len(counts) else 1.0
    fig.update_xaxes(tickmode="array", tickvals=present, ticktext=[str(v) for v in present],
                     title=f"scenarios measured (of {total})", range=[min(present) - 0.7, max(present) + 0.7])
    fig.update_yaxes(title="models", range=[0, top * 1.2 + 1], rangemode="tozero")
    base_layout(fig, height=360)
    return fig.update_layout(barmode="group", bargap=0.25,
                             legend=dict(orientation="h", yanchor="bottom", y=1.02, x=0))


def scenario_coverage_chart(df: pd.DataFrame, scenario_order: list[str], *, mode: str = "desktop") -> go.Figure:
    """Per scenario, the share of models with a value: one marker per group (the paper's cohort and the models
    added after it, on classic), joined by a grey line; the counts k/n in a column of their own at the right, one
    column per group in its colour, so no label ever sits on another."""
    fig = go.Figure()
    groups = list(dict.fromkeys(df["group"]))
    phone = phone_mode(mode)
    # The count columns, in axis units: far enough apart that "39/39" never touches its neighbour (a phone's plot
    # is a third as wide, so its columns are twice as far apart in axis units).
    start, step = (1.2, 0.34) if phone else (1.1, 0.16)
    col_x = [start + step * i for i in range(len(groups))]
    if len(groups) > 1:  # a thin line per scenario between the groups' shares
        xs, ys = [], []
        for s, sub in df.groupby("scenario", sort=False):
            xs += [float(sub["share"].min()), float(sub["share"].max()), None]
            ys += [chart_label(s)] * 2 + [None]
        fig.add_trace(go.Scatter(x=xs, y=ys, mode="lines", line=dict(color=palette.NEUTRAL, width=2),
                                 hoverinfo="skip", showlegend=False))
    for (group, sub), cx in zip(df.groupby("group", sort=False), col_x):
        symbol, colour, _ = GROUP_STYLE.get(group, ("circle", palette.DATA, ""))
        custom = np.stack([sub["measured"].astype(str), sub["total"].astype(str)], axis=-1)
        y = chart_labels(sub["scenario"])
        fig.add_trace(go.Scatter(
            x=sub["share"], y=y, mode="markers", name=f"{chart_label(group)} ({int(sub['total'].iloc[0])})",
            showlegend=True,
            marker=dict(symbol=symbol, size=13, color=colour), customdata=custom,
            hovertemplate=(f"<b>%{{y}}</b><br>{chart_label(group)}: %{{customdata[0]}} of %{{customdata[1]}} models "
                           "(%{x:.0%})<extra></extra>"),
        ))
        fig.add_trace(go.Scatter(
            x=[cx] * len(sub), y=y, mode="text", showlegend=False, hoverinfo="skip",
            text=[f"{m}/{t}" for m, t in zip(sub["measured"], sub["total"])], textposition="middle center",
            textfont=dict(color=colour, size=12),
        ))
    right = col_x[-1] + step * 0.6 if col_x else 1.1
    fig.update_xaxes(range=[-0.04, right], tickvals=[0, 0.5, 1], tickformat=".0%",
                     title="share of models with a value" if phone else "share of models with a main-metric value")
    fig.update_yaxes(categoryorder="array", categoryarray=chart_labels(reversed(scenario_order)), automargin=True)
    if phone:  # long scenario names on two lines, so the plot keeps room for its markers and counts
        fig.update_yaxes(tickmode="array", tickvals=chart_labels(scenario_order),
                         ticktext=[wrap_label(s, 16) for s in scenario_order])
    base_layout(fig, height=(38 if phone else ROW_PX) * len(scenario_order) + 110)
    return fig.update_layout(legend=dict(orientation="h", yanchor="bottom", y=1.01, x=0))


def ground_curve(curves: dict[str, pd.DataFrame], total: int, *, mode: str = "desktop") -> go.Figure:
    """Shared scenarios as models are added (step lines with markers, one per ordering, identity colours)."""
    fig = go.Figure()
    for i, (name, c) in enumerate(curves.items()):
        lost = c["lost"].replace("", "nothing").map(lambda s: wrap_label(s, 60))
        colour = palette.SERIES[i % len(palette.SERIES)]
        fig.add_trace(go.Scatter(
            x=c["step"], y=c["shared"], mode="lines+markers", name=chart_label(name),
            line=dict(shape="hv", dash=DASHES[i % 6], color=colour, width=2.5),
            marker=dict(symbol=SYMBOLS[i % 8], size=8, color=colour),
            customdata=np.stack([chart_labels(c["model"].astype(str)), lost.astype(str)], axis=-1),
            hovertemplate=(f"<b>{chart_label(name)}</b><br>after %{{x}} model(s), last added: %{{customdata[0]}}<br>"
                           f"shared: %{{y}} of {total} scenarios<br>lost at this step: %{{customdata[1]}}"
                           "<extra></extra>"),
        ))
    fig.update_yaxes(range=[-0.5, total + 0.5], title=f"scenarios all share (of {total})" if phone_mode(mode)
                     else f"scenarios every model so far shares (of {total})")
    fig.update_xaxes(title="models added", rangemode="tozero")
    base_layout(fig, height=360)
    return fig.update_layout(legend=dict(orientation="h", yanchor="bottom", y=1.02, x=0))


def overlap_heatmap(overlap: pd.DataFrame, total: int) -> go.Figure:
    """Models × models heatmap of shared scenarios (a desktop screen: every model named, 16 px a row so 12 px
    names never touch; hover names the pair and the count); up to 24 models get the count in each cell. Darker
    blue = more shared (the grid's data shading)."""
    names = chart_labels(overlap.index.astype(str))
    z = overlap.to_numpy()
    fig = go.Figure(go.Heatmap(
        z=z, x=names, y=names, zmin=0, zmax=total, colorscale=SEQUENTIAL,
        colorbar=dict(title=dict(text="shared scenarios", side="right"), thickness=12),
        hovertemplate=f"<b>%{{y}}</b> and <b>%{{x}}</b><br>share %{{z}} of {total} scenarios<extra></extra>",
        texttemplate="%{z}" if len(names) <= 24 else None, textfont=dict(size=12),
    ))
    fig.update_xaxes(tickangle=-90, side="top", automargin=True)
    fig.update_yaxes(autorange="reversed", automargin=True)
    if len(names) > 40:  # columns narrower than a line of text: the rows name the models, the hover the pair
        fig.update_xaxes(showticklabels=False, title=dict(text="the same models, in the same order (hover a cell)"))
    return base_layout(fig, height=max(360, 18 * len(names) + (90 if len(names) > 40 else 260)))


def overlap_counts_chart(counts: pd.DataFrame, total: int, *, mode: str = "desktop") -> go.Figure:
    """How many pairs of models share how many scenarios (helm_core.coverage.overlap_counts): one bar per count,
    labelled with the number of pairs. The stage's and the phone's form of the pairwise overlap (a 67 × 67 heatmap
    cannot name its models there)."""
    fig = go.Figure(go.Bar(
        x=counts["shared"], y=counts["pairs"], name="pairs of models", marker=dict(color=palette.DATA),
        text=[f"{int(v):,}" for v in counts["pairs"]], textposition="outside", cliponaxis=False,
        hovertemplate=f"%{{y:,}} pairs share %{{x}} of {total} scenarios<extra></extra>",
    ))
    present = [int(v) for v in counts["shared"]] or [total]
    top = float(counts["pairs"].max()) if len(counts) else 1.0
    fig.update_xaxes(tickmode="array", tickvals=present, title=f"scenarios a pair shares (of {total})",
                     range=[min(present) - 0.7, max(present) + 0.7])
    fig.update_yaxes(title="pairs of models", range=[0, top * 1.18 + 1])
    return base_layout(fig, height=360)


# ----------------------------------------------------------------------------- cached figure specs
# Building a plotly figure (with validation) costs 5–50 ms; the pages cache these specs with ui.cache.on_release,
# as plain JSON types (stage.plain), and hand the cached dict to the layout as it is: no figure is rebuilt on a rerun.


def grid_spec(release, view: str, models: tuple[str, ...]) -> dict:
    from helm_core import grid as G
    from helm_core.data import CORE_GROUPS, GROUP_LABELS

    cells = G.grid_cells(release, view, models)
    other = frozenset(G.grid_row_kinds(release)[1])
    return plain(core_grid(cells, view, [GROUP_LABELS[g] for g in CORE_GROUPS], list(G.grid_scenarios(release)),
                           other=other))


def coverage_counts_spec(release, models: tuple[str, ...], mode: str = "desktop") -> dict:
    from helm_core import coverage as C

    return plain(coverage_counts_chart(C.coverage_counts(release, models), len(release.taxonomy.scenario_names),
                                       mode=mode))


def scenario_coverage_spec(release, models: tuple[str, ...], mode: str = "desktop") -> dict:
    from helm_core import coverage as C

    return plain(scenario_coverage_chart(C.scenario_coverage(release, models), release.taxonomy.scenario_names,
                                         mode=mode))


def overlap_spec(release, models: tuple[str, ...], mode: str = "desktop") -> dict:
    """The pairwise overlap for the screen: on a desktop the heatmap of every pair, models ordered by their own
    coverage (as the per-model table); on a stage or a phone the pairs counted by scenarios shared."""
    from helm_core import coverage as C

    total = len(release.taxonomy.scenario_names)
    if mode != "desktop":
        return plain(overlap_counts_chart(C.overlap_counts(release, models), total, mode=mode))
    order = list(C.model_coverage(release, models)["model"])
    ov = C.pairwise_overlap(release, models).reindex(index=order, columns=order)
    return plain(overlap_heatmap(ov, total))


