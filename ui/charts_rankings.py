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


def fmt_params(p: float | None, speculative: bool = False) -> str:
    """175000000000 -> "175B"; NaN -> "undisclosed"; a speculative size gets HELM's "*" (helm_core.fmt)."""
    return fmt.params(p, speculative)


def fmt_pct(v: float, digits: int = 0) -> str:
    return fmt.share(v, digits)


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
        text=[fmt_pct(v) for v in w], textposition="outside", customdata=hover, cliponaxis=False,
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
        text=[fmt_pct(v, 1) for v in s["p_top3"]], textposition="outside", cliponaxis=False,
        hovertemplate="<b>%{y}</b><br>in the top 3 in %{x:.1%} of the weight samples<extra></extra>",
    ))
    fig.add_trace(go.Bar(
        y=names, x=s["p_first"], orientation="h", name="P(#1)", marker=dict(color=BLUE),
        text=[fmt_pct(v, 1) for v in s["p_first"]], textposition="outside", cliponaxis=False,
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
) -> go.Figure:
    """Bubble chart of capability (x) against cost (y, log scale).

    frame: frontier.cost_view's frame (capability, runtime_s, harm, params, params_speculative, size_disclosed,
    pareto, access, ...). Colour = harm (Cividis, continuous), bubble diameter grows with log(parameters);
    speculative sizes are circles with a dot, undisclosed sizes fixed-size diamonds; models with no harm value
    are grey. `top` maps model -> recipe rank for the three to ring and label. The Pareto front is a dashed line.
    """
    f = frame[frame["capability"].notna() & frame[y].notna()].copy()
    f["params_text"] = [fmt_params(p, s) for p, s in zip(f["params"], f["params_speculative"])]
    f["runtime_text"] = f["runtime_s"].map(lambda v: "no value" if pd.isna(v) else f"{v:.2f} s")
    f["harm_text"] = f["harm"].map(lambda v: fmt_value(v, 4))
    cd_cols = ["model", "access", "params_text", "runtime_text", "harm_text"]
    hover = ("<b>%{customdata[0]}</b> (%{customdata[1]})<br>" + x_label + ": %{x:.3f}<br>"
             "runtime: %{customdata[3]}<br>parameters: %{customdata[2]}<br>" + harm_label
             + ": %{customdata[4]}<extra></extra>")
    fig = go.Figure()
    hmin = float(f["harm"].min()) if f["harm"].notna().any() else 0.0
    hmax = float(f["harm"].max()) if f["harm"].notna().any() else 1.0
    fig.update_layout(coloraxis=dict(colorscale=HARM_SCALE, cmin=hmin, cmax=hmax if hmax > hmin else hmin + 1e-9,
                                     colorbar=dict(title=dict(text=harm_label + "<br>(higher = more harm)", side="right"),
                                                   thickness=14, len=0.75, y=0.4)))
    kinds = (
        ("size disclosed (bubble grows with log parameters)", f["size_disclosed"] & ~f["params_speculative"], "circle"),
        ("size speculative, HELM marks it * (circle with dot)", f["size_disclosed"] & f["params_speculative"], "circle-dot"),
        ("size undisclosed (fixed-size diamond)", ~f["size_disclosed"], "diamond"),
    )
    for name, mask, symbol in kinds:
        if mask.any():
            # The legend's key for the shape, in a neutral ink: a harm-coloured key would take the colour
            # scale's darkest end, invisible on the dark theme.
            fig.add_trace(go.Scatter(x=[None], y=[None], mode="markers", name=name, hoverinfo="skip",
                                     marker=dict(symbol=symbol, size=11, color=INK, line=dict(color=INK, width=1))))
        for has_harm in (True, False):
            part = f[mask & (f["harm"].notna() == has_harm)]
            if part.empty:
                continue
            size = _bubble_size(part["params"]) if symbol != "diamond" else np.full(len(part), 14.0)
            marker = dict(symbol=symbol, size=size, line=dict(color=INK, width=1), opacity=0.9)
            if has_harm:
                marker.update(color=part["harm"], coloraxis="coloraxis")
            else:
                marker.update(color=GREY)
            fig.add_trace(go.Scatter(
                x=part["capability"], y=part[y], mode="markers", marker=marker, showlegend=not has_harm,
                name=name if has_harm else f"{name}; no harm value (grey)",
                customdata=part[cd_cols].to_numpy(), hovertemplate=hover,
            ))
    front = f[f["pareto"]].sort_values("capability")
    if len(front):
        fig.add_trace(go.Scatter(
            x=front["capability"], y=front[y], mode="lines", name="Pareto front: nothing is more capable and cheaper",
            line=dict(color=INK, dash="dash", width=2), hoverinfo="skip",
        ))
    tops = f[f["model"].isin(list(top))].copy()
    if len(tops):
        tops["rank"] = tops["model"].map(top)
        tops = tops.sort_values("rank")
        fig.add_trace(go.Scatter(
            x=tops["capability"], y=tops[y], mode="markers+text", name="top 3 of the recipe (ringed, labelled)",
            text=[f"#{int(r)} {m}" for m, r in zip(tops["model"], tops["rank"])], textposition="top center",
            textfont=dict(size=12),  # the theme's text colour, legible on light and dark
            marker=dict(symbol="circle-open", size=_bubble_size(tops["params"].fillna(1.4e10)) + 12,
                        line=dict(color=VERMILLION, width=3), color=VERMILLION),
            customdata=tops[cd_cols].to_numpy(), hovertemplate=hover,
        ))
    fig.update_xaxes(title=x_label)
    fig.update_yaxes(title=y_label + (" (log scale)" if log_y else ""), type="log" if log_y else "linear")
    if log_y and len(f):
        ticks = log_ticks(float(f[y].min()), float(f[y].max()))
        text = [fmt_params(t) for t in ticks] if y == "params" else [f"{t:g} s" for t in ticks]
        fig.update_yaxes(tickvals=ticks, ticktext=text)
    fig = base_layout(fig, height=620)
    fig.update_layout(legend=dict(orientation="h", yanchor="top", y=-0.12, xanchor="left", x=0),
                      margin=dict(b=10, t=20))
    return fig


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
