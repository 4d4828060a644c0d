"""Chart builders of Metric Orbit: the metric-by-scenario correlation grid, the model profiles (radar and bars) and
the pair scatter of two metrics."""
from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from . import palette
from .charts import base_layout, chart_labels, fmt_value, wrap_label
from .charts_coverage import (BLANK, CELL_SIZE, CLEAR, DASHES, SYMBOLS, cross, mix, phone_mode, stack, tile, tile_index,
                             tile_layout)
from .stage import plain

RADAR_MARGIN, RADAR_SIDE = 48, 90
from helm_core.escape import chart_label


def profile_radar(profiles: pd.DataFrame, group_order: list[str], *, mode: str = "desktop") -> go.Figure:
    """Radar of win rates across the groups, one closed line per model with its own colour, symbol and dash
    (identity series). A group where a model has no value is a gap in its line (and says "no value" in the data
    table). The radial scale is drawn along the gap between the first two spokes, so its labels never sit on the
    first group's spoke."""
    fig = go.Figure()
    for i, (model, sub) in enumerate(profiles.groupby("model", sort=False)):
        sub = sub.set_index("group_label").reindex(group_order)
        r = sub["win_rate"].to_numpy(dtype=float)
        theta = chart_labels(group_order)
        colour = palette.SERIES[i % len(palette.SERIES)]
        fig.add_trace(go.Scatterpolar(
            r=np.append(r, r[0]), theta=theta + theta[:1], name=chart_label(model), mode="lines+markers",
            connectgaps=False,
            line=dict(color=colour, dash=DASHES[i % 6], width=2.5),
            marker=dict(symbol=SYMBOLS[i % 8], size=10, color=colour),
            hovertemplate=f"<b>{chart_label(model)}</b><br>%{{theta}}: win rate %{{r:.2f}}<extra></extra>",
        ))
    # The first group sits at the top (90°) and the others follow clockwise: half a sector clockwise of it is free.
    gap = 90 - 180 / max(len(group_order), 1)
    fig.update_layout(polar=dict(
        radialaxis=dict(range=[0, 1], tickvals=[0.5, 1.0], tickformat=".1f", angle=gap,
                        tickfont=dict(size=11)),
        angularaxis=dict(direction="clockwise", rotation=90, tickfont=dict(size=13))))
    base_layout(fig, height=480)
    # Room around the polar area: the top group's label sits above the circle and the side labels beside it.
    fig.update_layout(legend=dict(orientation="h", yanchor="top", y=-0.06, xanchor="left", x=0),
                      margin=dict(t=RADAR_MARGIN, b=RADAR_MARGIN, l=RADAR_SIDE, r=RADAR_SIDE))
    if phone_mode(mode):  # a narrow screen: the circle in the middle two thirds, room below for a legend of two rows
        fig.update_layout(polar=dict(domain=dict(x=[0.2, 0.8])), margin=dict(b=90), height=440)
    return fig


def profile_bars(profiles: pd.DataFrame, group_order: list[str], *, mode: str = "desktop") -> go.Figure:
    """Win rates of the chosen models in one or two groups (a radar needs three axes): grouped horizontal bars,
    one per model, each with its own colour and pattern and its value written beside it; a missing value says so."""
    fig = go.Figure()
    patterns = ["", "/", "x", ".", "\\", "+"]
    for i, (model, sub) in enumerate(profiles.groupby("model", sort=False)):
        sub = sub.set_index("group_label").reindex(group_order)
        r = sub["win_rate"].to_numpy(dtype=float)
        fig.add_trace(go.Bar(
            x=np.nan_to_num(r, nan=0.0), y=chart_labels(group_order), orientation="h", name=chart_label(model),
            marker=dict(color=palette.SERIES[i % len(palette.SERIES)],
                        pattern=dict(shape=patterns[i % len(patterns)], fillmode="overlay", fgcolor="white",
                                     solidity=0.3)),
            text=["no value" if np.isnan(v) else f"{v:.2f}" for v in r], textposition="outside", cliponaxis=False,
            hovertemplate=f"<b>{chart_label(model)}</b><br>%{{y}}: win rate %{{text}}<extra></extra>",
        ))
    fig.update_xaxes(range=[0, 1.2], tickvals=[0, 0.5, 1], tickformat=".1f",
                     title="win rate" if phone_mode(mode) else "win rate (share of the other models beaten)")
    fig.update_yaxes(categoryorder="array", categoryarray=chart_labels(reversed(group_order)), automargin=True)
    base_layout(fig, height=160 + 40 * len(group_order) * max(1, profiles["model"].nunique()))
    return fig.update_layout(barmode="group", legend=dict(orientation="h", yanchor="top", y=-0.2, xanchor="left",
                                                          x=0))


CORR_HOVER = (
    "<b>%{customdata[1]} × %{customdata[2]}</b><br>metric: %{customdata[3]}<br>"
    "Spearman ρ with accuracy: %{customdata[4]}<br>agreement (sign flipped when lower is better): "
    "%{customdata[5]}<br>models: %{customdata[6]}<br>%{customdata[7]}<extra></extra>"
)


# Agreement with accuracy: worse on the metric where more accurate (palette.DOWN), through a light middle, to better
# on it too (palette.UP). Tile text is dark on light tiles, white on strong ones (a label on a coloured tile).
CORR_SCALE = [[0.0, palette.DOWN], [0.5, "#F2F2F2"], [1.0, palette.UP]]


TILE_TEXT = "#1B1B1B"


def corr_custom(df: pd.DataFrame) -> np.ndarray | None:
    if df.empty:
        return None
    c = df.copy()
    c["rho_t"] = c["rho"].map(lambda v: fmt_value(v, 2))
    c["agr_t"] = c["agreement"].map(lambda v: fmt_value(v, 2))
    c["metric_t"] = c["metric"].replace("", "none")
    c["status_t"] = c["status"].replace("ok", "")
    shown = ["scenario", "group_label", "metric_t", "rho_t", "agr_t", "n", "status_t"]
    c[shown] = c[shown].astype(str).map(chart_label)
    return c[["token", *shown]].astype(str).to_numpy()  # the raw token first: what a click selects


def diverging(v: float) -> str:
    """The CORR_SCALE colour of an agreement in [-1, 1]."""
    t = (min(max(float(v), -1.0), 1.0) + 1) / 2
    (a, c0), (b, c1) = (CORR_SCALE[0], CORR_SCALE[1]) if t <= 0.5 else (CORR_SCALE[1], CORR_SCALE[2])
    return mix(c0, c1, (t - a) / (b - a))


def correlation_grid(corr: pd.DataFrame, group_order: list[str], scenario_order: list[str], *,
                     mode: str = "desktop") -> go.Figure:
    """Scenario × group grid of the agreement of each metric with accuracy, as real tiles (shapes, never
    overlapping) with invisible markers over them that carry the hover and the click to pick a pair; each cell is
    labelled with its value; cells without a correlation are crossed tiles. `group_order` may leave out groups
    the release never measures (said on the page, not drawn as empty columns)."""
    corr = corr[corr["group_label"].isin(group_order)].copy()
    corr["token"] = corr["scenario"] + "|" + corr["metric_group"]
    fig = go.Figure()
    xi, yi = tile_index(group_order, scenario_order)  # tile positions (shapes), by the raw names
    gx, sy = dict(zip(group_order, chart_labels(group_order))), dict(zip(scenario_order, chart_labels(scenario_order)))
    ok = corr[corr["agreement"].notna()]
    none = corr[corr["agreement"].isna()]
    a = ok["agreement"].to_numpy(dtype=float)
    shapes = [tile(xi[g], yi[sc], diverging(v), palette.NEUTRAL) for g, sc, v in
              zip(ok["group_label"], ok["scenario"], a)]
    for g, sc in zip(none["group_label"], none["scenario"]):
        shapes += [tile(xi[g], yi[sc], CLEAR, palette.NEUTRAL, 1.5), cross(xi[g], yi[sc], palette.NEUTRAL)]
    if len(none):
        fig.add_trace(go.Scatter(x=[None], y=[None], mode="markers", name="no correlation (crossed): see hover",
                                 hoverinfo="skip", marker=dict(symbol=BLANK, size=14, color=palette.NEUTRAL,
                                                               line=dict(width=1.5, color=palette.NEUTRAL))))
    hidden = dict(opacity=0)
    pick = dict(selected=dict(marker=hidden), unselected=dict(marker=hidden))
    phone = phone_mode(mode)
    fig.add_trace(go.Scatter(
        x=ok["group_label"].map(gx), y=ok["scenario"].map(sy), mode="markers+text",
        name="agreement with accuracy (labelled)",
        showlegend=False,
        text=[f"{v:+.2f}" for v in a],
        textfont=dict(size=11 if phone else 12, color=list(np.where(np.abs(a) > 0.6, "white", TILE_TEXT))),
        textposition="middle center",
        # invisible markers: they carry the colour bar, the hover and the click; the tiles are the shapes
        marker=dict(symbol="square", size=CELL_SIZE, color=a, cmin=-1, cmax=1, colorscale=CORR_SCALE, opacity=0,
                    showscale=True,  # said, so ui.stage finds the bar (and lays it below the plot on a phone)
                    colorbar=dict(title=dict(text="agreement", side="right"), thickness=12, len=0.6, y=0.5,
                                  tickvals=[-1, 0, 1])),
        customdata=corr_custom(ok), hovertemplate=CORR_HOVER, **pick,
    ))
    fig.add_trace(go.Scatter(
        x=none["group_label"].map(gx), y=none["scenario"].map(sy), mode="markers",
        name="no correlation (crossed): see hover", showlegend=False,
        marker=dict(symbol=BLANK, size=CELL_SIZE, color=palette.NEUTRAL, opacity=0),
        customdata=corr_custom(none), hovertemplate=CORR_HOVER, **pick,
    ))
    tile_layout(fig, shapes, list(gx.values()), list(sy.values()))
    # Column heads across where they fit (a stage's wide columns), turned on a phone's narrow ones; there, long
    # scenario names wrap onto two lines so the six columns keep room for their labels.
    fig.update_xaxes(tickangle=-90 if phone else 0, tickfont=dict(size=12), automargin=True)
    fig.update_yaxes(automargin=True)
    if phone:
        fig.update_yaxes(tickmode="array", tickvals=list(sy.values()), ticktext=[wrap_label(s, 16) for s in scenario_order])
    return fig


PROFILE_GROUP = "models in your profile"


STARS = ["star", "star-diamond", "star-square", "star-triangle-up", "hexagram", "star-triangle-down"]


def pair_scatter(pairs: pd.DataFrame, x_title: str, y_title: str, lower_is_better: bool | None,
                 highlight: list[str] | None = None) -> go.Figure:
    """Accuracy (x) against one metric (y) across models; the models in `highlight` are stars in the theme's text
    colour (palette.HIGHLIGHT), each named in the legend under "models in your profile"."""
    fig = go.Figure()
    hl = set(highlight or [])
    rest = pairs[~pairs["model"].isin(hl)]
    x_title, y_title = chart_label(x_title), chart_label(y_title)
    fig.add_trace(go.Scatter(
        x=rest["accuracy"], y=rest["value"], mode="markers", name="models",
        marker=dict(symbol="circle", size=9, color=palette.DATA, opacity=0.85),
        customdata=stack(rest, ["model"]),
        hovertemplate=f"<b>%{{customdata[0]}}</b><br>{x_title}: %{{x:.3f}}<br>{y_title}: %{{y:.3f}}<extra></extra>",
    ))
    sub = pairs[pairs["model"].isin(hl)]
    # One trace per starred model, named in the legend (its own symbol): names written beside the points would sit
    # on each other wherever two models score alike.
    for i, (model, one) in enumerate(sub.groupby("model", sort=False)):
        fig.add_trace(go.Scatter(
            x=one["accuracy"], y=one["value"], mode="markers", name=chart_label(model), legendgroup="profile",
            legendgrouptitle=dict(text=PROFILE_GROUP) if i == 0 else None,
            marker=dict(symbol=STARS[i % len(STARS)], size=15, color=palette.HIGHLIGHT),
            customdata=stack(one, ["model"]),
            hovertemplate=f"<b>%{{customdata[0]}}</b><br>{x_title}: %{{x:.3f}}<br>{y_title}: %{{y:.3f}}<extra></extra>",
        ))
    if len(pairs):
        lo, hi = float(pairs["accuracy"].min()), float(pairs["accuracy"].max())
        span = (hi - lo) or 0.1
        fig.update_xaxes(range=[lo - 0.12 * span, hi + 0.25 * span])
        ylo, yhi = float(pairs["value"].min()), float(pairs["value"].max())
        yspan = (yhi - ylo) or 0.1
        fig.update_yaxes(range=[ylo - 0.08 * yspan, yhi + 0.18 * yspan])
    suffix = " (lower is better)" if lower_is_better else (" (higher is better)" if lower_is_better is False else "")
    fig.update_xaxes(title=f"{x_title} (higher is better)")
    fig.update_yaxes(title=f"{y_title}{suffix}")
    return base_layout(fig, height=420)


def correlation_spec(release, models: tuple[str, ...], bias_metric: str, groups: tuple[str, ...] | None = None,
                     mode: str = "desktop") -> dict:
    """The agreement grid; `groups` (metric-group ids) limits its columns to the groups the release measures."""
    from helm_core import metrics as M
    from helm_core.data import GROUP_LABELS

    corr = M.accuracy_correlations(release, models, bias_metric)
    shown = [GROUP_LABELS[g] for g in (groups if groups is not None else M.OTHER_GROUPS)]
    return plain(correlation_grid(corr, shown, release.taxonomy.scenario_names, mode=mode))
