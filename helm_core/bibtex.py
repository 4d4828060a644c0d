"""BibTeX from data/references.toml (pure; no Streamlit).

`bibtex(refs)` returns one string with an entry per reference, in the order given. Values are escaped for
LaTeX (& % $ # _ { } ~ ^ \\), titles are double-braced so BibTeX styles keep their capitalisation, page
ranges use "--", and author lists cut short in the sources end in "and others".
"""
from __future__ import annotations

import re
from typing import Iterable

from .references import Reference

_KEY_RE = re.compile(r"^[A-Za-z0-9_:-]+$")
_LATEX_SPECIALS = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
}
_SPECIALS_RE = re.compile("|".join(re.escape(k) for k in _LATEX_SPECIALS))


def escape(text: str) -> str:
    """Escape LaTeX special characters in a field value (not used for url, which BibTeX takes verbatim)."""
    return _SPECIALS_RE.sub(lambda m: _LATEX_SPECIALS[m.group(0)], " ".join(str(text).split()))


def _pages(pages: str) -> str:
    return re.sub(r"\s*[–—-]+\s*", "--", pages.strip())


def _authors(ref: Reference) -> str:
    if ref.authors:
        names = [escape(a) for a in ref.authors]
        if ref.et_al:
            names.append("others")
        return " and ".join(names)
    if ref.org:
        return "{" + escape(ref.org) + "}"  # an organisation: braces stop BibTeX splitting it into names
    return ""


def fields(ref: Reference) -> list[tuple[str, str]]:
    """The (field, value) pairs of a reference's entry, values already formatted for BibTeX."""
    out: list[tuple[str, str]] = [("title", "{" + escape(ref.title) + "}")]
    author = _authors(ref)
    if author:
        out.append(("author", author))
    if ref.year:
        out.append(("year", escape(ref.year)))
    if ref.venue:
        venue_field = {"article": "journal", "inproceedings": "booktitle"}.get(ref.bibtype, "howpublished")
        out.append((venue_field, escape(ref.venue)))
    elif ref.kind == "repository":
        out.append(("howpublished", "GitHub repository"))
    if ref.pages:
        out.append(("pages", _pages(ref.pages)))
    if ref.issn:
        out.append(("issn", escape(ref.issn)))
    if ref.arxiv:
        out += [("eprint", ref.arxiv), ("archiveprefix", "arXiv")]
    if ref.url:
        out.append(("url", ref.url))
    notes = []
    if ref.openreview:
        notes.append(f"OpenReview id {ref.openreview}")
    if ref.acl_anthology:
        notes.append(f"ACL Anthology {ref.acl_anthology}")
    if ref.licence:
        notes.append(f"Licence: {ref.licence}")
    if ref.commit:
        notes.append(f"commit {ref.commit}")
    if ref.location:
        notes.append(ref.location)
    if ref.note:
        notes.append(ref.note)
    if notes:
        out.append(("note", escape(". ".join(n.rstrip(".") for n in notes) + ".")))
    return out


def bibtex_entry(ref: Reference) -> str:
    """One BibTeX entry, keyed by the reference id."""
    if not _KEY_RE.match(ref.id):
        raise ValueError(f"reference id {ref.id!r} cannot be a BibTeX key (letters, digits, _ : - only)")
    body = ",\n".join(f"  {name} = {{{value}}}" for name, value in fields(ref))
    return f"@{ref.bibtype}{{{ref.id},\n{body}\n}}\n"


def bibtex(refs: Iterable[Reference]) -> str:
    """All entries, separated by a blank line. Raises ValueError on a duplicate key."""
    seen: set[str] = set()
    parts = []
    for r in refs:
        if r.id in seen:
            raise ValueError(f"BibTeX key {r.id!r} is used twice")
        seen.add(r.id)
        parts.append(bibtex_entry(r))
    return "\n".join(parts)
