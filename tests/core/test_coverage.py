"""helm_core.coverage: coverage matrix and rates, comparable ground, its shrinking, pairwise overlap."""
from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from helm_core import coverage as C
from helm_core.data import cohort_models

NO_LOGPROB = ["HellaSwag", "OpenbookQA", "MS MARCO (regular)", "MS MARCO (TREC)"]
ALL16 = 16


@pytest.fixture(scope="module")
def sparse(release):
    """Three models; T5 has no value at all, and nobody has a value on RAFT."""
    keep = ["text-davinci-002", "OPT (175B)", "T5 (11B)"]
    res = release.results[release.results["model"].isin(keep)].copy()
    res.loc[res["model"] == "T5 (11B)", "value"] = np.nan
    res.loc[res["scenario"] == "RAFT", "value"] = np.nan
    return replace(release, results=res.reset_index(drop=True),
                   models=release.models[release.models["model"].isin(keep)].reset_index(drop=True))


@pytest.mark.parametrize("cohort,access,models,measured", [
    ("paper", None, 28, 427),
    ("all", None, 67, 878),
    ("paper", ["closed"], 3, 48),
])
def test_coverage_summary(release, cohort, access, models, measured):
    names = cohort_models(release, cohort, access)
    s = C.coverage_summary(release, {"x": names}).iloc[0]
    assert s["models"] == models and s["measured"] == measured and s["cells"] == models * ALL16
    assert s["rate"] == pytest.approx(measured / (models * ALL16))
    assert C.coverage_rate(release, names) == pytest.approx(s["rate"])


def test_coverage_summary_empty_cohort_is_nan(release):
    s = C.coverage_summary(release, {"none": []}).iloc[0]
    assert s["models"] == 0 and np.isnan(s["rate"])


@pytest.mark.parametrize("models,expected", [
    (["T5 (11B)", "Anthropic-LM v4-s3 (52B)"],
     [s for s in ["MMLU", "BoolQ", "NarrativeQA", "NaturalQuestions (closed-book)", "NaturalQuestions (open-book)",
                  "QuAC", "TruthfulQA", "CNN/DailyMail", "XSUM", "IMDB", "CivilComments", "RAFT"]]),
    (["text-davinci-002"], None),  # all 16
    (["text-davinci-002", "TNLG v2 (530B)"], None),
    (["LLaMA (65B)", "T5 (11B)"], ["MMLU", "BoolQ", "NarrativeQA", "NaturalQuestions (closed-book)",
                                   "NaturalQuestions (open-book)", "QuAC", "TruthfulQA", "IMDB", "CivilComments",
                                   "RAFT"]),
    ([], None),  # no model: every scenario is vacuously shared
])
def test_comparable_ground(release, models, expected):
    got = C.comparable_ground(release, models)
    assert got == (expected if expected is not None else release.taxonomy.scenario_names)


def test_comparable_ground_unknown_model(release):
    with pytest.raises(ValueError, match="unknown model"):
        C.comparable_ground(release, ["text-davinci-002", "GPT-9"])


def test_comparable_ground_with_a_model_without_values(sparse):
    assert C.comparable_ground(sparse, ["text-davinci-002", "T5 (11B)"]) == []
    assert "RAFT" not in C.comparable_ground(sparse, ["text-davinci-002"])


@pytest.mark.parametrize("order,shared,lost_at", [
    (["text-davinci-002", "T5 (11B)", "LLaMA (65B)"], [16, 16, 12, 10], {2: NO_LOGPROB, 3: ["CNN/DailyMail", "XSUM"]}),
    (["LLaMA (65B)", "T5 (11B)"], [16, 10, 10], {1: NO_LOGPROB + ["CNN/DailyMail", "XSUM"]}),
    ([], [16], {}),
])
def test_shared_ground_curve_shrinks(release, order, shared, lost_at):
    c = C.shared_ground_curve(release, order)
    assert c["shared"].tolist() == shared
    assert c["step"].tolist() == list(range(len(order) + 1))
    assert (np.diff(c["shared"].to_numpy()) <= 0).all()
    for step, lost in lost_at.items():
        assert set(c.loc[step, "lost"].split("; ")) == set(lost)


def test_shared_ground_curve_ends_at_comparable_ground(release):
    order = cohort_models(release, "all")
    c = C.shared_ground_curve(release, order)
    assert c["shared"].iloc[-1] == len(C.comparable_ground(release, order))


@pytest.mark.parametrize("a,b,shared", [
    ("T5 (11B)", "Anthropic-LM v4-s3 (52B)", 12),
    ("text-davinci-002", "TNLG v2 (530B)", 16),
    ("LLaMA (65B)", "T5 (11B)", 10),
    ("Alpaca (7B)", "Jurassic-2 Large (7.5B)", 8),
])
def test_pairwise_overlap(release, a, b, shared):
    ov = C.pairwise_overlap(release)
    assert ov.shape == (67, 67)
    assert ov.loc[a, b] == ov.loc[b, a] == shared
    assert ov.loc[a, b] == len(C.comparable_ground(release, [a, b]))


def test_pairwise_overlap_diagonal_is_own_coverage(release):
    ov = C.pairwise_overlap(release)
    own = C.coverage_matrix(release).sum(axis=1)
    assert (np.diag(ov.to_numpy()) == own.to_numpy()).all()


def test_overlap_pairs_long_form(release):
    names = cohort_models(release, "paper")
    p = C.overlap_pairs(release, names)
    assert len(p) == 28 * 27 // 2
    assert p["shared"].is_monotonic_increasing
    assert p.iloc[0]["shared"] == 12


def test_overlap_with_a_model_without_values(sparse):
    ov = C.pairwise_overlap(sparse)
    assert (ov.loc["T5 (11B)"] == 0).all()
    assert ov.loc["text-davinci-002", "OPT (175B)"] == 15  # RAFT is blank for everyone


@pytest.mark.parametrize("model,measured,missing", [
    ("text-davinci-002", 16, []),
    ("T5 (11B)", 12, NO_LOGPROB),
    ("LLaMA (65B)", 10, NO_LOGPROB + ["CNN/DailyMail", "XSUM"]),
])
def test_model_coverage(release, model, measured, missing):
    mc = C.model_coverage(release).set_index("model")
    row = mc.loc[model]
    assert row["measured"] == measured and row["total"] == 16
    assert row["share"] == pytest.approx(measured / 16)
    assert set(filter(None, row["missing"].split("; "))) == set(missing)


def test_model_coverage_sorted_and_flagged(release):
    mc = C.model_coverage(release)
    assert mc["share"].is_monotonic_decreasing
    assert int(mc["paper_cohort"].sum()) == 28


@pytest.mark.parametrize("scenario,group,measured,total", [
    ("HellaSwag", "in the 2022 paper's cohort", 23, 28),
    ("HellaSwag", "added after the paper", 9, 39),
    ("MS MARCO (regular)", "in the 2022 paper's cohort", 22, 28),
    ("XSUM", "added after the paper", 14, 39),
    ("MMLU", "added after the paper", 39, 39),
])
def test_scenario_coverage_shows_the_thinning(release, scenario, group, measured, total):
    sc = C.scenario_coverage(release).set_index(["scenario", "group"])
    row = sc.loc[(scenario, group)]
    assert row["measured"] == measured and row["total"] == total


def test_scenario_coverage_unsplit_and_paper_only(release):
    assert set(C.scenario_coverage(release, split=False)["group"]) == {"all models"}
    paper = C.scenario_coverage(release, cohort_models(release, "paper"))
    assert set(paper["group"]) == {"in the 2022 paper's cohort"} and len(paper) == 16


def test_scenario_nobody_ran(sparse):
    sc = C.scenario_coverage(sparse, split=False).set_index("scenario")
    assert sc.loc["RAFT", "measured"] == 0
    assert not C.coverage_matrix(sparse)["RAFT"].any()


# ----------------------------------------------------------------------------- by group, counts, date, overlap


@pytest.mark.parametrize("cohort,groups", [
    ("paper", [("in the 2022 paper's cohort", 28, 22, 448, 427)]),
    ("all", [("in the 2022 paper's cohort", 28, 22, 448, 427), ("added after the paper", 39, 8, 624, 451)]),
])
def test_coverage_by_group(release, cohort, groups):
    got = C.coverage_by_group(release, cohort_models(release, cohort))
    assert [tuple(r) for r in got[["group", "models", "complete", "cells", "measured"]].itertuples(index=False)] == groups
    assert (got["rate"] == got["measured"] / got["cells"]).all()


def test_coverage_by_group_is_one_group_off_classic(release):
    later = replace(release, meta={**release.meta, "kind": "upload", "release": "mine", "release_id": ""})
    got = C.coverage_by_group(later, later.model_names)
    assert list(got["group"]) == ["all models"] and int(got["models"].iloc[0]) == 67


@pytest.mark.parametrize("cohort,expected", [
    ("paper", {(12, "in the 2022 paper's cohort"): 5, (15, "in the 2022 paper's cohort"): 1,
               (16, "in the 2022 paper's cohort"): 22}),
    ("all", {(10, "added after the paper"): 25, (11, "added after the paper"): 1, (12, "added after the paper"): 4,
             (12, "in the 2022 paper's cohort"): 5, (14, "added after the paper"): 1,
             (15, "in the 2022 paper's cohort"): 1, (16, "added after the paper"): 8,
             (16, "in the 2022 paper's cohort"): 22}),
])
def test_coverage_counts(release, cohort, expected):
    got = C.coverage_counts(release, cohort_models(release, cohort))
    assert {(r.measured, r.group): r.n_models for r in got.itertuples()} == expected
    assert list(got["measured"]) == sorted(got["measured"])
    twelve = got[(got["measured"] == 12) & (got["group"] == "in the 2022 paper's cohort")]
    assert set(twelve["models"].iloc[0].split("; ")) == {"T0pp (11B)", "T5 (11B)", "UL2 (20B)", "GLM (130B)",
                                                         "YaLM (100B)"}


@pytest.mark.parametrize("cohort,sign,strong", [("paper", -1, False), ("all", -1, True)])
def test_date_rank_correlation(release, cohort, sign, strong):
    """In the paper's cohort coverage hardly follows the release date; over all 67 models, later models have
    fewer scenarios."""
    rho, n = C.date_rank_correlation(release, cohort_models(release, cohort))
    assert n == len(cohort_models(release, cohort))
    assert np.sign(rho) == sign and (abs(rho) >= 0.5) == strong


@pytest.mark.parametrize("models,expected", [
    (["text-davinci-002", "OPT (175B)", "T5 (11B)"], {12: 2, 16: 1}),
    (["text-davinci-002"], {}),
])
def test_overlap_counts(release, models, expected):
    got = C.overlap_counts(release, models)
    assert dict(zip(got["shared"], got["pairs"])) == expected
    assert int(got["pairs"].sum()) == len(models) * (len(models) - 1) // 2
