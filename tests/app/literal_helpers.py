"""Reading a page back the way a visitor sees it, to check that names from the data show literally (the escaping
rule of helm_core.escape, by destination): the page's slides walked one by one, its Markdown as sent and as read,
and the text every plotly chart on it draws."""
from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence

from streamlit.testing.v1 import AppTest

from helm_core import escape
from tests.hostile_names import anchor, by_anchor, not_literal, starts

from .helpers import assert_clean, section_tabs

# ----------------------------------------------------------------------------- slides


def walk_slides(at: AppTest) -> Iterator[str]:
    """Open each slide of the page's deck in turn and yield its label: a stepper's steps (`step`, its picker, or in
    presenter mode, where it has none, the session's step), else the slide tabs (`<page>_section`; ui.slides.Deck.key);
    a page with one slide yields once."""
    pickers = [s for s in at.selectbox if s.key == "step"]
    if pickers:
        for option in pickers[0].options:
            at.selectbox(key="step").set_value(int(option)).run()
            assert_clean(at)
            yield f"step {option}"
        return
    if isinstance(at.session_state["step"] if "step" in at.session_state else None, int):
        k = 1
        while True:
            at.session_state["step"] = k
            at.query_params["step"] = str(k)
            at.run()
            assert_clean(at)
            if at.session_state["step"] != k:  # past the last step: the stepper went back to step 1
                return
            yield f"step {k}"
            k += 1
    key, tabs = section_tabs(at)
    labels = [t.label for t in tabs]
    if not labels:
        yield ""
        return
    for label in labels:
        at.session_state[key] = label
        if key in at.query_params:
            at.query_params[key] = label
        at.run()
        assert_clean(at)
        yield label


# ----------------------------------------------------------------------------- Markdown


def markdown_sources(at: AppTest) -> list[str]:
    """Every piece of Markdown on the page as sent: text elements, tab and expander labels, metric labels and
    values, widget labels and help."""
    parts = []
    for coll in (at.markdown, at.caption, at.info, at.warning, at.error, at.success, at.title, at.subheader, at.header,
                 at.toast):
        parts.extend(str(e.value) for e in coll)
    parts.extend(t.label for t in at.tabs)
    parts.extend(e.label for e in at.expander)
    parts.extend(f"{m.label}\n{m.value}" for m in at.metric)
    for kind in ("selectbox", "multiselect", "radio", "slider", "select_slider", "toggle", "checkbox", "text_input",
                 "number_input", "button", "button_group"):
        for w in getattr(at, kind):
            parts.extend(x for x in (getattr(w, "label", None), getattr(w, "help", None)) if isinstance(x, str))
    return parts


def markdown_problems(sources: Sequence[str], names: Sequence[str]) -> list[str]:
    """What a reader would not see literally: an HTML entity in the Markdown (Streamlit shows `&#95;` as typed), and
    a name not escaped as helm_core.escape.markdown escapes it wherever it is written (its anchor, escaped or not,
    starts the escaped name; names may share an anchor)."""
    out = []
    for src in sources:
        hit = escape_entity(src)
        if hit:
            out.append(f"entity {hit!r} in {src[:200]!r}")
        for same in by_anchor(names):
            wants = [escape.markdown(n) for n in same]
            # the anchor as written, escaped or not (an unescaped one is a name that reached Markdown raw)
            for i in sorted({*starts(src, same[0]), *(m.start() for m in re.finditer(
                    r"(?<![\w=\\])" + re.escape(escape.markdown(anchor(same[0]))), src))}):
                if not any(src.startswith(w, i) for w in wants):
                    out.append(f"{same[0]!r} written as {src[i:i + len(wants[0]) + 10]!r}")
    return out


_ENTITY = re.compile(r"(?<!\\)&(#\d+|#x[0-9a-fA-F]+|lt|gt|amp|quot|nbsp);")  # `\&amp;` is the text "&amp;"


def escape_entity(text: str) -> str | None:
    """The first HTML entity in Markdown `text` (a backslash-escaped `&` starts none)."""
    m = _ENTITY.search(text)
    return m.group(0) if m else None


# ----------------------------------------------------------------------------- plotly


def chart_specs(at: AppTest) -> list[dict]:
    return [json.loads(c.proto.spec) for c in at.get("plotly_chart")]


# The markup plotly draws (ui/charts*.py use <br>, <b>, <i>); anything else in angle brackets is text.
_MARKUP = re.compile(r"</?(b|i|br|sup|sub|em|s|u|span|a|extra)(\s[^<>]*)?/?>", re.IGNORECASE)
_FIELD = re.compile(r"%\{([^\s%{}:]*)(?:[:|][^}]*)?\}")


def _strings(v) -> list[str]:
    if isinstance(v, str):
        return [v]
    if isinstance(v, list):
        return [s for x in v for s in _strings(x)]
    return []


def _customdata_shown(trace: dict) -> list[str]:
    """The customdata values a trace's hovertemplate shows (a token that only selects a cell is not shown)."""
    template = " ".join(_strings(trace.get("hovertemplate")))
    cd = trace.get("customdata")
    if cd is None:
        return []
    out = []
    for field in _FIELD.findall(template):
        if field == "customdata":
            out += _strings(cd)
        m = re.fullmatch(r"customdata\[(\d+)\]", field)
        if m:
            k = int(m.group(1))
            out += [s for row in cd if isinstance(row, list) and len(row) > k for s in _strings(row[k])]
    return out


def _title(owner: dict | None) -> list[str]:
    """The text of `owner`'s title (a string, or a dict with `text`), and of its colour bar's title."""
    owner = owner or {}
    t = owner.get("title")
    out = _strings(t.get("text") if isinstance(t, dict) else t)
    return out + (_title(owner["colorbar"]) if isinstance(owner.get("colorbar"), dict) else [])


def _axis_strings(layout: dict) -> list[str]:
    out = []
    for name, axis in layout.items():
        if isinstance(axis, dict) and re.fullmatch(r"(x|y)axis\d*|coloraxis", name):
            for k in ("ticktext", "categoryarray"):
                out += _strings(axis.get(k))
            out += _title(axis)
    polar = layout.get("polar") or {}
    for a in ("angularaxis", "radialaxis"):
        out += _strings((polar.get(a) or {}).get("categoryarray"))
        out += _strings((polar.get(a) or {}).get("ticktext"))
    return out


def chart_strings(spec: dict) -> list[str]:
    """Every string a plotly figure draws as text: trace names (legend), text, hover text and the customdata it
    shows, category values (x, y, theta), colour bar titles; the layout's title, axis titles, tick text, category
    orders, legend title and annotations. As plotly reads them: markup and entities still in."""
    out: list[str] = []
    for t in spec.get("data") or []:
        out += _strings(t.get("name"))
        for k in ("text", "hovertext", "hovertemplate", "x", "y", "theta", "labels"):
            out += _strings(t.get(k))
        out += _customdata_shown(t)
        out += _title(t.get("marker") if isinstance(t.get("marker"), dict) else None) + _title(t)
        out += _strings((t.get("legendgrouptitle") or {}).get("text"))
    layout = spec.get("layout") or {}
    out += _title(layout) + _title(layout.get("legend"))
    out += _axis_strings(layout)
    out += [a.get("text") for a in layout.get("annotations") or [] if isinstance(a.get("text"), str)]
    return out


def shown(label: str) -> str:
    """A plotly string as plotly draws it: the builder's markup gone (a line break a space), the hovertemplate's
    fields gone, its entities decoded (helm_core.escape.unchart_label), whitespace collapsed."""
    text = re.sub(r"<br\s*/?>", " ", label, flags=re.IGNORECASE)
    text = _MARKUP.sub("", text)
    text = _FIELD.sub(" ", text)
    return " ".join(escape.unchart_label(text).split())


def chart_problems(spec: dict, names: Sequence[str]) -> list[str]:
    """What a chart would not draw literally: a `<` or `>` that is not the builder's markup (data text must reach
    plotly escaped, escape.chart_label), an entity other than the three chart_label writes (and its `%{`), and a
    name that plotly would draw otherwise (its anchor starts the whole name in the drawn text)."""
    out = []
    for s in chart_strings(spec):
        rest = _MARKUP.sub("", _FIELD.sub("", s))
        if "<" in rest or ">" in rest:
            out.append(f"raw < or > in {s[:160]!r}")
        odd = re.sub(r"&(amp|lt|gt);|%&#123;", "", rest)
        if escape_entity(odd):
            out.append(f"entity {escape_entity(odd)!r} in {s[:160]!r}")
        out += [f"drawn: {p}" for p in not_literal(shown(s), names)]
    return out

