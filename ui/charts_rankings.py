"""Plotly builders for the Rankings pages (podium, cost). Tidy frames in, figures out; no Streamlit here.

Every builder takes the screen it is drawn for (`mode`: "presenter", "desktop", "phone", "handout"; ui.slides) and
plans its labels for it: full names (never cut with "…"), inside the plot at every width, never under a mark.
Names from the data go through helm_core.escape.chart_label. Colours are ui.palette's semantic ones.
"""
from __future__ import annotations

import itertools
import math

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from helm_core import fmt
from helm_core.data import GROUP_LABELS
from helm_core.escape import chart_label, unchart_label

from . import palette
from .charts import base_layout, fmt_value
from .stage import plain

UP, DOWN, SAME = palette.UP, palette.DOWN, palette.NEUTRAL

# What a chart can plan with per screen: the plot's width in px (the chart's width less its margins), the text
# size (ui.stage raises presenter text to 16 px) and the height the chart gets (presenter: the stage's).
PLOT_WIDTH = {"presenter": 1180, "desktop": 900, "phone": 340, "handout": 950}
FONT = {"presenter": 16, "desktop": 12, "phone": 11, "handout": 12}
STAGE_CHART = 520  # a presenter chart's height under a two-line point (ui.slides.stage_height)
CHAR = 0.56  # average character width, in ems


def group_label(g: str) -> str:
    return GROUP_LABELS.get(g, g)


def _font(mode: str) -> int:
    return FONT.get(mode, FONT["desktop"])


def _plot_width(mode: str) -> int:
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
            if used and used + w > _plot_width(mode):
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
    font = _font(mode)
    names = sel.index.to_numpy(dtype=object)
    ra, rb = sel["rank_a"].to_numpy(dtype=float), sel["rank_b"].to_numpy(dtype=float)
    ya, yb = sel["row_a"].to_numpy(dtype=float), sel["row_b"].to_numpy(dtype=float)
    sh = sel["shift"].to_numpy(dtype=float)
    k = len(sel)
    left = [f"#{int(v)} {chart_label(m)}" for m, v in zip(names, ra)]
    right = [f"{chart_label(m)} #{int(v)}" for m, v in zip(names, rb)]
    w_label = max([text_px(t, font) for t in left + right] or [0]) + 16
    width = _plot_width(mode)
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
    font = _font(mode)
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
    font = _font(mode)
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
    font = _font(mode)
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
    room = text_px(f"#{int(high)} of {n_all}", font) / _plot_width(mode)  # the label right of the last mark
    fig.update_xaxes(range=[0.5, (high + 0.5) / max(0.5, 1 - room - 0.04)], title="rank (1 = best)", zeroline=False,
                     fixedrange=True, tickvals=[1] + [v for v in (5, 10, 20, 30, 40, 50, 60, 70, 80, 90) if v <= high])
    return _rows_layout(fig, len(check), 4 * font * 1.6 + 8, legend=True, font=font, mode=mode)


def rival_bars(rows: pd.DataFrame, model: str, *, mode: str = "desktop") -> go.Figure:
    """One model's accuracy win rate against each field of rivals (rows: label, win_rate, rank, n, chosen),
    one bar per field, its name above it; the full field in neutral grey, the chosen field highlighted."""
    font = _font(mode)
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
    room = text_px("0.000 · #00 of 00", font) / _plot_width(mode)
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


def log_ticks(lo: float, hi: float) -> list[float]:
    """1-2-5 tick values covering [lo, hi]; [] unless both are finite and positive (an infinite or zero value
    has no place on a log axis)."""
    try:
        lo, hi = float(lo), float(hi)
    except (TypeError, ValueError):
        return []
    if not (math.isfinite(lo) and math.isfinite(hi) and lo > 0 and hi > 0):
        return []
    lo, hi = min(lo, hi), max(lo, hi)
    out = []
    for k in range(int(np.floor(np.log10(lo))) - 1, int(np.ceil(np.log10(hi))) + 1):
        for m in (1, 2, 5):
            v = m * 10.0 ** k
            if lo / 2.5 <= v <= hi * 2.5:
                out.append(float(f"{v:.3g}"))
    return out


def _bubble_size(params: pd.Series) -> np.ndarray:
    """Marker diameter in px growing with log10(parameters): 350M ≈ 11 px, 530B ≈ 27 px."""
    p = params.to_numpy(dtype=float)
    return np.clip(8 + 5 * np.log10(np.clip(p, 1e7, None) / 1e8), 6, 34)


def strip_layout(points: list[tuple[float, float]], x_range: tuple[float, float],
                 gap: float = 0.0) -> tuple[list[int], list[float]]:
    """Where labels go in a strip above the data, each with an arrow down to its point: points are (x, label
    half-width) in data units; returns each label's row (0 = the lowest) and centre. A label is centred over its
    point, ends at it on either side, or sits elsewhere along the strip (kept inside `x_range`). Labels on one row must not overlap, and an arrow
    should not pass through a label on a lower row: every placement of at most three labels is tried, and the one
    with the fewest clashes, then the labels nearest their points (short, steep arrows), then the fewest rows wins."""
    n = len(points)
    if n == 0:
        return [], []
    x0, x1 = x_range

    def inside(c: float, half: float) -> float:
        return min(max(c, x0 + half + gap), x1 - half - gap)

    # over the point, ending at it on either side, or (when those clash) further along the strip
    options = [sorted({inside(c, h) for c in (x, x - h, x + h, *np.linspace(x0, x1, 5))}, key=lambda c: abs(c - x))
               for x, h in points]
    best, best_key = None, None
    for rows in itertools.product(range(n), repeat=n):
        for centres in itertools.product(*options):
            clashes = 0
            for i, j in itertools.combinations(range(n), 2):
                (xi, wi), (xj, wj) = points[i], points[j]
                ci, cj = centres[i], centres[j]
                if rows[i] == rows[j]:
                    if abs(ci - cj) < wi + wj + gap:
                        clashes += 10  # two labels on one line
                    continue
                hi, lo = (i, j) if rows[i] > rows[j] else (j, i)
                # the higher label's arrow, a straight line from its label (height row + 1.5) to its point
                # (height 0), where it passes the lower label's height
                t = (rows[lo] + 1.5) / (rows[hi] + 1.5)
                at = points[hi][0] + (centres[hi] - points[hi][0]) * t
                if abs(at - centres[lo]) < points[lo][1] + gap:
                    clashes += 1
            key = (clashes, round(sum(abs(c - x) for c, (x, _) in zip(centres, points)), 9), max(rows), rows)
            if best_key is None or key < best_key:
                best, best_key = (list(rows), list(centres)), key
    return best


def _label_strip(fig: go.Figure, tops: list[tuple[float, float, str]], *, x_range: tuple[float, float],
                 y_top: float, strip: float, mode: str, log_y: bool, standoff: list[float], **cell) -> None:
    """Labels in the strip [y_top, y_top + strip] above the data (y in axis units: log10 on a log axis), one
    arrow each down to its point, so no mark ever covers a label."""
    if not tops:
        return
    font = _font(mode)
    x0, x1 = x_range
    per_px = (x1 - x0) / _plot_width(mode)
    halves = [text_px(text, font) / 2 * per_px for _, _, text in tops]
    rows, centres = strip_layout([(x, h) for (x, _, _), h in zip(tops, halves)], x_range, gap=6 * per_px)
    n_rows = max(rows) + 1
    for (x, y, text), cx, row, off in zip(tops, centres, rows, standoff):
        ay = y_top + strip * (row + 0.5) / n_rows
        fig.add_annotation(x=x, y=math.log10(y) if log_y else y, ax=cx, ay=ay, axref=cell.get("xref", "x"),
                           ayref=cell.get("yref", "y"), xref=cell.get("xref", "x"), yref=cell.get("yref", "y"),
                           text=text, showarrow=True, arrowhead=0, arrowwidth=1.5, arrowcolor=palette.INK,
                           standoff=off, font=dict(size=font, color=palette.INK), bgcolor="rgba(0,0,0,0)")


def capability_cost_bubble(
    frame: pd.DataFrame,
    y: str,
    *,
    x_label: str,
    y_label: str,
    harm_label: str,
    top: dict[str, int],
    log_y: bool = True,
    band_label: str | None = None,
    mode: str = "desktop",
) -> go.Figure:
    """Bubble chart of capability (x) against cost (y, log scale), with a band below it for the models that have
    a capability value but no cost value (e.g. "no runtime in HELM"): they are placed by capability only, not
    dropped.

    frame: frontier.cost_view's frame (capability, runtime_s, harm, params, params_speculative, size_disclosed,
    pareto, access, ...). Colour = harm (ui.palette.HARM_SCALE, continuous), bubble diameter grows with
    log(parameters); speculative sizes are circles with a dot, undisclosed sizes fixed-size diamonds; models with
    no harm value are grey. `top` maps model -> recipe rank for the three to ring (HIGHLIGHT) and label: on the
    chart their labels sit in a strip above the bubbles with an arrow down to each ring, in the band each has a
    row of its own with its label beside it, so no bubble ever covers a label. The Pareto front is a dashed line.
    `band_label` names the band (default: frontier.BAND_LABELS by column). `mode` plans the labels for the screen
    (ui.stage moves the colour bar below the plot on a phone; the legend is left out there, `read` explains it)."""
    from plotly.subplots import make_subplots

    from helm_core.frontier import BAND_LABELS

    band_label = band_label or BAND_LABELS.get(y, "no cost value")
    font = _font(mode)
    phone = mode == "phone"
    placed = frame[frame["capability"].notna()].copy()
    placed["name_text"] = placed["model"].map(chart_label)
    placed["access_text"] = placed["access"].map(chart_label)
    placed["params_text"] = [fmt.params(p, s) for p, s in zip(placed["params"], placed["params_speculative"])]
    placed["runtime_text"] = placed["runtime_s"].map(fmt.seconds)
    placed["harm_text"] = placed["harm"].map(lambda v: fmt_value(v, 4))
    if log_y:  # a value a log axis cannot place (zero, negative, infinite) goes to the band
        bad = ~np.isfinite(placed[y].astype(float)) | (placed[y].astype(float) <= 0)
        placed.loc[bad, y] = np.nan
    f = placed[placed[y].notna()]
    band = placed[placed[y].isna()]
    cd_cols = ["name_text", "access_text", "params_text", "runtime_text", "harm_text"]
    hover = ("<b>%{customdata[0]}</b> (%{customdata[1]})<br>" + chart_label(x_label) + ": %{x:.3f}<br>"
             "runtime: %{customdata[3]}<br>parameters: %{customdata[2]}<br>" + chart_label(harm_label)
             + ": %{customdata[4]}<extra></extra>")
    tops_band = [m for m in top if m in set(band["model"])]
    band_rows = 1 + len(tops_band)
    if len(band):
        share = min(0.4, 0.14 + 0.07 * band_rows)
        fig = make_subplots(rows=2, cols=1, shared_xaxes=True, row_heights=[1 - share, share], vertical_spacing=0.03)
        main_cell, band_cell = dict(row=1, col=1), dict(row=2, col=1)
    else:
        share = 0.0
        fig = go.Figure()
        main_cell, band_cell = {}, {}
    harm_all = placed["harm"].astype(float)
    harm_ok = harm_all[np.isfinite(harm_all)]
    hmin = float(harm_ok.min()) if len(harm_ok) else 0.0
    hmax = float(harm_ok.max()) if len(harm_ok) else 1.0
    fig.update_layout(coloraxis=dict(
        colorscale=palette.HARM_SCALE, cmin=hmin, cmax=hmax if hmax > hmin else hmin + 1e-9, showscale=bool(len(harm_ok)),
        colorbar=dict(title=dict(text=chart_label(harm_label) + (" " if phone else "<br>") + "(higher = more harm)",
                                 side="right"),
                      thickness=14, len=0.75, y=0.55)))
    # Band rows: the recipe's top three in the band each get a row of their own (rank 1 highest), every other
    # band model sits on row 0, so a label beside a ring has its row to itself.
    band_y = pd.Series(0.0, index=band.index)
    for i, m in enumerate(sorted(tops_band, key=lambda m: top[m]), start=1):
        band_y[band["model"] == m] = float(band_rows - i)
    shapes = (("size disclosed", lambda d: d["size_disclosed"] & ~d["params_speculative"], "circle"),
              ("size speculative (HELM's *): circle with a dot", lambda d: d["size_disclosed"] & d["params_speculative"],
               "circle-dot"),
              ("size undisclosed: diamond", lambda d: ~d["size_disclosed"], "diamond"))
    for name, mask_of, symbol in shapes:
        if mask_of(placed).any() and len(harm_ok):
            # The legend's key for the shape, in the theme's ink (a harm-coloured key would take one end of the
            # scale and read as a harm level).
            fig.add_trace(go.Scatter(x=[None], y=[None], mode="markers", name=name, hoverinfo="skip",
                                     marker=dict(symbol=symbol, size=11, color=palette.INK,
                                                 line=dict(color=palette.INK, width=1))), **main_cell)
        for where, d, cell in (("chart", f, main_cell), ("band", band, band_cell)):
            mask = mask_of(d)
            for has_harm in (True, False):
                part = d[mask & (d["harm"].notna() == has_harm)]
                if part.empty:
                    continue
                size = _bubble_size(part["params"]) if symbol != "diamond" else np.full(len(part), 14.0)
                marker = dict(symbol=symbol, size=size, line=dict(color=palette.INK, width=1))
                if has_harm:
                    marker.update(color=part["harm"], coloraxis="coloraxis")
                else:
                    marker.update(color=palette.NEUTRAL)
                trace_name = name if has_harm else f"{name}; no harm value (grey)"
                if where == "band":
                    trace_name = f"band: {chart_label(band_label)}: {trace_name}"
                fig.add_trace(go.Scatter(
                    x=part["capability"], y=part[y] if where == "chart" else band_y[part.index],
                    mode="markers", marker=marker, showlegend=where == "chart" and not has_harm, name=trace_name,
                    customdata=part[cd_cols].to_numpy(), hovertemplate=hover,
                ), **cell)
    front = f[f["pareto"]].sort_values("capability")
    if len(front):
        fig.add_trace(go.Scatter(
            x=front["capability"], y=front[y], mode="lines", name="Pareto front: nothing more capable and cheaper",
            line=dict(color=palette.INK, dash="dash", width=2), hoverinfo="skip",
        ), **main_cell)

    # x range: the data with a margin (the strip labels are kept inside it)
    lo_x = float(placed["capability"].min()) if len(placed) else 0.0
    hi_x = float(placed["capability"].max()) if len(placed) else 1.0
    span_x = (hi_x - lo_x) or 1.0
    # room for the largest ring (about 46 px across) at either edge of the plot
    pad = max(0.04, 0.06 * span_x, 26 / max(_plot_width(mode) - 52, 1) * span_x)
    x_range = (lo_x - pad, hi_x + pad)

    # the recipe's top three: ringed on the chart and in the band
    tops = placed[placed["model"].isin(list(top))].copy()
    tops["rank"] = tops["model"].map(top)
    tops = tops.sort_values("rank")
    ring = _bubble_size(tops["params"].fillna(1.4e10)) + 12
    tops["ring"] = ring
    on_chart = tops[tops[y].notna()]
    in_band = tops[tops[y].isna()]
    ring_trace = dict(mode="markers", name="the recipe's top 3 (ringed)", hovertemplate=hover)
    if len(on_chart):
        fig.add_trace(go.Scatter(x=on_chart["capability"], y=on_chart[y], text=[f"#{int(r)} {m}" for m, r in
                                 zip(on_chart["name_text"], on_chart["rank"])],
                                 marker=dict(symbol="circle-open", size=on_chart["ring"],
                                             line=dict(color=palette.HIGHLIGHT, width=3), color=palette.HIGHLIGHT),
                                 customdata=on_chart[cd_cols].to_numpy(), **ring_trace), **main_cell)
    if len(in_band):
        mid = (x_range[0] + x_range[1]) / 2
        max_chars = max(12, int(_plot_width(mode) / 2 / (font * CHAR)) - 4)
        fig.add_trace(go.Scatter(
            x=in_band["capability"], y=band_y[in_band.index], mode="markers+text",
            text=[wrap(f"#{int(r)} {m}", max_chars) for m, r in zip(in_band["model"], in_band["rank"])],
            textposition=["middle left" if x > mid else "middle right" for x in in_band["capability"]],
            textfont=dict(size=font), cliponaxis=False,
            marker=dict(symbol="circle-open", size=in_band["ring"], line=dict(color=palette.HIGHLIGHT, width=3),
                        color=palette.HIGHLIGHT),
            customdata=in_band[cd_cols].to_numpy(), hovertemplate=hover, showlegend=not len(on_chart),
            name="the recipe's top 3 (ringed)"), **band_cell)

    x_title = dict(title=chart_label(x_label))
    if len(band):
        fig.update_xaxes(**x_title, row=2, col=1)
        fig.add_hrect(y0=-0.6, y1=band_rows - 0.4, fillcolor=palette.NEUTRAL, opacity=0.15, line_width=0,
                      layer="below", row=2, col=1)
        fig.update_yaxes(row=2, col=1, range=[-0.6, band_rows - 0.4], tickvals=[0],
                         ticktext=[chart_label(band_label).replace(" in ", "<br>in ", 1)],
                         showgrid=False, zeroline=False, fixedrange=True)
    else:
        fig.update_xaxes(**x_title)
    fig.update_xaxes(range=list(x_range))
    fig.update_yaxes(title=chart_label(y_label) + (" (log scale)" if log_y else ""), type="log" if log_y else "linear",
                     **main_cell)

    height = 580 if not phone else 560
    chart_px = (STAGE_CHART if mode == "presenter" else height) - 140  # less the legend, margins and axis titles
    main_px = chart_px * (1 - share)
    row_px = font * 1.5
    if len(f):
        yv = f[y].astype(float)
        ymin, ymax = float(yv.min()), float(yv.max())
        lo_y, hi_y = (np.log10(ymin), np.log10(ymax)) if log_y else (ymin, ymax)
        span = max(hi_y - lo_y, 0.5 if log_y else abs(hi_y) * 0.2 or 1.0)
        strip_px = len(on_chart) * row_px + 6 if len(on_chart) else 0
        top_gap = 0.08 * span
        data_span = span * 1.18  # the data and its margins below and above
        strip = data_span * strip_px / max(main_px - strip_px, 0.3 * main_px) if strip_px else 0.0
        y_top = hi_y + top_gap
        fig.update_yaxes(range=[lo_y - 0.1 * span, y_top + strip], **main_cell)
        if log_y:
            ticks = log_ticks(ymin, ymax)
            text = [fmt.params(t) for t in ticks] if y == "params" else [fmt.seconds(t) for t in ticks]
            if ticks:
                fig.update_yaxes(tickvals=ticks, ticktext=text, **main_cell)
        labels = [(float(x), float(v), f"#{int(r)} {m}") for x, v, r, m in
                  zip(on_chart["capability"], on_chart[y], on_chart["rank"], on_chart["name_text"])]
        cell = dict(xref="x", yref="y") if not len(band) else dict(xref="x", yref="y")
        _label_strip(fig, labels, x_range=x_range, y_top=y_top, strip=strip, mode=mode, log_y=log_y,
                     standoff=list(on_chart["ring"] / 2), **cell)
    base_layout(fig, height=height)
    if phone:
        # No legend on a phone (its entries would stack over the colour bar below the plot; the slide's `read`
        # says what the shapes mean): room at the bottom for the axis title and the colour bar.
        fig.update_layout(showlegend=False, margin=dict(l=10, r=10, t=34, b=120 if len(harm_ok) else 40))
    return fig


def scale_chart(frame: pd.DataFrame, *, threshold: float = 0.55, size: float = 50e9, x_label: str,
                mode: str = "desktop", named: int = 3) -> go.Figure:
    """The paper's scale finding against the data: accuracy win rate (y) against parameters (x, log), the region
    the paper says is empty (fewer than `size` parameters, above `threshold`) shaded in the claim's colour, the
    models in it marked (vermillion diamonds) and the `named` highest of them labelled in a strip above."""
    font = _font(mode)
    f = frame[frame["capability"].notna() & frame["params"].notna()].copy()
    f = f[np.isfinite(f["params"].astype(float)) & (f["params"].astype(float) > 0)]
    f["name_text"] = f["model"].map(chart_label)
    f["params_text"] = [fmt.params(p, s) for p, s in zip(f["params"], f["params_speculative"])]
    inside = (f["capability"] > threshold) & (f["params"] < size)
    fig = go.Figure()
    hover = "<b>%{customdata[0]}</b><br>%{customdata[1]} parameters<br>" + chart_label(x_label) + ": %{y:.3f}<extra></extra>"
    for name, mask, symbol, colour, msize in (
            ("other models", ~inside, "circle", palette.DATA, 9),
            (f"fewer than {fmt.params(size)} parameters, above {threshold:g} ({int(inside.sum())})", inside,
             "diamond", palette.DOWN, 12)):
        part = f[mask]
        if part.empty:
            continue
        fig.add_trace(go.Scatter(x=part["params"], y=part["capability"], mode="markers", name=name,
                                 marker=dict(symbol=symbol, size=msize, color=colour),
                                 customdata=part[["name_text", "params_text"]].to_numpy(), hovertemplate=hover))
    if f.empty:
        return base_layout(fig, height=420)
    lo, hi = float(f["params"].min()), float(f["params"].max())
    lo_l, hi_l = math.log10(min(lo, size) / 2), math.log10(max(hi, size) * 2)
    fig.add_shape(type="rect", xref="x", yref="y", x0=10 ** lo_l, x1=size, y0=threshold, y1=1.0,
                  fillcolor=palette.CLAIM, opacity=0.12, line=dict(color=palette.CLAIM, width=1.5, dash="dot"),
                  layer="below")
    fig.add_annotation(x=lo_l, y=threshold, xref="x", yref="y", xanchor="left", yanchor="bottom", showarrow=False,
                       text="the paper: no model here", font=dict(size=font))
    ticks = log_ticks(10 ** lo_l, 10 ** hi_l)
    ticks = [t for t in ticks if math.log10(t) % 1 == 0] or ticks
    fig.update_xaxes(type="log", range=[lo_l, hi_l], tickvals=ticks, ticktext=[fmt.params(t) for t in ticks],
                     title="parameters (log scale)", fixedrange=True)
    ins = f[inside].sort_values("capability", ascending=False).head(named)
    row_px = font * 1.5
    main_px = (STAGE_CHART if mode == "presenter" else 460) - 130
    strip_px = len(ins) * row_px + 6 if len(ins) else 0
    top_y = 1.04
    strip = 1.1 * strip_px / max(main_px - strip_px, 0.3 * main_px) if strip_px else 0.0
    fig.update_yaxes(range=[-0.04, top_y + strip], title=chart_label(x_label), fixedrange=True,
                     tickvals=sorted({0, 0.25, threshold, 0.75, 1}))
    labels = [(math.log10(p), c, m) for p, c, m in zip(ins["params"], ins["capability"], ins["name_text"])]
    _label_strip(fig, labels, x_range=(lo_l, hi_l), y_top=top_y, strip=strip, mode=mode, log_y=False,
                 standoff=[7.0] * len(labels))
    base_layout(fig, height=460)
    fig.update_layout(legend=dict(orientation="h", yanchor="top", y=-0.16, x=0, xanchor="left"),
                      margin=dict(b=font * 5 + 20))
    return fig


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


def bubble_spec(release, models: tuple[str, ...], cap: str, harm: str, cost: str,
                top: tuple[tuple[str, int], ...], mode: str) -> dict:
    from helm_core import frontier

    v = frontier.cost_view(release, models, cap, harm, cost)
    return plain(capability_cost_bubble(v.frontier.frame, v.y, x_label=frontier.CAPABILITY_MEASURES[cap],
                                        y_label=frontier.cost_label(release, cost),
                                        harm_label=frontier.HARM_MEASURES[harm][2], top=dict(top), mode=mode))
