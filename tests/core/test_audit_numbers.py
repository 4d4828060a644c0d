"""Small wrong numbers the page audit (issue 28) found in computed sentences, each recomputed here from data/ with
plain pandas and numpy (no helm_core), then checked against helm_core."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from helm_core import limits_evidence, ranking, releases, stability, win_rates
from helm_core.data import CORE_GROUPS, cohort_models, load_bundled

DATA = Path(__file__).resolve().parents[2] / "data"


def _csv(*parts) -> pd.DataFrame:
    return pd.read_csv(DATA.joinpath(*parts))


# ----------------------------------------------------------------------------- releases: the same-model pairs


def test_same_model_pairs_are_counted_not_multiplied():
    """Classic and Lite share 15 models (by HELM id) and 5 scenarios: 75 possible pairs, 64 with a value in both.
    The page said "15 models × 5 scenarios = 64 pairs"; the counts say 64 of 75."""
    cm, lm = _csv("models.csv"), _csv("releases", "lite", "models.csv")
    cr, lr = _csv("results.csv"), _csv("releases", "lite", "results.csv")
    shared_ids = set(cm["helm_id"]) & set(lm["helm_id"])
    scen = [s for s in _csv("scenarios.csv")["scenario"] if s in set(_csv("releases", "lite", "scenarios.csv")["scenario"])]
    c = cr[(cr["metric_group"] == "accuracy") & cr["value"].notna()].merge(cm[["model", "helm_id"]], on="model")
    lt = lr[(lr["metric_group"] == "accuracy") & lr["value"].notna()].merge(lm[["model", "helm_id"]], on="model")
    both = c.merge(lt, on=["helm_id", "scenario"])
    both = both[both["scenario"].isin(scen)]
    assert (len(shared_ids), len(scen), len(both)) == (15, 5, 64)
    assert len(shared_ids) * len(scen) == 75 != len(both)  # the multiplication the page printed is false

    got = releases.shared_value_counts(load_bundled("classic"), load_bundled("lite"))
    assert got == {"models": 15, "scenarios": 5, "possible": 75, "pairs": 64, "models_with_pairs": both["helm_id"].nunique(),
                   "different_runs": int((both["n_runs_x"] != both["n_runs_y"]).sum())}


# ----------------------------------------------------------------------------- Lite: the "newer" rivals


def test_lite_newer_rivals_leave_out_the_papers_own_model():
    """On Lite, "models added after the 2022 paper" must not count GPT-3.5 (text-davinci-002): it is the paper's
    text-davinci-002 (same HELM id). For any other Lite model that is 89 rivals, not 90."""
    lm = _csv("releases", "lite", "models.csv")
    paper_ids = set(_csv("paper_models.csv")["helm_id"])
    in_paper = lm[lm["helm_id"].isin(paper_ids)]["model"].tolist()
    assert in_paper == ["GPT-3.5 (text-davinci-002)"]
    lite = load_bundled("lite")
    models = cohort_models(lite, "all")
    target = "GPT-4 (0613)"
    newer = win_rates.rival_sets(lite, models, target)["newer"]
    assert len(newer) == len(lm) - 1 - len(in_paper) == 89
    assert "GPT-3.5 (text-davinci-002)" not in newer
    # the paper's own model, as the target: every other Lite model was added after the paper
    assert len(win_rates.rival_sets(lite, models, "GPT-3.5 (text-davinci-002)")["newer"]) == 90


def test_lite_limits_rival_sets_include_the_papers_model_by_helm_id():
    """The limits page's rival sets on Lite: "the 2022 paper's models" is the paper's model in Lite plus the target
    (recomputed win rate among those two), not silently missing; the other sets are unchanged."""
    lite = load_bundled("lite")
    models = cohort_models(lite, "all")
    sets = limits_evidence.rival_sets(lite, "GPT-4 (0613)", models)
    assert sets["the 2022 paper's models"] == ("GPT-3.5 (text-davinci-002)", "GPT-4 (0613)")
    eff = limits_evidence.model_set_effect(lite, "GPT-4 (0613)", models).set_index("rivals")
    lr = _csv("releases", "lite", "results.csv")
    acc = lr[lr["metric_group"] == "accuracy"].pivot_table(index="model", columns="scenario", values="value")
    pair = acc.loc[["GPT-3.5 (text-davinci-002)", "GPT-4 (0613)"]].dropna(axis=1)
    wins = (pair.loc["GPT-4 (0613)"] > pair.loc["GPT-3.5 (text-davinci-002)"]).astype(float)
    wins[pair.loc["GPT-4 (0613)"] == pair.loc["GPT-3.5 (text-davinci-002)"]] = 0.5
    assert eff.loc["the 2022 paper's models", "win_rate"] == pytest.approx(wins.mean())
    assert eff.loc["the 2022 paper's models", "n_models"] == 2


def test_classic_rival_sets_unchanged():
    classic = load_bundled("classic")
    models = cohort_models(classic, "all")
    cm = _csv("models.csv")
    newer = win_rates.rival_sets(classic, models, "text-davinci-002")["newer"]
    assert sorted(newer) == sorted(cm.loc[~cm["paper_cohort"], "model"])
    assert len(limits_evidence.rival_sets(classic, "text-davinci-002", models)["the 2022 paper's models"]) == 28


# ----------------------------------------------------------------------------- the weight spread


def _measured_groups(name: str) -> list[str]:
    res = _csv("results.csv") if name == "classic" else _csv("releases", name, "results.csv")
    have = set(res.loc[res["value"].notna(), "metric_group"])
    return [g for g in CORE_GROUPS if g in have]


@pytest.mark.parametrize("name,concentration,expected", [
    ("lite", 50.0, 0.140), ("capabilities", 50.0, 0.140), ("lite", 200.0, 0.0705), ("lite", 10.0, 0.302),
    ("classic", 50.0, 0.343), ("classic", 200.0, 0.173),
])
def test_typical_weight_move_counts_the_groups_actually_weighted(name, concentration, expected):
    """The holistic recipe on a release weighs only the groups it measures (2 on Lite and Capabilities, 7 on
    classic). Under podium_stability's Dirichlet each weight w moves by sd = sqrt(w(1-w)/(c+1)), i.e. by
    sqrt((1-w)/(w(c+1))) of itself: ±14% for two groups at concentration 50, not the ±10% the page printed (the
    7-group sd divided by the 2-group weight)."""
    groups = _measured_groups(name)
    w = 1.0 / len(groups)
    formula = np.sqrt((1 - w) / (w * (concentration + 1)))
    assert formula == pytest.approx(expected, abs=5e-4)
    # the Dirichlet itself, sampled as podium_stability samples it
    rng = np.random.default_rng(0)
    g = rng.standard_gamma(np.full(len(groups), concentration * w), size=(200_000, len(groups)))
    draws = g / g.sum(axis=1, keepdims=True)
    assert np.median(draws.std(axis=0) / w) == pytest.approx(formula, rel=0.02)

    rel = load_bundled(name)
    holistic = ranking.RECIPES["holistic"].weights
    got = stability.typical_weight_move(rel, holistic, concentration)
    assert got == pytest.approx(formula, rel=1e-9)
    if name != "classic":  # what the page computed: the 7-group spread over the release's 2-group weights
        old = float((stability.dirichlet_spread(holistic, concentration)[groups] / w).median())
        assert round(old, 2) != round(got, 2)


def test_typical_weight_move_of_uneven_and_single_group_recipes():
    classic = load_bundled("classic")
    eff = ranking.RECIPES["efficiency"].weights  # efficiency ×3 of 9 units: weights 1/9 ×6 and 3/9
    w = np.array([1 / 9] * 6 + [3 / 9])
    expected = float(np.median(np.sqrt(w * (1 - w) / 51) / w))
    assert stability.typical_weight_move(classic, eff, 50) == pytest.approx(expected)
    assert stability.typical_weight_move(classic, {"accuracy": 1.0}, 50) == 0.0  # one group: nothing moves
