"""podium_stability: Dirichlet perturbations of the recipe's weights, P(first) and P(top 3) per model."""
from __future__ import annotations

import time

import numpy as np
import pandas as pd
import pytest

from helm_core.ranking import RECIPES
from helm_core.stability import STABILITY_WORDS, podium_stability, recipe_stability, stability_verdict, stability_word

HOLISTIC = RECIPES["holistic"].weight_series()


def _frame(rows: dict[str, list[float]], groups=("accuracy", "robustness", "bias")) -> pd.DataFrame:
    return pd.DataFrame(rows, index=list(groups)).T


@pytest.mark.parametrize("concentration", [5.0, 50.0, 500.0])
def test_a_clearly_dominant_model_is_always_first(concentration):
    wr = _frame({"best": [0.95, 0.95, 0.95], "b": [0.5, 0.4, 0.6], "c": [0.3, 0.6, 0.5], "d": [0.1, 0.2, 0.3]})
    st = podium_stability(wr, {"accuracy": 1, "robustness": 1, "bias": 1}, n_samples=5000,
                          concentration=concentration)
    assert st.loc["best", "p_first"] == pytest.approx(1.0)
    assert st.loc["best", "p_top3"] == pytest.approx(1.0)
    assert st.loc["d", "p_first"] == 0.0
    assert st["p_first"].sum() == pytest.approx(1.0)
    assert st["p_top3"].sum() == pytest.approx(3.0)
    assert st.index[0] == "best"


@pytest.mark.parametrize("seed", [0, 7])
def test_fixed_seed_is_reproducible(seed):
    wr = _frame({"a": [0.9, 0.1, 0.5], "b": [0.1, 0.9, 0.5], "c": [0.5, 0.5, 0.5], "d": [0.4, 0.6, 0.2]})
    w = {"accuracy": 1, "robustness": 1, "bias": 1}
    one = podium_stability(wr, w, n_samples=3000, seed=seed, concentration=5)
    two = podium_stability(wr, w, n_samples=3000, seed=seed, concentration=5)
    pd.testing.assert_frame_equal(one, two)
    other = podium_stability(wr, w, n_samples=3000, seed=seed + 1, concentration=5)
    assert not one["p_first"].equals(other.reindex(one.index)["p_first"])


def test_two_symmetric_models_split_the_first_place():
    # a wins on accuracy, b on robustness, by the same margin: with equal weights each is first about half the time
    wr = _frame({"a": [0.9, 0.1, 0.5], "b": [0.1, 0.9, 0.5], "c": [0.2, 0.2, 0.2], "d": [0.1, 0.1, 0.1]})
    st = podium_stability(wr, {"accuracy": 1, "robustness": 1, "bias": 1}, n_samples=20_000, concentration=20)
    assert st.loc["a", "p_first"] == pytest.approx(0.5, abs=0.03)
    assert st.loc["b", "p_first"] == pytest.approx(0.5, abs=0.03)


def test_larger_concentration_means_a_more_stable_podium():
    wr = _frame({"a": [0.8, 0.45, 0.5], "b": [0.5, 0.7, 0.5], "c": [0.2, 0.2, 0.2], "d": [0.1, 0.1, 0.1]})
    w = {"accuracy": 1, "robustness": 1, "bias": 1}
    loose = podium_stability(wr, w, concentration=2, n_samples=10_000)
    tight = podium_stability(wr, w, concentration=2000, n_samples=10_000)
    assert tight.loc["a", "p_first"] > loose.loc["a", "p_first"]
    assert tight.loc["a", "p_first"] > 0.99


def test_zero_weight_groups_stay_out_of_the_samples():
    wr = _frame({"a": [0.9, 0.0, 0.0], "b": [0.1, 1.0, 1.0], "c": [0.5, 0.5, 0.5], "d": [0.2, 0.2, 0.2]})
    st = podium_stability(wr, {"accuracy": 1}, n_samples=2000, concentration=1)
    assert st.loc["a", "p_first"] == 1.0


@pytest.mark.parametrize(
    "missing,expected_models", [("renormalize", {"a", "b", "c", "d"}), ("exclude", {"a", "b", "d"})]
)
def test_missing_group_policy_applies_to_the_samples(missing, expected_models):
    wr = _frame({"a": [0.9, 0.5, 0.5], "b": [0.4, 0.6, 0.5], "c": [1.0, np.nan, 1.0], "d": [0.1, 0.1, 0.1]})
    st = podium_stability(wr, {"accuracy": 1, "robustness": 1, "bias": 1}, n_samples=1000, missing=missing)
    assert set(st.index) == expected_models
    if missing == "renormalize":
        assert st.loc["c", "p_first"] == 1.0  # c is best on both groups it has; flagged in recipe_scores


def test_fewer_than_three_models_are_all_on_the_podium():
    wr = _frame({"a": [0.9, 0.5, 0.5], "b": [0.4, 0.6, 0.5]})
    st = podium_stability(wr, HOLISTIC, n_samples=100)
    assert (st["p_top3"] == 1.0).all()


def test_empty_frame_gives_an_empty_result():
    st = podium_stability(pd.DataFrame(columns=["accuracy"], dtype=float), {"accuracy": 1}, n_samples=10)
    assert st.empty and list(st.columns) == ["p_first", "p_top3", "rank"]


@pytest.mark.parametrize(
    "kwargs,message",
    [
        ({"n_samples": 0}, "n_samples"),
        ({"n_samples": 2.5}, "n_samples"),
        ({"n_samples": 10_000_000}, "n_samples"),
        ({"concentration": 0}, "concentration"),
        ({"concentration": -3}, "concentration"),
        ({"concentration": float("nan")}, "concentration"),
        ({"missing": "zero"}, "missing-group policy"),
    ],
)
def test_invalid_arguments_raise(kwargs, message):
    wr = _frame({"a": [0.9, 0.5, 0.5], "b": [0.4, 0.6, 0.5]})
    with pytest.raises(ValueError, match=message):
        podium_stability(wr, HOLISTIC, **kwargs)


def test_bundled_release_holistic_and_timing(release):
    t0 = time.perf_counter()
    st = recipe_stability(release, None, tuple(RECIPES["holistic"].weights), "renormalize", 10_000, 50.0, 0)
    elapsed = time.perf_counter() - t0
    assert st["p_first"].sum() == pytest.approx(1.0)
    assert st["p_top3"].sum() == pytest.approx(3.0)
    assert st.iloc[0]["rank"] == 1  # the recipe's own winner is the most likely winner here
    assert elapsed < 2.0  # generous: the budget (200 ms) is checked in bench/, not in a timed test


def test_scales_to_a_thousand_models():
    rng = np.random.default_rng(3)
    wr = pd.DataFrame(rng.random((1000, 7)), columns=list(HOLISTIC.index), index=[f"m{i}" for i in range(1000)])
    wr[wr < 0.05] = np.nan
    st = podium_stability(wr, HOLISTIC, n_samples=10_000)
    assert len(st) == 1000
    assert st["p_top3"].sum() == pytest.approx(3.0)


@pytest.mark.parametrize(
    "weights,concentration,expected",
    [
        ({"accuracy": 1, "bias": 1}, 49.0, {"accuracy": np.sqrt(0.25 / 50), "bias": np.sqrt(0.25 / 50), "toxicity": 0.0}),
        ({"accuracy": 1}, 10.0, {"accuracy": 0.0, "bias": 0.0}),
    ],
)
def test_dirichlet_spread_is_the_weight_standard_deviation(weights, concentration, expected):
    from helm_core.stability import dirichlet_spread

    sd = dirichlet_spread(weights, concentration)
    for g, v in expected.items():
        assert sd[g] == pytest.approx(v)


def test_dirichlet_spread_matches_the_samples():
    # the empirical spread of the sampled weights matches the formula the page quotes
    from helm_core.stability import dirichlet_spread

    rng = np.random.default_rng(0)
    w = HOLISTIC.to_numpy()
    g = rng.standard_gamma(50 * w, size=(200_000, len(w)))
    emp = (g / g.sum(axis=1, keepdims=True)).std(axis=0)
    np.testing.assert_allclose(emp, dirichlet_spread(HOLISTIC, 50).to_numpy(), rtol=0.02)


@pytest.mark.parametrize("p_first,p_runner_up,n,expected", [
    # two models: a first place just above a coin flip is a toss-up, not "fairly stable"
    (0.508, 0.492, 2, "a toss-up"), (0.54, 0.46, 2, "a toss-up"), (0.60, 0.40, 2, "fragile"),
    (0.70, 0.30, 2, "fairly stable"), (0.95, 0.05, 2, "robust"),
    # many models: a majority is fairly stable, a near tie is a toss-up whatever the share
    (0.50, 0.30, 67, "fairly stable"), (0.45, 0.40, 67, "a toss-up"), (0.40, 0.20, 67, "fragile"),
    (0.90, 0.05, 67, "robust"), (0.93, 0.07, 10, "robust"), (0.34, 0.33, 3, "a toss-up"),
    (0.60, 0.20, 3, "fairly stable"), (0.52, 0.30, 3, "fragile"),
    # one model: nothing to contest
    (1.0, float("nan"), 1, "unchallenged"),
])
def test_stability_word_depends_on_margin_and_number_of_models(p_first, p_runner_up, n, expected):
    assert stability_word(p_first, p_runner_up, n) == expected
    assert expected in STABILITY_WORDS


@pytest.mark.parametrize("n,p_first", [(0, 0.5), (2, float("nan"))])
def test_stability_word_rejects_no_models_or_no_share(n, p_first):
    with pytest.raises(ValueError):
        stability_word(p_first, 0.1, n)


def test_stability_verdict_reads_the_leader_and_runner_up_from_the_samples():
    # a and b split first place about evenly: a toss-up among 4 models, chance 25%
    wr = _frame({"a": [0.9, 0.1, 0.5], "b": [0.1, 0.9, 0.5], "c": [0.2, 0.2, 0.2], "d": [0.1, 0.1, 0.1]})
    st = podium_stability(wr, {"accuracy": 1, "robustness": 1, "bias": 1}, n_samples=20_000, concentration=20)
    v = stability_verdict(st)
    assert {v.leader, v.runner_up} == {"a", "b"}
    assert v.p_first == st["p_first"].iloc[0] and v.p_runner_up == st["p_first"].iloc[1]
    assert (v.n_models, v.chance, v.word) == (4, 0.25, "a toss-up")
    one = stability_verdict(st.head(1))
    assert (one.word, one.runner_up, one.n_models) == ("unchallenged", "", 1)
    with pytest.raises(ValueError):
        stability_verdict(st.iloc[0:0])
