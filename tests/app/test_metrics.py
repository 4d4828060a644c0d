"""AppTest: the Metric Orbit page: the seven groups, profiles (published vs recomputed), correlation and scatter."""
from __future__ import annotations

import pytest

from .coverage_helpers import loaded, notices, open_story_page
from .helpers import open_chart_data, open_lazy, tables, texts

PAGE = "app_pages/metrics.py"


def _frame(at, column):
    return next(d.value for d in open_chart_data(at).dataframe if column in d.value.columns)


def test_the_seven_groups_are_described():
    t = texts(open_story_page(PAGE))
    for label in ("Accuracy", "Calibration", "Robustness", "Fairness", "Bias", "Toxicity", "Efficiency"):
        assert f"**{label}**" in t
    assert "10 bins of equal mass" in t and "Perspective API" in t and "mild&#95;mix" in t
    assert "lower is better" in t and "higher is better" in t


def test_profile_defaults_and_published_kind():
    at = open_story_page(PAGE)
    assert at.multiselect(key="models").value == ["text-davinci-002", "OPT (175B)", "Cohere xlarge v20220609 (52.4B)"]
    assert "Win rates shown: **published** by HELM for all 67 models" in texts(at)
    table = _frame(at, "Accuracy")
    assert table.set_index("model").loc["text-davinci-002", "Accuracy"] == pytest.approx(0.905)


def test_profile_is_recomputed_for_a_sub_cohort():
    at = open_story_page(PAGE, query={"cohort": "paper"})
    assert "Win rates shown: **recomputed** among the 28 models" in texts(at)
    assert at.multiselect(key="models").value[0] == "text-davinci-002"


def test_choosing_models_changes_the_profile():
    at = open_story_page(PAGE)
    at.multiselect(key="models").set_value(["LLaMA (65B)", "T5 (11B)"]).run()
    assert not at.exception
    table = _frame(at, "Accuracy")
    assert table["model"].tolist() == ["LLaMA (65B)", "T5 (11B)"]
    assert "LLaMA (65B) · Calibration" in texts(at)  # a gap, said in words


def test_models_from_the_url():
    at = open_story_page(PAGE, query={"models": ["TNLG v2 (530B)", "BLOOM (176B)"]})
    assert at.multiselect(key="models").value == ["TNLG v2 (530B)", "BLOOM (176B)"]


def test_correlation_grid_and_default_scatter():
    at = open_story_page(PAGE)
    corr = _frame(at, "agreement")
    assert len(corr) == 16 * 6
    t = texts(at)
    assert "HellaSwag: accuracy (EM) against Calibration (ECE (10-bin))" in t
    assert "Spearman ρ = +0.82 over 29 models (agreement -0.82)" in t


@pytest.mark.parametrize("pair,needle", [
    ("OpenbookQA|calibration", "agreement +0.85"),
    ("MMLU|robustness", "agreement +0.96"),
    ("CivilComments|toxicity", "no correlation: no variation"),
])
def test_picking_a_pair_changes_the_scatter(pair, needle):
    at = open_story_page(PAGE)
    at.selectbox(key="pair").set_value(pair).run()
    assert not at.exception
    assert needle in texts(at)


def test_pair_without_values_says_so():
    at = open_story_page(PAGE, query={"pair": "MMLU|bias"})
    assert "HELM has no such metric here" in " ".join(str(i.value) for i in at.info)


def test_bias_metric_switch():
    at = open_story_page(PAGE, query={"pair": "QuAC|bias"})
    before = texts(at)
    at.selectbox(key="bias_metric").set_value("Stereotypes (race)").run()
    after = texts(at)
    assert "Representation (gender)" in before.split("QuAC: accuracy")[1][:120]
    assert "Stereotypes (race)" in after.split("QuAC: accuracy")[1][:120]
    corr = _frame(at, "agreement")
    assert set(corr.loc[(corr["metric_group"] == "bias") & (corr["metric"] != ""), "metric"]) == {"Stereotypes (race)"}


@pytest.mark.parametrize("query,key", [({"pair": "MMLU|accuracy"}, "pair"), ({"models": "GPT-9"}, "models"),
                                       ({"bias_metric": "<b>x</b>"}, "bias_metric")])
def test_bad_url_values_give_a_notice(query, key):
    at = open_story_page(PAGE, query=query)
    assert f"`{key}=" in notices(at)


def test_dataset_without_efficiency(release):
    at = open_story_page(PAGE, session=loaded(release, "no-eff", ("efficiency",)))
    assert "hold no value for: Efficiency" in " ".join(str(i.value) for i in at.info)
    assert "recomputed" in texts(at)


def test_small_cohort():
    at = open_story_page(PAGE, query={"cohort": "paper", "access": "closed"})
    assert "recomputed** among the 3 models" in texts(at)
    corr = _frame(at, "agreement")
    assert corr["agreement"].isna().all()  # fewer than 5 models everywhere
    assert "no correlation: too few models with both values (3)" in texts(at)


def test_agreement_summary_and_the_lazy_groups_table():
    at = open_story_page(PAGE)
    summary = next(t for t in tables(at) if "lowest on" in t.columns)
    assert list(summary["metric group"]) == ["Calibration", "Robustness", "Fairness", "Bias", "Toxicity",
                                             "Efficiency"]
    assert ((summary["lowest"] <= summary["median"]) & (summary["median"] <= summary["highest"])).all()
    assert summary["median"].between(-1, 1).all()
    assert not [t for t in tables(at) if "how_computed" in t.columns]  # closed: not built
    groups = next(t for t in tables(open_lazy(at, "The seven groups")) if "how_computed" in t.columns)
    assert len(groups) == 7
