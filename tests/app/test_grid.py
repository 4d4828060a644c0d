"""AppTest: the 16 × 7 Core Grid page: views, blank counts, cell detail, URL seeding, bad input, and its sections
(only the open one is built)."""
from __future__ import annotations

from dataclasses import replace

import pytest

from .coverage_helpers import loaded, metrics_of, notices
from .helpers import (chart_keys, open_chart_data, open_section, open_story_page, section_labels, section_tabs,
                      tables, texts)

PAGE = "app_pages/grid.py"
SECTIONS = ["Grid", "Where views differ", "Why blank"]


def _chart_data(at):
    """The 'data behind this chart' table of the grid (the first dataframe on the page, once opened)."""
    return open_chart_data(at).dataframe[0].value


def test_blank_counts_per_view_always_visible():
    at = open_story_page(PAGE)
    m = metrics_of(at)
    assert m["Blank cells · paper claim"] == "14"
    assert m["Blank cells · HELM schema"] == "16"
    assert m["Blank cells · HELM classic v0.4.0 data"] == "22"
    t = texts(at)
    for needle in ("98 of the 112", "CNN/DailyMail and XSUM (6 cells)", "MMLU, TruthfulQA, HellaSwag and OpenBookQA",
                   "96 of 112, not 98"):
        assert needle in t
    assert "Paper claim (98 / 112)**: 98 of 112 cells measured, 14 blank" in t


@pytest.mark.parametrize("view,measured", [("paper", 98), ("schema", 96), ("data", 90)])
def test_switching_the_view_changes_the_grid(view, measured):
    at = open_story_page(PAGE)
    at.radio(key="view").set_value(view).run()
    assert not at.exception
    t = texts(at)
    assert f"{measured} of 112 cells measured, {112 - measured} blank" in t
    # the blank counts stay on screen whatever the view
    assert metrics_of(at)["Blank cells · HELM schema"] == "16"
    data = _chart_data(at)
    assert int(data["measured"].sum()) == measured
    # the blank-cell section follows the view picked in the grid section
    open_section(at, "Why blank")
    assert at.radio(key="view").value == view
    assert f"Why each blank cell is blank ({view} view)" in texts(at)
    gaps = next(d for d in tables(at) if "reason" in d.columns)
    assert len(gaps) == 112 - measured


@pytest.mark.parametrize("view,measured", [("schema", 96), ("data", 90)])
def test_view_from_the_url(view, measured):
    at = open_story_page(PAGE, query={"view": view})
    assert at.radio(key="view").value == view
    assert f"{measured} of 112 cells measured" in texts(at)


def test_differences_between_views_are_pointed_out():
    at = open_story_page(PAGE)
    open_section(at, "Where views differ")
    t = texts(at)
    diff = next(d for d in tables(at) if "paper counts it" in d.columns)
    assert len(diff) == 8
    assert (diff["paper counts it"] == "yes").sum() == 8 and (diff["schema lists it"] == "yes").sum() == 6
    assert ("The paper counts, the schema leaves blank** (2): "
            "MS MARCO (regular) Calibration, MS MARCO (TREC) Calibration") in t
    assert "The schema lists, the data holds no value for this cohort** (6)" in t
    assert "IMDB Bias" in t
    open_section(at, "Why blank")
    gaps = next(d for d in tables(at) if "reason" in d.columns)
    assert len(gaps) == 14 and gaps["reason"].str.len().gt(0).all()


def test_selecting_a_cell_opens_the_detail_panel():
    at = open_story_page(PAGE, query={"cohort": "all"})
    assert "No cell selected yet." in texts(at)
    at.selectbox(key="cell").set_value("HellaSwag|accuracy").run()
    assert not at.exception
    t = texts(at)
    assert "HellaSwag × Accuracy" in t
    assert "Models with a value: **32 of 67**" in t
    assert "text-davinci-003" in t  # best EM on HellaSwag in v0.4.0
    detail = [d.value for d in at.dataframe if "EM" in d.value.columns]
    assert detail and len(detail[0]) == 32
    assert detail[0]["EM"].is_monotonic_decreasing
    assert any("35 models of the cohort without a value" in e.label for e in at.expander)


@pytest.mark.parametrize("token,needle", [
    ("XSUM|calibration", "Summaries are long free text"),
    ("MMLU|toxicity", "Multiple-choice answers are letters"),
    ("MS MARCO (TREC)|calibration", "Counted as measured in the paper view, but no model"),
])
def test_cell_from_the_url(token, needle):
    at = open_story_page(PAGE, query={"cell": token})
    assert at.selectbox(key="cell").value == token
    assert needle in texts(at)


def test_blank_cell_reason_in_schema_view():
    at = open_story_page(PAGE, query={"view": "schema", "cell": "MS MARCO (TREC)|calibration"})
    t = texts(at)
    assert "Blank in the schema view." in t and "scored by ranking" in t


@pytest.mark.parametrize("query,key", [({"view": "bogus"}, "view"), ({"cell": "Nope|accuracy"}, "cell"),
                                       ({"cell": "<script>alert(1)</script>"}, "cell")])
def test_invalid_url_values_give_a_notice(query, key):
    at = open_story_page(PAGE, query=query)
    assert f"“{key}=" in notices(at)
    assert at.radio(key="view").value == "paper"  # the default
    assert at.selectbox(key="cell").value is None
    assert "98 of 112 cells measured" in texts(at)


def test_small_cohort_changes_the_data_view():
    at = open_story_page(PAGE, query={"cohort": "paper", "access": "closed", "view": "data"})
    assert metrics_of(at)["Blank cells · HELM classic v0.4.0 data"] == "25"
    assert "87 of 112 cells measured" in texts(at)
    open_section(at, "Why blank")
    assert at.radio(key="view").value == "data"
    assert "None of the 3 models in the cohort has a value here" in " ".join(
        str(v) for v in next(t for t in tables(at) if "reason" in t.columns)["reason"])


def test_dataset_without_efficiency_says_so(release):
    at = open_story_page(PAGE, query={"view": "data"}, session=loaded(release, "no-efficiency", ("efficiency",)))
    assert "hold no value for metric group(s) Efficiency" in texts(at)  # a caveat under the grid
    assert "74 of 112 cells measured" in texts(at)  # 90 minus the 16 efficiency cells


@pytest.mark.parametrize("view,traces", [
    ("paper", {"measured (✓)": 90, "counted here, but no model has a value (∅)": 8, "blank (crossed square)": 14}),
    ("schema", {"measured (✓)": 90, "counted here, but no model has a value (∅)": 6, "blank (crossed square)": 14,
                "blank here, but another view counts it": 2}),
    ("data", {"measured: the number of cohort models with a value (darker = a larger share)": 90,
              "blank (crossed square)": 14, "blank here, but another view counts it": 8}),
])
def test_grid_figure_marks_blanks_and_differences_not_by_colour_alone(release, view, traces):
    from helm_core import grid
    from ui import charts_coverage

    spec = charts_coverage.grid_spec(release, view, tuple(release.model_names))
    got = {t["name"]: len(t["x"]) for t in spec["data"] if len(t["x"])}
    assert got == traces
    symbols = {t["name"]: t["marker"]["symbol"] for t in spec["data"]}
    assert symbols["blank (crossed square)"] == "square-x-open"
    tokens = [c[0] for t in spec["data"] if t.get("customdata") is not None for c in t["customdata"]]
    assert sorted(tokens) == sorted(grid.cell_tokens())  # every cell is selectable, with its token


def test_chart_data_is_rendered_only_once_opened():
    """The table and CSV behind a chart cost nothing until a visitor opens them (ui.components.chart)."""
    def grid_tables(at):
        return [d for d in at.dataframe if len(d.value) == 112 and "measured" in d.value.columns]

    at = open_story_page(PAGE)
    assert grid_tables(at) == []
    assert "Data behind this chart (112 rows)" in [e.label for e in at.expander]
    open_chart_data(at)
    assert len(grid_tables(at)) == 1
    buttons = [b.proto for b in at.get("download_button") if b.proto.label == "Download CSV"]
    assert buttons
    # Its bytes are made on click, and the click must not rerun the page: a rerun drops the run's deferred file,
    # and on a busy server it could finish before the browser asked for the bytes (nothing was downloaded).
    assert all(b.ignore_rerun for b in buttons)


def test_sections_in_order_and_only_the_first_is_built():
    at = open_story_page(PAGE)
    assert section_labels(at) == SECTIONS
    key, tabs = section_tabs(at)
    assert key == "grid_section"
    assert len(tabs[0].children) > 0 and all(len(t.children) == 0 for t in tabs[1:])
    # the first load draws the grid alone; no other section has a chart
    assert chart_keys(at) == ["grid_cells"]
    assert "Where the three views disagree" not in texts(at) and "Why each blank cell is blank" not in texts(at)
    for i, label in enumerate(SECTIONS[1:], start=1):
        open_section(at, label)
        _, tabs = section_tabs(at)
        assert [len(t.children) > 0 for t in tabs] == [j == i for j in range(len(SECTIONS))]
        assert chart_keys(at) == []


@pytest.mark.parametrize("label,needle", [("Where views differ", "8 cells of the grid are counted differently"),
                                          ("Why blank", "Why each blank cell is blank (paper view)")])
def test_url_opens_a_section(label, needle):
    at = open_story_page(PAGE, query={"grid_section": label})
    assert needle in texts(at)
    assert chart_keys(at) == []
    assert "Blank cells · paper claim" not in metrics_of(at)


def test_link_opens_the_blank_section_in_its_view():
    at = open_story_page(PAGE, query={"grid_section": "Why blank", "view": "schema", "cell": "IMDB|bias"})
    assert at.radio(key="view").value == "schema"
    assert "Why each blank cell is blank (schema view)" in texts(at)
    assert len(next(d for d in tables(at) if "reason" in d.columns)) == 16


@pytest.mark.parametrize("value", ["Nope", "", "grid", "Grid,Why blank", "<b>x</b>"])
def test_bad_section_in_url_opens_the_first(value):
    at = open_story_page(PAGE, query={"grid_section": value})
    assert chart_keys(at) == ["grid_cells"]
    assert "98 of 112 cells measured" in texts(at)


def test_view_and_cell_carry_across_sections():
    at = open_story_page(PAGE)
    at.radio(key="view").set_value("schema").run()
    at.selectbox(key="cell").set_value("HellaSwag|accuracy").run()
    open_section(at, "Why blank")
    assert at.radio(key="view").value == "schema"
    assert "Why each blank cell is blank (schema view)" in texts(at)
    at.radio(key="view").set_value("data").run()
    assert "Why each blank cell is blank (data view)" in texts(at)
    at.session_state["_qp_allowed"] = set()  # AppTest runs the page alone: no router resets the declared keys
    open_section(at, "Where views differ")  # neither widget is drawn here
    assert {"view", "cell"} <= at.session_state["_qp_allowed"]  # kept in the link all the same
    open_section(at, "Grid")
    assert at.radio(key="view").value == "data"
    assert at.selectbox(key="cell").value == "HellaSwag|accuracy"
    assert "90 of 112 cells measured" in texts(at) and "HellaSwag × Accuracy" in texts(at)


def test_no_model_in_the_cohort_warns_in_every_section(release):
    name = "no closed models"
    rel = replace(release, models=release.models.assign(access="open"),
                  meta={**release.meta, "kind": "upload", "release": name})
    at = open_story_page(PAGE, query={"cohort": "paper", "access": "closed"}, session={"dataset_key": name, "_releases": {name: rel}})
    for label in SECTIONS:
        if label != SECTIONS[0]:
            open_section(at, label)
        assert any("No model matches the sidebar's cohort" in str(w.value) for w in at.warning), label
        assert chart_keys(at) == []


LITE_SCENARIOS = ["NarrativeQA", "NaturalQuestions (open-book)", "NaturalQuestions (closed-book)", "OpenbookQA", "MMLU",
                  "MATH", "GSM8K", "LegalBench", "MedQA", "WMT 2014"]
LATER_BLANK = {"Calibration", "Robustness", "Fairness", "Bias", "Toxicity"}


@pytest.mark.parametrize("release,scenarios", [("lite", LITE_SCENARIOS),
                                               ("capabilities", ["MMLU-Pro", "GPQA", "IFEval", "WildBench",
                                                                 "Omni-MATH"])])
@pytest.mark.parametrize("view", ["schema", "data"])
def test_a_later_release_grid_is_its_scenarios_with_five_groups_blank(release, scenarios, view):
    """?release=lite: the grid draws Lite's 10 scenarios × the seven groups; calibration, robustness, fairness,
    bias and toxicity are blank for every scenario, accuracy and efficiency measured; no paper view."""
    at = open_story_page(PAGE, query={"release": release, "view": view})
    assert list(at.radio(key="view").options) == ["schema", "data"]
    cells = _chart_data(at)
    assert list(dict.fromkeys(cells["scenario"])) == scenarios
    assert len(cells) == len(scenarios) * 7
    blank = cells[~cells["measured"]]
    assert set(blank["group_label"]) == LATER_BLANK
    assert len(blank) == len(scenarios) * 5
    assert set(cells.loc[cells["measured"], "group_label"]) == {"Accuracy", "Efficiency"}
    n = len(scenarios) * 7
    assert f"{len(scenarios) * 2} of {n} cells measured, {len(scenarios) * 5} blank" in texts(at)
    assert "98 of the 112" not in texts(at)  # the paper's claim is about classic only
    links = [(p.proto.page, p.proto.query_string) for p in at.get("page_link") if "HELM classic" in p.proto.label]
    assert links == [("grid", "release=classic")]


def test_a_later_release_cell_detail_says_why_a_group_is_blank():
    at = open_story_page(PAGE, query={"release": "lite", "cell": "MedQA|toxicity"})
    t = texts(at)
    assert "HELM Lite v1.13.0 publishes no Toxicity column for any scenario" in t
    # a classic-only cell token is rejected on Lite (and the other way round)
    at = open_story_page(PAGE, query={"release": "lite", "cell": "XSUM|toxicity"})
    assert at.selectbox(key="cell").value is None


@pytest.mark.parametrize("fixture, ticks, rule", [
    ("helm_output", ["MMLU", "BoolQ", "NarrativeQA", "<i>GSM8K (other)</i>"], [0.5]),  # core rows, a rule, others
    ("helm_output_0516", ["<i>bAbI (other)</i>", "<i>SST (other)</i>", "<i>LegalSupport (other)</i>",
                          "<i>LSAT (other)</i>"], []),  # no core row: no rule
])
def test_a_loaded_suites_other_scenarios_are_labelled_in_the_grid(fixture, ticks, rule):
    from pathlib import Path

    from helm_core import helm_output
    from ui import charts_coverage

    rel = helm_output.read_helm_output(Path(__file__).resolve().parents[1] / "fixtures" / fixture).release
    spec = charts_coverage.grid_spec(rel, "data", tuple(rel.model_names))
    assert spec["layout"]["yaxis"]["ticktext"] == ticks
    assert [s["y0"] for s in spec["layout"]["shapes"] if s.get("type") == "line"] == rule
