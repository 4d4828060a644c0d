"""AppTest: the Podium page (slides: Recipe podium, Robustness, Paper podium, Field of rivals). HELM's own podium
per release (read here from data/ with pandas), this app's recipe beside it, recipes and sliders, the policy, the
field of rivals, and the views a speaker view or the handout computes without widgets."""
from __future__ import annotations

import pandas as pd
import pytest

from helm_core import fmt
from helm_core.data import cohort_models, load_bundled, load_release
from helm_core.ranking import RECIPES
from helm_core.win_rates import group_win_rates

from .helpers import ROOT, chart_keys, open_lazy, open_section, open_story_page, section_labels, section_tabs, tables
from .rankings_helpers import (NO_EFFICIENCY, chart_alt, chart_spec, loaded_session, metrics, open_with, plain,
                               podium_lines, sliders, values, without_efficiency)

PAGE = "app_pages/podium.py"
SECTIONS = ["Recipe podium", "Robustness", "Paper podium", "Field of rivals"]
DATA = ROOT / "data"
PUBLISHED = {  # HELM's own aggregate per release, as published: file, value column, HELM's name for it
    "classic": (DATA / "published_win_rates.csv", "win_rate", "Mean win rate"),
    "lite": (DATA / "releases" / "lite" / "published_win_rates.csv", "win_rate", "Mean win rate"),
    "capabilities": (DATA / "releases" / "capabilities" / "published_scores.csv", "score", "Mean score"),
}


def published_order(release: str) -> pd.DataFrame:
    """HELM's published accuracy ranking of a bundled release, read with pandas: model, value, best first."""
    path, col, _ = PUBLISHED[release]
    pub = pd.read_csv(path)
    acc = pub[pub["metric_group"] == "accuracy"].rename(columns={col: "value"})
    return acc.sort_values(["value", "model"], ascending=[False, True]).reset_index(drop=True)[["model", "value"]]


def left_labels(at) -> list[str]:
    """The slope chart's left-hand labels (HELM's side), top first."""
    trace = next(t for t in chart_spec(at, "podium_slope")["data"]
                 if t.get("mode") == "text" and t.get("textposition") == "middle left")
    return [x for _, x in sorted(zip(values(trace["y"]), trace["text"]))]


def right_labels(at) -> list[str]:
    """The slope chart's right-hand labels (the recipe's side), top first."""
    trace = next(t for t in chart_spec(at, "podium_slope")["data"]
                 if t.get("mode") == "text" and t.get("textposition") == "middle right")
    return [x for _, x in sorted(zip(values(trace["y"]), trace["text"]))]


# ----------------------------------------------------------------------------- HELM's podium, as HELM ranks


@pytest.mark.parametrize("release", ["classic", "lite", "capabilities"])
def test_helms_podium_is_the_top_three_helm_publishes(release):
    """Every release's podium starts from the aggregate HELM publishes for it (classic and Lite: Mean win rate;
    Capabilities: Mean score), shown as HELM's, with the published values; the recipe is labelled as this app's."""
    agg = PUBLISHED[release][2]
    top = published_order(release).head(3)
    at = open_story_page(PAGE, query={"release": release, "cohort": "all"})
    lines = podium_lines(at, f"HELM's podium · HELM's {agg} (published)")
    for i, r in enumerate(top.itertuples(), start=1):
        assert f"**#{i} {r.model}** · {agg} {fmt.value(r.value)}" in lines, (release, lines)
    assert left_labels(at)[:3] == [f"#{i} {m}" for i, m in enumerate(top["model"], start=1)]
    t = plain(at)
    assert (f"HELM's podium (HELM's {agg} (published)): "
            + ", ".join(f"#{i} {r.model} ({fmt.value(r.value)})" for i, r in enumerate(top.itertuples(), start=1))
            in t)
    heads = [a["text"].replace("<br>", " ") for a in chart_spec(at, "podium_slope")["layout"]["annotations"]]
    assert f"<b>HELM's {agg} (published)</b>" in heads and "<b>This app's recipe: Holistic</b>" in heads
    assert "Recipes are this app's: HELM publishes no overall score across metric groups." in t


def test_capabilities_is_ranked_by_its_mean_score_and_says_so():
    at = open_story_page(PAGE, query={"release": "capabilities"})
    t = plain(at)
    assert "HELM ranks models by head-to-head win rate" not in t
    assert "HELM ranks HELM Capabilities v1.15.0 by its Mean score and publishes no win rates" in t
    assert ("Win rates shown: computed by this app from HELM Capabilities v1.15.0's results among the 68 models of "
            "this cohort, by HELM's rule (HELM publishes a Mean score for this release, no win rates).") in t
    assert "The win rates are HELM's" not in t and "HELM's published values cover" not in t
    # the recipe ranks on what the release measures; the other weights are set aside, and it says so
    assert "The release measures accuracy and efficiency only" in t
    # the old page's podium: accuracy win rates recomputed, not HELM's
    assert left_labels(at)[0] == f"#1 {published_order('capabilities')['model'][0]}"


def test_a_cohort_recomputes_helms_aggregate_and_labels_it():
    """The paper's 28 models: HELM publishes its Mean win rate for all 67, so for the cohort it is recomputed and
    labelled as such (the paper's own podium comes back); the recipe's win rates say the same."""
    rel = load_release()
    models = cohort_models(rel, "paper")
    wr = group_win_rates(rel, models, ("accuracy",))["accuracy"].sort_values(ascending=False)
    at = open_story_page(PAGE, query={"cohort": "paper"})
    label = "HELM's Mean win rate, recomputed for these 28 models"
    lines = podium_lines(at, f"HELM's podium · {label}")
    for i, (m, v) in enumerate(wr.head(3).items(), start=1):
        assert f"**#{i} {m}** · Mean win rate {fmt.value(v)}" in lines
    t = plain(at)
    assert "recomputed from HELM classic v0.4.0's results among the 28 models" in t
    assert "for this cohort's 28 models it is recomputed here from the release's results by HELM's rule" in t
    assert "(published)" not in " ".join(a["text"] for a in chart_spec(at, "podium_slope")["layout"]["annotations"])


def test_a_suite_without_helms_tables_says_nothing_was_published():
    rel = without_efficiency(load_release())
    at = open_with(PAGE, {"cohort": "all"}, session=loaded_session(rel))
    t = plain(at)
    assert f"{NO_EFFICIENCY} publishes no Mean win rate of its own" in t
    assert "HELM's published values cover" not in t and "The win rates are HELM's" not in t
    assert f"computed by this app from {NO_EFFICIENCY}'s results among the 67 models" in t
    assert podium_lines(at, "HELM's podium · Mean win rate by HELM's rule, computed here")


# ----------------------------------------------------------------------------- the slides


def test_default_page_shows_both_podiums_and_its_charts():
    at = open_story_page(PAGE, query={"cohort": "all"})
    t = plain(at)
    assert "HELM's published group win rates" in t
    helm = podium_lines(at, "HELM's podium · HELM's Mean win rate (published)")
    assert helm.startswith("**#1 Llama 2 (70B)**")
    assert "LLaMA (65B)" in helm and "text-davinci-002" in helm
    rec = podium_lines(at, "This app's recipe: Holistic")
    assert "†" in rec  # the holistic leaders lack calibration/efficiency and say so
    assert float(metrics(at)["Kendall's tau, HELM vs recipe"]) < 1
    assert "Models without a value, per weighted group: Calibration (19), Efficiency (41)" in t
    # the slide's visual first, then the weights below it; no other slide is built
    assert chart_keys(at) == ["podium_slope", "podium_weights"]
    open_section(at, "Robustness")
    assert chart_keys(at) == ["podium_stability"]
    open_section(at, "Paper podium")
    assert chart_keys(at) == ["podium_paper"]
    open_section(at, "Field of rivals")
    assert chart_keys(at) == ["podium_rivals", "podium_model_set"]


def test_sections_in_order_and_the_first_load_builds_only_the_first():
    at = open_story_page(PAGE)
    key, tabs = section_tabs(at)
    assert key == "podium_section"
    assert section_labels(at) == SECTIONS
    assert len(tabs[0].children) > 0
    assert [len(t.children) for t in tabs[1:]] == [0, 0, 0]
    t = plain(at)
    assert "A simulation:" not in t and "A HELM user asked exactly this" not in t
    assert "text-davinci-002 is first on accuracy" not in t  # the paper podium's claim
    assert "HELM deliberately defines no single overall score" in t  # the page's claim, in the first slide


@pytest.mark.parametrize("label,charts,phrase", [
    ("Recipe podium", ["podium_slope", "podium_weights"], "Kendall's tau"),
    ("Robustness", ["podium_stability"], "A simulation:"),
    ("Paper podium", ["podium_paper"], "Pareto dominance is rare"),
    ("Field of rivals", ["podium_rivals", "podium_model_set"], "A HELM user asked exactly this"),
])
def test_the_link_opens_a_section(label, charts, phrase):
    at = open_story_page(PAGE, query={"podium_section": label})
    key, tabs = section_tabs(at)
    opened = SECTIONS.index(label)
    assert [len(t.children) > 0 for t in tabs] == [i == opened for i in range(len(SECTIONS))]
    assert chart_keys(at) == charts
    assert phrase in plain(at) + " ".join(metrics(at))


@pytest.mark.parametrize("value", ["Nope", "", "robustness", "Recipe podium,Robustness"])
def test_a_bad_section_in_the_link_opens_the_first(value):
    at = open_story_page(PAGE, query={"podium_section": value})
    assert chart_keys(at) == ["podium_slope", "podium_weights"]
    assert len(section_tabs(at)[1][0].children) > 0


def test_the_recipe_is_shared_by_the_podium_and_robustness_slides():
    at = open_story_page(PAGE)
    at.radio(key="recipe").set_value("safety").run()
    at.radio(key="missing").set_value("exclude").run()
    at.button_group(key="n").set_value(20).run()
    open_section(at, "Robustness")
    assert at.radio(key="recipe").value == "safety" and at.radio(key="missing").value == "exclude"
    assert sliders(at)["w_bias"] == 3 and sliders(at)["w_toxicity"] == 3
    linked = open_with(PAGE, {"podium_section": "Robustness", "recipe": "safety", "missing": "exclude"})
    assert chart_alt(at, "podium_stability") == chart_alt(linked, "podium_stability")
    # a slider moved here makes the recipe custom, and the podium slide shows it
    at.slider(key="w_toxicity").set_value(5).run()
    assert at.radio(key="recipe").value == "custom"
    open_section(at, "Paper podium")
    open_section(at, "Recipe podium")
    assert at.radio(key="recipe").value == "custom" and at.radio(key="missing").value == "exclude"
    assert sliders(at)["w_toxicity"] == 5 and sliders(at)["w_bias"] == 3
    assert at.button_group(key="n").value == 20
    assert podium_lines(at, "This app's recipe: Custom weights")
    assert "Bias 23%, Toxicity 38%" in chart_alt(at, "podium_weights")  # 3 and 5 of 13


def test_a_link_to_a_later_section_keeps_the_recipe_for_the_podium():
    at = open_with(PAGE, {"podium_section": "Paper podium", "recipe": "custom", "w_accuracy": "2", "w_toxicity": "5",
                          "n": "5", "spread": "large"})
    assert chart_keys(at) == ["podium_paper"]
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
    at = open_story_page(PAGE)
    if name == "holistic":
        at.radio(key="recipe").set_value("safety").run()
    at.radio(key="recipe").set_value(name).run()
    expected = {f"w_{g}": int(v) for g, v in RECIPES[name].weights}
    assert sliders(at) == expected
    bar = chart_spec(at, "podium_weights")["data"][0]
    total = sum(expected.values())
    assert [round(v, 4) for v in values(bar["x"])] == [round(expected[f"w_{g}"] / total, 4)
                                                        for g in RECIPES[name].weight_series().index]


def test_accuracy_only_recipe_matches_helms_podium_on_the_whole_release():
    """On classic's 67 models HELM's Mean win rate is the accuracy group's published win rate: the accuracy-only
    recipe then ranks exactly as HELM does."""
    at = open_story_page(PAGE, query={"cohort": "all"})
    at.radio(key="recipe").set_value("accuracy").run()
    helm = podium_lines(at, "HELM's podium · HELM's Mean win rate (published)")
    rec = podium_lines(at, "This app's recipe: Accuracy only")
    assert helm.replace("Mean win rate", "score") == rec
    assert metrics(at)["Kendall's tau, HELM vs recipe"] == "1.00"
    assert metrics(at)["Models that change place"] == "0 of 67"
    assert "keeps HELM's podium (Llama 2 (70B), LLaMA (65B) and text-davinci-002) and moves no model" in plain(at)
    open_section(at, "Robustness")
    assert at.radio(key="recipe").value == "accuracy"
    assert "nothing to perturb" in plain(at)
    assert "podium_stability" not in chart_keys(at)


@pytest.mark.parametrize("name,missing", [("efficiency", "renormalize"), ("efficiency", "exclude"),
                                          ("safety", "renormalize"), ("safety", "exclude")])
def test_push_recipes_reorder_the_ranking(name, missing):
    at = open_story_page(PAGE)
    at.radio(key="missing").set_value(missing).run()
    before, tau_before = right_labels(at), metrics(at)["Kendall's tau, HELM vs recipe"]
    at.radio(key="recipe").set_value(name).run()
    assert right_labels(at) != before
    assert metrics(at)["Kendall's tau, HELM vs recipe"] != tau_before


def test_safety_push_changes_the_podium_itself():
    at = open_story_page(PAGE)
    before = podium_lines(at, "This app's recipe: Holistic")
    at.radio(key="recipe").set_value("safety").run()
    assert podium_lines(at, "This app's recipe: Safety push") != before


def test_moving_a_slider_makes_the_recipe_custom_and_moves_the_podium():
    at = open_story_page(PAGE)
    at.radio(key="recipe").set_value("accuracy").run()
    before = podium_lines(at, "This app's recipe: Accuracy only")
    at.slider(key="w_toxicity").set_value(5).run()
    assert at.radio(key="recipe").value == "custom"
    assert sliders(at)["w_toxicity"] == 5 and sliders(at)["w_accuracy"] == 1
    assert podium_lines(at, "This app's recipe: Custom weights") != before
    assert float(metrics(at)["Kendall's tau, HELM vs recipe"]) < 1
    at.slider(key="w_bias").set_value(2).run()  # a second slider move keeps the first
    assert sliders(at)["w_toxicity"] == 5 and sliders(at)["w_bias"] == 2


def test_all_weights_at_zero_give_a_clear_message():
    at = open_story_page(PAGE)
    at.radio(key="recipe").set_value("accuracy").run()
    at.slider(key="w_accuracy").set_value(0).run()
    assert at.radio(key="recipe").value == "custom"
    assert any("cannot make a ranking" in str(w.value) for w in at.warning)
    assert "podium_slope" not in chart_keys(at)


def test_exclude_policy_ranks_only_complete_models():
    at = open_story_page(PAGE, query={"cohort": "all"})
    at.radio(key="missing").set_value("exclude").run()
    t = plain(at)
    assert "**42 of 67 models** lack a value for at least one weighted group and are left out; **25** are ranked" in t
    assert "†" not in podium_lines(at, "This app's recipe: Holistic")
    assert podium_lines(at, "This app's recipe: Holistic").startswith("**#1 text-davinci-002**")
    # the slope chart and the moves count the same 25 models on both sides
    assert len(chart_spec(at, "podium_slope")["data"]) > 0
    assert metrics(at)["Models that change place"].endswith("of 25")


def test_top_n_changes_the_slope_chart_and_tables():
    at = open_story_page(PAGE, query={"cohort": "all"})
    n10 = len(right_labels(at))
    at.button_group(key="n").set_value(30).run()
    n30 = len(right_labels(at))
    assert n30 > n10 >= 10
    top = [t for t in tables(at) if "Mean win rate" in t.columns]
    assert len(top[0]) == 30


def test_every_endpoint_is_named_in_full():
    """Both sides name every model they list, in full, with its rank (no "…", no bare "#11")."""
    at = open_story_page(PAGE, query={"cohort": "all"})
    data = open_lazy(at, "Data behind this chart")
    frame = next(t for t in tables(data) if {"helm_rank", "recipe_rank"} <= set(t.columns))
    sel = frame[(frame["helm_rank"] <= 10) | (frame["recipe_rank"] <= 10)]
    assert sorted(left_labels(at)) == sorted(f"#{int(r.helm_rank)} {r.model}" for r in sel.itertuples())
    assert sorted(right_labels(at)) == sorted(f"{r.model} #{int(r.recipe_rank)}" for r in sel.itertuples())
    assert not any("…" in x for x in left_labels(at) + right_labels(at))


def test_spread_changes_the_stability_numbers():
    at = open_story_page(PAGE)
    at.radio(key="recipe").set_value("safety").run()
    open_section(at, "Robustness")
    at.radio(key="spread").set_value("small").run()
    small = chart_spec(at, "podium_stability")["data"]
    at.radio(key="spread").set_value("large").run()
    large = chart_spec(at, "podium_stability")["data"]
    assert small != large
    assert "A simulation:" in plain(at)


@pytest.mark.parametrize("release,move", [("classic", "±34%"), ("lite", "±14%")])
def test_the_typical_weight_move_is_the_releases_own(release, move):
    """The holistic recipe weighs 7 groups on classic (1/7 each: ±34% at concentration 50), 2 on Lite (±14%)."""
    at = open_story_page(PAGE, query={"release": release, "podium_section": "Robustness"})
    assert f"a typical weight moves by about {move} of its value" in plain(at)


def test_the_link_sets_recipe_policy_and_n():
    at = open_with(PAGE, {"recipe": "safety", "missing": "exclude", "n": "5", "spread": "large"})
    assert at.radio(key="recipe").value == "safety"
    assert at.radio(key="missing").value == "exclude"
    assert at.button_group(key="n").value == 5
    assert sliders(at)["w_bias"] == 3
    assert podium_lines(at, "This app's recipe: Safety push").startswith("**#1 text-davinci-002**")
    open_section(at, "Robustness")
    assert at.radio(key="spread").value == "large"
    assert at.radio(key="recipe").value == "safety"


def test_a_link_with_custom_weights():
    at = open_with(PAGE, {"recipe": "custom", "w_accuracy": "1", "w_efficiency": "4"})
    assert sliders(at) == {"w_accuracy": 1, "w_calibration": 0, "w_robustness": 0, "w_fairness": 0, "w_bias": 0,
                           "w_toxicity": 0, "w_efficiency": 4}
    assert podium_lines(at, "This app's recipe: Custom weights")


def test_a_link_whose_weights_disagree_with_its_recipe_opens_as_custom():
    at = open_with(PAGE, {"recipe": "holistic", "w_bias": "4"})
    assert at.radio(key="recipe").value == "custom"
    assert sliders(at)["w_bias"] == 4 and sliders(at)["w_accuracy"] == 1


@pytest.mark.parametrize("query", [{"recipe": "bogus"}, {"w_bias": "99"}, {"missing": "zero", "n": "7"},
                                   {"spread": "huge", "w_accuracy": "-1"}])
def test_bad_link_values_fall_back_without_an_error(query):
    at = open_with(PAGE, query)
    assert at.radio(key="recipe").value in ("holistic", "custom")
    assert "Kendall's tau, HELM vs recipe" in metrics(at)


def test_paper_claim_is_compared_with_v040_as_a_chart():
    at = open_story_page(PAGE, query={"podium_section": "Paper podium"})
    t = plain(at)
    assert "text-davinci-002 is first on accuracy" in t  # the claim, as a claim
    assert "#3 text-davinci-002 (0.905), #9 TNLG v2 (530B) (0.787), #12 Anthropic-LM v4-s3 (52B) (0.780)" in t
    assert "agrees with the paper **within its own cohort**" in t
    assert ("The 2022 paper's podium holds among its own 28 models; among all 67 of HELM classic v0.4.0 the three "
            "rank #3, #9 and #12.") in t
    spec = chart_spec(at, "podium_paper")
    claim = next(tr for tr in spec["data"] if tr.get("name") == "the 2022 paper's place (claim)")
    assert values(claim["x"]) == [1, 2, 3] and claim["marker"]["color"] == "#AA4499"  # palette.CLAIM
    overall = next(tr for tr in spec["data"] if str(tr.get("name")).startswith("rank among all 67"))
    assert values(overall["x"]) == [3, 9, 12]
    assert "Pareto dominance is rare" in t
    # "in all seven groups" counts only the models that have all seven; the others are counted apart
    from helm_core.dominance import dominance_check

    rel = load_release()
    d = dominance_check(rel, cohort_models(rel, "paper"))  # the sidebar's default cohort
    full, fewer = d.group_counts[d.group_counts == 7], d.group_counts[d.group_counts < 7]
    assert len(full) == len(d.nondominated) and len(fewer) > 0
    assert f"of the {len(full)} models in this cohort with a win rate in all seven groups" in t
    held = (fmt.count(fewer.min(), "group") if fewer.min() == fewer.max() else
            f"{fewer.min()} to {fewer.max()} groups")
    assert (f"The other {fmt.count(len(fewer), 'model')} of the cohort {fmt.plural(len(fewer), 'has')} win rates in "
            f"{held} and {fmt.verb_form(len(fewer), 'is')} left out of this check.") in t


@pytest.mark.parametrize("release", ["lite", "capabilities"])
def test_the_paper_podium_is_off_the_route_on_a_later_release(release, bare_release):
    from app_pages import podium

    ctx = _ctx(release, "all", {})
    assert [s.on_route for s in podium.DECK.slides_for(ctx)] == [True, True, False, True]
    at = open_story_page(PAGE, query={"release": release, "podium_section": "Paper podium"})
    assert "the claim is checked on classic only" in plain(at)
    assert chart_keys(at) == []
    links = [(p.proto.page, p.proto.query_string) for p in at.get("page_link") if "HELM classic" in p.proto.label]
    assert links == [("podium", "release=classic&podium_section=Paper+podium")]


def test_three_model_cohort_still_works():
    at = open_story_page(PAGE, query={"cohort": "paper", "access": "closed"})
    assert metrics(at)["Models that change place"].endswith("of 3")
    lines = podium_lines(at, "HELM's podium · HELM's Mean win rate, recomputed for these 3 models").split("\n")
    assert len(lines) == 3 and lines[0].startswith("**#1 ") and "TNLG v2 (6.7B)" in lines[2]
    assert "recomputed" in plain(at)


# ----------------------------------------------------------------------------- the field of rivals


def _rival_point(at) -> str:
    return next(line for line in plain(at).split("\n") if "'s accuracy win rate" in line)


@pytest.mark.parametrize("which,better", [("stronger", True), ("weaker", False)])
def test_the_field_of_rivals_recomputes_against_a_smaller_field(which, better):
    at = open_story_page(PAGE, query={"podium_section": "Field of rivals"})
    at.selectbox(key="podium_ms_model").set_value("davinci (175B)").run()
    at.radio(key="podium_ms_which").set_value(which).run()
    rel = load_release()
    models = cohort_models(rel, "paper")
    wr = group_win_rates(rel, models, ("accuracy",))["accuracy"]
    t = wr["davinci (175B)"]
    removed = [m for m in models if m != "davinci (175B)" and ((wr[m] > t) if which == "stronger" else (wr[m] < t))]
    rest = group_win_rates(rel, [m for m in models if m not in removed], ("accuracy",))["accuracy"]
    point = _rival_point(at)
    assert point == (f"davinci (175B)'s accuracy win rate: {fmt.value(t)} against all 28 models, "
                     f"{fmt.value(rest['davinci (175B)'])} without the {len(removed)} {which} rivals: same scores, "
                     "another field.")
    assert (rest["davinci (175B)"] > t) == better
    bars = chart_spec(at, "podium_rivals")["data"][0]
    assert len(values(bars["x"])) == 3  # the full field, stronger, weaker: the paper's cohort has no newer model


def test_the_field_of_rivals_with_custom_rivals():
    at = open_story_page(PAGE, query={"cohort": "all", "podium_section": "Field of rivals"})
    at.radio(key="podium_ms_which").set_value("custom").run()
    assert any("No rivals to remove" in str(i.value) for i in at.info)
    at.multiselect(key="podium_ms_custom").set_value(["Llama 2 (70B)", "LLaMA (65B)"]).run()
    assert "without the 2 picked rivals" in plain(at)
    assert "without your 2 picked rivals" in chart_alt(at, "podium_rivals")


def test_the_field_of_rivals_in_the_paper_cohort_starts_from_mid_table():
    at = open_story_page(PAGE, query={"cohort": "paper", "podium_section": "Field of rivals"})
    assert at.selectbox(key="podium_ms_model").value == "TNLG v2 (6.7B)"  # 15th of 28 on accuracy
    assert at.radio(key="podium_ms_which").value == "stronger"  # no newer models in the paper's cohort
    assert "without the 14 stronger rivals" in _rival_point(at)
    assert "(#1 of 14)" in plain(at)


def test_removing_every_rival_leaves_no_win_rate():
    at = open_story_page(PAGE, query={"cohort": "paper"})
    open_section(at, "Field of rivals")
    at.selectbox(key="podium_ms_model").set_value("text-davinci-002").run()
    at.radio(key="podium_ms_which").set_value("weaker").run()
    assert "text-davinci-002 has no win rate at all" in plain(at)


def test_capabilities_says_its_mean_score_does_not_depend_on_the_field():
    at = open_story_page(PAGE, query={"release": "capabilities", "podium_section": "Field of rivals"})
    assert "by its Mean score, which does not depend on the field" in plain(at)
    assert "podium_rivals" in chart_keys(at)


# ----------------------------------------------------------------------------- odd datasets


def test_a_release_without_efficiency_says_what_is_missing():
    rel = without_efficiency(load_release())
    at = open_with(PAGE, {"recipe": "efficiency"}, session=loaded_session(rel))
    t = plain(at)
    assert f"recomputed from {NO_EFFICIENCY}'s results" in t or f"computed by this app from {NO_EFFICIENCY}" in t
    assert "No model in this cohort has a win rate for Efficiency" in t
    at.radio(key="missing").set_value("exclude").run()
    assert "every model drops out" in plain(at)


def test_a_one_model_release_says_a_ranking_needs_two():
    from dataclasses import replace

    from helm_core.data import select_models

    rel = select_models(load_release(), ["GPT-J (6B)"])
    rel = replace(rel, meta={**rel.meta, "kind": "upload", "release": "one-model-upload"})
    at = open_with(PAGE, session=loaded_session(rel))
    for label in SECTIONS:
        if label != SECTIONS[0]:
            open_section(at, label)
        assert any("needs at least two models" in str(w.value) for w in at.warning), label
        assert chart_keys(at) == [], label


def test_top_tables_and_the_full_ranking_behind_a_lazy_expander():
    at = open_story_page(PAGE, query={"cohort": "all"})
    helm, rec = [t for t in tables(at) if {"rank", "model"} <= set(t.columns)]
    assert list(helm.columns) == ["rank", "Mean win rate", "model"] and list(rec.columns) == ["rank", "score", "model"]
    assert len(helm) == len(rec) == 10
    assert helm["rank"].is_monotonic_increasing and rec["rank"].is_monotonic_increasing
    assert helm["Mean win rate"].is_monotonic_decreasing and rec["score"].is_monotonic_decreasing
    assert helm["model"].tolist() == published_order("classic")["model"].head(10).tolist()
    assert not [t for t in tables(at) if "note" in t.columns]  # closed: not built
    open_lazy(at, "Every model under")
    full = next(t for t in tables(at) if "note" in t.columns)
    assert len(full) == len(load_release().models)
    flagged = full[full["model"].str.endswith(" †")]
    assert len(flagged) and flagged["note"].str.startswith("no ").all()


# ----------------------------------------------------------------------------- views without widgets


@pytest.fixture
def bare_release():
    """The active release of a bare (no page run) session, as the handout and the speaker view set it: the slides'
    cached computations read it."""
    import streamlit as st

    yield st.session_state
    st.session_state["release"] = "classic"
    st.session_state["cohort"] = "paper"


def _ctx(release: str, cohort: str, state: dict, mode: str = "desktop"):
    import streamlit as st

    from ui import slides

    st.session_state["release"] = release
    st.session_state["cohort"] = cohort
    rel = load_bundled(release)
    return slides.Ctx(rel=rel, models=tuple(cohort_models(rel, cohort) or rel.model_names), mode=mode, state=state,
                      cohort=cohort)


def test_a_speaker_view_computes_the_presenters_podium_from_the_urls_strings(bare_release):
    """The speaker view relays the presenter's query (strings): the slide's view computes the same podium as the
    page with those widgets set."""
    from app_pages import podium

    with_strings = podium.podium_view(_ctx("classic", "all", {"recipe": "safety", "missing": "exclude", "n": "5"}))
    at = open_with(PAGE, {"cohort": "all", "recipe": "safety", "missing": "exclude", "n": "5"})
    from helm_core.escape import unmarkdown

    assert unmarkdown(with_strings.point) in plain(at)
    assert all(unmarkdown(x) in plain(at) for x in with_strings.talk)
    assert with_strings.visual.alt == chart_alt(at, "podium_slope")
    assert "Safety push" in with_strings.point or "Safety push" in with_strings.talk[1]


@pytest.mark.parametrize("slide", ["podium", "robustness", "paper", "rivals"])
@pytest.mark.parametrize("release,cohort", [("classic", "paper"), ("classic", "all"), ("lite", "all"),
                                            ("capabilities", "all")])
def test_every_slide_has_a_view_with_the_default_state(slide, release, cohort, bare_release):
    """The handout computes each slide with {}: a point and a visual (or, off the route, a reason)."""
    from app_pages import podium

    ctx = _ctx(release, cohort, {}, mode="handout")
    s = next(x for x in podium.DECK.slides_for(ctx) if x.id == slide)
    view = s.view(ctx)
    assert view.point and len(view.point.replace("\\", "").replace("**", "")) <= 160, view.point
    assert view.visual is not None or not s.on_route
    assert "inf" not in view.point.split() and " 1 models" not in view.point


@pytest.mark.parametrize("mode", ["presenter", "desktop", "phone"])
def test_the_slope_chart_is_planned_for_the_screen(mode, bare_release):
    """Presenter: at most the top 10 of either side and 18 rows; phone: one row per model, its name and both ranks
    above it; every mode: every endpoint named in full."""
    from app_pages import podium

    view = podium.podium_view(_ctx("classic", "all", {"n": "30"}, mode=mode))
    fig = view.visual.figure
    texts_ = [x for t in fig["data"] if t.get("mode") == "text" for x in t["text"]]
    assert texts_ and not any("…" in x for x in texts_)
    if mode == "phone":
        assert all(" → #" in x for x in texts_)
    elif mode == "presenter":
        assert len(texts_) <= 2 * podium.STAGE_ROWS
        assert any("top 10 of either side" in n for n in view.notes)
    else:
        assert len(texts_) > 2 * 30
