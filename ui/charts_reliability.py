"""Plotly builders for the Reliability pages (calibration, prompt sensitivity). No Streamlit here.

Every builder takes the tidy frames of helm_core.calibration / helm_core.sensitivity and returns a figure.
Meaning never rides on colour alone: symbols, line styles and text labels carry it too.
"""
from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from helm_core import fmt

from .charts import BLACK, BLUE, GREEN, GREY, INK, ORANGE, PURPLE, SKY, VERMILLION, base_layout, fmt_value

ACCESS_STYLE = {  # access level -> (colour, symbol)
    "open": (GREEN, "circle"),
    "limited": (BLUE, "square"),
    "closed": (VERMILLION, "diamond"),
}
FEW_MODELS = 5  # a median over fewer models than this is marked as thin
KIND_LABEL = {
    "seeds": "min–max over 3 seeds",
    "runs": "min–max over sub-tasks × seeds (not seeds alone)",
    "single": "one run, one seed: no spread",
    "unknown": "runs behind the value unknown",
}


def _pct(v: float) -> str:
    return "–" if v is None or not np.isfinite(v) else fmt.share(v)


def reliability_diagram(summary: dict, *, simulated: bool, title: str) -> go.Figure:
    """Reliability diagram (share correct against stated confidence per bin) above the bin counts.
    The gap to the diagonal is drawn as a vertical segment per bin."""
    bins: pd.DataFrame = summary["bins"]
    used = bins[bins["count"] > 0]
    fig = make_subplots(rows=2, cols=1, shared_xaxes=True, row_heights=[0.74, 0.26], vertical_spacing=0.06)
    fig.add_trace(go.Scatter(x=[0, 1], y=[0, 1], mode="lines", name="perfect calibration",
                             line=dict(color=GREY, dash="dash", width=1.5), hoverinfo="skip"), row=1, col=1)
    gx, gy = [], []
    for conf, acc in zip(used["mean_confidence"], used["accuracy"]):
        gx += [conf, conf, None]
        gy += [conf, acc, None]
    fig.add_trace(go.Scatter(x=gx, y=gy, mode="lines", name="gap (calibration error)",
                             line=dict(color=VERMILLION, width=3), hoverinfo="skip"), row=1, col=1)
    custom = np.stack([
        used["bin"].astype(str), used["lower"].map(lambda v: fmt.value(v)), used["upper"].map(lambda v: fmt.value(v)),
        used["count"].map(lambda v: fmt.count(int(v))), used["mean_confidence"].map(_pct), used["accuracy"].map(_pct),
        used["gap"].map(lambda v: f"{v * 100:+.1f} points"),
    ], axis=-1) if len(used) else None
    fig.add_trace(go.Scatter(
        x=used["mean_confidence"], y=used["accuracy"], mode="lines+markers",
        name="simulated model" if simulated else "model (per-instance data)",
        line=dict(color=BLUE, width=2), marker=dict(symbol="circle", size=10, color=BLUE),
        customdata=custom,
        hovertemplate=("<b>bin %{customdata[0]}</b> (%{customdata[1]}–%{customdata[2]})<br>%{customdata[3]} answers"
                       "<br>stated confidence %{customdata[4]}<br>share correct %{customdata[5]}"
                       "<br>accuracy − confidence: %{customdata[6]}<extra></extra>"),
    ), row=1, col=1)
    fig.add_trace(go.Bar(
        x=(bins["lower"] + bins["upper"]) / 2, y=bins["count"], width=(bins["upper"] - bins["lower"]) * 0.95,
        name="answers per bin", marker=dict(color=SKY, line=dict(color=BLUE, width=1)),
        customdata=np.stack([bins["bin"].astype(str), bins["lower"].map(lambda v: fmt.value(v)),
                             bins["upper"].map(lambda v: fmt.value(v))], axis=-1),
        hovertemplate="bin %{customdata[0]} (%{customdata[1]}–%{customdata[2]}): %{y:,} answers<extra></extra>",
    ), row=2, col=1)
    fig.update_xaxes(range=[0, 1.0], row=1, col=1)
    fig.update_xaxes(range=[0, 1.0], title_text="stated confidence (mean per bin)", tickformat=".0%", row=2, col=1)
    fig.update_yaxes(range=[0, 1.02], title_text="share correct", tickformat=".0%", row=1, col=1)
    fig.update_yaxes(title_text="answers", rangemode="tozero", row=2, col=1)
    if simulated:
        fig.add_annotation(text="SIMULATION: synthetic answers, not HELM data", xref="paper", yref="paper",
                           x=0.01, y=0.99, xanchor="left", yanchor="top", showarrow=False,
                           font=dict(size=13, color=BLACK), bgcolor="rgba(240,228,66,0.55)")
    fig.add_annotation(text=f"ECE {fmt.value(summary['ece'])}", xref="paper", yref="paper", x=0.99, y=0.30,
                       xanchor="right", yanchor="bottom", showarrow=False, font=dict(size=14))
    return base_layout(fig, height=560, title=title)


def accuracy_ece_scatter(df: pd.DataFrame, *, scenario: str, metric: str) -> go.Figure:
    """Accuracy against ECE, one point per model; access level by colour and symbol."""
    fig = go.Figure()
    for access, (colour, symbol) in ACCESS_STYLE.items():
        d = df[df["access"] == access]
        if d.empty:
            continue
        fig.add_trace(go.Scatter(
            x=d["accuracy"], y=d["ece"], mode="markers", name=f"{access} access",
            marker=dict(symbol=symbol, size=11, color=colour, line=dict(width=1, color="white")),
            customdata=np.stack([d["model"], d["organization"]], axis=-1),
            hovertemplate=(f"<b>%{{customdata[0]}}</b><br>%{{customdata[1]}}<br>{metric} %{{x:.3f}}"
                           "<br>ECE (10-bin) %{y:.3f}<extra></extra>"),
        ))
    other = df[~df["access"].isin(list(ACCESS_STYLE))]
    if not other.empty:
        fig.add_trace(go.Scatter(
            x=other["accuracy"], y=other["ece"], mode="markers", name="access unknown",
            marker=dict(symbol="x", size=10, color=GREY), customdata=other[["model"]].to_numpy(),
            hovertemplate=f"<b>%{{customdata[0]}}</b><br>{metric} %{{x:.3f}}<br>ECE %{{y:.3f}}<extra></extra>",
        ))
    fig.update_xaxes(title_text=f"accuracy on {scenario} ({metric}, higher is better)")
    fig.update_yaxes(title_text="ECE (10-bin), lower is better calibrated", rangemode="tozero")
    return base_layout(fig, height=440)


def value_range(lo: pd.Series, hi: pd.Series, pad: float = 0.08, min_span: float = 0.1) -> list[float] | None:
    """An axis range that holds every value with a margin, never narrower than `min_span` (a single point is not
    stretched over −1…1 by plotly's default), and within [0, 1] when the values are (a share or a score)."""
    vals = pd.concat([pd.Series(lo, dtype=float), pd.Series(hi, dtype=float)]).dropna()
    if vals.empty:
        return None
    a, b = float(vals.min()), float(vals.max())
    span = max(b - a, min_span)
    mid = (a + b) / 2
    lo_r, hi_r = min(a, mid - span / 2) - pad * span, max(b, mid + span / 2) + pad * span
    if a >= 0 and b <= 1:
        lo_r, hi_r = max(lo_r, -0.02), min(hi_r, 1.02)
    return [lo_r, hi_r]


def spread_dumbbell(df: pd.DataFrame, *, order: list[str], metric: str, scenario: str) -> go.Figure:
    """Per model a min–max bar with the mean marked; the kind of spread decides the line style."""
    fig = go.Figure()
    styles = {"seeds": dict(color=BLUE, dash="solid"), "runs": dict(color=ORANGE, dash="dot"),
              "unknown": dict(color=GREY, dash="dot")}
    for kind, style in styles.items():
        d = df[df["kind"] == kind]
        if d.empty:
            continue
        xs, ys = [], []
        for m, lo, hi in zip(d["model"], d["min"], d["max"]):
            xs += [lo, hi, None]
            ys += [m, m, None]
        fig.add_trace(go.Scatter(x=xs, y=ys, mode="lines", name=KIND_LABEL[kind],
                                 line=dict(width=4, **style), hoverinfo="skip"))
        custom = np.stack([d["min"].map(fmt_value), d["mean"].map(fmt_value), d["max"].map(fmt_value),
                           d["range"].map(fmt_value), d["n_runs"].map(lambda v: "?" if not np.isfinite(v) else fmt.count(v))],
                          axis=-1)
        hover = (f"<b>%{{y}}</b><br>{metric}: min %{{customdata[0]}}, mean %{{customdata[1]}}, max %{{customdata[2]}}"
                 f"<br>range %{{customdata[3]}} over %{{customdata[4]}} runs ({KIND_LABEL[kind]})<extra></extra>")
        fig.add_trace(go.Scatter(x=d["min"], y=d["model"], mode="markers", name=f"min ({kind})", showlegend=False,
                                 marker=dict(symbol="line-ns", size=12, line=dict(width=2, color=style["color"])),
                                 customdata=custom, hovertemplate=hover))
        fig.add_trace(go.Scatter(x=d["max"], y=d["model"], mode="markers", name=f"max ({kind})", showlegend=False,
                                 marker=dict(symbol="line-ns", size=12, line=dict(width=2, color=style["color"])),
                                 customdata=custom, hovertemplate=hover))
    withspread = df[df["kind"].isin(list(styles))]
    if not withspread.empty:
        fig.add_trace(go.Scatter(
            x=withspread["mean"], y=withspread["model"], mode="markers", name="mean (HELM's reported value)",
            marker=dict(symbol="diamond", size=9, color=INK, line=dict(width=1, color=BLACK)),
            hovertemplate=f"<b>%{{y}}</b><br>mean {metric} %{{x:.3f}}<extra></extra>",
        ))
    single = df[df["kind"] == "single"]
    if not single.empty:
        fig.add_trace(go.Scatter(
            x=single["mean"], y=single["model"], mode="markers", name=KIND_LABEL["single"],
            marker=dict(symbol="circle-open", size=9, color=PURPLE, line=dict(width=2)),
            hovertemplate=f"<b>%{{y}}</b><br>{metric} %{{x:.3f}} (one run, one seed)<extra></extra>",
        ))
    fig.update_yaxes(categoryorder="array", categoryarray=list(reversed(order)), tickfont=dict(size=11))
    fig.update_xaxes(title_text=f"{metric} on {scenario}", side="top", range=value_range(df["min"], df["max"]))
    fig = base_layout(fig, height=max(300, 17 * len(order) + 150))
    return fig.update_layout(margin=dict(t=110), legend=dict(yref="container", y=1.0, yanchor="top"))


def median_spread_bars(df: pd.DataFrame) -> go.Figure:
    """Median range per scenario. Bars where the spread is over seeds (the scale is theirs); scenarios whose
    spread is over sub-tasks × seeds get a hollow marker and their value as text (not comparable); scenarios
    with one run per model an ×."""
    seeds = df[df["kind"] == "seeds"].sort_values("median_range", ascending=True)
    runs = df[df["kind"].isin(["runs", "unknown"])].sort_values("median_range", ascending=True)
    none = df[df["kind"].isin(["single", "none"])]
    # bottom to top: no spread, over runs, then the seed bars with the largest on top
    order = none["scenario"].tolist() + runs["scenario"].tolist() + seeds["scenario"].tolist()
    fig = go.Figure()
    if not seeds.empty:
        fig.add_trace(go.Bar(
            x=seeds["median_range"], y=seeds["scenario"], orientation="h", name="over seeds (median across models)",
            marker=dict(color=BLUE, pattern=dict(shape=["." if n < FEW_MODELS else "" for n in seeds["n_seeded"]])),
            text=[f"{fmt.value(v)} (n={n}{', few models' if n < FEW_MODELS else ''})"
                  for v, n in zip(seeds["median_range"], seeds["n_seeded"])],
            textposition="outside", cliponaxis=False,
            customdata=np.stack([seeds["metric"], seeds["max_range"].map(fmt_value), seeds["widest_model"],
                                 seeds["n_seeded"].astype(str)], axis=-1),
            hovertemplate=("<b>%{y}</b> (%{customdata[0]})<br>median range over seeds %{x:.3f} across "
                           "%{customdata[3]} models<br>widest: %{customdata[2]}, %{customdata[1]}<extra></extra>"),
        ))
    if not runs.empty:
        fig.add_trace(go.Scatter(
            x=[0] * len(runs), y=runs["scenario"], mode="markers+text",
            name="over sub-tasks × seeds: not a seed spread (value as text)",
            marker=dict(symbol="triangle-right-open", size=11, color=ORANGE, line=dict(width=2, color=ORANGE)),
            text=[f"median {fmt.value(v)} over sub-tasks × seeds, not comparable" if k == "runs" else
                  f"median {fmt.value(v)} over runs not described (seeds unknown)"
                  for v, k in zip(runs["median_range"], runs["kind"])],
            textposition="middle right", cliponaxis=False,
            customdata=np.stack([runs["metric"], runs["median_range"].map(fmt_value), runs["n_models"].astype(str)], axis=-1),
            hovertemplate=("<b>%{y}</b> (%{customdata[0]})<br>median range %{customdata[1]} across %{customdata[2]} "
                           "models, over sub-tasks or subjects × seeds<extra></extra>"),
        ))
    if not none.empty:
        fig.add_trace(go.Scatter(
            x=[0] * len(none), y=none["scenario"], mode="markers+text", name="one run per model: no spread",
            marker=dict(symbol="x-thin-open", size=10, color=VERMILLION, line=dict(width=2, color=VERMILLION)),
            text=["one run per model: no spread"] * len(none), textposition="middle right", cliponaxis=False,
            hovertemplate="<b>%{y}</b><br>one run per model: no seed spread<extra></extra>",
        ))
    fig.update_yaxes(categoryorder="array", categoryarray=order)
    top = float(seeds["median_range"].max()) if len(seeds) else 0.1
    fig.update_xaxes(title_text="median range (max − min) of the main metric over seeds", range=[-top * 0.02, top * 1.4])
    return base_layout(fig, height=max(320, 26 * len(order) + 120))


def rank_slope(flips: pd.DataFrame) -> go.Figure:
    """Each model's rank if everyone had been reported with their best seed (left) and worst seed (right).
    Models that move are drawn solid with markers and their move; the rest thin and grey."""
    fig = go.Figure()
    moved = flips[flips["change"] != 0]
    still = flips[flips["change"] == 0]
    xs, ys = [], []
    for b, w in zip(still["pos_if_best"], still["pos_if_worst"]):
        xs += ["best seed", "worst seed", None]
        ys += [b, w, None]
    if len(still):
        fig.add_trace(go.Scatter(x=xs, y=ys, mode="lines", name="same rank", line=dict(color=GREY, width=1),
                                 hoverinfo="skip"))
    # One trace per direction (segments split by None), not one per model: 30 traces cost the browser ~0.1 s.
    for up in (True, False):
        part = moved[(moved["change"] > 0) == up]
        if part.empty:
            continue
        colour, arrow = (GREEN, "▲") if up else (VERMILLION, "▼")
        xs, ys, cd = [], [], []
        for _, r in part.iterrows():
            xs += ["best seed", "worst seed", None]
            ys += [r["pos_if_best"], r["pos_if_worst"], None]
            move = f"{arrow} {abs(int(r['change']))}"
            cd += [[r["model"], int(r["rank_if_best"]), move], [r["model"], int(r["rank_if_worst"]), move],
                   [None, None, None]]
        fig.add_trace(go.Scatter(
            x=xs, y=ys, mode="lines+markers",
            name="climbs when all are at their worst seed" if up else "drops when all are at their worst seed",
            line=dict(color=colour, width=2, dash="solid" if up else "dash"),
            marker=dict(symbol="triangle-up" if up else "triangle-down", size=9, color=colour),
            customdata=cd,
            hovertemplate=("<b>%{customdata[0]}</b><br>%{x}: rank %{customdata[1]}<br>%{customdata[2]} "
                           "between the two rankings<extra></extra>"),
        ))
    fig.add_trace(go.Scatter(
        x=["best seed"] * len(flips), y=flips["pos_if_best"], mode="text",
        text=[f"{m} ({int(k)})" for m, k in zip(flips["model"], flips["rank_if_best"])],
        textposition="middle left", textfont=dict(size=10), showlegend=False, hoverinfo="skip", cliponaxis=False))
    fig.add_trace(go.Scatter(
        x=["worst seed"] * len(flips), y=flips["pos_if_worst"], mode="text",
        text=[f"({int(k)}) {m} {'▲' if c > 0 else '▼' if c < 0 else '='}{abs(int(c)) if c else ''}"
              for m, k, c in zip(flips["model"], flips["rank_if_worst"], flips["change"])],
        textposition="middle right", textfont=dict(size=10), showlegend=False, hoverinfo="skip", cliponaxis=False))
    n = max(1, len(flips))
    fig.update_yaxes(autorange="reversed", title_text="position (1 = best; tied ranks in brackets)",
                     dtick=5 if n > 20 else 1)
    fig.update_xaxes(categoryorder="array", categoryarray=["best seed", "worst seed"], range=[-1.3, 2.3], side="top")
    fig = base_layout(fig, height=max(320, 17 * n + 170))
    return fig.update_layout(margin=dict(t=90), legend=dict(yref="container", y=1.0, yanchor="top"))


# ----------------------------------------------------------------------------- cached figure specs
# As in charts_coverage: the page caches these dicts (ui.cache.on_release) and rebuilds each figure with
# charts.figure, so a rerun does not pay 20-30 ms of plotly validation per chart.


def spread_dumbbell_spec(release, scenario: str, models: tuple[str, ...], sort: str) -> dict:
    from helm_core import sensitivity as S

    sp = S.seed_spread(release, scenario, models)
    order = list(S.order_spread(sp, sort)["model"])
    return spread_dumbbell(sp, order=order, metric=str(sp["metric"].iloc[0]), scenario=scenario).to_dict()


def median_spread_spec(release, models: tuple[str, ...]) -> dict:
    from helm_core import sensitivity as S

    return median_spread_bars(S.median_spread(release, models)).to_dict()


def rank_slope_spec(release, scenario: str, models: tuple[str, ...]) -> dict:
    from helm_core import sensitivity as S

    return rank_slope(S.rank_flips(release, scenario, models)).to_dict()
