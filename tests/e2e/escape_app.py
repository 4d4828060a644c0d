"""A page for tests/e2e/test_escape_browser.py: names full of Markdown, HTML and Streamlit syntax shown through
helm_core.escape in each destination (Markdown, a caption, a Markdown table, plotly text)."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import plotly.graph_objects as go  # noqa: E402
import streamlit as st  # noqa: E402

from helm_core.escape import chart_label, markdown, table_cell  # noqa: E402
from tests.e2e.test_escape_browser import NAMES  # noqa: E402

for i, name in enumerate(NAMES):
    with st.container(key=f"md_{i}"):
        st.markdown(markdown(name))
with st.container(key="captions"):
    for name in NAMES:
        st.caption(markdown(name))
with st.container(key="table"):
    st.markdown("| name | n |\n|---|---:|\n" + "\n".join(f"| {table_cell(n)} | {i} |" for i, n in enumerate(NAMES)))
fig = go.Figure(go.Bar(x=[chart_label(n) for n in NAMES], y=list(range(1, len(NAMES) + 1))))
fig.update_layout(title=chart_label(NAMES[0]), height=500)
st.plotly_chart(fig, key="chart")
