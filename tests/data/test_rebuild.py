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
