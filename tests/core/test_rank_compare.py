"""rank_shift and kendall_tau on hand-checked cases."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from helm_core.ranking import kendall_tau, rank_shift, recipe_scores


def ranks(**kw):
    return pd.Series(kw, dtype=float)


TAU_CASES = [
    # id, a, b, expected tau-b
    ("identical", ranks(A=1, B=2, C=3, D=4), ranks(A=1, B=2, C=3, D=4), 1.0),
    ("reversed", ranks(A=1, B=2, C=3, D=4), ranks(A=4, B=3, C=2, D=1), -1.0),
    # one adjacent swap among 4: 5 concordant, 1 discordant pair -> 4/6
    ("one_swap", ranks(A=1, B=2, C=3, D=4), ranks(A=2, B=1, C=3, D=4), 4 / 6),
    # ties in b: C=2, D=0, ties_b=1, n0=3 -> 2/sqrt(3*2)
    ("tie_in_b", ranks(A=1, B=2, C=3), ranks(A=1, B=1, C=3), 2 / np.sqrt(6)),
    # only common models count: X and Y are ignored
    ("common_only", ranks(A=1, B=2, C=3, X=4), ranks(Y=1, C=2, B=3, A=4), -1.0),
    # order of the index does not matter, only the ranks
    ("index_order", ranks(C=3, A=1, B=2), ranks(A=1, B=2, C=3), 1.0),
    ("too_few", ranks(A=1), ranks(A=1), np.nan),
    ("all_tied", ranks(A=1, B=1, C=1), ranks(A=1, B=2, C=3), np.nan),
    ("nan_dropped", ranks(A=1, B=2, C=np.nan, D=3), ranks(A=1, B=2, C=1, D=3), 1.0),
]


@pytest.mark.parametrize("name,a,b,expected", TAU_CASES, ids=[c[0] for c in TAU_CASES])
def test_kendall_tau_known_cases(name, a, b, expected):
    got = kendall_tau(a, b)
    if np.isnan(expected):
        assert np.isnan(got)
    else:
        assert got == pytest.approx(expected)


def _tau_reference(x, y):
    n, c, d, tx, ty = len(x), 0, 0, 0, 0
    for i in range(n):
        for j in range(i + 1, n):
            sx, sy = np.sign(x[i] - x[j]), np.sign(y[i] - y[j])
            if sx == 0:
                tx += 1
            if sy == 0:
                ty += 1
            if sx * sy > 0:
                c += 1
            elif sx * sy < 0:
                d += 1
    n0 = n * (n - 1) / 2
    return (c - d) / np.sqrt((n0 - tx) * (n0 - ty))


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_kendall_tau_matches_a_pairwise_reference_with_ties(seed):
    rng = np.random.default_rng(seed)
    x = rng.integers(1, 10, 40).astype(float)
    y = rng.integers(1, 10, 40).astype(float)
    idx = [f"m{i}" for i in range(40)]
    assert kendall_tau(pd.Series(x, idx), pd.Series(y, idx)) == pytest.approx(_tau_reference(x, y))


SHIFT_CASES = [
    # id, a, b, expected {model: (rank_a, rank_b, shift)}
    ("swap_top_two", ranks(A=1, B=2, C=3), ranks(A=2, B=1, C=3), {"A": (1, 2, -1), "B": (2, 1, 1), "C": (3, 3, 0)}),
    ("last_to_first", ranks(A=1, B=2, C=3), ranks(A=2, B=3, C=1), {"A": (1, 2, -1), "B": (2, 3, -1), "C": (3, 1, 2)}),
    # B is missing from b: ranks are re-computed among A, C, D so nobody "moves" just because B left
    ("left_out_model", ranks(A=1, B=2, C=3, D=4), ranks(A=1, C=3, D=4), {"A": (1, 1, 0), "C": (2, 2, 0), "D": (3, 3, 0)}),
    ("ties", ranks(A=1, B=1, C=3), ranks(A=1, B=2, C=3), {"A": (1, 1, 0), "B": (1, 2, -1), "C": (3, 3, 0)}),
]


@pytest.mark.parametrize("name,a,b,expected", SHIFT_CASES, ids=[c[0] for c in SHIFT_CASES])
def test_rank_shift_known_cases(name, a, b, expected):
    got = rank_shift(a, b)
    assert set(got.index) == set(expected)
    for m, (ra, rb, sh) in expected.items():
        assert tuple(got.loc[m, ["rank_a", "rank_b", "shift"]]) == (ra, rb, sh), m
    # sorted by the second ranking
    assert list(got["rank_b"]) == sorted(got["rank_b"])


def test_rank_shift_accepts_recipe_score_frames():
    wr = pd.DataFrame({"accuracy": [0.9, 0.5, 0.1], "bias": [0.0, 0.5, 1.0]}, index=["A", "B", "C"])
    acc = recipe_scores(wr, {"accuracy": 1})
    bias = recipe_scores(wr, {"bias": 1})
    got = rank_shift(acc, bias)
    assert got.loc["C", "shift"] == 2 and got.loc["A", "shift"] == -2
    assert kendall_tau(acc, bias) == pytest.approx(-1.0)


@pytest.mark.parametrize("bad", [[1, 2, 3], pd.DataFrame({"score": [1.0]})])
def test_bad_ranking_inputs_raise(bad):
    with pytest.raises((TypeError, ValueError), match="rank"):
        rank_shift(bad, ranks(A=1))


# ----------------------------------------------------------------------------- the model set changes win rates

from helm_core.data import cohort_models  # noqa: E402
from helm_core.ranking import paper_podium_check  # noqa: E402
from helm_core.win_rates import rival_sets  # noqa: E402
from helm_core.win_rates import group_win_rates, model_set_effect


@pytest.mark.parametrize(
    "which,direction",
    [("stronger", 1), ("weaker", -1)],
)
def test_removing_rivals_moves_a_models_win_rate(release, which, direction):
    models = release.model_names
    target = "davinci (175B)"
    removed = rival_sets(release, models, target)[which]
    assert removed
    eff = model_set_effect(release, models, target, removed).set_index("metric_group")
    # The model's scores are the same; only the field changed.
    assert np.sign(eff.loc["accuracy", "change"]) == direction
    assert eff.loc["accuracy", "n_with"] == 67
    assert eff.loc["accuracy", "n_without"] == 67 - len(removed)
    if which == "stronger":
        assert eff.loc["accuracy", "rank_without"] == 1  # it still does not win every column
        assert eff.loc["accuracy", "win_rate_without"] < 1.0


def test_model_set_effect_matches_group_win_rates(release):
    models = cohort_models(release, "paper")
    removed = ["OPT (175B)", "BLOOM (176B)"]
    eff = model_set_effect(release, models, "GPT-J (6B)", removed).set_index("metric_group")
    a = group_win_rates(release, models).loc["GPT-J (6B)"]
    b = group_win_rates(release, [m for m in models if m not in removed]).loc["GPT-J (6B)"]
    for g in ("accuracy", "bias", "efficiency"):
        assert eff.loc[g, "win_rate_with"] == pytest.approx(a[g])
        assert eff.loc[g, "win_rate_without"] == pytest.approx(b[g])


def test_model_set_effect_ignores_the_target_in_removed_and_rejects_unknown_target(release):
    eff = model_set_effect(release, release.model_names, "GPT-J (6B)", ["GPT-J (6B)"])
    assert (eff["change"].fillna(0) == 0).all()
    with pytest.raises(ValueError, match="not among"):
        model_set_effect(release, ["GPT-J (6B)"], "OPT (175B)", [])
    with pytest.raises(ValueError, match="not among"):
        rival_sets(release, ["GPT-J (6B)"], "OPT (175B)")


def test_rival_sets_partition_the_field(release):
    sets = rival_sets(release, release.model_names, "text-davinci-002")
    assert "Llama 2 (70B)" in sets["newer"] and "TNLG v2 (530B)" not in sets["newer"]
    assert len(sets["newer"]) == 67 - 28
    assert set(sets["stronger"]).isdisjoint(sets["weaker"])
    assert "text-davinci-002" not in set().union(*sets.values())


def test_paper_podium_check_compares_the_claim_with_v040(release):
    chk = paper_podium_check(release).set_index("model")
    assert list(chk["paper_place"]) == [1, 2, 3]
    # among the 2022 paper's cohort, v0.4.0 numbers give the paper's podium in order
    assert list(chk["cohort_rank"]) == [1, 2, 3]
    assert chk.loc["text-davinci-002", "cohort_win_rate"] > 0.9
    # among all 67 models newer models are ahead
    assert (chk["rank"] > 1).all() and chk["n"].eq(67).all()


from helm_core.dominance import pareto_nondominated  # noqa: E402
from helm_core.dominance import dominance_summary

DOM = pd.DataFrame(
    {"accuracy": [0.9, 0.5, 0.4, 0.9, 0.1], "bias": [0.1, 0.5, 0.4, 0.1, np.nan]},
    index=["acc_star", "balanced", "dominated", "acc_twin", "incomplete"],
)


@pytest.mark.parametrize(
    "model,expected",
    [("acc_star", True), ("balanced", True), ("dominated", False), ("acc_twin", True)],
)
def test_pareto_nondominated_on_known_cases(model, expected):
    got = pareto_nondominated(DOM, ("accuracy", "bias"))
    assert bool(got[model]) is expected
    assert "incomplete" not in got.index  # a model missing a group is left out


def test_dominance_is_rare_on_v040(release):
    # HELM's point: with many metrics, Pareto dominance almost never holds
    nd = dominance_summary(release)
    assert len(nd) >= 20
    assert nd.mean() > 0.7


@pytest.mark.parametrize("cohort", ["paper", "all"])
@pytest.mark.parametrize("recipe", ["holistic", "efficiency", "safety"])
def test_exclude_ranks_accuracy_and_recipe_on_one_set_of_models(release, cohort, recipe):
    from helm_core.data import cohort_models
    from helm_core.ranking import RECIPES, recipe_ranking

    rr = recipe_ranking(release, cohort_models(release, cohort), RECIPES[recipe].weights, "exclude")
    ranked = set(rr.recipe.index[~rr.recipe["excluded"]])
    acc_ranked = set(rr.accuracy.index[~rr.accuracy["excluded"]])
    assert acc_ranked == ranked
    # the accuracy table's ranks are the ranks the shifts start from
    assert (rr.accuracy.loc[rr.shift.index, "rank"] == rr.shift["rank_a"]).all()
    assert int(rr.accuracy["rank"].max()) <= len(ranked)


def _with_groups(release, keep: tuple[str, ...], models: list[str]):
    """`models` of the release with values in the metric groups `keep` only (a suite that measured fewer)."""
    import dataclasses

    from helm_core.data import select_models

    rel = select_models(release, models)
    res = rel.results[rel.results["metric_group"].isin(keep)].reset_index(drop=True)
    return dataclasses.replace(rel, results=res, published_win_rates=rel.published_win_rates.iloc[0:0],
                               meta={**rel.meta, "kind": "uploaded", "release_id": ""})


@pytest.mark.parametrize("keep,measured", [
    (("accuracy", "efficiency"), ("accuracy", "efficiency")),
    (("accuracy",), ("accuracy",)),
    (("accuracy", "calibration", "robustness", "fairness", "bias", "toxicity", "efficiency"),
     ("accuracy", "calibration", "robustness", "fairness", "bias", "toxicity", "efficiency")),
])
def test_dominance_check_counts_the_groups_each_model_has(release, keep, measured):
    from helm_core.dominance import dominance_check

    models = ["text-davinci-002", "GPT-J (6B)", "OPT (175B)"]
    d = dominance_check(_with_groups(release, keep, models), models)
    assert d.groups == ("accuracy", "calibration", "robustness", "fairness", "bias", "toxicity", "efficiency")
    assert d.measured == measured
    # a model counts a group when it has a win rate there, and never more groups than the suite measured
    assert set(d.group_counts.index) == set(models)
    assert (d.group_counts <= len(measured)).all()
    assert set(d.nondominated.index) <= set(models)


def test_dominance_check_on_classic_is_the_seven_group_summary(release):
    from helm_core.dominance import dominance_check

    d = dominance_check(release)
    assert len(d.measured) == 7
    pd.testing.assert_series_equal(d.nondominated, dominance_summary(release))
    # the models the check covers are exactly those with all seven
    assert set(d.nondominated.index) == set(d.group_counts.index[d.group_counts == 7])


def test_dominance_check_two_models_split_across_two_groups():
    # hand-made: a wins accuracy, b wins efficiency: neither dominates
    import dataclasses

    from helm_core.data import load_release
    from helm_core.dominance import dominance_check

    base = load_release()
    rows = []
    for m, acc, eff in (("text-davinci-002", 0.9, 2.0), ("GPT-J (6B)", 0.5, 0.5)):
        rows += [{"model": m, "scenario": "MMLU", "metric_group": "accuracy", "metric": "EM", "value": acc,
                  "lower_is_better": False},
                 {"model": m, "scenario": "MMLU", "metric_group": "efficiency", "metric": "Observed inference time (s)",
                  "value": eff, "lower_is_better": True}]
    res = pd.DataFrame(rows).assign(n_runs=1.0, run_min=np.nan, run_max=np.nan, note="")
    res["lower_is_better"] = res["lower_is_better"].astype("boolean")
    rel = dataclasses.replace(base, results=res, models=base.models[base.models["model"].isin(
        ["text-davinci-002", "GPT-J (6B)"])].reset_index(drop=True),
        published_win_rates=base.published_win_rates.iloc[0:0], meta={"kind": "uploaded", "release": "x"})
    d = dominance_check(rel)
    assert d.measured == ("accuracy", "efficiency")
    assert d.group_counts.to_dict() == {"text-davinci-002": 2, "GPT-J (6B)": 2}
    assert d.nondominated.to_dict() == {"text-davinci-002": True, "GPT-J (6B)": True}
