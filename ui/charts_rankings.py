"""Plotly builders for the Rankings pages (podium, cost). Tidy frames in, figures out; no Streamlit here."""
from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from helm_core.data import GROUP_LABELS

from helm_core import fmt

from .charts import BLACK, BLUE, GREY, INK, ORANGE, VERMILLION, base_layout, fmt_value

UP, DOWN, SAME = BLUE, VERMILLION, GREY
HARM_SCALE = "Cividis"


def group_label(g: str) -> str:
    return GROUP_LABELS.get(g, g)


# ----------------------------------------------------------------------------- podium page


def _short(name: str, limit: int = 24) -> str:
    return name if len(name) <= limit else name[: limit - 1] + "…"


def slope_chart(shift: pd.DataFrame, top_n: int, label_a: str, label_b: str) -> go.Figure:
    """Rank changes from ranking a (left) to ranking b (right) for models in the top `top_n` of either.

    `shift` is ranking.rank_shift output (index model; rank_a, rank_b, shift). Lines going up are solid blue,
    down dashed vermillion, unchanged dotted grey, so direction is not carried by colour alone.
    """
    sel = shift[(shift["rank_a"] <= top_n) | (shift["rank_b"] <= top_n)]
    names = sel.index.to_numpy(dtype=object)
    ra = sel["rank_a"].to_numpy(dtype=float)
    rb = sel["rank_b"].to_numpy(dtype=float)
    sh = sel["shift"].to_numpy(dtype=float)
    traces = []
    styles = (("moved up", sh > 0, UP, "solid", "triangle-up"),
              ("moved down", sh < 0, DOWN, "dash", "triangle-down"),
              ("same place", sh == 0, SAME, "dot", "circle"))
    hover = ("<b>%{customdata[0]}</b><br>" + label_a + ": #%{customdata[1]}<br>" + label_b
             + ": #%{customdata[2]}<br>change: %{customdata[3]} places<extra></extra>")
    for name, mask, color, dash, symbol in styles:
        k = int(mask.sum())
        if k == 0:
            continue
        # one polyline per model, separated by gaps: x = 0, 1, None, 0, 1, None, ...
        x = np.tile(np.array([0.0, 1.0, np.nan]), k)
        y = np.column_stack([ra[mask], rb[mask], np.full(k, np.nan)]).ravel()
        info = np.column_stack([names[mask], ra[mask].astype(int).astype(str), rb[mask].astype(int).astype(str),
                                [f"{int(v):+d}" for v in sh[mask]]])
        cd = np.repeat(info, 3, axis=0)
        traces.append(go.Scatter(
            x=x, y=y, mode="lines+markers", name=name, customdata=cd, connectgaps=False,
            line=dict(color=color, dash=dash, width=2), marker=dict(symbol=symbol, size=9, color=color),
            hovertemplate=hover,
        ))
    # Labels: a name on each side where the model is in that side's top N, a bare rank elsewhere.
    for side, r, pos in ((0, ra, "middle left"), (1, rb, "middle right")):
        text = [(f"{_short(m)} #{int(v)}" if side else f"#{int(v)} {_short(m)}") if v <= top_n else f"#{int(v)}"
                for m, v in zip(names, r)]
        traces.append(go.Scatter(
            x=np.full(len(r), side + (0.05 if side else -0.05)), y=r, mode="text", text=text, textposition=pos,
            textfont=dict(size=11), hoverinfo="skip", showlegend=False,
        ))
    max_rank = float(max(ra.max(), rb.max())) if len(sel) else 1.0
    height = int(min(1000, max(320, 20 * max_rank + 120)))
    layout = dict(
        xaxis=dict(range=[-1.3, 2.3], tickvals=[0, 1], ticktext=[label_a, label_b], side="top", showgrid=False,
                   zeroline=False),
        yaxis=dict(range=[max_rank + 0.8, 0.2], title=dict(text="rank (1 = best)"), showgrid=False, zeroline=False,
                   tickvals=[1] + [v for v in (5, 10, 15, 20, 30, 40, 50, 60, 70) if v <= max_rank]),
    )
    return base_layout(go.Figure(data=traces, layout=layout), height=height)


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
        x=w.to_numpy(), y=labels, orientation="h", marker=dict(color=[BLUE if v > 0 else GREY for v in w]),
        text=[fmt.share(v, 0) for v in w], textposition="outside", customdata=hover, cliponaxis=False,
        hovertemplate="<b>%{y}</b>: %{x:.0%} of the recipe%{customdata}<extra></extra>", name="weight",
    ))
    fig.update_xaxes(range=[0, max(0.5, float(w.max()) * 1.25)], tickformat=".0%", title="share of the recipe")
    fig.update_yaxes(categoryorder="array", categoryarray=list(reversed(labels)))
    return base_layout(fig, height=250)


def stability_chart(stab: pd.DataFrame, top: int = 8) -> go.Figure:
    """P(#1) and P(top 3) for the leading models under perturbed weights (grouped horizontal bars;
    P(top 3) bars are hatched so the two series differ by more than colour)."""
    s = stab.head(top).sort_values(["p_top3", "p_first"], ascending=False)
    names = list(s.index)
    fig = go.Figure()
    # Added bottom-up within each group, so P(#1) sits above P(top 3); the legend is reversed to match.
    fig.add_trace(go.Bar(
        y=names, x=s["p_top3"], orientation="h", name="P(top 3)",
        marker=dict(color=ORANGE, pattern=dict(shape="/", fgcolor=BLACK, solidity=0.25)),
        text=[fmt.share(v, 1) for v in s["p_top3"]], textposition="outside", cliponaxis=False,
        hovertemplate="<b>%{y}</b><br>in the top 3 in %{x:.1%} of the weight samples<extra></extra>",
    ))
    fig.add_trace(go.Bar(
        y=names, x=s["p_first"], orientation="h", name="P(#1)", marker=dict(color=BLUE),
        text=[fmt.share(v, 1) for v in s["p_first"]], textposition="outside", cliponaxis=False,
        hovertemplate="<b>%{y}</b><br>first in %{x:.1%} of the weight samples<extra></extra>",
    ))
    fig.update_layout(barmode="group", bargap=0.25, legend_traceorder="reversed")
    fig.update_xaxes(range=[0, 1.18], tickformat=".0%", title="share of weight samples")
    fig.update_yaxes(categoryorder="array", categoryarray=list(reversed(names)))
    return base_layout(fig, height=max(260, 46 * len(names) + 90))


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
    fig.add_trace(go.Scatter(x=xs, y=ys, mode="lines", line=dict(color=GREY, width=3), hoverinfo="skip",
                             showlegend=False))
    cd_with = np.stack([e["rank_with"].map(lambda v: fmt_value(v, 0)), e["n_with"].astype(str)], axis=-1) \
        if len(e) else None
    cd_without = np.stack([e["rank_without"].map(lambda v: fmt_value(v, 0)), e["n_without"].astype(str)], axis=-1) \
        if len(e) else None
    fig.add_trace(go.Scatter(
        x=e["win_rate_with"], y=labels, mode="markers", name="against the full field",
        marker=dict(symbol="circle", size=13, color=BLUE), customdata=cd_with,
        hovertemplate="<b>%{y}</b><br>win rate %{x:.3f}<br>rank #%{customdata[0]} of %{customdata[1]}<extra>full field</extra>",
    ))
    fig.add_trace(go.Scatter(
        x=e["win_rate_without"], y=labels, mode="markers", name="without the removed rivals",
        marker=dict(symbol="diamond", size=13, color=VERMILLION), customdata=cd_without,
        hovertemplate="<b>%{y}</b><br>win rate %{x:.3f}<br>rank #%{customdata[0]} of %{customdata[1]}<extra>without them</extra>",
    ))
    fig.update_xaxes(range=[-0.02, 1.02], title=f"{model}: mean win rate")
    fig.update_yaxes(categoryorder="array", categoryarray=list(reversed(labels)))
    return base_layout(fig, height=max(240, 40 * len(labels) + 100))


# ----------------------------------------------------------------------------- cost page


def log_ticks(lo: float, hi: float) -> list[float]:
    """1-2-5 tick values covering [lo, hi] (both > 0)."""
    if not (lo > 0 and hi > 0):
        return []
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
) -> go.Figure:
    """Bubble chart of capability (x) against cost (y, log scale), with a band below it for the models that have
    a capability value but no cost value (e.g. "no runtime in HELM"): they are placed by capability only, not
    dropped.

    frame: frontier.cost_view's frame (capability, runtime_s, harm, params, params_speculative, size_disclosed,
    pareto, access, ...). Colour = harm (Cividis, continuous), bubble diameter grows with log(parameters);
    speculative sizes are circles with a dot, undisclosed sizes fixed-size diamonds; models with no harm value
    are grey. `top` maps model -> recipe rank for the three to ring and label, on the chart or in the band.
    The Pareto front is a dashed line. `band_label` names the band (default: frontier.BAND_LABELS by column).
    """
    from plotly.subplots import make_subplots

    from helm_core.frontier import BAND_LABELS

    band_label = band_label or BAND_LABELS.get(y, "no cost value")
    placed = frame[frame["capability"].notna()].copy()
    placed["params_text"] = [fmt.params(p, s) for p, s in zip(placed["params"], placed["params_speculative"])]
    placed["runtime_text"] = placed["runtime_s"].map(fmt.seconds)
    placed["harm_text"] = placed["harm"].map(lambda v: fmt_value(v, 4))
    f = placed[placed[y].notna()]
    band = placed[placed[y].isna()]
    cd_cols = ["model", "access", "params_text", "runtime_text", "harm_text"]
    hover = ("<b>%{customdata[0]}</b> (%{customdata[1]})<br>" + x_label + ": %{x:.3f}<br>"
             "runtime: %{customdata[3]}<br>parameters: %{customdata[2]}<br>" + harm_label
             + ": %{customdata[4]}<extra></extra>")
    if len(band):
        fig = make_subplots(rows=2, cols=1, shared_xaxes=True, row_heights=[0.8, 0.2], vertical_spacing=0.03)
        main_cell, band_cell = dict(row=1, col=1), dict(row=2, col=1)
    else:
        fig = go.Figure()
        main_cell, band_cell = {}, {}
    harm_all = placed["harm"]
    hmin = float(harm_all.min()) if harm_all.notna().any() else 0.0
    hmax = float(harm_all.max()) if harm_all.notna().any() else 1.0
    fig.update_layout(coloraxis=dict(colorscale=HARM_SCALE, cmin=hmin, cmax=hmax if hmax > hmin else hmin + 1e-9,
                                     colorbar=dict(title=dict(text=harm_label + "<br>(higher = more harm)", side="right"),
                                                   thickness=14, len=0.75, y=0.55)))
    # Models in the band sit on one line, except the recipe's top three, which get a row each (so their labels
    # never collide): rank 1 highest.
    band_y = pd.Series(0.0, index=band.index)
    for m, r in top.items():
        band_y[band["model"] == m] = {1: 1.0, 2: 0.0, 3: -1.0}.get(int(r), 0.0)
    for name, mask_of, symbol in (
        ("size disclosed (bubble grows with log parameters)", lambda d: d["size_disclosed"] & ~d["params_speculative"], "circle"),
        ("size speculative, HELM marks it * (circle with dot)", lambda d: d["size_disclosed"] & d["params_speculative"], "circle-dot"),
        ("size undisclosed (fixed-size diamond)", lambda d: ~d["size_disclosed"], "diamond"),
    ):
        if mask_of(placed).any():
            # The legend's key for the shape, in a neutral ink: a harm-coloured key would take the colour
            # scale's darkest end, invisible on the dark theme.
            fig.add_trace(go.Scatter(x=[None], y=[None], mode="markers", name=name, hoverinfo="skip",
                                     marker=dict(symbol=symbol, size=11, color=INK, line=dict(color=INK, width=1))),
                          **main_cell)
        for where, d, cell in (("chart", f, main_cell), ("band", band, band_cell)):
            mask = mask_of(d)
            for has_harm in (True, False):
                part = d[mask & (d["harm"].notna() == has_harm)]
                if part.empty:
                    continue
                size = _bubble_size(part["params"]) if symbol != "diamond" else np.full(len(part), 14.0)
                marker = dict(symbol=symbol, size=size, line=dict(color=INK, width=1), opacity=0.9)
                if has_harm:
                    marker.update(color=part["harm"], coloraxis="coloraxis")
                else:
                    marker.update(color=GREY)
                trace_name = name if has_harm else f"{name}; no harm value (grey)"
                if where == "band":
                    trace_name = f"band: {band_label}: {trace_name}"
                fig.add_trace(go.Scatter(
                    x=part["capability"], y=part[y] if where == "chart" else band_y[part.index],
                    mode="markers", marker=marker, showlegend=where == "chart" and not has_harm, name=trace_name,
                    customdata=part[cd_cols].to_numpy(), hovertemplate=hover,
                ), **cell)
    front = f[f["pareto"]].sort_values("capability")
    if len(front):
        fig.add_trace(go.Scatter(
            x=front["capability"], y=front[y], mode="lines", name="Pareto front: nothing is more capable and cheaper",
            line=dict(color=INK, dash="dash", width=2), hoverinfo="skip",
        ), **main_cell)
    if len(band):
        # The band's legend entry says what it is.
        fig.add_trace(go.Scatter(
            x=[None], y=[None], mode="markers", name=f"band below: {band_label} (placed by {x_label.lower()} only)",
            marker=dict(symbol="line-ew", size=14, color=INK, line=dict(color=INK, width=2)), hoverinfo="skip",
        ), **band_cell)
    tops = placed[placed["model"].isin(list(top))].copy()
    if len(tops):
        tops["rank"] = tops["model"].map(top)
        tops = tops.sort_values("rank")
        in_band = tops[y].isna()
        ty = [band_y[i] if b else v for i, b, v in zip(tops.index, in_band, tops[y])]
        # On the chart a label sits above its ring; in the band, to the left of it (the band's rows are close).
        # Near the right (left) edge of the axis a centred label would be clipped: it leans inwards there.
        lo_x, hi_x = float(placed["capability"].min()), float(placed["capability"].max())
        span = (hi_x - lo_x) or 1.0

        def lean(x: float) -> str:
            rel = (x - lo_x) / span
            return "top left" if rel > 0.7 else ("top right" if rel < 0.3 else "top center")

        positions = ["middle left" if b else lean(x) for b, x in zip(in_band, tops["capability"])]
        trace = dict(
            mode="markers+text", name="top 3 of the recipe (ringed, labelled)",
            textfont=dict(size=12),  # the theme's text colour, legible on light and dark
            cliponaxis=False,  # a label near the plot's edge is drawn whole, not cut
            customdata=tops[cd_cols].to_numpy(), hovertemplate=hover,
        )
        for b, cell in ((False, main_cell), (True, band_cell)):
            sel = (in_band == b).to_numpy()
            if not sel.any():
                continue
            t = tops[sel]
            fig.add_trace(go.Scatter(
                x=t["capability"], y=[v for v, k in zip(ty, sel) if k],
                text=[f"#{int(r)} {m}" for m, r in zip(t["model"], t["rank"])],
                textposition=[p for p, k in zip(positions, sel) if k],
                marker=dict(symbol="circle-open", size=_bubble_size(t["params"].fillna(1.4e10)) + 12,
                            line=dict(color=VERMILLION, width=3), color=VERMILLION),
                showlegend=not (b and (~in_band).any()),
                **{**trace, "customdata": t[cd_cols].to_numpy()},
            ), **cell)
    x_title = dict(title=x_label)
    if len(band):
        fig.update_xaxes(**x_title, row=2, col=1)
        fig.add_hrect(y0=-1.8, y1=1.8, fillcolor=GREY, opacity=0.15, line_width=0, layer="below", row=2, col=1)
        fig.update_yaxes(row=2, col=1, range=[-1.8, 1.8], tickvals=[0], ticktext=[band_label.replace(" in ", "<br>in ", 1)],
                         showgrid=False, zeroline=False, fixedrange=True)
    else:
        fig.update_xaxes(**x_title)
    fig.update_yaxes(title=y_label + (" (log scale)" if log_y else ""), type="log" if log_y else "linear", **main_cell)
    if log_y and len(f):
        ymin, ymax = float(f[y].min()), float(f[y].max())
        ticks = log_ticks(ymin, ymax)
        text = [fmt.params(t) for t in ticks] if y == "params" else [fmt.seconds(t) for t in ticks]
        # Headroom above the highest bubble for its label (a ringed top-three label sits above its ring) and a
        # margin below the lowest; at least half a decade in all, so a single bubble is not pinned to an edge.
        lo_y, hi_y = np.log10(ymin), np.log10(ymax)
        span = max(hi_y - lo_y, 0.5)
        fig.update_yaxes(tickvals=ticks, ticktext=text, range=[lo_y - 0.1 * span, hi_y + 0.22 * span], **main_cell)
    if len(placed):
        lo, hi = float(placed["capability"].min()), float(placed["capability"].max())
        pad = max(0.04, 0.06 * (hi - lo))
        # room on the left for a band label written to the left of its ring
        left_labels = bool(len(tops)) and bool(tops[y].isna().any())
        fig.update_xaxes(range=[lo - pad - (0.3 * (hi - lo) if left_labels else 0), hi + pad])
    # The legend above the plot (base_layout): below it, it would cover the x axis's title once the presenter
    # mode caps the height.
    return base_layout(fig, height=620)


# ----------------------------------------------------------------------------- cached figure specs
# As in charts_coverage: cached by the page (ui.cache.on_release), rebuilt with charts.figure without validation.


def weights_spec(release, models: tuple[str, ...], items: tuple[tuple[str, float], ...], missing: str) -> dict:
    from helm_core import ranking as R

    rr = R.recipe_ranking(release, models, items, missing)
    return weights_bar(rr.weights, rr.coverage, len(models)).to_dict()


def slope_spec(release, models: tuple[str, ...], items: tuple[tuple[str, float], ...], missing: str, n: int,
               label: str) -> dict:
    from helm_core import ranking as R

    return slope_chart(R.recipe_ranking(release, models, items, missing).shift, n, "Accuracy only", label).to_dict()
