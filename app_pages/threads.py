"""Related Threads: four threads that run from HELM into later work (data/threads.toml). One slide: the threads as one
compact table (thread → the view of this app that shows it → the number it rests on, computed from the loaded
release and cohort by helm_core.threads), then the chosen thread (`?thread=`) with what HELM shows, its claims, deep
links into the pages of this app with their state, references and episodes. Episode links are added by a presenter
in the content file; none are invented here."""
from __future__ import annotations

import pandas as pd
import streamlit as st

from helm_core import critique, fmt, references, threads as thread_numbers
from helm_core.data import DataError
from ui import cache, components, nav, slides, state, stepper
from ui.slides import Ctx, Slide, Table, View

load_threads = st.cache_resource(show_spinner=False)(critique.load_threads)
load_references = st.cache_resource(show_spinner=False)(references.load_references)
thread_number = cache.on_release(thread_numbers.thread_number)
TEXT = components.text


def _chosen(ctx: Ctx, threads) -> critique.Thread:
    ids = [t.id for t in threads]
    tid = ctx.get("thread", ids[0], ids)
    return next(t for t in threads if t.id == tid)


def thread_controls(ctx: Ctx) -> None:
    try:
        threads = load_threads()
    except DataError:
        return None
    ids = [t.id for t in threads]
    state.allow("thread", set(ids))
    st.segmented_control("Thread", ids, default=ids[0], required=True, key="thread", bind="query-params",
                         help="Pick a thread; the link to this page keeps the choice.")
    return None


def _number(ctx: Ctx, t: critique.Thread) -> str:
    if not t.number:
        return "–"
    value = thread_number(ctx.models, t.number) if ctx.models else None
    return value if value is not None else f"no value in {ctx.rel.name} for this cohort"


def threads_view(ctx: Ctx) -> View:
    try:
        threads = load_threads()
    except DataError as exc:
        msg = f"The threads' content could not be loaded: {TEXT(exc)}"
        return View(point=msg, empty=msg, empty_kind="warning")
    chosen = _chosen(ctx, threads)
    numbers = {t.id: _number(ctx, t) for t in threads}
    rows = pd.DataFrame([{"thread": t.title,
                          "where this app shows it": t.number_link.label if t.number_link else t.links[0].label,
                          "the number it rests on": numbers[t.id]} for t in threads])
    table = Table(rows, key="threads_table", highlight=[t.id == chosen.id for t in threads], data_name="threads")
    computed = sum(1 for t in threads if t.number and thread_number(ctx.models, t.number) is not None) \
        if ctx.models else 0
    point = (f"{fmt.count(len(threads), 'thread')} run from HELM into later work; "
             f"{computed} of them rest on a number this app computes from {TEXT(ctx.rel.name)}, one click away.")
    talk = [f"**{TEXT(t.title)}**: {TEXT(numbers[t.id])}." for t in threads]
    return View(point=point, visual=table, talk=talk,
                notes=["Each thread starts from something HELM measured, links to the view of this app that shows it "
                       "(with the state already set), and lists the papers to read next. The views use the sidebar's "
                       f"cohort: {fmt.count(len(ctx.models), 'model')} of {TEXT(ctx.rel.name)}."],
                read=f"The highlighted row is the thread shown below ({TEXT(chosen.title)}); pick another with the "
                     "Thread control. Every number is computed from the loaded release and the sidebar's cohort.")


def threads_details(ctx: Ctx, view: View, event) -> None:
    """The chosen thread: what HELM shows, its claims, deep links, references and episodes; then all four in numbers."""
    try:
        threads, refs = load_threads(), load_references()
    except DataError:
        return
    thread = _chosen(ctx, threads)
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
                line = (f"{TEXT(r.author_text())} ({TEXT(r.year)}). *{TEXT(r.title)}*. {TEXT(r.venue)}.")
                st.markdown(f"- {line}" + (f" [Link]({r.url})" if r.url else ""))
            topics = sorted({t for rid in thread.references for t in refs.by_id(rid).topics})
            st.page_link(nav.spec_for("references").file, label="These references and more, with BibTeX",
                         icon=":material/menu_book:", query_params=[("topic", t) for t in topics])
        st.markdown("**Episodes**")
        if thread.episodes:
            for ep in thread.episodes:
                st.markdown(f"- [{TEXT(ep.title)}]({ep.url})" + (f" · {TEXT(ep.date)}" if ep.date else ""))
        else:
            st.caption("No episode is linked for this thread. The project's sources name no episode titles, dates or "
                       "URLs, so none is made up; a presenter adds real ones to `data/threads.toml` "
                       "(`episodes = [{ title, url, date }]`).")
    st.markdown(f"**All {fmt.count(len(threads), 'thread')}**")
    components.table(
        [{"thread": t.title, "links into this app": len(t.links), "claims": len(t.claims),
          "references": len(t.references), "episodes": len(t.episodes)} for t in threads])


DECK = slides.Deck("threads", [
    Slide("threads", "Threads", view=threads_view, controls=thread_controls, details=threads_details),
], keep=["thread"])

if __name__ == "__main__":
    from ui import layout

    layout.render(DECK)
