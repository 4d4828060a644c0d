"""Targeted studies page: overview of the 7 evaluations (26 scenarios), zoom picker bound to ?study=, the paper's
numbers drawn as claims, and one grid cell from the data showing what the grid blurs; its slides (only the open
one is built), each with its chart."""
from __future__ import annotations

import pytest

from .critique_helpers import open_at
from .helpers import shown, chart_keys, open_section, open_story_page, section_labels, section_tabs, tables, texts
from helm_core import claims, studies
from ui import nav

PAGE = nav.spec_for("studies").file
STUDIES = studies.load_studies()
CLAIMS = claims.load_claims()
EVALS = STUDIES.evaluations
SECTIONS = ["Findings in numbers", "The studies", "Why narrow studies"]
KEY = "studies_section"


def _zoom_heading(at) -> str:
    return next(m.value for m in at.markdown if m.value.startswith("#### "))


def test_overview_lists_every_study_and_26_scenarios():
    at = open_at(PAGE)
    t = texts(at)
    assert "7 targeted evaluations" in t and "26 new targeted scenarios" in t
    assert CLAIMS["headline_targeted"].statement in t
    open_section(at, "The studies")
    table = tables(at)[0]
    assert len(table) == len(STUDIES.studies) and table["new scenarios"].sum() == 26


def test_default_zoom_is_reasoning():
    at = open_at(PAGE, {KEY: "The studies"})
    assert at.button_group(key="study").value == "reasoning"
    assert _zoom_heading(at).startswith("#### Reasoning")
    assert CLAIMS["study_gsm8k"].statement in texts(at)


@pytest.mark.parametrize("study", EVALS, ids=[s.id for s in EVALS])
def test_picking_a_study_zooms_into_it(study):
    at = open_at(PAGE, {KEY: "The studies"})
    at.button_group(key="study").set_value(study.id).run()
    assert shown(_zoom_heading(at)).startswith("#### " + study.name)
    t = texts(at)
    assert CLAIMS[study.claim].statement in t
    scen = tables(at)[1]
    assert list(scen["scenario"]) == [s.name for s in study.scenarios]


@pytest.mark.parametrize("study", ["knowledge", "toxicity"])
def test_study_from_the_url(study):
    at = open_at(PAGE, {"study": study, KEY: "The studies"})
    assert at.button_group(key="study").value == study
    assert _zoom_heading(at).startswith("#### " + STUDIES.by_id(study).name)


def test_knowledge_study_shows_the_reused_core_scenarios_from_the_data():
    at = open_at(PAGE, {"study": "knowledge", KEY: "The studies"})
    top = next(d for d in tables(at) if "rank" in d.columns)
    assert set(top["scenario"]) == {"NaturalQuestions (closed-book)", "HellaSwag", "OpenbookQA", "TruthfulQA", "MMLU"}
    assert top.groupby("scenario").size().max() == 3


def test_knowledge_study_follows_the_cohort():
    at = open_at(PAGE, {"study": "knowledge", "access": "closed", "cohort": "paper", KEY: "The studies"})
    top = next(d for d in tables(at) if "rank" in d.columns)
    assert set(top["model"]) <= {"Anthropic-LM v4-s3 (52B)", "TNLG v2 (530B)", "TNLG v2 (6.7B)"}


@pytest.mark.parametrize("bad", ["bogus", "", "efficiency", "<b>x</b>"])
def test_bad_study_falls_back_to_the_default(bad):
    at = open_at(PAGE, {"study": bad, KEY: "The studies"})
    assert _zoom_heading(at).startswith("#### Reasoning")


def test_paper_numbers_chart_is_labelled_as_claims():
    at = open_at(PAGE)
    charts = at.get("plotly_chart")
    assert len(charts) == 1
    alt = charts[0].proto.alt
    assert alt.startswith("The paper's numbers, not this app's data.")
    for v in ("52.1", "35", "1.506", "2.114", "51.3", "8.8", "50.8", "24.3", "79.1", "30.2"):
        assert v in alt
    assert "paper claim, quoted" in alt and "paper claim, unverified" in alt
    assert "These are the paper's numbers, not this app's data." in texts(at)


def test_grid_blur_example_comes_from_the_data():
    at = open_at(PAGE, {KEY: "Why narrow studies"})
    t = texts(at)
    assert "accuracy **0.505**, the mean of 54 runs" in t and "from 0.000 to 1.000" in t
    cells = next(d for d in tables(at) if "HELM's value" in d.columns)
    assert cells["HELM's value"].iloc[0] == pytest.approx(0.505, abs=5e-4)
    assert cells["runs averaged"].iloc[0] == 54
    assert (cells["lowest run"] <= cells["HELM's value"]).all() and (cells["HELM's value"] <= cells["highest run"]).all()


def test_grid_blur_example_without_opt_in_the_cohort():
    at = open_at(PAGE, {"access": "closed", KEY: "Why narrow studies"})
    assert any("OPT (175B) on CivilComments is not in the sidebar's cohort" in i.value for i in at.info)


CHARTS = ["studies_paper_numbers", "studies_scenarios", "studies_blur"]


def test_sections_in_order_and_only_the_first_is_built():
    at = open_at(PAGE)
    assert section_labels(at) == SECTIONS
    key, tabs = section_tabs(at)
    assert key == KEY
    assert len(tabs[0].children) > 0 and all(len(t.children) == 0 for t in tabs[1:])
    # the first load draws the paper's numbers alone, with the headline; the table and the zoom wait
    assert chart_keys(at) == ["studies_paper_numbers"]
    assert "Zoom into one study" not in texts(at) and "Why narrow studies see" not in texts(at)
    assert not [b for b in at.button_group if b.key == "study"]  # the picker waits with its slide
    for i, label in enumerate(SECTIONS[1:], start=1):
        open_section(at, label)
        _, tabs = section_tabs(at)
        assert [len(t.children) > 0 for t in tabs] == [j == i for j in range(len(SECTIONS))]
        assert chart_keys(at) == [CHARTS[i]]
    open_section(at, SECTIONS[0])
    assert chart_keys(at) == ["studies_paper_numbers"]


@pytest.mark.parametrize("label,needle,chart", [
    ("The studies", "Zoom into one study", "studies_scenarios"),
    ("Why narrow studies", "Why narrow studies see what the broad grid blurs", "studies_blur")])
def test_url_opens_a_section(label, needle, chart):
    at = open_at(PAGE, {KEY: label})
    assert needle in texts(at)
    assert chart_keys(at) == [chart]
    assert CLAIMS["headline_targeted"].statement not in texts(at)


@pytest.mark.parametrize("study", ["reasoning", "knowledge"])
def test_the_studies_chart_counts_scenarios_and_outlines_the_zoomed_study(study):
    at = open_at(PAGE, {"study": study, KEY: "The studies"})
    alt = at.get("plotly_chart")[0].proto.alt
    for s in STUDIES.studies:
        assert f"{s.name}: {len(s.new_scenarios)} new, {len(s.reused_scenarios)} reused core" in alt.replace(
            "&amp;", "&")
    assert alt.endswith(f"Outlined: {STUDIES.by_id(study).name}.")
    most = max(STUDIES.studies, key=lambda s: len(s.new_scenarios))
    assert f"{most.name} adds the most ({len(most.new_scenarios)})" in texts(at)


def test_the_blur_chart_draws_the_cells_runs():
    at = open_at(PAGE, {KEY: "Why narrow studies"})
    alt = at.get("plotly_chart")[0].proto.alt
    assert alt.startswith("OPT (175B) on CivilComments in HELM classic v0.4.0: Accuracy 0.505, runs 0.000 to 1.000 "
                          "(54 runs)")


@pytest.mark.parametrize("release,name", [("lite", "HELM Lite v1.13.0"), ("capabilities", "HELM Capabilities v1.15.0")])
def test_the_blur_example_on_a_release_without_it(release, name):
    """The slide says why it has no chart (and leaves the presenter route there)."""
    at = open_story_page(PAGE, {KEY: "Why narrow studies", "release": release})
    assert any(f"OPT (175B) on CivilComments is not in {name}" in i.value for i in at.info)
    assert chart_keys(at) == []


def test_presenter_route_walks_the_slides_with_a_chart():
    at = open_story_page(PAGE, {"present": "1"})
    assert chart_keys(at) == ["studies_paper_numbers"]
    for label, chart in zip(SECTIONS[1:], CHARTS[1:]):
        at.button(key="present_next").click().run()
        assert at.session_state[KEY] == label and chart_keys(at) == [chart]


@pytest.mark.parametrize("value", ["Nope", "", "the studies", "The studies,Why narrow studies", "<b>x</b>"])
def test_bad_section_in_url_opens_the_first(value):
    at = open_at(PAGE, {KEY: value})
    assert chart_keys(at) == ["studies_paper_numbers"]
    assert "These are the paper's numbers, not this app's data." in texts(at)


def test_study_choice_survives_another_section():
    at = open_at(PAGE)
    open_section(at, "The studies")
    at.button_group(key="study").set_value("toxicity").run()
    assert _zoom_heading(at).startswith("#### " + STUDIES.by_id("toxicity").name)
    # AppTest runs the page alone after switch_page (no router to reset the keys declared in a run): reset them
    at.session_state["_qp_allowed"] = set()
    open_section(at, "Why narrow studies")
    assert "study" in at.session_state["_qp_allowed"]  # kept in the link while the picker is not drawn
    open_section(at, "The studies")
    assert at.button_group(key="study").value == "toxicity"
    assert _zoom_heading(at).startswith("#### " + STUDIES.by_id("toxicity").name)
