"""Plotly builder for HELM's Leaderboard page: one table's ranking column as bars. No Streamlit."""
from __future__ import annotations

import textwrap

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from helm_core import escape, fmt

from . import palette
from .charts import base_layout

# Bars shown per screen: the stage and a phone read ten names; a laptop fifteen.
TOP_N = {"presenter": 10, "phone": 10, "desktop": 15, "handout": 15}


def metric_of(column: str) -> str:
    """The metric part of a HELM column label ("bAbI - # eval" -> "# eval"), for formatting its values."""
    return column.split(" - ", 1)[-1]


def shown_value(v: float, column: str) -> str:
    """A value as the page prints it: at the column's own scale (a time in s / ms / µs, a count whole)."""
    return fmt.metric_value(v, metric_of(column))


def ranking_bars(ranking: pd.DataFrame, column: str, lower_is_better: bool | None, *, mode: str = "desktop"
                 ) -> go.Figure:
    """The first rows of a `helm_core.leaderboard.Headline.ranking` (model, value, rank; best first) as horizontal
    bars, best at the top, each bar labelled with its value; the model(s) ranked first in the highlight colour.
    Rows are placed by position (two rows of one model name stay two bars); names are shown in full."""
    n = TOP_N.get(mode, 15)
    top = ranking.head(n)
    names = [escape.chart_label(m) for m in top["model"]]
    values = top["value"].to_numpy(dtype=float)
    texts = [escape.chart_label(shown_value(v, column)) for v in values]
    colours = [palette.HIGHLIGHT if r == 1 else palette.DATA for r in top["rank"]]
    pos = list(range(len(top)))
    fig = go.Figure(go.Bar(
        x=values, y=pos, orientation="h", marker=dict(color=colours), text=texts, textposition="outside",
        cliponaxis=False, customdata=np.stack([names, texts, top["rank"].astype(str)], axis=-1) if len(top) else None,
        hovertemplate="<b>%{customdata[0]}</b><br>" + escape.chart_label(column)
                      + ": %{customdata[1]}<br>rank %{customdata[2]}<extra></extra>",
        showlegend=False))
    lo = float(min(0.0, np.nanmin(values))) if len(values) else 0.0
    hi = float(max(0.0, np.nanmax(values))) if len(values) else 1.0
    span = (hi - lo) or 1.0
    title = column + ("" if lower_is_better is None else " (lower is better)" if lower_is_better else
                      " (higher is better)")
    # A phone's plot is ~350 px wide: the axis title in lines of at most 34 characters, so it stays inside.
    lines = (textwrap.wrap(title, 34, break_long_words=False) or [title]) if mode == "phone" else [title]
    # Room for the value labels outside the bars at either end.
    fig.update_xaxes(range=[lo - (0.22 * span if lo < 0 else 0), hi + 0.22 * span], zeroline=True,
                     title="<br>".join(escape.chart_label(x) for x in lines),
                     nticks=4 if mode in ("presenter", "phone") else 6)
    fig.update_yaxes(tickvals=pos, ticktext=names, autorange="reversed", automargin=True, ticks="")
    height = {"phone": 28, "presenter": 40}.get(mode, 30) * max(len(top), 2) + 90 + 18 * (len(lines) - 1)
    # A phone shows plotly's tool bar over the top of the plot: room for it above the first bar.
    return base_layout(fig, height=height).update_layout(margin=dict(l=10, r=20, t=34 if mode == "phone" else 10,
                                                                     b=50 + 18 * (len(lines) - 1)), bargap=0.3)
