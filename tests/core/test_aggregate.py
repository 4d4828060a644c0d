"""helm_core.aggregate: HELM's own ranking per release (classic and Lite "Mean win rate", Capabilities "Mean score"),
read from data/ and reproduced from the release's cells within rounding. Top threes are read with plain pandas."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from helm_core import aggregate as A
from helm_core.data import Release, Taxonomy, load_bundled

DATA = Path(__file__).resolve().parents[2] / "data"
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


@pytest.fixture(scope="module")
def bundled():
    return {n: load_bundled(n) for n in ("classic", "lite", "capabilities")}


def _published_csv(name: str) -> tuple[pd.DataFrame, str]:
    if name == "classic":
        return pd.read_csv(DATA / "published_win_rates.csv"), "win_rate"
    if name == "lite":
        return pd.read_csv(DATA / "releases" / "lite" / "published_win_rates.csv"), "win_rate"
    return pd.read_csv(DATA / "releases" / "capabilities" / "published_scores.csv"), "score"


@pytest.mark.parametrize("name,aggregate,top3", [
    ("classic", "Mean win rate", ["Llama 2 (70B)", "LLaMA (65B)", "text-davinci-002"]),
    ("lite", "Mean win rate", ["GPT-4o (2024-05-13)", "GPT-4o (2024-08-06)", "DeepSeek v3"]),
    ("capabilities", "Mean score", ["GPT-5 mini (2025-08-07)", "o4-mini (2025-04-16)", "o3 (2025-04-16)"]),
])
def test_published_top_three_read_from_data(bundled, name, aggregate, top3):
    pub, col = _published_csv(name)
    acc = pub[pub["metric_group"] == "accuracy"].sort_values([col, "model"], ascending=[False, True])
    assert acc["model"].head(3).tolist() == top3  # plain pandas
    rel = bundled[name]
    ranking = A.published_ranking(rel)
    assert A.aggregate_name(rel) == aggregate == ranking.attrs["aggregate"]
    assert ranking["model"].head(3).tolist() == top3 == A.published_top(rel)
    assert ranking["rank"].head(3).tolist() == [1, 2, 3]
    assert len(ranking) == len(acc) == len(rel.models)
    assert ranking.set_index("model")["value"].to_dict() == pytest.approx(acc.set_index("model")[col].to_dict())


@pytest.mark.parametrize("name,group,tolerance", [
    # inputs rounded to 3 decimals: HELM's own win rates within 0.01 (DESIGN.md §4), its mean scores within 0.001
    ("classic", "accuracy", 0.01), ("lite", "accuracy", 0.01), ("capabilities", "accuracy", 0.001),
    # efficiency cells at full precision (later releases): the same numbers
    ("lite", "efficiency", 1e-9), ("capabilities", "efficiency", 1e-9), ("classic", "efficiency", 0.01),
])
def test_reproduction_matches_the_published_aggregate(bundled, name, group, tolerance):
    rel = bundled[name]
    cmp = A.compare_rankings(rel, group)
    assert len(cmp) > 0 and cmp["reproduced"].notna().all()
    assert A.max_difference(rel, group) <= tolerance
    # the reproduction ranks the published top three in the top five
    rep = A.reproduced_ranking(rel, group).set_index("model")["rank"]
    assert all(rep[m] <= 5 for m in A.published_top(rel, 3, group))


def test_capabilities_mean_score_is_the_row_mean_of_its_five_scores(bundled):
    """HELM's compute_aggregate_row_means, recomputed with plain pandas from results.csv."""
    res = pd.read_csv(DATA / "releases" / "capabilities" / "results.csv")
    acc = res[(res["metric_group"] == "accuracy") & res["value"].notna()]
    assert acc.groupby("model")["scenario"].nunique().eq(5).all()
    means = acc.groupby("model")["value"].mean()
    pub, _ = _published_csv("capabilities")
    pub = pub[pub["metric_group"] == "accuracy"].set_index("model")["score"]
    assert (means.reindex(pub.index) - pub).abs().max() <= 0.001
    assert A.mean_scores(bundled["capabilities"]).dropna().to_dict() == pytest.approx(means.to_dict())
    eff = A.published_ranking(bundled["capabilities"], "efficiency")  # seconds: lower is better, rank 1 fastest
    assert eff["value"].is_monotonic_increasing and eff.attrs["aggregate"] == "Mean score"


def test_capabilities_publishes_no_win_rates(bundled):
    rel = bundled["capabilities"]
    assert rel.published_win_rates.empty and not rel.published_scores.empty
    assert A.reproduced_ranking(rel).attrs["aggregate"] == "Mean score"


def _small(rows, published_scores=None, meta=None) -> Release:
    res = pd.DataFrame(rows, columns=["model", "scenario", "metric", "value"])
    res["metric_group"] = "accuracy"
    res["lower_is_better"] = pd.array([False] * len(res), dtype="boolean")
    res[["n_runs", "run_min", "run_max"]] = np.nan
    res["note"] = ""
    models = sorted(set(res["model"]))
    tax = Taxonomy(scenarios=pd.DataFrame({"scenario": sorted(set(res["scenario"]))}),
                   metric_groups=pd.DataFrame(), design_grid=pd.DataFrame())
    kw = {} if published_scores is None else {"published_scores": published_scores}
    return Release(results=res, models=pd.DataFrame({"model": models}), taxonomy=tax,
                   meta={"release": "small", **(meta or {})}, **kw)


@pytest.mark.parametrize("rows,expected", [
    # HELM skips empty cells: a row's mean is over the cells it has
    ([("a", "S1", "EM", 0.5), ("a", "S2", "EM", 1.0), ("b", "S1", "EM", 0.2), ("b", "S2", "EM", np.nan)],
     {"a": 0.75, "b": 0.2}),
    # every column of the table counts, several metrics of one scenario too
    ([("a", "S1", "EM", 0.0), ("a", "S1", "F1", 0.6), ("b", "S1", "EM", 0.3)], {"a": 0.3, "b": 0.3}),
    ([("a", "S1", "EM", np.nan)], {}),
])
def test_mean_score_golden_cases(rows, expected):
    rel = _small(rows, published_scores=pd.DataFrame({"model": ["a"], "metric_group": ["accuracy"], "score": [0.0]}))
    assert A.mean_scores(rel).dropna().to_dict() == pytest.approx(expected)
    ranked = A.reproduced_ranking(rel)
    assert ranked.attrs == {"aggregate": "Mean score", "group": "accuracy", "kind": "reproduced"}
    if expected:
        best = max(expected.values())
        assert ranked.loc[ranked["rank"] == 1, "model"].tolist() == sorted(m for m, v in expected.items() if v == best)


def test_ties_share_the_better_rank():
    rel = _small([("a", "S", "EM", 0.5), ("b", "S", "EM", 0.5), ("c", "S", "EM", 0.1)],
                 published_scores=pd.DataFrame({"model": ["a", "b", "c"], "metric_group": ["accuracy"] * 3,
                                                "score": [0.5, 0.5, 0.1]}))
    pub = A.published_ranking(rel)
    assert pub[["model", "rank"]].values.tolist() == [["a", 1], ["b", 1], ["c", 3]]


def test_a_user_suite_publishes_nothing():
    from helm_core.helm_output import read_helm_output

    rel = read_helm_output(FIXTURES / "helm_run_examples").release
    assert A.aggregate_name(rel) is None
    pub = A.published_ranking(rel)
    assert pub.empty and list(pub.columns) == A.RANKING_COLUMNS and pub.attrs["aggregate"] is None
    assert A.compare_rankings(rel).empty and np.isnan(A.max_difference(rel))
    assert A.reproduced_ranking(rel).attrs["aggregate"] == "Mean win rate"  # HELM's default aggregation


def test_a_group_without_values_is_empty(bundled):
    assert A.published_ranking(bundled["lite"], "toxicity").empty
    assert A.reproduced_ranking(bundled["lite"], "toxicity").empty


@pytest.mark.parametrize("name,cohort,kind,top3", [
    # the whole release: HELM's published ranking
    ("classic", "all", "published", ["Llama 2 (70B)", "LLaMA (65B)", "text-davinci-002"]),
    ("lite", "all", "published", ["GPT-4o (2024-05-13)", "GPT-4o (2024-08-06)", "DeepSeek v3"]),
    ("capabilities", "all", "published", ["GPT-5 mini (2025-08-07)", "o4-mini (2025-04-16)", "o3 (2025-04-16)"]),
    # the 2022 paper's 28 models: the mean win rate recomputed among them (the paper's own podium comes back)
    ("classic", "paper", "reproduced", ["text-davinci-002", "TNLG v2 (530B)", "Anthropic-LM v4-s3 (52B)"]),
])
def test_cohort_ranking_is_published_for_the_whole_release_and_reproduced_for_a_cohort(bundled, name, cohort, kind,
                                                                                     top3):
    from helm_core.data import cohort_models

    rel = bundled[name]
    models = cohort_models(rel, cohort)
    r = A.cohort_ranking(rel, models)
    assert r.attrs["kind"] == kind and r.attrs["published"] is True
    assert r.attrs["aggregate"] == A.aggregate_name(rel)
    assert r["model"].head(3).tolist() == top3 and len(r) == len(models)
    if kind == "reproduced":
        pd.testing.assert_frame_equal(r, A.reproduced_ranking(rel, "accuracy", models))


def test_cohort_ranking_of_a_subset_is_recomputed_among_it(bundled):
    rel = bundled["capabilities"]
    few = A.published_ranking(rel)["model"].iloc[[5, 2, 9]].tolist()
    r = A.cohort_ranking(rel, few)
    assert r.attrs["kind"] == "reproduced" and sorted(r["model"]) == sorted(few)
    assert r["rank"].tolist() == [1, 2, 3]
    assert r["model"].iloc[0] == few[1]  # the best of the three on HELM's mean score


def test_cohort_ranking_of_a_suite_without_tables_says_nothing_was_published():
    from helm_core.helm_output import read_helm_output

    rel = read_helm_output(FIXTURES / "helm_run_examples").release
    r = A.cohort_ranking(rel)
    assert r.attrs["kind"] == "reproduced" and r.attrs["published"] is False
    assert r.attrs["aggregate"] == "Mean win rate"
