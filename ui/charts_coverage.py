"""Plotly builders for the coverage story: the 16 × 7 core grid, coverage, comparable ground and Metric Orbit.

They take tidy frames from helm_core and return figures; no Streamlit here. Colour never carries meaning alone:
blank cells are crossed squares, groups have their own marker symbols, and cells carry text labels.
"""
from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from .charts import BLACK, BLUE, GREY, OKABE_ITO, ORANGE, SKY, VERMILLION, base_layout, fmt_value

SYMBOLS = ["circle", "diamond", "square", "triangle-up", "cross", "star", "triangle-down", "hexagon"]
DASHES = ["solid", "dash", "dot", "dashdot", "longdash", "longdashdot"]
BLANK = "square-x-open"
# Diverging, colour-blind-safe: vermillion (disagrees with accuracy) – white – blue (agrees).
DIVERGING = [[0.0, VERMILLION], [0.5, "#F7F7F7"], [1.0, BLUE]]
SEQUENTIAL = [[0.0, "#EAF3FB"], [1.0, BLUE]]
CELL_SIZE = 30
ROW_PX = 38


def _stack(df: pd.DataFrame, cols: list[str]) -> np.ndarray | None:
    return df[cols].astype(str).to_numpy() if len(df) else None


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
    c["status"] = [_wrap(s) for s in status]
    c["best_text"] = c["best_text"].map(lambda s: s.replace("; ", "<br>   "))
    return c[["token", "scenario", "group_label", "metrics", "n_of", "best_text", "status"]].astype(str).to_numpy()


def _wrap(text: str, width: int = 70) -> str:
    words, lines, line = text.split(" "), [], ""
    for w in words:
        if len(line) + len(w) + 1 > width and line:
            lines.append(line)
            line = w
        else:
            line = f"{line} {w}" if line else w
    if line:
        lines.append(line)
    return "<br>".join(lines)


TILE_HALF = 0.45  # half a tile, in category units: tiles never overlap, a gap of 0.1 between neighbours
CLEAR = "rgba(0,0,0,0)"


def _mix(c0: str, c1: str, t: float) -> str:
    """The colour a share t (0–1) of the way from hex c0 to hex c1."""
    a = [int(c0[i:i + 2], 16) for i in (1, 3, 5)]
    b = [int(c1[i:i + 2], 16) for i in (1, 3, 5)]
    t = float(min(max(t, 0.0), 1.0))
    return "#" + "".join(f"{round(x + (y - x) * t):02x}" for x, y in zip(a, b))


def _tile(x: int, y: int, fill: str, line: str, width: float = 1.0) -> dict:
    h = TILE_HALF
    return dict(type="rect", xref="x", yref="y", x0=x - h, x1=x + h, y0=y - h, y1=y + h, layer="below",
                fillcolor=fill, line=dict(color=line, width=width))


def _cross(x: int, y: int, colour: str) -> dict:
    h = TILE_HALF * 0.7
    return dict(type="path", xref="x", yref="y", layer="below", line=dict(color=colour, width=2),
                path=f"M {x - h} {y - h} L {x + h} {y + h} M {x - h} {y + h} L {x + h} {y - h}")


def _tile_index(x_order: list[str], y_order: list[str]) -> tuple[dict[str, int], dict[str, int]]:
    """Category positions of a tile grid (rows top to bottom in `y_order`)."""
    return {g: i for i, g in enumerate(x_order)}, {s: i for i, s in enumerate(reversed(y_order))}


def _tile_layout(fig: go.Figure, shapes: list[dict], x_order: list[str], y_order: list[str]) -> go.Figure:
    """Finish a tile grid: category axes spanning exactly the tiles (the legend keys' empty traces would
    otherwise make them linear), the tiles as shapes, click-to-select, the legend below."""
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
    xi, yi = _tile_index(group_order, scenario_order)
    shapes: list[dict] = []
    meas = cells[cells["measured"]]
    empty = meas.iloc[0:0]
    if view != "data":
        empty = meas[meas["models_with_value"] == 0]
        meas = meas[meas["models_with_value"] > 0]
    if view == "data":
        shade = meas["share"].fillna(0).to_numpy()
        text = meas["models_with_value"].astype(int).astype(str)
        text_colour = np.where(shade > 0.55, "white", BLACK)
        fills = [_mix(SEQUENTIAL[0][1], SEQUENTIAL[1][1], v) for v in shade]
        name = "measured: the number of cohort models with a value (darker = a larger share)"
        key_colour = _mix(SEQUENTIAL[0][1], SEQUENTIAL[1][1], 0.6)
    else:
        text = pd.Series(["✓"] * len(meas), index=meas.index)
        text_colour = np.array(["white"] * len(meas))
        fills = [BLUE] * len(meas)
        name = "measured (✓)"
        key_colour = BLUE
    shapes += [_tile(xi[g], yi[sc], f, BLUE) for g, sc, f in zip(meas["group_label"], meas["scenario"], fills)]
    shapes += [_tile(xi[g], yi[sc], SKY, BLUE, 2) for g, sc in zip(empty["group_label"], empty["scenario"])]
    blank = cells[~cells["measured"]]
    differs = blank["differs"] != ""
    blank_kinds = ((blank[~differs], GREY, "blank (crossed square)"),
                   (blank[differs], VERMILLION, "blank here, but another view counts it"))
    for sub, colour, _ in blank_kinds:
        for g, sc in zip(sub["group_label"], sub["scenario"]):
            shapes += [_tile(xi[g], yi[sc], CLEAR, colour, 1.5), _cross(xi[g], yi[sc], colour)]

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
        x=meas["group_label"], y=meas["scenario"], mode="markers+text", name=name, text=text, showlegend=False,
        textfont=dict(color=list(text_colour), size=12), textposition="middle center",
        marker=dict(symbol="square", **hit), customdata=_grid_custom(meas), hovertemplate=GRID_HOVER, **pick,
    ))
    if not empty.empty:
        fig.add_trace(go.Scatter(
            x=empty["group_label"], y=empty["scenario"], mode="markers+text", showlegend=False,
            name="counted here, but no model has a value (∅)", text=["∅"] * len(empty),
            textfont=dict(color=BLACK, size=13), textposition="middle center",
            marker=dict(symbol="square", **hit), customdata=_grid_custom(empty), hovertemplate=GRID_HOVER, **pick,
        ))
    for sub, colour, label in blank_kinds:
        fig.add_trace(go.Scatter(
            x=sub["group_label"], y=sub["scenario"], mode="markers", name=label, showlegend=False,
            marker=dict(symbol=BLANK, **hit), customdata=_grid_custom(sub), hovertemplate=GRID_HOVER, **pick,
        ))
    _tile_layout(fig, shapes, group_order, scenario_order)
    if other:
        fig.update_yaxes(tickmode="array", tickvals=list(scenario_order),
                         ticktext=[f"<i>{s} (other)</i>" if s in other else s for s in scenario_order])
        n_core = sum(s not in other for s in scenario_order)
        if n_core:  # a dashed rule between the core rows and the others
            y = len(scenario_order) - n_core - 0.5
            fig.add_shape(type="line", xref="paper", x0=0, x1=1, yref="y", y0=y, y1=y,
                          line=dict(color=GREY, width=1.5, dash="dash"))
    return fig


# ----------------------------------------------------------------------------- coverage


def coverage_bars(rows: pd.DataFrame, scenarios_word: str = "core-scenario") -> go.Figure:
    """Horizontal bars of coverage rates. `rows`: label, rate (0–1), kind ("paper claim" / "computed"), detail.
    Claims are hatched and say so in their label; computed bars are solid."""
    fig = go.Figure()
    for kind, name, colour, pattern in (("paper claim", "paper claim (hatched)", ORANGE, "/"),
                                        ("computed", "computed from the data", BLUE, "")):
        sub = rows[rows["kind"] == kind]
        if sub.empty:
            continue
        fig.add_trace(go.Bar(
            x=sub["rate"], y=sub["label"], orientation="h", name=name,
            marker=dict(color=colour, pattern=dict(shape=pattern, fillmode="overlay", fgcolor="white", solidity=0.3)
                        if pattern else None),
            text=[f"{v:.1%}" for v in sub["rate"]], textposition="outside",
            customdata=_stack(sub, ["detail"]),
            hovertemplate="<b>%{y}</b><br>%{x:.1%}<br>%{customdata[0]}<extra></extra>",
        ))
    fig.update_xaxes(range=[0, 1.12], tickformat=".0%", title=f"share of model × {scenarios_word} cells measured")
    fig.update_yaxes(categoryorder="array", categoryarray=list(reversed(rows["label"].tolist())))
    return base_layout(fig, height=70 + 46 * len(rows))


def model_coverage_chart(df: pd.DataFrame, total: int, classic: bool = True) -> go.Figure:
    """Scenarios measured per model against its release date; on classic, symbol = in the paper's cohort or added
    later (any other release is one series: the paper's cohort is a classic notion)."""
    fig = go.Figure()
    series = (((True, "in the 2022 paper's cohort", "circle", BLUE), (False, "added after the paper", "diamond", ORANGE))
              if classic else ((None, "models", "circle", BLUE),))
    for flag, name, symbol, colour in series:
        sub = df if flag is None else df[df["paper_cohort"] == flag]
        if sub.empty:
            continue
        missing = sub["missing"].replace("", "none").map(lambda s: _wrap(s, 60))
        fig.add_trace(go.Scatter(
            x=pd.to_datetime(sub["release_date"], errors="coerce"), y=sub["measured"], mode="markers", name=name,
            marker=dict(symbol=symbol, size=10, color=colour, line=dict(width=1, color="white"), opacity=0.85),
            customdata=np.stack([sub["model"].astype(str), missing.astype(str)], axis=-1),
            hovertemplate=(f"<b>%{{customdata[0]}}</b><br>released %{{x|%Y-%m-%d}}<br>%{{y}} of {total} scenarios"
                           "<br>missing: %{customdata[1]}<extra></extra>"),
        ))
    fig.update_yaxes(range=[-0.5, total + 0.8], title=f"{'core ' if classic else ''}scenarios measured (of {total})",
                     dtick=2 if total > 8 else 1)
    fig.update_xaxes(title="model release date (HELM metadata)")
    return base_layout(fig, height=380)


def scenario_coverage_chart(df: pd.DataFrame, scenario_order: list[str]) -> go.Figure:
    """Per scenario, the share of models with a value, one marker series per model group, labelled k/n."""
    fig = go.Figure()
    styles = {"in the 2022 paper's cohort": ("circle", BLUE), "added after the paper": ("diamond", ORANGE),
              "all models": ("circle", BLUE)}
    for group, sub in df.groupby("group", sort=False):
        symbol, colour = styles.get(group, ("square", SKY))
        fig.add_trace(go.Scatter(
            x=sub["share"], y=sub["scenario"], mode="markers+text", name=group,
            text=[f"{m}/{t}" for m, t in zip(sub["measured"], sub["total"])], textposition="middle right",
            textfont=dict(size=10, color=colour),
            marker=dict(symbol=symbol, size=11, color=colour),
            customdata=np.stack([sub["measured"].astype(str), sub["total"].astype(str)], axis=-1),
            hovertemplate=(f"<b>%{{y}}</b><br>{group}: %{{customdata[0]}} of %{{customdata[1]}} models "
                           "(%{x:.0%})<extra></extra>"),
        ))
    fig.update_xaxes(range=[-0.03, 1.18], tickformat=".0%", title="share of models with a main-metric value")
    fig.update_yaxes(categoryorder="array", categoryarray=list(reversed(scenario_order)))
    return base_layout(fig, height=ROW_PX * len(scenario_order) + 90)


def ground_curve(curves: dict[str, pd.DataFrame], total: int) -> go.Figure:
    """Shared scenarios as models are added (step lines with markers, one per ordering)."""
    fig = go.Figure()
    for i, (name, c) in enumerate(curves.items()):
        lost = c["lost"].replace("", "nothing").map(lambda s: _wrap(s, 60))
        fig.add_trace(go.Scatter(
            x=c["step"], y=c["shared"], mode="lines+markers", name=name, line=dict(shape="hv", dash=DASHES[i % 6],
                                                                               color=OKABE_ITO[i % 8]),
            marker=dict(symbol=SYMBOLS[i % 8], size=8, color=OKABE_ITO[i % 8]),
            customdata=np.stack([c["model"].astype(str), lost.astype(str)], axis=-1),
            hovertemplate=(f"<b>{name}</b><br>after %{{x}} model(s), last added: %{{customdata[0]}}<br>"
                           f"shared: %{{y}} of {total} scenarios<br>lost at this step: %{{customdata[1]}}"
                           "<extra></extra>"),
        ))
    fig.update_yaxes(range=[-0.5, total + 0.5], title=f"scenarios every model so far shares (of {total})")
    fig.update_xaxes(title="models added", rangemode="tozero")
    return base_layout(fig, height=360)


def overlap_heatmap(overlap: pd.DataFrame, total: int) -> go.Figure:
    """Models × models heatmap of shared scenarios (hover names the pair and the count); small matrices get
    the count written in each cell."""
    names = [str(n) for n in overlap.index]
    z = overlap.to_numpy()
    fig = go.Figure(go.Heatmap(
        z=z, x=names, y=names, zmin=0, zmax=total, colorscale="Cividis",
        colorbar=dict(title=dict(text="shared<br>scenarios"), thickness=12),
        hovertemplate=f"<b>%{{y}}</b> and <b>%{{x}}</b><br>share %{{z}} of {total} scenarios<extra></extra>",
        texttemplate="%{z}" if len(names) <= 24 else None, textfont=dict(size=9),
    ))
    fig.update_xaxes(tickangle=-60, tickfont=dict(size=9), side="top")
    fig.update_yaxes(autorange="reversed", tickfont=dict(size=9))
    side = max(320, 13 * len(names) + 200)
    return base_layout(fig, height=side)


# ----------------------------------------------------------------------------- Metric Orbit


def profile_radar(profiles: pd.DataFrame, group_order: list[str]) -> go.Figure:
    """Radar of win rates across the 7 groups, one closed line per model with its own symbol and dash.
    A group where a model has no value is a gap in its line (and says "no value" in the data table)."""
    fig = go.Figure()
    for i, (model, sub) in enumerate(profiles.groupby("model", sort=False)):
        sub = sub.set_index("group_label").reindex(group_order)
        r = sub["win_rate"].to_numpy(dtype=float)
        theta = list(group_order)
        fig.add_trace(go.Scatterpolar(
            r=np.append(r, r[0]), theta=theta + theta[:1], name=str(model), mode="lines+markers",
            connectgaps=False,
            line=dict(color=OKABE_ITO[i % 8], dash=DASHES[i % 6], width=2),
            marker=dict(symbol=SYMBOLS[i % 8], size=9, color=OKABE_ITO[i % 8]),
            hovertemplate=f"<b>{model}</b><br>%{{theta}}: win rate %{{r:.2f}}<extra></extra>",
        ))
    fig.update_layout(polar=dict(radialaxis=dict(range=[0, 1], tickformat=".1f", angle=90, tickfont=dict(size=9)),
                                 angularaxis=dict(direction="clockwise", tickfont=dict(size=12))))
    base_layout(fig, height=480)
    # Room around the polar area: the top group's label sits above the circle and the side labels beside it;
    # with base_layout's 10 px margins the top label was cut off.
    fig.update_layout(legend=dict(orientation="h", yanchor="top", y=-0.08, xanchor="left", x=0),
                      margin=dict(t=RADAR_MARGIN, b=RADAR_MARGIN, l=RADAR_SIDE, r=RADAR_SIDE))
    return fig


RADAR_MARGIN, RADAR_SIDE = 48, 90


def profile_bars(profiles: pd.DataFrame, group_order: list[str]) -> go.Figure:
    """Win rates of the chosen models in one or two groups (a radar needs three axes): grouped horizontal bars,
    one per model, each with its own pattern and its value written beside it; a missing value says so."""
    fig = go.Figure()
    patterns = ["", "/", "x", ".", "\\", "+"]
    for i, (model, sub) in enumerate(profiles.groupby("model", sort=False)):
        sub = sub.set_index("group_label").reindex(group_order)
        r = sub["win_rate"].to_numpy(dtype=float)
        fig.add_trace(go.Bar(
            x=np.nan_to_num(r, nan=0.0), y=list(group_order), orientation="h", name=str(model),
            marker=dict(color=OKABE_ITO[i % 8], pattern=dict(shape=patterns[i % len(patterns)], fillmode="overlay",
                                                               fgcolor="white", solidity=0.3)),
            text=["no value" if np.isnan(v) else f"{v:.2f}" for v in r], textposition="outside",
            hovertemplate=f"<b>{model}</b><br>%{{y}}: win rate %{{text}}<extra></extra>",
        ))
    fig.update_xaxes(range=[0, 1.15], tickformat=".1f", title="win rate (share of the other models beaten)")
    fig.update_yaxes(categoryorder="array", categoryarray=list(reversed(group_order)))
    base_layout(fig, height=160 + 40 * len(group_order) * max(1, profiles["model"].nunique()))
    fig.update_layout(barmode="group", legend=dict(orientation="h", yanchor="top", y=-0.25, xanchor="left", x=0))
    return fig


CORR_HOVER = (
    "<b>%{customdata[1]} × %{customdata[2]}</b><br>metric: %{customdata[3]}<br>"
    "Spearman ρ with accuracy: %{customdata[4]}<br>agreement (sign flipped when lower is better): "
    "%{customdata[5]}<br>models: %{customdata[6]}<br>%{customdata[7]}<extra></extra>"
)


def _corr_custom(df: pd.DataFrame) -> np.ndarray | None:
    if df.empty:
        return None
    c = df.copy()
    c["rho_t"] = c["rho"].map(lambda v: fmt_value(v, 2))
    c["agr_t"] = c["agreement"].map(lambda v: fmt_value(v, 2))
    c["metric_t"] = c["metric"].replace("", "none")
    c["status_t"] = c["status"].replace("ok", "")
    return c[["token", "scenario", "group_label", "metric_t", "rho_t", "agr_t", "n", "status_t"]].astype(str).to_numpy()


def _diverging(v: float) -> str:
    """The DIVERGING colour of an agreement in [-1, 1]."""
    t = (min(max(float(v), -1.0), 1.0) + 1) / 2
    (a, c0), (b, c1) = (DIVERGING[0], DIVERGING[1]) if t <= 0.5 else (DIVERGING[1], DIVERGING[2])
    return _mix(c0, c1, (t - a) / (b - a))


def correlation_grid(corr: pd.DataFrame, group_order: list[str], scenario_order: list[str]) -> go.Figure:
    """Scenario × group grid of the agreement of each metric with accuracy, as real tiles (shapes, never
    overlapping) with invisible markers over them that carry the hover and the click to pick a pair; each cell is
    labelled with its value; cells without a correlation are crossed tiles."""
    corr = corr.copy()
    corr["token"] = corr["scenario"] + "|" + corr["metric_group"]
    fig = go.Figure()
    xi, yi = _tile_index(group_order, scenario_order)
    ok = corr[corr["agreement"].notna()]
    none = corr[corr["agreement"].isna()]
    a = ok["agreement"].to_numpy(dtype=float)
    shapes = [_tile(xi[g], yi[sc], _diverging(v), GREY) for g, sc, v in zip(ok["group_label"], ok["scenario"], a)]
    for g, sc in zip(none["group_label"], none["scenario"]):
        shapes += [_tile(xi[g], yi[sc], CLEAR, GREY, 1.5), _cross(xi[g], yi[sc], GREY)]
    fig.add_trace(go.Scatter(x=[None], y=[None], mode="markers", name="agreement with accuracy (labelled)",
                             hoverinfo="skip", marker=dict(symbol="square", size=14, color=BLUE)))
    if len(none):
        fig.add_trace(go.Scatter(x=[None], y=[None], mode="markers", name="no correlation (crossed): see hover",
                                 hoverinfo="skip", marker=dict(symbol=BLANK, size=14, color=GREY,
                                                               line=dict(width=1.5, color=GREY))))
    hidden = dict(opacity=0)
    pick = dict(selected=dict(marker=hidden), unselected=dict(marker=hidden))
    fig.add_trace(go.Scatter(
        x=ok["group_label"], y=ok["scenario"], mode="markers+text", name="agreement with accuracy (labelled)",
        showlegend=False,
        text=[f"{v:+.2f}" for v in a], textfont=dict(size=10, color=list(np.where(np.abs(a) > 0.6, "white", BLACK))),
        textposition="middle center",
        # invisible markers: they carry the colour bar, the hover and the click; the tiles are the shapes
        marker=dict(symbol="square", size=CELL_SIZE, color=a, cmin=-1, cmax=1, colorscale=DIVERGING, opacity=0,
                    colorbar=dict(title=dict(text="agreement"), thickness=12, len=0.6, y=0.7)),
        customdata=_corr_custom(ok), hovertemplate=CORR_HOVER, **pick,
    ))
    fig.add_trace(go.Scatter(
        x=none["group_label"], y=none["scenario"], mode="markers", name="no correlation (crossed): see hover",
        showlegend=False, marker=dict(symbol=BLANK, size=CELL_SIZE, color=GREY, opacity=0),
        customdata=_corr_custom(none), hovertemplate=CORR_HOVER, **pick,
    ))
    return _tile_layout(fig, shapes, group_order, scenario_order)


def pair_scatter(pairs: pd.DataFrame, x_title: str, y_title: str, lower_is_better: bool | None,
                 highlight: list[str] | None = None) -> go.Figure:
    """Accuracy (x) against one metric (y) across models; models in `highlight` get their own labelled marker."""
    fig = go.Figure()
    hl = set(highlight or [])
    rest = pairs[~pairs["model"].isin(hl)]
    fig.add_trace(go.Scatter(
        x=rest["accuracy"], y=rest["value"], mode="markers", name="models",
        marker=dict(symbol="circle", size=9, color=BLUE, opacity=0.8, line=dict(width=1, color="white")),
        customdata=_stack(rest, ["model"]),
        hovertemplate=f"<b>%{{customdata[0]}}</b><br>{x_title}: %{{x:.3f}}<br>{y_title}: %{{y:.3f}}<extra></extra>",
    ))
    sub = pairs[pairs["model"].isin(hl)]
    if not sub.empty:
        fig.add_trace(go.Scatter(
            x=sub["accuracy"], y=sub["value"], mode="markers+text", name="models in your profile",
            text=sub["model"], textposition="top center", textfont=dict(size=10),
            marker=dict(symbol="star", size=13, color=ORANGE, line=dict(width=1, color=BLACK)),
            customdata=_stack(sub, ["model"]),
            hovertemplate=f"<b>%{{customdata[0]}}</b><br>{x_title}: %{{x:.3f}}<br>{y_title}: %{{y:.3f}}<extra></extra>",
        ))
    if len(pairs):
        lo, hi = float(pairs["accuracy"].min()), float(pairs["accuracy"].max())
        span = (hi - lo) or 0.1
        fig.update_xaxes(range=[lo - 0.08 * span, hi + 0.25 * span])
    suffix = " (lower is better)" if lower_is_better else (" (higher is better)" if lower_is_better is False else "")
    fig.update_xaxes(title=f"{x_title} (higher is better)")
    fig.update_yaxes(title=f"{y_title}{suffix}")
    return base_layout(fig, height=400)


# ----------------------------------------------------------------------------- cached figure specs
# Building a plotly figure (with validation) costs 5–50 ms; the pages cache these specs with ui.cache.on_release
# and rebuild the figure from the cached dict without re-validating it.


def grid_spec(release, view: str, models: tuple[str, ...]) -> dict:
    from helm_core import grid as G
    from helm_core.data import CORE_GROUPS, GROUP_LABELS

    cells = G.grid_cells(release, view, models)
    other = frozenset(G.grid_row_kinds(release)[1])
    return core_grid(cells, view, [GROUP_LABELS[g] for g in CORE_GROUPS], list(G.grid_scenarios(release)),
                     other=other).to_dict()


def model_coverage_spec(release, models: tuple[str, ...]) -> dict:
    from helm_core import coverage as C

    return model_coverage_chart(C.model_coverage(release, models), len(release.taxonomy.scenario_names),
                                classic=release.is_classic).to_dict()


def scenario_coverage_spec(release, models: tuple[str, ...]) -> dict:
    from helm_core import coverage as C

    return scenario_coverage_chart(C.scenario_coverage(release, models), release.taxonomy.scenario_names).to_dict()


def overlap_spec(release, models: tuple[str, ...]) -> dict:
    """The pairwise-overlap heatmap, models ordered by their own coverage (as the per-model table)."""
    from helm_core import coverage as C

    order = list(C.model_coverage(release, models)["model"])
    ov = C.pairwise_overlap(release, models).reindex(index=order, columns=order)
    return overlap_heatmap(ov, len(release.taxonomy.scenario_names)).to_dict()


def correlation_spec(release, models: tuple[str, ...], bias_metric: str) -> dict:
    from helm_core import metrics as M
    from helm_core.data import GROUP_LABELS

    corr = M.accuracy_correlations(release, models, bias_metric)
    return correlation_grid(corr, [GROUP_LABELS[g] for g in M.OTHER_GROUPS], release.taxonomy.scenario_names).to_dict()
