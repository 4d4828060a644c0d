"""Benchmarks for helm_core.ranking (DESIGN.md §7): win rates at scale, recipe scores and podium stability.

Budgets: win rates for 1,000 models × 200 columns under 300 ms; podium stability with 10,000 weight samples
under 200 ms at 67 models. Run alone with `python -m bench.bench_ranking`, or through `python -m bench.run`.
"""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

BUDGETS_MS = {"ranking_win_rates_1000x200_ms": 300.0, "ranking_podium_stability_67_ms": 200.0}


from bench.common import timed_ms as _timed  # noqa: E402


def _synthetic_group_wr(n: int, seed: int = 0) -> pd.DataFrame:
    from helm_core.ranking import RECIPE_GROUPS

    rng = np.random.default_rng(seed)
    wr = pd.DataFrame(rng.random((n, len(RECIPE_GROUPS))), columns=list(RECIPE_GROUPS),
                      index=[f"model {i}" for i in range(n)])
    wr[rng.random(wr.shape) < 0.15] = np.nan  # blanks, as in HELM (efficiency has 26 of 67)
    return wr


def bench(repeat: int) -> dict[str, float]:
    from helm_core.data import load_release
    from helm_core.ranking import RECIPES, recipe_scores
    from helm_core.stability import podium_stability
    from helm_core.win_rates import shown_group_win_rates, win_rates

    out: dict[str, float] = {}
    rng = np.random.default_rng(0)
    big = pd.DataFrame(np.round(rng.random((1000, 200)), 3))
    big[rng.random((1000, 200)) < 0.1] = np.nan
    lib = [bool(i % 2) for i in range(200)]
    out["ranking_win_rates_1000x200_ms"] = _timed(lambda: win_rates(big, lib), repeat)

    holistic = RECIPES["holistic"].weight_series()
    wr67, _ = shown_group_win_rates(load_release())
    wr67 = wr67.reindex(columns=list(holistic.index))
    wr1000 = _synthetic_group_wr(1000)
    out["ranking_recipe_scores_67_ms"] = _timed(lambda: recipe_scores(wr67, holistic), repeat)
    out["ranking_recipe_scores_1000_ms"] = _timed(lambda: recipe_scores(wr1000, holistic), repeat)
    out["ranking_podium_stability_67_ms"] = _timed(lambda: podium_stability(wr67, holistic, n_samples=10_000), repeat)
    out["ranking_podium_stability_1000_ms"] = _timed(
        lambda: podium_stability(wr1000, holistic, n_samples=10_000), repeat)
    return out


if __name__ == "__main__":
    res = bench(5)
    for k, v in res.items():
        budget = BUDGETS_MS.get(k)
        flag = "" if budget is None else (f"  (budget {budget:.0f})" if v < budget else f"  OVER BUDGET {budget:.0f}")
        print(f"{k:<36} {v:>9.2f}{flag}")
