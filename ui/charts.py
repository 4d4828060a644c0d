"""Plotly figure builders. They take tidy frames from helm_core and return figures; no Streamlit here."""
from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from helm_core import fmt

# Okabe–Ito: colour-blind-safe categorical palette.
OKABE_ITO = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000"]
BLUE, ORANGE, GREEN, PURPLE, SKY, VERMILLION, YELLOW, BLACK = OKABE_ITO
GREY = "#999999"
# A neutral for marks that must read on the light and the dark theme alike (black vanishes on dark):
# contrast 3.5:1 on white and 5:1 on Streamlit's dark background.
INK = "#888888"
BLANK_SYMBOL = "x-thin-open"


def base_layout(fig: go.Figure, *, height: int | None = None, title: str | None = None) -> go.Figure:
    fig.update_layout(
        colorway=OKABE_ITO,
        margin=dict(l=10, r=10, t=40 if title else 10, b=10),
        hoverlabel=dict(namelength=-1),
        legend=dict(orientation="h", yanchor="bottom", y=1.0, xanchor="left", x=0),
    )
    if title:
        if any(getattr(t, "showlegend", None) is not False for t in fig.data) and len(fig.data) > 1:
            # A chart with a legend above it: the title heads the legend box, so the two can never be drawn over
            # each other, at any width or height (the legend grows and pushes the plot down as a whole).
            fig.update_layout(legend=dict(title=dict(text=f"<b>{title}</b>", side="top",
                                                     font=dict(size=14))),
                              margin=dict(t=10))
        else:
            fig.update_layout(title=dict(text=title, x=0, xanchor="left"))
    if height:
        fig.update_layout(height=height)
    return fig


def figure(spec: dict) -> go.Figure:
    """A figure from a cached spec (a `*_spec` function's dict, validated when it was built): no re-validation."""
    return go.Figure(spec, _validate=False)


def fmt_value(v: float, digits: int = 3) -> str:
    return fmt.value(v, digits)


def exam_dot_matrix(exam: pd.DataFrame, model_order: list[str], scenario_order: list[str], *,
                    transpose: bool = False, height: int | None = None) -> go.Figure:
    """Models × scenarios dot matrix: a filled dot per measured cell, a thin × per blank cell.
    `transpose` puts the scenarios on rows and the models on columns (wide screens, presenter mode)."""
    fig = go.Figure()
    measured = exam[exam["measured"]]
    blank = exam[~exam["measured"]]
    xy = (lambda d: dict(x=d["model"], y=d["scenario"])) if transpose else (lambda d: dict(x=d["scenario"], y=d["model"]))
    hover_model, hover_scen = ("%{x}", "%{y}") if transpose else ("%{y}", "%{x}")
    fig.add_trace(
        go.Scatter(
            **xy(measured), mode="markers", name="measured",
            marker=dict(symbol="circle", size=9, color=BLUE),
            customdata=np.stack([measured["metric"], measured["value"].map(fmt_value)], axis=-1) if len(measured) else None,
            hovertemplate=f"<b>{hover_model}</b><br>{hover_scen}<br>%{{customdata[0]}} = %{{customdata[1]}}<extra></extra>",
        )
    )
    fig.add_trace(
        go.Scatter(
            **xy(blank), mode="markers", name="blank: HELM has no value",
            marker=dict(symbol=BLANK_SYMBOL, size=9, color=VERMILLION, line=dict(width=1.5, color=VERMILLION)),
            customdata=blank[["metric"]].to_numpy() if len(blank) else None,
            hovertemplate=f"<b>{hover_model}</b><br>{hover_scen}<br>%{{customdata[0]}}: not measured<extra></extra>",
        )
    )
    if transpose:
        fig.update_traces(marker_size=7)
        fig.update_xaxes(categoryorder="array", categoryarray=model_order, tickangle=-60, tickfont=dict(size=9))
        fig.update_yaxes(categoryorder="array", categoryarray=list(reversed(scenario_order)), tickfont=dict(size=11))
        return base_layout(fig, height=height or 470)
    fig.update_xaxes(categoryorder="array", categoryarray=scenario_order, tickangle=-40, side="top")
    fig.update_yaxes(categoryorder="array", categoryarray=list(reversed(model_order)), tickfont=dict(size=11))
    base_layout(fig, height=height or max(260, 16 * len(model_order) + 170))
    # The scenario names sit on top; the legend goes below the dots so it never covers them.
    return fig.update_layout(legend=dict(yanchor="top", y=-0.01), margin=dict(b=40))
