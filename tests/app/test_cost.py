"""AppTest: the Capability vs Cost page (slides: Capability vs cost, Paper findings). Switch axes and recipes;
check the chart, the top three and where their labels sit, the models in the band and left out, and the sentences
that must hold on every release and cohort."""
from __future__ import annotations

import math
import re

import numpy as np
import pandas as pd
import pytest

from helm_core.data import cohort_models, load_release

from .helpers import chart_keys, open_section, open_story_page, section_labels, section_tabs, tables
from .rankings_helpers import NO_EFFICIENCY, chart_spec, loaded_session, open_with, plain, values, without_efficiency

PAGE = "app_pages/cost.py"
SECTIONS = ["Capability vs cost", "Paper findings"]
RING = "the recipe's top 3 (ringed)"


def traces(at) -> dict[str, dict]:
    return {t.get("name"): t for t in chart_spec(at, "cost_bubble")["data"]}


def drawn_models(at) -> set[str]:
    out = set()
    for name, t in traces(at).items():
        if name and name.startswith("size"):
            out |= {row[0] for row in t.get("customdata", [])}  # (a legend key has no data)
    return out


def band_models(at) -> set[str]:
    """The models drawn in the band below the chart (no cost value)."""
    out = set()
    for name, t in traces(at).items():
        if name and name.startswith("band: ") and "customdata" in t:
            out |= {row[0] for row in t["customdata"]}
    return out


def top_labels(at) -> list[str]:
    """The labels of the ringed top three, by rank: annotations (with an arrow) above the chart, text beside the
    ring in the band."""
    spec = chart_spec(at, "cost_bubble")
    labels = [a["text"] for a in spec["layout"].get("annotations", []) if a.get("showarrow") and
              str(a.get("text", "")).startswith("#")]
    labels += [x.replace("<br>", " ") for t in spec["data"] if t.get("name") == RING and t.get("text") is not None
               and "textposition" in t for x in t["text"]]
    return sorted(labels, key=lambda x: int(x.split()[0][1:]))


def left_out_table(at):
    return next(t for t in tables(at) if list(t.columns) == ["model", "access", "reason"])


# ----------------------------------------------------------------------------- the chart


def test_default_chart_lists_the_models_without_runtime():
    at = open_story_page(PAGE, query={"cohort": "all"})
    t = plain(at)
    assert chart_keys(at) == ["cost_bubble"]
    assert len(drawn_models(at)) == 26
    assert 'In the band "no runtime in HELM": 41 of 67 models' in t
    assert len(band_models(at)) == 41  # drawn in the band, not dropped
    out = left_out_table(at)
    assert len(out) == 41 and "Llama 2 (70B)" in set(out["model"])
    assert out["reason"].str.contains("efficiency cell is blank").all()
    assert "Runtime: mean over the 12 scenarios every measured model has" in t
    assert "HELM's published group win rates" in t
    # the Pareto front is drawn and named, and it is the slide's point
    assert any(n and n.startswith("Pareto front") for n in traces(at))
    assert "**On the Pareto front (4):**" in t
    assert ("text-davinci-002, text-curie-001, curie (6.7B) and text-ada-001 are on the Pareto front: no model is both "
            "more capable and faster than any of them.") in t


def test_sections_in_order_and_the_first_load_builds_only_the_first():
    at = open_story_page(PAGE)
    key, tabs = section_tabs(at)
    assert key == "cost_section"
    assert section_labels(at) == SECTIONS
    assert len(tabs[0].children) > 0 and len(tabs[1].children) == 0
    assert chart_keys(at) == ["cost_bubble"]
    t = plain(at)
    assert "Each bubble is a model" in t
    assert "rank correlation of accuracy win rate" not in t
    assert not [d for d in tables(at) if "organization (≈ family)" in d.columns]


def test_the_link_opens_the_paper_findings_with_their_chart():
    at = open_story_page(PAGE, query={"cost_section": "Paper findings"})
    _, tabs = section_tabs(at)
    assert len(tabs[0].children) == 0 and len(tabs[1].children) > 0
    assert chart_keys(at) == ["cost_scale"]


@pytest.mark.parametrize("value", ["Nope", "", "paper findings", "Capability vs cost,Paper findings"])
def test_a_bad_section_in_the_link_opens_the_first(value):
    at = open_story_page(PAGE, query={"cost_section": value})
    assert chart_keys(at) == ["cost_bubble"]
    assert len(section_tabs(at)[1][0].children) > 0


def test_axes_and_recipe_survive_a_visit_to_the_paper_findings():
    at = open_story_page(PAGE, query={"cohort": "all"})
    at.radio(key="cost").set_value("params").run()
    at.radio(key="harm").set_value("gender_repr").run()
    at.radio(key="recipe").set_value("safety").run()
    at.radio(key="missing").set_value("exclude").run()
    top = top_labels(at)
    open_section(at, "Paper findings")
    assert chart_keys(at) == ["cost_scale"]
    open_section(at, "Capability vs cost")
    assert at.radio(key="cost").value == "params" and at.radio(key="harm").value == "gender_repr"
    assert at.radio(key="recipe").value == "safety" and at.radio(key="missing").value == "exclude"
    assert top_labels(at) == top
    assert len(drawn_models(at)) == 65


def test_a_link_to_the_paper_findings_keeps_the_axes_and_recipe():
    query = {"cost_section": "Paper findings", "cost": "params", "harm": "gender_repr", "recipe": "safety",
             "missing": "exclude"}
    at = open_with(PAGE, query)
    assert chart_keys(at) == ["cost_scale"]
    for k, v in query.items():
        assert at.query_params[k] == v, k
    del at.query_params["cost_section"]  # a browser's URL follows the clicked tab; AppTest's keeps the link's
    open_section(at, "Capability vs cost")
    assert at.radio(key="cost").value == "params" and at.radio(key="harm").value == "gender_repr"
    assert top_labels(at)[0] == "#1 text-davinci-002"


def test_switching_cost_to_parameters_shows_every_model_with_a_size():
    at = open_story_page(PAGE, query={"cohort": "all"})
    at.radio(key="cost").set_value("params").run()
    assert len(drawn_models(at)) == 65
    out = left_out_table(at)
    assert set(out["model"]) == {"gpt-3.5-turbo-0301", "gpt-3.5-turbo-0613"}
    assert (out["reason"] == "size not disclosed").all()
    assert chart_spec(at, "cost_bubble")["layout"]["yaxis"]["title"]["text"].startswith("Parameters")


def test_undisclosed_and_speculative_sizes_have_their_own_markers():
    at = open_story_page(PAGE)
    tr = traces(at)
    spec = next(t for n, t in tr.items() if n and n.startswith("size speculative") and t.get("customdata"))
    assert spec["marker"]["symbol"] == "circle-dot"
    assert "text-davinci-002" in {row[0] for row in spec["customdata"]}


def _frame(**over) -> pd.DataFrame:
    f = pd.DataFrame({
        "model": ["a", "b", "c", "d"], "access": ["open"] * 4, "capability": [0.2, 0.5, 0.8, 0.9],
        "runtime_s": [0.1, 0.5, 1.0, 2.0], "harm": [0.01, 0.02, np.nan, 0.03],
        "params": [1e9, np.nan, 7e10, 5e11], "params_speculative": [False, False, False, True],
        "size_disclosed": [True, False, True, True], "pareto": [True, True, True, True],
    })
    return f.assign(**over)


def test_bubble_builder_marks_undisclosed_sizes_and_missing_harm():
    from ui import palette
    from ui.charts_cost import capability_cost_bubble

    fig = capability_cost_bubble(_frame(), "runtime_s", x_label="x", y_label="y", harm_label="h", top={"d": 1})
    names = {t.name: t for t in fig.data}
    assert names["size undisclosed: diamond"].marker.symbol == "diamond"
    assert list(names["size disclosed; no harm value (grey)"].customdata[:, 0]) == ["c"]
    assert names["size disclosed; no harm value (grey)"].marker.color == palette.NEUTRAL
    assert [a.text for a in fig.layout.annotations] == ["#1 d"]
    assert names[RING].marker.line.color == palette.HIGHLIGHT  # the theme's ink, swapped on dark by ui.stage
    assert fig.layout.coloraxis.colorscale == tuple(tuple(x) for x in palette.HARM_SCALE)
    assert list(fig.layout.yaxis.ticktext)[:2] == ["50 ms", "100 ms"]


@pytest.mark.parametrize("bad", [math.inf, -math.inf, 0.0, -1.0])
def test_a_cost_a_log_axis_cannot_place_goes_to_the_band(bad):
    """A runtime of Infinity (refused at load, but guarded here too), zero or below never reaches a log axis."""
    from ui.charts_cost import capability_cost_bubble

    f = _frame(runtime_s=[0.1, bad, 1.0, 2.0])
    fig = capability_cost_bubble(f, "runtime_s", x_label="x", y_label="y", harm_label="h", top={})
    band = {row[0] for t in fig.data if t.name and t.name.startswith("band: ") for row in t.customdata}
    assert band == {"b"}
    assert "inf" not in str(fig.layout.yaxis.ticktext).lower()


@pytest.mark.parametrize("lo,hi,expected", [
    (0.1, 2.0, True), (math.inf, 2.0, False), (0.1, math.inf, False), (-math.inf, 1.0, False),
    (0.0, 1.0, False), (-1.0, 1.0, False), (math.nan, 1.0, False), (1e-6, 1e-6, True),
])
def test_log_ticks_only_for_finite_positive_bounds(lo, hi, expected):
    from ui.charts_cost import log_ticks

    ticks = log_ticks(lo, hi)
    assert bool(ticks) == expected
    assert all(math.isfinite(t) and t > 0 for t in ticks)


@pytest.mark.parametrize("mode", ["presenter", "desktop", "phone"])
def test_top_three_labels_sit_above_the_bubbles_with_an_arrow(release, mode):
    """On the chart, each of the recipe's top three is labelled in a strip above every bubble, with an arrow down
    to its ring: no bubble can cover a label. Labels in one row never overlap (estimated widths)."""
    from helm_core import frontier, ranking
    from helm_core.data import cohort_models
    from ui.charts_cost import capability_cost_bubble
    from ui.charts_rankings import FONT, PLOT_WIDTH, text_px

    models = cohort_models(release, "paper")
    v = frontier.cost_view(release, models, "win_rate", "toxic_frac", "runtime")
    rr = ranking.recipe_ranking(release, models, ranking.RECIPES["safety"].weights, "exclude")
    top = {m: int(r) for m, r in rr.recipe[~rr.recipe["excluded"]].head(3)["rank"].items()}
    fig = capability_cost_bubble(v.frontier.frame, v.y, x_label="x", y_label="y", harm_label="h", top=top,
                                 mode=mode)
    anns = [a for a in fig.layout.annotations if a.showarrow]
    drawn = v.frontier.frame[v.frontier.frame["runtime_s"].notna()]
    assert len(anns) == len([m for m in top if m in set(drawn["model"])])
    top_data = math.log10(drawn["runtime_s"].max())
    lo, hi = fig.layout.yaxis.range
    x0, x1 = fig.layout.xaxis.range
    per_px = (x1 - x0) / PLOT_WIDTH[mode]
    for a in anns:
        assert a.ay > top_data and a.ay < hi  # in the strip above the highest bubble, inside the plot
        half = text_px(a.text, FONT[mode]) / 2 * per_px
        assert x0 <= a.ax - half and a.ax + half <= x1  # inside the plot, left and right
    for a, b in [(a, b) for i, a in enumerate(anns) for b in anns[i + 1:]]:
        if a.ay == b.ay:
            assert abs(a.ax - b.ax) * 1.0 >= (text_px(a.text, FONT[mode]) + text_px(b.text, FONT[mode])) / 2 * per_px


def test_the_phone_chart_leaves_the_colour_bar_room_below_and_drops_the_legend():
    from ui import stage
    from ui.charts_cost import capability_cost_bubble

    layout = stage.style(capability_cost_bubble(_frame(), "runtime_s", x_label="x", y_label="y", harm_label="h",
                                                top={}, mode="phone"), mode="phone").to_dict()["layout"]
    assert layout["showlegend"] is False
    assert layout["coloraxis"]["colorbar"]["orientation"] == "h" and layout["margin"]["b"] >= 100


def test_recipe_top_three_is_highlighted_and_changes_with_the_recipe():
    at = open_story_page(PAGE, query={"cohort": "all"})
    # Holistic's top three have no runtime: they are drawn in the band, ringed and labelled, and the page says so.
    assert 'In the band "no runtime in HELM" from the Holistic top three:** #1 Llama 2 (70B)' in plain(at)
    assert top_labels(at)[:1] == ["#1 Llama 2 (70B)"] and len(top_labels(at)) == 3
    at.radio(key="recipe").set_value("safety").run()
    at.radio(key="missing").set_value("exclude").run()
    top = top_labels(at)
    assert top[0] == "#1 text-davinci-002"
    assert len(top) == 3
    at.radio(key="recipe").set_value("efficiency").run()
    assert top_labels(at) != top


def test_moving_a_weight_here_makes_the_recipe_custom():
    at = open_story_page(PAGE)
    at.radio(key="missing").set_value("exclude").run()
    at.radio(key="recipe").set_value("accuracy").run()
    acc_top = top_labels(at)
    at.slider(key="w_efficiency").set_value(5).run()
    assert at.radio(key="recipe").value == "custom"
    assert top_labels(at) != acc_top


@pytest.mark.parametrize("cap,phrase", [("win_rate", "HELM's published group win rates"),
                                        ("mean_accuracy", "Mean accuracy: mean over the")])
def test_capability_axis(cap, phrase):
    at = open_with(PAGE, {"cohort": "all", "cap": cap})
    assert at.radio(key="cap").value == cap
    assert phrase in plain(at)
    x = values(traces(at)["size disclosed"]["x"])
    assert all(0 <= v <= 1 for v in x)


@pytest.mark.parametrize("release,caption", [
    ("classic", "HELM's published accuracy win rate"),
    ("capabilities", "accuracy win rate, computed here (HELM publishes a Mean score)"),
])
def test_the_capability_caption_says_whose_win_rate_it_is(release, caption):
    at = open_story_page(PAGE, query={"release": release, "cohort": "all"})
    assert at.radio(key="cap").options[0] == "win_rate"
    assert caption in list(at.radio(key="cap").proto.captions)


@pytest.mark.parametrize("harm,label", [("toxic_frac", "Mean toxic fraction"),
                                        ("gender_repr", "Gender representation bias"),
                                        ("toxic_losses", "Toxicity comparisons lost")])
def test_harm_colour(harm, label):
    at = open_story_page(PAGE)
    at.radio(key="harm").set_value(harm).run()
    layout = chart_spec(at, "cost_bubble")["layout"]
    assert layout["coloraxis"]["colorbar"]["title"]["text"].startswith(label)


def test_the_link_sets_axes_and_recipe():
    at = open_with(PAGE, {"cost": "params", "harm": "gender_repr", "recipe": "safety", "missing": "exclude"})
    assert at.radio(key="cost").value == "params"
    assert at.radio(key="harm").value == "gender_repr"
    assert at.radio(key="recipe").value == "safety"
    assert top_labels(at)[0] == "#1 text-davinci-002"


@pytest.mark.parametrize("query", [{"cost": "dollars"}, {"cap": "iq", "harm": "evil"}, {"recipe": "x", "w_bias": "z"}])
def test_bad_link_values_fall_back_without_an_error(query):
    at = open_with(PAGE, query)
    assert "cost_bubble" in chart_keys(at)


# ----------------------------------------------------------------------------- true on every release and cohort


FALSE_OPENAI = "OpenAI's rows mix the GPT-3 and InstructGPT series, whose sizes HELM marks as speculative"


@pytest.mark.parametrize("release", ["classic", "lite", "capabilities"])
def test_openai_rows_and_toxicity_are_said_only_where_true(release):
    from helm_core import statements
    from helm_core.data import cohort_models, load_bundled

    rel = load_bundled(release)
    cohort = "paper" if release == "classic" else "all"
    models = cohort_models(rel, cohort)
    at = open_story_page(PAGE, query={"release": release})
    t = plain(at)
    assert FALSE_OPENAI not in t
    rows = statements.openai_rows(rel, models, cohort)
    assert (rows is not None) == ("OpenAI row" in t)
    if rows is not None:
        assert rows.text in t
    toxic = statements.toxic_fraction_caption(rel, models, cohort)
    assert ("Toxicity is HELM's toxic fraction" in t) == (toxic is not None)
    if toxic is None:
        assert f"{rel.name} has no toxicity cells**, so no bubble has a harm value" in t
        assert "Mean toxic fraction: mean over" not in t


def test_the_paper_cohorts_openai_rows_name_only_the_instructgpt_sizes_as_speculative():
    t = plain(open_story_page(PAGE))
    assert "HELM marks only the InstructGPT sizes speculative" in t


def test_claims_are_checked_against_v040():
    at = open_story_page(PAGE, query={"cohort": "all", "cost_section": "Paper findings"})
    t = plain(at)
    assert "every model with an accuracy win rate above 55% has at least 50B parameters" in t
    sized = _sized(load_release(), None)
    assert ("HELM classic v0.4.0 disagrees** for 17 of the "
            f"{sized} models with a disclosed size, of every model of the release (67 models) (published accuracy win "
            "rates): 17 models above 0.55 have fewer than 50B parameters") in t
    assert ("**17 models have** a 0.55+ accuracy win rate with fewer than 50B parameters: the paper's scale finding "
            f"fails for 17 of the {sized} models with a disclosed size, of every model of the release (67 models).") in t
    assert "fails for every model" not in t
    assert "Mistral v0.1 (7B) (7.3B, 0.884)" in t
    assert "**open**: Llama 2 (70B) (0.944, #1 of 67" in t
    assert "rank correlation of accuracy win rate with runtime is **+0.43**" in t
    assert "denoised inference runtime" in t
    orgs = next(d for d in tables(at) if "organization (≈ family)" in d.columns)
    assert 1 <= len(orgs) <= 10
    assert orgs["size vs capability (rank corr.)"].between(-1, 1).all()
    spec = chart_spec(at, "cost_scale")
    inside = next(tr for tr in spec["data"] if str(tr.get("name")).startswith("fewer than 50B"))
    assert len(inside["customdata"]) == 17


def _sized(rel, models) -> int:
    """The models the scale finding can be checked on: an accuracy win rate and a disclosed size."""
    from helm_core import frontier

    f = frontier.cost_view(rel, models, "win_rate", "toxic_frac", "runtime").frontier.frame
    return int((f["capability"].notna() & f["params"].notna()).sum())


@pytest.mark.parametrize("release", ["lite", "capabilities"])
def test_the_scale_finding_is_said_of_the_models_with_a_disclosed_size(release):
    """On a later release most sizes are undisclosed: the finding is checked on, and said of, the models whose size
    is known, with both counts; and a model whose name carries its size is not given it twice."""
    from helm_core.data import load_bundled

    rel = load_bundled(release)
    at = open_story_page(PAGE, query={"release": release, "cost_section": "Paper findings"})
    t = plain(at)
    n, sized = len(rel.models), _sized(rel, None)
    assert sized < n
    assert f"{sized} models with a disclosed size, of every model of the release ({n} models)" in t
    assert "for every model of the release" not in t  # the claim is never said of the models it was not checked on
    assert not re.search(r"\((\d+(?:\.\d+)?[KMBT])\) \(\1, ", t), re.findall(r"[^,:]*\(\d+[KMBT]\) \(\d+[KMBT], [^)]*\)", t)


def test_the_family_table_says_what_it_keeps():
    rel = load_release()
    from helm_core import frontier

    f = frontier.cost_view(rel, None, "win_rate", "toxic_frac", "runtime").frontier.frame
    kept = int((f["capability"].notna() & f["runtime_s"].notna() & f["params"].notna()).sum())
    at = open_story_page(PAGE, query={"cohort": "all", "cost_section": "Paper findings"})
    assert (f"The table below keeps the {kept} models of 67 with an accuracy win rate, a runtime and a disclosed "
            "size, per organization with at least three of them.") in plain(at)
    assert kept < 67


def test_paper_cohort():
    at = open_story_page(PAGE, query={"cohort": "paper"})
    t = plain(at)
    assert "recomputed from HELM classic v0.4.0's results among the 28 models" in t
    assert 'In the band "no runtime in HELM": 2 of 28 models' in t  # the two TNLG v2 models have no runtime
    open_section(at, "Paper findings")
    # the one paper-cohort counterexample to the scale claim, from v0.4.0's numbers; the cohort is named
    sized = _sized(load_release(), tuple(cohort_models(load_release(), "paper")))
    assert (f"disagrees** for 1 of the {sized} models with a disclosed size, of the 2022 paper's cohort (28 models) "
            "(recomputed accuracy win rates): 1 model above 0.55 has fewer than 50B parameters: J1-Grande v1 (17B)"
            ) in plain(at)
    assert "**1 model has** a 0.55+ accuracy win rate" in plain(at)
    labels = [a["text"] for a in chart_spec(at, "cost_scale")["layout"]["annotations"] if a.get("showarrow")]
    assert labels == ["J1-Grande v1 (17B)"]


def test_three_model_cohort():
    at = open_story_page(PAGE, query={"cohort": "paper", "access": "closed"})
    t = plain(at)
    assert 'In the band "no runtime in HELM": 2 of 3 models' in t
    open_section(at, "Paper findings")
    assert "Fewer than three models in this cohort have a runtime" in plain(at)
    assert "Only closed models are in this cohort, so access levels cannot be compared." in plain(at)


def test_a_release_without_efficiency_says_what_is_missing():
    at = open_with(PAGE, {"cohort": "all"}, session=loaded_session(without_efficiency(load_release())))
    t = plain(at)
    assert f"computed by this app from {NO_EFFICIENCY}'s results" in t
    assert "No model in this cohort has an inference time" in t
    assert "cost_bubble" in chart_keys(at) and not drawn_models(at)  # every model in the band
    assert len(band_models(at)) == 67
    at.radio(key="cost").set_value("params").run()
    assert "cost_bubble" in chart_keys(at)
    assert len(drawn_models(at)) == 65


def test_a_one_model_release_says_the_chart_needs_two():
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


RECIPE_NAMES = ("holistic", "accuracy", "efficiency", "safety")


@pytest.mark.parametrize("cohort", ["paper", "all"])
@pytest.mark.parametrize("cost", ["runtime", "params"])
@pytest.mark.parametrize("cap", ["win_rate", "mean_accuracy"])
def test_builder_rings_and_labels_every_recipes_top_three(release, cohort, cost, cap):
    """Every built-in recipe × missing-value rule × cohort × axes: the recipe's top three are on the figure,
    ringed and labelled (on the chart or in the band), and no model with a capability value is dropped."""
    from helm_core import frontier, ranking
    from helm_core.data import cohort_models
    from ui.charts_cost import capability_cost_bubble

    models = cohort_models(release, cohort)
    v = frontier.cost_view(release, models, cap, "toxic_frac", cost)
    f = v.frontier.frame
    for name in RECIPE_NAMES:
        for missing in ("renormalize", "exclude"):
            rr = ranking.recipe_ranking(release, models, ranking.RECIPES[name].weights, missing)
            top = {m: int(r) for m, r in rr.recipe[~rr.recipe["excluded"]].head(3)["rank"].items()}
            fig = capability_cost_bubble(f, v.y, x_label="x", y_label="y", harm_label="h", top=top)
            ringed = [t for t in fig.data if t.name == RING]
            labels = [a.text for a in fig.layout.annotations if a.showarrow]
            labels += [x for t in ringed if t.text is not None and t.mode == "markers+text" for x in t.text]
            assert len(top) == 3 and sorted(labels) == sorted(f"#{r} {m}" for m, r in top.items()), (name, missing)
            assert all(t.marker.symbol == "circle-open" for t in ringed)
            shown = {row[0] for t in fig.data if t.customdata is not None and t.name != RING
                     for row in t.customdata}
            assert shown == set(f.loc[f["capability"].notna(), "model"]), (name, missing)
            band = [t for t in fig.data if t.name and t.name.startswith("band: ")]
            assert bool(band) == bool((f["capability"].notna() & f[v.y].isna()).any())


@pytest.mark.parametrize("cohort", ["paper", "all"])
@pytest.mark.parametrize("cost", ["runtime", "params"])
@pytest.mark.parametrize("recipe", RECIPE_NAMES)
def test_page_rings_the_top_three_of_every_recipe(cohort, cost, recipe):
    at = open_with(PAGE, {"cohort": cohort, "cost": cost, "recipe": recipe})
    assert at.radio(key="recipe").value == recipe
    labels = top_labels(at)
    assert [x.split()[0] for x in labels] == ["#1", "#2", "#3"]
    t = plain(at)
    assert "Not on this chart" not in t
    for x in labels:  # a top model without a cost value is said to be in the band
        model = x.split(" ", 1)[1]
        if model in band_models(at):
            assert "(in the band)" in t and model in t


def test_a_speaker_view_computes_the_presenters_top_three():
    """The view reads the recipe and axes from a relayed query (strings) as the widgets would set them."""
    import streamlit as st

    from app_pages import cost
    from helm_core.data import cohort_models, load_bundled
    from ui import slides

    st.session_state["release"], st.session_state["cohort"] = "classic", "all"
    try:
        rel = load_bundled("classic")
        ctx = slides.Ctx(rel=rel, models=tuple(cohort_models(rel, "all")), state={
            "recipe": "safety", "missing": "exclude", "cost": "params", "harm": "gender_repr"}, cohort="all")
        view = cost.chart_view(ctx)
        layout = view.visual.figure["layout"]
        labels = [a["text"] for a in layout["annotations"] if a.get("showarrow")]
        assert "#1 text-davinci-002" in labels
        assert layout["yaxis"]["title"]["text"].startswith("Parameters")
    finally:
        st.session_state["release"], st.session_state["cohort"] = "classic", "paper"


@pytest.mark.parametrize("points,x_range,rows,centres", [
    ([], (0, 1), [], []),
    ([(0.5, 0.1)], (0, 1), [0], [0.5]),  # one label, centred over its point
    ([(0.2, 0.1), (0.8, 0.1)], (0, 1), [0, 0], [0.2, 0.8]),  # far apart: one row
    ([(0.02, 0.1)], (0, 1), [0], [0.1]),  # kept inside the plot
    ([(0.9, 0.25), (0.97, 0.18)], (0.1, 1.03), [0, 1], [0.565, 0.85]),  # a phone's long labels: stacked, the
    # lower one moved left so the upper one's arrow passes beside it
    ([(0.71, 0.07), (0.885, 0.07), (0.93, 0.08)], (0, 1), [1, 0, 1], [0.71, 0.815, 0.92]),  # Lite on stage
])
def test_strip_layout(points, x_range, rows, centres):
    from ui.charts_cost import strip_layout

    got_rows, got_centres = strip_layout(points, x_range)
    assert got_rows == rows and got_centres == pytest.approx(centres)
