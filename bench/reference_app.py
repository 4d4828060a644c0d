"""The yardstick for browser timings: a bare Streamlit app (no sidebar, no navigation menu) of two pages, each
one plotly chart and a link to the other page. `/` alone is the bare one-chart page that first loads (and the
app's shell, bench/shell_reference.py) are compared with; following a page's link is the page switch that the
demo walk's PageDown steps are compared with."""
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import streamlit as st  # noqa: E402

from bench.one_chart import one_chart  # noqa: E402


def first() -> None:
    one_chart("Reference: one chart", key="ref")
    st.page_link(pages[1], label="Next page", icon=":material/arrow_forward:")


def second() -> None:
    one_chart("Reference: another chart", key="ref2")
    st.page_link(pages[0], label="Previous page", icon=":material/arrow_back:")


pages = [st.Page(first, title="One chart", default=True), st.Page(second, title="Another chart", url_path="two")]
st.navigation(pages, position="hidden").run()
