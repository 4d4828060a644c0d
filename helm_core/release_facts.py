"""What a loaded release (and a cohort of its models) actually holds, read from the release, never assumed.

`release_facts(release, models=None, runs=None)` returns a frozen `ReleaseFacts`: how many seeds (training trials)
stand behind a cell, whether prompts carry in-context examples and how many, which perturbations and metric groups
exist, which organisations have rows, which parameter counts HELM marks speculative, whether toxicity cells exist,
how many models lack a scenario, who HELM's limited-functionality models are. Every fact is a `Fact`: its value,
and where it came from:

- "data": computed from the release's tables (e.g. HELM's "# trials" and "# train" columns, the models table);
- "meta": the release's meta.json (what the build recorded, e.g. the name of HELM's aggregate column);
- "run_spec": a user's suite, from its run_spec.json adapter specs (`num_train_trials`, `max_train_instances`),
  given as the `runs` index of a loaded HELM output (helm_core.helm_output.HelmOutput.runs);
- "fact_sheet": the project's fact sheet (HELM_FACTS.md), where the tables cannot say; with its confidence.

Pure pandas; no Streamlit. Statements built on these facts are in helm_core.statements.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Iterable

import numpy as np
import pandas as pd

from .coverage import coverage_matrix
from .data import CORE_GROUPS, Release

SOURCE_KINDS: dict[str, str] = {
    "data": "computed from the release's tables",
    "meta": "the release's metadata (meta.json)",
    "run_spec": "the suite's run_spec.json adapter specs",
    "fact_sheet": "the project's fact sheet (HELM_FACTS.md)",
}
CONFIDENCES = ("computed", "verified", "quoted", "unverified")

# HELM's limited-functionality text models (LIMITED_FUNCTIONALITY_TEXT_MODEL_TAG in v0.1.0's proxy/models.py: no
# prompt log-probabilities, so no HellaSwag, OpenBookQA or MS MARCO runs), by their current HELM ids.
# HELM_FACTS.md §2, [REPO@v0.1.0] proxy/models.py and run_specs.conf; verified.
LIMITED_FUNCTIONALITY_IDS: tuple[str, ...] = ("bigscience/t0pp", "google/t5-11b", "google/ul2", "tsinghua/glm",
                                              "yandex/yalm")
LIMITED_FUNCTIONALITY_SOURCE = ("HELM_FACTS.md §2: T0pp, T5, UL2, GLM and YaLM carry "
                                "LIMITED_FUNCTIONALITY_TEXT_MODEL_TAG [REPO@v0.1.0 proxy/models.py, run_specs.conf]")
# Bundled releases whose seed count the tables do not record: what the fact sheet says, with its confidence.
FACT_SHEET_SEEDS: dict[str, tuple[int, str, str]] = {
    "lite": (1, "HELM_FACTS.md §12, HELM Lite facts: \"Lite uses 1 seed instead of 3\" [BLOG-LITE]", "verified"),
}
TRIALS_METRIC = "# trials"
TRAIN_METRIC = "# train"
PERTURBATION_GROUPS = ("robustness", "fairness")


@dataclass(frozen=True)
class Fact:
    """One fact about a release: its value, the kind of source (SOURCE_KINDS), where exactly, and how sure."""

    value: Any
    source: str
    detail: str
    confidence: str = "computed"

    def __post_init__(self) -> None:
        if self.source not in SOURCE_KINDS:
            raise ValueError(f"unknown source kind {self.source!r}; expected one of {', '.join(SOURCE_KINDS)}")
        if self.confidence not in CONFIDENCES:
            raise ValueError(f"unknown confidence {self.confidence!r}; expected one of {', '.join(CONFIDENCES)}")

    @property
    def citation(self) -> str:
        """Where the fact comes from, in words: "computed from the release's tables: ..." """
        sure = "" if self.confidence == "computed" else f" ({self.confidence})"
        return f"{SOURCE_KINDS[self.source]}: {self.detail}{sure}"


@dataclass(frozen=True)
class ReleaseFacts:
    release: str  # the release's display name
    release_id: str  # "classic", "lite", "capabilities", or "" for a loaded folder or upload
    models: tuple[str, ...]  # the cohort the facts are about (release order)
    scenarios: tuple[str, ...]
    trials: Fact  # sorted distinct seed counts among the cohort's models, e.g. (3,), (1, 3); () = unknown
    models_by_trials: dict[int, tuple[str, ...]]  # seed count -> the models that ran that many (their largest count)
    in_context: Fact  # the largest number of in-context examples in a prompt (0 = zero-shot); None = unknown
    zero_shot_scenarios: Fact  # scenarios whose prompts carry no in-context example for any model of the cohort
    perturbations: Fact  # of robustness and fairness, the groups with at least one value
    metric_groups: Fact  # the seven core groups with at least one value, in CORE_GROUPS order
    organizations: Fact  # organisations with at least one model in the cohort, sorted
    speculative_params: Fact  # models whose parameter count HELM marks speculative ("*")
    toxicity_cells: Fact  # how many (model, scenario) toxicity cells hold a value
    models_lacking: Fact  # models without an accuracy value in at least one of the release's scenarios
    limited_functionality: Fact  # models of the cohort HELM runs as limited-functionality
    efficiency_metric: Fact  # HELM's efficiency column name(s), e.g. ("Denoised inference time (s)",)
    aggregate: Fact  # HELM's published aggregate column: "Mean win rate", "Mean score", or None
    scenarios_by_model: pd.Series = field(repr=False)  # model -> scenarios with an accuracy value

    @property
    def n_models(self) -> int:
        return len(self.models)

    def has_organization(self, name: str) -> bool:
        """Whether any model of the cohort belongs to `name` (case-insensitive), e.g. "OpenAI"."""
        return name.strip().lower() in {o.lower() for o in self.organizations.value}


def _cohort(release: Release, models: Iterable[str] | None) -> list[str]:
    names = release.model_names
    if models is None:
        return names
    keep = set(models)
    return [m for m in names if m in keep]


def _cells(release: Release, models: list[str], metric: str) -> pd.DataFrame:
    r = release.results
    return r[(r["metric"] == metric) & r["model"].isin(models) & r["value"].notna()]


def _adapter(spec: object) -> dict:
    if isinstance(spec, dict):
        return spec
    try:
        out = json.loads(spec or "{}")
    except (TypeError, ValueError):
        return {}
    return out if isinstance(out, dict) else {}


def _trials(release: Release, models: list[str], runs: pd.DataFrame | None) -> tuple[Fact, dict[int, tuple[str, ...]]]:
    """Seeds per model: a user's suite's run_spec num_train_trials (each model's largest), else the largest
    "# trials" of its cells (HELM's general-information column), else the fact sheet for a bundled release whose tables do not record it, else, for
    a zero-shot release with one run per cell, one."""
    per_model = pd.Series(dtype=float)
    t = _cells(release, models, TRIALS_METRIC)
    conf = "computed"
    if runs is not None and not runs.empty and "num_train_trials" in runs.columns \
            and runs.loc[runs["model"].isin(models), "num_train_trials"].notna().any():
        rr = runs[runs["model"].isin(models)]
        per_model = np.ceil(pd.to_numeric(rr["num_train_trials"], errors="coerce").groupby(rr["model"]).max().dropna()
                            - 1e-9)
        fact_src = ("run_spec", "adapter_spec.num_train_trials of each run (each model's largest)")
    elif not t.empty:
        # A cell's "# trials" is a mean over the runs behind it (2.5, 2.714): some run had at least its ceiling.
        per_model = np.ceil(t.groupby("model")["value"].max() - 1e-9)
        fact_src = ("data", f"HELM's \"{TRIALS_METRIC}\" column (general information): each model's largest count "
                            "over its cells (a cell's count is a mean over its runs, rounded up)")
    elif release.release_id in FACT_SHEET_SEEDS:
        n, detail, conf = FACT_SHEET_SEEDS[release.release_id]
        per_model = pd.Series(float(n), index=models)
        fact_src = ("fact_sheet", detail)
    else:
        train = _cells(release, models, TRAIN_METRIC)
        acc = release.results[(release.results["metric_group"] == "accuracy") & release.results["model"].isin(models)
                              & release.results["value"].notna()]
        if not train.empty and float(train["value"].max()) == 0 and not acc.empty and bool((acc["n_runs"] == 1).all()):
            per_model = pd.Series(1.0, index=sorted(set(acc["model"]), key=models.index))
            fact_src = ("data", f"no in-context examples to draw (\"{TRAIN_METRIC}\" is 0 in every cell) and one run "
                                "per accuracy cell (n_runs = 1)")
        else:
            fact_src = ("data", f"the release records no \"{TRIALS_METRIC}\" column and no run specs")
    by: dict[int, list[str]] = {}
    order = {m: i for i, m in enumerate(models)}
    for m, v in sorted(per_model.items(), key=lambda kv: order.get(kv[0], 0)):
        if pd.notna(v):
            by.setdefault(int(v), []).append(m)
    by_t = {k: tuple(v) for k, v in sorted(by.items())}
    return Fact(tuple(by_t), fact_src[0], fact_src[1], conf), by_t


def _in_context(release: Release, models: list[str], runs: pd.DataFrame | None) -> tuple[Fact, Fact]:
    """The largest number of in-context examples per prompt, and the scenarios without any (zero-shot)."""
    if runs is not None and not runs.empty and "adapter_spec" in runs.columns:
        rr = runs[runs["model"].isin(models)]
        mti = pd.to_numeric(rr["adapter_spec"].map(lambda s: _adapter(s).get("max_train_instances")),
                            errors="coerce")
        if mti.notna().any():
            per_scen = mti.groupby(rr["scenario"]).max()
            zero = tuple(s for s in release.taxonomy.scenario_names if s in per_scen.index and per_scen[s] == 0)
            detail = "adapter_spec.max_train_instances of each run (the most a prompt may carry)"
            return (Fact(int(mti.max()), "run_spec", detail), Fact(zero, "run_spec", detail))
    t = _cells(release, models, TRAIN_METRIC)
    if t.empty:
        detail = f"the release records no \"{TRAIN_METRIC}\" column"
        return Fact(None, "data", detail), Fact((), "data", detail)
    per_scen = t.groupby("scenario")["value"].max()
    zero = tuple(s for s in release.taxonomy.scenario_names if s in per_scen.index and per_scen[s] == 0)
    detail = (f"HELM's \"{TRAIN_METRIC}\" column (general information): the mean number of in-context examples per "
              "prompt in each cell; the largest cell")
    return Fact(int(round(float(t["value"].max()))), "data", detail), Fact(zero, "data", detail.replace(
        "; the largest cell", "; 0 in every cell of the scenario"))


def in_context_by_scenario(release: Release, models: Iterable[str] | None = None) -> pd.Series:
    """Per scenario (taxonomy order): the largest number of in-context examples per prompt among the cohort's cells
    (HELM's "# train" column, rounded); empty when the release does not record it."""
    t = _cells(release, _cohort(release, models), TRAIN_METRIC)
    per = t.groupby("scenario")["value"].max().round().astype(int)
    return per.reindex([s for s in release.taxonomy.scenario_names if s in per.index]).rename("in_context")


def _has_values(release: Release, models: list[str], groups: Iterable[str]) -> tuple[str, ...]:
    r = release.results
    have = set(r.loc[r["value"].notna() & r["model"].isin(models), "metric_group"])
    return tuple(g for g in groups if g in have)


def scenarios_by_model(release: Release, models: Iterable[str] | None = None) -> pd.Series:
    """Per model of the cohort (release order): how many of the release's scenarios it was measured on (the main
    accuracy metric has a value: helm_core.coverage's definition)."""
    m = coverage_matrix(release, _cohort(release, models))
    return m.sum(axis=1).astype(int).rename("scenarios")


def organization_models(release: Release, models: Iterable[str] | None, organization: str) -> list[str]:
    """The cohort's models of one organisation (case-insensitive), in release order."""
    names = set(_cohort(release, models))
    m = release.models
    hit = m["organization"].fillna("").str.strip().str.lower() == organization.strip().lower()
    return [x for x in m.loc[hit, "model"] if x in names]


def release_facts(release: Release, models: Iterable[str] | None = None,
                  runs: pd.DataFrame | None = None) -> ReleaseFacts:
    """The facts of `release` for the cohort `models` (None = every model). `runs`: a user's suite's run index
    (HelmOutput.runs), read for seeds and in-context examples when the tables do not record them."""
    names = _cohort(release, models)
    trials, by_trials = _trials(release, names, runs)
    in_ctx, zero = _in_context(release, names, runs)
    minfo = release.models[release.models["model"].isin(names)]
    spec_col = minfo["params_speculative"] if "params_speculative" in minfo.columns else pd.Series(False, index=minfo.index)
    speculative = tuple(minfo.loc[spec_col.fillna(False).astype(bool), "model"])
    orgs = tuple(sorted({o for o in minfo["organization"].fillna("").astype(str) if o.strip()}, key=str.lower))
    res = release.results
    tox = res[(res["metric_group"] == "toxicity") & res["value"].notna() & res["model"].isin(names)]
    tox_cells = int(tox.drop_duplicates(["model", "scenario"]).shape[0])
    per_model = scenarios_by_model(release, names)
    n_scen = len(release.taxonomy.scenario_names)
    lacking = tuple(per_model.index[per_model < n_scen])
    ids = minfo.set_index("model")["helm_id"].fillna("").astype(str)
    limited = tuple(m for m in names if ids.get(m, "") in LIMITED_FUNCTIONALITY_IDS)
    eff = release.results[release.results["metric_group"] == "efficiency"]
    eff_names = tuple(dict.fromkeys(eff["metric"]))
    agg = (release.meta.get("published_aggregate") or {}).get("name") if isinstance(release.meta, dict) else None
    if agg:
        aggregate = Fact(agg, "meta", "published_aggregate.name: the aggregate column of HELM's own tables")
    elif not release.published_win_rates.empty:
        aggregate = Fact("Mean win rate", "data", "published_win_rates.csv is present")
    elif not release.published_scores.empty:
        aggregate = Fact("Mean score", "data", "published_scores.csv is present")
    else:
        aggregate = Fact(None, "data", "the release carries no published aggregate")
    return ReleaseFacts(
        release=release.name, release_id=release.release_id, models=tuple(names),
        scenarios=tuple(release.taxonomy.scenario_names),
        trials=trials, models_by_trials=by_trials, in_context=in_ctx, zero_shot_scenarios=zero,
        perturbations=Fact(_has_values(release, names, PERTURBATION_GROUPS), "data",
                           "robustness and fairness cells with a value"),
        metric_groups=Fact(_has_values(release, names, CORE_GROUPS), "data",
                           "the seven core metric groups with at least one value"),
        organizations=Fact(orgs, "data", "the models table's organization column"),
        speculative_params=Fact(speculative, "data", "the models table's params_speculative column (HELM's \"*\" "
                                                     "after a size it marks speculative)"),
        toxicity_cells=Fact(tox_cells, "data", "toxicity cells with a value"),
        scenarios_by_model=per_model,
        models_lacking=Fact(lacking, "data", f"models without an accuracy value in at least one of the {n_scen} "
                                             "scenarios"),
        limited_functionality=Fact(limited, "fact_sheet", LIMITED_FUNCTIONALITY_SOURCE, "verified"),
        efficiency_metric=Fact(eff_names, "data", "the efficiency group's metric names"),
        aggregate=aggregate,
    )


def rank_correlation(x: pd.Series, y: pd.Series) -> float:
    """Spearman's rank correlation of two aligned series (average ranks for ties; NaN pairs dropped): Pearson's r
    on the ranks, so no scipy. NaN with fewer than three pairs or a constant side."""
    both = pd.concat([pd.Series(x), pd.Series(y)], axis=1).dropna()
    if len(both) < 3:
        return float("nan")
    rx, ry = both.iloc[:, 0].rank(), both.iloc[:, 1].rank()
    if rx.nunique() < 2 or ry.nunique() < 2:
        return float("nan")
    return float(np.corrcoef(rx.to_numpy(dtype=float), ry.to_numpy(dtype=float))[0, 1])
