"""Claims: what HELM's authors say (and notes on this app's own sources), from data/claims.toml, loaded and validated.

Each claim carries where it comes from (SOURCE_KINDS) and how sure that is (CONFIDENCE_LEVELS); `claims_table`
lays a set of them out for a page.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from .content import read_toml, require_fields
from .data import BUNDLED, DataError

CONFIDENCE_LEVELS: dict[str, str] = {
    "verified": "read in a primary source (the arXiv abstract, HELM's code or config, the authors' blog)",
    "quoted": "a secondary source quoting the paper; not checked against the PDF",
    "unverified": "marked unverified: sources conflict, or only a summary says so",
}


# What kind of source a claim rests on (its badge names it beside the confidence).
SOURCE_KINDS: dict[str, str] = {
    "paper": "2022 paper",  # the paper (abstract, or its text as quoted in study notes)
    "code": "HELM code/config",  # HELM's code, configuration or docs at a tagged commit
    "blog": "CRFM blog",  # the authors' blog posts
    "release": "release",  # a later HELM release's own tables ("HELM Lite release"; the claim's `release` names it)
    "computed": "computed here",  # computed by this app from the bundled data
}
NOTE_BADGE = "Note on sources"


@dataclass(frozen=True)
class Claim:
    id: str
    section: str
    statement: str
    source: str
    confidence: str
    values: tuple[float, ...] = ()
    unit: str = ""
    note: str = ""
    kind: str = "claim"  # "claim": something HELM's authors say; "note": a note about this app's own sources
    source_kind: str = "paper"  # one of SOURCE_KINDS (claims only)
    release: str = ""  # with source_kind "release": which release, e.g. "HELM Lite"

    @property
    def is_paper_claim(self) -> bool:
        """True for a claim (from any source kind); False for a note about this app's own sources."""
        return self.kind == "claim"

    @property
    def source_label(self) -> str:
        """The source kind in words: "2022 paper", "HELM code/config", "CRFM blog", "HELM Lite release"; "" for a
        note."""
        if not self.is_paper_claim:
            return ""
        if self.source_kind == "release":
            return f"{self.release} release"
        return SOURCE_KINDS[self.source_kind]

    @property
    def badge_label(self) -> str:
        """The badge text: source kind and confidence ("2022 paper · quoted", "HELM code/config · verified",
        "CRFM blog · verified", "HELM Lite release · verified"); "Note on sources" for a note."""
        return NOTE_BADGE if not self.is_paper_claim else f"{self.source_label} · {self.confidence}"


CLAIM_KINDS = ("claim", "note")


def load_claims(path: str | Path | None = None) -> dict[str, Claim]:
    """All claims by id, from data/claims.toml (or the given file)."""
    p = Path(path) if path is not None else BUNDLED / "claims.toml"
    raw = read_toml(p)
    entries = raw.get("claim", [])
    if not isinstance(entries, list) or not entries:
        raise DataError(f"{p.name}: expected one or more [[claim]] tables")
    out: dict[str, Claim] = {}
    for i, e in enumerate(entries, start=1):
        where = f"{p.name}: claim #{i} ({e.get('id', 'no id')})"
        require_fields(e, ("id", "section", "statement", "source", "confidence"), where)
        if e["confidence"] not in CONFIDENCE_LEVELS:
            raise DataError(f"{where}: confidence {e['confidence']!r} is not one of {', '.join(CONFIDENCE_LEVELS)}")
        if e["id"] in out:
            raise DataError(f"{where}: id {e['id']!r} is used twice")
        values = e.get("values", [])
        if not isinstance(values, list) or not all(isinstance(v, (int, float)) for v in values):
            raise DataError(f"{where}: 'values' must be a list of numbers")
        kind = e.get("kind", "claim")
        if kind not in CLAIM_KINDS:
            raise DataError(f"{where}: kind {kind!r} is not one of {', '.join(CLAIM_KINDS)}")
        source_kind, release = _source_kind(e, kind, where)
        out[e["id"]] = Claim(
            id=e["id"], section=e["section"], statement=e["statement"], source=e["source"],
            confidence=e["confidence"], values=tuple(float(v) for v in values),
            unit=e.get("unit", ""), note=e.get("note", ""), kind=kind, source_kind=source_kind, release=release,
        )
    return out


def _source_kind(e: dict, kind: str, where: str) -> tuple[str, str]:
    """A claim's source kind (required: which kind of source it rests on) and, for a later release, which one.
    A note about the app's own sources has none."""
    source_kind = e.get("source_kind")
    release = e.get("release", "")
    if kind == "note":
        if source_kind is not None or release:
            raise DataError(f"{where}: a note about this app's sources takes no 'source_kind' or 'release'")
        return "", ""
    if source_kind is None:
        raise DataError(f"{where}: missing required field 'source_kind' (one of {', '.join(SOURCE_KINDS)})")
    if source_kind not in SOURCE_KINDS:
        raise DataError(f"{where}: source_kind {source_kind!r} is not one of {', '.join(SOURCE_KINDS)}")
    if not isinstance(release, str):
        raise DataError(f"{where}: 'release' must be a string such as \"HELM Lite\"")
    if source_kind == "release" and not release.startswith("HELM "):
        raise DataError(f"{where}: source_kind 'release' needs 'release' naming it, e.g. \"HELM Lite\"")
    if source_kind != "release" and release:
        raise DataError(f"{where}: 'release' goes with source_kind 'release' only")
    return source_kind, release


def claims_for(claims: dict[str, Claim], section: str) -> list[Claim]:
    return [c for c in claims.values() if c.section == section]


def claims_table(claims: dict[str, Claim], ids) -> pd.DataFrame:
    """The claims `ids` as one table, in that order: a short head (the statement's lead before its first ": ", when
    it has one of at most 40 characters, e.g. "Missing metrics"), the rest of the statement, where it comes from and
    its confidence. Columns: claim, head, statement, source, confidence. Raises DataError for an unknown id."""
    rows = []
    for cid in ids:
        c = claims.get(cid)
        if c is None:
            raise DataError(f"unknown claim {cid!r}")
        head, sep, rest = c.statement.partition(": ")
        if not sep or len(head) > 40:
            head, rest = "", c.statement
        rows.append({"claim": cid, "head": head, "statement": rest[:1].upper() + rest[1:], "source": c.source,
                     "confidence": c.confidence})
    return pd.DataFrame(rows, columns=["claim", "head", "statement", "source", "confidence"])
