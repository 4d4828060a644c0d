"""AppTest helper for the critique pages: open a page as a shared link would.

`helpers.open_page(file, query)` seeds the query before the first run, which lands on the home page; the home
page's `state.finish_run()` drops every key it did not declare, so a page's own keys (`step`, `study`, `topic`,
`thread`) never reach that page. Here the sidebar's keys (`cohort`, `access`) are seeded before the first run and
the page's own keys again after switching, before the page's first run: the page then starts from the link.
"""
from __future__ import annotations

from streamlit.testing.v1 import AppTest

from .helpers import ROOT, TIMEOUT, assert_clean

SIDEBAR_KEYS = ("cohort", "access")


def open_at(file: str, query: dict[str, str | list[str]] | None = None) -> AppTest:
    query = query or {}
    at = AppTest.from_file(str(ROOT / "Home.py"), default_timeout=TIMEOUT)
    for k, v in query.items():
        if k in SIDEBAR_KEYS:
            at.query_params[k] = v
    at.run()
    at.switch_page(file)
    for k, v in query.items():
        if k not in SIDEBAR_KEYS:
            at.query_params[k] = v
    at.run()
    assert_clean(at)
    return at


def page_links(at: AppTest) -> list[tuple[str, str, str]]:
    """(label, page, query string) of every st.page_link on the page."""
    return [(p.proto.label, p.proto.page, p.proto.query_string) for p in at.get("page_link")]
