"""Plotly builders for the critique pages (limits, studies). Figures only; no Streamlit here.

Every builder takes the screen it is drawn for (`mode`: "presenter", "desktop", "phone", "handout") and plans for it:
labels that stay whole (long names wrap onto a second line instead of running into "…"), fewer ticks on the stage,
inside-bar text that hides rather than shrinks below the stage's 16 px (ui.stage raises the sizes). Colours come from
ui.palette with one meaning each: a number the 2022 paper states is CLAIM (hatched, too, so colour never carries the
meaning alone), a measured value DATA, blank NEUTRAL, worse / better DOWN / UP.
"""
from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from helm_core import fmt
from helm_core.escape import chart_label

from . import palette
from .charts import base_layout, chart_labels, wrap_label

PAPER_PATTERN = "/"  # hatched fill = a number from the paper (a claim), not from the data
PAPER_FILL = dict(shape=PAPER_PATTERN, fillmode="overlay", fgcolor="white", size=8, solidity=0.3)
DESIGN_FILL = dict(shape="x", fillmode="overlay", fgcolor="white", size=7, solidity=0.3)
STAGE_MIN_TEXT = 16  # ui.stage.STAGE_TEXT: inside-bar text below it is hidden, never shrunk


def stage(mode: str) -> bool:
    return mode == "presenter"


def phone(mode: str) -> bool:
    return mode == "phone"


def wrap(text: str, width: int) -> str:
    """Plain `text` broken onto lines of at most `width` characters at spaces (a word longer than that keeps its
    line), escaped for plotly (chart_label). Each break keeps its space (" <br>"), so the label's text reads as
    words, not "v0.4.0newest"."""
    return wrap_label(str(text), width).replace("<br>", " <br>")


def _inside_text(fig: go.Figure, mode: str) -> go.Figure:
    """Inside-bar text never shrinks below the mode's smallest text: a label that does not fit is hidden (its value
    stays in the hover and the data table)."""
    return fig.update_layout(uniformtext=dict(minsize=STAGE_MIN_TEXT if stage(mode) else 11, mode="hide"))


def _pct(v: float, digits: int = 1) -> str:
    return "no value" if v is None or (isinstance(v, float) and np.isnan(v)) else f"{v:.{digits}f}%"


# ----------------------------------------------------------------------------- limits, step 1: one dense exam


def coverage_bars(rows: pd.DataFrame, mode: str = "desktop") -> go.Figure:
    """Share of cells measured, one horizontal bar each: the paper's numbers (hatched CLAIM) and the loaded data's
    (DATA). `rows` columns: label, value (a share, 0–1), kind ("claim" or "data")."""
    width = 22 if phone(mode) else 34
    labels = [wrap(x, width) for x in rows["label"]]
    claim = rows["kind"].eq("claim").to_numpy()
    fig = go.Figure(go.Bar(
        y=labels, x=rows["value"], orientation="h",
        marker=dict(color=[palette.CLAIM if c else palette.DATA for c in claim],
                    pattern=dict(shape=[PAPER_PATTERN if c else "" for c in claim], fillmode="overlay",
                                 fgcolor="white", size=8, solidity=0.3)),
        text=[fmt.share(v) for v in rows["value"]], textposition="outside", cliponaxis=False, showlegend=False,
        customdata=np.where(claim, "the 2022 paper's number (a claim)", "computed from the data"),
        hovertemplate="<b>%{y}</b><br>%{x:.1%} · %{customdata}<extra></extra>",
    ))
    fig.update_xaxes(range=[0, 1.18], tickformat=".0%", tickvals=[0, 0.5, 1] if not phone(mode) else [0, 1],
                     title="share of model × scenario cells measured")
    fig.update_yaxes(categoryorder="array", categoryarray=labels[::-1], automargin=True)
    return base_layout(fig, height=90 + 70 * len(rows))


# ----------------------------------------------------------------------------- limits, step 2: blank cells


def blank_cells_bars(df: pd.DataFrame, mode: str = "desktop", *, later: bool = False) -> go.Figure:
    """Stacked horizontal bars per metric group: measured (DATA), blank by design (NEUTRAL, cross-hatched; on a later
    release, `later`: not in its published tables, which give no reason) and blank because not run (NEUTRAL,
    solid)."""
    fig = go.Figure()
    parts = [
        ("measured", "measured", palette.DATA, {}),
        ("by_design", "blank: not in the release's tables" if later else "blank by design (not in HELM's schema)",
         palette.NEUTRAL, DESIGN_FILL),
        ("not_run", "blank: not run for this model", palette.NEUTRAL, {}),
    ]
    labels = chart_labels(df["label"])
    for col, name, color, pattern in parts:
        share = df[col] / df["cells"].where(df["cells"] > 0)
        fig.add_trace(go.Bar(
            y=labels, x=share, name=name, orientation="h",
            marker=dict(color=color, pattern=pattern or None, line=dict(width=1, color="white")),
            text=[fmt.count(n) if n else "" for n in df[col]], textposition="inside", insidetextanchor="middle",
            customdata=np.stack([df[col], df["cells"]], axis=-1),
            hovertemplate="<b>%{y}</b><br>" + name + ": %{customdata[0]:,} of %{customdata[1]:,} cells"
                          " (%{x:.0%})<extra></extra>",
        ))
    fig.update_layout(barmode="stack", legend_traceorder="normal")
    fig.update_xaxes(tickformat=".0%", range=[0, 1], tickvals=[0, 0.5, 1] if not phone(mode) else [0, 1],
                     title="share of model × scenario cells")
    fig.update_yaxes(categoryorder="array", categoryarray=labels[::-1], automargin=True)
    fig = base_layout(fig, height=110 + 34 * len(df))
    return _inside_text(fig, mode)


# ----------------------------------------------------------------------------- limits, step 3: the rivals


def rival_set_bars(df: pd.DataFrame, model: str, mode: str = "desktop") -> go.Figure:
    """One model's win rate against each set of rivals (DATA, recomputed), labelled with its rank."""
    labels = [f"{fmt.value(w, 2)} · rank {r} of {n}" for w, r, n in zip(df["win_rate"], df["rank"], df["ranked"])]
    rivals = [wrap(r, 20 if phone(mode) else 30) for r in df["rivals"]]
    fig = go.Figure(go.Bar(
        y=rivals, x=df["win_rate"], orientation="h", marker=dict(color=palette.DATA),
        text=labels, textposition="outside", cliponaxis=False, name=chart_label(model),
        hovertemplate="<b>" + chart_label(model) + "</b> against %{y}<br>win rate %{x:.3f}<extra></extra>",
    ))
    fig.update_xaxes(range=[0, 1.7 if phone(mode) else 1.45], tickvals=[0, 0.5, 1],
                     title=wrap(f"accuracy win rate of {model}", 40 if phone(mode) else 90))
    fig.update_yaxes(categoryorder="array", categoryarray=list(reversed(rivals)), automargin=True)
    return base_layout(fig, height=110 + 56 * len(df))


# ----------------------------------------------------------------------------- limits, step 4: seeds


def _range_lines(lows, highs, ys, name: str, width: int) -> go.Scatter:
    """One NEUTRAL line per row from its low to its high end (the dumbbells' bars), as a single trace."""
    xs, yy = [], []
    for lo, hi, y in zip(lows, highs, ys):
        xs += [lo, hi, None]
        yy += [y, y, None]
    return go.Scatter(x=xs, y=yy, mode="lines", line=dict(color=palette.NEUTRAL, width=width), name=name,
                      hoverinfo="skip")


def seed_dumbbell(df: pd.DataFrame, mode: str = "desktop") -> go.Figure:
    """Min–max over seeds per (model, scenario) cell: worst seed (DOWN), best seed (UP), the mean HELM shows (DATA).
    On a phone each row's name sits above its line, inside the plot, so the 390 px width goes to the ranges."""
    names = [f"{m} · {s}" for m, s in zip(df["model"], df["scenario"])]
    y = list(range(len(df)))
    fig = go.Figure(_range_lines(df["min"], df["max"], y, "range over seeds", 3))
    custom = np.stack([chart_labels(names), chart_labels(df["metric"]), df["seeds"]], axis=-1)
    for col, name, symbol, color in (("min", "worst seed", "triangle-left", palette.DOWN),
                                     ("max", "best seed", "triangle-right", palette.UP),
                                     ("mean", "mean (HELM's value)", "circle", palette.DATA)):
        fig.add_trace(go.Scatter(
            x=df[col], y=y, mode="markers", name=name, customdata=custom,
            marker=dict(symbol=symbol, size=13 if col != "mean" else 10, color=color, line=dict(width=1, color="white")),
            hovertemplate="<b>%{customdata[0]}</b><br>" + name
                          + ": %{x:.3f} %{customdata[1]} (of %{customdata[2]} seeds)<extra></extra>",
        ))
    fig.update_xaxes(title="main accuracy metric (0–1)", range=[0, 1.02], tickvals=[0, 0.25, 0.5, 0.75, 1]
                     if not stage(mode) else [0, 0.5, 1])
    if phone(mode):
        for yy, n in zip(y, names):
            fig.add_annotation(x=0, y=yy, xref="x", yref="y", text=wrap(n, 44), showarrow=False, xanchor="left",
                               yanchor="bottom", yshift=6, align="left")
        fig.update_yaxes(showticklabels=False, autorange="reversed", range=None)
        return base_layout(fig, height=120 + 62 * len(df))
    fig.update_yaxes(tickvals=y, ticktext=chart_labels(names), autorange="reversed", automargin=True)
    return base_layout(fig, height=110 + 34 * len(df))


# ----------------------------------------------------------------------------- limits, step 5: contamination


def contamination_bars(df: pd.DataFrame, mode: str = "desktop") -> go.Figure:
    """Flagged cells per model: ☠ strong (DOWN, left out of win rates) and ⚠ weaker (DATA, still counted). `df` is a
    helm_core.limits_evidence.contamination_cells frame."""
    per = (df.groupby(["model", "level"], sort=False).agg(cells=("scenario", "size"),
                                                          scenarios=("scenario", ", ".join)).reset_index())
    order = list(dict.fromkeys(df["model"]))
    fig = go.Figure()
    for level, mark, name, color in (("strong", "☠", "☠ strong: left out of win rates", palette.DOWN),
                                     ("weaker", "⚠", "⚠ weaker: still counted", palette.DATA)):
        part = per[per["level"] == level]
        if part.empty:
            continue
        fig.add_trace(go.Bar(
            y=chart_labels(part["model"]), x=part["cells"], orientation="h", name=name, marker=dict(color=color),
            text=[f"{mark} {n}" for n in part["cells"]], textposition="inside", insidetextanchor="middle",
            customdata=np.stack([part["scenarios"].map(lambda s: wrap(s, 60))], axis=-1),
            hovertemplate="<b>%{y}</b><br>" + name + ": %{x} cells<br>%{customdata[0]}<extra></extra>",
        ))
    most = int(per.groupby("model")["cells"].sum().max()) if len(per) else 1
    fig.update_layout(barmode="stack", legend_traceorder="normal")
    fig.update_xaxes(title="flagged model × scenario cells", range=[0, most * 1.05], dtick=max(1, most // 3))
    fig.update_yaxes(categoryorder="array", categoryarray=chart_labels(order[::-1]), automargin=True)
    fig = base_layout(fig, height=110 + 32 * len(order))
    return _inside_text(fig, mode)


# ----------------------------------------------------------------------------- limits, step 7: moving targets


def moving_target_bars(df: pd.DataFrame, model: str, scenario: str, release_name: str | None,
                       mode: str = "desktop") -> go.Figure:
    """The paper's number (CLAIM, hatched) beside the release's (DATA) per metric. `release_name` None (the release
    does not hold the cell): the paper's numbers alone."""
    fig = go.Figure()
    metrics = chart_labels(df["metric"])
    fig.add_trace(go.Bar(
        x=metrics, y=df["paper"], name="2022 paper (claim)", marker=dict(color=palette.CLAIM, pattern=PAPER_FILL),
        text=[_pct(v) for v in df["paper"]], textposition="outside", cliponaxis=False,
        hovertemplate="%{x}<br>paper: %{y:.1f}%<extra></extra>",
    ))
    if release_name is not None:
        fig.add_trace(go.Bar(
            x=metrics, y=df["release"], name=f"{chart_label(release_name)} (data)", marker=dict(color=palette.DATA),
            text=[_pct(v) for v in df["release"]], textposition="outside", cliponaxis=False,
            hovertemplate="%{x}<br>" + chart_label(release_name) + ": %{y:.1f}%<extra></extra>",
        ))
    fig.update_layout(barmode="group", showlegend=True)
    fig.update_yaxes(range=[0, 100], title="%", ticksuffix="%", tickvals=[0, 50, 100] if stage(mode) else None)
    fig.update_xaxes(title=f"{chart_label(model)} on {chart_label(scenario)}")
    return base_layout(fig, height=360)


# ----------------------------------------------------------------------------- studies


def paper_findings(df: pd.DataFrame, mode: str = "desktop") -> go.Figure:
    """The paper's numeric findings, one panel per claim (one above the other, so every label has the full width):
    hatched CLAIM bars, the value at each bar's end. `df` columns: claim, title, label, value, unit, confidence,
    lower_is_better."""
    claims = list(dict.fromkeys(df["claim"]))
    parts = [df[df["claim"] == c] for c in claims]
    sizes = [len(p) for p in parts]
    titles = []
    for part in parts:
        lower = " · lower is better" if part["lower_is_better"].iloc[0] else ""
        head = f"{part['title'].iloc[0]} ({part['unit'].iloc[0]}{lower}; paper claim, {part['confidence'].iloc[0]})"
        titles.append(wrap(head, 34 if phone(mode) else 120))
    lines = [t.count("<br>") + 1 for t in titles]
    bar = 32 if stage(mode) else 36 if phone(mode) else 26
    title_px = 24 if stage(mode) else 19
    gap = 14
    bands = [(n * title_px + 6, s * bar) for s, n in zip(sizes, lines)]  # (title, bars) in px, top to bottom
    total = sum(t + b + gap for t, b in bands)
    fig = make_subplots(rows=len(parts), cols=1)
    label_w = 22 if phone(mode) else 40
    top = 1.0
    for i, (part, (t_px, b_px)) in enumerate(zip(parts, bands), start=1):
        digits = 3 if part["value"].max() < 10 else 1
        labels = [wrap(x, label_w) for x in part["label"]]
        fig.add_trace(go.Bar(
            y=labels, x=part["value"], orientation="h", showlegend=False, name=chart_label(part["title"].iloc[0]),
            marker=dict(color=palette.CLAIM, pattern=PAPER_FILL),
            text=[f"{v:.{digits}f}" for v in part["value"]], textposition="outside", cliponaxis=False,
            hovertemplate="%{y}: %{x} " + chart_label(part["unit"].iloc[0]) + " (paper claim)<extra></extra>",
        ), row=i, col=1)
        # The panel's title on top of its band, inside the plot, from the left edge of the labels.
        fig.add_annotation(text=f"<b>{titles[i - 1]}</b>", x=0, xref="paper", xanchor="left", y=top, yref="paper",
                           yanchor="top", showarrow=False, align="left")
        bars_top = top - t_px / total
        bars_bottom = bars_top - b_px / total
        fig.update_xaxes(range=[0, float(part["value"].max()) * 1.25], showticklabels=False, showgrid=False,
                         zeroline=False, row=i, col=1)
        fig.update_yaxes(categoryorder="array", categoryarray=labels[::-1], automargin=True,
                         domain=[max(0.0, bars_bottom), bars_top], row=i, col=1)
        top = bars_bottom - gap / total
    fig = base_layout(fig, height=total + 20)
    return fig.update_layout(margin=dict(t=10, b=10))


def study_scenarios_bars(overview: pd.DataFrame, chosen: str | None = None, mode: str = "desktop") -> go.Figure:
    """Scenarios per targeted study: new targeted scenarios (DATA) and the core scenarios it reuses (NEUTRAL,
    context). The study zoomed into below (`chosen`, a study id) is outlined in the theme's text colour.
    `overview` is a helm_core.content.studies_table frame."""
    names = [wrap(s, 22 if phone(mode) else 40) for s in overview["study"]]
    outline = [dict(width=3, color=palette.INK) if i == chosen else dict(width=0) for i in overview["id"]]
    fig = go.Figure()
    for col, name, color in (("new_scenarios", "new targeted scenarios", palette.DATA),
                             ("reused_core", "core scenarios it reuses", palette.NEUTRAL)):
        fig.add_trace(go.Bar(
            y=names, x=overview[col], orientation="h", name=name, marker=dict(color=color),
            marker_line_width=[o["width"] for o in outline], marker_line_color=palette.INK,
            text=[str(n) if n else "" for n in overview[col]], textposition="inside", insidetextanchor="middle",
            customdata=np.stack([overview["scenarios"].map(lambda s: wrap(s, 60))], axis=-1),
            hovertemplate="<b>%{y}</b><br>" + name + ": %{x}<br>%{customdata[0]}<extra></extra>",
        ))
    most = int((overview["new_scenarios"] + overview["reused_core"]).max()) if len(overview) else 1
    fig.update_layout(barmode="stack", legend_traceorder="normal")
    fig.update_xaxes(title="scenarios", range=[0, most * 1.05], dtick=max(1, most // 3))
    fig.update_yaxes(categoryorder="array", categoryarray=names[::-1], automargin=True)
    fig = base_layout(fig, height=110 + 40 * len(overview))
    return _inside_text(fig, mode)


def cell_runs(cells: pd.DataFrame, mode: str = "desktop") -> go.Figure:
    """One grid cell per metric group: the value the grid shows (DATA) inside the range of the runs averaged into
    it, lowest run (DOWN) to highest (UP). `cells` is a helm_core.limits_evidence.core_cells frame."""
    from helm_core.data import GROUP_LABELS

    labels = [m if GROUP_LABELS.get(g, g) in m else f"{GROUP_LABELS.get(g, g)} ({m})"
              for g, m in zip(cells["metric_group"], cells["metric"])]  # plain; wrap escapes
    labels = [wrap(x, 18 if phone(mode) else 40) for x in labels]
    fig = go.Figure(_range_lines(cells["run_min"], cells["run_max"], labels, "range of the runs", 4))
    runs = cells["n_runs"].fillna(0).astype(int).to_numpy()
    for col, name, symbol, color, size in (("run_min", "lowest run", "triangle-left", palette.DOWN, 15),
                                           ("run_max", "highest run", "triangle-right", palette.UP, 15),
                                           ("value", "the grid's number (mean)", "circle", palette.DATA, 16)):
        fig.add_trace(go.Scatter(
            x=cells[col], y=labels, mode="markers+text" if col == "value" else "markers", name=name,
            text=[fmt.value(v) for v in cells[col]] if col == "value" else None, textposition="bottom center",
            marker=dict(symbol=symbol, size=size, color=color, line=dict(width=1, color="white")),
            customdata=runs, hovertemplate="<b>%{y}</b><br>" + name + ": %{x:.3f} (%{customdata} runs)<extra></extra>",
        ))
    fig.update_xaxes(title="value (0–1)", range=[-0.04, 1.04], tickvals=[0, 0.5, 1] if not phone(mode) else [0, 1])
    fig.update_yaxes(categoryorder="array", categoryarray=labels[::-1], automargin=True)
    return base_layout(fig, height=150 + 80 * len(cells))
