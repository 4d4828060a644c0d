"""Regenerate data/ from ../shared/helm_reference (HELM classic v0.4.0).

Usage:  python scripts/build_data.py [--source DIR] [--out DIR]

The output is deterministic: running the script twice gives byte-identical files.
Only this script reads the reference folder; the app and its tests read data/.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import yaml

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_SOURCE = ROOT.parent / "shared" / "helm_reference"

LONG_CSV = "helm_classic_v0.4.0_core_scenarios_long.csv"
WIN_CSV = "helm_classic_v0.4.0_mean_win_rates.csv"
MODELS_CSV = "helm_classic_models_metadata.csv"
SCHEMA = "helm_repo_config/schema_classic.yaml"
MODEL_META = "helm_repo_config/model_metadata.yaml"

# HELM leaderboard tab -> our metric-group id (the schema's metric_groups names).
TABS = {
    "Accuracy": "accuracy",
    "Calibration": "calibration",
    "Robustness": "robustness",
    "Fairness": "fairness",
    "Efficiency": "efficiency",
    "Bias": "bias",
    "Toxicity": "toxicity",
    "Summarization metrics": "summarization_metrics",
    "General information": "general_information",
}

# Leaderboard display name (as in the long CSV) -> the schema's run group.
SCENARIO_RUN_GROUPS = {
    "MMLU": "mmlu",
    "BoolQ": "boolq",
    "NarrativeQA": "narrative_qa",
    "NaturalQuestions (closed-book)": "natural_qa_closedbook",
    "NaturalQuestions (open-book)": "natural_qa_openbook_longans",
    "QuAC": "quac",
    "HellaSwag": "hellaswag",
    "OpenbookQA": "openbookqa",
    "TruthfulQA": "truthful_qa",
    "MS MARCO (regular)": "msmarco_regular",
    "MS MARCO (TREC)": "msmarco_trec",
    "CNN/DailyMail": "summarization_cnndm",
    "XSUM": "summarization_xsum",
    "IMDB": "imdb",
    "CivilComments": "civil_comments",
    "RAFT": "raft",
}

# The paper's six user-facing task labels (HELM_FACTS.md §3, [REPO@v0.1.0]).
TASK_LABELS = {
    "question_answering": "Question answering",
    "information_retrieval": "Information retrieval",
    "summarization": "Summarization",
    "sentiment_analysis": "Sentiment analysis",
    "toxicity_detection": "Toxicity detection",
    "miscellaneous_text_classification": "Misc. text classification",
}

# Metric-group definitions in the project's words, after HELM_FACTS.md §4
# ([REPO@v0.1.0] basic_metrics.py, bias_metrics.py, toxicity_metrics.py, schema).
GROUP_DEFINITIONS = {
    "accuracy": ("higher", "The scenario's main metric: exact match, quasi-exact match, F1, RR@10, NDCG@10 or ROUGE-2."),
    "calibration": ("lower", "Expected calibration error of the top prediction, 10 bins of equal mass (ece_10_bin); needs a per-instance 0/1 correctness and a probability."),
    "robustness": ("higher", "The main metric under the worst case per instance over the original input and small perturbations (typos, casing, contractions, spacing)."),
    "fairness": ("higher", "The main metric under the worst case over counterfactual dialect, race-of-name and gender perturbations."),
    "bias": ("lower", "Demographic representation and stereotypical associations in generated text, as total-variation distance from uniform (race, gender)."),
    "toxicity": ("lower", "Fraction of generations that Perspective API scores at 0.5 or more (toxic_frac)."),
    "efficiency": ("lower", "Denoised inference runtime in seconds: API time with contention removed, using profiles from a synthetic efficiency scenario."),
    "summarization_metrics": ("mixed", "Summary-specific metrics: SummaC and QAFactEval faithfulness, BERTScore, extractiveness (coverage, density, compression) and human ratings."),
    "general_information": ("none", "Bookkeeping: number of evaluation and in-context instances, prompt and output tokens, truncation, number of trials (seeds)."),
}
CORE_GROUPS = ["accuracy", "calibration", "robustness", "fairness", "bias", "toxicity", "efficiency"]

# The two Codex models of the paper's 30 ran no core scenario (HELM_FACTS.md §2, [REPO@v0.1.0]).
CODEX = ["openai/code-davinci-002", "openai/code-cushman-001"]

# v0.1.0 display names of the paper's 30 (HELM_FACTS.md §2, [REPO@v0.1.0] schema.yaml), keyed by current HELM id.
PAPER_NAMES = {
    "ai21/j1-jumbo": "J1-Jumbo v1 (178B)",
    "ai21/j1-grande": "J1-Grande v1 (17B)",
    "ai21/j1-large": "J1-Large v1 (7.5B)",
    "anthropic/stanford-online-all-v4-s3": "Anthropic-LM v4-s3 (52B)",
    "bigscience/bloom": "BLOOM (176B)",
    "bigscience/t0pp": "T0pp (11B)",
    "cohere/xlarge-20220609": "Cohere xlarge v20220609 (52.4B)",
    "cohere/large-20220720": "Cohere large v20220720 (13.1B)",
    "cohere/medium-20220720": "Cohere medium v20220720 (6.1B)",
    "cohere/small-20220720": "Cohere small v20220720 (410M)",
    "eleutherai/gpt-j-6b": "GPT-J (6B)",
    "eleutherai/gpt-neox-20b": "GPT-NeoX (20B)",
    "google/t5-11b": "T5 (11B)",
    "google/ul2": "UL2 (20B)",
    "meta/opt-175b": "OPT (175B)",
    "meta/opt-66b": "OPT (66B)",
    "microsoft/TNLGv2_530B": "TNLG v2 (530B)",
    "microsoft/TNLGv2_7B": "TNLG v2 (6.7B)",
    "openai/davinci": "GPT-3 davinci v1 (175B)",
    "openai/curie": "GPT-3 curie v1 (6.7B)",
    "openai/babbage": "GPT-3 babbage v1 (1.3B)",
    "openai/ada": "GPT-3 ada v1 (350M)",
    "openai/text-davinci-002": "InstructGPT davinci v2 (175B*)",
    "openai/text-curie-001": "InstructGPT curie v1 (6.7B*)",
    "openai/text-babbage-001": "InstructGPT babbage v1 (1.3B*)",
    "openai/text-ada-001": "InstructGPT ada v1 (350M*)",
    "openai/code-davinci-002": "Codex davinci v2",
    "openai/code-cushman-001": "Codex cushman v1",
    "tsinghua/glm": "GLM (130B)",
    "yandex/yalm": "YaLM (100B)",
}
# OpenAI did not disclose these sizes; HELM marks them speculative (HELM_FACTS.md §2).
SPECULATIVE_SIZE = {"openai/text-davinci-002", "openai/text-curie-001", "openai/text-babbage-001", "openai/text-ada-001"}

DESC_RE = re.compile(
    r"^min=(?P<min>-?[\d.eE+-]+), mean=(?P<mean>-?[\d.eE+-]+), max=(?P<max>-?[\d.eE+-]+), sum=[^()]*\((?P<n>\d+)\)$"
)


def _fmt(x: float) -> str:
    """Format a float reproducibly (shortest repr, no trailing noise)."""
    if x is None or (isinstance(x, float) and np.isnan(x)):
        return ""
    return repr(float(x))


def parse_description(desc: object) -> tuple[float, float, float]:
    """HELM's hover text 'min=…, mean=…, max=…, sum=… (n)' -> (min, max, n); NaN when absent."""
    if not isinstance(desc, str):
        return (np.nan, np.nan, np.nan)
    m = DESC_RE.match(desc.strip())
    if not m:
        return (np.nan, np.nan, np.nan)
    return (float(m["min"]), float(m["max"]), float(m["n"]))


def schema_directions(schema: dict) -> dict[str, object]:
    """Metric display name -> lower_is_better (True/False/None), from the schema's metric list."""
    out: dict[str, object] = {}
    for m in schema["metrics"]:
        lib = m.get("lower_is_better")
        for label in (m.get("display_name"), m.get("short_display_name")):
            if label and label not in out:
                out[label] = lib
    return out


def build_results(src: Path, schema: dict) -> pd.DataFrame:
    long = pd.read_csv(src / LONG_CSV)
    long = long[long["scenario"] != "(aggregate)"].copy()
    unknown = set(long["scenario"]) - set(SCENARIO_RUN_GROUPS)
    if unknown:
        raise SystemExit(f"unknown scenarios in {LONG_CSV}: {sorted(unknown)}")
    directions = schema_directions(schema)
    rows = []
    for r in long.itertuples(index=False):
        group = TABS[r.tab]
        run_min, run_max, n = parse_description(r.cell_description)
        n_runs = r.n_runs_aggregated if not np.isnan(r.n_runs_aggregated) else n
        # Direction: HELM's schema says which columns have none (e.g. # eval, Coverage);
        # the leaderboard export writes False for those.
        lib = r.lower_is_better
        if group in ("general_information", "summarization_metrics") and directions.get(r.metric, "?") is None:
            lib = None
        value = r.value
        if np.isnan(value):
            n_runs, run_min, run_max = np.nan, np.nan, np.nan
        rows.append(
            {
                "model": r.model,
                "scenario": r.scenario,
                "metric_group": group,
                "metric": r.metric,
                "value": value,
                "lower_is_better": "" if lib is None else ("true" if bool(lib) else "false"),
                "n_runs": n_runs,
                "run_min": run_min,
                "run_max": run_max,
                "note": r.note if isinstance(r.note, str) else "",
            }
        )
    df = pd.DataFrame(rows)
    group_order = {g: i for i, g in enumerate(TABS.values())}
    scen_order = {s: i for i, s in enumerate(SCENARIO_RUN_GROUPS)}
    df["_g"] = df["metric_group"].map(group_order)
    df["_s"] = df["scenario"].map(scen_order)
    df = df.sort_values(["model", "_g", "_s", "metric"], kind="mergesort").drop(columns=["_g", "_s"])
    return df.reset_index(drop=True)


def build_models(src: Path) -> tuple[pd.DataFrame, pd.DataFrame]:
    meta = pd.read_csv(src / MODELS_CSV)
    models = pd.DataFrame(
        {
            "model": meta["leaderboard_display_name"],
            "helm_id": meta["helm_model_name"],
            "organization": meta["creator_organization"],
            "access": meta["access"],
            "params": meta["num_parameters"],
            "params_speculative": meta["helm_model_name"].isin(SPECULATIVE_SIZE).map({True: "true", False: "false"}),
            "release_date": meta["release_date"],
            "paper_cohort": meta["in_original_2022_paper_core_eval"].eq("yes").map({True: "true", False: "false"}),
        }
    ).sort_values("model", kind="mergesort")

    # The paper's full list of 30: the 28 of the core cohort plus the two Codex models.
    yaml_models = {m["name"]: m for m in yaml.safe_load((src / MODEL_META).read_text())["models"]}
    by_id = meta.set_index("helm_model_name")
    rows = []
    for helm_id, paper_name in PAPER_NAMES.items():
        if helm_id in by_id.index:
            m = by_id.loc[helm_id]
            rows.append(
                {
                    "paper_name": paper_name,
                    "helm_id": helm_id,
                    "model": m["leaderboard_display_name"],
                    "organization": m["creator_organization"],
                    "access": m["access"],
                    "params": m["num_parameters"],
                    "release_date": m["release_date"],
                    "ran_core": "true",
                }
            )
        else:
            y = yaml_models[helm_id]
            rows.append(
                {
                    "paper_name": paper_name,
                    "helm_id": helm_id,
                    "model": "",
                    "organization": y.get("creator_organization_name", ""),
                    "access": y.get("access", ""),
                    "params": float(y["num_parameters"]) if y.get("num_parameters") else np.nan,
                    "release_date": str(y.get("release_date", "")),
                    "ran_core": "false",
                }
            )
    paper = pd.DataFrame(rows)
    return models.reset_index(drop=True), paper


def build_taxonomy(schema: dict) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    groups = {g["name"]: g for g in schema["run_groups"]}
    metrics = {m["name"]: m for m in schema["metrics"]}
    rg_to_scen = {v: k for k, v in SCENARIO_RUN_GROUPS.items()}
    scen_rows, grid_rows = [], []
    for task in groups["core_scenarios"]["subgroups"]:
        for rg in groups[task]["subgroups"]:
            g = groups[rg]
            main = g["environment"]["main_name"]
            m = metrics.get(main, {})
            scen_rows.append(
                {
                    "scenario": rg_to_scen[rg],
                    "run_group": rg,
                    "display_name": g.get("display_name", rg),
                    "task": TASK_LABELS[task],
                    "main_metric": main,
                    "main_metric_display": m.get("display_name", main),
                    "main_split": g["environment"]["main_split"],
                    "description": " ".join(str(g.get("description", "")).split()),
                }
            )
            for mg in CORE_GROUPS + ["summarization_metrics"]:
                grid_rows.append(
                    {"scenario": rg_to_scen[rg], "metric_group": mg, "in_schema": "true" if mg in g["metric_groups"] else "false"}
                )
    order = {s: i for i, s in enumerate(SCENARIO_RUN_GROUPS)}
    scenarios = pd.DataFrame(scen_rows).sort_values("scenario", key=lambda s: s.map(order), kind="mergesort")
    mg_rows = []
    display = {mg["name"]: mg.get("display_name", mg["name"]) for mg in schema["metric_groups"]}
    for name, (direction, definition) in GROUP_DEFINITIONS.items():
        mg_rows.append(
            {
                "metric_group": name,
                "display_name": display.get(name, name),
                "core": "true" if name in CORE_GROUPS else "false",
                "direction": direction,
                "definition": definition,
            }
        )
    return scenarios.reset_index(drop=True), pd.DataFrame(mg_rows), pd.DataFrame(grid_rows)


def build_published(src: Path) -> pd.DataFrame:
    w = pd.read_csv(src / WIN_CSV)
    long = w.melt(id_vars="model", var_name="metric_group", value_name="win_rate")
    long["metric_group"] = long["metric_group"].str.replace("mean_win_rate_", "", regex=False)
    return long.sort_values(["model", "metric_group"], kind="mergesort").reset_index(drop=True)


def write_csv(df: pd.DataFrame, path: Path) -> None:
    out = df.copy()
    for c in out.columns:
        if pd.api.types.is_float_dtype(out[c]):
            out[c] = out[c].map(_fmt)
    out.to_csv(path, index=False, lineterminator="\n")


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def build(src: Path, out: Path) -> list[Path]:
    if not (src / LONG_CSV).exists():
        raise SystemExit(f"reference data not found: {src / LONG_CSV}")
    out.mkdir(parents=True, exist_ok=True)
    schema = yaml.safe_load((src / SCHEMA).read_text())
    results = build_results(src, schema)
    models, paper = build_models(src)
    scenarios, metric_groups, design = build_taxonomy(schema)
    published = build_published(src)
    files = {
        "results.csv": results,
        "models.csv": models,
        "paper_models.csv": paper,
        "scenarios.csv": scenarios,
        "metric_groups.csv": metric_groups,
        "design_grid.csv": design,
        "published_win_rates.csv": published,
    }
    written = []
    for name, df in files.items():
        write_csv(df, out / name)
        written.append(out / name)
    inputs = [LONG_CSV, WIN_CSV, MODELS_CSV, SCHEMA, MODEL_META]
    meta = {
        "release": "HELM classic v0.4.0",
        "release_short": "v0.4.0",
        "source": "HELM classic v0.4.0 groups/core_scenarios.json, as re-hosted by evaleval/every_eval_ever (MIT); "
        "schema and model metadata from stanford-crfm/helm (Apache-2.0)",
        "helm_repo_commit": "63754d05db6f874e41a395880fb573890a13e791",
        "every_eval_ever_commit": "7b868b059794950da6e5c0e697b78af387a4afda",
        "win_rates_commit": "c6fc3e16aca4681a4bd085da41320e0673708319",
        "caveat": "Numbers are release v0.4.0 (67 models), not the Nov 2022 paper (v0.1.0, 30 models); "
        "several metrics were recomputed in later releases.",
        "published_aggregate": {
            "name": "Mean win rate",
            "file": "published_win_rates.csv",
            "groups": sorted(set(published["metric_group"])),
            "source": f"{WIN_CSV}: the per-tab 'Mean win rate' of HELM classic v0.4.0's groups/core_scenarios.json, "
                      "full precision, as converted by evaleval/every_eval_ever c6fc3e16aca4681a4bd085da41320e0673708319 "
                      "(MIT)",
        },
        "counts": {
            "models": int(models.shape[0]),
            "scenarios": int(scenarios.shape[0]),
            "result_rows": int(results.shape[0]),
            "result_values": int(results["value"].notna().sum()),
        },
        "inputs_sha256": {name: sha256(src / name) for name in inputs},
        "outputs_sha256": {p.name: sha256(p) for p in written},
    }
    (out / "meta.json").write_text(json.dumps(meta, indent=2, sort_keys=True) + "\n")
    written.append(out / "meta.json")
    return written


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--source", type=Path, default=DEFAULT_SOURCE)
    ap.add_argument("--out", type=Path, default=ROOT / "data")
    args = ap.parse_args(argv)
    written = build(args.source, args.out)
    from build_releases import build_releases  # HELM Lite and Capabilities, into data/releases/

    written += build_releases(args.source, args.out / "releases")
    for p in written:
        print(p.relative_to(args.out.parent) if args.out.parent in p.parents else p)
    build_real_runs(args.source, args.out)
    return 0


def build_real_runs(source: Path, out: Path) -> None:
    """data/real_runs: genuine HELM run folders (scripts/bundle_real_runs.py)."""
    import bundle_real_runs  # scripts/ is on sys.path when this file runs as a script

    written = bundle_real_runs.build(source / "real_runs", out / "real_runs")
    print(f"real_runs: {len(written)} files, {bundle_real_runs.total_bytes(out / 'real_runs') / 1e6:.2f} MB")


if __name__ == "__main__":
    sys.exit(main())
