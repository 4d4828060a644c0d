"""Two small values the browser keeps for this app for the length of its session (session cookies, path "/",
SameSite=Strict): a follower's anonymous id (so a reload is the same follower, and a second answer is refused) and
a presenter's room secret (so a reload of the presenter's window keeps its live room). Streamlit reads the cookies
when the browser connects (st.context.cookies); a value is set from the page by a one-line script.

Names and values are checked against a strict pattern before either is read or written, so nothing else reaches
the script; a value that fails the pattern is treated as absent.
"""
from __future__ import annotations

import re

import streamlit as st

NAME_RE = re.compile(r"helm_[a-z_]{1,30}")
VALUE_RE = re.compile(r"[A-Za-z0-9_-]{16,64}")
SLOT = "cookie_js"  # a hidden container (ui/viewport.py PAGE_CSS), so the script takes no room on the page


def read(name: str) -> str | None:
    """The cookie's value when the browser sent one that passes the pattern, else None."""
    if not NAME_RE.fullmatch(name):
        raise ValueError(f"not a cookie name of this app: {name!r}")
    try:
        value = st.context.cookies.get(name)
    except Exception:  # noqa: BLE001 - no browser connection (AppTest, a bare websocket client)
        return None
    return value if isinstance(value, str) and VALUE_RE.fullmatch(value) else None


def script(name: str, value: str | None) -> str:
    """The script that sets (or, with None, removes) the cookie."""
    if not NAME_RE.fullmatch(name) or (value is not None and not VALUE_RE.fullmatch(value)):
        raise ValueError("a cookie's name or value does not pass its pattern")
    tail = "; max-age=0" if value is None else ""
    return (f'<script>(window.parent || window).document.cookie = "{name}={value or ""}; path=/; '
            f'SameSite=Strict{tail}";</script>')


def keep(name: str, value: str | None) -> None:
    """Make the browser hold `value` under `name` (None: hold nothing), unless what it sent on connecting is that
    already. The script is drawn on every run until then (a run that a rerun replaces may not have run it), in a
    slot drawn on every run: were the slot to come and go, everything after it would move in the page's element
    tree, and an open popover there (the presenter's bar) would be drawn anew, closed."""
    slot = st.container(key=f"{SLOT}_{name}")
    if read(name) != value:
        with slot:
            st.html(script(name, value), unsafe_allow_javascript=True)
