"""Plotly builders for the Rankings pages (podium, cost). Tidy frames in, figures out; no Streamlit here.

Every builder takes the screen it is drawn for (`mode`: "presenter", "desktop", "phone", "handout"; ui.slides) and
plans its labels for it: full names (never cut with "…"), inside the plot at every width, never under a mark.
Names from the data go through helm_core.escape.chart_label. Colours are ui.palette's semantic ones.
"""
from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from . import palette
from .charts import base_layout, fmt_value
from .stage import plain
from helm_core import fmt
from helm_core.data import GROUP_LABELS
from helm_core.escape import chart_label, unchart_label

UP, DOWN, SAME = palette.UP, palette.DOWN, palette.NEUTRAL

# What a chart can plan with per screen: the plot's width in px (the chart's width less its margins), the text
# size (ui.stage raises presenter text to 16 px) and the height the chart gets (presenter: the stage's).
PLOT_WIDTH = {"presenter": 1180, "desktop": 900, "phone": 340, "handout": 950}
FONT = {"presenter": 16, "desktop": 12, "phone": 11, "handout": 12}
STAGE_CHART = 520  # a presenter chart's height under a two-line point (ui.slides.stage_height)
CHAR = 0.56  # average character width, in ems


def group_label(g: str) -> str:
    return GROUP_LABELS.get(g, g)


def font_px(mode: str) -> int:
    return FONT.get(mode, FONT["desktop"])


def plot_width(mode: str) -> int:
    return PLOT_WIDTH.get(mode, PLOT_WIDTH["desktop"])


def text_px(text: str, font: int) -> float:
    """The width a line of text takes, estimated (the longest line of a <br>-wrapped label)."""
    lines = str(text).split("<br>")
    return max(len(unchart_label(ln)) for ln in lines) * font * CHAR


def wrap(text: str, width: int) -> str:
    """Plain text broken at spaces into lines of at most `width` characters (a longer word keeps its line),
    escaped for plotly and joined with <br>."""
    lines: list[str] = []
    for word in str(text).split(" "):
        if lines and len(lines[-1]) + 1 + len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return "<br>".join(chart_label(ln) for ln in lines)


# ----------------------------------------------------------------------------- rows with their names above
# A list of models (or sets) as rows, each row's name written above its marks, across the plot's width: long names
# never squeeze the plot as tick labels would on a phone, and a name is never cut.


def _row_names(fig: go.Figure, names: list[str], y: list[float], x: float, font: int, **cell) -> None:
    fig.add_trace(go.Scatter(
        x=[x] * len(names), y=y, mode="text", text=[chart_label(n) for n in names], textposition="middle right",
        textfont=dict(size=font), hoverinfo="skip", showlegend=False, cliponaxis=False,
    ), **cell)


def _rows_layout(fig: go.Figure, n_rows: int, row_px: float, *, legend: bool, font: int, mode: str) -> go.Figure:
    """Reversed numeric rows 0..n-1 (first on top), no y ticks; the legend at the bottom of the chart, under the
    x axis and its title (never over them), with room for as many lines as its entries need at this width."""
    fig.update_yaxes(range=[n_rows - 0.45, -0.75], showticklabels=False, showgrid=False, zeroline=False,
                     fixedrange=True)
    axis = 2 * font + 24  # tick labels and the axis title
    lines = 0
    if legend:
        names = [t.name for t in fig.data if t.showlegend is not False and t.name]
        widths = [text_px(n, font) + 40 for n in names]
        lines, used = 1, 0.0
        for w in widths:
            if used and used + w > plot_width(mode):
                lines, used = lines + 1, 0.0
            used += w
    bottom = axis + (lines * (font * 1.5 + 4) + 8 if lines else 0)
    base_layout(fig, height=int(n_rows * row_px + bottom + 30))
    fig.update_layout(margin=dict(l=10, r=10, t=30, b=bottom), showlegend=legend,
                      legend=dict(orientation="h", yref="container", y=0, yanchor="bottom", xanchor="left", x=0))
    return fig


# ----------------------------------------------------------------------------- podium page: the slope chart


def slope_rows(shift: pd.DataFrame, top_n: int) -> pd.DataFrame:
    """The models in the top `top_n` of either ranking, with each side's row (1 = top) among them."""
    sel = shift[(shift["rank_a"] <= top_n) | (shift["rank_b"] <= top_n)].copy()
    names = sel.index.astype(str).to_numpy()
    for side in ("a", "b"):
        row = np.empty(len(sel), dtype=int)
        row[np.lexsort((names, sel[f"rank_{side}"].to_numpy()))] = np.arange(1, len(sel) + 1)
        sel[f"row_{side}"] = row
    return sel


def slope_chart(shift: pd.DataFrame, top_n: int, label_a: str, label_b: str, *, mode: str = "desktop") -> go.Figure:
    """Rank changes from ranking a (left) to ranking b (right) for the models in the top `top_n` of either.

    `shift` is ranking.rank_shift output (index model; rank_a, rank_b, shift). Each side lists the selected
    models in its own order, one row each, every endpoint named in full with its true rank ("#12 name"); lines
    going up are solid green, down dashed vermillion, unchanged dotted grey, with triangle markers, so direction
    is not carried by colour alone. On a phone the same data is one row per model (`rank_rows_chart`)."""
    sel = slope_rows(shift, top_n)
    if mode == "phone":
        return rank_rows_chart(sel, label_a, label_b, mode=mode)
    font = font_px(mode)
    names = sel.index.to_numpy(dtype=object)
    ra, rb = sel["rank_a"].to_numpy(dtype=float), sel["rank_b"].to_numpy(dtype=float)
    ya, yb = sel["row_a"].to_numpy(dtype=float), sel["row_b"].to_numpy(dtype=float)
    sh = sel["shift"].to_numpy(dtype=float)
    k = len(sel)
    left = [f"#{int(v)} {chart_label(m)}" for m, v in zip(names, ra)]
    right = [f"{chart_label(m)} #{int(v)}" for m, v in zip(names, rb)]
    w_label = max([text_px(t, font) for t in left + right] or [0]) + 16
    width = plot_width(mode)
    room = max(width - 2 * w_label, 0.25 * width)  # the lines' own width
    side = max(0.12, w_label / room)
    traces = []
    hover = ("<b>%{customdata[0]}</b><br>" + chart_label(label_a.replace("<br>", " ")) + ": #%{customdata[1]}<br>"
             + chart_label(label_b.replace("<br>", " ")) + ": #%{customdata[2]}<br>change: %{customdata[3]} places"
             "<extra></extra>")
    styles = (("moved up", sh > 0, UP, "solid", "triangle-up"),
              ("moved down", sh < 0, DOWN, "dash", "triangle-down"),
              ("same place", sh == 0, SAME, "dot", "circle"))
    for name, mask, colour, dash, symbol in styles:
        n = int(mask.sum())
        if n == 0:
            continue
        x = np.tile(np.array([0.0, 1.0, np.nan]), n)
        y = np.column_stack([ya[mask], yb[mask], np.full(n, np.nan)]).ravel()
        info = np.column_stack([[chart_label(m) for m in names[mask]], ra[mask].astype(int).astype(str),
                                rb[mask].astype(int).astype(str), [f"{int(v):+d}" for v in sh[mask]]])
        traces.append(go.Scatter(
            x=x, y=y, mode="lines+markers", name=name, customdata=np.repeat(info, 3, axis=0), connectgaps=False,
            line=dict(color=colour, dash=dash, width=2.5), marker=dict(symbol=symbol, size=10, color=colour),
            hovertemplate=hover,
        ))
    for x, y, text, pos in ((-0.03, ya, left, "middle left"), (1.03, yb, right, "middle right")):
        traces.append(go.Scatter(x=np.full(k, x), y=y, mode="text", text=text, textposition=pos,
                                 textfont=dict(size=font), hoverinfo="skip", showlegend=False, cliponaxis=False))
    fig = go.Figure(data=traces)
    chars = max(10, int((w_label - 16) / (font * CHAR)))
    head_a, head_b = wrap(label_a, chars), wrap(label_b, chars)
    head_lines = max(head_a.count("<br>"), head_b.count("<br>")) + 1
    top = int(head_lines * font * 1.35 + 14)
    for x, text, anchor in ((-0.03, head_a, "right"), (1.03, head_b, "left")):
        fig.add_annotation(x=x, y=1, xref="x", yref="paper", yanchor="bottom", xanchor=anchor, text=f"<b>{text}</b>",
                           showarrow=False, align=anchor, font=dict(size=font + 1))
    row_px = font * 1.45 + 4
    bottom = font * 2 + 20
    fig.update_layout(
        xaxis=dict(range=[-side, 1 + side], showticklabels=False, showgrid=False, zeroline=False, fixedrange=True),
        yaxis=dict(range=[k + 0.6, 0.4], showticklabels=False, showgrid=False, zeroline=False, fixedrange=True),
    )
    base_layout(fig, height=int(max(300, k * row_px + top + bottom)))
    fig.update_layout(margin=dict(l=10, r=10, t=top, b=bottom),
                      legend=dict(orientation="h", yanchor="top", y=0, yref="paper", xanchor="center", x=0.5))
    return fig


def rank_rows_chart(sel: pd.DataFrame, label_a: str, label_b: str, *, mode: str = "phone") -> go.Figure:
    """One row per model (in ranking b's order): its name and both ranks written above a line from its rank
    under a (open circle) to its rank under b (triangle). The phone's slope chart: every endpoint named, nothing
    wider than the screen."""
    font = font_px(mode)
    s = sel.sort_values(["rank_b", "rank_a"], kind="mergesort")
    names = s.index.astype(str).tolist()
    ra, rb, sh = (s[c].to_numpy(dtype=float) for c in ("rank_a", "rank_b", "shift"))
    y = np.arange(len(s), dtype=float)
    fig = go.Figure()
    a_name = label_a.replace("<br>", " ")
    b_name = label_b.replace("<br>", " ")
    for name, mask, colour, dash, symbol in (("moved up", sh > 0, UP, "solid", "triangle-up"),
                                             ("moved down", sh < 0, DOWN, "dash", "triangle-down"),
                                             ("same place", sh == 0, SAME, "dot", "circle")):
        if not mask.any():
            continue
        n = int(mask.sum())
        fig.add_trace(go.Scatter(
            x=np.column_stack([ra[mask], rb[mask], np.full(n, np.nan)]).ravel(),
            y=np.column_stack([y[mask], y[mask], np.full(n, np.nan)]).ravel(), mode="lines", name=name,
            line=dict(color=colour, dash=dash, width=2.5), hoverinfo="skip"))
        fig.add_trace(go.Scatter(x=rb[mask], y=y[mask], mode="markers", showlegend=False, name=name,
                                 marker=dict(symbol=symbol, size=11, color=colour),
                                 hovertemplate="%{x}<extra></extra>"))
    fig.add_trace(go.Scatter(x=ra, y=y, mode="markers", name=chart_label(a_name) + " (open circle)",
                             marker=dict(symbol="circle-open", size=10, color=palette.INK, line=dict(width=2)),
                             hoverinfo="skip"))
    top = float(max(ra.max(), rb.max())) if len(s) else 1.0
    labels = [f"{m}: #{int(a)} → #{int(b)}" for m, a, b in zip(names, ra, rb)]
    _row_names(fig, labels, list(y - 0.42), 0.5, font)
    fig.update_xaxes(range=[0.5, top + 0.9], title=dict(text=f"rank (1 = best): {chart_label(a_name)} → "
                                                             f"{chart_label(b_name)}" if mode != "phone"
                     else "rank (1 = best)"), zeroline=False, fixedrange=True,
                     tickvals=[1] + [v for v in (5, 10, 20, 30, 40, 50, 60, 70, 80, 90) if v <= top])
    return _rows_layout(fig, len(s), font * 1.4 + 22, legend=True, font=font, mode=mode)


def weights_bar(weights: pd.Series, coverage: pd.Series | None = None, n_models: int | None = None) -> go.Figure:
    """The recipe's normalised weights as horizontal bars labelled with their share."""
    w = weights.reindex([g for g in weights.index if g in GROUP_LABELS])
    labels = [group_label(g) for g in w.index]
    hover = []
    for g in w.index:
        extra = ""
        if coverage is not None and n_models:
            extra = f"<br>{int(coverage.get(g, 0))} of {n_models} models have a value"
        hover.append(extra)
    fig = go.Figure(go.Bar(
        x=w.to_numpy(), y=labels, orientation="h",
        marker=dict(color=[palette.DATA if v > 0 else palette.NEUTRAL for v in w]),
        text=[fmt.share(v, 0) for v in w], textposition="outside", customdata=hover, cliponaxis=False,
        hovertemplate="<b>%{y}</b>: %{x:.0%} of the recipe%{customdata}<extra></extra>", name="weight",
    ))
    fig.update_xaxes(range=[0, max(0.5, float(w.max()) * 1.25)], tickformat=".0%", title="share of the recipe")
    fig.update_yaxes(categoryorder="array", categoryarray=list(reversed(labels)), automargin=True)
    return base_layout(fig, height=250)


def stability_chart(stab: pd.DataFrame, top: int = 8, *, mode: str = "desktop") -> go.Figure:
    """P(#1) and P(top 3) for the leading models under perturbed weights: one row per model, its name above two
    bars (P(#1) solid, P(top 3) hatched, so the two differ by more than colour), each labelled with its share."""
    font = font_px(mode)
    s = stab.head(top).sort_values(["p_top3", "p_first"], ascending=False)
    names = [str(m) for m in s.index]
    y = np.arange(len(s), dtype=float)
    fig = go.Figure()
    for label, col, offset, pattern in (("P(#1): first", "p_first", -0.06, None),
                                        ("P(top 3): on the podium", "p_top3", 0.28, "/")):
        marker = dict(color=palette.DATA, line=dict(color=palette.DATA, width=1.5))
        if pattern:
            marker = dict(color="rgba(0,0,0,0)", line=dict(color=palette.DATA, width=1.5),
                          pattern=dict(shape=pattern, fgcolor=palette.DATA, solidity=0.45))
        fig.add_trace(go.Bar(
            y=y + offset, x=s[col], orientation="h", width=0.28, name=label, marker=marker,
            text=[fmt.share(v, 1) for v in s[col]], textposition="outside", cliponaxis=False, constraintext="none",
            textfont=dict(size=font), customdata=[chart_label(n) for n in names],
            hovertemplate="<b>%{customdata}</b><br>" + label + " in %{x:.1%} of the weight samples<extra></extra>",
        ))
    _row_names(fig, names, list(y - 0.4), 0, font)
    fig.update_xaxes(range=[0, 1.22], tickformat=".0%", title="share of weight samples", fixedrange=True,
                     tickvals=[0, 0.25, 0.5, 0.75, 1])
    return _rows_layout(fig, len(s), font * 1.4 + 2 * font * 1.2 + 8, legend=True, font=font, mode=mode)


def paper_podium_chart(check: pd.DataFrame, *, mode: str = "desktop") -> go.Figure:
    """The 2022 paper's accuracy podium against this release's ranks: per model of the paper's three (its name
    above), the paper's place (a claim: purple diamond), its rank among the paper's cohort recomputed from this
    release, and its rank among every model of the release; each mark labelled with its rank."""
    font = font_px(mode)
    y0 = np.arange(len(check), dtype=float)
    fig = go.Figure()
    n_all = int(check["n"].iloc[0]) if len(check) else 1
    n_cohort = int(check["cohort_n"].iloc[0]) if len(check) else 1
    series = [("the 2022 paper's place (claim)", "paper_place", None, -0.125, "diamond", palette.CLAIM),
              (f"rank among the paper's {n_cohort} models, recomputed", "cohort_rank", n_cohort, 0.125,
               "circle-open", palette.DATA),
              (f"rank among all {n_all} models of this release", "rank", n_all, 0.375, "circle", palette.DATA)]
    for label, col, of, offset, symbol, colour in series:
        v = check[col].to_numpy(dtype=float)
        ok = ~np.isnan(v)
        if not ok.any():
            continue
        text = [f"#{int(r)}" + (f" of {of}" if of else " (paper)") for r in v[ok]]
        fig.add_trace(go.Scatter(
            x=v[ok], y=y0[ok] + offset, mode="markers+text", name=label, text=text, textposition="middle right",
            textfont=dict(size=font), cliponaxis=False,
            marker=dict(symbol=symbol, size=13, color=colour, line=dict(color=colour, width=2)),
            customdata=[chart_label(m) for m in check["model"][ok]],
            hovertemplate="<b>%{customdata}</b><br>" + chart_label(label) + ": #%{x}<extra></extra>",
        ))
    _row_names(fig, check["model"].astype(str).tolist(), list(y0 - 0.375), 0.5, font)
    high = float(np.nanmax(check[["paper_place", "rank", "cohort_rank"]].to_numpy(dtype=float))) if len(check) else 3
    room = text_px(f"#{int(high)} of {n_all}", font) / plot_width(mode)  # the label right of the last mark
    fig.update_xaxes(range=[0.5, (high + 0.5) / max(0.5, 1 - room - 0.04)], title="rank (1 = best)", zeroline=False,
                     fixedrange=True, tickvals=[1] + [v for v in (5, 10, 20, 30, 40, 50, 60, 70, 80, 90) if v <= high])
    return _rows_layout(fig, len(check), 4 * font * 1.6 + 8, legend=True, font=font, mode=mode)


def rival_bars(rows: pd.DataFrame, model: str, *, mode: str = "desktop") -> go.Figure:
    """One model's accuracy win rate against each field of rivals (rows: label, win_rate, rank, n, chosen),
    one bar per field, its name above it; the full field in neutral grey, the chosen field highlighted."""
    font = font_px(mode)
    y = np.arange(len(rows), dtype=float)
    colours = [palette.HIGHLIGHT if c else (palette.NEUTRAL if i == 0 else palette.DATA)
               for i, c in enumerate(rows["chosen"])]
    text = [("no win rate" if pd.isna(w) else f"{fmt.value(w)} · #{int(r)} of {int(n)}")
            for w, r, n in zip(rows["win_rate"], rows["rank"], rows["n"])]
    fig = go.Figure(go.Bar(
        y=y + 0.12, x=rows["win_rate"].fillna(0), orientation="h", width=0.5, marker=dict(color=colours),
        text=text, textposition="outside", cliponaxis=False, constraintext="none", textfont=dict(size=font),
        showlegend=False,
        customdata=[chart_label(x) for x in rows["label"]],
        hovertemplate="<b>%{customdata}</b><br>accuracy win rate %{x:.3f}<extra></extra>",
    ))
    _row_names(fig, rows["label"].astype(str).tolist(), list(y - 0.38), 0, font)
    room = text_px("0.000 · #00 of 00", font) / plot_width(mode)
    fig.update_xaxes(range=[0, 1 / max(0.4, 1 - room - 0.04)], fixedrange=True,
                     title=dict(text=f"{chart_label(model)}: accuracy win rate" if mode != "phone"
                                else "accuracy win rate"), tickvals=[0, 0.25, 0.5, 0.75, 1])
    return _rows_layout(fig, len(rows), font * 1.4 + font * 1.6 + 12, legend=False, font=font, mode=mode)


def model_set_chart(effect: pd.DataFrame, model: str) -> go.Figure:
    """Dumbbell per metric group: the model's win rate against the full field (circle) and without the
    removed rivals (diamond)."""
    e = effect[effect["win_rate_with"].notna() | effect["win_rate_without"].notna()]
    labels = [group_label(g) for g in e["metric_group"]]
    fig = go.Figure()
    xs, ys = [], []
    for lab, a, b in zip(labels, e["win_rate_with"], e["win_rate_without"]):
        xs += [a, b, None]
        ys += [lab, lab, None]
    fig.add_trace(go.Scatter(x=xs, y=ys, mode="lines", line=dict(color=palette.NEUTRAL, width=3), hoverinfo="skip",
                             showlegend=False))
    cd_with = np.stack([e["rank_with"].map(lambda v: fmt_value(v, 0)), e["n_with"].astype(str)], axis=-1) \
        if len(e) else None
    cd_without = np.stack([e["rank_without"].map(lambda v: fmt_value(v, 0)), e["n_without"].astype(str)], axis=-1) \
        if len(e) else None
    fig.add_trace(go.Scatter(
        x=e["win_rate_with"], y=labels, mode="markers", name="against the full field",
        marker=dict(symbol="circle", size=13, color=palette.NEUTRAL), customdata=cd_with,
        hovertemplate="<b>%{y}</b><br>win rate %{x:.3f}<br>rank #%{customdata[0]} of %{customdata[1]}<extra>full field</extra>",
    ))
    fig.add_trace(go.Scatter(
        x=e["win_rate_without"], y=labels, mode="markers", name="without the removed rivals",
        marker=dict(symbol="diamond", size=13, color=palette.DATA), customdata=cd_without,
        hovertemplate="<b>%{y}</b><br>win rate %{x:.3f}<br>rank #%{customdata[0]} of %{customdata[1]}<extra>without them</extra>",
    ))
    fig.update_xaxes(range=[-0.02, 1.02], title=f"{chart_label(model)}: mean win rate")
    fig.update_yaxes(categoryorder="array", categoryarray=list(reversed(labels)), automargin=True)
    return base_layout(fig, height=max(240, 40 * len(labels) + 100))


# ----------------------------------------------------------------------------- cost page


# ----------------------------------------------------------------------------- cached figure specs
# As in charts_coverage: cached by the page (ui.cache.on_release) as plain JSON, handed to the layout as it is.


def weights_spec(release, models: tuple[str, ...], items: tuple[tuple[str, float], ...], missing: str) -> dict:
    from helm_core import ranking as R

    rr = R.recipe_ranking(release, models, items, missing)
    return plain(weights_bar(rr.weights, rr.coverage, len(models)))


def frame_key(frame: pd.DataFrame, *, index: bool = True) -> tuple:
    """A small frame as a hashable value for a cached figure spec: (columns, rows), the index as the first
    column (`index=True`). The spec functions below rebuild the frame with `from_key`."""
    f = frame.reset_index() if index else frame
    return tuple(map(str, f.columns)), tuple(f.itertuples(index=False, name=None)), (f.columns[0] if index else None)


def from_key(key: tuple) -> pd.DataFrame:
    columns, rows, index = key
    f = pd.DataFrame(list(rows), columns=list(columns))
    return f.set_index(index) if index is not None else f


def slope_spec(release, shift: tuple, top_n: int, label_a: str, label_b: str, mode: str) -> dict:
    return plain(slope_chart(from_key(shift), top_n, label_a, label_b, mode=mode))


def stability_spec(release, leaders: tuple, top: int, mode: str) -> dict:
    return plain(stability_chart(from_key(leaders), top=top, mode=mode))


def rival_spec(release, rows: tuple, model: str, mode: str) -> dict:
    return plain(rival_bars(from_key(rows), model, mode=mode))


def paper_podium_spec(release, mode: str) -> dict:
    from helm_core import ranking as R

    return plain(paper_podium_chart(R.paper_podium_check(release, None), mode=mode))


