"""Editable content (claims, and the TOML files of the critique pages), loaded and validated.

Content lives in data/*.toml so it can be edited without touching code.
"""
from __future__ import annotations

import re as _re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import parse_qsl as _parse_qsl
from urllib.parse import urlencode as _urlencode
from urllib.parse import urlsplit as _urlsplit

import pandas as pd

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


def read_toml(path: Path) -> dict:
    if not path.exists():
        raise DataError(f"{path.name}: content file is missing from {path.parent}")
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise DataError(f"{path.name}: not valid TOML ({exc})") from exc


def prose(text: str) -> str:
    """Markdown prose from a TOML multi-line string: lines wrapped in the file are joined into one paragraph
    (a renderer that keeps single newlines would show a stray break), blank lines still separate paragraphs,
    and list items ("- ...") keep their own lines."""
    paragraphs = _re.split(r"\n\s*\n", text.strip())
    out = []
    for para in paragraphs:
        lines = [ln.strip() for ln in para.splitlines() if ln.strip()]
        joined: list[str] = []
        for ln in lines:
            if joined and not ln.startswith(("- ", "* ", "1. ", "|")) and not joined[-1].startswith("|"):
                joined[-1] += " " + ln
            else:
                joined.append(ln)
        out.append("\n".join(joined))
    return "\n\n".join(out)


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


# ============================================================================ critique-page content
# data/limits.toml, data/studies.toml, data/threads.toml and data/references.toml, loaded into frozen
# dataclasses. Every loader raises DataError naming the file and the entry when something is wrong.
# Cross-file checks (claim ids, reference ids, deep-link pages) are in `content_problems`, which
# takes the set of registered url paths from the caller (helm_core does not import the UI).

EVIDENCE_KINDS: dict[str, str] = {
    "dense": "headline counts of the cohort: models, scenarios, share of cells measured",
    "blank_cells": "blank cells per metric group, by design or not run",
    "model_set": "one model's win rate against different sets of rivals",
    "seed_spread": "the widest min–max ranges over HELM's three in-context-example seeds",
    "contamination": "the cells HELM flags as contaminated (☠ strong, ⚠ weaker)",
    "moving_target": "the paper's numbers for one cell beside this release's",
    "release_groups": "the metric groups each bundled release measures (HELM classic and its successors)",
    "claims": "paper claims only (the data cannot show this)",
}
STUDY_KINDS = ("evaluation", "grouped")  # grouped = listed with the targeted scenarios but not one of the 7
REFERENCE_KINDS = ("work", "release", "repository")
BIBTYPES = ("article", "inproceedings", "misc")
# A URL only where the fact sheet gives one, in one of these forms (see data/references.toml).
ALLOWED_URL_PREFIXES = ("https://arxiv.org/abs/", "https://aclanthology.org/", "https://github.com/",
                        "https://crfm.stanford.edu/")
_ID_RE = _re.compile(r"^[A-Za-z0-9_-]+$")
_ARXIV_RE = _re.compile(r"^\d{4}\.\d{4,5}$")
_PATH_RE = _re.compile(r"^[a-z0-9_-]*$")


@dataclass(frozen=True)
class Link:
    """A deep link into this app: `target` is "<url_path>" or "<url_path>?key=value&...".
    The empty url path is the home page."""
    label: str
    target: str

    @property
    def page(self) -> str:
        return _urlsplit(self.target).path

    @property
    def query_items(self) -> list[tuple[str, str]]:
        """The query as (key, value) pairs; a key may repeat (multi-select widgets use ?k=a&k=b)."""
        return _parse_qsl(_urlsplit(self.target).query, keep_blank_values=True)

    @property
    def query(self) -> dict[str, str]:
        """The query as a dict (the first value of each key)."""
        out: dict[str, str] = {}
        for k, v in self.query_items:
            out.setdefault(k, v)
        return out

    @property
    def href(self) -> str:
        """A relative URL ("/<page>?k=v", encoded) for a markdown link."""
        q = self.query_items
        return "/" + self.page + ("?" + _urlencode(q) if q else "")


@dataclass(frozen=True)
class Step:
    id: str
    title: str
    text: str
    evidence: str
    claims: tuple[str, ...] = ()
    links: tuple[Link, ...] = ()


@dataclass(frozen=True)
class StudyScenario:
    name: str
    metric: str
    new: bool = True  # False: a core scenario the study reuses


@dataclass(frozen=True)
class Study:
    id: str
    name: str
    kind: str
    section: str
    summary: str
    scenarios: tuple[StudyScenario, ...]
    metrics: tuple[str, ...]
    finding: str
    claim: str
    more_claims: tuple[str, ...] = ()

    @property
    def new_scenarios(self) -> tuple[StudyScenario, ...]:
        return tuple(s for s in self.scenarios if s.new)

    @property
    def reused_scenarios(self) -> tuple[StudyScenario, ...]:
        return tuple(s for s in self.scenarios if not s.new)


@dataclass(frozen=True)
class NumericFinding:
    """A paper claim that carries numbers, with a label for each of its values (for a chart)."""
    claim: str
    title: str
    labels: tuple[str, ...]
    unit: str
    lower_is_better: bool = False


@dataclass(frozen=True)
class Studies:
    studies: tuple[Study, ...]
    numeric_findings: tuple[NumericFinding, ...]
    why_narrow: str

    @property
    def evaluations(self) -> tuple[Study, ...]:
        return tuple(s for s in self.studies if s.kind == "evaluation")

    def by_id(self, study_id: str) -> Study:
        for s in self.studies:
            if s.id == study_id:
                return s
        raise KeyError(study_id)


@dataclass(frozen=True)
class Episode:
    title: str
    url: str
    date: str = ""


@dataclass(frozen=True)
class Thread:
    id: str
    title: str
    shows: str
    claims: tuple[str, ...]
    links: tuple[Link, ...]
    references: tuple[str, ...]
    episodes: tuple[Episode, ...] = ()
    number: str = ""  # the kind of number the thread rests on (helm_core.threads.NUMBER_KINDS)
    number_view: str = ""  # the target of the link (one of `links`) whose view shows that number

    @property
    def number_link(self) -> Link | None:
        """The link whose view shows the thread's number."""
        return next((link for link in self.links if link.target == self.number_view), None)


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


# ----------------------------------------------------------------------------- helpers


def _entries(raw: dict, table: str, fname: str) -> list[dict]:
    entries = raw.get(table, [])
    if not isinstance(entries, list) or not entries or not all(isinstance(e, dict) for e in entries):
        raise DataError(f"{fname}: expected one or more [[{table}]] tables")
    return entries


def _str_list(entry: dict, field: str, where: str, *, required: bool = False) -> tuple[str, ...]:
    v = entry.get(field, [])
    if not isinstance(v, list) or not all(isinstance(x, str) and x.strip() for x in v):
        raise DataError(f"{where}: '{field}' must be a list of non-empty strings")
    if required and not v:
        raise DataError(f"{where}: '{field}' must list at least one entry")
    return tuple(v)


def _str(entry: dict, field: str, where: str, default: str = "") -> str:
    v = entry.get(field, default)
    if not isinstance(v, str):
        raise DataError(f"{where}: '{field}' must be a string, found {type(v).__name__}")
    return v


def _bool(entry: dict, field: str, where: str, default: bool) -> bool:
    v = entry.get(field, default)
    if not isinstance(v, bool):
        raise DataError(f"{where}: '{field}' must be true or false")
    return v


def _check_id(value: str, where: str, seen: set[str]) -> None:
    if not _ID_RE.match(value):
        raise DataError(f"{where}: id {value!r} may only use letters, digits, '-' and '_'")
    if value in seen:
        raise DataError(f"{where}: id {value!r} is used twice")
    seen.add(value)


def _links(entry: dict, where: str) -> tuple[Link, ...]:
    raw = entry.get("links", [])
    if not isinstance(raw, list):
        raise DataError(f"{where}: 'links' must be a list of {{label, target}} tables")
    out = []
    for j, link in enumerate(raw, start=1):
        lw = f"{where}, link #{j}"
        if not isinstance(link, dict):
            raise DataError(f"{lw}: expected a table with 'label' and 'target'")
        require_fields(link, ("label",), lw)
        target = link.get("target")
        if not isinstance(target, str):
            raise DataError(f"{lw}: missing required field 'target' (a url path such as \"grid\" or \"limits?step=2\")")
        parts = _urlsplit(target)
        if parts.scheme or parts.netloc or target.startswith("/") or not _PATH_RE.match(parts.path):
            raise DataError(f"{lw}: target {target!r} must be a page of this app, e.g. \"grid\" or \"limits?step=2\"")
        out.append(Link(label=link["label"], target=target))
    return tuple(out)


def _default(path: str | Path | None, name: str) -> Path:
    return Path(path) if path is not None else BUNDLED / name


# ----------------------------------------------------------------------------- loaders


def load_steps(path: str | Path | None = None) -> tuple[Step, ...]:
    """The stepper of the limits page, in order, from data/limits.toml."""
    p = _default(path, "limits.toml")
    raw = read_toml(p)
    seen: set[str] = set()
    out = []
    for i, e in enumerate(_entries(raw, "step", p.name), start=1):
        where = f"{p.name}: step #{i} ({e.get('id', 'no id')})"
        require_fields(e, ("id", "title", "text", "evidence"), where)
        _check_id(e["id"], where, seen)
        if e["evidence"] not in EVIDENCE_KINDS:
            raise DataError(f"{where}: evidence {e['evidence']!r} is not one of {', '.join(EVIDENCE_KINDS)}")
        claims = _str_list(e, "claims", where)
        if e["evidence"] == "claims" and not claims:
            raise DataError(f"{where}: a step whose evidence is 'claims' must list at least one claim")
        out.append(Step(id=e["id"], title=e["title"], text=prose(e["text"]), evidence=e["evidence"],
                        claims=claims, links=_links(e, where)))
    return tuple(out)


def load_studies(path: str | Path | None = None) -> Studies:
    """The targeted evaluations, their scenarios and key findings, from data/studies.toml."""
    p = _default(path, "studies.toml")
    raw = read_toml(p)
    seen: set[str] = set()
    studies = []
    for i, e in enumerate(_entries(raw, "study", p.name), start=1):
        where = f"{p.name}: study #{i} ({e.get('id', 'no id')})"
        require_fields(e, ("id", "name", "kind", "section", "summary", "finding", "claim"), where)
        _check_id(e["id"], where, seen)
        if e["kind"] not in STUDY_KINDS:
            raise DataError(f"{where}: kind {e['kind']!r} is not one of {', '.join(STUDY_KINDS)}")
        scen_raw = e.get("scenarios", [])
        if not isinstance(scen_raw, list) or not scen_raw:
            raise DataError(f"{where}: 'scenarios' must list at least one {{name, metric}} table")
        scenarios = []
        for j, s in enumerate(scen_raw, start=1):
            sw = f"{where}, scenario #{j}"
            if not isinstance(s, dict):
                raise DataError(f"{sw}: expected a table with 'name' and 'metric'")
            require_fields(s, ("name", "metric"), sw)
            scenarios.append(StudyScenario(name=s["name"], metric=s["metric"], new=_bool(s, "new", sw, True)))
        names = [s.name for s in scenarios]
        if len(set(names)) != len(names):
            raise DataError(f"{where}: a scenario is listed twice")
        studies.append(Study(
            id=e["id"], name=e["name"], kind=e["kind"], section=e["section"], summary=e["summary"],
            scenarios=tuple(scenarios), metrics=_str_list(e, "metrics", where, required=True),
            finding=e["finding"], claim=e["claim"], more_claims=_str_list(e, "more_claims", where),
        ))
    findings = []
    for i, e in enumerate(raw.get("numeric_finding", []) or [], start=1):
        where = f"{p.name}: numeric_finding #{i} ({e.get('claim', 'no claim') if isinstance(e, dict) else '?'})"
        if not isinstance(e, dict):
            raise DataError(f"{where}: expected a table")
        require_fields(e, ("claim", "title", "unit"), where)
        findings.append(NumericFinding(claim=e["claim"], title=e["title"],
                                       labels=_str_list(e, "labels", where, required=True), unit=e["unit"],
                                       lower_is_better=_bool(e, "lower_is_better", where, False)))
    require_fields(raw, ("why_narrow",), p.name)
    return Studies(studies=tuple(studies), numeric_findings=tuple(findings), why_narrow=_str(raw, "why_narrow", p.name))


def load_threads(path: str | Path | None = None) -> tuple[Thread, ...]:
    """The related threads, from data/threads.toml. `episodes` stays empty until a presenter adds real ones."""
    p = _default(path, "threads.toml")
    raw = read_toml(p)
    seen: set[str] = set()
    out = []
    for i, e in enumerate(_entries(raw, "thread", p.name), start=1):
        where = f"{p.name}: thread #{i} ({e.get('id', 'no id')})"
        require_fields(e, ("id", "title", "shows"), where)
        _check_id(e["id"], where, seen)
        links = _links(e, where)
        if not links:
            raise DataError(f"{where}: 'links' must hold at least one deep link into this app")
        eps_raw = e.get("episodes", [])
        if not isinstance(eps_raw, list):
            raise DataError(f"{where}: 'episodes' must be a list of {{title, url}} tables (or empty)")
        episodes = []
        for j, ep in enumerate(eps_raw, start=1):
            ew = f"{where}, episode #{j}"
            if not isinstance(ep, dict):
                raise DataError(f"{ew}: expected a table with 'title' and 'url'")
            require_fields(ep, ("title", "url"), ew)
            if not ep["url"].startswith("https://"):
                raise DataError(f"{ew}: url must start with https://")
            episodes.append(Episode(title=ep["title"], url=ep["url"], date=_str(ep, "date", ew)))
        number, number_view = _str(e, "number", where), _str(e, "number_view", where)
        if number:
            from .threads import NUMBER_KINDS

            if number not in NUMBER_KINDS:
                raise DataError(f"{where}: number {number!r} is not one of {', '.join(NUMBER_KINDS)}")
            if number_view not in {link.target for link in links}:
                raise DataError(f"{where}: number_view {number_view!r} must be the target of one of its links")
        out.append(Thread(id=e["id"], title=e["title"], shows=prose(e["shows"]),
                          claims=_str_list(e, "claims", where), links=links,
                          references=_str_list(e, "references", where, required=True),
                          episodes=tuple(episodes), number=number, number_view=number_view))
    return tuple(out)


def load_references(path: str | Path | None = None) -> References:
    """The source trail and data provenance, from data/references.toml."""
    p = _default(path, "references.toml")
    raw = read_toml(p)
    topics = raw.get("topics")
    if not isinstance(topics, dict) or not topics or not all(isinstance(v, str) and v for v in topics.values()):
        raise DataError(f"{p.name}: expected a [topics] table mapping each topic to a description")
    for t in topics:
        if not _ID_RE.match(t):
            raise DataError(f"{p.name}: topic {t!r} may only use letters, digits, '-' and '_'")
    seen: set[str] = set()
    out = []
    for i, e in enumerate(_entries(raw, "reference", p.name), start=1):
        where = f"{p.name}: reference #{i} ({e.get('id', 'no id')})"
        require_fields(e, ("id", "kind", "title"), where)
        _check_id(e["id"], where, seen)
        kind = e["kind"]
        if kind not in REFERENCE_KINDS:
            raise DataError(f"{where}: kind {kind!r} is not one of {', '.join(REFERENCE_KINDS)}")
        bibtype = _str(e, "bibtype", where, "misc")
        if bibtype not in BIBTYPES:
            raise DataError(f"{where}: bibtype {bibtype!r} is not one of {', '.join(BIBTYPES)}")
        ref_topics = _str_list(e, "topics", where, required=True)
        unknown = [t for t in ref_topics if t not in topics]
        if unknown:
            raise DataError(f"{where}: topic {unknown[0]!r} is not listed in [topics]")
        authors = _str_list(e, "authors", where)
        fields = {f: _str(e, f, where) for f in ("org", "year", "venue", "pages", "arxiv", "acl_anthology",
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
                             authors=authors, et_al=_bool(e, "et_al", where, False), **fields))
    return References(topics=dict(topics), references=tuple(out))


# ----------------------------------------------------------------------------- cross-file checks


def link_problems(links, url_paths) -> list[str]:
    """Deep links whose page is not one of `url_paths` (the app's registered pages)."""
    known = set(url_paths)
    return [f"{l.label!r} -> {l.target!r}: no page with url path {l.page!r}" for l in links if l.page not in known]


def content_problems(claims: dict[str, Claim], steps, studies: Studies, threads, refs: References,
                     url_paths) -> list[str]:
    """Everything that points somewhere it should not: unknown claim or reference ids, deep links to
    pages that are not registered, labels that do not match a claim's values, state the pages reject."""
    problems: list[str] = []
    ref_ids = {r.id for r in refs.references}

    def need_claim(cid: str, where: str) -> None:
        if cid not in claims:
            problems.append(f"{where}: unknown claim {cid!r}")

    for s in steps:
        for c in s.claims:
            need_claim(c, f"limits.toml step {s.id}")
        problems += [f"limits.toml step {s.id}: {p}" for p in link_problems(s.links, url_paths)]
    for st_ in studies.studies:
        for c in (st_.claim, *st_.more_claims):
            need_claim(c, f"studies.toml study {st_.id}")
    for f in studies.numeric_findings:
        need_claim(f.claim, "studies.toml numeric_finding")
        if f.claim in claims and len(claims[f.claim].values) != len(f.labels):
            problems.append(f"studies.toml numeric_finding {f.claim}: {len(f.labels)} labels for "
                            f"{len(claims[f.claim].values)} values")
    for t in threads:
        for c in t.claims:
            need_claim(c, f"threads.toml thread {t.id}")
        for r in t.references:
            if r not in ref_ids:
                problems.append(f"threads.toml thread {t.id}: unknown reference {r!r}")
        problems += [f"threads.toml thread {t.id}: {p}" for p in link_problems(t.links, url_paths)]
    # State on this area's own pages must be state those pages accept.
    all_links = [l for s in steps for l in s.links] + [l for t in threads for l in t.links]
    valid = {"limits": ("step", {str(i) for i in range(1, len(steps) + 1)}),
             "studies": ("study", {s.id for s in studies.evaluations}),
             "threads": ("thread", {t.id for t in threads}),
             "references": ("topic", set(refs.topics))}
    for l in all_links:
        if l.page not in valid:
            continue
        key, allowed = valid[l.page]
        for k, v in l.query_items:
            if k != key:
                problems.append(f"{l.target!r}: the {l.page} page has no link parameter {k!r}")
            elif v not in allowed:
                problems.append(f"{l.target!r}: {v!r} is not a valid {key} (one of {', '.join(sorted(allowed))})")
    return problems


def numeric_findings_frame(studies: Studies, claims: dict[str, Claim]) -> pd.DataFrame:
    """One row per value of each numeric finding, taken from the claims (the paper's numbers, not the data).
    Columns: claim, title, label, value, unit, confidence, source, lower_is_better.
    Raises DataError when a finding names an unknown claim or its labels do not match the claim's values."""
    rows = []
    for f in studies.numeric_findings:
        c = claims.get(f.claim)
        if c is None:
            raise DataError(f"studies.toml: numeric_finding names unknown claim {f.claim!r}")
        if len(c.values) != len(f.labels):
            raise DataError(f"studies.toml: numeric_finding {f.claim!r} has {len(f.labels)} labels for "
                            f"{len(c.values)} values in claims.toml")
        for label, v in zip(f.labels, c.values):
            rows.append({"claim": f.claim, "title": f.title, "label": label, "value": v, "unit": f.unit,
                         "confidence": c.confidence, "source": c.source, "lower_is_better": f.lower_is_better})
    return pd.DataFrame(rows, columns=["claim", "title", "label", "value", "unit", "confidence", "source",
                                       "lower_is_better"])


def studies_table(studies: Studies, claims: dict[str, Claim]) -> pd.DataFrame:
    """One row per study: name, section, how many new and reused scenarios, the scenarios, the metrics, the key
    finding and its claim's confidence. Columns: id, study, kind, section, new_scenarios, reused_core, scenarios,
    metrics, finding, confidence."""
    rows = []
    for s in studies.studies:
        c = claims.get(s.claim)
        rows.append({
            "id": s.id, "study": s.name, "kind": s.kind, "section": s.section,
            "new_scenarios": len(s.new_scenarios), "reused_core": len(s.reused_scenarios),
            "scenarios": ", ".join(x.name for x in s.scenarios), "metrics": ", ".join(s.metrics),
            "finding": s.finding, "confidence": c.confidence if c else "unknown claim",
        })
    return pd.DataFrame(rows, columns=["id", "study", "kind", "section", "new_scenarios", "reused_core", "scenarios",
                                       "metrics", "finding", "confidence"])


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


def load_time_plan(path: Path | None = None) -> dict[str, float]:
    """The speaker view's default plan (data/showtime.toml): minutes per section, keyed by the page's url path.
    Each budget is a number from 0 to 120 minutes."""
    path = path or BUNDLED / "showtime.toml"
    raw = read_toml(path).get("plan")
    if not isinstance(raw, dict):
        raise DataError(f"{path.name}: missing the [plan] table (minutes per section)")
    plan: dict[str, float] = {}
    for key, minutes in raw.items():
        if isinstance(minutes, bool) or not isinstance(minutes, (int, float)) or not 0 <= minutes <= 120:
            raise DataError(f"{path.name}: [plan] {key!r} must be a number of minutes from 0 to 120, not {minutes!r}")
        plan[str(key)] = float(minutes)
    return plan
