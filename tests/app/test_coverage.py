"""AppTest: the Coverage Jump page: the claim, computed coverage, the comparable-ground tool, bad input."""
from __future__ import annotations

import pytest

from .coverage_helpers import metrics_of, notices, open_story_page
from .helpers import open_chart_data, texts

PAGE = "app_pages/coverage.py"


def test_claim_and_computed_coverage():
    at = open_story_page(PAGE)
    t = texts(at)
    assert "17.9% of the 16 core scenarios" in t and "96.0%" in t
    assert "is not available in any source this app has" in t  # no per-model pre-HELM record
    m = metrics_of(at)
    assert m["2022 paper cohort (28 models)"] == "95.3%"
    assert m["Every model in the release (67)"] == "81.9%"
    assert m["Sidebar cohort (67 models)"] == "81.9%"
    assert "HELM's own coverage thinned" in t


def test_paper_and_all_do_not_follow_the_sidebar():
    at = open_story_page(PAGE, query={"cohort": "paper", "access": "open"})
    m = metrics_of(at)
    assert m["2022 paper cohort (28 models)"] == "95.3%"
    assert m["Every model in the release (67)"] == "81.9%"
    assert m["Sidebar cohort (10 models)"] == "87.5%"  # 5 limited-functionality models skip 4 of 16: 140 of 160


def test_thinning_for_newer_models_is_shown():
    t = texts(open_story_page(PAGE))
    assert "HellaSwag (9 of 39)" in t and "MS MARCO (TREC) (9 of 39)" in t


def test_comparable_ground_default_pair():
    at = open_story_page(PAGE)
    assert at.multiselect(key="ground").value == ["T5 (11B)", "Anthropic-LM v4-s3 (52B)"]
    assert metrics_of(at)["Scenarios all 2 share"] == "12 of 16"
    assert "**Not shared:** HellaSwag, OpenbookQA, MS MARCO (regular), MS MARCO (TREC)" in texts(at)


@pytest.mark.parametrize("models,shared", [
    (["T5 (11B)", "Anthropic-LM v4-s3 (52B)", "LLaMA (65B)"], "10 of 16"),
    (["text-davinci-002", "TNLG v2 (530B)"], "16 of 16"),
    (["text-davinci-002"], "16 of 16"),
])
def test_driving_the_comparable_ground_tool(models, shared):
    at = open_story_page(PAGE)
    at.multiselect(key="ground").set_value(models).run()
    assert not at.exception
    assert metrics_of(at)[f"Scenarios all {len(models)} share"] == shared
    curve = next(d.value for d in open_chart_data(at).dataframe if "ordering" in d.value.columns)
    mine = curve[curve["ordering"] == "your models, in the order picked"]
    assert mine["step"].tolist() == list(range(len(models) + 1))
    assert mine["shared"].iloc[-1] == int(shared.split()[0])


def test_emptying_the_tool_says_what_to_do():
    at = open_story_page(PAGE)
    at.multiselect(key="ground").set_value([]).run()
    assert "Pick one or more models" in " ".join(str(i.value) for i in at.info)


def test_ground_from_the_url():
    at = open_story_page(PAGE, query={"ground": ["LLaMA (65B)", "T5 (11B)"]})
    assert at.multiselect(key="ground").value == ["LLaMA (65B)", "T5 (11B)"]
    assert metrics_of(at)["Scenarios all 2 share"] == "10 of 16"


def test_bad_ground_in_the_url_gives_a_notice():
    at = open_story_page(PAGE, query={"ground": "GPT-9"})
    assert "`ground=" in notices(at)
    assert metrics_of(at)["Scenarios all 2 share"] == "12 of 16"


def test_pairwise_overlap_least_pair():
    at = open_story_page(PAGE)
    assert "The least overlap is 8 of 16 scenarios" in texts(at)
    pairs = next(d.value for d in open_chart_data(at).dataframe if "model_b" in d.value.columns)
    assert len(pairs) == 67 * 66 // 2


def test_small_cohort():
    at = open_story_page(PAGE, query={"cohort": "paper", "access": "closed"})
    m = metrics_of(at)
    assert m["Sidebar cohort (3 models)"] == "100.0%"
    # T5 is not in the cohort, so the tool starts from the first two models instead
    assert at.multiselect(key="ground").value == ["Anthropic-LM v4-s3 (52B)", "TNLG v2 (530B)"]
