"""A guided stepper: Back / Next buttons (one click = one step, also the Left / Right arrow keys), a step picker
bound to the URL (`?<key>=N`, 1-based), and a progress bar. The page renders only the step this returns.

The picker's options are the integers 1..N themselves (Streamlit writes a bound widget's option text into the
URL, so no format_func). The buttons move the picker through its session state in an on_click callback.
`deep_links` draws links into other pages of the app with their state (used by the stepper's steps and threads).
"""
from __future__ import annotations

from typing import Sequence

import streamlit as st
from streamlit.errors import StreamlitAPIException

from . import components, nav, state
from helm_core import critique


def _move(key: str, n: int, delta: int) -> None:
    current = st.session_state.get(key, 1)
    if not isinstance(current, int):
        current = 1
    st.session_state[key] = min(n, max(1, current + delta))


def stepper(titles: Sequence[str], *, key: str = "step", buttons: bool = True) -> int:
    """Draw the stepper's controls for steps titled `titles`; return the current step (1-based).
    `buttons=False` (presenter mode, whose bar steps through the route): no Back/Next or picker of its own, so
    there is one "Next" on screen; the step still comes from the session and the URL."""
    n = len(titles)
    if n == 0:
        raise ValueError("a stepper needs at least one step")
    options = list(range(1, n + 1))
    asked = st.query_params.get(key)
    valid = state.allow(key, {str(i) for i in options})
    if not buttons:
        current = st.session_state.get(key)
        if not isinstance(current, int) and valid is not None:
            current = int(valid)
        step = current if isinstance(current, int) and 1 <= current <= n else 1
        st.session_state[key] = step
        try:
            st.query_params[key] = str(step)  # the step stays in the link
        except StreamlitAPIException:  # bound to the desktop picker earlier in this session, which writes the URL
            pass
        _bad_link(asked, valid, step, n)
        return step
    back_col, pick_col, next_col = st.columns([1, 2, 1], vertical_alignment="bottom")
    with pick_col:
        step = st.selectbox(
            "Jump to step", options, key=key, bind="query-params",
            help="The step is in the page's address (?step=N), so reloading or sharing the link keeps the place.",
        )
    step = step if isinstance(step, int) and 1 <= step <= n else 1
    back_col.button("Back", key=f"{key}_back", icon=":material/arrow_back:", on_click=_move, args=(key, n, -1),
                    disabled=step <= 1, shortcut="Left", width="stretch", help="Previous step (Left arrow key)")
    next_col.button("Next", key=f"{key}_next", icon=":material/arrow_forward:", on_click=_move, args=(key, n, 1),
                    disabled=step >= n, shortcut="Right", width="stretch", help="Next step (Right arrow key)")
    st.progress(step / n, text=f"Step {step} of {n}: {titles[step - 1]}")
    _bad_link(asked, valid, step, n)
    st.caption("Steps: " + " · ".join(
        (f"**{i}. {components.text(t)}**" if i == step else f"{i}. {components.text(t)}")
        for i, t in enumerate(titles, start=1)
    ))
    return step


def _bad_link(asked, valid, step: int, n: int) -> None:
    if asked is not None and valid is None:
        shown = state.shown(asked, 20) if asked.strip() else "an empty value"
        st.warning(f"The link asked for step {shown}, but this walk has steps 1 to {n}; "
                   f"showing step {step} instead.", icon=":material/link_off:")


def deep_links(links: Sequence[critique.Link], *, icon: str = ":material/arrow_outward:") -> None:
    """Links into pages of this app with their state (query parameters), as st.page_link.
    A link to a page that is not part of this build is shown as plain text, never as a broken link."""
    available = {p.url_path: p for p in nav.available_pages()}
    for link in links:
        spec = available.get(link.page)
        if spec is None:
            st.markdown(f"- {components.text(link.label)} (that section is not in this build)")
            continue
        st.page_link(spec.file, label=link.label, icon=icon, query_params=link.query_items or None)
