"""helm_core.metrics: group overview, profiles, Spearman without scipy, correlation with accuracy."""
from __future__ import annotations

from dataclasses import replace

import numpy as np
import pandas as pd
import pytest

from helm_core import metrics as M
from helm_core.data import CORE_GROUPS, cohort_models
from helm_core.win_rates import shown_group_win_rates


@pytest.fixture(scope="module")
def sparse(release):
    """Six paper models; T5 has no value at all, and nobody has a value on RAFT."""
    keep = ["text-davinci-002", "OPT (175B)", "T5 (11B)", "davinci (175B)", "GPT-J (6B)", "BLOOM (176B)"]
    res = release.results[release.results["model"].isin(keep)].copy()
    res.loc[res["model"] == "T5 (11B)", "value"] = np.nan
    res.loc[res["scenario"] == "RAFT", "value"] = np.nan
    return replace(release, results=res.reset_index(drop=True),
                   models=release.models[release.models["model"].isin(keep)].reset_index(drop=True),
                   published_win_rates=release.published_win_rates.iloc[0:0])


# Spearman golden cases (values checked by hand: rank, then Pearson on ranks).
@pytest.mark.parametrize("x,y,rho,n", [
    ([1, 2, 3, 4], [10, 20, 30, 40], 1.0, 4),
    ([1, 2, 3, 4], [4, 3, 2, 1], -1.0, 4),
    ([1, 2, 3, 4], [1, 2, 3, 100], 1.0, 4),  # monotone, not linear
    ([1, 2, 2, 4], [4, 3, 2, 1], -0.9486832980505138, 4),  # a tie gets the average rank
    ([1, 2, np.nan, 4, 5], [2, 1, 3, np.nan, 5], 0.5, 3),  # pairs with a NaN are dropped
    ([1, 1, 1], [1, 2, 3], np.nan, 3),  # constant side
    ([1], [2], np.nan, 1),
    ([], [], np.nan, 0),
])
def test_spearman(x, y, rho, n):
    got, got_n = M.spearman(x, y)
    assert got_n == n
    if np.isnan(rho):
        assert np.isnan(got)
    else:
        assert got == pytest.approx(rho)


def test_spearman_matches_pearson_on_ranks(release):
    rng = np.random.default_rng(3)
    x, y = rng.random(50), rng.random(50)
    ref = np.corrcoef(pd.Series(x).rank(), pd.Series(y).rank())[0, 1]
    assert M.spearman(x, y)[0] == pytest.approx(ref)


def test_spearman_length_mismatch():
    with pytest.raises(ValueError):
        M.spearman([1, 2], [1, 2, 3])


def test_group_overview(release):
    ov = M.group_overview(release).set_index("metric_group")
    assert list(ov.index) == list(CORE_GROUPS)
    assert ov.loc["calibration", "direction"] == "lower is better"
    assert ov.loc["accuracy", "direction"] == "higher is better"
    assert ov.loc["calibration", "n_schema"] == 12 and ov.loc["bias", "n_schema"] == 12
    assert ov.loc["bias", "n_data"] == 9  # IMDB and both MS MARCO tracks hold no bias value
    assert "ECE (10-bin)" in ov.loc["calibration", "metrics"]
    assert (ov["how_computed"] != "").all() and (ov["source"] != "").all()
    assert "XSUM" not in ov.loc["robustness", "schema_scenarios"].split("; ")
    assert "(3 seeds of in-context examples for most cells)" in ov.loc["accuracy", "how_computed"]


@pytest.mark.parametrize("name,runs", [("lite", "(its tables record no seeds)"),
                                       ("capabilities", "(zero-shot, one run each)")])
def test_group_overview_says_each_releases_own_seeds(name, runs):
    """How accuracy is computed names the seeds the release ran, not classic's 3 (helm_core.seeds)."""
    from helm_core.data import load_bundled

    how = M.group_overview(load_bundled(name)).set_index("metric_group").loc["accuracy", "how_computed"]
    assert runs in how and "3 seeds" not in how


def test_group_overview_for_the_sparse_cohort(sparse):
    ov = M.group_overview(sparse).set_index("metric_group")
    assert "RAFT" not in ov.loc["accuracy", "data_scenarios"].split("; ")
    assert ov.loc["accuracy", "n_data"] == 15


@pytest.mark.parametrize("cohort,kind", [("all", "published"), ("paper", "recomputed")])
def test_profiles_kind_and_values(release, cohort, kind):
    names = cohort_models(release, cohort)
    chosen = ["text-davinci-002", "OPT (175B)"]
    prof, got_kind = M.profiles(release, names, chosen)
    assert got_kind == kind
    assert len(prof) == 2 * 7 and list(prof["model"].unique()) == chosen
    ref, _ = shown_group_win_rates(release, names)
    for r in prof.itertuples():
        assert r.win_rate == pytest.approx(ref.loc[r.model, r.metric_group], nan_ok=True)


@pytest.mark.parametrize("chosen,match", [
    (["GPT-9"], "not in the cohort"),
    (["LLaMA (65B)"], "not in the cohort"),  # not in the paper cohort
    ([], None),
])
def test_profiles_validation(release, chosen, match):
    names = cohort_models(release, "paper")
    if match is None:
        prof, _ = M.profiles(release, names, chosen)
        assert prof.empty
    else:
        with pytest.raises(ValueError, match=match):
            M.profiles(release, names, chosen)


def test_profiles_at_most_six(release):
    names = cohort_models(release, "all")
    with pytest.raises(ValueError, match="at most"):
        M.profiles(release, names, names[:7])


def test_profile_of_a_model_without_values_is_all_nan(sparse):
    prof, kind = M.profiles(sparse, sparse.model_names, ["T5 (11B)", "OPT (175B)"])
    assert kind == "recomputed"
    assert prof.loc[prof["model"] == "T5 (11B)", "win_rate"].isna().all()
    assert prof.loc[prof["model"] == "OPT (175B)", "win_rate"].notna().any()


@pytest.mark.parametrize("cohort,scenario,group,sign,status", [
    ("paper", "HellaSwag", "calibration", -1, "ok"),  # more accurate, worse calibrated (paper: r > 0.85 with ECE)
    ("paper", "OpenbookQA", "calibration", +1, "ok"),  # more accurate, better calibrated
    ("all", "MMLU", "robustness", +1, "ok"),
    ("all", "MMLU", "bias", 0, "HELM has no such metric here"),
    ("all", "CivilComments", "bias", 0, "too few models with both values (2)"),
    ("all", "CivilComments", "toxicity", 0, "no variation (all values tie)"),
    ("all", "IMDB", "toxicity", 0, "no model of the cohort has both values"),
])
def test_accuracy_correlations(release, cohort, scenario, group, sign, status):
    corr = M.accuracy_correlations(release, cohort_models(release, cohort)).set_index(["scenario", "metric_group"])
    row = corr.loc[(scenario, group)]
    assert row["status"] == status
    if sign == 0:
        assert np.isnan(row["agreement"])
    else:
        assert np.sign(row["agreement"]) == sign and abs(row["agreement"]) > 0.5


def test_correlation_frame_shape_and_orientation(release):
    corr = M.accuracy_correlations(release)
    assert len(corr) == 16 * 6 and list(corr.columns) == M.CORR_COLUMNS
    ok = corr[corr["status"] == "ok"]
    flipped = ok["lower_is_better"].astype(bool)
    assert np.allclose(ok.loc[flipped, "agreement"], -ok.loc[flipped, "rho"])
    assert np.allclose(ok.loc[~flipped, "agreement"], ok.loc[~flipped, "rho"])
    assert ok["agreement"].between(-1, 1).all()


def test_correlation_agrees_with_the_pair_scatter(release):
    corr = M.accuracy_correlations(release).set_index(["scenario", "metric_group"])
    pv = M.pair_values(release, "HellaSwag", "calibration")
    rho, n = M.spearman(pv["accuracy"], pv["value"])
    assert n == corr.loc[("HellaSwag", "calibration"), "n"] == len(pv)
    assert rho == pytest.approx(corr.loc[("HellaSwag", "calibration"), "rho"])


@pytest.mark.parametrize("bias_metric", M.BIAS_METRICS)
def test_bias_metric_choice(release, bias_metric):
    corr = M.accuracy_correlations(release, bias_metric=bias_metric)
    bias = corr[corr["metric_group"] == "bias"]
    assert set(bias.loc[bias["metric"] != "", "metric"]) == {bias_metric}


def test_pair_values_leave_out_contaminated_cells(release):
    with_t0 = M.pair_values(release, "IMDB", "calibration", exclude_contaminated=False)
    without = M.pair_values(release, "IMDB", "calibration")
    assert "T0pp (11B)" in set(with_t0["model"]) and "T0pp (11B)" not in set(without["model"])


@pytest.mark.parametrize("group", ["accuracy", "speed", ""])
def test_pair_values_bad_group(release, group):
    with pytest.raises(ValueError):
        M.pair_values(release, "MMLU", group)


def test_sparse_cohort_correlations(sparse):
    corr = M.accuracy_correlations(sparse).set_index(["scenario", "metric_group"])
    assert np.isnan(corr.loc[("RAFT", "robustness"), "agreement"])  # nobody ran RAFT
    assert corr.loc[("MMLU", "robustness"), "n"] == 5  # T5 has no value
    pv = M.pair_values(sparse, "MMLU", "robustness")
    assert "T5 (11B)" not in set(pv["model"])


def test_correlation_summary(release):
    s = M.correlation_summary(M.accuracy_correlations(release)).set_index("metric_group")
    assert list(s.index) == list(M.OTHER_GROUPS)
    assert s.loc["robustness", "median_agreement"] > 0.9
    assert s.loc["calibration", "min_agreement"] < 0 < s.loc["calibration", "max_agreement"]


@pytest.mark.parametrize("cohort,k", [("all", 3), ("paper", 2)])
def test_default_profile_models(release, cohort, k):
    names = cohort_models(release, cohort)
    got = M.default_profile_models(release, names, k)
    assert len(got) == k and set(got) <= set(names)
    table, _ = shown_group_win_rates(release, names)
    assert table.loc[got, list(CORE_GROUPS)].notna().all(axis=None)
    assert M.default_profile_models(release, [], k) == []


# ----------------------------------------------------------------------------- a suite with its own schema


@pytest.fixture(scope="module")
def own_suite():
    from pathlib import Path

    from helm_core import helm_output as ho

    return ho.read_helm_output(Path(__file__).resolve().parents[1] / "fixtures" / "helm_output_0516").release


@pytest.mark.parametrize("group, direction, metrics, own", [
    ("accuracy", "higher is better", "EM, Macro-F1", "Macro-F1: Population-level macro-averaged F1 score."),
    ("calibration", "no direction", "Max prob", "Max prob: Model's average confidence in its prediction"),
    ("efficiency", "lower is better", "Observed inference time (s)", "Average observed time to process a request"),
    ("robustness", "higher is better", "", ""),  # no column: classic's description, no own one
])
def test_group_overview_describes_the_suites_own_columns(own_suite, group, direction, metrics, own):
    row = M.group_overview(own_suite).set_index("metric_group").loc[group]
    assert row["direction"] == direction and row["metrics"] == metrics
    assert (own in row["own_definition"]) if own else row["own_definition"] == ""


def test_group_overview_on_classic_has_no_own_definitions(release):
    assert (M.group_overview(release)["own_definition"] == "").all()


# ----------------------------------------------------------------------------- the compact groups table, leaders


@pytest.mark.parametrize("definition,short", [
    ("Denoised inference runtime in seconds: API time with contention removed.", "Denoised inference runtime in seconds"),
    ("Observed inference time in seconds, as the deployment answered (not classic's denoised time); lower is faster.",
     "Observed inference time in seconds, as the deployment answered"),
    ("Fraction of generations that Perspective API scores at 0.5 or more (toxic_frac).",
     "Fraction of generations that Perspective API scores at 0.5 or more"),
    ("The main metric under the worst case over counterfactual dialect perturbations.",
     "The main metric under the worst case over counterfactual dialect perturbations"),
    ("", ""),
])
def test_short_definition(definition, short):
    assert M.short_definition(definition) == short


def test_group_overview_counts_cells_with_a_value(release):
    names = cohort_models(release, "paper")
    ov = M.group_overview(release, names).set_index("metric_group")
    assert (ov["cells"] == 28 * 16).all()
    assert ov.loc["accuracy", "n_cells"] == 427  # the exam's measured cells
    assert (ov["n_cells"] <= ov["n_data"] * 28).all()


@pytest.mark.parametrize("rows,expected", [
    ([("a", "Accuracy", 0.9), ("b", "Accuracy", 0.5), ("a", "Bias", 0.2), ("b", "Bias", 0.7)],
     [("Accuracy", "a", 0.9, 1), ("Bias", "b", 0.7, 1)]),
    ([("a", "Accuracy", 0.5), ("b", "Accuracy", 0.5), ("a", "Bias", float("nan")), ("b", "Bias", float("nan"))],
     [("Accuracy", "a", 0.5, 2)]),
])
def test_group_leaders(rows, expected):
    prof = pd.DataFrame(rows, columns=["model", "group_label", "win_rate"])
    got = M.group_leaders(prof)
    assert [tuple(r) for r in got.itertuples(index=False)] == expected


@pytest.mark.parametrize("medians,tracks,not_tracks", [
    ([0.93, 0.98, 0.1, float("nan")], ["b", "c"], ["d"]),
    ([0.5, 0.49, float("nan"), float("nan")], ["b"], ["c"]),
])
def test_tracking(medians, tracks, not_tracks):
    summary = pd.DataFrame({"group_label": list("bcde"), "median_agreement": medians})
    yes, no = M.tracking(summary)
    assert list(yes["group_label"]) == tracks and list(no["group_label"]) == not_tracks
