"""The yardstick for browser timings: a one-chart Streamlit page."""
import plotly.graph_objects as go
import streamlit as st

st.title("Reference: one chart")
st.plotly_chart(go.Figure(go.Scatter(x=list(range(50)), y=[i * i for i in range(50)], mode="markers")),
                key="ref", width="stretch")
