"""Synthetic HELM suites for timing the importer at real scale, made from genuine HELM run folders.

`make_suite(out, n_models, instance_bytes)` writes `out/<run>/` for N models × the example runs (by default
the three genuine runs in tests/fixtures/helm_run_examples/: HellaSwag and MMLU philosophy, multiple_choice_joint,
and NarrativeQA, generation; copied there from evaleval/every_eval_ever, MIT). Each synthetic run is an example
run with another model name (`synthetic/model-<i>`) in its run name, run_spec.json and folder name; its
stats.json is the example's with the mean, sum, min and max of every score (not counts or times) scaled by a
per-model factor (so models differ; SYNTHETIC numbers, for timing only); its scenario_state.json is the example's request states repeated with new
instance ids until the file reaches `instance_bytes` (valid JSON); per_instance_stats.json and scenario.json are
copied as they are.

    python -m bench.synth_suite /tmp/suite600 --models 200 --instance-mb 1
"""
from __future__ import annotations

import argparse
import json
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "tests" / "fixtures" / "helm_run_examples"


def _factor(model: int, run: int) -> float:
    # A deterministic spread in [0.55, 1.0]: models differ, no randomness.
    return 0.55 + 0.45 * (((model * 7919 + run * 104729) % 1000) / 999)


COUNTS = ("num_", "prompt_truncated", "inference_", "training_", "batch_", "max_prob", "logprob", "finish_reason")


def _scaled_stats(stats: list, f: float) -> list:
    out = []
    for s in stats:
        s = dict(s)
        name = s.get("name", {}).get("name", "") if isinstance(s.get("name"), dict) else ""
        if name.startswith(COUNTS):  # counts, sizes and times stay as the genuine run has them
            out.append(s)
            continue
        for k in ("sum", "min", "max", "mean"):
            if isinstance(s.get(k), (int, float)) and not isinstance(s.get(k), bool):
                s[k] = s[k] * f
        out.append(s)
    return out


def _grown_state(state: dict, target: int) -> bytes:
    """scenario_state.json with the request states repeated (new instance ids) up to `target` bytes."""
    head = json.dumps({k: v for k, v in state.items() if k != "request_states"})[:-1]
    parts, size, i = [], len(head) + 40, 0
    states = state["request_states"]
    while True:
        rs = json.loads(json.dumps(states[i % len(states)]))
        rs["instance"]["id"] = f"{rs['instance'].get('id', 'id')}-{i}"
        text = json.dumps(rs)
        parts.append(text)
        size += len(text) + 2
        i += 1
        if size >= target and i >= len(states):
            break
    return (head + ', "request_states": [' + ", ".join(parts) + "]}").encode()


def make_suite(out: str | Path, n_models: int, instance_bytes: int, examples: str | Path = EXAMPLES) -> Path:
    """Write a suite of n_models × (example runs) run folders under `out` (replaced if it exists)."""
    out = Path(out)
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    runs = sorted(p for p in Path(examples).iterdir() if (p / "run_spec.json").is_file())
    for ri, run in enumerate(runs):
        spec = json.loads((run / "run_spec.json").read_text())
        stats = json.loads((run / "stats.json").read_text())
        model_id = spec["adapter_spec"]["model"]
        model_tag = "model=" + model_id.replace("/", "_")
        state_bytes = None
        if (run / "scenario_state.json").is_file():
            state = json.loads((run / "scenario_state.json").read_text())
            state_bytes = _grown_state(state, instance_bytes)
        for m in range(n_models):
            new_id = f"synthetic/model-{m:04d}"
            name = spec["name"].replace(model_tag, "model=" + new_id.replace("/", "_"))
            d = out / name.replace(":", "-", 1)
            d.mkdir()
            s = json.loads(json.dumps(spec))
            s["name"] = name
            s["adapter_spec"]["model"] = new_id
            if "model_deployment" in s["adapter_spec"]:
                s["adapter_spec"]["model_deployment"] = new_id
            (d / "run_spec.json").write_text(json.dumps(s, indent=2))
            (d / "stats.json").write_text(json.dumps(_scaled_stats(stats, _factor(m, ri)), indent=2))
            if state_bytes is not None:
                (d / "scenario_state.json").write_bytes(state_bytes)
            for extra in ("per_instance_stats.json", "scenario.json"):
                if (run / extra).is_file():
                    shutil.copyfile(run / extra, d / extra)
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out")
    ap.add_argument("--models", type=int, default=10)
    ap.add_argument("--instance-mb", type=float, default=1.0, help="bytes of scenario_state.json per run, in MB")
    ap.add_argument("--examples", default=str(EXAMPLES), help="folder of genuine HELM run folders to copy from")
    a = ap.parse_args(argv)
    p = make_suite(a.out, a.models, int(a.instance_mb * 1_000_000), a.examples)
    n = sum(1 for _ in p.iterdir())
    print(f"{p}: {n} runs")


if __name__ == "__main__":
    sys.exit(main())
