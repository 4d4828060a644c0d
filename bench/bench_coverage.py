"""Benchmarks for the coverage story (helm_core.grid, .coverage, .metrics) at the bundled size (67 models).

These run cold, once per page view and cohort, and are cached after that. Run alone with
`python -m bench.bench_coverage`, or through `python -m bench.run`.
"""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


from bench.common import timed_ms as _timed  # noqa: E402


def bench(repeat: int) -> dict[str, float]:
    from helm_core import coverage as C
    from helm_core import grid as G
    from helm_core import metrics as M
    from helm_core.data import load_release

    rel = load_release()
    models = rel.model_names
    return {
        "grid_cells_data_67_ms": _timed(lambda: G.grid_cells(rel, "data", models), repeat),
        "grid_gaps_data_67_ms": _timed(lambda: G.grid_gaps(rel, "data", models), repeat),
        "grid_cell_detail_ms": _timed(lambda: G.cell_detail(rel, "NarrativeQA", "bias", models), repeat),
        "coverage_pairwise_overlap_67_ms": _timed(lambda: C.overlap_pairs(rel, models), repeat),
        "coverage_shared_ground_curve_67_ms": _timed(lambda: C.shared_ground_curve(rel, models), repeat),
        "metrics_accuracy_correlations_67_ms": _timed(lambda: M.accuracy_correlations(rel, models), repeat),
    }


if __name__ == "__main__":
    for k, v in bench(5).items():
        print(f"{k:40s} {v:8.1f}")
