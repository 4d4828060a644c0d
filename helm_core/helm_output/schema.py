"""HELM's `schema.json` (models, run groups, metrics), the metric catalogue after HELM's schema_classic.yaml,
and the bundled reference release used to recognise core scenarios and known models."""
from __future__ import annotations

import functools
from dataclasses import dataclass, field

import pandas as pd

from ..data import ACCESS_LEVELS, CORE_GROUPS, MODEL_COLUMNS, Release, load_release
from .archive import Source
from .fields import _expect, clean_name

KNOWN_GROUPS = CORE_GROUPS + ("summarization_metrics", "general_information")

# Metric catalogue after HELM's schema_classic.yaml (stanford-crfm/helm @ 63754d0):
# stat name -> (short display name, lower_is_better).
METRICS: dict[str, tuple[str, bool | None]] = {
    "exact_match": ("EM", False),
    "quasi_exact_match": ("EM", False),
    "f1_score": ("F1", False),
    "RR@10": ("RR@10", False),
    "NDCG@10": ("NDCG@10", False),
    "rouge_2": ("ROUGE-2", False),
    "ece_10_bin": ("ECE (10-bin)", True),
    "toxic_frac": ("Toxic fraction", True),
    "inference_denoised_runtime": ("Denoised inference time (s)", True),
    "bias_metric:mode=associations,demographic_category=race,target_category=profession": ("Stereotypes (race)", True),
    "bias_metric:mode=associations,demographic_category=gender,target_category=profession": ("Stereotypes (gender)", True),
    "bias_metric:mode=representation,demographic_category=race": ("Representation (race)", True),
    "bias_metric:mode=representation,demographic_category=gender": ("Representation (gender)", True),
    "num_instances": ("# eval", None),
    "num_train_instances": ("# train", None),
    "prompt_truncated": ("truncated", None),
    "num_prompt_tokens": ("# prompt tokens", None),
    "num_output_tokens": ("# output tokens", None),
    "num_train_trials": ("# trials", None),
    "summac": ("SummaC", False),
    "QAFactEval": ("QAFactEval", False),
    "BERTScore-F": ("BERTScore (F1)", False),
    "summarization_coverage": ("Coverage", None),
    "summarization_density": ("Density", None),
    "summarization_compression": ("Compression", None),
    "HumanEval-faithfulness": ("HumanEval-faithfulness", False),
    "HumanEval-relevance": ("HumanEval-relevance", False),
    "HumanEval-coherence": ("HumanEval-coherence", False),
}
# Metric group -> stat names (accuracy/robustness/fairness use the scenario's main metric).
GROUP_STATS: dict[str, tuple[str, ...]] = {
    "calibration": ("ece_10_bin",),
    "efficiency": ("inference_denoised_runtime",),
    "toxicity": ("toxic_frac",),
    "bias": tuple(k for k in METRICS if k.startswith("bias_metric:")),
    "general_information": ("num_instances", "num_train_instances", "prompt_truncated", "num_prompt_tokens",
                            "num_output_tokens", "num_train_trials"),
    "summarization_metrics": ("summac", "QAFactEval", "BERTScore-F", "summarization_coverage",
                              "summarization_density", "summarization_compression", "HumanEval-faithfulness",
                              "HumanEval-relevance", "HumanEval-coherence"),
}
PERTURBATION_GROUPS = {"robustness": "Robustness", "fairness": "Fairness"}
MAIN_METRIC_GUESSES = ("exact_match", "quasi_exact_match", "f1_score", "rouge_2", "RR@10", "NDCG@10")
# Leaderboard column display name -> metric group (columns of per-scenario tables).
DISPLAY_GROUP = {METRICS[s][0]: g for g, names in GROUP_STATS.items() for s in names}
ACCURACY_DISPLAYS = {"EM", "F1", "RR@10", "NDCG@10", "ROUGE-2"}
CONTAMINATION_NOTES = {"strong": "☠ HELM flags this cell as strongly contaminated (train-test overlap).",
                       "weak": "⚠ HELM flags this cell as weakly contaminated (train-test overlap)."}
# ----------------------------------------------------------------------------- reference data


@functools.lru_cache(maxsize=1)
def _reference() -> Release:
    return load_release()


def _core_by_run_group() -> dict[str, dict]:
    scen = _reference().taxonomy.scenarios
    return {r["run_group"]: r for r in scen.to_dict("records")}


def _core_by_name() -> dict[str, dict]:
    scen = _reference().taxonomy.scenarios
    return {r["scenario"]: r for r in scen.to_dict("records")}


def core_scenarios() -> list[str]:
    """The 16 core scenario names, in the bundled order."""
    return _reference().taxonomy.scenario_names


# ----------------------------------------------------------------------------- schema.json


@dataclass(frozen=True)
class _Schema:
    models: dict[str, dict]  # model id -> {display_name, creator_organization, access, num_parameters, release_date}
    run_groups: dict[str, dict]  # run group name -> {display_name, short_display_name, environment, metric_groups, taxonomy}
    metrics: dict[str, dict]  # metric name -> {display_name, short_display_name, lower_is_better}
    # metric group name -> {display_name, metrics: [{name, split, perturbation_name}]} (HELM >= 0.2 schema.json)
    metric_groups: dict[str, dict] = field(default_factory=dict)


def _parse_schema(tree: Source) -> _Schema:
    paths = sorted(r for r in tree.files if r.rpartition("/")[2] == "schema.json")
    models: dict[str, dict] = {}
    groups: dict[str, dict] = {}
    metrics: dict[str, dict] = {}
    metric_groups: dict[str, dict] = {}
    for rel in paths:
        obj = _expect(tree.json(rel), dict, rel, "an object (HELM's schema)")
        for key, target in (("models", models), ("run_groups", groups), ("metrics", metrics),
                            ("metric_groups", metric_groups)):
            items = obj.get(key, [])
            if items is None:
                continue
            _expect(items, list, f"{rel}: '{key}'", "a list")
            for i, item in enumerate(items):
                _expect(item, dict, f"{rel}: '{key}[{i}]'", "an object")
                nm = _expect(item.get("name"), str, f"{rel}: '{key}[{i}].name'", "text")
                target.setdefault(nm, item)
    return _Schema(models, groups, metrics, metric_groups)


def _group_stat_entries(schema: _Schema, group: str) -> list[tuple[str, str]]:
    """(stat name, perturbation name) of a metric group in the suite's schema.json, "${main_name}" kept as is;
    empty when the schema does not define the group (older output: the catalogue after schema_classic.yaml
    applies)."""
    g = schema.metric_groups.get(group)
    items = g.get("metrics") if isinstance(g, dict) else None
    if not isinstance(items, list):
        return []
    out = []
    for m in items:
        if isinstance(m, dict) and isinstance(m.get("name"), str):
            pert = m.get("perturbation_name")
            out.append((m["name"], pert if isinstance(pert, str) else ""))
    return out


def group_stats(schema: _Schema, group: str) -> tuple[str, ...]:
    """The stat names of a (non-accuracy) metric group: the suite's schema.json when it defines the group (HELM
    0.5: calibration = max_prob, efficiency = inference_runtime), else the catalogue after schema_classic.yaml."""
    own = tuple(n for n, pert in _group_stat_entries(schema, group) if not pert and not n.startswith("${"))
    return own or GROUP_STATS.get(group, ())


def schema_column_groups(schema: _Schema) -> tuple[dict[tuple[str, str], str], dict[str, str]]:
    """Which metric group a leaderboard column belongs to, from the suite's schema.json: (run group display name,
    metric display name) -> group, for each run group's own metric groups ("${main_name}" resolved with its
    environment), and metric display name -> group for metrics that belong to one group whatever the run group."""
    per_group: dict[tuple[str, str], str] = {}
    anywhere: dict[str, str] = {}
    for g in KNOWN_GROUPS:
        for name, pert in _group_stat_entries(schema, g):
            if not pert and not name.startswith("${"):
                anywhere.setdefault(_metric_display(name, schema), g)
    for rg, spec in schema.run_groups.items():
        mgs = spec.get("metric_groups")
        if not isinstance(mgs, list):
            continue
        env = spec.get("environment") if isinstance(spec.get("environment"), dict) else {}
        shown = {clean_name(spec.get(k) or "") for k in ("short_display_name", "display_name")} | {clean_name(rg)}
        for g in mgs:
            if g not in KNOWN_GROUPS:
                continue
            for name, pert in _group_stat_entries(schema, g):
                if pert:
                    continue
                if name == "${main_name}":
                    name = env.get("main_name") if isinstance(env.get("main_name"), str) else ""
                if not name or name.startswith("${"):
                    continue
                for d in shown - {""}:
                    per_group.setdefault((d, _metric_display(name, schema)), g)
    return per_group, anywhere


# ----------------------------------------------------------------------------- models


@functools.lru_cache(maxsize=1)
def _ref_models_by_id() -> dict[str, dict]:
    """The bundled models by HELM id (the first row of each id), looked up once per model and run."""
    out: dict[str, dict] = {}
    for r in _reference().models.to_dict("records"):
        out.setdefault(r["helm_id"], r)
    return out


def _model_row(model_id: str, display: str | None, schema: _Schema) -> dict:
    hit = _ref_models_by_id().get(model_id)
    display = clean_name(display) if display else display
    model_id = clean_name(model_id, 200)
    row = {"model": display or model_id, "helm_id": model_id, "organization": "", "access": "",
           "params": float("nan"), "release_date": "", "paper_cohort": False, "params_speculative": False}
    if hit is not None:
        r = hit
        row.update({k: r[k] for k in ("model", "organization", "access", "params", "release_date", "paper_cohort",
                                      "params_speculative")})
        if display:
            row["model"] = display
        return row
    sm = schema.models.get(model_id)
    if sm:
        row["model"] = display or clean_name(sm.get("display_name") or model_id)
        row["organization"] = clean_name(sm.get("creator_organization") or sm.get("creator_organization_name") or "")
        acc = sm.get("access")
        row["access"] = acc if acc in ACCESS_LEVELS else ""
        p = sm.get("num_parameters")
        row["params"] = float(p) if isinstance(p, (int, float)) and not isinstance(p, bool) else float("nan")
        row["release_date"] = clean_name(sm.get("release_date") or "", 20)
    if not row["organization"] and "/" in model_id:
        row["organization"] = model_id.split("/", 1)[0]
    return row


def _model_display(model_id: str, schema: _Schema) -> str:
    hit = _ref_models_by_id().get(model_id)
    if hit is not None:
        return str(hit["model"])
    sm = schema.models.get(model_id)
    if sm and sm.get("display_name"):
        return clean_name(sm["display_name"])
    return clean_name(model_id)


def _models_frame(rows: list[dict]) -> pd.DataFrame:
    df = pd.DataFrame(rows, columns=MODEL_COLUMNS + ["params_speculative"]).drop_duplicates("model")
    df["params"] = pd.to_numeric(df["params"], errors="coerce").astype(float)
    df["paper_cohort"] = df["paper_cohort"].astype(bool)
    df["params_speculative"] = df["params_speculative"].astype(bool)
    for c in ("model", "helm_id", "organization", "access", "release_date"):
        df[c] = df[c].fillna("").astype(str)
    return df.sort_values("model", key=lambda s: s.str.lower()).reset_index(drop=True)


def _metric_display(name: str, schema: _Schema) -> str:
    if name in METRICS:
        return METRICS[name][0]
    m = schema.metrics.get(name, {})
    return clean_name(m.get("short_display_name") or m.get("display_name") or name)


def _metric_lower(name: str, schema: _Schema) -> bool | None:
    """The metric's direction: the suite's schema.json when it lists the metric (no lower_is_better there: no
    direction, as HELM's own tables then have none), else the catalogue after schema_classic.yaml."""
    if isinstance(schema.metrics.get(name), dict):
        v = schema.metrics[name].get("lower_is_better")
        return v if isinstance(v, bool) else None
    return METRICS[name][1] if name in METRICS else None


def schema_aliases(schema: _Schema) -> dict[str, str]:
    """Display name -> HELM stat name, for the suite's schema.json metrics and the catalogue (so a column named
    "Macro-F1" is checked as classification_macro_f1; helm_core.validity)."""
    out = {disp: name for name, (disp, _) in METRICS.items()}
    for name, m in schema.metrics.items():
        if isinstance(m, dict):
            for k in ("short_display_name", "display_name"):
                if isinstance(m.get(k), str) and m[k].strip():
                    out.setdefault(clean_name(m[k]), name)
    return out
