"""References: the source trail (data/references.toml) filtered by topic, a link for each entry where the sources
give one, a BibTeX download generated from the same file, and where this app's data comes from."""
from __future__ import annotations

import streamlit as st

from helm_core import bibtex, content
from helm_core.data import DataError
from ui import cache, components, state

load_references = st.cache_resource(show_spinner=False)(content.load_references)


@st.cache_data(max_entries=64, show_spinner=False)
def bibtex_for(topics: tuple[str, ...]) -> str:
    return bibtex.bibtex(load_references().with_topics(topics))


components.page_header("references")
rel = cache.active_release()
try:
    refs = load_references()
except DataError as exc:
    st.error(f"The references could not be loaded: {components.text(exc)}")
    st.stop()

topics = list(refs.topics)
state.allow("topic", set(topics), multi=True)
chosen = st.pills("Topic", topics, selection_mode="multi", key="topic", bind="query-params",
                  help="Show the entries of these topics (none selected = everything). The choice is in the link.")
chosen = tuple(t for t in (chosen or ()) if t in refs.topics)
st.caption(" · ".join(f"**{components.text(t)}**: {components.text(d)}" for t, d in refs.topics.items()))
shown = refs.with_topics(chosen)
st.markdown(f"**{len(shown)} of {len(refs.references)} entries**"
            + (f" on {', '.join(chosen)}" if chosen else ", all topics"))


def entry(r: content.Reference) -> None:
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
    line = f"**{components.text(r.title)}**  \n{components.text(r.author_text())}"
    line += f" ({components.text(r.year)})" if r.year else ""
    line += f". {components.text(where)}." if where else "."
    if ids:
        line += " " + components.text(" · ".join(ids)) + "."
    if r.url:
        line += f" [{components.text(r.url.removeprefix('https://').rstrip('/'))}]({r.url})"
    st.markdown(line)
    meta = [components.text(r.note)] if r.note else []
    if r.licence:
        meta.append(f"Licence: {components.text(r.licence)}")
    if r.commit:
        meta.append(f"commit `{r.commit[:12]}`")
    if r.location:
        meta.append(f"file: `{r.location}`")
    meta.append(f"Topics: {', '.join(r.topics)}. Details from {components.text(r.source)}")
    st.caption(" · ".join(meta))


works = [r for r in shown if r.kind == "work"]
if works:
    st.subheader("Papers, posts and tools")
    for r in works:
        entry(r)

st.subheader("BibTeX")
bib = bibtex_for(chosen)
st.download_button(f"Download BibTeX ({len(shown)} entries)", bib.encode("utf-8"), file_name="helm_explorer_references.bib",
                   mime="application/x-bibtex", key="references_bibtex", icon=":material/download:")
# Lazy: a closed plain expander still ships the code block, and the browser's highlighter ran on every visit.
bib_box = components.lazy_expander("Show the BibTeX", key="references_bibtex_code")
if bib_box is not None:
    with bib_box:
        st.code(bib, language="bibtex")
st.caption("Generated from data/references.toml. Where the sources give only surnames or cut an author list "
           "short, the entry does the same (\"and others\"); no field is filled in from elsewhere.")

st.subheader("Data provenance")
if rel.is_bundled:
    st.markdown(
        f"Every number computed in this app comes from **{components.text(rel.name)}**, shipped in `data/`. "
        f"{components.text(rel.meta.get('caveat', ''))}"
    )
else:
    st.info(f"The active data is **{components.text(rel.name)}**, which you loaded: its provenance is yours. "
            "The bundled data comes from the sources below.")
provenance = [r for r in refs.references if r.kind in ("release", "repository")]
components.table(
    [{"source": r.title, "what": r.note, "licence": r.licence or "not stated in the sources",
      "commit": r.commit[:12] if r.commit else "", "link": r.url} for r in provenance],
    links=("link",),
)
for r in provenance:
    if r.location:
        st.caption(f"{components.text(r.title)}: `{r.location}`")
if rel.is_bundled and rel.meta.get("source") and not rel.meta.get("every_eval_ever_commit"):  # Lite, Capabilities
    st.caption(f"data/releases/{components.text(rel.release_id)}/meta.json: {components.text(rel.meta['source'])}; "
               "SHA-256 of every input and output file in that meta.json.")
elif rel.is_bundled and rel.meta.get("source"):
    st.caption(f"data/meta.json: {components.text(rel.meta['source'])}. Converted results from commit "
               f"`{str(rel.meta.get('every_eval_ever_commit', ''))[:12]}`, schema and model metadata from "
               f"`{str(rel.meta.get('helm_repo_commit', ''))[:12]}`; SHA-256 of every input and output file in "
               "data/meta.json.")

components.onward("references")
