"""AppTest: the Metric Orbit page: the seven groups, profiles (published vs recomputed), correlation and scatter."""
from __future__ import annotations

import json

import pytest

from .coverage_helpers import loaded, notices
from .helpers import (chart_keys, open_chart_data, open_lazy, open_section, open_story_page, section_labels,
                      section_tabs, tables, texts)

PAGE = "app_pages/metrics.py"
SECTIONS = ["Profile", "Seven groups", "Track accuracy"]
CHARTS = {"Profile": ["metrics_profile"], "Seven groups": [], "Track accuracy": ["metrics_corr", "metrics_pair"]}


def _frame(at, column):
    return next(d.value for d in open_chart_data(at).dataframe if column in d.value.columns)


def test_the_seven_groups_are_described():
    t = texts(open_story_page(PAGE, section="Seven groups"))
    for label in ("Accuracy", "Calibration", "Robustness", "Fairness", "Bias", "Toxicity", "Efficiency"):
        assert f"**{label}**" in t
    assert "10 bins of equal mass" in t and "Perspective API" in t and "mild_mix" in t
    assert "lower is better" in t and "higher is better" in t


def test_profile_defaults_and_published_kind():
    at = open_story_page(PAGE, query={"cohort": "all"})
    assert at.multiselect(key="models").value == ["text-davinci-002", "OPT (175B)", "Cohere xlarge v20220609 (52.4B)"]
    assert "Win rates shown: **published** by HELM for all 67 models" in texts(at)
    table = _frame(at, "Accuracy")
    assert table.set_index("model").loc["text-davinci-002", "Accuracy"] == pytest.approx(0.905)


def test_profile_is_recomputed_for_a_sub_cohort():
    at = open_story_page(PAGE, query={"cohort": "paper"})
    assert "Win rates shown: **recomputed** among the 28 models" in texts(at)
    assert at.multiselect(key="models").value[0] == "text-davinci-002"


def test_choosing_models_changes_the_profile():
    at = open_story_page(PAGE, query={"cohort": "all"})
    at.multiselect(key="models").set_value(["LLaMA (65B)", "T5 (11B)"]).run()
    assert not at.exception
    table = _frame(at, "Accuracy")
    assert table["model"].tolist() == ["LLaMA (65B)", "T5 (11B)"]
    assert "LLaMA (65B) · Calibration" in texts(at)  # a gap, said in words


def test_models_from_the_url():
    at = open_story_page(PAGE, query={"models": ["TNLG v2 (530B)", "BLOOM (176B)"]})
    assert at.multiselect(key="models").value == ["TNLG v2 (530B)", "BLOOM (176B)"]


def test_correlation_grid_and_default_scatter():
    at = open_story_page(PAGE, section="Track accuracy", query={"cohort": "all"})
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
    at = open_story_page(PAGE, section="Track accuracy", query={"cohort": "all"})
    at.selectbox(key="pair").set_value(pair).run()
    assert not at.exception
    assert needle in texts(at)


def test_pair_without_values_says_so():
    at = open_story_page(PAGE, section="Track accuracy", query={"pair": "MMLU|bias"})
    assert "HELM has no such metric here" in " ".join(str(i.value) for i in at.info)


def test_bias_metric_switch():
    at = open_story_page(PAGE, section="Track accuracy", query={"pair": "QuAC|bias"})
    before = texts(at)
    at.selectbox(key="bias_metric").set_value("Stereotypes (race)").run()
    after = texts(at)
    assert "Representation (gender)" in before.split("QuAC: accuracy")[1][:120]
    assert "Stereotypes (race)" in after.split("QuAC: accuracy")[1][:120]
    corr = _frame(at, "agreement")
    assert set(corr.loc[(corr["metric_group"] == "bias") & (corr["metric"] != ""), "metric"]) == {"Stereotypes (race)"}


@pytest.mark.parametrize("query,key,section", [({"pair": "MMLU|accuracy"}, "pair", "Track accuracy"),
                                               ({"models": "GPT-9"}, "models", "Profile"),
                                               ({"models": "GPT-9"}, "models", "Track accuracy"),
                                               ({"bias_metric": "<b>x</b>"}, "bias_metric", "Track accuracy")])
def test_bad_url_values_give_a_notice(query, key, section):
    """A bad value is checked (and dropped with a notice) by its widget, in the section that draws it."""
    at = open_story_page(PAGE, query={**query, "metrics_section": section})
    assert f"“{key}=" in notices(at)


def test_dataset_without_efficiency(release):
    at = open_story_page(PAGE, session=loaded(release, "no-eff", ("efficiency",)))
    assert "recomputed" in texts(at)
    open_section(at, "Seven groups")
    assert "hold no value for: Efficiency" in texts(at)  # a caveat under the table


def test_small_cohort():
    at = open_story_page(PAGE, query={"cohort": "paper", "access": "closed"})
    assert "recomputed** among the 3 models" in texts(at)
    open_section(at, "Track accuracy")
    corr = _frame(at, "agreement")
    assert corr["agreement"].isna().all()  # fewer than 5 models everywhere
    assert "no correlation: too few models with both values (3)" in texts(at)


def test_agreement_summary_and_the_lazy_groups_table():
    at = open_story_page(PAGE, section="Track accuracy")
    summary = next(t for t in tables(at) if "lowest on" in t.columns)
    assert list(summary["metric group"]) == ["Calibration", "Robustness", "Fairness", "Bias", "Toxicity",
                                             "Efficiency"]
    assert ((summary["lowest"] <= summary["median"]) & (summary["median"] <= summary["highest"])).all()
    assert summary["median"].between(-1, 1).all()
    open_section(at, "Seven groups")
    assert not [t for t in tables(at) if "how_computed" in t.columns]  # closed: not built
    groups = next(t for t in tables(open_lazy(at, "The seven groups")) if "how_computed" in t.columns)
    assert len(groups) == 7


def test_sections_in_order_and_only_the_first_is_built():
    at = open_story_page(PAGE)
    assert section_labels(at) == SECTIONS
    key, tabs = section_tabs(at)
    assert key == "metrics_section"
    assert len(tabs[0].children) > 0
    assert all(len(t.children) == 0 for t in tabs[1:])
    assert chart_keys(at) == ["metrics_profile"]
    assert "All 7 groups have values" not in texts(at) and "track accuracy (median" not in texts(at)
    for label in SECTIONS[1:]:
        open_section(at, label)
        assert chart_keys(at) == CHARTS[label], label
        _, tabs = section_tabs(at)
        assert [len(t.children) > 0 for t in tabs] == [t.label == label for t in tabs]


@pytest.mark.parametrize("label,needle", [("Profile", "leads these 3 models on accuracy"),
                                          ("Seven groups", "All 7 groups have values for this cohort"),
                                          ("Track accuracy", "Robustness and Fairness track accuracy")])
def test_url_opens_a_section(label, needle):
    at = open_story_page(PAGE, query={"metrics_section": label})
    assert chart_keys(at) == CHARTS[label]
    assert needle in texts(at)


@pytest.mark.parametrize("value", ["Nope", "", "profile", "Profile,Seven groups"])
def test_bad_section_in_url_opens_the_first(value):
    at = open_story_page(PAGE, query={"metrics_section": value})
    assert chart_keys(at) == ["metrics_profile"]
    assert "leads these 3 models on accuracy" in texts(at)


def test_profile_models_carry_to_the_scatter_and_back():
    """One choice of models: picked in the profile, starred in the scatter, and still there back in the profile."""
    at = open_story_page(PAGE)
    at.multiselect(key="models").set_value(["BLOOM (176B)", "T5 (11B)"]).run()
    open_section(at, "Seven groups")  # the picker is not drawn here
    open_section(at, "Track accuracy")
    assert at.multiselect(key="models").value == ["BLOOM (176B)", "T5 (11B)"]
    fig = json.loads(next(c for c in at.get("plotly_chart") if c.proto.id.endswith("metrics_pair")).proto.spec)
    starred = [t["name"] for t in fig["data"] if t.get("legendgroup") == "profile"]
    assert starred == ["BLOOM (176B)"]  # T5 has no HellaSwag value
    at.multiselect(key="models").set_value(["T5 (11B)"]).run()
    open_section(at, "Profile")
    assert at.multiselect(key="models").value == ["T5 (11B)"]
    assert _frame(at, "Accuracy")["model"].tolist() == ["T5 (11B)"]


def test_url_values_are_kept_while_another_section_is_open():
    at = open_story_page(PAGE, query={"pair": "MMLU|robustness", "bias_metric": "Stereotypes (race)",
                                      "models": ["TNLG v2 (530B)", "BLOOM (176B)"]})
    assert not notices(at)
    assert at.query_params["pair"] == "MMLU|robustness"
    open_section(at, "Track accuracy")
    assert at.selectbox(key="pair").value == "MMLU|robustness"
    assert at.selectbox(key="bias_metric").value == "Stereotypes (race)"
    assert at.multiselect(key="models").value == ["TNLG v2 (530B)", "BLOOM (176B)"]
    assert "MMLU: accuracy (EM) against Robustness" in texts(at)


def test_no_model_in_the_cohort_warns_in_every_section(release):
    from dataclasses import replace

    name = "no closed models"
    rel = replace(release, models=release.models.assign(access="open"),
                  meta={**release.meta, "kind": "upload", "release": name})
    at = open_story_page(PAGE, query={"cohort": "paper", "access": "closed"}, session={"dataset_key": name, "_releases": {name: rel}})
    assert section_labels(at) == SECTIONS
    for label in SECTIONS:
        if label != SECTIONS[0]:
            open_section(at, label)
        assert any("No model matches the sidebar's cohort" in str(w.value) for w in at.warning), label
        assert chart_keys(at) == [], label


def _profile_spec(at) -> dict:
    return json.loads(next(c for c in at.get("plotly_chart") if c.proto.id.endswith("metrics_profile")).proto.spec)


@pytest.mark.parametrize("release, kind, groups", [
    ("classic", "scatterpolar", 7),
    ("lite", "bar", 2),  # accuracy and efficiency only: a radar needs three axes, so bars
    ("capabilities", "bar", 2),
])
def test_profile_is_a_radar_from_three_groups_and_bars_below(release, kind, groups):
    at = open_story_page(PAGE, query={"release": release})
    spec = _profile_spec(at)
    assert {t["type"] for t in spec["data"]} == {kind}
    labels = {v for t in spec["data"] for v in (t.get("theta") or t.get("y") or [])}
    assert len(labels) == groups
    if kind == "scatterpolar":
        assert spec["layout"]["margin"]["t"] >= 40  # the top group's label has room above the circle
    else:
        assert all(str(x).replace(".", "").isdigit() or x == "no value" for t in spec["data"] for x in t["text"])


# ----------------------------------------------------------------------------- the seven groups, on every release


@pytest.mark.parametrize("release,efficiency,header", [
    ("classic", "Denoised inference runtime in seconds", "what it measures"),
    ("lite", "Observed inference time in seconds, as the deployment answered", "what it measures in HELM Lite v1.13.0"),
    ("capabilities", "Observed inference time in seconds, as the deployment answered",
     "what it measures in HELM Capabilities v1.15.0"),
])
def test_the_seven_groups_are_one_table_in_the_releases_own_words(release, efficiency, header):
    """The table's efficiency wording comes from the loaded release's metric_groups.csv, and the full cards below
    never put a later release's words under a "HELM classic" label."""
    import csv
    from pathlib import Path

    at = open_story_page(PAGE, section="Seven groups", query={"release": release})
    table = next(t for t in tables(at) if "group" in t.columns and header in t.columns)
    assert list(table["group"]) == ["Accuracy", "Calibration", "Robustness", "Fairness", "Bias", "Toxicity",
                                    "Efficiency"]
    assert table.set_index("group").loc["Efficiency", header] == efficiency
    root = Path(__file__).resolve().parents[2] / "data" / ("" if release == "classic" else f"releases/{release}")
    defs = {r["metric_group"]: r["definition"] for r in csv.DictReader((root / "metric_groups.csv").open())}
    assert defs["efficiency"].startswith(efficiency)
    t = texts(at)
    if release != "classic":
        assert f"*What it measures in HELM {release.capitalize()}" in t
        assert "What it measures in HELM classic.* Observed" not in t
        assert f"has values in 2 of the 7 groups** (Accuracy and Efficiency)" in t


def test_the_groups_table_counts_cells_with_a_value():
    from helm_core import coverage, data

    rel = data.load_bundled("classic")
    models = data.cohort_models(rel, "paper")
    acc = int(coverage.coverage_matrix(rel, models).to_numpy().sum())
    at = open_story_page(PAGE, section="Seven groups")
    table = next(t for t in tables(at) if "model × scenario cells with a value" in t.columns).set_index("group")
    assert table.loc["Accuracy", "model × scenario cells with a value"] == f"{acc} of {28 * 16}"
    assert table.loc["Bias", "scenarios with a value"] == "9 of 16"


def test_the_radar_scale_is_off_the_first_spoke(release):
    """The radial axis (and its labels) lies half a sector clockwise of the first group's spoke, not on it."""
    from helm_core import metrics as M
    from helm_core.data import CORE_GROUPS, GROUP_LABELS, cohort_models
    from ui import charts_coverage, charts_metrics

    order = [GROUP_LABELS[g] for g in CORE_GROUPS]
    prof, _ = M.profiles(release, cohort_models(release, "all"), ["text-davinci-002"])
    fig = charts_metrics.profile_radar(prof, order)
    polar = fig.layout.polar
    assert polar.angularaxis.rotation == 90 and polar.angularaxis.direction == "clockwise"
    assert polar.radialaxis.angle == pytest.approx(90 - 180 / 7)


@pytest.mark.parametrize("query,needle", [
    ({"cohort": "paper"}, "**Robustness and Fairness track accuracy (median agreement +0.93 to +0.98); Calibration, "
                          "Bias, Toxicity and Efficiency do not** (medians -0.32 to +0.13)."),
    ({"release": "lite"}, "**Efficiency does not track accuracy**: median agreement -0.02 over 10 of 10 scenarios."),
])
def test_the_track_point_is_computed(query, needle):
    at = open_story_page(PAGE, section="Track accuracy", query=query)
    assert needle in texts(at)
    corr = _frame(at, "agreement")
    groups = {"paper": 6}.get(query.get("cohort"), 1)
    assert corr["metric_group"].nunique() == groups  # a later release's unmeasured groups are not drawn
