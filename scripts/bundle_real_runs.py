"""Bundle a small sample of genuine HELM run folders into data/real_runs/ (called by scripts/build_data.py).

Source: ../shared/helm_reference/real_runs/ (see its README for provenance). Output, in HELM's own on-disk
layout so that the app reads it with the same importer as a user's upload (helm_core.helm_output):

    data/real_runs/classic_v0.2.2/babi_qa:task=15,model=AlephAlpha_luminous-base/   (every file verbatim)
    data/real_runs/helm_safety_dev_2024/runs/v4/summary.json, schema.json           (verbatim)
    data/real_runs/helm_safety_dev_2024/runs/v4/bbq:…,model=<9 models>/             (trimmed, see TRIM below)
    data/real_runs/helm_safety_dev_2024/runs/v4/xstest:model=<9 models>/            (trimmed)

Only BBQ and XSTest runs of suite v4 are taken: the source's harm_bench / anthropic_red_team /
simple_safety_tests folders were never copied, and its two removed Mixtral XSTest instances stay removed.
The output is deterministic (files are written in a fixed order and JSON key order is the source's).
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path

BABI_RUN = "babi_qa:task=15,model=AlephAlpha_luminous-base"
CLASSIC = Path("classic_v0.2.2")
SAFETY = Path("helm_safety_dev_2024") / "runs" / "v4"
SCENARIOS = ("bbq:", "xstest:")
SUITE_FILES = ("summary.json", "schema.json")
VERBATIM = ("run_spec.json", "scenario.json", "stats.json")
# display_predictions.json, display_requests.json and instances.json repeat what scenario_state.json holds
# (instance, prompt, completion, mapping, judges' annotations); the importer reads scenario_state.json first.
DROPPED = ("display_predictions.json", "display_requests.json", "instances.json")
# Of a per-instance stat with count 1, min = max = mean, sum_squared = mean², variance = stddev = 0; with
# count 0 every field is 0. These fields are dropped; name, count, sum and mean are kept.
STAT_KEEP = ("name", "count", "sum", "mean")
# Provenance shown on screen (helm_core.real_runs.Source); from the source folder's README.
SOURCES = [
    {"key": "safety", "path": str(SAFETY), "title": "HELM safety development runs (BBQ and XSTest, 9 models)",
     "helm_version": "crfm-helm 0.5.1 (the repository's version at that commit)", "suite": "v4", "date": "",
     "status": "development runs, not a release (made while HELM Safety was being built; the later official "
               "HELM Safety leaderboard is a separate publication)",
     "repo": "stanford-crfm/helm, branch farzaan/safetytesting (benchmark_output_TRUE_latest/runs/v4)",
     "commit": "865aaae70bbd4acd49cc67eaf022eb57404a71c6", "licence": "Apache-2.0",
     "note": "Prompts from the BBQ and XSTest datasets; completions from the models' providers."},
    {"key": "babi", "path": str(CLASSIC), "title": "HELM classic run of Luminous Base (13B) on bAbI task 15",
     "helm_version": "crfm-helm 0.2.2-rc1", "suite": "classic (v0.2.x / v0.3.0 era)", "date": "",
     "status": "a classic run file, not a leaderboard-release table; trimmed to its first 150 of 1,000 instances",
     "repo": "wschella/helm-data-downloader (examples/run), downloaded from HELM's public bucket",
     "commit": "801b91354e28fade6e1efc8203dbcd123224e1b9", "licence": "MIT",
     "note": "No full prompts and no log-probabilities: scenario_state.json and display_requests.json were not "
             "available, so the prompt as sent (5 in-context examples + the passage) cannot be shown."},
]


def _dump(obj, path: Path) -> None:
    # Compact and ASCII-escaped (HELM writes indent=2; only whitespace differs).
    path.write_text(json.dumps(obj, separators=(",", ":"), ensure_ascii=True))


def _trim_stats(items: list) -> list:
    for item in items:
        for s in item["stats"]:
            if s.get("count", 0) > 1:
                raise SystemExit("per-instance stat with count > 1: trimming would lose information")
        item["stats"] = [{k: s[k] for k in STAT_KEEP if k in s} for s in item["stats"]]
    return items


def _trim_state(state: dict, generation: bool) -> dict:
    for rs in state["request_states"]:
        if generation:
            for c in rs["result"]["completions"]:
                c["tokens"] = []
        ann = rs.get("annotations")
        if isinstance(ann, dict):
            for v in ann.values():
                if isinstance(v, dict):
                    v.pop("prompt_text", None)  # the judge's prompt template, filled with prompt + completion
    return state


def build(src: Path, out: Path) -> list[Path]:
    """Write data/real_runs from `src` (= helm_reference/real_runs); returns the files written."""
    if not (src / SAFETY).is_dir():
        raise SystemExit(f"genuine HELM runs not found: {src / SAFETY}")
    if out.exists():
        shutil.rmtree(out)
    written: list[Path] = []

    def copy(a: Path, b: Path) -> None:
        b.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(a, b)
        written.append(b)

    babi = src / CLASSIC / BABI_RUN
    for f in sorted(babi.iterdir()):
        copy(f, out / CLASSIC / BABI_RUN / f.name)
    for name in SUITE_FILES:
        copy(src / SAFETY / name, out / SAFETY / name)
    runs = sorted(p for p in (src / SAFETY).iterdir() if p.is_dir() and p.name.startswith(SCENARIOS))
    for run in runs:
        dest = out / SAFETY / run.name
        dest.mkdir(parents=True, exist_ok=True)
        for name in VERBATIM:
            copy(run / name, dest / name)
        spec = json.loads((run / "run_spec.json").read_text())
        generation = spec["adapter_spec"]["method"] == "generation"
        state = _trim_state(json.loads((run / "scenario_state.json").read_text()), generation)
        _dump(state, dest / "scenario_state.json")
        _dump(_trim_stats(json.loads((run / "per_instance_stats.json").read_text())), dest / "per_instance_stats.json")
        written += [dest / "scenario_state.json", dest / "per_instance_stats.json"]
        unknown = {p.name for p in run.iterdir()} - set(VERBATIM) - set(DROPPED) - {"scenario_state.json",
                                                                                     "per_instance_stats.json"}
        if unknown:
            raise SystemExit(f"{run.name}: unexpected files {sorted(unknown)}")
    sources = [dict(x) for x in SOURCES]
    summary = json.loads((src / SAFETY / "summary.json").read_text())
    sources[0]["suite"], sources[0]["date"] = summary["suite"], summary["date"]
    (out / "sources.json").write_text(json.dumps(sources, indent=2) + "\n")
    written.append(out / "sources.json")
    return sorted(written)


def total_bytes(root: Path) -> int:
    return sum(p.stat().st_size for p in root.rglob("*") if p.is_file())
