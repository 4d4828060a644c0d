"""How a chart is dressed for the screen it is shown on: the stage template (presenter mode), the phone layout, and
the theme's text colour. Builders in ui/charts*.py make one figure; `style_spec` adapts a copy of its spec at render
time.

- Presenter (1280 × 720, read from the back of a room): every tick, legend, colour-bar and annotation text at least
  STAGE_TEXT px, titles at least STAGE_TITLE px.
- Every mode: text in the theme's own text colour (contrast above 12:1 on both themes, well over 4.5:1), and the
  INK highlight swapped for the dark theme's (ui.palette).
- Phone (≤ 480 px): legends and colour bars below the plot, horizontal, so they never squeeze it; small margins.
- Handout (the offline HTML file, outside Streamlit): plotly's own white template and room for every axis label.

It works on the figure's plain spec (dicts and lists), never through plotly's validating setters: dressing a
figure that way took 35-130 ms a run; on the spec it takes well under a millisecond. The result goes to
st.plotly_chart as a `SpecFigure`, whose to_dict() is the spec itself, so Streamlit serialises it without another
deep copy. No Streamlit here: the slide layout passes the mode and theme in.
"""
from __future__ import annotations

import json
from typing import Any

import plotly.graph_objects as go

from . import palette

STAGE_TEXT = 16
STAGE_TITLE = 20
DESKTOP_TEXT = 12  # the smallest chart text on a laptop screen
PHONE_TEXT = 11

_AXIS_PREFIXES = ("xaxis", "yaxis")


def min_text(mode: str) -> int:
    return STAGE_TEXT if mode == "presenter" else PHONE_TEXT if mode == "phone" else DESKTOP_TEXT


class SpecFigure(go.Figure):
    """A figure that is its plain spec: to_dict() and to_plotly_json() return the spec dict as it is, so
    st.plotly_chart neither re-validates nor deep-copies it. Read-only: a change made after creation through
    plotly's setters would not reach the spec."""

    def __new__(cls, spec: dict):
        # Not go.Figure's __init__: building even an empty plotly figure resolves its template (~2-6 ms a run);
        # Streamlit and plotly.io only ask an instance for to_dict().
        fig = object.__new__(cls)
        object.__setattr__(fig, "_spec", spec)
        return fig

    def __init__(self, spec: dict):  # noqa: D107 - everything happens in __new__
        pass

    def to_dict(self) -> dict:
        return self._spec

    def to_plotly_json(self) -> dict:
        return self._spec


def plain(fig: go.Figure | dict) -> dict:
    """A figure's spec as plain JSON types (lists, not arrays): what a cached spec should hold, so Streamlit's
    encoder takes its fast path."""
    if isinstance(fig, dict):
        return fig
    return json.loads(fig.to_json())


def _font(d: dict | None, size: int, colour: str | None) -> dict:
    """A copy of font dict `d` with a size of at least `size` (a larger size the builder chose is kept) and, when
    given, the colour (a colour the builder chose is kept only where `colour` is None)."""
    out = dict(d or {})
    current = out.get("size")
    if not isinstance(current, (int, float)) or current < size:
        out["size"] = size
    if colour is not None:
        out["color"] = colour
    return out


def _swap_ink(obj: Any) -> Any:
    """Replace the light INK colour by the dark theme's, anywhere in a spec."""
    if isinstance(obj, dict):
        return {k: _swap_ink(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_swap_ink(v) for v in obj]
    if isinstance(obj, str) and obj.upper() == palette.INK.upper():
        return palette.INK_DARK
    return obj


def style_spec(spec: dict, *, mode: str = "desktop", theme: str = "light") -> dict:
    """A styled copy of a figure's plain spec for `mode` ("presenter", "desktop", "phone", "handout") and `theme`
    ("light", "dark"). The input is not changed."""
    if theme == "dark":
        spec = _swap_ink(spec)
    ink = palette.TEXT.get(theme, palette.INK)
    size = min_text(mode)
    layout = dict(spec.get("layout") or {})
    data = list(spec.get("data") or [])

    # The theme's text colour everywhere Streamlit's template would use a lighter grey.
    layout["font"] = _font(layout.get("font"), size, ink)
    legend = dict(layout.get("legend") or {})
    legend["font"] = _font(legend.get("font"), size, ink)
    if isinstance(legend.get("title"), dict):
        legend["title"] = {**legend["title"], "font": _font(legend["title"].get("font"), size, ink)}
    layout["legend"] = legend
    layout["hoverlabel"] = {**(layout.get("hoverlabel") or {}),
                            "font": _font((layout.get("hoverlabel") or {}).get("font"), max(size, 13), None)}
    title = layout.get("title")
    if isinstance(title, dict) and title.get("text"):
        layout["title"] = {**title, "font": _font(title.get("font"), STAGE_TITLE if mode == "presenter" else 14, ink)}
    for name in list(layout):
        if name.startswith(_AXIS_PREFIXES) and isinstance(layout[name], dict):
            axis = dict(layout[name])
            axis["tickfont"] = _font(axis.get("tickfont"), size, ink)
            t = axis.get("title")
            t = {"text": t} if isinstance(t, str) else dict(t or {})
            t["font"] = _font(t.get("font"), size, ink)
            axis["title"] = t
            if mode == "handout":
                axis["automargin"] = True
            layout[name] = axis
    if isinstance(layout.get("polar"), dict):
        polar = dict(layout["polar"])
        for a in ("radialaxis", "angularaxis"):
            ax = dict(polar.get(a) or {})
            ax["tickfont"] = _font(ax.get("tickfont"), size, ink)
            polar[a] = ax
        layout["polar"] = polar
    if layout.get("annotations"):
        layout["annotations"] = [{**a, "font": _font(a.get("font"), size, None if (a.get("font") or {}).get("color")
                                                      else ink)} for a in layout["annotations"]]
    if isinstance(layout.get("coloraxis"), dict) and layout["coloraxis"].get("showscale") is not False:
        ca = dict(layout["coloraxis"])
        ca["colorbar"] = _colorbar(ca.get("colorbar"), ink, size, mode)
        layout["coloraxis"] = ca

    styled = []
    for trace in data:
        t = trace
        if "text" in trace or "texttemplate" in trace:
            tf = trace.get("textfont") or {}
            if not isinstance(tf.get("size"), list):
                t = {**t, "textfont": _font(tf, size, None)}
        marker = t.get("marker")
        if isinstance(marker, dict) and marker.get("showscale"):
            t = {**t, "marker": {**marker, "colorbar": _colorbar(marker.get("colorbar"), ink, size, mode)}}
        elif t.get("showscale") and "colorbar" in t or (t.get("showscale") and t.get("type") in ("heatmap",
                                                                                                  "contour")):
            t = {**t, "colorbar": _colorbar(t.get("colorbar"), ink, size, mode)}
        styled.append(t)

    if mode == "phone":
        _phone(layout, styled)
    if mode == "handout":
        # Outside Streamlit (the offline handout): plotly's own white template (Streamlit's frontend template would
        # otherwise set the background and the margins).
        layout.update(template="plotly_white", paper_bgcolor="white", plot_bgcolor="white")
    return {**spec, "data": styled, "layout": layout}


def style(fig: go.Figure | dict, *, mode: str = "desktop", theme: str = "light") -> SpecFigure:
    """`style_spec` of a figure (or of its spec), as a figure st.plotly_chart serialises without copying."""
    return SpecFigure(style_spec(fig if isinstance(fig, dict) else fig.to_plotly_json(), mode=mode, theme=theme))


def _colorbar(cb: dict | None, ink: str, size: int, mode: str) -> dict:
    cb = dict(cb or {})
    cb["tickfont"] = _font(cb.get("tickfont"), size, ink)
    t = cb.get("title")
    t = {"text": t} if isinstance(t, str) else dict(t or {})
    t["font"] = _font(t.get("font"), size, ink)
    cb["title"] = t
    if mode == "phone":
        # Below the plot, across it: a vertical bar beside a 390 px plot took a third of its width.
        cb.update(orientation="h", yref="container", y=0, yanchor="bottom", x=0.5, xanchor="center",
                  thickness=12, len=0.9)
        cb["title"] = {**cb["title"], "side": "top"}
    return cb


def _phone(layout: dict, data: list[dict]) -> None:
    """Legends below the plot and horizontal; room at the bottom for them; tight side margins."""
    shown = [t for t in data if t.get("showlegend") is not False]
    has_legend = len(shown) > 1 or any(t.get("showlegend") for t in data)
    margin = dict(layout.get("margin") or {})
    margin["l"] = min(margin.get("l", 10), 10) if isinstance(margin.get("l", 10), (int, float)) else 10
    margin["r"] = min(margin.get("r", 10), 10) if isinstance(margin.get("r", 10), (int, float)) else 10
    if has_legend and layout.get("showlegend") is not False:
        layout["legend"] = {**layout.get("legend", {}), "orientation": "h", "yref": "container", "y": 0,
                            "yanchor": "bottom", "x": 0, "xanchor": "left"}
        margin["b"] = max(margin.get("b") or 0, 40)
    layout["margin"] = margin
