"""helm_core.calibration: ECE against hand-computed cases and a straight port of HELM's algorithm, input
validation, selective accuracy, the simulation, and what v0.4.0 says about the paper's calibration claims."""
from __future__ import annotations

import bisect
import dataclasses

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helm_core import calibration as cal
from helm_core.data import select_models

# ----------------------------------------------------------------------------- a reference port of HELM


def helm_reference_ece(probs, correct, num_bins=10, uniform=False):
    """HELM calibration.get_ece_em / get_ece, written out with lists and bisect as the original does."""
    probs = [float(p) for p in probs]
    if uniform:
        bins = [i / num_bins for i in range(1, num_bins + 1)]
    else:
        sorted_probs = sorted(probs)
        k = min(num_bins, len(sorted_probs))
        splits = [list(a) for a in np.array_split(sorted_probs, k)]
        bins = [(splits[i][-1] + splits[i + 1][0]) / 2.0 for i in range(len(splits) - 1)] + [1.0]
        bins = sorted(set(bins))
    binned = [[] for _ in bins]
    for p, c in zip(probs, correct):
        binned[bisect.bisect_left(bins, p)].append((p, c))
    n = len(probs)
    total = 0.0
    for data in binned:
        if data:
            total += len(data) / n * abs(np.mean([c - p for p, c in data]))
    return total


# ----------------------------------------------------------------------------- hand-computed cases

HAND_CASES = [
    # id, probs, correct, n_bins, strategy, expected ECE
    ("always_sure_70pct_right", [1.0] * 10, [1] * 7 + [0] * 3, 10, "equal_mass", 0.30),
    ("always_sure_70pct_right_uniform", [1.0] * 10, [1] * 7 + [0] * 3, 10, "uniform", 0.30),
    ("perfect_two_levels", [0.25] * 4 + [0.75] * 4, [1, 0, 0, 0, 1, 1, 1, 0], 10, "equal_mass", 0.0),
    ("perfect_two_levels_uniform", [0.25] * 4 + [0.75] * 4, [1, 0, 0, 0, 1, 1, 1, 0], 10, "uniform", 0.0),
    ("constant_conf_overconfident", [0.6] * 10, [1] * 9 + [0], 10, "equal_mass", 0.30),
    ("constant_conf_calibrated", [0.9] * 10, [1] * 9 + [0], 10, "equal_mass", 0.0),
    ("constant_conf_underconfident_uniform", [0.2] * 5, [1] * 5, 10, "uniform", 0.80),
    ("tie_at_equal_mass_edge", [0.1, 0.2, 0.2, 0.2, 0.9, 0.9], [0, 0, 0, 1, 1, 1], 2, "equal_mass", 0.5 / 6),
    ("one_sample", [0.8], [0], 10, "equal_mass", 0.8),
    ("one_bin_is_overall_gap", [0.2, 0.4, 0.9, 0.5], [1, 0, 1, 1], 1, "equal_mass", 0.75 - 0.5),
    ("all_wrong_at_zero", [0.0, 0.0, 0.0], [0, 0, 0], 10, "uniform", 0.0),
]


@pytest.mark.parametrize("name,probs,correct,n_bins,strategy,expected", HAND_CASES, ids=[c[0] for c in HAND_CASES])
def test_hand_computed_ece(name, probs, correct, n_bins, strategy, expected):
    assert cal.ece(probs, correct, n_bins, strategy) == pytest.approx(expected, abs=1e-12)
    assert cal.ece(probs, correct, n_bins, strategy) == pytest.approx(
        helm_reference_ece(probs, correct, n_bins, strategy == "uniform"), abs=1e-12)


BIN_CASES = [
    # id, probs, correct, n_bins, strategy, expected counts of the non-empty bins, in order
    ("tie_goes_to_lower_bin", [0.1, 0.2, 0.2, 0.2, 0.9, 0.9], [0, 0, 0, 1, 1, 1], 2, "equal_mass", [4, 2]),
    ("uniform_edge_value_goes_down", [0.5, 1.0], [0, 1], 2, "uniform", [1, 1]),
    ("uniform_just_above_edge", [0.5000001, 1.0], [0, 1], 2, "uniform", [2]),
    ("equal_mass_even_split", [i / 20 for i in range(20)], [1] * 20, 10, "equal_mass", [2] * 10),
    ("fewer_samples_than_bins", [0.3, 0.6, 0.9], [1, 0, 1], 10, "equal_mass", [1, 1, 1]),
    ("all_tied_one_bin", [0.7] * 12, [1] * 12, 10, "equal_mass", [12]),
]


@pytest.mark.parametrize("name,probs,correct,n_bins,strategy,counts", BIN_CASES, ids=[c[0] for c in BIN_CASES])
def test_reliability_bin_counts(name, probs, correct, n_bins, strategy, counts):
    bins = cal.reliability_bins(probs, correct, n_bins, strategy)
    assert list(bins.columns) == cal.BIN_COLUMNS
    assert bins.loc[bins["count"] > 0, "count"].tolist() == counts
    assert int(bins["count"].sum()) == len(probs)
    assert (bins["upper"].diff().dropna() > 0).all() and bins["upper"].iloc[-1] == 1.0


def test_reliability_bins_values_for_the_tie_case():
    bins = cal.reliability_bins([0.1, 0.2, 0.2, 0.2, 0.9, 0.9], [0, 0, 0, 1, 1, 1], 2)
    assert bins["mean_confidence"].tolist() == pytest.approx([0.175, 0.9])
    assert bins["accuracy"].tolist() == pytest.approx([0.25, 1.0])
    assert bins["gap"].tolist() == pytest.approx([0.075, 0.1])


def test_uniform_keeps_empty_bins_with_nan_means():
    bins = cal.reliability_bins([0.95, 0.97], [1, 0], 10, "uniform")
    assert len(bins) == 10
    assert bins["count"].tolist() == [0] * 9 + [2]
    assert bins["accuracy"].iloc[:9].isna().all()


# ----------------------------------------------------------------------------- validation

BAD_INPUTS = [
    ("length_mismatch", [0.5, 0.6], [1], "same length"),
    ("empty", [], [], "at least one sample"),
    ("above_one", [0.5, 1.2], [1, 0], r"\[0, 1\]"),
    ("negative", [-0.1], [1], r"\[0, 1\]"),
    ("nan_prob", [float("nan")], [1], r"\[0, 1\]"),
    ("inf_prob", [float("inf")], [1], r"\[0, 1\]"),
    ("correct_not_binary", [0.5, 0.5], [1, 2], "0 or 1"),
    ("correct_fraction", [0.5], [0.5], "0 or 1"),
    ("prob_text", ["high"], [1], "numbers"),
    ("correct_text", [0.5], ["yes"], "0/1"),
    ("two_dimensional", [[0.5, 0.5]], [1], "one-dimensional"),
]


@pytest.mark.parametrize("name,probs,correct,message", BAD_INPUTS, ids=[c[0] for c in BAD_INPUTS])
def test_invalid_inputs_raise_clear_errors(name, probs, correct, message):
    for fn in (cal.ece, cal.reliability_bins, cal.selective_accuracy, cal.summarize):
        with pytest.raises(ValueError, match=message):
            fn(probs, correct)


@pytest.mark.parametrize("n_bins,strategy,message", [
    (0, "equal_mass", "positive integer"), (2.5, "equal_mass", "positive integer"), (True, "uniform", "positive integer"),
    (10, "quantile", "unknown bin strategy"),
])
def test_bad_bin_arguments(n_bins, strategy, message):
    with pytest.raises(ValueError, match=message):
        cal.ece([0.5, 0.6], [1, 0], n_bins, strategy)


def test_booleans_and_float_labels_are_accepted():
    assert cal.ece([1.0, 1.0], [True, False]) == pytest.approx(0.5)
    assert cal.ece(np.array([1.0, 1.0]), pd.Series([1.0, 0.0])) == pytest.approx(0.5)


@pytest.mark.parametrize("n,flag", [(1, True), (299, True), (300, False), (5000, False)])
def test_few_samples_flag(n, flag):
    assert cal.few_samples(n) is flag
    probs = np.linspace(0, 1, n)
    assert cal.summarize(probs, (probs > 0.5).astype(int))["few_samples"] is flag


# ----------------------------------------------------------------------------- selective accuracy

SELECTIVE = [
    ("top_10pct_of_10", [0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2, 0.1, 0.05], [1, 0, 0, 0, 0, 0, 0, 0, 0, 0], 0.1, 1.0),
    ("top_20pct_of_10", [0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2, 0.1, 0.05], [1, 0, 0, 0, 0, 0, 0, 0, 0, 0], 0.2, 0.5),
    ("full_coverage_is_accuracy", [0.2, 0.4, 0.6, 0.8], [1, 1, 0, 1], 1.0, 0.75),
    ("ties_at_cutoff_all_kept", [0.9, 0.9, 0.9, 0.1], [1, 0, 0, 1], 0.25, 1 / 3),
    ("tiny_coverage_keeps_one", [0.3, 0.7], [0, 1], 0.01, 1.0),
]


@pytest.mark.parametrize("name,probs,correct,coverage,expected", SELECTIVE, ids=[c[0] for c in SELECTIVE])
def test_selective_accuracy(name, probs, correct, coverage, expected):
    assert cal.selective_accuracy(probs, correct, coverage) == pytest.approx(expected)


@pytest.mark.parametrize("coverage", [0, -0.1, 1.5, float("nan")])
def test_selective_accuracy_rejects_bad_coverage(coverage):
    with pytest.raises(ValueError, match="coverage"):
        cal.selective_accuracy([0.5], [1], coverage)


# ----------------------------------------------------------------------------- properties

samples = st.integers(min_value=1, max_value=400).flatmap(
    lambda n: st.tuples(
        st.lists(st.floats(min_value=0, max_value=1, allow_nan=False), min_size=n, max_size=n),
        st.lists(st.integers(min_value=0, max_value=1), min_size=n, max_size=n),
    )
)


@settings(max_examples=150, deadline=None)
@given(data=samples, strategy=st.sampled_from(cal.STRATEGIES), n_bins=st.integers(1, 15))
def test_ece_in_unit_interval_and_matches_helm(data, strategy, n_bins):
    probs, correct = data
    e = cal.ece(probs, correct, n_bins, strategy)
    assert 0.0 <= e <= 1.0
    assert e == pytest.approx(helm_reference_ece(probs, correct, n_bins, strategy == "uniform"), abs=1e-9)


@settings(max_examples=100, deadline=None)
@given(data=samples, strategy=st.sampled_from(cal.STRATEGIES), seed=st.integers(0, 2**16))
def test_ece_and_bins_invariant_to_sample_order(data, strategy, seed):
    probs, correct = np.array(data[0]), np.array(data[1])
    perm = np.random.default_rng(seed).permutation(len(probs))
    assert cal.ece(probs[perm], correct[perm], 10, strategy) == pytest.approx(cal.ece(probs, correct, 10, strategy),
                                                                             abs=1e-12)
    a = cal.reliability_bins(probs, correct, 10, strategy)
    b = cal.reliability_bins(probs[perm], correct[perm], 10, strategy)
    assert a["count"].tolist() == b["count"].tolist()
    assert cal.selective_accuracy(probs[perm], correct[perm]) == cal.selective_accuracy(probs, correct)


@settings(max_examples=60, deadline=None)
@given(data=samples)
def test_one_bin_ece_is_the_overall_gap(data):
    probs, correct = data
    assert cal.ece(probs, correct, 1) == pytest.approx(abs(np.mean(correct) - np.mean(probs)), abs=1e-9)


# ----------------------------------------------------------------------------- simulation


def test_simulation_is_seeded_and_labelled_columns():
    a = cal.simulate(0.7, 0.5, 500, seed=3)
    b = cal.simulate(0.7, 0.5, 500, seed=3)
    pd.testing.assert_frame_equal(a, b)
    assert list(a.columns) == ["prob", "correct"] and len(a) == 500
    assert a["prob"].between(0, 1).all() and set(a["correct"]) <= {0, 1}
    assert not a.equals(cal.simulate(0.7, 0.5, 500, seed=4))


@pytest.mark.parametrize("accuracy", [0.3, 0.7, 0.9])
def test_simulation_accuracy_tracks_the_parameter(accuracy):
    sim = cal.simulate(accuracy, 0.0, 20_000, seed=1)
    assert sim["correct"].mean() == pytest.approx(accuracy, abs=0.02)
    # calibrated in expectation: stated confidence averages the share correct
    assert sim["prob"].mean() == pytest.approx(sim["correct"].mean(), abs=0.02)


def test_overconfidence_sags_the_curve_and_grows_ece():
    eces = [cal.simulated_reliability(0.7, o, 5000, seed=2)["ece"] for o in (0.0, 0.5, 1.0)]
    assert eces[0] < 0.05 < eces[1] < eces[2]
    over = cal.simulated_reliability(0.7, 1.0, 5000, seed=2)
    assert (over["bins"]["gap"].dropna() < 0).mean() > 0.8  # below the diagonal: accuracy < confidence
    under = cal.simulated_reliability(0.7, -1.0, 5000, seed=2)
    assert (under["bins"]["gap"].dropna() > 0).mean() > 0.8
    assert under["mean_confidence"] < under["accuracy"] < over["mean_confidence"]


@pytest.mark.parametrize("args,message", [
    ((0.0, 0.0, 10), "accuracy"), ((1.0, 0.0, 10), "accuracy"), ((0.5, 5.0, 10), "overconfidence"),
    ((0.5, float("nan"), 10), "overconfidence"), ((0.5, 0.0, 0), "positive"), ((0.5, 0.0, 2.5), "whole"),
])
def test_simulation_rejects_bad_parameters(args, message):
    with pytest.raises(ValueError, match=message):
        cal.simulate(*args)


# ----------------------------------------------------------------------------- per-instance confidences


def test_confidence_table_validates_and_drops_rows_without_probability():
    df = pd.DataFrame({"model": ["m", "m", "m"], "scenario": ["s", "s", "s"], "prob": [0.9, None, 0.2],
                       "correct": [1, 0, False]})
    out = cal.confidence_table(df)
    assert out["prob"].tolist() == [0.9, 0.2] and out["correct"].tolist() == [1, 0]
    assert list(out.columns) == list(cal.INSTANCE_COLUMNS) and (out["run"] == "").all()
    with pytest.raises(ValueError, match="lacks column"):
        cal.confidence_table(pd.DataFrame({"prob": [0.5]}))
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        cal.confidence_table(pd.DataFrame({"prob": [1.5], "correct": [1]}))
    with pytest.raises(ValueError, match="DataFrame"):
        cal.confidence_table([0.5])


def test_bundled_release_has_no_instances(release):
    assert cal.release_instances(release).empty
    assert cal.instance_groups(release).empty


def test_release_with_instances_gives_a_real_diagram(release):
    rng = np.random.default_rng(0)
    inst = pd.DataFrame({"model": ["A"] * 400 + ["B"] * 50, "scenario": ["BoolQ"] * 450,
                         "prob": rng.random(450), "correct": rng.integers(0, 2, 450)})
    rel = dataclasses.replace(release, meta={**release.meta, "instances": inst})
    groups = cal.instance_groups(rel)
    assert groups[["model", "n", "label"]].values.tolist() == [["A", 400, "A · BoolQ"], ["B", 50, "B · BoolQ"]]
    out = cal.release_reliability(rel, "B", "BoolQ")
    assert out["n"] == 50 and out["few_samples"] and out["simulated"] is False
    sel = inst[inst["model"] == "B"]
    assert out["ece"] == pytest.approx(cal.ece(sel["prob"], sel["correct"]))
    with pytest.raises(ValueError, match="no per-instance"):
        cal.release_reliability(rel, "C", "BoolQ")


def test_helm_output_confidences_are_grouped_per_run(release):
    """helm_core.helm_output puts meta['instance_confidences'] with a run column; several runs of one
    (model, scenario) are kept apart and labelled by run."""
    inst = pd.DataFrame({"model": ["A"] * 6, "scenario": ["MMLU"] * 6, "run": ["mmlu:subject=x"] * 4 + ["mmlu:subject=y"] * 2,
                         "prob": [0.9, 0.8, 0.7, 0.6, 1.0, 1.0], "correct": [1, 1, 0, 1, 1, 0]})
    rel = dataclasses.replace(release, meta={**release.meta, "instance_confidences": inst})
    groups = cal.instance_groups(rel)
    assert groups["label"].tolist() == ["A · MMLU · mmlu:subject=x", "A · MMLU · mmlu:subject=y"]
    assert cal.release_reliability(rel, "A", "MMLU", "mmlu:subject=y")["ece"] == pytest.approx(0.5)
    assert cal.release_reliability(rel, "A", "MMLU", "mmlu:subject=x")["n"] == 4


# ----------------------------------------------------------------------------- the release


@pytest.mark.parametrize("x,y,expected", [
    ([1, 2, 3, 4], [10, 20, 30, 40], 1.0),
    ([1, 2, 3, 4], [4, 3, 2, 1], -1.0),
    ([1, 2, 3, 4], [1, 4, 9, 16], 1.0),  # monotone but not linear: Spearman 1
    ([1, 2, 2, 3], [1, 2, 3, 4], 0.9486832980505138),  # ties share the average rank
    ([1, 2], [1, 2], float("nan")),
    ([1, 1, 1], [1, 2, 3], float("nan")),
    ([1, None, 3, 4], [2, 5, 6, 8], 1.0),
])
def test_rank_correlation(x, y, expected):
    got = cal.rank_correlation(x, y)
    if np.isnan(expected):
        assert np.isnan(got)
    else:
        assert got == pytest.approx(expected)


def test_accuracy_vs_ece_hellaswag(release):
    d = cal.accuracy_vs_ece(release, "HellaSwag")
    assert len(d) == 29 and d["accuracy"].is_monotonic_decreasing
    assert d[["accuracy", "ece"]].notna().all().all()
    row = d[d["model"] == "text-davinci-002"].iloc[0]
    res = release.results
    truth = res[(res["model"] == "text-davinci-002") & (res["scenario"] == "HellaSwag")]
    assert row["ece"] == truth.loc[truth["metric"] == cal.ECE_METRIC, "value"].iloc[0]
    assert row["accuracy"] == truth.loc[truth["metric_group"] == "accuracy", "value"].iloc[0]


def test_calibration_scenarios_follow_the_data(release):
    scen = cal.calibration_scenarios(release)
    assert len(scen) == 12
    assert not {"MS MARCO (regular)", "MS MARCO (TREC)", "CNN/DailyMail", "XSUM"} & set(scen)


VERDICTS = [
    # claim id, expected verdict on all 67 models; the sign of the rank correlation
    ("calibration_hellaswag", "agrees", 1),
    ("calibration_openbookqa", "agrees", -1),
    ("calibration_civilcomments", "disagrees", -1),
]


@pytest.mark.parametrize("claim_id,verdict,sign", VERDICTS, ids=[v[0] for v in VERDICTS])
def test_claim_verdicts_on_v040(release, claim_id, verdict, sign):
    v = cal.claim_verdicts(release).set_index("claim_id").loc[claim_id]
    assert v["verdict"] == verdict
    assert np.sign(v["spearman"]) == sign
    assert v["scenario"] in v["detail"]


def test_civilcomments_counts_models_below_the_threshold(release):
    v = cal.claim_verdicts(release).set_index("claim_id").loc["calibration_civilcomments"]
    d = cal.accuracy_vs_ece(release, "CivilComments")
    assert v["n_below_threshold"] == int((d["ece"] < 0.40).sum()) > 0
    assert f"{int(v['n_below_threshold'])} of {len(d)}" in v["detail"]


@pytest.mark.parametrize("rho,sign,expected", [
    (0.8, 1, "agrees"), (-0.8, 1, "disagrees"), (0.1, 1, "no clear relation"), (-0.5, -1, "agrees"),
    (float("nan"), 1, "not enough data"),
])
def test_direction_verdict_rule(rho, sign, expected):
    assert cal._direction_verdict(rho, sign) == expected


def test_claim_verdicts_with_too_few_models(release):
    v = cal.claim_verdicts(release, ["text-davinci-002", "davinci (175B)"])
    assert (v["verdict"] == "not enough data").all()
    assert v["n_models"].max() <= 2


def test_claim_verdicts_when_scenario_missing(release):
    res = release.results
    rel = dataclasses.replace(release, results=res[res["scenario"] != "HellaSwag"].reset_index(drop=True))
    v = cal.claim_verdicts(rel).set_index("claim_id")
    assert v.loc["calibration_hellaswag", "verdict"] == "not enough data"
    assert v.loc["calibration_openbookqa", "verdict"] == "agrees"


def test_models_without_ece(release):
    gaps = cal.models_without_ece(release)
    never = set(gaps.loc[gaps["n_with_ece"] == 0, "model"])
    assert {"gpt-3.5-turbo-0301", "gpt-3.5-turbo-0613", "Falcon (40B)"} <= never
    assert "text-davinci-002" not in set(gaps["model"])
    # check against the raw table for one scenario
    hs = cal.models_without_ece(release, "HellaSwag")
    res = release.results
    acc = set(res[(res["scenario"] == "HellaSwag") & (res["metric_group"] == "accuracy") & res["value"].notna()]["model"])
    ece = set(res[(res["scenario"] == "HellaSwag") & (res["metric"] == cal.ECE_METRIC) & res["value"].notna()]["model"])
    assert set(hs["model"]) == acc - ece
    assert (hs["n_missing"] == 1).all()


def test_models_without_ece_respects_the_cohort(release):
    cohort = ["gpt-3.5-turbo-0301", "text-davinci-002"]
    gaps = cal.models_without_ece(release, None, cohort)
    assert gaps["model"].tolist() == ["gpt-3.5-turbo-0301"]
    assert cal.models_without_ece(select_models(release, cohort))["model"].tolist() == ["gpt-3.5-turbo-0301"]


@pytest.mark.parametrize("method,scenarios", [("joint", ["MMLU", "TruthfulQA"]), ("separate", ["HellaSwag"]),
                                              ("separate-calibrated", ["OpenbookQA"])])
def test_method_scenarios(release, method, scenarios):
    d = cal.method_scenarios(release, method)
    assert d["scenario"].tolist() == scenarios
    assert (d["models_with_accuracy"] >= d["models_with_ece"]).all() and (d["models_with_ece"] > 0).all()


def test_method_scenarios_rejects_unknown_method(release):
    with pytest.raises(ValueError, match="multiple-choice method"):
        cal.method_scenarios(release, "chain-of-thought")


# ----------------------------------------------------------------------------- what HELM published; a suite's methods


def test_published_calibration_on_classic_and_on_a_suite_without_ece(release):
    assert cal.published_calibration(release) == {"has_ece": True, "metrics": ["ECE (10-bin)"]}
    assert cal.published_ece(release, "text-davinci-002", "BoolQ") == pytest.approx(
        release.results.query("model == 'text-davinci-002' and scenario == 'BoolQ' and metric == 'ECE (10-bin)'")
        ["value"].iloc[0])
    assert np.isnan(cal.published_ece(release, "no such model", "BoolQ"))
    res = release.results
    maxprob = res[res["metric"] == "ECE (10-bin)"].assign(metric="Max prob")
    suite = dataclasses.replace(release, results=pd.concat([res[res["metric_group"] != "calibration"], maxprob]))
    assert cal.published_calibration(suite) == {"has_ece": False, "metrics": ["Max prob"]}
    none = dataclasses.replace(release, results=res[res["metric_group"] != "calibration"])
    assert cal.published_calibration(none) == {"has_ece": False, "metrics": []}


SCEN = pd.DataFrame({"scenario": ["LSAT", "bAbI"], "main_metric": ["exact_match", "exact_match"],
                     "main_split": ["test", "test"], "main_metric_display": ["EM", "EM"]})


def _runs(rows):
    return pd.DataFrame(rows, columns=["run", "model", "scenario", "method"])


def _stats(rows):
    return pd.DataFrame(rows, columns=["run", "name", "split", "sub_split", "perturbation", "count", "mean"])


@pytest.mark.parametrize("runs,stats,expected", [
    # the same model and scenario under joint and separate: one row per run, joint first
    ([("j", "P", "LSAT", "multiple_choice_joint"), ("s", "P", "LSAT", "multiple_choice_separate_original")],
     [("j", "exact_match", "test", "", "", 5, 0.6), ("s", "exact_match", "test", "", "", 5, 0.8),
      ("s", "exact_match", "test", "", "robustness", 5, 0.1), ("j", "ece_10_bin", "test", "", "", 5, 0.3)],
     [("P", "LSAT", "joint", 0.6, 0.3), ("P", "LSAT", "separate", 0.8, np.nan)]),
    # one method only, or generation: nothing to compare
    ([("j", "P", "LSAT", "multiple_choice_joint"), ("g", "P", "bAbI", "generation")],
     [("j", "exact_match", "test", "", "", 5, 0.6)], []),
    # two models, each with one method: not a comparison of one model
    ([("j", "P", "LSAT", "multiple_choice_joint"), ("s", "Q", "LSAT", "multiple_choice_separate_original")],
     [("j", "exact_match", "test", "", "", 5, 0.6), ("s", "exact_match", "test", "", "", 5, 0.8)], []),
    # a count-0 stat has no mean: the value is missing, not 0
    ([("c", "P", "LSAT", "multiple_choice_separate_calibrated"), ("j", "P", "LSAT", "multiple_choice_joint")],
     [("c", "exact_match", "test", "", "", 0, np.nan), ("j", "exact_match", "test", "", "", 5, 0.4)],
     [("P", "LSAT", "joint", 0.4, np.nan), ("P", "LSAT", "separate-calibrated", np.nan, np.nan)]),
])
def test_method_comparison(runs, stats, expected):
    got = cal.method_comparison(_runs(runs), _stats(stats), SCEN)
    assert list(got.columns) == cal.METHOD_COMPARISON_COLUMNS
    assert [(r.model, r.scenario, r.method) for r in got.itertuples()] == [e[:3] for e in expected]
    np.testing.assert_allclose(got["value"].to_numpy(dtype=float), [e[3] for e in expected])
    np.testing.assert_allclose(got["ece"].to_numpy(dtype=float), [e[4] for e in expected])


def test_method_comparison_of_nothing_is_empty():
    assert cal.method_comparison(None, None, None).empty
    assert cal.method_comparison(_runs([]), _stats([]), SCEN).empty


@pytest.mark.parametrize("values,expected", [
    ((0.6, 0.8), "P on LSAT (EM): 0.600 with joint, 0.800 with separate: separate is 0.200 higher than joint."),
    ((0.7, 0.7), "P on LSAT (EM): 0.700 with joint, 0.700 with separate: the same model scores the same under each "
                 "method."),
    ((0.9, np.nan), "P on LSAT (EM): 0.900 with joint, no value with separate."),
])
def test_method_sentences(values, expected):
    comp = pd.DataFrame({"model": "P", "scenario": "LSAT", "method": ["joint", "separate"], "run": ["j", "s"],
                         "metric": "EM", "split": "test", "value": list(values), "ece": np.nan})
    assert cal.method_sentences(comp) == [expected]
