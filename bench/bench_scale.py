"""The importer at real scale (DESIGN.md §7): a user's HELM suite of 600 and 3,000 runs with 1 MB of instance
files per run (about 0.6 and 3 GB), generated under /tmp by bench.synth_suite from genuine HELM run folders.

For each size, each measurement runs in a fresh Python process (its own peak RSS, from
resource.getrusage(RUSAGE_SELF).ru_maxrss at its end):
- floor: plain `json.load` of every stats.json and run_spec.json of the suite (nothing else);
- load: `helm_core.helm_output.read_helm_output(suite)` to a loaded release (results + run index), then one
  run's instances opened (`HelmOutput.instances`), timed separately.
Floor and load alternate `--repeat` times; the medians are reported, wall-clock and CPU (user + system) time:
on a shared machine the CPU ratio moves less than the wall-clock one. Budget: load within 3x the floor, under
400 MB peak RSS; one run's instances under 1 s.

    python -m bench.bench_scale                       # 600 and 3,000 runs, 1 MB per run, under /tmp/helm-scale
    python -m bench.bench_scale --runs 600 --repeat 1 --dir /tmp/x --keep
"""
from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

BUDGET_RATIO = 3.0
BUDGET_RSS_MB = 400.0
BUDGET_OPEN_S = 1.0

_RSS = ("import resource; _u = resource.getrusage(resource.RUSAGE_SELF); rss = _u.ru_maxrss / 1024; "
        "cpu = _u.ru_utime + _u.ru_stime")

FLOOR = """
import json, os, resource, sys, time
_c = resource.getrusage(resource.RUSAGE_SELF)
c0 = _c.ru_utime + _c.ru_stime
t0 = time.perf_counter()
n = 0
for e in os.scandir(sys.argv[1]):
    if e.is_dir():
        for name in ("run_spec.json", "stats.json"):
            with open(os.path.join(e.path, name), "rb") as fh:
                json.load(fh)
            n += 1
dt = time.perf_counter() - t0
%s
print(json.dumps({"seconds": dt, "cpu_seconds": cpu - c0, "files": n, "peak_rss_mb": rss}))
""" % _RSS

LOAD = """
import json, sys, time
sys.path.insert(0, sys.argv[2])
import resource
from helm_core import helm_output as ho
from helm_core.data import load_release
ho.schema._reference(); ho.schema._ref_models_by_id()  # the bundled reference tables the importer uses (loaded once per process, as in the app)
_c = resource.getrusage(resource.RUSAGE_SELF)
base, c0 = _c.ru_maxrss / 1024, _c.ru_utime + _c.ru_stime
t0 = time.perf_counter()
out = ho.read_helm_output(sys.argv[1])
dt = time.perf_counter() - t0
_c = resource.getrusage(resource.RUSAGE_SELF)
cpu_load = _c.ru_utime + _c.ru_stime - c0
runs = out.runs["run"].tolist()
run = runs[len(runs) // 2]
t1 = time.perf_counter()
inst = out.instances(run)
dt_open = time.perf_counter() - t1
%s
print(json.dumps({"seconds": dt, "cpu_seconds": cpu_load, "open_seconds": dt_open, "open_rows": int(len(inst)), "runs": len(runs),
                  "models": int(len(out.release.models)), "values": int(out.release.results["value"].notna().sum()),
                  "lazy": bool(out.lazy), "peak_rss_mb": rss, "rss_before_load_mb": base}))
""" % _RSS


def _child(code: str, *args: str) -> dict:
    res = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, check=False)
    if res.returncode != 0:
        raise SystemExit(f"benchmark child failed:\n{res.stderr[-3000:]}")
    return json.loads(res.stdout.strip().splitlines()[-1])


def _suite(base: Path, runs: int, instance_mb: float, examples: str | None) -> Path:
    from bench import synth_suite

    n_examples = len([p for p in Path(examples or synth_suite.EXAMPLES).iterdir() if (p / "run_spec.json").is_file()])
    models = max(1, runs // n_examples)
    path = base / f"suite-{models * n_examples}-{instance_mb:g}mb"
    marker = path / ".complete"
    if not marker.exists():
        synth_suite.make_suite(path, models, int(instance_mb * 1_000_000), examples or synth_suite.EXAMPLES)
        marker.write_text("")
    return path


def _du_mb(path: Path) -> float:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file()) / 1e6


def bench(sizes: list[int], instance_mb: float = 1.0, repeat: int = 3, base: str = "/tmp/helm-scale",
          examples: str | None = None, keep: bool = True) -> dict[str, dict]:
    out: dict[str, dict] = {}
    base_p = Path(base)
    for n in sizes:
        suite = _suite(base_p, n, instance_mb, examples)
        floors, loads = [], []
        for _ in range(repeat):
            floors.append(_child(FLOOR, str(suite)))
            loads.append(_child(LOAD, str(suite), str(ROOT)))
        floor_s = statistics.median(f["seconds"] for f in floors)
        load_s = statistics.median(x["seconds"] for x in loads)
        out[f"runs_{loads[0]['runs']}"] = {
            "suite_mb": round(_du_mb(suite), 1),
            "floor_s": round(floor_s, 3),
            "load_s": round(load_s, 3),
            "ratio": round(load_s / floor_s, 2),
            "floor_cpu_s": round(statistics.median(f["cpu_seconds"] for f in floors), 3),
            "load_cpu_s": round(statistics.median(x["cpu_seconds"] for x in loads), 3),
            "cpu_ratio": round(statistics.median(x["cpu_seconds"] for x in loads)
                               / statistics.median(f["cpu_seconds"] for f in floors), 2),
            "peak_rss_mb": round(max(x["peak_rss_mb"] for x in loads), 1),
            "rss_before_load_mb": round(statistics.median(x["rss_before_load_mb"] for x in loads), 1),
            "floor_peak_rss_mb": round(max(f["peak_rss_mb"] for f in floors), 1),
            "open_one_run_s": round(statistics.median(x["open_seconds"] for x in loads), 3),
            "open_rows": loads[0]["open_rows"],
            "models": loads[0]["models"],
            "values": loads[0]["values"],
            "lazy": loads[0]["lazy"],
            "repeat": repeat,
            "within_budget": bool(load_s / floor_s <= BUDGET_RATIO
                                  and max(x["peak_rss_mb"] for x in loads) < BUDGET_RSS_MB
                                  and statistics.median(x["open_seconds"] for x in loads) < BUDGET_OPEN_S),
        }
        if not keep:
            shutil.rmtree(suite, ignore_errors=True)
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description="HELM output at real scale (see the module docstring)")
    ap.add_argument("--runs", default="600,3000", help="suite sizes in runs, comma-separated")
    ap.add_argument("--instance-mb", type=float, default=1.0)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--dir", default="/tmp/helm-scale", help="where the synthetic suites are written")
    ap.add_argument("--examples", default=None, help="folder of genuine HELM run folders (default: the fixtures)")
    ap.add_argument("--keep", action="store_true", help="keep the generated suites for the next run")
    ap.add_argument("--out", default=None, help="write the results as JSON here")
    a = ap.parse_args(argv)
    res = bench([int(x) for x in a.runs.split(",") if x.strip()], a.instance_mb, a.repeat, a.dir, a.examples, a.keep)
    print(f"{'suite':<12}{'size':>10}{'floor s':>9}{'load s':>9}{'ratio':>7}{'cpu ratio':>10}{'peak MB':>9}"
          f"{'open s':>8}  budget (wall ratio <= 3, peak < 400 MB, open < 1 s)")
    for k, v in res.items():
        print(f"{k:<12}{v['suite_mb']:>8.0f}MB{v['floor_s']:>9.2f}{v['load_s']:>9.2f}{v['ratio']:>7.2f}"
              f"{v['cpu_ratio']:>10.2f}{v['peak_rss_mb']:>9.0f}{v['open_one_run_s']:>8.3f}  "
              f"{'ok' if v['within_budget'] else 'OVER'}")
    if a.out:
        Path(a.out).write_text(json.dumps(res, indent=2))


if __name__ == "__main__":
    main()
