"""AppTest: the Coverage Jump page: the claim, computed coverage, the comparable-ground tool, bad input."""
from __future__ import annotations

from dataclasses import replace

import pytest

from .coverage_helpers import metrics_of, notices
from .helpers import shown, chart_keys, open_chart_data, open_section, open_story_page, section_labels, section_tabs, texts

PAGE = "app_pages/coverage.py"
SECTIONS = ["Coverage jump", "Per model", "Per scenario", "Comparable ground", "Pairwise overlap"]
CHARTS = {"Coverage jump": "coverage_bars", "Per model": "coverage_models", "Per scenario": "coverage_scenarios",
          "Comparable ground": "coverage_ground", "Pairwise overlap": "coverage_overlap"}


def test_claim_and_computed_coverage():
    at = open_story_page(PAGE, query={"cohort": "all"})
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
    t = texts(open_story_page(PAGE, section="Per scenario", query={"cohort": "all"}))
    assert "HellaSwag (9 of 39)" in t and "MS MARCO (TREC) (9 of 39)" in t


def test_comparable_ground_default_pair():
    at = open_story_page(PAGE, section="Comparable ground")
    assert at.multiselect(key="ground").value == ["T5 (11B)", "Anthropic-LM v4-s3 (52B)"]
    assert metrics_of(at)["Scenarios all 2 share"] == "12 of 16"
    assert "**Not shared:** HellaSwag, OpenbookQA, MS MARCO (regular), MS MARCO (TREC)" in texts(at)


@pytest.mark.parametrize("models,shared", [
    (["T5 (11B)", "Anthropic-LM v4-s3 (52B)", "LLaMA (65B)"], "10 of 16"),
    (["text-davinci-002", "TNLG v2 (530B)"], "16 of 16"),
    (["text-davinci-002"], "16 of 16"),
])
def test_driving_the_comparable_ground_tool(models, shared):
    at = open_story_page(PAGE, section="Comparable ground", query={"cohort": "all"})
    at.multiselect(key="ground").set_value(models).run()
    assert not at.exception
    assert metrics_of(at)[f"Scenarios all {len(models)} share"] == shared
    curve = next(d.value for d in open_chart_data(at).dataframe if "ordering" in d.value.columns)
    mine = curve[curve["ordering"] == "your models, in the order picked"]
    assert mine["step"].tolist() == list(range(len(models) + 1))
    assert mine["shared"].iloc[-1] == int(shared.split()[0])


def test_emptying_the_tool_says_what_to_do():
    at = open_story_page(PAGE, section="Comparable ground")
    at.multiselect(key="ground").set_value([]).run()
    assert "Pick one or more models" in " ".join(str(i.value) for i in at.info)


def test_ground_from_the_url():
    at = open_story_page(PAGE, section="Comparable ground", query={"cohort": "all", "ground": ["LLaMA (65B)", "T5 (11B)"]})
    assert at.multiselect(key="ground").value == ["LLaMA (65B)", "T5 (11B)"]
    assert metrics_of(at)["Scenarios all 2 share"] == "10 of 16"


def test_bad_ground_in_the_url_gives_a_notice():
    at = open_story_page(PAGE, section="Comparable ground", query={"ground": "GPT-9"})
    assert "“ground=" in notices(at)
    assert metrics_of(at)["Scenarios all 2 share"] == "12 of 16"


def test_pairwise_overlap_least_pair():
    at = open_story_page(PAGE, section="Pairwise overlap", query={"cohort": "all"})
    assert "The least overlap is 8 of 16 scenarios" in texts(at)
    pairs = next(d.value for d in open_chart_data(at).dataframe if "model_b" in d.value.columns)
    assert len(pairs) == 67 * 66 // 2


def test_small_cohort():
    at = open_story_page(PAGE, query={"cohort": "paper", "access": "closed"})
    m = metrics_of(at)
    assert m["Sidebar cohort (3 models)"] == "100.0%"
    # T5 is not in the cohort, so the tool starts from the first two models instead
    open_section(at, "Comparable ground")
    assert at.multiselect(key="ground").value == ["Anthropic-LM v4-s3 (52B)", "TNLG v2 (530B)"]


def test_sections_in_order_and_only_the_first_is_built():
    at = open_story_page(PAGE)
    assert section_labels(at) == SECTIONS
    key, tabs = section_tabs(at)
    assert key == "coverage_section"
    assert len(tabs[0].children) > 0
    assert all(len(t.children) == 0 for t in tabs[1:])
    assert chart_keys(at) == ["coverage_bars"]
    assert "ground" not in [w.key for w in at.multiselect]  # the comparable-ground tool is built with its section
    for label in SECTIONS[1:]:
        open_section(at, label)
        assert chart_keys(at) == [CHARTS[label]], label
        _, tabs = section_tabs(at)
        assert [len(t.children) > 0 for t in tabs] == [t.label == label for t in tabs]


@pytest.mark.parametrize("label", SECTIONS)
def test_url_opens_a_section(label):
    at = open_story_page(PAGE, query={"coverage_section": label})
    assert chart_keys(at) == [CHARTS[label]]
    if label != SECTIONS[0]:  # the first section is the default, which the URL leaves out
        assert at.query_params["coverage_section"] == label


@pytest.mark.parametrize("value", ["Nope", "", "per model", "Per model,Pairwise overlap"])
def test_bad_section_in_url_opens_the_first(value):
    at = open_story_page(PAGE, query={"coverage_section": value})
    assert chart_keys(at) == ["coverage_bars"]
    assert "The paper claims 17.9% → 96.0%" in texts(at)


def test_ground_survives_other_sections():
    """The tool's choice is back when its section reopens."""
    at = open_story_page(PAGE, section="Comparable ground", query={"cohort": "all"})
    at.multiselect(key="ground").set_value(["LLaMA (65B)", "T5 (11B)"]).run()
    open_section(at, "Pairwise overlap")
    open_section(at, "Comparable ground")
    assert at.multiselect(key="ground").value == ["LLaMA (65B)", "T5 (11B)"]
    assert metrics_of(at)["Scenarios all 2 share"] == "10 of 16"


def test_ground_from_the_url_is_kept_while_another_section_is_open():
    at = open_story_page(PAGE, query={"cohort": "all", "ground": ["LLaMA (65B)", "T5 (11B)"]})
    assert at.query_params["ground"] == ["LLaMA (65B)", "T5 (11B)"]
    assert not notices(at)  # declared although the tool is not drawn in the first section
    open_section(at, "Comparable ground")
    assert at.multiselect(key="ground").value == ["LLaMA (65B)", "T5 (11B)"]


def test_no_model_in_the_cohort_warns_in_every_section(release):
    name = "no closed models"
    rel = replace(release, models=release.models.assign(access="open"),
                  meta={**release.meta, "kind": "upload", "release": name})
    at = open_story_page(PAGE, query={"cohort": "paper", "access": "closed"}, session={"dataset_key": name, "_releases": {name: rel}})
    assert metrics_of(at)["Sidebar cohort (0 models)"] == "no models"
    assert chart_keys(at) == ["coverage_bars"]  # the paper's numbers and the whole release still show
    for label in SECTIONS:
        if label != SECTIONS[0]:
            open_section(at, label)
            assert chart_keys(at) == [], label
        assert any("No model matches the sidebar's cohort" in str(w.value) for w in at.warning), label


def test_dataset_with_two_accuracy_metrics_on_a_scenario_counts_its_main_one(release):
    """A loaded dataset with two accuracy metrics on a scenario (a suite's groups tables can hold them): coverage
    counts the scenario's main metric (helm_core.data.main_metric_table), and every section draws."""
    import pandas as pd

    name = "two accuracy metrics"
    acc = release.results[release.results["metric_group"] == "accuracy"]
    extra = acc[acc["scenario"] == acc["scenario"].iloc[0]].assign(metric="another accuracy metric")
    rel = replace(release, results=pd.concat([release.results, extra], ignore_index=True),
                  meta={**release.meta, "kind": "upload", "release": name})
    at = open_story_page(PAGE, session={"dataset_key": name, "_releases": {name: rel}})
    assert section_labels(at) == SECTIONS
    for label in SECTIONS:
        if label != SECTIONS[0]:
            open_section(at, label)
        assert not any("Coverage cannot be computed" in str(w.value) for w in at.warning), label
        assert chart_keys(at), label


# ----------------------------------------------------------------------------- truth on every release and cohort


def _all_text(at) -> str:
    import html

    parts = [texts(at)] + [f"{m.label}: {m.value} {m.proto.help or ''}" for m in at.metric]
    return shown("\n".join(parts))


def _walk(query):
    at = open_story_page(PAGE, query=query)
    out = {SECTIONS[0]: _all_text(at)}
    for label in SECTIONS[1:]:
        open_section(at, label)
        out[label] = _all_text(at)
    return out


@pytest.mark.parametrize("query", [{"release": "lite"}, {"release": "capabilities"}])
def test_a_later_release_says_only_what_is_true_of_it(query):
    """No classic-only explanation (the five limited-functionality models, the paper's cohort, models added after
    the paper) on Lite or Capabilities; the paper's jump is still shown as a claim, with its badge."""
    text = "\n".join(_walk(query).values())
    for false in ("T0pp", "limited-functionality", "YaLM", "added after the paper", "Newer models",
                  "newer models were measured on fewer scenarios"):
        assert false not in text, false
    assert "2022 paper · verified] Before HELM, models had on average been evaluated on 17.9%" in text
    assert "is about HELM classic" in text


@pytest.mark.parametrize("cohort,needle", [
    ("paper", "All but 6 of the 28 models have all 16 core scenarios**; 5 models have only 12 (GLM (130B), "
              "T0pp (11B), T5 (11B), UL2 (20B) and YaLM (100B))."),
    ("all", "30 of the 67 models have all 16 core scenarios**; 25 models have only 10, all added after the 2022 "
            "paper."),
])
def test_per_model_point_is_computed(cohort, needle):
    at = open_story_page(PAGE, section="Per model", query={"cohort": cohort})
    assert needle in texts(at)
    assert "newer models were measured on fewer" not in texts(at).lower()


def test_release_date_is_said_only_as_computed():
    """In the paper's cohort coverage does not follow the release date (the 12-scenario models are the five
    limited-functionality ones); over all 67 models it does. The words follow Spearman's rho, recomputed here."""
    from helm_core import coverage as C
    from helm_core import data

    rel = data.load_bundled("classic")
    for cohort, words in (("paper", "coverage does not follow the release date"),
                          ("all", "the later the release, the fewer the scenarios")):
        rho, n = C.date_rank_correlation(rel, data.cohort_models(rel, cohort))
        t = texts(open_story_page(PAGE, section="Per model", query={"cohort": cohort}))
        assert f"Spearman ρ = {rho:+.2f} over {n} models ({words})" in t


def test_the_jump_is_a_claim_beside_what_the_data_computes():
    at = open_story_page(PAGE)
    t = texts(at)
    assert "**The paper claims 17.9% → 96.0%; the data gives the paper's 28 models 95.3%** (427 of 448 cells)" in t
    assert "2022 paper · verified] Before HELM" in t and "448 of 480 cells (93.3%)" in t
    bars = next(d.value for d in open_chart_data(at).dataframe if "kind" in d.value.columns)
    assert list(bars["kind"]) == ["paper claim", "paper claim", "computed", "computed"]
    assert list(bars["rate"].round(3)) == [0.179, 0.96, 0.953, 0.819]


@pytest.mark.parametrize("mode,kind", [("desktop", "heatmap"), ("presenter", "bar"), ("phone", "bar")])
def test_the_overlap_is_a_heatmap_on_a_desktop_and_counted_on_a_stage(release, mode, kind):
    """67 × 67 names cannot be read on a stage or a phone: there the pairs are counted by scenarios shared."""
    from helm_core import coverage as C
    from helm_core.data import cohort_models
    from ui import charts_coverage

    models = tuple(cohort_models(release, "all"))
    spec = charts_coverage.overlap_spec(release, models, mode)
    assert [t["type"] for t in spec["data"]] == [kind]
    if kind == "bar":
        counts = C.overlap_counts(release, models)
        labels = [int(t.replace(",", "")) for t in spec["data"][0]["text"]]  # each bar is labelled with its count
        assert labels == list(counts["pairs"]) and sum(labels) == 67 * 66 // 2
