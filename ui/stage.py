"""How a chart is dressed for the screen it is shown on: the stage template (presenter mode), the phone layout, and
the theme's text colour. Builders in ui/charts*.py make one figure; `style` adapts a copy of it at render time.

- Presenter (1280 × 720, read from the back of a room): every tick, legend, colour-bar and annotation text at least
  STAGE_TEXT px, titles at least STAGE_TITLE px.
- Every mode: text in the theme's own text colour (contrast above 12:1 on both themes, well over 4.5:1), and the
  INK highlight swapped for the dark theme's (ui.palette).
- Phone (≤ 480 px): legends and colour bars below the plot, horizontal, so they never squeeze it; small margins.

No Streamlit here: the slide layout passes the mode and theme in.
"""
from __future__ import annotations

from typing import Any

import plotly.graph_objects as go

from . import palette

STAGE_TEXT = 16
STAGE_TITLE = 20
DESKTOP_TEXT = 12  # the smallest chart text on a laptop screen
PHONE_TEXT = 11

_AXIS_PREFIXES = ("xaxis", "yaxis")
_COLOUR_FIELDS = ("color", "fgcolor", "bgcolor", "bordercolor")


def min_text(mode: str) -> int:
    return STAGE_TEXT if mode == "presenter" else PHONE_TEXT if mode == "phone" else DESKTOP_TEXT


def _bigger(font: Any, size: int) -> dict:
    """A font dict whose size is at least `size` (keeps a larger size the builder chose)."""
    current = getattr(font, "size", None) if font is not None else None
    return {"size": max(size, current or 0)}


def _swap_ink(obj: Any) -> Any:
    """Replace the light INK colour by the dark theme's, anywhere in a figure's JSON."""
    if isinstance(obj, dict):
        return {k: _swap_ink(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_swap_ink(v) for v in obj]
    if isinstance(obj, str) and obj.upper() == palette.INK.upper():
        return palette.INK_DARK
    return obj


def style(fig: go.Figure, *, mode: str = "desktop", theme: str = "light") -> go.Figure:
    """A styled copy of `fig` for `mode` ("presenter", "desktop", "phone") and `theme` ("light", "dark")."""
    spec = fig.to_plotly_json()
    if theme == "dark":
        spec = _swap_ink(spec)
    out = go.Figure(spec, _validate=False) if theme == "dark" else go.Figure(fig)
    ink = palette.TEXT.get(theme, palette.INK)
    size = min_text(mode)
    layout = out.layout

    # The theme's text colour everywhere Streamlit's template would use a lighter grey.
    out.update_layout(font=dict(color=ink, size=max(size, layout.font.size or 0)),
                      legend=dict(font=dict(color=ink, **_bigger(layout.legend.font, size)),
                                  title=dict(font=dict(color=ink, **_bigger(layout.legend.title.font, size)))),
                      hoverlabel=dict(font=dict(size=max(size, 13))))
    if layout.title and layout.title.text:
        out.update_layout(title=dict(font=dict(color=ink, size=max(STAGE_TITLE if mode == "presenter" else 14,
                                                                   layout.title.font.size or 0))))
    for name in list(layout):
        if not name.startswith(_AXIS_PREFIXES):
            continue
        axis = layout[name]
        out.layout[name].update(tickfont=dict(color=ink, **_bigger(axis.tickfont, size)),
                                title=dict(font=dict(color=ink, **_bigger(axis.title.font, size))))
    if "polar" in layout and layout.polar is not None:
        polar = layout.polar
        out.layout.polar.update(
            radialaxis=dict(tickfont=dict(color=ink, **_bigger(polar.radialaxis.tickfont, size))),
            angularaxis=dict(tickfont=dict(color=ink, **_bigger(polar.angularaxis.tickfont, size))))
    for ann in out.layout.annotations or ():
        font = ann.font
        ann.update(font=dict(size=max(size, getattr(font, "size", None) or 0),
                             color=font.color if font is not None and font.color else ink))
    for trace in out.data:
        if "textfont" in trace and (getattr(trace, "text", None) is not None
                                    or getattr(trace, "texttemplate", None) is not None):
            tf = trace.textfont
            current = tf.size if tf is not None and not isinstance(tf.size, (list, tuple)) else None
            trace.update(textfont=dict(size=max(size, current or 0)))
        colorbar = _colorbar(trace)
        if colorbar is not None:
            _style_colorbar(colorbar, ink, size, mode)
    if layout.coloraxis and layout.coloraxis.colorbar is not None and layout.coloraxis.showscale is not False:
        _style_colorbar(out.layout.coloraxis.colorbar, ink, size, mode)

    if mode == "phone":
        _phone(out)
    if mode == "handout":
        # Outside Streamlit (the offline handout): plotly's own white template, and room for every axis label
        # (Streamlit's frontend template would otherwise do both).
        out.update_layout(template="plotly_white", paper_bgcolor="white", plot_bgcolor="white")
        for name in list(out.layout):
            if name.startswith(_AXIS_PREFIXES):
                out.layout[name].update(automargin=True)
    return out


def _colorbar(trace):
    marker = getattr(trace, "marker", None)
    if marker is not None and getattr(marker, "showscale", None):
        return marker.colorbar
    if getattr(trace, "showscale", None) and hasattr(trace, "colorbar"):
        return trace.colorbar
    return None


def _style_colorbar(cb, ink: str, size: int, mode: str) -> None:
    cb.update(tickfont=dict(color=ink, **_bigger(cb.tickfont, size)),
              title=dict(font=dict(color=ink, **_bigger(cb.title.font if cb.title else None, size))))
    if mode == "phone":
        # Below the plot, across it: a vertical bar beside a 390 px plot took a third of its width.
        cb.update(orientation="h", yref="container", y=0, yanchor="bottom", x=0.5, xanchor="center",
                  thickness=12, len=0.9, title=dict(side="top"))


def _phone(fig: go.Figure) -> None:
    """Legends below the plot and horizontal; room at the bottom for them; tight side margins."""
    has_legend = sum(1 for t in fig.data if t.showlegend is not False) > 1 or any(
        t.showlegend for t in fig.data)
    margin = fig.layout.margin
    fig.update_layout(margin=dict(l=min(margin.l if margin.l is not None else 10, 10),
                                  r=min(margin.r if margin.r is not None else 10, 10)))
    if has_legend and fig.layout.showlegend is not False:
        fig.update_layout(legend=dict(orientation="h", yref="container", y=0, yanchor="bottom", x=0,
                                      xanchor="left"))
        fig.update_layout(margin=dict(b=max(margin.b or 0, 40)))
