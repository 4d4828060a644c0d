"""Build HELM's later releases (Lite, Capabilities) into data/releases/<name>/ in the classic contract.

Called from scripts/build_data.py's main; reads ../shared/helm_reference/releases/*.csv (real HELM leaderboard
tables, converted by evaleval/every_eval_ever; see that folder's README) and HELM's model_metadata.yaml.
Deterministic: the same inputs give byte-identical files.

Each release folder holds results.csv, models.csv, scenarios.csv, metric_groups.csv, design_grid.csv,
published_win_rates.csv (when HELM's table has a "Mean win rate", Lite), published_scores.csv (when it has a
"Mean score", Capabilities) and meta.json, as data/ does for classic.
data/releases/model_matches.csv lists the models that appear in several releases, matched by HELM id only.

MMLU v1.13.0 is not built: its 58 columns are subjects of one benchmark (plus "All Subjects"), not scenarios
in the classic sense, and it would add 5 MB to the repository (data/README.md, "Later releases").
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
import yaml

from build_data import sha256, write_csv  # one reproducible CSV writer for every release

MODEL_META = "helm_repo_config/model_metadata.yaml"
CLASSIC_MODELS = "helm_classic_models_metadata.csv"
CLASSIC_SCHEMA = "helm_repo_config/schema_classic.yaml"
# The converter commit the per-tab aggregate columns ("Mean win rate", "Mean score") come from, for both releases.
AGGREGATE_COMMIT = "c6fc3e16aca4681a4bd085da41320e0673708319"
TAB_GROUPS = {"Accuracy": "accuracy", "Efficiency": "efficiency", "General information": "general_information"}
GROUP_ORDER = ["accuracy", "calibration", "robustness", "fairness", "bias", "toxicity", "efficiency",
               "summarization_metrics", "general_information"]
# The design grid covers the classic grid's groups (the seven plus summarization metrics), so that grids of
# different releases have the same columns and a group a release does not measure is a visible blank.
GRID_GROUPS = ["accuracy", "calibration", "robustness", "fairness", "bias", "toxicity", "efficiency",
               "summarization_metrics"]
CORE_GROUPS = GRID_GROUPS[:7]


@dataclass(frozen=True)
class ReleaseSpec:
    name: str  # folder and load_bundled() name
    file: str  # in helm_reference/releases/
    release: str  # display name
    version: str
    helm_url: str
    commits: str
    aggregate: str  # HELM's aggregate column name in the Accuracy tab
    efficiency_definition: str


RELEASES = (
    ReleaseSpec(
        name="lite", file="helm_lite_v1.13.0_long.csv", release="HELM Lite v1.13.0", version="v1.13.0",
        helm_url="https://storage.googleapis.com/crfm-helm-public/lite/benchmark_output/releases/v1.13.0/groups/"
                 "core_scenarios.json",
        commits="evaleval/every_eval_ever c6fc3e16aca4681a4bd085da41320e0673708319 (the NaturalQuestions "
                "(open-book) F1 column from 7b868b059794950da6e5c0e697b78af387a4afda)",
        aggregate="Mean win rate",
        efficiency_definition="Observed inference time in seconds, as the deployment answered (not classic's "
                              "denoised time); lower is faster.",
    ),
    ReleaseSpec(
        name="capabilities", file="helm_capabilities_v1.15.0_long.csv", release="HELM Capabilities v1.15.0",
        version="v1.15.0",
        helm_url="https://storage.googleapis.com/crfm-helm-public/capabilities/benchmark_output/releases/v1.15.0/"
                 "groups/core_scenarios.json",
        commits="evaleval/every_eval_ever c6fc3e16aca4681a4bd085da41320e0673708319",
        aggregate="Mean score",
        efficiency_definition="Observed inference time in seconds, as the deployment answered (not classic's "
                              "denoised time); lower is faster.",
    ),
)

ACCURACY_DEFINITION = {
    "lite": "The scenario's main metric as HELM Lite reports it: F1, exact match, equivalence with chain of thought "
            "or BLEU-4.",
    "capabilities": "The scenario's main score as HELM Capabilities reports it: chain-of-thought correctness, "
                    "IFEval strict accuracy, WildBench score or accuracy.",
}
GI_DEFINITION = ("Bookkeeping: number of evaluation and in-context instances, truncation, prompt and output tokens.")


def _parse(desc) -> tuple[float, float]:
    from build_data import parse_description  # the same parser as classic's

    lo, hi, _ = parse_description(desc)
    return lo, hi


def _bool(v: bool | None) -> str:
    return "" if v is None else ("true" if v else "false")


def release_results(long: pd.DataFrame) -> pd.DataFrame:
    """The long table's non-aggregate rows in the project's results contract (missing cells kept)."""
    cells = long[long["scenario"] != "(aggregate)"]
    rows = []
    for r in cells.itertuples(index=False):
        group = TAB_GROUPS[r.tab]
        lo, hi = _parse(r.description)
        missing = pd.isna(r.value)
        # General information is bookkeeping HELM does not rank: the converters write False for "no flag".
        lib = None if group == "general_information" else bool(r.lower_is_better)
        rows.append({
            "model": r.model, "scenario": r.scenario, "metric_group": group, "metric": r.metric,
            "value": float(r.value) if not missing else np.nan, "lower_is_better": _bool(lib),
            "n_runs": np.nan if missing else float(r.n_runs), "run_min": np.nan if missing else lo,
            "run_max": np.nan if missing else hi, "note": "",
        })
    df = pd.DataFrame(rows)
    scen_order = {s: i for i, s in enumerate(dict.fromkeys(cells["scenario"]))}
    g_order = {g: i for i, g in enumerate(GROUP_ORDER)}
    df["_g"], df["_s"] = df["metric_group"].map(g_order), df["scenario"].map(scen_order)
    return df.sort_values(["model", "_g", "_s", "metric"], kind="mergesort").drop(columns=["_g", "_s"]).reset_index(drop=True)


def release_models(long: pd.DataFrame, meta: dict) -> pd.DataFrame:
    ids = long[["model", "model_id"]].drop_duplicates()
    if ids["model"].duplicated().any() or ids["model_id"].duplicated().any():
        raise SystemExit("a display name maps to several HELM ids (or the reverse)")
    rows = []
    for r in ids.itertuples(index=False):
        m = meta[r.model_id]  # KeyError = a model HELM's metadata does not list: stop, do not guess
        params = m.get("num_parameters")
        rows.append({
            "model": r.model, "helm_id": r.model_id, "organization": m.get("creator_organization_name", ""),
            "access": m.get("access", ""), "params": float(params) if params else np.nan,
            "params_speculative": "false", "release_date": str(m.get("release_date", "") or ""),
            # The 2022 paper cohort is a classic notion: its numbers are classic's. No later release has one.
            "paper_cohort": "false",
        })
    return pd.DataFrame(rows).sort_values("model", kind="mergesort").reset_index(drop=True)


def release_taxonomy(spec: ReleaseSpec, long: pd.DataFrame, classic_scen: dict[str, dict]):
    acc = long[(long["tab"] == "Accuracy") & (long["scenario"] != "(aggregate)")]
    scen_rows, grid_rows = [], []
    measured_groups = {TAB_GROUPS[t] for t in long["tab"].unique()}
    for scen, metric in acc[["scenario", "metric"]].drop_duplicates().itertuples(index=False):
        c = classic_scen.get(scen)  # a classic core scenario of the same name: its schema run group
        scen_rows.append({
            "scenario": scen, "run_group": "", "display_name": scen,
            "task": "", "main_metric": metric, "main_metric_display": metric, "main_split": "",
            "description": "", "classic_run_group": c["run_group"] if c else "",
        })
        tabs = {TAB_GROUPS[t] for t in long.loc[long["scenario"] == scen, "tab"].unique()}
        for g in GRID_GROUPS:
            grid_rows.append({"scenario": scen, "metric_group": g, "in_schema": _bool(g in tabs)})
    labels = {"accuracy": "Accuracy", "efficiency": "Efficiency", "general_information": "General information"}
    groups = []
    for g in GROUP_ORDER:
        if g not in measured_groups:
            continue
        direction, definition = {
            "accuracy": ("higher", ACCURACY_DEFINITION[spec.name]),
            "efficiency": ("lower", spec.efficiency_definition),
            "general_information": ("none", GI_DEFINITION),
        }[g]
        groups.append({"metric_group": g, "display_name": labels[g], "core": _bool(g in CORE_GROUPS),
                       "direction": direction, "definition": definition})
    return pd.DataFrame(scen_rows), pd.DataFrame(groups), pd.DataFrame(grid_rows)


def _aggregate(long: pd.DataFrame, metric: str, column: str) -> pd.DataFrame:
    """HELM's per-tab aggregate column `metric` (the `(aggregate)` rows), one row per (model, metric group)."""
    agg = long[(long["scenario"] == "(aggregate)") & (long["metric"] == metric) & long["value"].notna()]
    out = pd.DataFrame({"model": agg["model"], "metric_group": agg["tab"].map(TAB_GROUPS), column: agg["value"]})
    return out.sort_values(["model", "metric_group"], kind="mergesort").reset_index(drop=True)


def release_published(long: pd.DataFrame) -> pd.DataFrame:
    """HELM's own per-tab "Mean win rate" (Lite's accuracy and efficiency tabs)."""
    return _aggregate(long, "Mean win rate", "win_rate")


def release_published_scores(long: pd.DataFrame) -> pd.DataFrame:
    """HELM's own per-tab "Mean score" (Capabilities): summarize.py's compute_aggregate_row_means, the mean of the
    row's non-empty cells of that tab (accuracy: the five scenario scores, 3 decimals as converted; efficiency:
    the five observed inference times in seconds, full precision). Not a win rate: HELM Capabilities publishes
    no win rates."""
    return _aggregate(long, "Mean score", "score")


def build_release(spec: ReleaseSpec, src: Path, out: Path, meta_models: dict, classic_scen: dict) -> list[Path]:
    long = pd.read_csv(src / "releases" / spec.file)
    out.mkdir(parents=True, exist_ok=True)
    results = release_results(long)
    models = release_models(long, meta_models)
    scenarios, groups, grid = release_taxonomy(spec, long, classic_scen)
    files = {"results.csv": results, "models.csv": models, "scenarios.csv": scenarios,
             "metric_groups.csv": groups, "design_grid.csv": grid}
    published = release_published(long)
    if not published.empty:
        files["published_win_rates.csv"] = published
    scores = release_published_scores(long)
    if not scores.empty:
        files["published_scores.csv"] = scores
    written = []
    for name, df in files.items():
        write_csv(df, out / name)
        written.append(out / name)
    meta = {
        "release": spec.release,
        "release_id": spec.name,
        "release_short": spec.version,
        "kind": "bundled",
        "source": f"{spec.release} groups/core_scenarios.json ({spec.helm_url}), converted by "
                  f"evaleval/every_eval_ever (MIT): {spec.commits}; model metadata from stanford-crfm/helm "
                  "(Apache-2.0)",
        "helm_url": spec.helm_url,
        "caveat": "A later HELM leaderboard than classic: its own scenarios, prompts and adaptation; its main "
                  "tables report accuracy, efficiency and general information only.",
        "published_aggregate": {
            "name": spec.aggregate,
            "file": "published_win_rates.csv" if not published.empty else "published_scores.csv",
            "groups": sorted(set((published if not published.empty else scores)["metric_group"])),
            "source": f"the '(aggregate)' column '{spec.aggregate}' of {spec.release}'s groups/core_scenarios.json "
                      f"tables, as converted by evaleval/every_eval_ever {AGGREGATE_COMMIT} (MIT): the accuracy "
                      "tab's rounded to 3 decimals by the converter, the efficiency tab's at HELM's full precision",
        },
        "counts": {
            "models": int(models.shape[0]),
            "scenarios": int(scenarios.shape[0]),
            "result_rows": int(results.shape[0]),
            "result_values": int(results["value"].notna().sum()),
        },
        "inputs_sha256": {spec.file: sha256(src / "releases" / spec.file), MODEL_META: sha256(src / MODEL_META)},
        "outputs_sha256": {p.name: sha256(p) for p in written},
    }
    (out / "meta.json").write_text(json.dumps(meta, indent=2, sort_keys=True) + "\n")
    return written + [out / "meta.json"]


def model_matches(src: Path, built: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """Models that appear in more than one release, matched by HELM id (never by display name): one row per
    (helm_id, release) with that release's display name."""
    classic = pd.read_csv(src / CLASSIC_MODELS)
    tables = {"classic": pd.DataFrame({"model": classic["leaderboard_display_name"],
                                       "helm_id": classic["helm_model_name"]})}
    tables.update({k: v[["model", "helm_id"]] for k, v in built.items()})
    long = pd.concat([t.assign(release=k) for k, t in tables.items()], ignore_index=True)
    counts = long.groupby("helm_id")["release"].nunique()
    shared = long[long["helm_id"].isin(counts[counts > 1].index)]
    order = {k: i for i, k in enumerate(tables)}
    shared = shared.assign(_r=shared["release"].map(order))
    return (shared.sort_values(["helm_id", "_r"], kind="mergesort")[["helm_id", "release", "model"]]
            .reset_index(drop=True))


def build_releases(src: Path, out: Path) -> list[Path]:
    """Build every later release into out/<name>/ and the cross-release model match list; returns the files."""
    meta_models = {m["name"]: m for m in yaml.safe_load((src / MODEL_META).read_text())["models"]}
    schema = yaml.safe_load((src / CLASSIC_SCHEMA).read_text())
    from build_data import SCENARIO_RUN_GROUPS

    classic_scen = {s: {"run_group": rg} for s, rg in SCENARIO_RUN_GROUPS.items()}
    assert {g["name"] for g in schema["run_groups"]} >= set(SCENARIO_RUN_GROUPS.values())
    written, built = [], {}
    for spec in RELEASES:
        written += build_release(spec, src, out / spec.name, meta_models, classic_scen)
        built[spec.name] = pd.read_csv(out / spec.name / "models.csv", dtype=str, keep_default_na=False)
    matches = model_matches(src, built)
    write_csv(matches, out / "model_matches.csv")
    written.append(out / "model_matches.csv")
    return written
