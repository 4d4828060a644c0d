"""data/ is exactly what scripts/build_data.py makes from ../shared/helm_reference."""
from __future__ import annotations

import filecmp
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SOURCE = ROOT.parent / "shared" / "helm_reference"
GENERATED = ["results.csv", "models.csv", "paper_models.csv", "scenarios.csv", "metric_groups.csv",
             "design_grid.csv", "published_win_rates.csv", "meta.json"]


@pytest.mark.skipif(not SOURCE.exists(), reason="../shared/helm_reference is absent (as on a user's clone); "
                    "the committed data/ cannot be rebuilt here")
def test_rebuild_matches_committed_data(tmp_path):
    out = tmp_path / "data"
    subprocess.run([sys.executable, str(ROOT / "scripts" / "build_data.py"), "--source", str(SOURCE), "--out", str(out)],
                   check=True, capture_output=True)
    for name in GENERATED:
        assert filecmp.cmp(out / name, ROOT / "data" / name, shallow=False), f"data/{name} differs from a fresh build"


# ----------------------------------------------------------------------------- data/real_runs (genuine HELM runs)
REAL_RUNS = ROOT / "data" / "real_runs"
REAL_RUNS_LIMIT_BYTES = 10_000_000


def _tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.mark.skipif(not (SOURCE / "real_runs").exists(), reason="../shared/helm_reference/real_runs is absent")
def test_real_runs_rebuild_matches_committed_data(tmp_path):
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import bundle_real_runs
    finally:
        sys.path.pop(0)
    bundle_real_runs.build(SOURCE / "real_runs", tmp_path / "real_runs")
    fresh, committed = _tree(tmp_path / "real_runs"), _tree(REAL_RUNS)
    assert sorted(fresh) == sorted(committed)
    for name, raw in fresh.items():
        assert raw == committed[name], f"data/real_runs/{name} differs from a fresh build"


def test_real_runs_are_small_and_hold_only_the_chosen_runs():
    files = [p for p in REAL_RUNS.rglob("*") if p.is_file()]
    assert sum(p.stat().st_size for p in files) <= REAL_RUNS_LIMIT_BYTES
    runs = sorted({p.parent.name for p in files if p.name == "run_spec.json"})
    assert len(runs) == 19
    assert all(r.startswith(("bbq:subject=all,method=multiple_choice_joint,model=", "xstest:model=", "babi_qa:task=15,"))
               for r in runs), runs
    # The two completions the source removed for safety stay removed (the mixtral run has 98 instances).
    mixtral = REAL_RUNS / "helm_safety_dev_2024/runs/v4/xstest:model=mistralai_mixtral-8x22b-instruct-v0.1"
    raw = (mixtral / "scenario_state.json").read_text()
    assert '"id233"' not in raw and '"id196"' not in raw
    assert raw.count('"train_trial_index"') == 98
