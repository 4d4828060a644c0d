"""Plotly builders for the Moving Targets page (HELM classic, Lite and Capabilities side by side). No Streamlit.

Each release has its own hue (ui.palette.RELEASE, used for nothing else); measured / blank are DATA / NEUTRAL as on
every page. Builders take the screen they are drawn for (`mode`) and lay out for it: three panels side by side on a
wide screen, one above the other on a phone; release names wrap onto lines instead of running together.
"""
from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from helm_core.escape import chart_label

from . import palette
from .charts import BLANK_SYMBOL, base_layout, chart_labels
from .charts_critique import phone, stage, wrap


def release_colour(key: str) -> str:
    return palette.RELEASE.get(key, palette.NEUTRAL)


def timeline_bars(summary: pd.DataFrame, mode: str = "desktop") -> go.Figure:
    """Models, scenarios and classic metric groups measured, one panel each, releases in order (oldest first, at
    the top). Each release's label carries its newest model's date (the files hold no publication date)."""
    panels = [("models", "Models"), ("scenarios", "Scenarios"), ("groups_measured", "Metric groups of the seven")]
    narrow = phone(mode)
    labels = [wrap(n, 20 if narrow else 26) + f" <br>newest model {chart_label(d or 'unknown')}"
              for n, d in zip(summary["name"], summary["newest_model_date"])]
    if narrow:
        fig = make_subplots(rows=3, cols=1, subplot_titles=[t for _, t in panels], vertical_spacing=0.12)
    else:
        fig = make_subplots(rows=1, cols=3, subplot_titles=[t for _, t in panels], shared_yaxes=True,
                            horizontal_spacing=0.05)
    colours = [release_colour(r) for r in summary["release"]]
    for i, (col, title) in enumerate(panels, start=1):
        where = dict(row=i, col=1) if narrow else dict(row=1, col=i)
        fig.add_trace(go.Bar(
            y=labels, x=summary[col], orientation="h", text=summary[col], textposition="outside", name=title,
            marker=dict(color=colours), showlegend=False, cliponaxis=False,
            hovertemplate="<b>%{y}</b><br>" + title + ": %{x}<extra></extra>",
        ), **where)
        top = max(1, float(summary[col].max()))
        fig.update_xaxes(range=[0, top * 1.3], nticks=3, **where)
        fig.update_yaxes(categoryorder="array", categoryarray=labels[::-1], automargin=True, **where)
    height = 3 * (60 + 44 * len(summary)) + 40 if narrow else 120 + 70 * len(summary)
    return base_layout(fig, height=height).update_layout(margin=dict(t=40))


def group_presence_grid(presence: pd.DataFrame, names: dict[str, str], labels: dict[str, str],
                        mode: str = "desktop") -> go.Figure:
    """Releases × the seven metric groups: a filled square where the release has values (DATA), a cross where not
    (NEUTRAL). On a phone the groups are the rows and the releases the columns."""
    fig = go.Figure()
    long = presence.reset_index().melt(id_vars="release", var_name="group", value_name="measured")
    narrow = phone(mode)
    rel_label = {r: wrap(names[r], 9 if narrow else 22) for r in presence.index}
    long["name"] = long["release"].map(rel_label)
    long["label"] = long["group"].map(labels).map(chart_label)
    big = stage(mode)
    for measured, name, marker in (
        (True, "measured", dict(symbol="square", size=34 if big else 28, color=palette.DATA)),
        (False, "blank: not in the release's tables", dict(symbol=BLANK_SYMBOL, size=24 if big else 20,
                                                           color=palette.NEUTRAL,
                                                           line=dict(width=3, color=palette.NEUTRAL))),
    ):
        sub = long[long["measured"] == measured]
        xy = dict(x=sub["name"], y=sub["label"]) if narrow else dict(x=sub["label"], y=sub["name"])
        fig.add_trace(go.Scatter(
            **xy, mode="markers", name=name, marker=marker,
            customdata=np.stack([chart_labels(sub["release"].map(names))], axis=-1),
            hovertemplate="<b>%{customdata[0]}</b><br>" + ("%{y}" if narrow else "%{x}") + ": " + name + "<extra></extra>",
        ))
    groups = chart_labels(labels.values())
    releases = [rel_label[r] for r in presence.index]
    if narrow:
        fig.update_xaxes(type="category", categoryorder="array", categoryarray=releases, side="top")
        fig.update_yaxes(type="category", categoryorder="array", categoryarray=groups[::-1], automargin=True)
        height = 46 * len(groups) + 170
    else:
        fig.update_xaxes(type="category", categoryorder="array", categoryarray=groups, side="top")
        fig.update_yaxes(type="category", categoryorder="array", categoryarray=releases[::-1], automargin=True)
        height = 90 * len(presence) + 150
    base_layout(fig, height=height)
    # The axis names sit on top, so the legend goes below the grid.
    return fig.update_layout(legend=dict(orientation="h", yanchor="top", y=-0.04, xanchor="left", x=0),
                             margin=dict(t=40))


def saturation_dumbbell(best: pd.DataFrame, order: list[str], mode: str = "desktop") -> go.Figure:
    """Per shared scenario: the best (filled circle) and median (open diamond) score in each release (its hue),
    joined by a line."""
    fig = go.Figure()
    scen = {s: wrap(s, 16 if phone(mode) else 32) for s in best["scenario"].unique()}
    for s in best["scenario"].unique():
        sub = best[best["scenario"] == s]
        fig.add_trace(go.Scatter(x=sub["best"], y=[scen[s]] * len(sub), mode="lines",
                                 line=dict(color=palette.NEUTRAL, width=2), showlegend=False, hoverinfo="skip"))
    for rel in order:
        sub = best[best["release"] == rel]
        if sub.empty:
            continue
        name = chart_label(sub["name"].iloc[0])
        y = sub["scenario"].map(scen)
        fig.add_trace(go.Scatter(
            x=sub["best"], y=y, mode="markers", name=f"best in {name}",
            marker=dict(symbol="circle", size=16, color=release_colour(rel)),
            customdata=np.stack([chart_labels(sub["model"]), chart_labels(sub["metric"]), sub["models"]], axis=-1),
            hovertemplate="<b>%{y}</b> · " + name + "<br>best %{customdata[1]} %{x:.3f}: %{customdata[0]}"
                          "<br>%{customdata[2]} models with a value<extra></extra>",
        ))
        fig.add_trace(go.Scatter(
            x=sub["median"], y=y, mode="markers", name=f"median in {name}",
            marker=dict(symbol="diamond-open", size=13, color=release_colour(rel), line=dict(width=3)),
            hovertemplate="<b>%{y}</b> · " + name + "<br>median %{x:.3f}<extra></extra>",
        ))
    fig.update_xaxes(title="score on the scenario's main metric (1 = perfect)", range=[0, 1.02],
                     tickvals=[0, 0.5, 1] if not phone(mode) else [0, 1])
    fig.update_yaxes(type="category", categoryorder="array", categoryarray=list(scen.values()), autorange="reversed",
                     automargin=True)
    return base_layout(fig, height=60 * best["scenario"].nunique() + 170)


def same_model_scatter(values: pd.DataFrame, name_a: str, name_b: str, mode: str = "desktop") -> go.Figure:
    """Each point is one model on one shared scenario: its value in release a (x) and in release b (y); one symbol
    and one identity colour (palette.SERIES) per scenario."""
    fig = go.Figure()
    fig.add_trace(go.Scatter(x=[0, 1], y=[0, 1], mode="lines", name="same value in both",
                             line=dict(color=palette.NEUTRAL, dash="dot"), hoverinfo="skip"))
    symbols = ["circle", "square", "diamond", "triangle-up", "cross", "x", "star", "hexagon"]
    name_a, name_b = chart_label(name_a), chart_label(name_b)
    for i, (scen, sub) in enumerate(values.groupby("scenario", sort=False)):
        scen = chart_label(scen)
        fig.add_trace(go.Scatter(
            x=sub["value_a"], y=sub["value_b"], mode="markers", name=scen,
            marker=dict(symbol=symbols[i % len(symbols)], size=12, color=palette.SERIES[i % len(palette.SERIES)],
                        line=dict(width=1, color="white")),
            customdata=np.stack([chart_labels(sub["model_a"]), chart_labels(sub["model_b"]), sub["change"]], axis=-1),
            hovertemplate=("<b>%{customdata[0]}</b> (" + name_b + ": %{customdata[1]})<br>" + scen
                           + f"<br>{name_a}: %{{x:.3f}}<br>{name_b}: %{{y:.3f}}<br>change %{{customdata[2]:+.3f}}"
                             "<extra></extra>"),
        ))
    ticks = [0, 0.5, 1] if stage(mode) or phone(mode) else None
    fig.update_xaxes(title=f"value in {name_a}", range=[0, 1], tickvals=ticks)
    fig.update_yaxes(title=f"value in {name_b}", range=[0, 1], scaleanchor="x", tickvals=ticks)
    return base_layout(fig, height=480)
