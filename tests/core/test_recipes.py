"""Recipes: weights are validated and normalised; missing groups are handled by an explicit policy, never as zero."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from helm_core.ranking import (MISSING_POLICIES, RECIPE_GROUPS, RECIPES, group_coverage, normalize_weights,
                               recipe_ranking, recipe_scores)
from helm_core.win_rates import shown_group_win_rates

N = np.nan
# models × groups (only three groups used here; the rest are absent columns)
WR = pd.DataFrame(
    {
        "accuracy": [0.9, 0.6, 0.3, 0.1],
        "calibration": [0.2, 0.8, N, 0.5],
        "toxicity": [0.4, 0.5, 0.9, N],
    },
    index=pd.Index(["A", "B", "C", "D"], name="model"),
)


@pytest.mark.parametrize(
    "weights,expected",
    [
        ({"accuracy": 1}, {"accuracy": 1.0}),
        ({"accuracy": 2, "bias": 2}, {"accuracy": 0.5, "bias": 0.5}),
        ({"accuracy": 3, "toxicity": 1}, {"accuracy": 0.75, "toxicity": 0.25}),
        ([1, 1, 1, 1, 1, 1, 1], {g: 1 / 7 for g in RECIPE_GROUPS}),
        (pd.Series({"efficiency": 0.2, "fairness": 0.6}), {"efficiency": 0.25, "fairness": 0.75}),
        ({"accuracy": 1, "summarization_metrics": 1}, {"accuracy": 0.5, "summarization_metrics": 0.5}),
    ],
    ids=["one", "equal_pair", "three_to_one", "sequence", "series", "extra_group"],
)
def test_weights_are_normalised(weights, expected):
    w = normalize_weights(weights)
    assert w.sum() == pytest.approx(1.0)
    assert list(w.index[: len(RECIPE_GROUPS)]) == list(RECIPE_GROUPS)
    for g in w.index:
        assert w[g] == pytest.approx(expected.get(g, 0.0)), g


@pytest.mark.parametrize(
    "weights,message",
    [
        ({"accuracy": 0, "bias": 0}, "at least one weight"),
        ({}, "at least one weight"),
        ({"accuracy": -1, "bias": 2}, "must not be negative"),
        ({"accuracy": float("nan")}, "must be finite"),
        ({"accuracy": float("inf")}, "must be finite"),
        ({"accuracy": "3"}, "must be a number"),
        ({"accuracy": True}, "must be a number"),
        ({"speed": 1}, "unknown metric group"),
        ([1, 2, 3], "expected 7 weights"),
    ],
    ids=["all_zero", "empty", "negative", "nan", "inf", "string", "bool", "unknown_group", "short_sequence"],
)
def test_invalid_weights_raise_clear_errors(weights, message):
    with pytest.raises(ValueError, match=message):
        normalize_weights(weights)


def test_weights_of_the_wrong_type_raise():
    with pytest.raises(TypeError, match="mapping"):
        normalize_weights("accuracy")


@pytest.mark.parametrize("name", list(RECIPES))
def test_built_in_recipes_are_valid(name):
    w = RECIPES[name].weight_series()
    assert w.sum() == pytest.approx(1.0)
    assert (w >= 0).all()
    assert set(w.index) == set(RECIPE_GROUPS)


@pytest.mark.parametrize(
    "name,heavier,lighter",
    [("safety", "bias", "accuracy"), ("safety", "toxicity", "efficiency"), ("efficiency", "efficiency", "accuracy")],
)
def test_push_recipes_weight_their_groups_up(name, heavier, lighter):
    w = RECIPES[name].weight_series()
    assert w[heavier] > w[lighter] > 0


def test_holistic_is_equal_weights_over_the_seven_groups():
    w = RECIPES["holistic"].weight_series()
    np.testing.assert_allclose(w.to_numpy(), 1 / 7)
    assert len(w) == 7


def test_accuracy_only_recipe_equals_accuracy_win_rate_ranking(release):
    wr, _ = shown_group_win_rates(release)
    s = recipe_scores(wr, RECIPES["accuracy"].weight_series())
    np.testing.assert_allclose(s["score"].to_numpy(), wr["accuracy"].reindex(s.index).to_numpy())
    expected_rank = wr["accuracy"].rank(ascending=False, method="min")
    np.testing.assert_array_equal(s["rank"].to_numpy(), expected_rank.reindex(s.index).to_numpy())
    assert not s["flagged"].any()
    assert s.index[0] == wr["accuracy"].idxmax()


@pytest.mark.parametrize(
    "missing,model,score,flagged,excluded,covered",
    [
        # C lacks calibration: renormalise over accuracy + toxicity (weights 1/3, 1/3 -> 1/2, 1/2)
        ("renormalize", "C", (0.3 + 0.9) / 2, True, False, 2 / 3),
        ("renormalize", "D", (0.1 + 0.5) / 2, True, False, 2 / 3),
        ("renormalize", "A", (0.9 + 0.2 + 0.4) / 3, False, False, 1.0),
        ("exclude", "C", N, True, True, 2 / 3),
        ("exclude", "D", N, True, True, 2 / 3),
        ("exclude", "B", (0.6 + 0.8 + 0.5) / 3, False, False, 1.0),
    ],
)
def test_missing_group_policies(missing, model, score, flagged, excluded, covered):
    s = recipe_scores(WR, {"accuracy": 1, "calibration": 1, "toxicity": 1}, missing=missing)
    row = s.loc[model]
    if np.isnan(score):
        assert np.isnan(row["score"]) and np.isnan(row["rank"])
    else:
        assert row["score"] == pytest.approx(score)
    assert bool(row["flagged"]) is flagged
    assert bool(row["excluded"]) is excluded
    assert row["weight_covered"] == pytest.approx(covered)


def test_missing_group_is_never_scored_as_zero():
    # C is best on toxicity and has no calibration: scoring the blank as 0 would give (0.3+0+0.9)/3 = 0.4.
    s = recipe_scores(WR, {"accuracy": 1, "calibration": 1, "toxicity": 1})
    assert s.loc["C", "score"] != pytest.approx(0.4)
    assert s.loc["C", "missing_groups"] == "calibration"
    assert s.loc["A", "missing_groups"] == ""


def test_model_with_none_of_the_weighted_groups_is_excluded_even_when_renormalising():
    s = recipe_scores(WR, {"calibration": 1}, missing="renormalize")
    assert bool(s.loc["C", "excluded"]) and np.isnan(s.loc["C", "score"])
    assert list(s.index[:3]) == ["B", "D", "A"]  # ranked; excluded last


def test_group_absent_from_the_frame_counts_as_missing_for_everyone():
    s = recipe_scores(WR, {"accuracy": 1, "efficiency": 1})
    assert s["flagged"].all()
    np.testing.assert_allclose(s.loc[["A", "B", "C", "D"], "score"], [0.9, 0.6, 0.3, 0.1])
    s = recipe_scores(WR, {"accuracy": 1, "efficiency": 1}, missing="exclude")
    assert s["excluded"].all()


def test_ranks_ties_share_the_better_rank_and_rows_sort_by_rank():
    wr = pd.DataFrame({"accuracy": [0.5, 0.9, 0.5, 0.1]}, index=["x", "y", "z", "w"])
    s = recipe_scores(wr, {"accuracy": 1})
    assert list(s.index) == ["y", "x", "z", "w"]
    assert list(s["rank"]) == [1, 2, 2, 4]


def test_zero_weight_groups_do_not_flag():
    s = recipe_scores(WR, {"accuracy": 1, "calibration": 0})
    assert not s["flagged"].any()


@pytest.mark.parametrize("bad", ["zero", "drop", None])
def test_unknown_missing_policy_raises(bad):
    with pytest.raises(ValueError, match="missing-group policy"):
        recipe_scores(WR, {"accuracy": 1}, missing=bad)


def test_group_wr_must_be_a_frame():
    with pytest.raises(TypeError, match="DataFrame"):
        recipe_scores(WR["accuracy"], {"accuracy": 1})


def test_group_coverage_counts_models_per_group():
    cov = group_coverage(WR)
    assert cov["accuracy"] == 4 and cov["calibration"] == 3 and cov["efficiency"] == 0


@pytest.mark.parametrize("missing", MISSING_POLICIES)
def test_recipe_ranking_bundle_on_the_bundled_release(release, missing):
    rr = recipe_ranking(release, None, tuple(RECIPES["holistic"].weights), missing)
    assert rr.kind == "published"
    assert rr.coverage["efficiency"] == 26
    assert len(rr.accuracy) == 67
    if missing == "exclude":
        complete = rr.group_wr.notna().all(axis=1)
        assert 0 < complete.sum() < 26  # only models with all 7 groups stay (Anthropic-LM lacks calibration)
        assert set(rr.recipe.index[~rr.recipe["excluded"]]) == set(complete[complete].index)
        assert rr.recipe.loc[~rr.recipe["excluded"], "flagged"].eq(False).all()
    else:
        assert rr.recipe["excluded"].sum() == 0
    assert -1 <= rr.tau <= 1


def test_recipe_ranking_recomputes_for_a_sub_cohort(release):
    from helm_core.data import cohort_models

    rr = recipe_ranking(release, tuple(cohort_models(release, "paper")), (("accuracy", 1.0),))
    assert rr.kind == "recomputed"
    assert rr.recipe.index[0] == "text-davinci-002"
    assert rr.tau == pytest.approx(1.0)
