"""Shared page pieces: header, claim badges, charts with a text alternative and data, onward links."""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from helm_core import escape, fmt
from helm_core.claims import CONFIDENCE_LEVELS, Claim

from . import cache, nav, palette, stage, state, viewport

# A claim's badge colour names the kind of source it rests on (ui.palette: one meaning per colour); the badge's
# text names the source and the confidence ("2022 paper · quoted", "HELM code/config · verified").
SOURCE_BADGE = {"paper": palette.BADGE["claim"], "code": "blue", "blog": "green", "release": "green",
                "computed": palette.BADGE["data"]}


def page_header(url_path: str) -> nav.PageSpec:
    spec = nav.spec_for(url_path)
    if spec is None:
        raise KeyError(url_path)
    rel = cache.active_release()
    data_label = f"Data: {rel.name}" + ("" if rel.is_bundled else " (loaded by you)")
    takeaway = nav.takeaway(spec, not rel.is_classic)  # classic's takeaway and title only where they are true
    title = nav.title(spec, not rel.is_classic)
    if viewport.presenting():
        # The presenter bar names the page, the slide and the data (ui.presenter.show_counter); the slide's point
        # is the headline.
        return spec
    st.title(title)
    st.markdown(f"**{takeaway}**")
    st.caption(data_label)
    return spec


def claim(claim_id: str, *, compact: bool = False) -> None:
    """Show a claim as a claim: statement, a badge naming its kind of source and its confidence, and its source.
    A note about the app's own sources (kind = "note") gets a plain "Note on sources" badge."""
    c: Claim = cache.claims()[claim_id]
    colour = SOURCE_BADGE.get(c.source_kind, "gray") if c.is_paper_claim else palette.BADGE["neutral"]
    badge = f":{colour}-badge[{escape.markdown(c.badge_label)}]"
    with st.container(border=not compact):
        st.markdown(f"{badge} {c.statement}")
        caption = (f"Source: {c.source}. {c.confidence.capitalize()}: {CONFIDENCE_LEVELS[c.confidence]}."
                   if c.is_paper_claim else f"Source: {c.source}.")
        if c.note:
            caption += f" Note: {c.note}"
        st.caption(caption)


def cohort_label(n_models: int | None = None) -> str:
    """The sidebar's cohort in words, for sentences computed on it: "the 2022 paper's cohort (28 models)",
    "every model of the release, open access (20 models)"."""
    c = cache.active_cohort()
    base = "the 2022 paper's cohort" if c == "paper" else "every model of the release"
    access = state.access_levels()
    if set(access) != set(state.ACCESS):
        base += ", " + " and ".join(access) + " access"
    n = len(cache.active_models()) if n_models is None else n_models
    return f"{base} ({fmt.count(n, 'model')})"


def chart(fig: go.Figure, *, key: str, alt: str, data: pd.DataFrame | None = None, data_name: str | None = None,
          **kwargs):
    """A chart that is not a slide's main visual (a detail below it): dressed for the screen like the slide's own
    (ui.stage: stage text in presenter mode, the phone layout, the theme's text colour), with a stable key, a text
    alternative, and its data as a table and CSV download."""
    event = st.plotly_chart(stage.style(fig, mode=viewport.screen(), theme=viewport.theme()), key=key, width="stretch",
                            alt=alt,
                            **kwargs)
    if data is not None:
        # Lazy: the table (and the browser's data-grid code, ~0.3 s per page load) only once it is opened.
        box = lazy_expander(f"Data behind this chart ({fmt.count(len(data), 'row')})", key=f"{key}_data")
        if box is not None:
            with box:
                st.dataframe(data, hide_index=True, width="stretch")
                download(data, data_name or key, key=f"{key}_csv")
    return event


# Tables are drawn as one Markdown table (see `table`): every cell through helm_core.escape.table_cell (one rule
# for text that comes from data, by destination), links only for the project's own URLs.
HIGHLIGHT = "orange-background"


def cell(value: object) -> str:
    """A table cell or header shown literally: one line, no markup, no link."""
    return escape.table_cell(value)


def _link(url: object) -> str:
    # Inside a link's label nothing autolinks, so the label needs no word joiners (escape.markdown adds them).
    if isinstance(url, str) and url.startswith(("https://", "http://")):
        return f"[{escape.markdown(url).replace(escape.WORD_JOINER, '')}](<{url}>)"
    return cell(url)


def _missing(v: object) -> bool:
    return v is None or (isinstance(v, float) and v != v) or v is pd.NA or v is pd.NaT


def _float_format(col: pd.Series) -> str | Callable:
    """A float column's default format: a time (a column named like HELM's "... time (s)" or "runtime") at its
    scale (fmt.seconds: "19 µs", not "0.000"), a count stored as float (every value whole, e.g. runs averaged) as an
    integer, anything else with 3 decimals."""
    if fmt.is_time(str(col.name)):
        return fmt.seconds
    vals = col.dropna()
    if not vals.empty and bool((vals == vals.round()).all()) and bool((vals.abs() > 1).any()):
        return fmt.number
    return "{:.3f}"


def markdown_table(data, *, formats: Mapping[str, str | Callable] | None = None,
                   labels: Mapping[str, str] | None = None, highlight: Sequence[bool] | None = None,
                   links: Sequence[str] = ()) -> str:
    """`data` (a DataFrame or records) as a GitHub-flavoured Markdown table; see `table`."""
    df = pd.DataFrame(data)
    if labels:
        df = df.rename(columns=labels)
    fmts = {c: _float_format(df[c]) if pd.api.types.is_float_dtype(df[c]) else None for c in df.columns}
    fmts.update({c: _link for c in links})
    fmts.update(formats or {})
    columns = list(df.columns)
    numeric = [pd.api.types.is_numeric_dtype(df[c]) and not pd.api.types.is_bool_dtype(df[c]) for c in columns]

    def show(v: object, f) -> str:
        if _missing(v):
            return "–"
        if f is _link:
            return _link(v)
        return cell(f(v) if callable(f) else f.format(v) if f else v)

    lines = ["| " + " | ".join(cell(c) for c in columns) + " |",
             "|" + "|".join("---:" if n else "---" for n in numeric) + "|"]
    marks = list(highlight) if highlight is not None else [False] * len(df)
    for row, mark in zip(df.itertuples(index=False, name=None), marks):
        cells = [show(v, fmts[c]) for v, c in zip(row, columns)]
        if mark:
            cells = [f":{HIGHLIGHT}[{x}]" for x in cells]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def table(data, *, formats: Mapping[str, str | Callable] | None = None, labels: Mapping[str, str] | None = None,
          highlight: Sequence[bool] | None = None, height: int | None = None, links: Sequence[str] = ()) -> None:
    """A small static table, drawn as one Markdown table. Not st.dataframe: a page that shows one loads the
    browser's data-grid code (~0.25 s per page load); not st.table, which renders every cell as a Markdown
    element of its own (the sensitivity page's two 41-row tables made 330 of them, ~0.3 s).

    Text is escaped; numbers get 3 decimals and missing values "–" unless `formats` (format strings or
    callables by column, after the `labels` renames) says otherwise; numeric columns align right; `highlight`
    marks rows (one bool per row); `height` (px) scrolls a long table; `links` names columns of URLs from the
    project's own files (never a visitor's), shown as links."""
    md = markdown_table(data, formats=formats, labels=labels, highlight=highlight, links=links)
    if height is not None:
        with st.container(height=height, border=False):
            st.markdown(md)
    else:
        st.markdown(md)


def pick_by_click(event, tokens: Sequence[str], *, key: str) -> None:
    """A click on a chart point whose first customdata value is one of `tokens` sets the widget `key` to it.
    Once per click: later reruns still carry the same selection, and must not undo a choice made since in the
    widget itself."""
    points = (event.selection.points if event is not None and "selection" in event else []) or []
    clicked = None
    if points:
        cd = points[0].get("customdata")
        if isinstance(cd, (list, tuple)) and cd and cd[0] in tokens:
            clicked = cd[0]
    last = f"_{key}_last_click"
    if clicked is None:
        st.session_state.pop(last, None)
    elif clicked != st.session_state.get(last):
        st.session_state[last] = clicked
        st.session_state[key] = clicked


def lazy_expander(label: str, *, key: str):
    """An expander whose body is built only while it is open (a closed one ships nothing to the browser, so a
    big table inside costs the page nothing). Returns the expander to write into, or None when closed."""
    box = st.expander(label, key=key, on_change="rerun")
    return box if box.open else None


def download(df: pd.DataFrame, name: str, *, key: str, label: str = "Download CSV") -> None:
    """A CSV download whose bytes are made when clicked, not on every run of the page. The click does not rerun
    the page (on_click="ignore"): a rerun started by the click drops the run's deferred file, and on a busy server
    it finished before the browser's request for the bytes arrived, so nothing was downloaded."""
    st.download_button(label, lambda: df.to_csv(index=False).encode("utf-8"), file_name=f"{name}.csv",
                       mime="text/csv", key=key, icon=":material/download:", on_click="ignore")


def text(value: object) -> str:
    """Text that comes from data or a visitor, for Markdown (st.markdown, captions, info boxes, labels): shown
    literally (helm_core.escape.markdown: backslash escapes, never HTML entities). For a destination that is not
    Markdown (st.text, a dataframe, alt text) use the text as it is; for plotly text, escape.chart_label."""
    return escape.markdown(value)


def onward(url_path: str) -> None:
    """Links to the previous and next sections, so no page is a dead end."""
    pages = nav.available_pages()
    idx = next((i for i, p in enumerate(pages) if p.url_path == url_path), None)
    if idx is None:
        return
    st.divider()
    cols = st.columns(2)
    later = not cache.active_release().is_classic
    if idx > 0:
        prev = pages[idx - 1]
        cols[0].page_link(prev.file, label=f"Previous: {nav.title(prev, later)}", icon=":material/arrow_back:")
    if idx + 1 < len(pages):
        nxt = pages[idx + 1]
        cols[1].page_link(nxt.file, label=f"Next: {nav.title(nxt, later)}", icon=":material/arrow_forward:")
