"""Plotly builders for the Moving Targets page (HELM classic, Lite and Capabilities side by side). No Streamlit."""
from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from .charts import BLANK_SYMBOL, BLUE, GREY, INK, ORANGE, VERMILLION, base_layout

RELEASE_COLOURS = {"classic": BLUE, "lite": ORANGE, "capabilities": VERMILLION}


def timeline_bars(summary: pd.DataFrame) -> go.Figure:
    """Models, scenarios and classic metric groups measured, one panel each, releases in order (oldest first)."""
    panels = [("models", "Models"), ("scenarios", "Scenarios"), ("groups_measured", "Metric groups of the seven")]
    fig = make_subplots(rows=1, cols=3, subplot_titles=[t for _, t in panels], horizontal_spacing=0.08)
    # The x labels carry each release's newest model date: the files hold no publication date (see the page).
    labels = [f"{n}<br>newest model {d or 'unknown'}" for n, d in zip(summary["name"], summary["newest_model_date"])]
    for i, (col, title) in enumerate(panels, start=1):
        fig.add_trace(go.Bar(
            x=labels, y=summary[col], text=summary[col], textposition="outside", name=title,
            marker=dict(color=[RELEASE_COLOURS.get(r, GREY) for r in summary["release"]]), showlegend=False,
            hovertemplate="<b>%{x}</b><br>" + title + ": %{y}<extra></extra>", cliponaxis=False,
        ), row=1, col=i)
        fig.update_yaxes(range=[0, max(1, float(summary[col].max())) * 1.2], row=1, col=i)
    fig.update_xaxes(tickangle=-25, tickfont=dict(size=10))
    return base_layout(fig, height=400).update_layout(margin=dict(t=40))


def group_presence_grid(presence: pd.DataFrame, names: dict[str, str], labels: dict[str, str]) -> go.Figure:
    """Releases × the seven metric groups: a filled square where the release has values, a cross where not."""
    fig = go.Figure()
    long = presence.reset_index().melt(id_vars="release", var_name="group", value_name="measured")
    long["name"] = long["release"].map(names)
    long["label"] = long["group"].map(labels)
    for measured, name, marker in (
        (True, "measured", dict(symbol="square", size=30, color=BLUE)),
        (False, "not in the release's tables (blank)", dict(symbol=BLANK_SYMBOL, size=22, color=GREY,
                                                             line=dict(width=3, color=GREY))),
    ):
        sub = long[long["measured"] == measured]
        fig.add_trace(go.Scatter(
            x=sub["label"], y=sub["name"], mode="markers", name=name, marker=marker,
            hovertemplate="<b>%{y}</b><br>%{x}: " + name + "<extra></extra>",
        ))
    fig.update_xaxes(type="category", categoryorder="array", categoryarray=list(labels.values()), side="top")
    fig.update_yaxes(type="category", categoryorder="array", categoryarray=[names[r] for r in presence.index][::-1])
    base_layout(fig, height=90 * len(presence) + 150)
    # The group names sit on top, so the legend goes below the grid.
    return fig.update_layout(legend=dict(orientation="h", yanchor="top", y=-0.05, xanchor="left", x=0),
                             margin=dict(t=40))


def saturation_dumbbell(best: pd.DataFrame, order: list[str]) -> go.Figure:
    """Per shared scenario: the best (and median) score in each release, joined by a line."""
    fig = go.Figure()
    for s in best["scenario"].unique():
        sub = best[best["scenario"] == s]
        fig.add_trace(go.Scatter(x=sub["best"], y=[s] * len(sub), mode="lines", line=dict(color=INK, width=2),
                                 showlegend=False, hoverinfo="skip"))
    for rel in order:
        sub = best[best["release"] == rel]
        if sub.empty:
            continue
        name = sub["name"].iloc[0]
        fig.add_trace(go.Scatter(
            x=sub["best"], y=sub["scenario"], mode="markers", name=f"best in {name}",
            marker=dict(symbol="circle", size=14, color=RELEASE_COLOURS.get(rel, GREY)),
            customdata=np.stack([sub["model"], sub["metric"], sub["models"]], axis=-1),
            hovertemplate="<b>%{y}</b> · " + name + "<br>best %{customdata[1]} %{x:.3f}: %{customdata[0]}"
                          "<br>%{customdata[2]} models with a value<extra></extra>",
        ))
        fig.add_trace(go.Scatter(
            x=sub["median"], y=sub["scenario"], mode="markers", name=f"median in {name}",
            marker=dict(symbol="diamond-open", size=11, color=RELEASE_COLOURS.get(rel, GREY), line=dict(width=2)),
            hovertemplate="<b>%{y}</b> · " + name + "<br>median %{x:.3f}<extra></extra>",
        ))
    fig.update_xaxes(title="Score on the scenario's main metric (1 = perfect)", range=[0, 1.02])
    fig.update_yaxes(type="category", autorange="reversed")
    return base_layout(fig, height=60 * best["scenario"].nunique() + 160)


def same_model_scatter(values: pd.DataFrame, name_a: str, name_b: str) -> go.Figure:
    """Each point is one model on one shared scenario: its value in release a (x) and in release b (y)."""
    fig = go.Figure()
    fig.add_trace(go.Scatter(x=[0, 1], y=[0, 1], mode="lines", name="same value in both",
                             line=dict(color=INK, dash="dot"), hoverinfo="skip"))
    symbols = ["circle", "square", "diamond", "triangle-up", "cross", "x", "star", "hexagon"]
    for i, (scen, sub) in enumerate(values.groupby("scenario", sort=False)):
        fig.add_trace(go.Scatter(
            x=sub["value_a"], y=sub["value_b"], mode="markers", name=scen,
            marker=dict(symbol=symbols[i % len(symbols)], size=10),
            customdata=np.stack([sub["model_a"], sub["model_b"], sub["change"]], axis=-1),
            hovertemplate=("<b>%{customdata[0]}</b> (" + name_b + ": %{customdata[1]})<br>" + scen
                           + f"<br>{name_a}: %{{x:.3f}}<br>{name_b}: %{{y:.3f}}<br>change %{{customdata[2]:+.3f}}"
                             "<extra></extra>"),
        ))
    fig.update_xaxes(title=f"Value in {name_a}", range=[0, 1])
    fig.update_yaxes(title=f"Value in {name_b}", range=[0, 1], scaleanchor="x")
    return base_layout(fig, height=480)
