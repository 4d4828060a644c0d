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


RELEASE_FILES = {
    "lite": ["results.csv", "models.csv", "scenarios.csv", "metric_groups.csv", "design_grid.csv",
             "published_win_rates.csv", "meta.json"],
    "capabilities": ["results.csv", "models.csv", "scenarios.csv", "metric_groups.csv", "design_grid.csv",
                     "meta.json"],
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
