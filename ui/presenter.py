"""Presenter mode (?present=1): large type, no sidebar, Previous/Next through the sections.

The mode lives in the session (so it sticks while moving between pages) and is mirrored into the URL
on every run, so a prepared link opens straight into it.
"""
from __future__ import annotations

import contextlib

import streamlit as st

from . import nav, state

KEY = "presenter"
PARAM = "present"
ON_VALUES = {"1", "true", "yes", "on"}
OFF_VALUES = {"0", "false", "no", "off"}

_CSS = """
<style>
section[data-testid="stSidebar"], [data-testid="stExpandSidebarButton"], header[data-testid="stHeader"] { display: none !important; }
[data-testid="stMain"] .block-container { padding-top: 0.8rem; padding-bottom: 1rem; max-width: 100%; }
[data-testid="stMain"] p, [data-testid="stMain"] li { font-size: 1.2rem; }
[data-testid="stMain"] h1 { font-size: 2.3rem; }
[data-testid="stMain"] [data-testid="stMetricValue"] { font-size: 2.4rem; }
</style>
"""
# PageDown/PageUp also scroll the page before the switch; start each section at its top.
# (A constant script of ours; nothing from a visitor or the data goes into it.)
_SCROLL_TOP = """<script>
const m = window.parent.document.querySelector('[data-testid="stMain"]') || document.querySelector('[data-testid="stMain"]');
if (m) { m.scrollTo(0, 0); }
</script>"""


def read_url() -> None:
    """Seed the mode from the URL (first run, or a link opened later in the same session).
    Without the parameter (e.g. after a page switch) the session's mode stays."""
    state.allow(PARAM, lambda v: v.lower() in ON_VALUES | OFF_VALUES)
    raw = (st.query_params.get(PARAM) or "").lower()
    if raw in ON_VALUES:
        st.session_state[KEY] = True
    elif raw in OFF_VALUES:
        st.session_state[KEY] = False


def is_on() -> bool:
    return bool(st.session_state.get(KEY, False))


# In presenter mode a page's main chart sits right under the header (and the section tabs) and is at most this
# tall, so it is fully visible on a 1280 × 720 screen (bar ≈ 70 px, compact header ≈ 110 px, tabs ≈ 80 px).
MAIN_CHART_MAX_HEIGHT = 440


def chart_height(normal: int) -> int:
    """The height for a page's main chart: `normal`, or capped in presenter mode."""
    return min(normal, MAIN_CHART_MAX_HEIGHT) if is_on() else normal


def main_slot():
    """Where a page's main chart goes. In presenter mode: an empty container made now, right under the header,
    that the page fills later (`with presenter.into(slot):`), so the chart is on the first screen while the
    script keeps its order (controls first, chart after). Otherwise None: the chart is drawn where the script is.
    Inside a fragment, make the slot inside the fragment (a fragment may only write to its own containers)."""
    return st.container() if is_on() else None


def into(slot):
    """The context to draw the main chart in: the slot from `main_slot()`, or right here."""
    return slot if slot is not None else contextlib.nullcontext()


def _set(on: bool) -> None:
    st.session_state[KEY] = on
    write_url()


def write_url() -> None:
    if is_on():
        st.query_params[PARAM] = "1"
    elif PARAM in st.query_params:
        del st.query_params[PARAM]


def toggle() -> None:
    """The sidebar switch (the mode itself hides the sidebar; the bar has an exit button)."""
    st.session_state["presenter_toggle"] = is_on()
    st.toggle("Presenter mode", key="presenter_toggle",
              on_change=lambda: _set(bool(st.session_state["presenter_toggle"])),
              help="Large type, no sidebar, Previous/Next buttons (PageUp/PageDown) through the sections.")


# The section tabs of each page visited in this session (ui.components.sections), so Previous/Next can step
# through a page's tabs before moving to another page: {url_path: (tab key, labels)}.
_SECTIONS = "_presenter_sections"
_OPEN_PAGE_SECTIONS = "_presenter_open_page_sections"


def record_sections(key: str, labels: list[str]) -> None:
    """Called by ui.components.sections: the page being run has these section tabs."""
    st.session_state[_OPEN_PAGE_SECTIONS] = (key, list(labels))


def _page_index(pages: list, url_path: str) -> int:
    return next((i for i, p in enumerate(pages) if p.url_path == url_path), 0)


def _tab_position(url_path: str) -> tuple[str, list[str], int] | None:
    rec = st.session_state.get(_SECTIONS, {}).get(url_path)
    if rec is None:
        return None
    key, labels = rec
    current = st.session_state.get(key)
    return key, labels, labels.index(current) if current in labels else 0


def _step_clicked() -> int:
    """+1 when this run is a click on Next (or PageDown), -1 on Previous (PageUp), else 0. Readable before the bar
    draws its buttons: a button's click is in the session state from the start of the run it triggered."""
    return 1 if st.session_state.get("present_next") else -1 if st.session_state.get("present_prev") else 0


def _page_target(current_url_path: str, step: int):
    """The page a step moves to (a PageSpec), or None when it moves within the open page's tabs, or nowhere."""
    tabs = _tab_position(current_url_path)
    if not step or (tabs is not None and 0 <= tabs[2] + step < len(tabs[1])):
        return None
    pages = nav.available_pages()
    to = _page_index(pages, current_url_path) + step
    return pages[to] if 0 <= to < len(pages) else None


def _switch(target, back: bool) -> None:
    # st.switch_page would clear the URL, which Streamlit refuses while widgets are bound to it;
    # passing the parameters to keep replaces them instead (bound sidebar widgets keep their values).
    # Going back lands on the previous page's last tab, when this session has seen that page.
    query = {PARAM: "1"}
    rec = st.session_state.get(_SECTIONS, {}).get(target.url_path) if back else None
    if rec is not None:
        query[rec[0]] = rec[1][-1]
    st.switch_page(target.file, query_params=query)


def switch_early(current_url_path: str) -> None:
    """In presenter mode, a Previous/Next press that leaves the open page switches at once (Home.py calls this
    right after st.navigation): the run it interrupts would otherwise draw the sidebar and the bar first, only
    for the switch to throw them away, and a presenter's page step waited for both runs."""
    if not is_on():
        return
    step = _step_clicked()
    target = _page_target(current_url_path, step)
    if target is not None:
        _switch(target, back=step < 0)


def bar(current_url_path: str):
    """Previous / Next buttons with a 'section k of n' counter; keyboard: PageUp/PageDown. On a page with section
    tabs they step through its tabs first. Returns the counter's slot for `show_counter`, filled once the page
    has run (and so has said which tabs it has)."""
    st.session_state.pop(_OPEN_PAGE_SECTIONS, None)  # the page about to run records its own
    pages = nav.available_pages()
    idx = _page_index(pages, current_url_path)
    tabs = _tab_position(current_url_path)
    st.html(_CSS)
    st.html(_SCROLL_TOP, unsafe_allow_javascript=True)
    cols = st.columns([1, 1, 3, 1], vertical_alignment="center")
    first = idx == 0 and (tabs is None or tabs[2] == 0)
    last = idx >= len(pages) - 1 and (tabs is None or tabs[2] == len(tabs[1]) - 1)
    prev_clicked = cols[0].button("Previous", icon=":material/arrow_back:", shortcut="PageUp",
                                  disabled=first, key="present_prev", help="Previous section (PageUp)")
    next_clicked = cols[1].button("Next", icon=":material/arrow_forward:", shortcut="PageDown",
                                  disabled=last, key="present_next", help="Next section (PageDown)")
    counter = cols[2].empty()
    cols[3].button("Exit presenter", key="present_exit", on_click=_set, args=(False,), icon=":material/close:")
    step = 1 if next_clicked else -1 if prev_clicked else 0
    if tabs is not None and step and 0 <= tabs[2] + step < len(tabs[1]):
        # Before the page runs, so the tabs (not drawn yet in this run) open on the new label.
        st.session_state[tabs[0]] = tabs[1][tabs[2] + step]
        return counter
    target = _page_target(current_url_path, step)  # (switch_early has done this already when Home.py called it)
    if target is not None:
        _switch(target, back=step < 0)
    return counter


def show_counter(counter, current_url_path: str) -> None:
    """After the page has run: remember its section tabs and show 'Section k of n · tab j of m'."""
    pages = nav.available_pages()
    idx = _page_index(pages, current_url_path)
    rec = st.session_state.pop(_OPEN_PAGE_SECTIONS, None)
    known = st.session_state.setdefault(_SECTIONS, {})
    if rec is None:
        known.pop(current_url_path, None)
    else:
        known[current_url_path] = rec
    text = f"**Section {idx + 1} of {len(pages)}** · {pages[idx].section}"
    tabs = _tab_position(current_url_path)
    if tabs is not None:
        text += f" · tab {tabs[2] + 1} of {len(tabs[1])}"
    counter.markdown(text)
