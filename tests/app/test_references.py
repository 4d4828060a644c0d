"""References: topic filter bound to ?topic=, one entry per reference with its link, BibTeX built from the TOML,
data provenance with licences."""
from __future__ import annotations

import pytest

from .critique_helpers import open_at
from .helpers import open_lazy, tables, texts
from helm_core import bibtex, references
from ui import nav

PAGE = nav.spec_for("references").file
REFS = references.load_references()


def _count_line(at) -> str:
    return next(m.value for m in at.markdown if "entries**" in m.value)


def _bib(at) -> str:
    """The BibTeX code block, once its (lazy) expander is open: closed, the page ships no code block."""
    assert not at.code or at.session_state["references_bibtex_code"]
    return open_lazy(at, "Show the BibTeX").code[0].value.strip()


def test_everything_by_default():
    at = open_at(PAGE)
    n = len(REFS.references)
    assert _count_line(at).startswith(f"**{n} of {n} entries**")
    assert _bib(at) == bibtex.bibtex(REFS.references).strip()
    t = texts(at)
    for r in REFS.references:
        if r.kind == "work":
            assert r.title in t
            if r.url:
                assert f"]({r.url})" in t


@pytest.mark.parametrize("topics", [["critique"], ["efficiency"], ["helm"], ["critique", "benchmarks"]])
def test_topic_filter_narrows_entries_and_bibtex(topics):
    at = open_at(PAGE)
    at.button_group(key="topic").set_value(topics).run()
    shown = REFS.with_topics(topics)
    assert _count_line(at).startswith(f"**{len(shown)} of {len(REFS.references)} entries**")
    assert _bib(at) == bibtex.bibtex(shown).strip()
    t = texts(at)
    hidden = [r for r in REFS.references if r not in shown and r.kind == "work"]
    assert all(f"**{r.title}**" not in t for r in hidden)


def test_topic_from_the_url():
    at = open_at(PAGE, {"topic": ["critique", "efficiency"]})
    assert _count_line(at).startswith(f"**{len(REFS.with_topics(['critique', 'efficiency']))} of")


@pytest.mark.parametrize("bad", ["astrology", "", "helm,,zzz"])
def test_bad_topic_shows_everything(bad):
    at = open_at(PAGE, {"topic": bad})
    assert _count_line(at).startswith(f"**{len(REFS.references)} of")


def test_provenance_table_lists_repositories_and_licences():
    at = open_at(PAGE, {"references_section": "Data provenance"})
    prov = tables(at)[0]
    assert {"stanford-crfm/helm", "evaleval/every_eval_ever", "socialfoundations/benchbench"} <= set(prov["source"])
    lic = prov.set_index("source")["licence"]
    assert lic["stanford-crfm/helm"] == "Apache-2.0" and lic["evaleval/every_eval_ever"] == "MIT"
    t = texts(at)
    assert "HELM classic v0.4.0" in t and "releases/v0.4.0/groups/core_scenarios.json" in t


def test_bibtex_download_button():
    at = open_at(PAGE)
    bib = [b.proto for b in at.get("download_button") if "Download BibTeX (17 entries)" in b.proto.label]
    assert bib and all(b.ignore_rerun for b in bib)  # the click does not rerun the page (no race with the file)


def test_source_trail_table_lists_each_entry_with_its_kind_and_use():
    at = open_at(PAGE, {"topic": "critique"})
    shown = REFS.with_topics(["critique"])
    table = tables(at)[0]
    assert list(table["source"]) == [r.title for r in shown]
    assert set(table["kind"]) == {"paper, post or tool"}
    for r, used in zip(shown, table["used here for"]):
        assert used == "; ".join(REFS.topics[t] for t in r.topics)


def test_provenance_slide_names_the_loaded_release_and_its_sources():
    at = open_at(PAGE, {"references_section": "Data provenance"})
    n_rel = sum(r.kind == "release" for r in REFS.references)
    n_repo = sum(r.kind == "repository" for r in REFS.references)
    assert (f"Every number here comes from **HELM classic v0.4.0**, shipped in `data/` and built from {n_rel} HELM "
            f"releases and {n_repo} code repositories.") in texts(at)
    # every source in full below, with its link
    for r in REFS.references:
        if r.kind != "work" and r.url:
            assert f"]({r.url})" in texts(at)
