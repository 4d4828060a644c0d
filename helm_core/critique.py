"""The limits stepper (data/limits.toml) and the related threads (data/threads.toml), with the deep links they carry.

Loaded into frozen dataclasses and validated. Cross-file checks over all the critique pages' content (claim ids,
reference ids, deep-link pages, the state a link sets) are in `content_problems`, which takes the set of registered
url paths from the caller (helm_core does not import the UI).
"""
from __future__ import annotations

import re as _re
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import parse_qsl as _parse_qsl
from urllib.parse import urlencode as _urlencode
from urllib.parse import urlsplit as _urlsplit

from .claims import Claim
from .content import content_path, id_entries, prose, read_toml, str_field, str_list, sub_tables
from .data import DataError
from .references import References
from .studies import Studies

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


def _links(entry: dict, where: str) -> tuple[Link, ...]:
    out = []
    for link, lw in sub_tables(entry, "links", where, "link", ("label",), shown=("label", "target")):
        target = link.get("target")
        if not isinstance(target, str):
            raise DataError(f"{lw}: missing required field 'target' (a url path such as \"grid\" or \"limits?step=2\")")
        parts = _urlsplit(target)
        if parts.scheme or parts.netloc or target.startswith("/") or not _PATH_RE.match(parts.path):
            raise DataError(f"{lw}: target {target!r} must be a page of this app, e.g. \"grid\" or \"limits?step=2\"")
        out.append(Link(label=link["label"], target=target))
    return tuple(out)


# ----------------------------------------------------------------------------- loaders


def load_steps(path: str | Path | None = None) -> tuple[Step, ...]:
    """The stepper of the limits page, in order, from data/limits.toml."""
    p = content_path(path, "limits.toml")
    out = []
    for e, where in id_entries(read_toml(p), "step", p.name, ("title", "text", "evidence")):
        if e["evidence"] not in EVIDENCE_KINDS:
            raise DataError(f"{where}: evidence {e['evidence']!r} is not one of {', '.join(EVIDENCE_KINDS)}")
        claims = str_list(e, "claims", where)
        if e["evidence"] == "claims" and not claims:
            raise DataError(f"{where}: a step whose evidence is 'claims' must list at least one claim")
        out.append(Step(id=e["id"], title=e["title"], text=prose(e["text"]), evidence=e["evidence"],
                        claims=claims, links=_links(e, where)))
    return tuple(out)


def load_threads(path: str | Path | None = None) -> tuple[Thread, ...]:
    """The related threads, from data/threads.toml. `episodes` stays empty until a presenter adds real ones."""
    p = content_path(path, "threads.toml")
    out = []
    for e, where in id_entries(read_toml(p), "thread", p.name, ("title", "shows")):
        links = _links(e, where)
        if not links:
            raise DataError(f"{where}: 'links' must hold at least one deep link into this app")
        episodes = []
        for ep, ew in sub_tables(e, "episodes", where, "episode", ("title", "url")):
            if not ep["url"].startswith("https://"):
                raise DataError(f"{ew}: url must start with https://")
            episodes.append(Episode(title=ep["title"], url=ep["url"], date=str_field(ep, "date", ew)))
        number, number_view = str_field(e, "number", where), str_field(e, "number_view", where)
        if number:
            from .threads import NUMBER_KINDS

            if number not in NUMBER_KINDS:
                raise DataError(f"{where}: number {number!r} is not one of {', '.join(NUMBER_KINDS)}")
            if number_view not in {link.target for link in links}:
                raise DataError(f"{where}: number_view {number_view!r} must be the target of one of its links")
        out.append(Thread(id=e["id"], title=e["title"], shows=prose(e["shows"]),
                          claims=str_list(e, "claims", where), links=links,
                          references=str_list(e, "references", where, required=True),
                          episodes=tuple(episodes), number=number, number_view=number_view))
    return tuple(out)


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
