"""Chart builders of Capability vs Cost: the capability-cost bubble chart (harm risk as colour, model size as area,
the recipe's top three labelled on a strip) and the paper's scale finding against the data."""
from __future__ import annotations

import itertools
import math

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from . import palette
from .charts import base_layout, fmt_value
from .charts_rankings import CHAR, STAGE_CHART, font_px, plot_width, text_px, wrap
from .stage import plain
from helm_core import fmt
from helm_core.escape import chart_label


def log_ticks(lo: float, hi: float) -> list[float]:
    """1-2-5 tick values covering [lo, hi]; [] unless both are finite and positive (an infinite or zero value
    has no place on a log axis)."""
    try:
        lo, hi = float(lo), float(hi)
    except (TypeError, ValueError):
        return []
    if not (math.isfinite(lo) and math.isfinite(hi) and lo > 0 and hi > 0):
        return []
    lo, hi = min(lo, hi), max(lo, hi)
    out = []
    for k in range(int(np.floor(np.log10(lo))) - 1, int(np.ceil(np.log10(hi))) + 1):
        for m in (1, 2, 5):
            v = m * 10.0 ** k
            if lo / 2.5 <= v <= hi * 2.5:
                out.append(float(f"{v:.3g}"))
    return out


def bubble_size(params: pd.Series) -> np.ndarray:
    """Marker diameter in px growing with log10(parameters): 350M ≈ 11 px, 530B ≈ 27 px."""
    p = params.to_numpy(dtype=float)
    return np.clip(8 + 5 * np.log10(np.clip(p, 1e7, None) / 1e8), 6, 34)


def strip_layout(points: list[tuple[float, float]], x_range: tuple[float, float],
                 gap: float = 0.0) -> tuple[list[int], list[float]]:
    """Where labels go in a strip above the data, each with an arrow down to its point: points are (x, label
    half-width) in data units; returns each label's row (0 = the lowest) and centre. A label is centred over its
    point, ends at it on either side, or sits elsewhere along the strip (kept inside `x_range`). Labels on one row must not overlap, and an arrow
    should not pass through a label on a lower row: every placement of at most three labels is tried, and the one
    with the fewest clashes, then the labels nearest their points (short, steep arrows), then the fewest rows wins."""
    n = len(points)
    if n == 0:
        return [], []
    x0, x1 = x_range

    def inside(c: float, half: float) -> float:
        return min(max(c, x0 + half + gap), x1 - half - gap)

    # over the point, ending at it on either side, or (when those clash) further along the strip
    options = [sorted({inside(c, h) for c in (x, x - h, x + h, *np.linspace(x0, x1, 5))}, key=lambda c: abs(c - x))
               for x, h in points]
    best, best_key = None, None
    for rows in itertools.product(range(n), repeat=n):
        for centres in itertools.product(*options):
            clashes = 0
            for i, j in itertools.combinations(range(n), 2):
                (xi, wi), (xj, wj) = points[i], points[j]
                ci, cj = centres[i], centres[j]
                if rows[i] == rows[j]:
                    if abs(ci - cj) < wi + wj + gap:
                        clashes += 10  # two labels on one line
                    continue
                hi, lo = (i, j) if rows[i] > rows[j] else (j, i)
                # the higher label's arrow, a straight line from its label (height row + 1.5) to its point
                # (height 0), where it passes the lower label's height
                t = (rows[lo] + 1.5) / (rows[hi] + 1.5)
                at = points[hi][0] + (centres[hi] - points[hi][0]) * t
                if abs(at - centres[lo]) < points[lo][1] + gap:
                    clashes += 1
            key = (clashes, round(sum(abs(c - x) for c, (x, _) in zip(centres, points)), 9), max(rows), rows)
            if best_key is None or key < best_key:
                best, best_key = (list(rows), list(centres)), key
    return best


def label_strip(fig: go.Figure, tops: list[tuple[float, float, str]], *, x_range: tuple[float, float],
                 y_top: float, strip: float, mode: str, log_y: bool, standoff: list[float], **cell) -> None:
    """Labels in the strip [y_top, y_top + strip] above the data (y in axis units: log10 on a log axis), one
    arrow each down to its point, so no mark ever covers a label."""
    if not tops:
        return
    font = font_px(mode)
    x0, x1 = x_range
    per_px = (x1 - x0) / plot_width(mode)
    halves = [text_px(text, font) / 2 * per_px for _, _, text in tops]
    rows, centres = strip_layout([(x, h) for (x, _, _), h in zip(tops, halves)], x_range, gap=6 * per_px)
    n_rows = max(rows) + 1
    for (x, y, text), cx, row, off in zip(tops, centres, rows, standoff):
        ay = y_top + strip * (row + 0.5) / n_rows
        fig.add_annotation(x=x, y=math.log10(y) if log_y else y, ax=cx, ay=ay, axref=cell.get("xref", "x"),
                           ayref=cell.get("yref", "y"), xref=cell.get("xref", "x"), yref=cell.get("yref", "y"),
                           text=text, showarrow=True, arrowhead=0, arrowwidth=1.5, arrowcolor=palette.INK,
                           standoff=off, font=dict(size=font, color=palette.INK), bgcolor="rgba(0,0,0,0)")


def capability_cost_bubble(
    frame: pd.DataFrame,
    y: str,
    *,
    x_label: str,
    y_label: str,
    harm_label: str,
    top: dict[str, int],
    log_y: bool = True,
    band_label: str | None = None,
    mode: str = "desktop",
) -> go.Figure:
    """Bubble chart of capability (x) against cost (y, log scale), with a band below it for the models that have
    a capability value but no cost value (e.g. "no runtime in HELM"): they are placed by capability only, not
    dropped.

    frame: frontier.cost_view's frame (capability, runtime_s, harm, params, params_speculative, size_disclosed,
    pareto, access, ...). Colour = harm (ui.palette.HARM_SCALE, continuous), bubble diameter grows with
    log(parameters); speculative sizes are circles with a dot, undisclosed sizes fixed-size diamonds; models with
    no harm value are grey. `top` maps model -> recipe rank for the three to ring (HIGHLIGHT) and label: on the
    chart their labels sit in a strip above the bubbles with an arrow down to each ring, in the band each has a
    row of its own with its label beside it, so no bubble ever covers a label. The Pareto front is a dashed line.
    `band_label` names the band (default: frontier.BAND_LABELS by column). `mode` plans the labels for the screen
    (ui.stage moves the colour bar below the plot on a phone; the legend is left out there, `read` explains it)."""
    from plotly.subplots import make_subplots

    from helm_core.frontier import BAND_LABELS

    band_label = band_label or BAND_LABELS.get(y, "no cost value")
    font = font_px(mode)
    phone = mode == "phone"
    placed = frame[frame["capability"].notna()].copy()
    placed["name_text"] = placed["model"].map(chart_label)
    placed["access_text"] = placed["access"].map(chart_label)
    placed["params_text"] = [fmt.params(p, s) for p, s in zip(placed["params"], placed["params_speculative"])]
    placed["runtime_text"] = placed["runtime_s"].map(fmt.seconds)
    placed["harm_text"] = placed["harm"].map(lambda v: fmt_value(v, 4))
    if log_y:  # a value a log axis cannot place (zero, negative, infinite) goes to the band
        bad = ~np.isfinite(placed[y].astype(float)) | (placed[y].astype(float) <= 0)
        placed.loc[bad, y] = np.nan
    f = placed[placed[y].notna()]
    band = placed[placed[y].isna()]
    cd_cols = ["name_text", "access_text", "params_text", "runtime_text", "harm_text"]
    hover = ("<b>%{customdata[0]}</b> (%{customdata[1]})<br>" + chart_label(x_label) + ": %{x:.3f}<br>"
             "runtime: %{customdata[3]}<br>parameters: %{customdata[2]}<br>" + chart_label(harm_label)
             + ": %{customdata[4]}<extra></extra>")
    tops_band = [m for m in top if m in set(band["model"])]
    band_rows = 1 + len(tops_band)
    if len(band):
        share = min(0.4, 0.14 + 0.07 * band_rows)
        fig = make_subplots(rows=2, cols=1, shared_xaxes=True, row_heights=[1 - share, share], vertical_spacing=0.03)
        main_cell, band_cell = dict(row=1, col=1), dict(row=2, col=1)
    else:
        share = 0.0
        fig = go.Figure()
        main_cell, band_cell = {}, {}
    harm_all = placed["harm"].astype(float)
    harm_ok = harm_all[np.isfinite(harm_all)]
    hmin = float(harm_ok.min()) if len(harm_ok) else 0.0
    hmax = float(harm_ok.max()) if len(harm_ok) else 1.0
    fig.update_layout(coloraxis=dict(
        colorscale=palette.HARM_SCALE, cmin=hmin, cmax=hmax if hmax > hmin else hmin + 1e-9, showscale=bool(len(harm_ok)),
        colorbar=dict(title=dict(text=chart_label(harm_label) + (" " if phone else "<br>") + "(higher = more harm)",
                                 side="right"),
                      thickness=14, len=0.75, y=0.55)))
    # Band rows: the recipe's top three in the band each get a row of their own (rank 1 highest), every other
    # band model sits on row 0, so a label beside a ring has its row to itself.
    band_y = pd.Series(0.0, index=band.index)
    for i, m in enumerate(sorted(tops_band, key=lambda m: top[m]), start=1):
        band_y[band["model"] == m] = float(band_rows - i)
    shapes = (("size disclosed", lambda d: d["size_disclosed"] & ~d["params_speculative"], "circle"),
              ("size speculative (HELM's *): circle with a dot", lambda d: d["size_disclosed"] & d["params_speculative"],
               "circle-dot"),
              ("size undisclosed: diamond", lambda d: ~d["size_disclosed"], "diamond"))
    for name, mask_of, symbol in shapes:
        if mask_of(placed).any() and len(harm_ok):
            # The legend's key for the shape, in the theme's ink (a harm-coloured key would take one end of the
            # scale and read as a harm level).
            fig.add_trace(go.Scatter(x=[None], y=[None], mode="markers", name=name, hoverinfo="skip",
                                     marker=dict(symbol=symbol, size=11, color=palette.INK,
                                                 line=dict(color=palette.INK, width=1))), **main_cell)
        for where, d, cell in (("chart", f, main_cell), ("band", band, band_cell)):
            mask = mask_of(d)
            for has_harm in (True, False):
                part = d[mask & (d["harm"].notna() == has_harm)]
                if part.empty:
                    continue
                size = bubble_size(part["params"]) if symbol != "diamond" else np.full(len(part), 14.0)
                marker = dict(symbol=symbol, size=size, line=dict(color=palette.INK, width=1))
                if has_harm:
                    marker.update(color=part["harm"], coloraxis="coloraxis")
                else:
                    marker.update(color=palette.NEUTRAL)
                trace_name = name if has_harm else f"{name}; no harm value (grey)"
                if where == "band":
                    trace_name = f"band: {chart_label(band_label)}: {trace_name}"
                fig.add_trace(go.Scatter(
                    x=part["capability"], y=part[y] if where == "chart" else band_y[part.index],
                    mode="markers", marker=marker, showlegend=where == "chart" and not has_harm, name=trace_name,
                    customdata=part[cd_cols].to_numpy(), hovertemplate=hover,
                ), **cell)
    front = f[f["pareto"]].sort_values("capability")
    if len(front):
        fig.add_trace(go.Scatter(
            x=front["capability"], y=front[y], mode="lines", name="Pareto front: nothing more capable and cheaper",
            line=dict(color=palette.INK, dash="dash", width=2), hoverinfo="skip",
        ), **main_cell)

    # x range: the data with a margin (the strip labels are kept inside it)
    lo_x = float(placed["capability"].min()) if len(placed) else 0.0
    hi_x = float(placed["capability"].max()) if len(placed) else 1.0
    span_x = (hi_x - lo_x) or 1.0
    # room for the largest ring (about 46 px across) at either edge of the plot
    pad = max(0.04, 0.06 * span_x, 26 / max(plot_width(mode) - 52, 1) * span_x)
    x_range = (lo_x - pad, hi_x + pad)

    # the recipe's top three: ringed on the chart and in the band
    tops = placed[placed["model"].isin(list(top))].copy()
    tops["rank"] = tops["model"].map(top)
    tops = tops.sort_values("rank")
    ring = bubble_size(tops["params"].fillna(1.4e10)) + 12
    tops["ring"] = ring
    on_chart = tops[tops[y].notna()]
    in_band = tops[tops[y].isna()]
    ring_trace = dict(mode="markers", name="the recipe's top 3 (ringed)", hovertemplate=hover)
    if len(on_chart):
        fig.add_trace(go.Scatter(x=on_chart["capability"], y=on_chart[y], text=[f"#{int(r)} {m}" for m, r in
                                 zip(on_chart["name_text"], on_chart["rank"])],
                                 marker=dict(symbol="circle-open", size=on_chart["ring"],
                                             line=dict(color=palette.HIGHLIGHT, width=3), color=palette.HIGHLIGHT),
                                 customdata=on_chart[cd_cols].to_numpy(), **ring_trace), **main_cell)
    if len(in_band):
        mid = (x_range[0] + x_range[1]) / 2
        max_chars = max(12, int(plot_width(mode) / 2 / (font * CHAR)) - 4)
        fig.add_trace(go.Scatter(
            x=in_band["capability"], y=band_y[in_band.index], mode="markers+text",
            text=[wrap(f"#{int(r)} {m}", max_chars) for m, r in zip(in_band["model"], in_band["rank"])],
            textposition=["middle left" if x > mid else "middle right" for x in in_band["capability"]],
            textfont=dict(size=font), cliponaxis=False,
            marker=dict(symbol="circle-open", size=in_band["ring"], line=dict(color=palette.HIGHLIGHT, width=3),
                        color=palette.HIGHLIGHT),
            customdata=in_band[cd_cols].to_numpy(), hovertemplate=hover, showlegend=not len(on_chart),
            name="the recipe's top 3 (ringed)"), **band_cell)

    x_title = dict(title=chart_label(x_label))
    if len(band):
        fig.update_xaxes(**x_title, row=2, col=1)
        fig.add_hrect(y0=-0.6, y1=band_rows - 0.4, fillcolor=palette.NEUTRAL, opacity=0.15, line_width=0,
                      layer="below", row=2, col=1)
        fig.update_yaxes(row=2, col=1, range=[-0.6, band_rows - 0.4], tickvals=[0],
                         ticktext=[chart_label(band_label).replace(" in ", "<br>in ", 1)],
                         showgrid=False, zeroline=False, fixedrange=True)
    else:
        fig.update_xaxes(**x_title)
    fig.update_xaxes(range=list(x_range))
    fig.update_yaxes(title=chart_label(y_label) + (" (log scale)" if log_y else ""), type="log" if log_y else "linear",
                     **main_cell)

    height = 580 if not phone else 560
    chart_px = (STAGE_CHART if mode == "presenter" else height) - 140  # less the legend, margins and axis titles
    main_px = chart_px * (1 - share)
    row_px = font * 1.5
    if len(f):
        yv = f[y].astype(float)
        ymin, ymax = float(yv.min()), float(yv.max())
        lo_y, hi_y = (np.log10(ymin), np.log10(ymax)) if log_y else (ymin, ymax)
        span = max(hi_y - lo_y, 0.5 if log_y else abs(hi_y) * 0.2 or 1.0)
        strip_px = len(on_chart) * row_px + 6 if len(on_chart) else 0
        top_gap = 0.08 * span
        data_span = span * 1.18  # the data and its margins below and above
        strip = data_span * strip_px / max(main_px - strip_px, 0.3 * main_px) if strip_px else 0.0
        y_top = hi_y + top_gap
        fig.update_yaxes(range=[lo_y - 0.1 * span, y_top + strip], **main_cell)
        if log_y:
            ticks = log_ticks(ymin, ymax)
            text = [fmt.params(t) for t in ticks] if y == "params" else [fmt.seconds(t) for t in ticks]
            if ticks:
                fig.update_yaxes(tickvals=ticks, ticktext=text, **main_cell)
        labels = [(float(x), float(v), f"#{int(r)} {m}") for x, v, r, m in
                  zip(on_chart["capability"], on_chart[y], on_chart["rank"], on_chart["name_text"])]
        cell = dict(xref="x", yref="y") if not len(band) else dict(xref="x", yref="y")
        label_strip(fig, labels, x_range=x_range, y_top=y_top, strip=strip, mode=mode, log_y=log_y,
                     standoff=list(on_chart["ring"] / 2), **cell)
    base_layout(fig, height=height)
    if phone:
        # No legend on a phone (its entries would stack over the colour bar below the plot; the slide's `read`
        # says what the shapes mean): room at the bottom for the axis title and the colour bar.
        fig.update_layout(showlegend=False, margin=dict(l=10, r=10, t=34, b=120 if len(harm_ok) else 40))
    return fig


def scale_chart(frame: pd.DataFrame, *, threshold: float = 0.55, size: float = 50e9, x_label: str,
                mode: str = "desktop", named: int = 3) -> go.Figure:
    """The paper's scale finding against the data: accuracy win rate (y) against parameters (x, log), the region
    the paper says is empty (fewer than `size` parameters, above `threshold`) shaded in the claim's colour, the
    models in it marked (vermillion diamonds) and the `named` highest of them labelled in a strip above."""
    font = font_px(mode)
    f = frame[frame["capability"].notna() & frame["params"].notna()].copy()
    f = f[np.isfinite(f["params"].astype(float)) & (f["params"].astype(float) > 0)]
    f["name_text"] = f["model"].map(chart_label)
    f["params_text"] = [fmt.params(p, s) for p, s in zip(f["params"], f["params_speculative"])]
    inside = (f["capability"] > threshold) & (f["params"] < size)
    fig = go.Figure()
    hover = "<b>%{customdata[0]}</b><br>%{customdata[1]} parameters<br>" + chart_label(x_label) + ": %{y:.3f}<extra></extra>"
    for name, mask, symbol, colour, msize in (
            ("other models", ~inside, "circle", palette.DATA, 9),
            (f"fewer than {fmt.params(size)} parameters, above {threshold:g} ({int(inside.sum())})", inside,
             "diamond", palette.DOWN, 12)):
        part = f[mask]
        if part.empty:
            continue
        fig.add_trace(go.Scatter(x=part["params"], y=part["capability"], mode="markers", name=name,
                                 marker=dict(symbol=symbol, size=msize, color=colour),
                                 customdata=part[["name_text", "params_text"]].to_numpy(), hovertemplate=hover))
    if f.empty:
        return base_layout(fig, height=420)
    lo, hi = float(f["params"].min()), float(f["params"].max())
    lo_l, hi_l = math.log10(min(lo, size) / 2), math.log10(max(hi, size) * 2)
    fig.add_shape(type="rect", xref="x", yref="y", x0=10 ** lo_l, x1=size, y0=threshold, y1=1.0,
                  fillcolor=palette.CLAIM, opacity=0.12, line=dict(color=palette.CLAIM, width=1.5, dash="dot"),
                  layer="below")
    fig.add_annotation(x=lo_l, y=threshold, xref="x", yref="y", xanchor="left", yanchor="bottom", showarrow=False,
                       text="the paper: no model here", font=dict(size=font))
    ticks = log_ticks(10 ** lo_l, 10 ** hi_l)
    ticks = [t for t in ticks if math.log10(t) % 1 == 0] or ticks
    fig.update_xaxes(type="log", range=[lo_l, hi_l], tickvals=ticks, ticktext=[fmt.params(t) for t in ticks],
                     title="parameters (log scale)", fixedrange=True)
    ins = f[inside].sort_values("capability", ascending=False).head(named)
    row_px = font * 1.5
    main_px = (STAGE_CHART if mode == "presenter" else 460) - 130
    strip_px = len(ins) * row_px + 6 if len(ins) else 0
    top_y = 1.04
    strip = 1.1 * strip_px / max(main_px - strip_px, 0.3 * main_px) if strip_px else 0.0
    fig.update_yaxes(range=[-0.04, top_y + strip], title=chart_label(x_label), fixedrange=True,
                     tickvals=sorted({0, 0.25, threshold, 0.75, 1}))
    labels = [(math.log10(p), c, m) for p, c, m in zip(ins["params"], ins["capability"], ins["name_text"])]
    label_strip(fig, labels, x_range=(lo_l, hi_l), y_top=top_y, strip=strip, mode=mode, log_y=False,
                 standoff=[7.0] * len(labels))
    base_layout(fig, height=460)
    fig.update_layout(legend=dict(orientation="h", yanchor="top", y=-0.16, x=0, xanchor="left"),
                      margin=dict(b=font * 5 + 20))
    return fig


def bubble_spec(release, models: tuple[str, ...], cap: str, harm: str, cost: str,
                top: tuple[tuple[str, int], ...], mode: str) -> dict:
    from helm_core import frontier

    v = frontier.cost_view(release, models, cap, harm, cost)
    return plain(capability_cost_bubble(v.frontier.frame, v.y, x_label=frontier.CAPABILITY_MEASURES[cap],
                                        y_label=frontier.cost_label(release, cost),
                                        harm_label=frontier.HARM_MEASURES[harm][2], top=dict(top), mode=mode))
