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


RELEASE_FILES = {
    "lite": ["results.csv", "models.csv", "scenarios.csv", "metric_groups.csv", "design_grid.csv",
             "published_win_rates.csv", "meta.json"],
    "capabilities": ["results.csv", "models.csv", "scenarios.csv", "metric_groups.csv", "design_grid.csv",
                     "published_scores.csv", "meta.json"],
}


@pytest.mark.skipif(not SOURCE.exists(), reason="../shared/helm_reference is absent (as on a user's clone)")
def test_rebuild_matches_committed_later_releases(tmp_path):
    """data/releases/ (HELM Lite, Capabilities and the cross-release model matches) is what a fresh build makes."""
    out = tmp_path / "data"
    subprocess.run([sys.executable, str(ROOT / "scripts" / "build_data.py"), "--source", str(SOURCE), "--out", str(out)],
                   check=True, capture_output=True)
    for release, names in RELEASE_FILES.items():
        built = sorted(p.name for p in (out / "releases" / release).iterdir())
        assert built == sorted(names), (release, built)
        for name in names:
            assert filecmp.cmp(out / "releases" / release / name, ROOT / "data" / "releases" / release / name,
                               shallow=False), f"data/releases/{release}/{name} differs from a fresh build"
    assert filecmp.cmp(out / "releases" / "model_matches.csv", ROOT / "data" / "releases" / "model_matches.csv",
                       shallow=False)


@pytest.mark.skipif(not SOURCE.exists(), reason="../shared/helm_reference is absent (as on a user's clone)")
@pytest.mark.parametrize("release,file", [("lite", "helm_lite_v1.13.0_long.csv"),
                                          ("capabilities", "helm_capabilities_v1.15.0_long.csv")])
def test_later_release_keeps_every_cell_of_the_reference(release, file):
    """Every non-aggregate cell of the reference table is in results.csv with the same value; missing stays missing."""
    import pandas as pd

    ref = pd.read_csv(SOURCE / "releases" / file)
    ref = ref[ref["scenario"] != "(aggregate)"]
    ours = pd.read_csv(ROOT / "data" / "releases" / release / "results.csv")
    assert len(ours) == len(ref)
    tabs = {"Accuracy": "accuracy", "Efficiency": "efficiency", "General information": "general_information"}
    ref = ref.assign(metric_group=ref["tab"].map(tabs))
    merged = ref.merge(ours, on=["model", "scenario", "metric_group", "metric"], how="left", suffixes=("_ref", ""),
                       validate="one_to_one")
    assert merged["value"].isna().equals(merged["value_ref"].isna())
    both = merged["value"].notna()
    assert (merged.loc[both, "value"] - merged.loc[both, "value_ref"]).abs().max() == 0


@pytest.mark.skipif(not SOURCE.exists(), reason="../shared/helm_reference is absent (as on a user's clone)")
@pytest.mark.parametrize("release,file,aggregate,name,column", [
    ("lite", "helm_lite_v1.13.0_long.csv", "Mean win rate", "published_win_rates.csv", "win_rate"),
    ("capabilities", "helm_capabilities_v1.15.0_long.csv", "Mean score", "published_scores.csv", "score"),
])
def test_published_aggregate_is_the_reference_aggregate_column(release, file, aggregate, name, column):
    """HELM's own aggregate column of each later release ("Mean win rate" for Lite, "Mean score" for Capabilities:
    the `(aggregate)` rows of the reference table) is in data/releases/<release>/<file> value for value, every
    model of every tab that has one, and meta.json names it and its file."""
    import json

    import pandas as pd

    ref = pd.read_csv(SOURCE / "releases" / file)
    ref = ref[(ref["scenario"] == "(aggregate)") & (ref["metric"] == aggregate) & ref["value"].notna()]
    tabs = {"Accuracy": "accuracy", "Efficiency": "efficiency"}
    ref = ref.assign(metric_group=ref["tab"].map(tabs))
    ours = pd.read_csv(ROOT / "data" / "releases" / release / name)
    assert list(ours.columns) == ["model", "metric_group", column]
    merged = ref.merge(ours, on=["model", "metric_group"], how="outer", validate="one_to_one", indicator=True)
    assert (merged["_merge"] == "both").all(), merged[merged["_merge"] != "both"]
    assert (merged["value"] - merged[column]).abs().max() == 0
    meta = json.loads((ROOT / "data" / "releases" / release / "meta.json").read_text())
    assert meta["published_aggregate"]["name"] == aggregate and meta["published_aggregate"]["file"] == name
    assert meta["outputs_sha256"][name]
