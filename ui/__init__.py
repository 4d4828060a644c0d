"""Streamlit-side helpers: caching, state, charts and shared components."""
