"""HELM Explorer: the router. Page config, sidebar (dataset, cohort, access), navigation."""
from __future__ import annotations

import streamlit as st

from ui import cache, nav, state

st.set_page_config(page_title="HELM Explorer", page_icon=":material/balance:", layout="wide")

state.start_run()

pages = {}
for spec in nav.available_pages():
    page = st.Page(spec.file, title=spec.title, icon=spec.icon, url_path=spec.url_path or None,
                   default=spec.url_path == "")
    pages.setdefault(spec.section, []).append(page)
pg = st.navigation(pages)

with st.sidebar:
    st.markdown("### HELM Explorer")
    state.allow("cohort", state.COHORTS)
    # Bound widgets write their option text into the URL, so options are the URL tokens themselves.
    st.radio(
        "Cohort", options=list(state.COHORTS), captions=list(state.COHORTS.values()), index=0,
        key="cohort", bind="query-params",
        help="Which models every page uses: all models of the loaded release, or the models the 2022 paper "
             "ran on the core scenarios.",
    )
    state.allow("access", state.ACCESS, multi=True)
    st.multiselect(
        "Access", options=list(state.ACCESS), default=list(state.ACCESS), key="access", bind="query-params",
        help="HELM's access levels: open weights, limited (API), closed (no public access).",
    )
    models = cache.active_models()
    st.caption(f"{len(models)} models selected · {cache.active_release().name}")

pg.run()
state.finish_run()
