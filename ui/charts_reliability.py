"""Plotly builders for the Reliability pages (calibration, prompt sensitivity) and the bundled runs (Prompts &
Completions). No Streamlit here.

Every builder takes the tidy frames of helm_core.calibration / helm_core.sensitivity / helm_core.real_runs and
returns a figure planned for the screen it is shown on (`mode`: "presenter", "desktop", "phone", "handout"): the
stage template (ui.stage) raises every text to 16 px in presenter mode, so the builders leave the room for it
(fewer rows, fewer ticks, labels inside the plot). Colours come from ui.palette only, one meaning each. Meaning
never rides on colour alone: symbols, line styles and text labels carry it too.
"""
from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from helm_core import fmt
from helm_core.escape import chart_label

from . import palette
from .charts import base_layout, chart_labels, fmt_value
from .stage import plain

ACCESS_STYLE = {  # access level -> (series colour: identity only, named in the legend; symbol)
    "open": (palette.SERIES[0], "circle"),
    "limited": (palette.SERIES[3], "square"),
    "closed": (palette.SERIES[4], "diamond"),
}
FEW_MODELS = 5  # a median over fewer models than this is marked as thin
STAGE_ROWS = 18  # category rows that fit a 1280 × 720 stage at 16 px with the legend and an axis on top
KIND_LABEL = {
    "seeds": "min–max over seeds",
    "runs": "min–max over sub-tasks × seeds (not seeds alone)",
    "single": "one run, one seed: no spread",
    "unknown": "runs behind the value unknown",
}


def _pct(v: float) -> str:
    return "–" if v is None or not np.isfinite(v) else fmt.share(v)


def _stage(mode: str) -> bool:
    return mode == "presenter"


def seeds_label(n_runs: pd.Series) -> str:
    """The legend of a spread over seeds, naming how many seeds the data has ("min–max over 3 seeds")."""
    counts = sorted({int(round(v)) for v in pd.Series(n_runs, dtype=float).dropna()})
    if len(counts) == 1:
        return f"min–max over {counts[0]} seeds"
    return KIND_LABEL["seeds"] + (f" ({counts[0]}–{counts[-1]} per model)" if counts else "")


def reliability_diagram(summary: dict, *, simulated: bool, hist: pd.DataFrame | None = None,
                        mode: str = "desktop") -> go.Figure:
    """Reliability diagram: share correct against stated confidence per bin, the gap to the diagonal drawn per bin
    (palette.GAP), the ECE and the number of answers written in the plot. Below it, when `hist` (the same answers
    in 10 equal-width confidence bands: a `reliability_bins` frame with strategy "uniform") is given: how many
    answers the model gave at each confidence, which equal-mass bins (always the same count) cannot show."""
    bins: pd.DataFrame = summary["bins"]
    used = bins[bins["count"] > 0]
    rows = 2 if hist is not None else 1
    fig = make_subplots(rows=rows, cols=1, shared_xaxes=True, vertical_spacing=0.08,
                        row_heights=[0.74, 0.26] if rows == 2 else [1.0])
    fig.add_trace(go.Scatter(x=[0, 1], y=[0, 1], mode="lines", name="perfect calibration",
                             line=dict(color=palette.NEUTRAL, dash="dash", width=1.5), hoverinfo="skip"), row=1, col=1)
    gx, gy = [], []
    for conf, acc in zip(used["mean_confidence"], used["accuracy"]):
        gx += [conf, conf, None]
        gy += [conf, acc, None]
    fig.add_trace(go.Scatter(x=gx, y=gy, mode="lines", name="gap (calibration error)",
                             line=dict(color=palette.GAP, width=3), hoverinfo="skip"), row=1, col=1)
    custom = np.stack([
        used["bin"].astype(str), used["lower"].map(lambda v: fmt.value(v)), used["upper"].map(lambda v: fmt.value(v)),
        used["count"].map(lambda v: fmt.count(int(v))), used["mean_confidence"].map(_pct), used["accuracy"].map(_pct),
        used["gap"].map(lambda v: f"{v * 100:+.1f} points"),
    ], axis=-1) if len(used) else None
    fig.add_trace(go.Scatter(
        x=used["mean_confidence"], y=used["accuracy"], mode="lines+markers",
        name="simulated model" if simulated else "the model, per bin",
        line=dict(color=palette.DATA, width=2), marker=dict(symbol="circle", size=10, color=palette.DATA),
        customdata=custom,
        hovertemplate=("<b>bin %{customdata[0]}</b> (%{customdata[1]}–%{customdata[2]})<br>%{customdata[3]} answers"
                       "<br>stated confidence %{customdata[4]}<br>share correct %{customdata[5]}"
                       "<br>accuracy − confidence: %{customdata[6]}<extra></extra>"),
    ), row=1, col=1)
    stage = _stage(mode)
    if hist is not None:
        shown = hist[hist["count"] > 0]
        top = float(hist["count"].max()) if len(hist) else 1.0
        fig.add_trace(go.Bar(
            x=(shown["lower"] + shown["upper"]) / 2, y=shown["count"], width=(shown["upper"] - shown["lower"]) * 0.9,
            name="answers at each confidence", marker=dict(color=palette.NEUTRAL),
            text=[fmt.count(int(v)) for v in shown["count"]], textposition="outside", cliponaxis=False,
            customdata=np.stack([shown["lower"].map(_pct), shown["upper"].map(_pct)], axis=-1) if len(shown) else None,
            hovertemplate="stated confidence %{customdata[0]}–%{customdata[1]}: %{y:,} answers<extra></extra>",
        ), row=2, col=1)
        fig.update_yaxes(title_text="answers", range=[0, top * 1.45], nticks=3, showticklabels=not stage,
                         row=2, col=1)
    dtick = 0.2 if stage or mode == "phone" else 0.1
    fig.update_xaxes(range=[0, 1.0], dtick=dtick, tickformat=".0%")
    fig.update_xaxes(title_text="stated confidence", row=rows, col=1)
    fig.update_yaxes(range=[0, 1.02], dtick=0.2 if stage else 0.1 if mode == "desktop" else 0.25,
                     title_text="share correct", tickformat=".0%", row=1, col=1)
    lines = [f"<b>ECE {fmt.value(summary['ece'])}</b> · {fmt.count(summary['n'], 'answer')}"]
    if simulated:
        lines.append("<b>SIMULATION</b>: synthetic answers, not HELM data")
    fig.add_annotation(text="<br>".join(lines), xref="x domain", yref="y domain", x=0.01, y=0.99, xanchor="left",
                       yanchor="top", align="left", showarrow=False, font=dict(size=14))
    return base_layout(fig, height=540 if rows == 2 else 440)


def accuracy_ece_scatter(df: pd.DataFrame, *, scenario: str, metric: str, mode: str = "desktop") -> go.Figure:
    """Accuracy against ECE, one point per model; access level by series colour and symbol. The most accurate
    and the best-calibrated model are named in the plot."""
    fig = go.Figure()
    metric_text = chart_label(metric)
    for access, (colour, symbol) in ACCESS_STYLE.items():
        d = df[df["access"] == access]
        if d.empty:
            continue
        fig.add_trace(go.Scatter(
            x=d["accuracy"], y=d["ece"], mode="markers", name=f"{access} access",
            marker=dict(symbol=symbol, size=12, color=colour),
            customdata=np.stack([chart_labels(d["model"]), chart_labels(d["organization"])], axis=-1),
            hovertemplate=(f"<b>%{{customdata[0]}}</b><br>%{{customdata[1]}}<br>{metric_text} %{{x:.3f}}"
                           "<br>ECE (10-bin) %{y:.3f}<extra></extra>"),
        ))
    other = df[~df["access"].isin(list(ACCESS_STYLE))]
    if not other.empty:
        fig.add_trace(go.Scatter(
            x=other["accuracy"], y=other["ece"], mode="markers", name="access unknown",
            marker=dict(symbol="x", size=11, color=palette.NEUTRAL),
            customdata=np.array(chart_labels(other["model"]), dtype=object).reshape(-1, 1),
            hovertemplate=f"<b>%{{customdata[0]}}</b><br>{metric_text} %{{x:.3f}}<br>ECE %{{y:.3f}}<extra></extra>",
        ))
    if len(df):
        x_lo, x_hi = float(df["accuracy"].min()), float(df["accuracy"].max())
        y_hi = float(df["ece"].max())
        named = {}
        named[str(df.iloc[0]["model"])] = df.iloc[0]  # sorted by accuracy, best first
        low = df.loc[df["ece"].idxmin()]
        named.setdefault(str(low["model"]), low)
        for i, (name, r) in enumerate(named.items()):
            right = float(r["accuracy"]) > (x_lo + x_hi) / 2
            fig.add_annotation(x=float(r["accuracy"]), y=float(r["ece"]), text=chart_label(name), showarrow=True,
                               arrowhead=0,
                               arrowcolor=palette.NEUTRAL, ax=-30 if right else 30,
                               ay=40 if float(r["ece"]) > y_hi / 2 else -40 - 24 * i,
                               xanchor="right" if right else "left", font=dict(size=13))
        pad = (x_hi - x_lo) * 0.06 or 0.05
        fig.update_xaxes(range=[x_lo - pad, x_hi + pad])
        fig.update_yaxes(range=[0, y_hi * 1.15 or 0.1])
    short = mode in ("presenter", "phone")
    fig.update_xaxes(title_text=f"accuracy on {chart_label(scenario)} ({metric_text})"
                     + ("" if short else ", higher is better"),
                     nticks=6 if short else None)
    fig.update_yaxes(title_text="ECE (10-bin)" + ("" if short else ", lower = better calibrated"),
                     nticks=6 if short else None)
    return base_layout(fig, height=460)


def ece_coverage_bars(gaps: pd.DataFrame, *, n_scenarios: int, mode: str = "desktop") -> go.Figure:
    """Per model (helm_core.calibration.models_without_ece): the scenarios where it has an ECE (palette.DATA) and
    those where it has accuracy but no ECE (palette.NEUTRAL, hatched: blank, not a score)."""
    order = chart_labels(gaps["model"])
    fig = go.Figure()
    fig.add_trace(go.Bar(x=gaps["n_with_ece"], y=order, orientation="h", name="scenarios with an ECE",
                         marker=dict(color=palette.DATA),
                         hovertemplate="<b>%{y}</b><br>%{x} scenarios with an ECE<extra></extra>"))
    fig.add_trace(go.Bar(x=gaps["n_missing"], y=order, orientation="h", name="accuracy but no ECE",
                         marker=dict(color=palette.NEUTRAL, pattern=dict(shape="/")),
                         customdata=np.array(chart_labels(gaps["scenarios"]), dtype=object).reshape(-1, 1),
                         hovertemplate="<b>%{y}</b><br>no ECE on %{customdata[0]}<extra></extra>"))
    fig.update_layout(barmode="stack", legend=dict(traceorder="normal"))
    fig.update_yaxes(categoryorder="array", categoryarray=order[::-1], automargin=True)
    fig.update_xaxes(title_text=f"scenarios with accuracy, of the {n_scenarios} where the release reports an ECE",
                     range=[0, max(n_scenarios, float((gaps["n_missing"] + gaps["n_with_ece"]).max()))],
                     dtick=2 if mode in ("presenter", "phone") else 1)
    return base_layout(fig, height=max(300, 24 * len(order) + 120))


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


def spread_dumbbell(df: pd.DataFrame, *, order: list[str], metric: str, scenario: str, mode: str = "desktop",
                    limit: int | None = None) -> go.Figure:
    """Per model a min–max bar with the mean marked; the kind of spread decides the line style. `limit`: only the
    first `limit` models of `order` (the stage holds about STAGE_ROWS names at 16 px); the axis title says so."""
    shown = list(order[:limit]) if limit else list(order)
    df = df[df["model"].isin(set(shown))]
    df = df.assign(model_text=chart_labels(df["model"]))
    metric_text = chart_label(metric)
    fig = go.Figure()
    styles = {"seeds": dict(color=palette.DATA, dash="solid"), "runs": dict(color=palette.NEUTRAL, dash="dot"),
              "unknown": dict(color=palette.NEUTRAL, dash="dash")}
    for kind, style in styles.items():
        d = df[df["kind"] == kind]
        if d.empty:
            continue
        name = seeds_label(d["n_runs"]) if kind == "seeds" else KIND_LABEL[kind]
        xs, ys = [], []
        for m, lo, hi in zip(d["model_text"], d["min"], d["max"]):
            xs += [lo, hi, None]
            ys += [m, m, None]
        fig.add_trace(go.Scatter(x=xs, y=ys, mode="lines", name=name, line=dict(width=4, **style), hoverinfo="skip"))
        custom = np.stack([d["min"].map(fmt_value), d["mean"].map(fmt_value), d["max"].map(fmt_value),
                           d["range"].map(fmt_value), d["n_runs"].map(lambda v: "?" if not np.isfinite(v) else fmt.count(v))],
                          axis=-1)
        hover = (f"<b>%{{y}}</b><br>{metric_text}: min %{{customdata[0]}}, mean %{{customdata[1]}}, "
                 f"max %{{customdata[2]}}<br>range %{{customdata[3]}} over %{{customdata[4]}} runs ({name})"
                 "<extra></extra>")
        for end, label in (("min", "min"), ("max", "max")):
            fig.add_trace(go.Scatter(x=d[end], y=d["model_text"], mode="markers", name=f"{label} ({kind})",
                                     showlegend=False,
                                     marker=dict(symbol="line-ns", size=12, line=dict(width=2, color=style["color"])),
                                     customdata=custom, hovertemplate=hover))
    withspread = df[df["kind"].isin(list(styles))]
    if not withspread.empty:
        fig.add_trace(go.Scatter(
            x=withspread["mean"], y=withspread["model_text"], mode="markers", name="mean (HELM's reported value)",
            marker=dict(symbol="diamond", size=10, color=palette.INK),
            hovertemplate=f"<b>%{{y}}</b><br>mean {metric_text} %{{x:.3f}}<extra></extra>",
        ))
    single = df[df["kind"] == "single"]
    if not single.empty:
        fig.add_trace(go.Scatter(
            x=single["mean"], y=single["model_text"], mode="markers", name=KIND_LABEL["single"],
            marker=dict(symbol="circle-open", size=10, color=palette.NEUTRAL, line=dict(width=2)),
            hovertemplate=f"<b>%{{y}}</b><br>{metric_text} %{{x:.3f}} (one run, one seed)<extra></extra>",
        ))
    stage = _stage(mode)
    fig.update_yaxes(categoryorder="array", categoryarray=chart_labels(reversed(shown)),
                     tickfont=dict(size=11) if not stage else None, automargin=True)
    phone = mode == "phone"
    # a phone's plot is narrow beside the model names
    title = metric_text if phone else f"{metric_text} on {chart_label(scenario)}"
    if limit and len(order) > len(shown):
        title += f" · first {len(shown)} of {fmt.count(len(order), 'model')}"
    fig.update_xaxes(title_text=title, side="top", range=value_range(df["min"], df["max"]),
                     nticks=4 if phone else 6 if stage else None, automargin=True)
    fig = base_layout(fig, height=max(300, 17 * len(shown) + 150))
    # (on a phone the legend goes below the plot: no room kept for it on top)
    return fig.update_layout(margin=dict(t=60 if phone else 110), legend=dict(yref="container", y=1.0, yanchor="top"))


def median_spread_bars(df: pd.DataFrame, mode: str = "desktop") -> go.Figure:
    """Median range per scenario. Bars where the spread is over seeds (the scale is theirs); scenarios whose
    spread is over sub-tasks × seeds get a hollow marker and their value as text (not comparable); scenarios
    with one run per model an ×."""
    phone = mode == "phone"
    seeds = df[df["kind"] == "seeds"].sort_values("median_range", ascending=True)
    runs = df[df["kind"].isin(["runs", "unknown"])].sort_values("median_range", ascending=True)
    none = df[~df["kind"].isin(["seeds", "runs", "unknown"])]
    # bottom to top: no spread, over runs, then the seed bars with the largest on top
    order = chart_labels(none["scenario"].tolist() + runs["scenario"].tolist() + seeds["scenario"].tolist())
    fig = go.Figure()
    if not seeds.empty:
        fig.add_trace(go.Bar(
            x=seeds["median_range"], y=chart_labels(seeds["scenario"]), orientation="h",
            name="over seeds (median of models)",
            marker=dict(color=palette.DATA, pattern=dict(shape=["." if n < FEW_MODELS else "" for n in seeds["n_seeded"]])),
            text=[f"{fmt.value(v)} (n={n}{'' if phone or n >= FEW_MODELS else ', few models'})"
                  for v, n in zip(seeds["median_range"], seeds["n_seeded"])],
            textposition="outside", cliponaxis=False,
            customdata=np.stack([chart_labels(seeds["metric"]), seeds["max_range"].map(fmt_value),
                                 chart_labels(seeds["widest_model"]), seeds["n_seeded"].astype(str)], axis=-1),
            hovertemplate=("<b>%{y}</b> (%{customdata[0]})<br>median range over seeds %{x:.3f} across "
                           "%{customdata[3]} models<br>widest: %{customdata[2]}, %{customdata[1]}<extra></extra>"),
        ))
    if not runs.empty:
        def runs_text(v: float, k: str) -> str:
            if phone:
                return f"{fmt.value(v)}, sub-tasks × seeds" if k == "runs" else f"{fmt.value(v)}, runs unknown"
            return (f"median {fmt.value(v)} over sub-tasks × seeds, not comparable" if k == "runs" else
                    f"median {fmt.value(v)} over runs not described (seeds unknown)")

        fig.add_trace(go.Scatter(
            x=[0] * len(runs), y=chart_labels(runs["scenario"]), mode="markers+text",
            name="sub-tasks × seeds: not a seed spread",
            marker=dict(symbol="triangle-right-open", size=11, color=palette.NEUTRAL,
                        line=dict(width=2, color=palette.NEUTRAL)),
            text=[runs_text(v, k) for v, k in zip(runs["median_range"], runs["kind"])],
            textposition="middle right", cliponaxis=False,
            customdata=np.stack([chart_labels(runs["metric"]), runs["median_range"].map(fmt_value),
                                 runs["n_models"].astype(str)], axis=-1),
            hovertemplate=("<b>%{y}</b> (%{customdata[0]})<br>median range %{customdata[1]} across %{customdata[2]} "
                           "models, over sub-tasks or subjects × seeds<extra></extra>"),
        ))
    if not none.empty:
        fig.add_trace(go.Scatter(
            x=[0] * len(none), y=chart_labels(none["scenario"]), mode="markers+text",
            name="one run per model",
            marker=dict(symbol="x-thin-open", size=10, color=palette.NEUTRAL, line=dict(width=2, color=palette.NEUTRAL)),
            text=["one run: no spread" if phone else "one run per model: no spread"] * len(none),
            textposition="middle right", cliponaxis=False,
            hovertemplate="<b>%{y}</b><br>one run per model: no seed spread<extra></extra>",
        ))
    fig.update_yaxes(categoryorder="array", categoryarray=order, automargin=True)
    top = float(seeds["median_range"].max()) if len(seeds) else 0.1
    # Room for the text right of the longest bar (and of the markers at 0): more on a narrow screen.
    right = 2.2 if phone else 1.5 if len(runs) or len(none) else 1.4
    fig.update_xaxes(title_text=("median range over seeds" if phone else
                                 "median range (max − min) of the main metric over seeds"),
                     range=[-top * 0.02, top * right], nticks=4 if phone or _stage(mode) else None)
    if not len(seeds):
        fig.update_xaxes(showticklabels=False)
    # No legend: every mark says what it is (the bars' axis title, the markers' own text), and a legend above the
    # plot could wrap to two rows over the top bars' labels when the browser's fonts arrive late.
    fig.update_layout(showlegend=False)
    return base_layout(fig, height=max(320, 26 * len(order) + 120))


def rank_slope(flips: pd.DataFrame, mode: str = "desktop", limit: int | None = None) -> go.Figure:
    """Each model's rank if everyone had been reported with their best seed (left) and worst seed (right).
    Models that move are drawn solid (climb, palette.UP) or dashed (drop, palette.DOWN) with markers and their
    move; the rest thin and grey. `limit`: only the first `limit` positions are in view (the stage holds about
    STAGE_ROWS names at 16 px); a line leaving them runs off the bottom of the plot."""
    fig = go.Figure()
    moved = flips[flips["change"] != 0]
    still = flips[flips["change"] == 0]
    xs, ys = [], []
    for b, w in zip(still["pos_if_best"], still["pos_if_worst"]):
        xs += ["best seed", "worst seed", None]
        ys += [b, w, None]
    if len(still):
        fig.add_trace(go.Scatter(x=xs, y=ys, mode="lines", name="same rank", line=dict(color=palette.NEUTRAL, width=1),
                                 hoverinfo="skip"))
    # One trace per direction (segments split by None), not one per model: 30 traces cost the browser ~0.1 s.
    for up in (True, False):
        part = moved[(moved["change"] > 0) == up]
        if part.empty:
            continue
        colour, arrow = (palette.UP, "▲") if up else (palette.DOWN, "▼")
        xs, ys, cd = [], [], []
        for _, r in part.iterrows():
            xs += ["best seed", "worst seed", None]
            ys += [r["pos_if_best"], r["pos_if_worst"], None]
            move = f"{arrow} {abs(int(r['change']))}"
            name = chart_label(r["model"])
            cd += [[name, int(r["rank_if_best"]), move], [name, int(r["rank_if_worst"]), move], [None, None, None]]
        fig.add_trace(go.Scatter(
            x=xs, y=ys, mode="lines+markers",
            name="climbs when all are at their worst seed" if up else "drops when all are at their worst seed",
            line=dict(color=colour, width=2, dash="solid" if up else "dash"),
            marker=dict(symbol="triangle-up" if up else "triangle-down", size=9, color=colour),
            customdata=cd,
            hovertemplate=("<b>%{customdata[0]}</b><br>%{x}: rank %{customdata[1]}<br>%{customdata[2]} "
                           "between the two rankings<extra></extra>"),
        ))
    n = max(1, len(flips))
    top = min(n, limit) if limit else n
    left = flips[flips["pos_if_best"] <= top]
    right = flips[flips["pos_if_worst"] <= top]
    stage = _stage(mode)
    size = None if stage else 10
    fig.add_trace(go.Scatter(
        x=["best seed"] * len(left), y=left["pos_if_best"], mode="text",
        text=[f"{chart_label(m)} ({int(k)})" for m, k in zip(left["model"], left["rank_if_best"])],
        textposition="middle left", textfont=dict(size=size), showlegend=False, hoverinfo="skip", cliponaxis=False))
    fig.add_trace(go.Scatter(
        x=["worst seed"] * len(right), y=right["pos_if_worst"], mode="text",
        text=[f"({int(k)}) {chart_label(m)} {'▲' if c > 0 else '▼' if c < 0 else '='}{abs(int(c)) if c else ''}"
              for m, k, c in zip(right["model"], right["rank_if_worst"], right["change"])],
        textposition="middle right", textfont=dict(size=size), showlegend=False, hoverinfo="skip", cliponaxis=False))
    title = "position (1 = best; tied ranks in brackets)"
    if top < n:
        title = f"positions 1–{top} of {n}"
    fig.update_yaxes(range=[top + 0.5, 0.5], title_text=title, dtick=5 if top > 20 else 1,
                     showticklabels=not stage, automargin=True)
    fig.update_xaxes(categoryorder="array", categoryarray=["best seed", "worst seed"], range=[-1.3, 2.3], side="top")
    fig = base_layout(fig, height=max(320, 17 * top + 170))
    return fig.update_layout(margin=dict(t=90), legend=dict(yref="container", y=1.0, yanchor="top"))


def claims_beside_data(rows: pd.DataFrame, *, metric: str, scenario: str, mode: str = "desktop") -> go.Figure:
    """The paper's claims (palette.CLAIM, diamonds) beside what the data says (palette.DATA, circles), one row each.
    `rows`: label (plain text, a newline where its line breaks), source ("paper" or "data"), low, high, point (NaN
    for none), text (what is written beside the mark). A row whose low and high differ draws a bar between them;
    its point (a mean) is marked."""
    fig = go.Figure()
    phone = mode == "phone"
    rows = rows.assign(label=["<br>".join(chart_labels(str(x).split("\n"))) for x in rows["label"]],
                       text=chart_labels(rows["text"]))
    for source, colour, symbol, name in (("data", palette.DATA, "circle", "this release's data"),
                                         ("paper", palette.CLAIM, "diamond", "the paper's claim")):
        d = rows[rows["source"] == source]
        if d.empty:
            continue
        xs, ys = [], []
        for label, lo, hi in zip(d["label"], d["low"], d["high"]):
            if np.isfinite(lo) and np.isfinite(hi) and lo != hi:
                xs += [lo, hi, None]
                ys += [label, label, None]
        if xs:
            fig.add_trace(go.Scatter(x=xs, y=ys, mode="lines", line=dict(color=colour, width=4), showlegend=False,
                                     hoverinfo="skip"))
        ends = d.melt(id_vars=["label", "text"], value_vars=["low", "high"], value_name="x").dropna(subset=["x"])
        # the paper's numbers as diamonds at both ends; the data's min and max as ticks, its mean as a circle
        fig.add_trace(go.Scatter(
            x=ends["x"], y=ends["label"], mode="markers", name=name, showlegend=source == "paper",
            marker=dict(symbol=symbol if source == "paper" else "line-ns", size=12 if source == "paper" else 14,
                        color=colour, line=dict(width=2, color=colour)),
            hovertemplate="<b>%{y}</b><br>%{x:.3f}<extra></extra>"))
        points = d.dropna(subset=["point"])
        if len(points):
            fig.add_trace(go.Scatter(x=points["point"], y=points["label"], mode="markers", name=name,
                                     marker=dict(symbol=symbol, size=12, color=colour),
                                     hovertemplate="<b>%{y}</b><br>mean %{x:.3f}<extra></extra>"))
        tips = d.assign(x=d[["low", "high", "point"]].max(axis=1))
        # an invisible marker at the tip, so the text starts beside it rather than on it
        fig.add_trace(go.Scatter(
            x=tips["x"], y=tips["label"], mode="markers+text", text=tips["text"], textposition="middle right",
            marker=dict(size=14, opacity=0), textfont=dict(color=colour), showlegend=False, hoverinfo="skip",
            cliponaxis=False))
    fig.update_yaxes(categoryorder="array", categoryarray=list(reversed(list(dict.fromkeys(rows["label"])))),
                     automargin=True)
    metric, scenario = chart_label(metric), chart_label(scenario)
    fig.update_xaxes(title_text=f"{metric} on {scenario}" if not phone else metric, range=[0, 1.45 if phone else 1.25],
                     tickvals=[0, 0.2, 0.4, 0.6, 0.8, 1.0], zeroline=False)
    return base_layout(fig, height=max(320, 62 * rows["label"].nunique() + 110))


def trial_outcomes(outcomes: pd.DataFrame, *, mode: str = "desktop") -> go.Figure:
    """Questions by how many of the run's sets of in-context examples got them right (helm_core.real_runs.
    trial_outcomes): the mixed rows (right with one set, wrong with another) in palette.DATA, the consistent ones
    in palette.NEUTRAL, each labelled with its count and share."""
    order = chart_labels(outcomes["label"])
    mixed = outcomes["mixed"].to_numpy(bool)
    fig = go.Figure(go.Bar(
        x=outcomes["questions"], y=order, orientation="h",
        marker=dict(color=[palette.DATA if m else palette.NEUTRAL for m in mixed],
                    pattern=dict(shape=["" if m else "/" for m in mixed])),
        text=[f"{fmt.count(int(q), 'question')} ({fmt.share(s)})" for q, s in zip(outcomes["questions"], outcomes["share"])],
        textposition="outside", cliponaxis=False, showlegend=False,
        hovertemplate="<b>%{y}</b><br>%{x} questions<extra></extra>"))
    top = float(outcomes["questions"].max()) if len(outcomes) else 1.0
    fig.update_yaxes(categoryorder="array", categoryarray=order[::-1], automargin=True)
    fig.update_xaxes(title_text="questions", range=[0, top * (1.9 if mode == "phone" else 1.45)], nticks=5)
    return base_layout(fig, height=320)


# ----------------------------------------------------------------------------- cached figure specs
# As in charts_coverage: the page caches these plain-JSON dicts (ui.cache.on_release) and hands them to the layout as
# they are (ui.stage styles the dict), so a rerun pays no plotly validation or figure copy per chart.


def spread_dumbbell_spec(release, scenario: str, models: tuple[str, ...], sort: str, mode: str = "desktop") -> dict:
    from helm_core import sensitivity as S

    sp = S.seed_spread(release, scenario, models)
    order = list(S.order_spread(sp, sort)["model"])
    return plain(spread_dumbbell(sp, order=order, metric=str(sp["metric"].iloc[0]), scenario=scenario, mode=mode,
                                 limit=STAGE_ROWS if _stage(mode) else None))


def median_spread_spec(release, models: tuple[str, ...], mode: str = "desktop") -> dict:
    from helm_core import sensitivity as S

    return plain(median_spread_bars(S.median_spread(release, models), mode))


def rank_slope_spec(release, scenario: str, models: tuple[str, ...], mode: str = "desktop") -> dict:
    from helm_core import sensitivity as S

    return plain(rank_slope(S.rank_flips(release, scenario, models), mode,
                      limit=STAGE_ROWS if _stage(mode) else None))
