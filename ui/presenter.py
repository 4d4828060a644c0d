"""Presenter mode (?present=1): the story route, one slide per step, Previous/Next (PageUp/PageDown).

The route is every page's slides on the story route, in order (ui.slides.route): PageDown walks the slides of a
page (its tabs, or its stepper's steps), then the next page's. The mode lives in the session (so it sticks while
moving between pages) and is mirrored into the URL on every run, so a prepared link opens straight into it.
"""
from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from . import cache, components, nav, slides, state, viewport

PARAM = "present"
ON_VALUES = {"1", "true", "yes", "on"}
OFF_VALUES = {"0", "false", "no", "off"}

_CSS = """
<style>
section[data-testid="stSidebar"], [data-testid="stExpandSidebarButton"], header[data-testid="stHeader"] { display: none !important; }
[data-testid="stMain"] .block-container { padding-top: 0.6rem; padding-bottom: 1rem; padding-left: 2.5rem; padding-right: 2.5rem; max-width: 100%; }
[data-testid="stMain"] p, [data-testid="stMain"] li { font-size: 1.2rem; }
[data-testid="stMain"] [data-testid="stMetricValue"] { font-size: 2.4rem; }
/* The slide tabs are the route's steps here: the bar names the open one. */
[data-testid="stTabs"][class*="_section"] [role="tablist"] { display: none !important; }
[class*="st-key-slide_point_"] [data-testid="stMarkdownContainer"] p { font-size: 1.75rem; line-height: 1.3; }
.st-key-present_bar p { font-size: 0.95rem; margin: 0; }
.st-key-present_bar button p { font-size: 0.95rem; }
</style>
"""
# PageDown/PageUp also scroll the page before the switch; start each step at its top.
# (A constant script of ours; nothing from a visitor or the data goes into it.)
_SCROLL_TOP = """<script>(() => {
const m = window.parent.document.querySelector('[data-testid="stMain"]') || document.querySelector('[data-testid="stMain"]');
if (m) { m.scrollTo(0, 0); }
})();</script>"""  # in a function of its own: the page's scripts share one global scope, and this one runs again


def read_url() -> None:
    """Seed the mode from the URL (first run, or a link opened later in the same session).
    Without the parameter (e.g. after a page switch) the session's mode stays."""
    state.allow(PARAM, lambda v: v.lower() in ON_VALUES | OFF_VALUES)
    raw = (st.query_params.get(PARAM) or "").lower()
    if raw in ON_VALUES:
        st.session_state[viewport.PRESENTER_KEY] = True
    elif raw in OFF_VALUES:
        st.session_state[viewport.PRESENTER_KEY] = False


def _set(on: bool) -> None:
    st.session_state[viewport.PRESENTER_KEY] = on
    write_url()


def write_url() -> None:
    if viewport.presenting():
        st.query_params[PARAM] = "1"
    elif PARAM in st.query_params:
        del st.query_params[PARAM]


def toggle() -> None:
    """The sidebar switch (the mode itself hides the sidebar; the bar has an exit button)."""
    st.session_state["presenter_toggle"] = viewport.presenting()
    st.toggle("Presenter mode", key="presenter_toggle",
              on_change=lambda: _set(bool(st.session_state["presenter_toggle"])),
              help="Large type, no sidebar, Previous/Next buttons (PageUp/PageDown) through the story's slides.")


# ----------------------------------------------------------------------------- the route


def context() -> slides.Ctx:
    return slides.Ctx(rel=cache.active_release(), models=cache.active_models(), mode="presenter",
                      state=st.session_state, cohort=cache.active_cohort())


def steps() -> list[slides.Step]:
    return slides.route(context())


def _token_now(step_key: str | None, url_first: bool = False) -> str | None:
    """The open slide's token on the running page: its session value, else the URL's (`url_first`: the URL's, for
    a run the browser started by changing the URL, before the page's widgets have read it)."""
    if step_key is None:
        return None
    first, second = ((lambda: st.query_params.get(step_key)), (lambda: st.session_state.get(step_key)))
    if not url_first:
        first, second = second, first
    v = first()
    if v is None:
        v = second()
    return None if v is None else str(v)


def position(route: list[slides.Step], url_path: str, *, url_first: bool = False) -> int:
    """The route index of the slide open on `url_path` (its first route slide when the open one is not on the
    route or not known yet)."""
    on_page = [s for s in route if s.page == url_path]
    if not on_page:
        return _nearest(route, url_path)
    token = _token_now(on_page[0].key, url_first)
    return next((s.index for s in on_page if s.token == token), on_page[0].index)


def _nearest(route: list[slides.Step], url_path: str) -> int:
    """A page with no slide on the route (e.g. the upload page): the route step just before it in page order."""
    order = [p.url_path for p in nav.available_pages()]
    here = order.index(url_path) if url_path in order else 0
    before = [s.index for s in route if s.page in order and order.index(s.page) < here]
    return before[-1] if before else 0


def _step_clicked() -> int:
    """+1 when this run is a click on Next (or PageDown), -1 on Previous (PageUp), else 0. Readable before the bar
    draws its buttons: a button's click is in the session state from the start of the run it triggered."""
    return 1 if st.session_state.get("present_next") else -1 if st.session_state.get("present_prev") else 0


def go(step: slides.Step, current_url_path: str) -> None:
    """Open `step`: set its slide on this page before the page runs, or switch to its page with it open."""
    if step.page == current_url_path:
        if step.key is not None:
            st.session_state[step.key] = int(step.token) if step.key == "step" else step.token
        return
    # st.switch_page would clear the URL, which Streamlit refuses while widgets are bound to it; passing the
    # parameters to keep replaces them instead (bound sidebar widgets keep their values).
    query = {PARAM: "1"}
    if step.key is not None:
        query[step.key] = step.token
        st.session_state[step.key] = int(step.token) if step.key == "step" else step.token
    st.switch_page(step.file, query_params=query)


def _target(current_url_path: str, delta: int) -> tuple[list[slides.Step], slides.Step | None]:
    route = steps()
    if not route or not delta:
        return route, None
    to = position(route, current_url_path) + delta
    return route, route[to] if 0 <= to < len(route) else None


def switch_early(current_url_path: str) -> None:
    """In presenter mode, a Previous/Next press that leaves the open page switches at once (Home.py calls this
    right after st.navigation): the run it interrupts would otherwise draw the bar first, only for the switch to
    throw it away."""
    if not viewport.presenting():
        return
    _, target = _target(current_url_path, _step_clicked())
    if target is not None and target.page != current_url_path:
        go(target, current_url_path)


def bar(current_url_path: str, *, on_step: Callable[[str], None], tools: Callable[[], None]):
    """Previous / Next (PageUp / PageDown) and where the presenter is: "step k of n", the page and the slide.
    `on_step(url_path)` runs once the step is known, before the page draws it (the live room learns the new slide
    then: ui.showtime.publish); `tools()` draws the layer above's buttons in the bar (ui.showtime.bar_tools), so
    this module never imports the live-room layer. Returns the counter's slot, filled by `show_counter` once the
    page has run."""
    st.html(_CSS)
    st.html(_SCROLL_TOP, unsafe_allow_javascript=True)
    route, target = _target(current_url_path, _step_clicked())
    if target is not None:
        go(target, current_url_path)
    idx = position(route, current_url_path) if route else 0
    on_step(current_url_path)
    with st.container(key="present_bar", horizontal=True, vertical_alignment="center", gap="small"):
        st.button("Previous", icon=":material/arrow_back:", shortcut="PageUp", disabled=idx <= 0,
                  key="present_prev", help="Previous slide (PageUp)")
        st.button("Next", icon=":material/arrow_forward:", shortcut="PageDown", disabled=idx >= len(route) - 1,
                  key="present_next", help="Next slide (PageDown)")
        counter = st.container(width="stretch").empty()  # one line, rewritten by show_counter
        if route:  # said now, from the route: a page that fails while it runs still shows where the presenter is
            _write_counter(counter, f"**Step {idx + 1} of {len(route)}** · {route[idx].label}")
        tools()
        st.button("Exit presenter", key="present_exit", on_click=_set, args=(False,), icon=":material/close:")
    return counter


_OPEN = "_presenter_open_slide"


def record_slides(deck, all_slides, opened: int) -> None:
    """Called by ui.layout.render: the page that ran has these slides and this one is open."""
    st.session_state[_OPEN] = (deck.url_path, all_slides[opened].title, len(all_slides), opened)


def _write_counter(counter, where: str) -> None:
    counter.markdown(f"{where} · *{components.text(cache.active_release().name)}*")


def show_counter(counter, current_url_path: str) -> None:
    """After the page has run: 'Step k of n · page · slide' and the data shown."""
    route = steps()
    rel = cache.active_release()
    spec = nav.spec_for(current_url_path)
    page_title = nav.title(spec, not rel.is_classic) if spec else current_url_path
    opened = st.session_state.pop(_OPEN, None)
    slide = opened[1] if opened and opened[0] == current_url_path and opened[2] > 1 else None
    idx = position(route, current_url_path) if route else 0
    where = f"**Step {idx + 1} of {len(route)}** · {components.text(page_title)}"
    if slide:
        where += f" · {components.text(slide)}"
    _write_counter(counter, where)
