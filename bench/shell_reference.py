"""Bench only (served by bench/browser.py, never by the app): the app's own shell with one chart as its page.

Runs Home.py itself (router, page config, sidebar, navigation, presenter hooks), with the default page's
st.Page swapped for bench.one_chart's one plotly chart; every other page stays in the navigation menu as in the
app. First loads of the app's pages are compared with this page, and this page with the bare reference
(bench/reference_app.py), so what a page costs is told apart from what the shell costs."""
import runpy
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import streamlit as st  # noqa: E402

from bench.one_chart import one_chart  # noqa: E402

_page = st.Page


def one_chart_page() -> None:
    one_chart("Reference: one chart in the app's shell", key="ref")


def _shell_page(page, **kwargs):
    # Home.py names page files relative to the project root; this script lives in bench/.
    if kwargs.get("default"):
        return _page(one_chart_page, title=kwargs.get("title"), icon=kwargs.get("icon"), default=True)
    return _page(ROOT / page if isinstance(page, str) else page, **kwargs)


st.Page = _shell_page
try:
    runpy.run_path(str(ROOT / "Home.py"), run_name="__main__")
finally:
    st.Page = _page
