"""Plotly builders for the critique pages (limits, studies). Figures only; no Streamlit here.

Colour never carries meaning alone: bars carry text labels and fill patterns, markers differ in shape.
"""
from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from helm_core import fmt

from .charts import BLUE, GREY, ORANGE, SKY, VERMILLION, base_layout

PAPER_PATTERN = "/"  # hatched fill = a number from the paper (a claim), not from the data
PAPER_FILL = dict(shape=PAPER_PATTERN, fillmode="overlay", fgcolor="white", size=8)


def _pct(v: float, digits: int = 1) -> str:
    return "no value" if v is None or (isinstance(v, float) and np.isnan(v)) else f"{v:.{digits}f}%"


def blank_cells_bars(df: pd.DataFrame) -> go.Figure:
    """Stacked horizontal bars per metric group: measured, blank by design, blank because not run."""
    fig = go.Figure()
    parts = [
        ("measured", "measured", BLUE, ""),
        ("by_design", "blank by design (not in HELM's schema)", GREY, "x"),
        ("not_run", "blank: not run for this model", VERMILLION, "/"),
    ]
    for col, name, color, pattern in parts:
        share = df[col] / df["cells"].where(df["cells"] > 0)
        fig.add_trace(go.Bar(
            y=df["label"], x=share, name=name, orientation="h",
            marker=dict(color=color, pattern=dict(shape=pattern, fillmode="overlay", fgcolor="white", size=7)),
            text=[fmt.count(n) if n else "" for n in df[col]], textposition="inside", insidetextanchor="middle",
            customdata=np.stack([df[col], df["cells"]], axis=-1),
            hovertemplate="<b>%{y}</b><br>" + name + ": %{customdata[0]:,} of %{customdata[1]:,} cells"
                          " (%{x:.0%})<extra></extra>",
        ))
    fig.update_layout(barmode="stack", legend_traceorder="normal")
    fig.update_xaxes(tickformat=".0%", range=[0, 1], title="share of model × scenario cells")
    fig.update_yaxes(categoryorder="array", categoryarray=list(reversed(df["label"].tolist())))
    return base_layout(fig, height=80 + 34 * len(df))


def rival_set_bars(df: pd.DataFrame, model: str) -> go.Figure:
    """One model's win rate against each set of rivals, labelled with its rank."""
    labels = [f"{fmt.value(w, 2)} · rank {r} of {n}" for w, r, n in zip(df["win_rate"], df["rank"], df["ranked"])]
    fig = go.Figure(go.Bar(
        y=df["rivals"], x=df["win_rate"], orientation="h", marker=dict(color=BLUE),
        text=labels, textposition="outside", cliponaxis=False, name=model,
        hovertemplate="<b>" + model.replace("%", "%%") + "</b> against %{y}<br>win rate %{x:.3f}<extra></extra>",
    ))
    fig.update_xaxes(range=[0, 1.2], tickvals=[0, 0.25, 0.5, 0.75, 1], title=f"accuracy win rate of {model}")
    fig.update_yaxes(categoryorder="array", categoryarray=list(reversed(df["rivals"].tolist())), automargin=True)
    return base_layout(fig, height=90 + 48 * len(df))


def seed_dumbbell(df: pd.DataFrame) -> go.Figure:
    """Min–max over seeds per (model, scenario) cell, with the mean (HELM's value) marked."""
    y = [f"{m} · {s}" for m, s in zip(df["model"], df["scenario"])]
    fig = go.Figure()
    xs, ys = [], []
    for lo, hi, yy in zip(df["min"], df["max"], y):
        xs += [lo, hi, None]
        ys += [yy, yy, None]
    fig.add_trace(go.Scatter(x=xs, y=ys, mode="lines", line=dict(color=GREY, width=3), name="range over seeds",
                             hoverinfo="skip"))
    custom = np.stack([df["metric"], df["seeds"]], axis=-1)
    for col, name, symbol, color in (("min", "worst seed", "triangle-left", VERMILLION),
                                     ("max", "best seed", "triangle-right", BLUE),
                                     ("mean", "mean (HELM's value)", "circle", ORANGE)):
        fig.add_trace(go.Scatter(
            x=df[col], y=y, mode="markers", name=name, customdata=custom,
            marker=dict(symbol=symbol, size=11 if col != "mean" else 9, color=color, line=dict(width=1, color="white")),
            hovertemplate="<b>%{y}</b><br>" + name + ": %{x:.3f} %{customdata[0]} (of %{customdata[1]} seeds)<extra></extra>",
        ))
    fig.update_yaxes(categoryorder="array", categoryarray=list(reversed(y)), automargin=True)
    fig.update_xaxes(title="main accuracy metric (0–1)", rangemode="tozero")
    return base_layout(fig, height=110 + 30 * len(df))


def moving_target_bars(df: pd.DataFrame, model: str, scenario: str, release_name: str) -> go.Figure:
    """The paper's number (hatched, a claim) beside the release's (solid, data) per metric."""
    fig = go.Figure()
    fig.add_trace(go.Bar(
        x=df["metric"], y=df["paper"], name="2022 paper (claim)", marker=dict(color=SKY, pattern=PAPER_FILL),
        text=[_pct(v) for v in df["paper"]], textposition="outside", cliponaxis=False,
        hovertemplate="%{x}<br>paper: %{y:.1f}%<extra></extra>",
    ))
    fig.add_trace(go.Bar(
        x=df["metric"], y=df["release"], name=f"{release_name} (data)", marker=dict(color=BLUE),
        text=[_pct(v) for v in df["release"]], textposition="outside", cliponaxis=False,
        hovertemplate="%{x}<br>" + release_name.replace("%", "%%") + ": %{y:.1f}%<extra></extra>",
    ))
    fig.update_layout(barmode="group")
    fig.update_yaxes(range=[0, 100], title="%", ticksuffix="%")
    fig.update_xaxes(title=f"{model} on {scenario}")
    return base_layout(fig, height=340)


def paper_findings(df: pd.DataFrame) -> go.Figure:
    """Small multiples of the paper's numeric findings: one panel per claim, hatched bars (claims, not data).
    `df` columns: claim, title, label, value, unit, confidence, lower_is_better."""
    claims = list(dict.fromkeys(df["claim"]))
    titles = []
    for c in claims:
        part = df[df["claim"] == c]
        titles.append(f"{part['title'].iloc[0]}<br><sup>{part['unit'].iloc[0]}"
                      f"{' · lower is better' if part['lower_is_better'].iloc[0] else ''}"
                      f" · claim, {part['confidence'].iloc[0]}</sup>")
    cols = min(2, len(claims)) or 1
    rows = int(np.ceil(len(claims) / cols)) or 1
    fig = make_subplots(rows=rows, cols=cols, subplot_titles=titles, vertical_spacing=0.28, horizontal_spacing=0.12)
    for i, c in enumerate(claims):
        part = df[df["claim"] == c]
        r, k = i // cols + 1, i % cols + 1
        digits = 3 if part["value"].max() < 10 else 1
        fig.add_trace(go.Bar(
            x=part["label"], y=part["value"], showlegend=False, name=part["title"].iloc[0],
            marker=dict(color=SKY, pattern=PAPER_FILL, line=dict(color=BLUE, width=1)),
            text=[f"{v:.{digits}f}" for v in part["value"]], textposition="outside", cliponaxis=False,
            hovertemplate="%{x}: %{y} " + part["unit"].iloc[0].replace("%", "%%") + " (paper claim)<extra></extra>",
        ), row=r, col=k)
        fig.update_yaxes(range=[0, float(part["value"].max()) * 1.3], row=r, col=k)
    fig.update_annotations(font_size=13)
    fig = base_layout(fig, height=330 * rows + 80, title="The paper's numbers (claims), not computed from this app's data")
    fig.update_layout(margin=dict(t=110))
    return fig
