"""References: the source trail (data/references.toml) filtered by topic, a link for each entry where the sources
give one, a BibTeX download generated from the same file, and where this app's data comes from.

Slides: the source trail (every entry with its kind and what this app uses it for, as one table that wraps; the
full entries, links and BibTeX below) and the data provenance (the releases and repositories behind the numbers,
with licences and commits)."""
from __future__ import annotations

import pandas as pd
import streamlit as st

from helm_core import bibtex, fmt, references
from helm_core.data import DataError
from ui import cache, components, slides, state
from ui.slides import Ctx, Slide, Table, View

load_references = st.cache_resource(show_spinner=False)(references.load_references)
TEXT = components.text
KINDS = {"work": "paper, post or tool", "release": "HELM release (data)", "repository": "code repository (data)"}
KIND_SHORT = {"work": "work", "release": "release", "repository": "repository"}  # a phone's narrow column
KIND_COUNTS = {"work": ("paper, post or tool", "papers, posts or tools"), "release": ("HELM release", "HELM releases"),
               "repository": ("code repository", "code repositories")}


@st.cache_data(max_entries=64, show_spinner=False)
def bibtex_for(topics: tuple[str, ...]) -> str:
    return bibtex.bibtex(load_references().with_topics(topics))


def _broken(exc: DataError) -> View:
    msg = f"The references could not be loaded: {TEXT(exc)}"
    return View(point=msg, empty=msg, empty_kind="warning")


def _topics(ctx: Ctx, refs: references.References) -> tuple[str, ...]:
    chosen = ctx.get("topic", ()) or ()
    if isinstance(chosen, str):
        chosen = (chosen,)
    return tuple(t for t in chosen if t in refs.topics)


# ----------------------------------------------------------------------------- the source trail


def topic_controls(ctx: Ctx) -> None:
    try:
        refs = load_references()
    except DataError:
        return None
    state.allow("topic", set(refs.topics), multi=True)
    st.pills("Topic", list(refs.topics), selection_mode="multi", key="topic", bind="query-params",
             help="Show the entries of these topics (none selected = everything). The choice is in the link.")
    st.caption(" · ".join(f"**{TEXT(t)}**: {TEXT(d)}" for t, d in refs.topics.items()))
    return None


def trail_view(ctx: Ctx) -> View:
    try:
        refs = load_references()
    except DataError as exc:
        return _broken(exc)
    chosen = _topics(ctx, refs)
    shown = refs.with_topics(chosen)
    kinds_shown = KIND_SHORT if ctx.phone else KINDS
    rows = pd.DataFrame([{"source": r.title, "by": r.author_text(), "year": r.year, "kind": kinds_shown[r.kind],
                          "used here for": "; ".join(refs.topics[t] for t in r.topics)} for r in shown])
    cols = (["source", "year", "kind"] if ctx.phone else ["source", "year", "kind", "used here for"] if ctx.presenter
            else ["source", "by", "year", "kind", "used here for"])
    table = Table(rows[cols] if len(rows) else rows, key="references_trail", data_name="references")
    kinds = pd.Series([r.kind for r in shown]).value_counts()
    parts = [fmt.count(int(kinds[k]), *KIND_COUNTS[k]) for k in KIND_COUNTS if k in kinds]
    linked = sum(1 for r in shown if r.url)
    point = (f"**{len(shown)} of {len(refs.references)} entries**" + (f" on {TEXT(', '.join(chosen))}" if chosen
                                                                       else ", all topics")
             + (f": {fmt.names(parts)}; {linked} with a link the sources give." if parts else "."))
    return View(point=point, visual=table,
                talk=[f"{TEXT(t)}: {fmt.count(len(refs.with_topics((t,))), 'entry', 'entries')}."
                      for t in (chosen or tuple(refs.topics))],
                read="One row per entry of data/references.toml; the full entries, with their links, identifiers and "
                     "notes, and the BibTeX are below.")


def _entry(r: references.Reference) -> None:
    ids = []
    if r.arxiv:
        ids.append(f"arXiv {r.arxiv}")
    if r.acl_anthology:
        ids.append(f"ACL Anthology {r.acl_anthology}")
    if r.openreview:
        ids.append(f"OpenReview {r.openreview}")
    if r.issn:
        ids.append(f"ISSN {r.issn}")
    where = ", ".join(x for x in (r.venue, f"pp. {r.pages}" if r.pages else "") if x)
    line = f"**{TEXT(r.title)}**  \n{TEXT(r.author_text())}"
    line += f" ({TEXT(r.year)})" if r.year else ""
    line += f". {TEXT(where)}." if where else "."
    if ids:
        line += " " + TEXT(" · ".join(ids)) + "."
    if r.url:
        line += f" [{TEXT(r.url.removeprefix('https://').rstrip('/'))}]({r.url})"
    st.markdown(line)
    meta = [TEXT(r.note)] if r.note else []
    if r.licence:
        meta.append(f"Licence: {TEXT(r.licence)}")
    if r.commit:
        meta.append(f"commit `{r.commit[:12]}`")
    if r.location:
        meta.append(f"file: `{r.location}`")
    meta.append(f"Topics: {', '.join(r.topics)}. Details from {TEXT(r.source)}")
    st.caption(" · ".join(meta))


def trail_details(ctx: Ctx, view: View, event) -> None:
    try:
        refs = load_references()
    except DataError:
        return
    chosen = _topics(ctx, refs)
    shown = refs.with_topics(chosen)
    works = [r for r in shown if r.kind == "work"]
    if works:
        st.subheader("Papers, posts and tools")
        for r in works:
            _entry(r)
    st.subheader("BibTeX")
    bib = bibtex_for(chosen)
    st.download_button(f"Download BibTeX ({len(shown)} entries)", bib.encode("utf-8"),
                       file_name="helm_explorer_references.bib", mime="application/x-bibtex", key="references_bibtex",
                       icon=":material/download:", on_click="ignore")
    # Lazy: a closed plain expander still ships the code block, and the browser's highlighter ran on every visit.
    bib_box = components.lazy_expander("Show the BibTeX", key="references_bibtex_code")
    if bib_box is not None:
        with bib_box:
            st.code(bib, language="bibtex")
    st.caption("Generated from data/references.toml. Where the sources give only surnames or cut an author list "
               "short, the entry does the same (\"and others\"); no field is filled in from elsewhere.")


# ----------------------------------------------------------------------------- data provenance


def _first_sentence(text: str) -> str:
    """The note's first sentence (the table's short "what"; the full note is under the table)."""
    head, sep, _ = text.partition(". ")
    return head + "." if sep else text


def provenance_view(ctx: Ctx) -> View:
    try:
        refs = load_references()
    except DataError as exc:
        return _broken(exc)
    rel = ctx.rel
    provenance = [r for r in refs.references if r.kind in ("release", "repository")]
    rows = pd.DataFrame([{"source": r.title, "what": _first_sentence(r.note),
                          "licence": r.licence or "not stated in the sources",
                          "commit": r.commit[:12] if r.commit else ""} for r in provenance])
    cols = ["source", "licence"] if ctx.phone else ["source", "what", "licence", "commit"]
    table = Table(rows[cols], key="references_provenance", data_name="data_provenance")
    n_rel = sum(1 for r in provenance if r.kind == "release")
    n_repo = len(provenance) - n_rel
    sources = f"{fmt.count(n_rel, *KIND_COUNTS['release'])} and {fmt.count(n_repo, *KIND_COUNTS['repository'])}"
    if rel.is_bundled:
        point = f"Every number here comes from **{TEXT(rel.name)}**, shipped in `data/` and built from {sources}."
        notes = [f"Every number computed in this app comes from **{TEXT(rel.name)}**, shipped in `data/`. "
                 f"{TEXT(rel.meta.get('caveat', ''))}"]
    else:
        point = (f"The active data is **{TEXT(rel.name)}**, which you loaded: its provenance is yours; the bundled "
                 f"data comes from {sources}.")
        notes = [f"The active data is **{TEXT(rel.name)}**, which you loaded: its provenance is yours. The bundled "
                 "data comes from the sources below."]
    notes += [f"{TEXT(r.title)}: `{r.location}`" for r in provenance if r.location]
    if rel.is_bundled and rel.meta.get("source") and not rel.meta.get("every_eval_ever_commit"):  # Lite, Capabilities
        notes.append(f"data/releases/{TEXT(rel.release_id)}/meta.json: {TEXT(rel.meta['source'])}; SHA-256 of every "
                     "input and output file in that meta.json.")
    elif rel.is_bundled and rel.meta.get("source"):
        notes.append(f"data/meta.json: {TEXT(rel.meta['source'])}. Converted results from commit "
                     f"`{str(rel.meta.get('every_eval_ever_commit', ''))[:12]}`, schema and model metadata from "
                     f"`{str(rel.meta.get('helm_repo_commit', ''))[:12]}`; SHA-256 of every input and output file in "
                     "data/meta.json.")
    licences = sorted({r.licence for r in provenance if r.licence})
    talk = [f"{fmt.count(len(provenance), 'source')}: {sources}.",
            f"Licences stated: {fmt.names(licences) or 'none'}."]
    return View(point=point, visual=table, talk=talk, notes=notes,
                read="Each row is a release or repository this app's data is built from, with its licence and the "
                     "commit used; each in full, with its link, below.")


def provenance_details(ctx: Ctx, view: View, event) -> None:
    try:
        refs = load_references()
    except DataError:
        return
    st.subheader("The sources in full")
    for r in refs.references:
        if r.kind in ("release", "repository"):
            _entry(r)


DECK = slides.Deck("references", [
    Slide("trail", "Source trail", view=trail_view, controls=topic_controls, details=trail_details),
    Slide("provenance", "Data provenance", view=provenance_view, details=provenance_details),
], keep=["topic"])

if __name__ == "__main__":
    from ui import layout

    layout.render(DECK)
