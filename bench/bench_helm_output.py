"""Benchmarks for loading HELM output (helm_core.helm_output): the project's fixture suite as a zip, and a
synthetic suite of 20 multiple-choice runs x 1,000 request states built in memory from the fixture's MMLU
run (the same files repeated with new instance ids; synthetic, for timing only).

Run alone with `python -m bench.bench_helm_output`, or through `python -m bench.run`.
"""
from __future__ import annotations

import io
import json
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

SUITE = ROOT / "tests" / "fixtures" / "helm_output" / "runs" / "demo"
MMLU = "mmlu:subject=philosophy,method=multiple_choice_joint,model=eleutherai_gpt-j-6b"


from bench.common import timed_ms as _timed  # noqa: E402


def _fixture_zip() -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for p in sorted(SUITE.rglob("*")):
            if p.is_file():
                z.write(p, "demo/" + p.relative_to(SUITE).as_posix())
    return buf.getvalue()


def _synthetic_zip(runs: int = 20, states: int = 1000) -> bytes:
    run = SUITE / MMLU
    spec = json.loads((run / "run_spec.json").read_text())
    stats = (run / "stats.json").read_text()
    state = json.loads((run / "scenario_state.json").read_text())
    pis = json.loads((run / "per_instance_stats.json").read_text())
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for r in range(runs):
            name = f"mmlu:subject=s{r},method=multiple_choice_joint,model=eleutherai_gpt-j-6b"
            rs, ps = [], []
            for i in range(states):
                a = json.loads(json.dumps(state["request_states"][i % len(state["request_states"])]))
                a["instance"]["id"] = f"id{i}"
                rs.append(a)
                b = json.loads(json.dumps(pis[i % len(pis)]))
                b["instance_id"] = f"id{i}"
                b["train_trial_index"] = a["train_trial_index"]
                ps.append(b)
            z.writestr(f"suite/{name}/run_spec.json", json.dumps(dict(spec, name=name)))
            z.writestr(f"suite/{name}/stats.json", stats)
            z.writestr(f"suite/{name}/scenario_state.json", json.dumps({"adapter_spec": state["adapter_spec"],
                                                                          "request_states": rs}))
            z.writestr(f"suite/{name}/per_instance_stats.json", json.dumps(ps))
    return buf.getvalue()


def bench(repeat: int) -> dict[str, float]:
    from helm_core import helm_output as ho

    small = _fixture_zip()
    big = _synthetic_zip()
    out = ho.read_helm_zip(big, "synthetic.zip")
    run = out.runs["run"].iloc[0]
    inst = out.instances(run)
    return {
        "read_fixture_zip_ms": _timed(lambda: ho.read_helm_zip(small, "demo.zip"), repeat),
        "read_synthetic_20x1000_zip_ms": _timed(lambda: ho.read_helm_zip(big, "synthetic.zip"), max(1, repeat // 2)),
        "instances_one_run_1000_ms": _timed(lambda: out.instances(run), repeat),
        "search_instances_1000_ms": _timed(lambda: ho.filter_instances(inst, None, None, "republic"), repeat),
        "summary_ms": _timed(lambda: ho.summary(out), repeat),
    }


if __name__ == "__main__":
    for k, v in bench(3).items():
        print(f"{k:40s} {v:9.1f}")
