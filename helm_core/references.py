"""The source trail and data provenance (data/references.toml): works, releases and repositories, loaded and validated.

A URL is kept only in one of the forms the sources give (ALLOWED_URL_PREFIXES), and must match the arXiv or
ACL Anthology id it stands for; helm_core.bibtex builds the BibTeX download from these references.
"""
from __future__ import annotations

import re as _re
from dataclasses import dataclass
from pathlib import Path

from .content import ID_RE, bool_field, content_path, id_entries, read_toml, require_fields, str_field, str_list
from .data import DataError

REFERENCE_KINDS = ("work", "release", "repository")
BIBTYPES = ("article", "inproceedings", "misc")
# A URL only where the fact sheet gives one, in one of these forms (see data/references.toml).
ALLOWED_URL_PREFIXES = ("https://arxiv.org/abs/", "https://aclanthology.org/", "https://github.com/",
                        "https://crfm.stanford.edu/")
_ARXIV_RE = _re.compile(r"^\d{4}\.\d{4,5}$")


@dataclass(frozen=True)
class Reference:
    id: str
    kind: str
    title: str
    topics: tuple[str, ...]
    bibtype: str = "misc"
    authors: tuple[str, ...] = ()
    et_al: bool = False
    org: str = ""
    year: str = ""
    venue: str = ""
    pages: str = ""
    arxiv: str = ""
    acl_anthology: str = ""
    openreview: str = ""
    issn: str = ""
    url: str = ""
    location: str = ""
    licence: str = ""
    commit: str = ""
    note: str = ""
    source: str = ""

    def author_text(self) -> str:
        if not self.authors:
            return self.org
        names = ", ".join(self.authors)
        return names + (", et al." if self.et_al else "")


@dataclass(frozen=True)
class References:
    topics: dict[str, str]  # topic token -> description
    references: tuple[Reference, ...]

    def by_id(self, ref_id: str) -> Reference:
        for r in self.references:
            if r.id == ref_id:
                return r
        raise KeyError(ref_id)

    def with_topics(self, topics) -> tuple[Reference, ...]:
        """References carrying any of `topics` (all of them when `topics` is empty)."""
        wanted = set(topics or ())
        if not wanted:
            return self.references
        return tuple(r for r in self.references if wanted & set(r.topics))


def load_references(path: str | Path | None = None) -> References:
    """The source trail and data provenance, from data/references.toml."""
    p = content_path(path, "references.toml")
    raw = read_toml(p)
    topics = raw.get("topics")
    if not isinstance(topics, dict) or not topics or not all(isinstance(v, str) and v for v in topics.values()):
        raise DataError(f"{p.name}: expected a [topics] table mapping each topic to a description")
    for t in topics:
        if not ID_RE.match(t):
            raise DataError(f"{p.name}: topic {t!r} may only use letters, digits, '-' and '_'")
    out = []
    for e, where in id_entries(raw, "reference", p.name, ("kind", "title")):
        kind = e["kind"]
        if kind not in REFERENCE_KINDS:
            raise DataError(f"{where}: kind {kind!r} is not one of {', '.join(REFERENCE_KINDS)}")
        bibtype = str_field(e, "bibtype", where, "misc")
        if bibtype not in BIBTYPES:
            raise DataError(f"{where}: bibtype {bibtype!r} is not one of {', '.join(BIBTYPES)}")
        ref_topics = str_list(e, "topics", where, required=True)
        unknown = [t for t in ref_topics if t not in topics]
        if unknown:
            raise DataError(f"{where}: topic {unknown[0]!r} is not listed in [topics]")
        authors = str_list(e, "authors", where)
        fields = {f: str_field(e, f, where) for f in ("org", "year", "venue", "pages", "arxiv", "acl_anthology",
                                                  "openreview", "issn", "url", "location", "licence", "commit",
                                                  "note", "source")}
        if kind == "work":
            require_fields(e, ("year", "venue", "source"), where)
            if not authors:
                raise DataError(f"{where}: a work needs 'authors'")
        else:
            require_fields(e, ("org", "source"), where)
            if not (fields["url"] or fields["location"]):
                raise DataError(f"{where}: a {kind} needs a 'url' or a 'location'")
        if kind == "repository":
            require_fields(e, ("licence", "commit", "url"), where)
        if fields["arxiv"] and not _ARXIV_RE.match(fields["arxiv"]):
            raise DataError(f"{where}: arxiv id {fields['arxiv']!r} is not of the form 2211.09110")
        url = fields["url"]
        if url and not url.startswith(ALLOWED_URL_PREFIXES):
            raise DataError(f"{where}: url {url!r} is not one the sources give "
                            f"(allowed forms: {', '.join(ALLOWED_URL_PREFIXES)})")
        if url.startswith("https://arxiv.org/abs/") and url != f"https://arxiv.org/abs/{fields['arxiv']}":
            raise DataError(f"{where}: url {url!r} does not match the arxiv id {fields['arxiv']!r}")
        if url.startswith("https://aclanthology.org/") and url.rstrip("/") != f"https://aclanthology.org/{fields['acl_anthology']}":
            raise DataError(f"{where}: url {url!r} does not match the ACL Anthology id {fields['acl_anthology']!r}")
        out.append(Reference(id=e["id"], kind=kind, title=e["title"], topics=ref_topics, bibtype=bibtype,
                             authors=authors, et_al=bool_field(e, "et_al", where, False), **fields))
    return References(topics=dict(topics), references=tuple(out))
