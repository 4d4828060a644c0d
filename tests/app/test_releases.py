"""AppTest: the Moving Targets page (HELM classic, Lite and Capabilities side by side). Its sentences are checked
against numbers recomputed from the tidy files in data/ with plain pandas (not helm_core), on every release the
sidebar offers, and the limits stepper's moving-targets step links to it."""
from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from .critique_helpers import open_at, page_links
from .helpers import false_products, open_section, open_story_page, section_labels, tables, texts
from helm_core import claims, critique
from ui import nav

PAGE = nav.spec_for("releases").file
DATA = Path(__file__).resolve().parents[2] / "data"
SECTIONS = ["Timeline", "Metric orbit", "Model turnover", "Saturation", "Same model"]


def _models(name: str) -> pd.DataFrame:
    return pd.read_csv(DATA / "models.csv" if name == "classic" else DATA / "releases" / name / "models.csv")


def _results(name: str) -> pd.DataFrame:
    return pd.read_csv(DATA / "results.csv" if name == "classic" else DATA / "releases" / name / "results.csv")


@pytest.mark.parametrize("release", ["classic", "lite", "capabilities"])
def test_every_section_runs_on_every_release(release):
    at = open_story_page(PAGE, query={"release": release})
    assert section_labels(at) == SECTIONS
    for label in SECTIONS:
        open_section(at, label)
        assert "This page compares the three bundled releases" in texts(at)


def test_timeline_counts_match_the_tidy_files():
    at = open_story_page(PAGE)
    t = texts(at)
    for name, label in (("classic", "HELM classic v0.4.0"), ("lite", "HELM Lite v1.13.0"),
                        ("capabilities", "HELM Capabilities v1.15.0")):
        res = _results(name)
        groups = {"accuracy", "calibration", "robustness", "fairness", "bias", "toxicity", "efficiency"} & set(
            res.loc[res["value"].notna(), "metric_group"])
        n_models, n_scen = _models(name)["model"].nunique(), res["scenario"].nunique()
        assert (f"**{label}**: {n_models:,} models, {n_scen} scenarios, {len(groups)} of the 7 classic metric "
                "groups measured") in t


def test_turnover_names_the_classic_models_still_on_lite():
    at = open_story_page(PAGE, query={"releases_section": "Model turnover"})
    classic, lite = _models("classic"), _models("lite")
    kept = classic.merge(lite, on="helm_id", suffixes=("_c", "_l"))
    assert f"**{len(kept)} of the {len(classic)} HELM classic v0.4.0 models are still on HELM Lite v1.13.0**" \
        in texts(at)
    table = next(d for d in tables(at) if "HELM id" in d.columns)
    assert sorted(table["HELM id"]) == sorted(kept["helm_id"])
    assert dict(zip(table["HELM id"], table["name in HELM Lite v1.13.0"])) == dict(zip(kept["helm_id"],
                                                                                     kept["model_l"]))


SHARED = ["MMLU", "NarrativeQA", "NaturalQuestions (closed-book)", "NaturalQuestions (open-book)", "OpenbookQA"]


def _best(scenario: str) -> dict[str, float]:
    """The best accuracy value on `scenario` in classic and in Lite, cells flagged ☠ left out."""
    best = {}
    for name in ("classic", "lite"):
        r = _results(name)
        r = r[(r["metric_group"] == "accuracy") & (r["scenario"] == scenario)
              & ~r["note"].fillna("").str.startswith("☠")]
        best[name] = r["value"].max()
    return best


def test_saturation_best_scores_match_the_tidy_files():
    at = open_story_page(PAGE, query={"releases_section": "Saturation"})
    t = texts(at)
    for s in SHARED:
        best = _best(s)
        assert (f"**{s}**: best {best['classic']:.3f} in classic, {best['lite']:.3f} in Lite "
                f"({best['lite'] - best['classic']:+.3f})") in t
    assert "HELM Capabilities v1.15.0 shares no scenario name with either" in t


def test_same_model_section_shows_the_caveat_and_the_pairs():
    at = open_story_page(PAGE, query={"releases_section": "Same model"})
    t = texts(at)
    assert claims.load_claims()["releases_not_same_measurement"].statement in t
    c = _results("classic").merge(_models("classic")[["model", "helm_id"]], on="model")
    lt = _results("lite").merge(_models("lite")[["model", "helm_id"]], on="model")
    pairs = c[c["metric_group"] == "accuracy"].merge(lt[lt["metric_group"] == "accuracy"], on=["helm_id", "scenario"])
    pairs = pairs.dropna(subset=["value_x", "value_y"])
    n_models, n_scenarios = pairs["helm_id"].nunique(), pairs["scenario"].nunique()
    assert f"**{len(pairs)} of the {n_models * n_scenarios} model–scenario pairs have a value in both**" in t
    assert len(pairs) < n_models * n_scenarios  # not every model has a value on every shared scenario
    assert not false_products(t), false_products(t)
    assert f"The median absolute difference is **{(pairs['value_y'] - pairs['value_x']).abs().median():.3f}**" in t


def test_timeline_point_and_labels():
    """The point runs from the first release to the last; each bar's label keeps a space at its line break (it
    read "HELM classic v0.4.0newest model …" to a screen reader and to the text checks)."""
    import json

    at = open_story_page(PAGE)
    first, last = _models("classic"), _models("capabilities")
    n_first, n_last = _results("classic")["scenario"].nunique(), _results("capabilities")["scenario"].nunique()
    assert (f"From HELM classic v0.4.0 to HELM Capabilities v1.15.0: {len(first)} → {len(last)} models, {n_first} → "
            f"{n_last} scenarios") in texts(at)
    spec = json.loads(at.get("plotly_chart")[0].proto.spec)
    labels = spec["data"][0]["y"]
    assert all(" <br>newest model 20" in y for y in labels), labels
    assert [t["marker"]["color"] for t in spec["data"]][0] == ["#B26B00", "#999933", "#CC79A7"]  # palette.RELEASE


def test_saturation_point_counts_the_rises():
    at = open_story_page(PAGE, query={"releases_section": "Saturation"})
    rises = {s: _best(s)["lite"] - _best(s)["classic"] for s in SHARED}
    top = max(rises, key=rises.get)
    up = sum(v > 0 for v in rises.values())
    higher = f"on all {len(rises)}" if up == len(rises) else f"on {up} of the {len(rises)}"
    assert (f"Lite's best score is higher {higher}; the largest rise is {top} ({rises[top]:+.3f})") in texts(at)


@pytest.mark.parametrize("label,visual", [("Timeline", "releases_timeline"), ("Metric orbit", "releases_orbit"),
                                          ("Saturation", "releases_saturation"), ("Same model", "releases_same_model")])
def test_each_slide_draws_its_chart(label, visual):
    from .helpers import chart_keys

    at = open_story_page(PAGE, query={"releases_section": label})
    assert chart_keys(at) == [visual]


def test_turnover_slide_is_a_table_of_every_pair():
    at = open_story_page(PAGE, query={"releases_section": "Model turnover"})
    table = tables(at)[0]
    assert list(table["from → to"]) == ["HELM classic v0.4.0 → HELM Lite v1.13.0",
                                         "HELM Lite v1.13.0 → HELM Capabilities v1.15.0",
                                         "HELM classic v0.4.0 → HELM Capabilities v1.15.0"]
    assert (table["in both"] + table["dropped"] == table["models before"]).all()
    assert (table["in both"] + table["new"] == table["models after"]).all()


def test_the_limits_moving_target_step_links_here():
    steps = critique.load_steps()
    k = next(i for i, s in enumerate(steps, start=1) if s.id == "moving")
    at = open_at(nav.spec_for("limits").file, {"step": str(k)})
    assert any(page == "releases" for _, page, _ in page_links(at))


def test_sidebar_release_labels_are_the_loaded_names():
    from helm_core.data import load_bundled
    from ui import cache

    assert {k: load_bundled(k).name for k in cache.RELEASES} == cache.RELEASES


@pytest.mark.parametrize("bad", ["mmlu", "Lite", "../data", ""])
def test_a_bad_release_in_the_link_falls_back_to_classic_with_a_notice(bad):
    from .helpers import open_page

    at = open_page(nav.spec_for("grid").file, query={"release": bad})
    assert "Data: HELM classic v0.4.0" in texts(at)
    assert any("release" in str(t.value) for t in at.toast)


@pytest.mark.parametrize("release", ["lite", "capabilities"])
def test_the_cohort_does_not_filter_a_later_release(release):
    from .helpers import open_page

    at = open_page(None, query={"release": release, "cohort": "paper"})
    assert at.radio(key="cohort").disabled
    n = len(pd.read_csv(DATA / "releases" / release / "models.csv"))
    assert f"{n} models selected" in texts(at)
    assert "The cohort applies to HELM classic only" in texts(at)


@pytest.mark.parametrize("release,name", [("lite", "HELM Lite v1.13.0"), ("capabilities", "HELM Capabilities v1.15.0")])
@pytest.mark.parametrize("path,lacks", [("calibration", "calibration"), ("metrics", "calibration, robustness, "
                                        "fairness, bias, toxicity"), ("cost", "toxicity"), ("grid", None)])
def test_views_a_later_release_cannot_fill_say_so_and_link_to_classic(release, name, path, lacks):
    from .helpers import open_page

    at = open_page(nav.spec_for(path).file, query={"release": release})
    if lacks:
        said = next((line for line in texts(at).split("\n") if f"**{name} has no " in line), "")
        assert said and all(g in said for g in lacks.split(", ")), said
    links = [(p.proto.page, p.proto.query_string) for p in at.get("page_link") if "HELM classic" in p.proto.label]
    assert links == [(path, "release=classic")]
    # ... and on classic, no such notice or link
    at = open_page(nav.spec_for(path).file, query={"release": "classic"})
    assert "HELM classic v0.4.0 has no " not in texts(at)
    assert not [p for p in at.get("page_link") if "on HELM classic" in p.proto.label or "for HELM classic" in p.proto.label]
