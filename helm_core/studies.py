"""The targeted evaluations (data/studies.toml): the studies, their scenarios and key findings, loaded and validated.

`studies_table` and `numeric_findings_frame` lay them out for the studies page, the numbers taken from the claims.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from .claims import Claim
from .content import bool_field, content_path, id_entries, read_toml, require_fields, str_field, str_list, sub_tables
from .data import DataError

STUDY_KINDS = ("evaluation", "grouped")  # grouped = listed with the targeted scenarios but not one of the 7


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


def load_studies(path: str | Path | None = None) -> Studies:
    """The targeted evaluations, their scenarios and key findings, from data/studies.toml."""
    p = content_path(path, "studies.toml")
    raw = read_toml(p)
    studies = []
    for e, where in id_entries(raw, "study", p.name, ("name", "kind", "section", "summary", "finding", "claim")):
        if e["kind"] not in STUDY_KINDS:
            raise DataError(f"{where}: kind {e['kind']!r} is not one of {', '.join(STUDY_KINDS)}")
        scenarios = [StudyScenario(name=s["name"], metric=s["metric"], new=bool_field(s, "new", sw, True))
                     for s, sw in sub_tables(e, "scenarios", where, "scenario", ("name", "metric"), required=True)]
        names = [s.name for s in scenarios]
        if len(set(names)) != len(names):
            raise DataError(f"{where}: a scenario is listed twice")
        studies.append(Study(
            id=e["id"], name=e["name"], kind=e["kind"], section=e["section"], summary=e["summary"],
            scenarios=tuple(scenarios), metrics=str_list(e, "metrics", where, required=True),
            finding=e["finding"], claim=e["claim"], more_claims=str_list(e, "more_claims", where),
        ))
    findings = []
    for i, e in enumerate(raw.get("numeric_finding", []) or [], start=1):
        where = f"{p.name}: numeric_finding #{i} ({e.get('claim', 'no claim') if isinstance(e, dict) else '?'})"
        if not isinstance(e, dict):
            raise DataError(f"{where}: expected a table")
        require_fields(e, ("claim", "title", "unit"), where)
        findings.append(NumericFinding(claim=e["claim"], title=e["title"],
                                       labels=str_list(e, "labels", where, required=True), unit=e["unit"],
                                       lower_is_better=bool_field(e, "lower_is_better", where, False)))
    require_fields(raw, ("why_narrow",), p.name)
    return Studies(studies=tuple(studies), numeric_findings=tuple(findings),
                   why_narrow=str_field(raw, "why_narrow", p.name))


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
