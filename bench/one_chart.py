"""The one plotly chart every reference page of the browser bench shows (bench/reference_app.py, the bare
yardstick; bench/shell_reference.py, the app's own shell with this chart as its page)."""
from __future__ import annotations

import plotly.graph_objects as go
import streamlit as st


def one_chart(title: str = "Reference: one chart", key: str = "ref") -> None:
    st.title(title)
    st.plotly_chart(go.Figure(go.Scatter(x=list(range(50)), y=[i * i for i in range(50)], mode="markers")),
                    key=key, width="stretch")
