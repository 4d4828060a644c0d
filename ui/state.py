"""URL and session state: a whitelist of query parameters, validated, with a notice for bad ones.

Pages bind widgets to the URL with `bind="query-params"` and declare each key with `allow(...)`
before creating the widget. At the end of a run `finish_run()` drops every key nobody declared.
"""
from __future__ import annotations

from typing import Callable, Collection, Iterable

import streamlit as st

from helm_core import escape

_ALLOWED = "_qp_allowed"
_NOTICES = "_qp_notices"

# The first entry is the default: the 2022 paper's cohort is the story the app tells; `?cohort=all` widens it.
COHORTS = {"paper": "the 2022 paper's core cohort", "all": "every model in the release"}
DEFAULT_COHORT = next(iter(COHORTS))
ACCESS = ("open", "limited", "closed")


def start_run() -> None:
    st.session_state[_ALLOWED] = set()
    st.session_state[_NOTICES] = []


def notice(message: str) -> None:
    """Queue a toast for the end of the run; `message` is Markdown (a link's value in it through `shown`)."""
    st.session_state.setdefault(_NOTICES, []).append(message)


def shown(value: str, limit: int) -> str:
    """A value from the link as a notice shows it (Markdown): its first `limit` characters, on one line, in quotes,
    literally (escaped after the cut, so no escape is cut in half; not in a code span, which a backtick in the value
    would close and inside which an escape would show)."""
    return "“" + escape.table_cell(value[:limit] + ("…" if len(value) > limit else "")) + "”"


def _valid(raw: list[str], valid: Collection[str] | Callable[[str], bool], multi: bool) -> bool:
    check = valid if callable(valid) else (lambda v: v in valid)
    if multi:
        parts = [p for r in raw for p in r.split(",") if p != ""]
        return all(check(p) for p in parts)
    return len(raw) == 1 and check(raw[0])


def allow(key: str, valid: Collection[str] | Callable[[str], bool] | None = None, *, multi: bool = False) -> str | None:
    """Declare query parameter `key` for this run. If the URL holds a value that fails `valid`,
    a notice says it was ignored (a bound widget then falls back to its default).
    Returns the raw value when it is valid, else None."""
    st.session_state.setdefault(_ALLOWED, set()).add(key)
    if key not in st.query_params:
        return None
    raw = st.query_params.get_all(key)
    if valid is None or _valid(raw, valid, multi):
        return raw[0] if raw else None
    notice(f"Ignored the link's {shown(f'{key}=' + ','.join(raw), 40 + len(key) + 1)}: not a valid value here.")
    return None


def declared() -> frozenset[str]:
    """The query keys this run has declared so far (allow / keep): the URL state a link, or a live room, may carry."""
    return frozenset(st.session_state.get(_ALLOWED, set()))


def keep(keys: Iterable[str]) -> None:
    """Declare query keys of widgets this run does not draw (a closed section's), so a link's values, and the
    ones set earlier in the session, survive until the widget is drawn again and checks them with `allow`."""
    st.session_state.setdefault(_ALLOWED, set()).update(keys)


def write_back(key: str) -> None:
    """on_change of a URL-bound widget whose new value hides other bound widgets (a group choice that swaps the
    tabs below it): the value, set again as the app's own, so Streamlit writes it to the URL in the run it starts.
    Without it that run's clean-up of the hidden widgets' URL values sends the query as the server knows it, which
    after a tab click lacks the browser's new value, and the link loses the choice (Streamlit 1.67)."""
    st.session_state[key] = st.session_state[key]


def finish_run() -> None:
    """Drop query parameters no widget or page declared in this run, with a notice."""
    allowed = st.session_state.get(_ALLOWED, set())
    unknown = [k for k in list(st.query_params.keys()) if k not in allowed]
    for k in unknown:
        try:
            del st.query_params[k]
        except Exception:  # a key bound to a widget on another page; Streamlit owns it
            continue
    if unknown:
        more = f" and {len(unknown) - 5} more" if len(unknown) > 5 else ""
        notice(f"Ignored {len(unknown)} unknown link parameter(s): "
               + ", ".join(shown(k, 30) for k in unknown[:5]) + more)
    for msg in st.session_state.get(_NOTICES, []):
        st.toast(msg, icon=":material/link_off:")
    st.session_state[_NOTICES] = []


def cohort() -> str:
    v = st.session_state.get("cohort", DEFAULT_COHORT)
    return v if v in COHORTS else DEFAULT_COHORT


def access_levels() -> tuple[str, ...]:
    v = st.session_state.get("access") or list(ACCESS)
    return tuple(a for a in ACCESS if a in v) or ACCESS


def multi_values(options: Iterable[str]) -> Callable[[str], bool]:
    opts = set(options)
    return lambda v: v in opts
