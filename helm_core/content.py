"""Editable content (claims, and the TOML files of the critique pages), loaded and validated.

Content lives in data/*.toml so it can be edited without touching code.
"""
from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

from .data import BUNDLED, DataError

CONFIDENCE_LEVELS: dict[str, str] = {
    "verified": "read in a primary source (the arXiv abstract, HELM's code or config, the authors' blog)",
    "quoted": "a secondary source quoting the paper; not checked against the PDF",
    "unverified": "marked unverified: sources conflict, or only a summary says so",
}


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


def read_toml(path: Path) -> dict:
    if not path.exists():
        raise DataError(f"{path.name}: content file is missing from {path.parent}")
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise DataError(f"{path.name}: not valid TOML ({exc})") from exc


def require_fields(entry: dict, fields: tuple[str, ...], where: str) -> None:
    """Raise DataError when an entry lacks a required, non-empty field."""
    for f in fields:
        v = entry.get(f)
        if v is None or (isinstance(v, str) and not v.strip()):
            raise DataError(f"{where}: missing required field '{f}'")


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
        out[e["id"]] = Claim(
            id=e["id"], section=e["section"], statement=e["statement"], source=e["source"],
            confidence=e["confidence"], values=tuple(float(v) for v in values),
            unit=e.get("unit", ""), note=e.get("note", ""),
        )
    return out


def claims_for(claims: dict[str, Claim], section: str) -> list[Claim]:
    return [c for c in claims.values() if c.section == section]
