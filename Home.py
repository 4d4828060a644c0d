"""HELM Explorer: the router. Page config, sidebar (dataset, cohort, access), navigation."""
from __future__ import annotations

import streamlit as st

from helm_core import fmt
from ui import cache, components, datasets, nav, presenter, run_gate, showtime, state, viewport, warm_up

state.start_run()
presenter.read_url()
# A local icon: a ":material/..." page icon makes the browser fetch it from a font CDN (no network on stage).
st.set_page_config(page_title="HELM Explorer", page_icon=str(nav.ROOT / "ui" / "favicon.png"), layout="wide",
                   initial_sidebar_state="collapsed" if viewport.presenting() else "auto")

# A server path given at start-up (`streamlit run Home.py -- --helm-output PATH`, or HELM_OUTPUT) is loaded
# once per process and offered to every session; uploads stay in the session that made them. Before the
# navigation: a page title that names classic's shape is replaced on any other dataset.
configured_error = datasets.ensure_configured_output()
later = not cache.active_release().is_classic

pages = {}
for spec in nav.available_pages():
    page = st.Page(spec.file, title=nav.title(spec, later), icon=spec.icon, url_path=spec.url_path or None,
                   default=spec.url_path == "")
    pages.setdefault(spec.section, []).append(page)
for spec in nav.HIDDEN:  # reached by their own links only (the speaker view)
    pages.setdefault(spec.section, []).append(
        st.Page(spec.file, title=spec.title, icon=spec.icon, url_path=spec.url_path, visibility="hidden"))
# The app draws its own page list (below, `nav.sidebar_links`): Streamlit's sidebar navigation with sections puts
# its list items in section boxes inside one list, which a screen reader cannot read as a list (axe: `list`,
# `listitem`), and draws its links in faded text (3.8:1).
pg = st.navigation(pages, position="hidden")
# The window's title names the page (WCAG 2.4.2), then the app; the first call set only the app's name, before the
# page was known.
st.set_page_config(page_title=f"{pg.title} · HELM Explorer")
if pg.url_path == "speaker":
    # The speaker view draws no sidebar: it shows the presenter's release and cohort, not its own.
    viewport.page_css()
    pg.run()
    state.finish_run()
    st.stop()
presenter.switch_early(pg.url_path)  # a Previous/Next press that leaves this page: switch before drawing anything
showtime.follow_from_url()  # `?follow=<room code>`: this session follows a presenter's room

with st.sidebar:
    st.markdown("### HELM Explorer")
    nav.sidebar_links(pages)
    if configured_error:
        st.error(components.text(f"Could not load the HELM output given at start-up: {configured_error}"),
                 icon=":material/error:")
    # The bundled release every page shows (classic, or a later HELM leaderboard); in the URL as `release=`.
    state.allow("release", cache.RELEASES)
    st.radio(
        "Release", options=list(cache.RELEASES), captions=list(cache.RELEASES.values()), index=0,
        key="release", bind="query-params",
        help="Which bundled HELM leaderboard every page shows: classic v0.4.0 (seven metric groups), or the later "
             "Lite and Capabilities boards (accuracy and efficiency only). See Moving Targets.",
    )
    if cache.session_dataset_keys():
        # Shown only once this session has loaded something; not in the URL (uploads are private).
        # The options are the datasets' (unique) labels; the callback maps the choice back to its key.
        st.session_state["dataset_choice"] = datasets.dataset_label(cache.active_release_key())
        st.radio(
            "Dataset", options=list(datasets.dataset_options()),
            key="dataset_choice", on_change=datasets.choose_dataset_from_widget,
            help="Which data every page shows: the bundled HELM release chosen above, or HELM output you loaded "
                 "on the Bring Your Own HELM Output page.",
        )
        if not cache.uses_bundled():
            st.caption("Release applies when the dataset is the bundled one.")
    state.allow("cohort", state.COHORTS)
    rel = cache.active_release()
    cohort_applies = cache.cohort_applies(rel)
    # Bound widgets write their option text into the URL, so options are the URL tokens themselves.
    st.radio(
        "Cohort", options=list(state.COHORTS), captions=list(state.COHORTS.values()),
        index=list(state.COHORTS).index(state.DEFAULT_COHORT),
        key="cohort", bind="query-params", disabled=not cohort_applies,
        help="Which models every page uses: the models the 2022 paper ran on the core scenarios (the default), "
             "or all models of the loaded release.",
    )
    if not cohort_applies:
        st.caption(components.text(f"The cohort applies to HELM classic only: the 2022 paper cohort is a classic "
                                   f"notion, so every model of {rel.name} is used."))
    state.allow("access", state.ACCESS, multi=True)
    st.multiselect(
        "Access", options=list(state.ACCESS), default=list(state.ACCESS), key="access", bind="query-params",
        help="HELM's access levels: open weights, limited (API), closed (no public access).",
    )
    models = cache.active_models()
    fallback = cohort_applies and cache.active_cohort() != state.cohort()
    st.caption(components.text(f"{fmt.count(len(models), 'model')} selected · {rel.name}")
               + (" · no model of this dataset is in the 2022 paper's cohort, so every model is shown" if fallback else ""))
    presenter.toggle()
    viewport.theme_control()
    viewport.probe()  # phone or not (ui.viewport); mounted in the sidebar, so it takes no room on the page

viewport.page_css()

showtime.resume_room()  # presenter mode: a reloaded window gets its live room back
follow_slot = st.container() if showtime.following() else None
counter = (presenter.bar(pg.url_path, on_step=showtime.publish, tools=lambda: showtime.bar_tools(pg.url_path))
           if viewport.presenting() else None)
showtime.stage_panel()
if follow_slot is not None:
    with follow_slot:
        showtime.follow_bar(pg.url_path)
# Page runs take turns (ui/run_gate.py): an audience that joins at once is served one after another, the median
# viewer long before the last, instead of every run sharing the interpreter and finishing together. The
# presenter's own runs never wait.
with run_gate.slot(wait=not viewport.presenting()):
    pg.run()
if counter is not None:
    presenter.show_counter(counter, pg.url_path)
presenter.write_url()
state.finish_run()
showtime.publish(pg.url_path)  # presenter mode with a live room: this slide and its state, for the room
showtime.take_commands(pg.url_path)  # and the speaker view's Next / Previous / Jump
# Once per process, after the first page has run: the bundled files pages read on their first visit, read in the
# background so no visitor (or presenter's PageDown) waits for them.
warm_up.start_warm_up()
