"""Plotly figure builders. They take tidy frames from helm_core and return figures; no Streamlit here.

Text from the data (model, scenario, metric, release names, anything a visitor's HELM output names) reaches plotly
through helm_core.escape.chart_label exactly once, where it enters the figure (category values, tick text, trace
names, text, the customdata a hovertemplate shows, titles, annotations), so plotly draws it literally; the builders'
own markup (`<br>`, `<b>`, `<i>`) goes around the escaped text. A category axis is escaped alike everywhere it is
referenced (values, categoryarray, tickvals); a customdata token that a click selects stays raw (first column)."""
from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from helm_core import fmt
from helm_core.escape import chart_label

from . import palette

# Every colour comes from ui.palette (one meaning per colour, legible on both themes); these names are the ones
# the grid's builders use.
BLUE, GREY, VERMILLION = palette.DATA, palette.NEUTRAL, palette.DOWN
SKY = "#A6CEE3"  # a light fill inside a DATA outline (the outline is the mark; text on it is dark)
BLANK_SYMBOL = "x-thin-open"


def base_layout(fig: go.Figure, *, height: int | None = None, title: str | None = None) -> go.Figure:
    """The app's colours, margins and legend; `title` is plotly text (escaped by the caller)."""
    fig.update_layout(
        colorway=palette.SERIES,
        margin=dict(l=10, r=10, t=40 if title else 10, b=10),
        hoverlabel=dict(namelength=-1),
        # a gap above the plot: a value label on the top row (its glyph box taller than its band) never meets it
        legend=dict(orientation="h", yanchor="bottom", y=1.02, xanchor="left", x=0),
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


def chart_labels(values) -> list[str]:
    """Each value as plotly text (helm_core.escape.chart_label), e.g. a category axis's values or order."""
    return [chart_label(v) for v in values]


def wrap_label(text: str, width: int = 70) -> str:
    """Plain text broken into lines of at most `width` characters at spaces, each line escaped for plotly
    (chart_label) and `<br>` between them; a word longer than `width` stays whole."""
    words, lines, line = str(text).split(" "), [], ""
    for w in words:
        if line and len(line) + 1 + len(w) > width:
            lines.append(line)
            line = w
        else:
            line = f"{line} {w}" if line else w
    if line:
        lines.append(line)
    return "<br>".join(chart_label(ln) for ln in lines)


def exam_dot_matrix(exam: pd.DataFrame, model_order: list[str], scenario_order: list[str]) -> go.Figure:
    """Models × scenarios dot matrix (a desktop screen, every model named on its row): a filled dot per measured
    cell, a grey × per blank cell. Rows 18 px apart, so 12 px names never touch."""
    fig = go.Figure()
    measured = exam[exam["measured"]]
    blank = exam[~exam["measured"]]
    fig.add_trace(go.Scatter(
        x=chart_labels(measured["scenario"]), y=chart_labels(measured["model"]), mode="markers", name="measured",
        marker=dict(symbol="circle", size=9, color=palette.DATA),
        customdata=np.stack([chart_labels(measured["metric"]), measured["value"].map(fmt_value)], axis=-1)
        if len(measured) else None,
        hovertemplate="<b>%{y}</b><br>%{x}<br>%{customdata[0]} = %{customdata[1]}<extra></extra>",
    ))
    fig.add_trace(go.Scatter(
        x=chart_labels(blank["scenario"]), y=chart_labels(blank["model"]), mode="markers",
        name="blank: HELM has no value",
        marker=dict(symbol=BLANK_SYMBOL, size=9, color=palette.NEUTRAL, line=dict(width=2, color=palette.NEUTRAL)),
        customdata=np.array(chart_labels(blank["metric"]), dtype=object).reshape(-1, 1) if len(blank) else None,
        hovertemplate="<b>%{y}</b><br>%{x}<br>%{customdata[0]}: not measured<extra></extra>",
    ))
    fig.update_xaxes(categoryorder="array", categoryarray=chart_labels(scenario_order), tickangle=-40, side="top",
                     range=[-0.5, len(scenario_order) - 0.5], automargin=True)
    fig.update_yaxes(categoryorder="array", categoryarray=chart_labels(reversed(model_order)),
                     range=[-0.5, len(model_order) - 0.5], automargin=True)
    base_layout(fig, height=18 * len(model_order) + 190)
    # The scenario names sit on top; the legend goes below the dots so it never covers them.
    return fig.update_layout(legend=dict(yanchor="top", y=-0.01, yref="paper"), margin=dict(b=40))


def exam_patterns_chart(patterns: pd.DataFrame, scenario_order: list[str], *, mode: str = "presenter") -> go.Figure:
    """The same exam, compact (helm_core.summary.exam_patterns): scenarios on rows, one column per pattern of
    blanks (the models that lack the same scenarios), headed by how many models share it, or by the model's name
    when it is alone (and, on a stage with few columns, by the names of up to five models that lack the same ones). It fits a 1280 × 720 stage and a 390 px phone whatever the number of models; every model is
    named in the hover and the data table.

    Phone: column heads turned upright (narrow columns); stage: heads across, names wrapped to fit."""
    fig = go.Figure()
    phone = mode == "phone"
    n_cols = max(len(patterns), 1)
    # A column head: the count, or the lone model's name where a column is wide enough to hold it.
    per_line = max(8, int(900 / n_cols / 9.5))
    heads = []
    for r in patterns.itertuples():
        if r.n_models == 1 and (phone or n_cols <= 6):
            text = chart_label(r.models[0]) if phone else wrap_label(str(r.models[0]), per_line)
        elif not phone and r.n_models <= 5 and n_cols <= 4 and r.n_missing:
            # a few models with the same blanks, on a wide column: each named on a line of its own
            text = fmt.count(r.n_models, "model") + ":<br>" + "<br>".join(chart_labels(r.models))
        else:
            text = fmt.count(r.n_models, "model")
        heads.append(text)
    xs = [str(i) for i in patterns["pattern"]]
    rows = {"measured": ([], [], [], palette.DATA, "circle"),
            "blank: HELM has no value": ([], [], [], palette.NEUTRAL, BLANK_SYMBOL)}
    for r, x in zip(patterns.itertuples(), xs):
        who = wrap_label(fmt.names(list(r.models), limit=12), 60)
        for s in scenario_order:
            key = "blank: HELM has no value" if s in r.missing else "measured"
            rows[key][0].append(x)
            rows[key][1].append(chart_label(s))
            rows[key][2].append(f"{fmt.count(r.n_models, 'model')}: {who}")
    size = 11 if phone else 18
    for name, (x, y, who, colour, symbol) in rows.items():
        fig.add_trace(go.Scatter(
            x=x, y=y, mode="markers", name=name, customdata=np.array(who, dtype=object).reshape(-1, 1) if who else None,
            marker=dict(symbol=symbol, size=size, color=colour, line=dict(width=2.5, color=colour)),
            hovertemplate="<b>%{y}</b>" + (": not measured" if colour == palette.NEUTRAL else "")
                          + "<br>%{customdata[0]}<extra></extra>",
        ))
    fig.update_xaxes(type="category", categoryorder="array", categoryarray=xs, tickmode="array", tickvals=xs,
                     ticktext=heads, side="top", tickangle=-90 if phone else 0, range=[-0.5, n_cols - 0.5],
                     showgrid=False, automargin=True, fixedrange=True)
    fig.update_yaxes(type="category", categoryorder="array", categoryarray=chart_labels(reversed(scenario_order)),
                     range=[-0.5, len(scenario_order) - 0.5], automargin=True, fixedrange=True)
    base_layout(fig, height=(24 if phone else 34) * len(scenario_order) + (230 if phone else 150))
    return fig.update_layout(legend=dict(orientation="h", yanchor="top", y=-0.02, yref="paper", x=0),
                             margin=dict(b=40))
