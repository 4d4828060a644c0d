"""AppTest: the Podium page. Switch recipes, move sliders, change the policy and the field; check the podium moves."""
from __future__ import annotations

import pytest

from helm_core.data import load_release
from helm_core.ranking import RECIPES

from .helpers import chart_keys, open_lazy, open_page, open_section, section_labels, section_tabs, tables, texts
from .rankings_helpers import (NO_EFFICIENCY, chart_alt, chart_spec, loaded_session, metrics, open_with,
                               sliders, values, without_efficiency)

PAGE = "app_pages/podium.py"
SECTIONS = ["Recipe podium", "Robustness", "Paper podium", "Field of rivals"]


def podium_lines(at, title: str) -> str:
    """The markdown podium whose heading is `title` (the three lines under it)."""
    md = [str(m.value) for m in at.markdown]
    for i, v in enumerate(md):
        if v == f"**{title}**":
            return md[i + 1]
    raise AssertionError(f"no podium titled {title!r}")


def test_default_page_shows_both_podiums_and_every_chart():
    at = open_page(PAGE, query={"cohort": "all"})
    t = texts(at)
    assert "HELM's published group win rates" in t
    acc = podium_lines(at, "Accuracy only")
    assert acc.startswith("**#1 Llama 2 (70B)**")
    assert "LLaMA (65B)" in acc and "text-davinci-002" in acc
    rec = podium_lines(at, "Recipe: Holistic")
    assert "†" in rec  # the holistic leaders lack calibration/efficiency and say so
    assert float(metrics(at)["Kendall's tau, accuracy vs recipe"]) < 1
    assert "Models without a value, per weighted group: Calibration (19), Efficiency (41)" in t
    # Only the open section is built: the first load draws the weights and the slope chart, the others on demand.
    assert chart_keys(at) == ["podium_weights", "podium_slope"]
    open_section(at, "Robustness")
    assert chart_keys(at) == ["podium_stability"]
    open_section(at, "Field of rivals")
    assert chart_keys(at) == ["podium_model_set"]


def test_sections_in_order_and_the_first_load_builds_only_the_first():
    at = open_page(PAGE)
    key, tabs = section_tabs(at)
    assert key == "podium_section"
    assert section_labels(at) == SECTIONS
    assert len(tabs[0].children) > 0
    assert [len(t.children) for t in tabs[1:]] == [0, 0, 0]
    assert chart_keys(at) == ["podium_weights", "podium_slope"]
    t = texts(at)
    assert "Is the podium robust" not in t and "A simulation:" not in t
    assert "The paper's podium" not in t and "A win rate depends on the field" not in t
    assert "text-davinci-002 is first on accuracy" not in t  # the paper podium's claim
    assert "HELM deliberately defines no single overall score" in t  # the page's claim, in the first section


@pytest.mark.parametrize("label,charts,phrase", [
    ("Recipe podium", ["podium_weights", "podium_slope"], "Kendall's tau"),
    ("Robustness", ["podium_stability"], "A simulation:"),
    ("Paper podium", [], "Pareto dominance is rare"),
    ("Field of rivals", ["podium_model_set"], "A win rate depends on the field"),
])
def test_the_link_opens_a_section(label, charts, phrase):
    at = open_page(PAGE, query={"podium_section": label})
    key, tabs = section_tabs(at)
    opened = SECTIONS.index(label)
    assert [len(t.children) > 0 for t in tabs] == [i == opened for i in range(len(SECTIONS))]
    assert chart_keys(at) == charts
    assert phrase in texts(at) + " ".join(metrics(at))


@pytest.mark.parametrize("value", ["Nope", "", "robustness", "Recipe podium,Robustness"])
def test_a_bad_section_in_the_link_opens_the_first(value):
    at = open_page(PAGE, query={"podium_section": value})
    assert chart_keys(at) == ["podium_weights", "podium_slope"]
    assert len(section_tabs(at)[1][0].children) > 0


def test_the_recipe_is_shared_by_the_podium_and_robustness_sections():
    at = open_page(PAGE)
    at.radio(key="recipe").set_value("safety").run()
    at.radio(key="missing").set_value("exclude").run()
    at.button_group(key="n").set_value(20).run()
    open_section(at, "Robustness")
    assert at.radio(key="recipe").value == "safety" and at.radio(key="missing").value == "exclude"
    assert sliders(at)["w_bias"] == 3 and sliders(at)["w_toxicity"] == 3
    linked = open_with(PAGE, {"podium_section": "Robustness", "recipe": "safety", "missing": "exclude"})
    assert chart_alt(at, "podium_stability") == chart_alt(linked, "podium_stability")
    # a slider moved here makes the recipe custom, and the podium section shows it
    at.slider(key="w_toxicity").set_value(5).run()
    assert at.radio(key="recipe").value == "custom"
    open_section(at, "Paper podium")
    open_section(at, "Recipe podium")
    assert at.radio(key="recipe").value == "custom" and at.radio(key="missing").value == "exclude"
    assert sliders(at)["w_toxicity"] == 5 and sliders(at)["w_bias"] == 3
    assert at.button_group(key="n").value == 20
    assert "Recipe: Custom weights" in texts(at)
    assert "Current recipe weights" in chart_alt(at, "podium_weights")
    assert "Bias 23%, Toxicity 38%" in chart_alt(at, "podium_weights")  # 3 and 5 of 13


def test_a_link_to_a_later_section_keeps_the_recipe_for_the_podium():
    at = open_with(PAGE, {"podium_section": "Paper podium", "recipe": "custom", "w_accuracy": "2", "w_toxicity": "5",
                          "n": "5", "spread": "large"})
    assert chart_keys(at) == []
    for k, v in {"recipe": "custom", "w_accuracy": "2", "w_toxicity": "5", "n": "5", "spread": "large"}.items():
        assert at.query_params[k] == v, k
    del at.query_params["podium_section"]  # a browser's URL follows the clicked tab; AppTest's keeps the link's
    open_section(at, "Robustness")
    assert at.radio(key="recipe").value == "custom" and at.radio(key="spread").value == "large"
    assert sliders(at)["w_accuracy"] == 2 and sliders(at)["w_toxicity"] == 5
    open_section(at, "Recipe podium")
    assert at.button_group(key="n").value == 5
    label = chart_alt(at, "podium_weights")
    assert "Accuracy 29%" in label and "Toxicity 71%" in label, label


@pytest.mark.parametrize("name", ["accuracy", "efficiency", "safety", "holistic"])
def test_switching_recipe_sets_its_weights(name):
    at = open_page(PAGE)
    if name == "holistic":
        at.radio(key="recipe").set_value("safety").run()
    at.radio(key="recipe").set_value(name).run()
    expected = {f"w_{g}": int(v) for g, v in RECIPES[name].weights}
    assert sliders(at) == expected
    bar = chart_spec(at, "podium_weights")["data"][0]
    total = sum(expected.values())
    assert [round(v, 4) for v in values(bar["x"])] == [round(expected[f"w_{g}"] / total, 4) for g in RECIPES[name].weight_series().index]


def test_accuracy_only_recipe_matches_the_accuracy_podium():
    at = open_page(PAGE, query={"cohort": "all"})
    at.radio(key="recipe").set_value("accuracy").run()
    acc = podium_lines(at, "Accuracy only")
    rec = podium_lines(at, "Recipe: Accuracy only")
    assert acc.replace("win rate", "score") == rec
    assert metrics(at)["Kendall's tau, accuracy vs recipe"] == "1.00"
    assert metrics(at)["Models that change place"] == "0 of 67"
    open_section(at, "Robustness")
    assert at.radio(key="recipe").value == "accuracy"
    assert "nothing to perturb" in texts(at)
    assert "podium_stability" not in chart_keys(at)


def right_labels(at) -> list[str]:
    """The slope chart's right-hand labels: the recipe's top N in order."""
    return chart_spec(at, "podium_slope")["data"][-1]["text"]


@pytest.mark.parametrize("name,missing", [("efficiency", "renormalize"), ("efficiency", "exclude"),
                                          ("safety", "renormalize"), ("safety", "exclude")])
def test_push_recipes_reorder_the_ranking(name, missing):
    at = open_page(PAGE)
    at.radio(key="missing").set_value(missing).run()
    before, tau_before = right_labels(at), metrics(at)["Kendall's tau, accuracy vs recipe"]
    at.radio(key="recipe").set_value(name).run()
    assert right_labels(at) != before
    assert metrics(at)["Kendall's tau, accuracy vs recipe"] != tau_before


def test_safety_push_changes_the_podium_itself():
    at = open_page(PAGE)
    before = podium_lines(at, "Recipe: Holistic")
    at.radio(key="recipe").set_value("safety").run()
    assert podium_lines(at, "Recipe: Safety push") != before


def test_moving_a_slider_makes_the_recipe_custom_and_moves_the_podium():
    at = open_page(PAGE)
    at.radio(key="recipe").set_value("accuracy").run()
    before = podium_lines(at, "Recipe: Accuracy only")
    at.slider(key="w_toxicity").set_value(5).run()
    assert at.radio(key="recipe").value == "custom"
    assert sliders(at)["w_toxicity"] == 5 and sliders(at)["w_accuracy"] == 1
    after = podium_lines(at, "Recipe: Custom weights")
    assert after != before
    assert float(metrics(at)["Kendall's tau, accuracy vs recipe"]) < 1
    # a second slider move keeps the first
    at.slider(key="w_bias").set_value(2).run()
    assert sliders(at)["w_toxicity"] == 5 and sliders(at)["w_bias"] == 2


def test_all_weights_at_zero_give_a_clear_message():
    at = open_page(PAGE)
    at.radio(key="recipe").set_value("accuracy").run()
    at.slider(key="w_accuracy").set_value(0).run()
    assert at.radio(key="recipe").value == "custom"
    assert any("cannot make a ranking" in str(w.value) for w in at.warning)
    assert "podium_slope" not in chart_keys(at)


def test_exclude_policy_ranks_only_complete_models():
    at = open_page(PAGE, query={"cohort": "all"})
    at.radio(key="missing").set_value("exclude").run()
    t = texts(at)
    assert "are left out; **25** are ranked, in both columns" in t
    acc_table = next(d for d in tables(at) if "win rate" in d.columns)
    assert acc_table["rank"].astype(int).max() <= 25  # accuracy ranks among the same 25 models
    assert "†" not in podium_lines(at, "Recipe: Holistic")
    assert podium_lines(at, "Recipe: Holistic").startswith("**#1 text-davinci-002**")


def test_top_n_changes_the_slope_chart_and_tables():
    at = open_page(PAGE, query={"cohort": "all"})
    n10 = len(values(chart_spec(at, "podium_slope")["data"][-1]["y"]))
    at.button_group(key="n").set_value(30).run()
    n30 = len(values(chart_spec(at, "podium_slope")["data"][-1]["y"]))
    assert n30 > n10 >= 10
    top = [t for t in tables(at) if "win rate" in t.columns]
    assert len(top[0]) == 30


def test_spread_changes_the_stability_numbers():
    at = open_page(PAGE)
    at.radio(key="recipe").set_value("safety").run()
    open_section(at, "Robustness")
    at.radio(key="spread").set_value("small").run()
    small = chart_spec(at, "podium_stability")["data"]
    at.radio(key="spread").set_value("large").run()
    large = chart_spec(at, "podium_stability")["data"]
    assert small != large
    assert "A simulation:" in texts(at)


def test_the_link_sets_recipe_policy_and_n():
    at = open_with(PAGE, {"recipe": "safety", "missing": "exclude", "n": "5", "spread": "large"})
    assert at.radio(key="recipe").value == "safety"
    assert at.radio(key="missing").value == "exclude"
    assert at.button_group(key="n").value == 5
    assert sliders(at)["w_bias"] == 3
    assert podium_lines(at, "Recipe: Safety push").startswith("**#1 text-davinci-002**")
    open_section(at, "Robustness")
    assert at.radio(key="spread").value == "large"
    assert at.radio(key="recipe").value == "safety"


def test_a_link_with_custom_weights():
    at = open_with(PAGE, {"recipe": "custom", "w_accuracy": "1", "w_efficiency": "4"})
    assert sliders(at) == {"w_accuracy": 1, "w_calibration": 0, "w_robustness": 0, "w_fairness": 0, "w_bias": 0,
                           "w_toxicity": 0, "w_efficiency": 4}
    assert "Recipe: Custom weights" in texts(at)


def test_a_link_whose_weights_disagree_with_its_recipe_opens_as_custom():
    at = open_with(PAGE, {"recipe": "holistic", "w_bias": "4"})
    assert at.radio(key="recipe").value == "custom"
    assert sliders(at)["w_bias"] == 4 and sliders(at)["w_accuracy"] == 1


@pytest.mark.parametrize("query", [{"recipe": "bogus"}, {"w_bias": "99"}, {"missing": "zero", "n": "7"},
                                   {"spread": "huge", "w_accuracy": "-1"}])
def test_bad_link_values_fall_back_without_an_error(query):
    at = open_with(PAGE, query)
    assert at.radio(key="recipe").value in ("holistic", "custom")
    assert "Kendall's tau, accuracy vs recipe" in metrics(at)


def test_paper_cohort_recomputes_and_says_so():
    at = open_page(PAGE, query={"cohort": "paper"})
    t = texts(at)
    assert "recomputed from HELM classic v0.4.0's results among the 28 models" in t
    assert podium_lines(at, "Accuracy only").startswith("**#1 text-davinci-002**")
    open_section(at, "Paper podium")
    assert "Among the paper's 28-model cohort" in texts(at)


def test_paper_claim_is_compared_with_v040():
    t = texts(open_page(PAGE, query={"podium_section": "Paper podium"}))
    assert "text-davinci-002 is first on accuracy" in t  # the claim, as a claim
    assert "#3 text-davinci-002 (0.905), #9 TNLG v2 (530B) (0.787), #12 Anthropic-LM v4-s3 (52B) (0.780)" in t
    assert "agrees with the paper **within its own cohort**" in t
    assert "Pareto dominance is rare" in t
    # "in all seven groups" counts only the models that have all seven; the others are counted apart
    from helm_core import fmt
    from helm_core.ranking import dominance_check

    from helm_core.data import cohort_models

    rel = load_release()
    d = dominance_check(rel, cohort_models(rel, "paper"))  # the sidebar's default cohort
    full, fewer = d.group_counts[d.group_counts == 7], d.group_counts[d.group_counts < 7]
    assert len(full) == len(d.nondominated) and len(fewer) > 0
    assert f"of the {len(full)} models in this cohort with a win rate in all seven groups" in t
    held = (fmt.count(fewer.min(), "group") if fewer.min() == fewer.max() else
            f"{fewer.min()} to {fewer.max()} groups")
    assert (f"The other {fmt.count(len(fewer), 'model')} of the cohort {fmt.plural(len(fewer), 'has')} win rates in "
            f"{held} and are left out of this check.") in t


def test_three_model_cohort_still_works():
    at = open_page(PAGE, query={"cohort": "paper", "access": "closed"})
    assert metrics(at)["Models that change place"].endswith("of 3")
    lines = podium_lines(at, "Accuracy only").split("\n")
    assert len(lines) == 3 and lines[0].startswith("**#1 ") and "TNLG v2 (6.7B)" in lines[2]
    assert "recomputed" in texts(at)


@pytest.mark.parametrize("which,word", [("stronger", "#1 of"), ("weaker", "without the")])
def test_model_set_demo_recomputes_against_a_smaller_field(which, word):
    at = open_page(PAGE, query={"podium_section": "Field of rivals"})
    at.selectbox(key="podium_ms_model").set_value("davinci (175B)").run()
    at.radio(key="podium_ms_which").set_value(which).run()
    line = next(str(m.value) for m in at.markdown if str(m.value).startswith("Accuracy win rate of **davinci (175B)**"))
    assert word in line
    full = float(line.split("**: ", 1)[1].split(" ")[0])
    reduced = float(line.split("field, ", 1)[1].split(" ")[0])
    assert (reduced > full) if which == "stronger" else (reduced < full)


def test_model_set_demo_with_custom_rivals():
    at = open_page(PAGE, query={"cohort": "all", "podium_section": "Field of rivals"})
    at.radio(key="podium_ms_which").set_value("custom").run()
    assert any("No rivals to remove" in str(i.value) for i in at.info)
    at.multiselect(key="podium_ms_custom").set_value(["Llama 2 (70B)", "LLaMA (65B)"]).run()
    assert "without the 2 removed rivals" in texts(at)


def test_a_release_without_efficiency_says_what_is_missing():
    rel = without_efficiency(load_release())
    at = open_with(PAGE, {"recipe": "efficiency"}, session=loaded_session(rel))
    t = texts(at)
    assert f"recomputed from {NO_EFFICIENCY}'s results" in t
    assert "No model in this cohort has a win rate for Efficiency" in t
    at.radio(key="missing").set_value("exclude").run()
    assert "every model drops out" in texts(at)
    assert any("No model can be ranked" in str(i.value) for i in at.info)


def test_model_set_demo_in_the_paper_cohort_starts_from_mid_table():
    at = open_page(PAGE, query={"cohort": "paper", "podium_section": "Field of rivals"})
    assert at.selectbox(key="podium_ms_model").value == "TNLG v2 (6.7B)"  # 15th of 28 on accuracy
    assert at.radio(key="podium_ms_which").value == "stronger"  # no newer models in the paper's cohort
    assert "(#1 of 14) without the 14 removed rivals" in texts(at)


def test_removing_every_rival_leaves_no_win_rate():
    at = open_page(PAGE, query={"cohort": "paper"})
    open_section(at, "Field of rivals")
    at.selectbox(key="podium_ms_model").set_value("text-davinci-002").run()
    at.radio(key="podium_ms_which").set_value("weaker").run()
    assert any("has no win rate at all" in str(i.value) for i in at.info)


def test_a_one_model_release_says_a_ranking_needs_two():
    from dataclasses import replace

    from helm_core.data import select_models

    rel = select_models(load_release(), ["GPT-J (6B)"])
    rel = replace(rel, meta={**rel.meta, "kind": "upload", "release": "one-model-upload"})
    at = open_with(PAGE, session=loaded_session(rel))
    assert any("needs at least two models" in str(w.value) for w in at.warning)
    assert chart_keys(at) == []
    assert section_labels(at) == []


def test_top_tables_and_the_full_ranking_behind_a_lazy_expander():
    at = open_page(PAGE, query={"cohort": "all"})
    acc, rec = [t for t in tables(at) if {"rank", "model"} <= set(t.columns)]
    assert list(acc.columns) == ["rank", "win rate", "model"] and list(rec.columns) == ["rank", "score", "model"]
    assert len(acc) == len(rec) == 10
    assert acc["rank"].is_monotonic_increasing and rec["rank"].is_monotonic_increasing
    assert acc["win rate"].is_monotonic_decreasing and rec["score"].is_monotonic_decreasing
    assert not [t for t in tables(at) if "note" in t.columns]  # closed: not built
    open_lazy(at, "Every model under")
    full = next(t for t in tables(at) if "note" in t.columns)
    assert len(full) == len(load_release().models)
    flagged = full[full["model"].str.endswith(" †")]
    assert len(flagged) and flagged["note"].str.startswith("no ").all()
