"""Related Threads: four threads that run from HELM into later work (data/threads.toml), each with what HELM
shows, deep links into the pages of this app that demonstrate it, and references. Episode links are added by a
presenter in the content file; none are invented here."""
from __future__ import annotations

import streamlit as st

from helm_core import content
from helm_core.data import DataError
from ui import cache, components, nav, state, stepper

load_threads = st.cache_resource(show_spinner=False)(content.load_threads)
load_references = st.cache_resource(show_spinner=False)(content.load_references)

components.page_header("threads")
rel = cache.active_release()
models = cache.active_models()
try:
    threads = load_threads()
    refs = load_references()
except DataError as exc:
    st.error(f"The threads' content could not be loaded: {components.text(exc)}")
    st.stop()

ids = [t.id for t in threads]
state.allow("thread", set(ids))
st.markdown(
    "Each thread starts from something HELM measured, links to the view of this app that shows it (with the "
    "state already set), and lists the papers to read next. The views use the sidebar's cohort: "
    f"{len(models):,} models of {rel.name}."
)
chosen = st.segmented_control("Thread", ids, default=ids[0], required=True, key="thread", bind="query-params",
                              help="Pick a thread; the link to this page keeps the choice.")
thread = next((t for t in threads if t.id == chosen), threads[0])

with st.container(border=True):
    st.subheader(thread.title)
    st.markdown("**What HELM shows**")
    st.markdown(thread.shows)
    for cid in thread.claims:
        components.claim(cid, compact=True)
    left, right = st.columns(2)
    with left:
        st.markdown("**See it in this app**")
        stepper.deep_links(thread.links)
    with right:
        st.markdown("**Read next**")
        for rid in thread.references:
            r = refs.by_id(rid)
            line = f"{components.text(r.author_text())} ({components.text(r.year)}). *{components.text(r.title)}*. {components.text(r.venue)}."
            st.markdown(f"- {line}" + (f" [Link]({r.url})" if r.url else ""))
        topics = sorted({t for rid in thread.references for t in refs.by_id(rid).topics})
        st.page_link(nav.spec_for("references").file, label="These references and more, with BibTeX",
                     icon=":material/menu_book:", query_params=[("topic", t) for t in topics])
    st.markdown("**Episodes**")
    if thread.episodes:
        for ep in thread.episodes:
            st.markdown(f"- [{components.text(ep.title)}]({ep.url})" + (f" · {components.text(ep.date)}" if ep.date else ""))
    else:
        st.caption("No episode is linked for this thread. The project's sources name no episode titles, dates or "
                   "URLs, so none is made up; a presenter adds real ones to `data/threads.toml` "
                   "(`episodes = [{ title, url, date }]`).")

st.subheader("All four threads")
components.table(
    [{"thread": t.title, "links into this app": len(t.links), "claims": len(t.claims),
      "references": len(t.references), "episodes": len(t.episodes)} for t in threads])

components.onward("threads")
