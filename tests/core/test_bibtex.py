"""BibTeX generated from data/references.toml."""
from __future__ import annotations

import re

import pytest

from helm_core import bibtex, references
from helm_core.references import Reference

REFS = references.load_references()
BIB = bibtex.bibtex(REFS.references)


def _entries(text: str) -> dict[str, str]:
    """Split a BibTeX string into {key: entry text}."""
    out = {}
    for m in re.finditer(r"^@(\w+)\{([^,]+),\n(.*?)\n\}\n", text, flags=re.S | re.M):
        out[m.group(2)] = m.group(0)
    return out


def _field(entry: str, name: str) -> str | None:
    m = re.search(rf"^  {name} = \{{(.*)\}},?$", entry, flags=re.M)
    return m.group(1) if m else None


@pytest.mark.parametrize("raw,escaped", [
    ("AI & ML", r"AI \& ML"),
    ("50% of_it", r"50\% of\_it"),
    ("$5 #1", r"\$5 \#1"),
    ("{braces}", r"\{braces\}"),
    ("a~b^c", r"a\textasciitilde{}b\textasciicircum{}c"),
    ("back\\slash", r"back\textbackslash{}slash"),
    ("  many   spaces\n", "many spaces"),
    ("© Zhang & Hardt – ä", r"© Zhang \& Hardt – ä"),
])
def test_escape(raw, escaped):
    assert bibtex.escape(raw) == escaped


@pytest.mark.parametrize("ref,expected", [
    (Reference(id="x2020", kind="work", title="A & B", topics=("t",), bibtype="inproceedings",
               authors=("Doe", "Roe"), year="2020", venue="EMNLP 2020", pages="1–9", acl_anthology="2020.x-1.1",
               url="https://aclanthology.org/2020.x-1.1"),
     "@inproceedings{x2020,\n  title = {{A \\& B}},\n  author = {Doe and Roe},\n  year = {2020},\n"
     "  booktitle = {EMNLP 2020},\n  pages = {1--9},\n  url = {https://aclanthology.org/2020.x-1.1},\n"
     "  note = {ACL Anthology 2020.x-1.1.}\n}\n"),
    (Reference(id="y", kind="work", title="T", topics=("t",), bibtype="article", authors=("Liang",), et_al=True,
               year="2023", venue="TMLR", arxiv="2211.09110"),
     "@article{y,\n  title = {{T}},\n  author = {Liang and others},\n  year = {2023},\n  journal = {TMLR},\n"
     "  eprint = {2211.09110},\n  archiveprefix = {arXiv}\n}\n"),
    (Reference(id="repo", kind="repository", title="owner/repo", topics=("t",), org="Some Org",
               url="https://github.com/owner/repo", licence="MIT", commit="abc"),
     "@misc{repo,\n  title = {{owner/repo}},\n  author = {{Some Org}},\n  howpublished = {GitHub repository},\n"
     "  url = {https://github.com/owner/repo},\n  note = {Licence: MIT. commit abc.}\n}\n"),
])
def test_entry_format(ref, expected):
    assert bibtex.bibtex_entry(ref) == expected


def test_bad_key_and_duplicate_key_raise():
    r = Reference(id="bad key", kind="work", title="t", topics=("t",))
    with pytest.raises(ValueError, match="BibTeX key"):
        bibtex.bibtex_entry(r)
    ok = Reference(id="k", kind="work", title="t", topics=("t",))
    with pytest.raises(ValueError, match="used twice"):
        bibtex.bibtex([ok, ok])


def test_one_entry_per_reference_in_order():
    entries = _entries(BIB)
    assert list(entries) == [r.id for r in REFS.references]


@pytest.mark.parametrize("ref", REFS.references, ids=[r.id for r in REFS.references])
def test_bundled_entries_carry_their_toml_fields(ref):
    entry = _entries(BIB)[ref.id]
    assert entry.startswith(f"@{ref.bibtype}{{{ref.id},")
    assert entry.count("{") == entry.count("}"), "unbalanced braces"
    assert _field(entry, "title") == "{" + bibtex.escape(ref.title) + "}"
    assert _field(entry, "url") == (ref.url or None)
    assert _field(entry, "eprint") == (ref.arxiv or None)
    assert _field(entry, "year") == (ref.year or None)
    if ref.et_al:
        assert _field(entry, "author").endswith(" and others")
    if ref.pages:
        assert "--" in _field(entry, "pages") and "–" not in _field(entry, "pages")
    if ref.licence:
        assert "Licence: " in _field(entry, "note")


def test_helm_paper_entry():
    e = _entries(BIB)["liang2023helm"]
    assert _field(e, "journal") == "Transactions on Machine Learning Research (TMLR)"
    assert _field(e, "issn") == "2835-8856"
    assert "OpenReview id iO4LZibEqW" in _field(e, "note")


@pytest.mark.parametrize("topics", [(), ("critique",), ("provenance", "helm")])
def test_filtered_bibtex_holds_exactly_the_filtered_entries(topics):
    wanted = [r.id for r in REFS.with_topics(topics)]
    assert list(_entries(bibtex.bibtex(REFS.with_topics(topics)))) == wanted
