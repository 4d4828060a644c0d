"""A user's own HELM suite (tests/fixtures/helm_output_0516: crfm-helm 0.5.16 layout, 2 models, 4 scenarios of its
own, none of classic's core ones) on the Rankings and Reliability pages and the limits stepper: every section and
step is opened, and the sentences the issue found false for such a suite must not appear, while the counts and
values shown must agree with the suite's own files.

Expected values are read here from the fixture's files (groups/core_scenarios.json, schema.json, each run's
run_spec.json and stats.json), not from the app's importer, so a wrong import fails these tests too."""
from __future__ import annotations

import json
import math
import re
from functools import lru_cache
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from helm_core import critique, fmt, ranking, stability
from helm_core.escape import unmarkdown
from ui import nav

from .helpers import ROOT, assert_clean, open_chart_data, open_section, open_story_page, section_labels, tables, texts
from .rankings_helpers import chart_spec, values

SUITE = ROOT / "tests" / "fixtures" / "helm_output_0516" / "runs" / "my-suite"


@pytest.fixture(autouse=True)
def own_suite(monkeypatch):
    """The app started on the suite (`--helm-output`, here HELM_OUTPUT): it is the dataset every page shows."""
    monkeypatch.setenv("HELM_OUTPUT", str(SUITE))


# ----------------------------------------------------------------------------- the suite's files, read directly


def _json(rel: str):
    return json.loads((SUITE / rel).read_text(encoding="utf-8"))


@lru_cache(maxsize=None)
def leaderboard() -> dict[str, pd.DataFrame]:
    """groups/core_scenarios.json as {table title: models × columns}, NaN where a cell has no `value` key;
    each frame's attrs hold the columns' metric names and directions (lower_is_better, None when absent)."""
    out = {}
    for t in _json("groups/core_scenarios.json"):
        heads = t["header"]
        cols = [h["value"] for h in heads[1:]]
        rows = {r[0]["value"]: [c.get("value", np.nan) for c in r[1:]] for r in t["rows"]}
        df = pd.DataFrame.from_dict(rows, orient="index", columns=cols).astype(float)
        df.attrs["metric"] = {h["value"]: h.get("metadata", {}).get("metric") for h in heads[1:]}
        df.attrs["lower_is_better"] = {h["value"]: h.get("lower_is_better") for h in heads[1:]}
        out[t["title"]] = df
    return out


def metric_columns(title: str) -> pd.DataFrame:
    """A table's scenario columns (not HELM's 'Mean win rate')."""
    t = leaderboard()[title]
    keep = [c for c in t.columns if t.attrs["metric"].get(c)]
    out = t[keep]
    out.attrs = t.attrs
    return out


def group_win_rate_counts() -> pd.Series:
    """Per model: how many metric groups it can have a win rate in, by HELM's rule: a column with a direction and
    at least two models with a value."""
    counts = {}
    for title, t in leaderboard().items():
        cols = metric_columns(title)
        ok = [c for c in cols.columns if t.attrs["lower_is_better"].get(c) is not None and cols[c].notna().sum() >= 2]
        for m in t.index:
            counts[m] = counts.get(m, 0) + int(any(not math.isnan(cols.loc[m, c]) for c in ok))
    return pd.Series(counts)


def group_titles_with_win_rates() -> list[str]:
    counts = {}
    for title, t in leaderboard().items():
        cols = metric_columns(title)
        ok = [c for c in cols.columns if t.attrs["lower_is_better"].get(c) is not None and cols[c].notna().sum() >= 2]
        if ok:
            counts[title] = True
    return list(counts)


def efficiency_metric() -> str:
    names = {m for m in metric_columns("Efficiency").attrs["metric"].values() if m}
    assert len(names) == 1, names
    return names.pop()


def calibration_metrics() -> list[str]:
    return list(dict.fromkeys(m for m in metric_columns("Calibration").attrs["metric"].values() if m))


def schema_models() -> dict[str, dict]:
    return {m["name"]: m for m in _json("schema.json")["models"]}


def runs() -> list[dict]:
    """Per run folder: model id, adapter method, scenario group and its stats."""
    out = []
    for spec_path in sorted(SUITE.glob("*/run_spec.json")):
        spec = json.loads(spec_path.read_text(encoding="utf-8"))
        stats = json.loads((spec_path.parent / "stats.json").read_text(encoding="utf-8"))
        out.append({"folder": spec_path.parent.name, "model": spec["adapter_spec"]["model"],
                    "method": spec["adapter_spec"]["method"], "groups": spec.get("groups", []), "stats": stats})
    return out


def stat_mean(stats: list[dict], name: str, split: str = "test") -> float:
    for s in stats:
        n = s["name"]
        if n["name"] == name and n.get("split") == split and "perturbation" not in n and "sub_split" not in n \
                and s.get("count", 0) > 0:
            return float(s["mean"])
    raise AssertionError(f"no {name} on {split}")


def display_name(model_id: str) -> str:
    return schema_models()[model_id]["display_name"]


N_MODELS = len(leaderboard()["Accuracy"])


# ----------------------------------------------------------------------------- helpers


def open_all_sections(file: str, query: dict | None = None):
    """Open `file` on the suite and yield (section label, AppTest) for every section tab in turn."""
    at = open_story_page(file, query={"cohort": "all", **(query or {})})
    labels = section_labels(at)
    assert labels, file
    for lab in labels:
        open_section(at, lab)
        yield lab, at


def page_text(at) -> str:
    return texts(at) + "\n" + "\n".join(f"{m.label}: {m.value}" for m in at.metric)


def test_fixture_is_the_suite_the_issue_describes():
    # the suite these tests are about: 2 models, 4 scenarios of its own, a 158,016-parameter model, runtimes in µs
    assert N_MODELS == 2
    assert len(metric_columns("Accuracy").columns) == 4
    assert any(m.get("num_parameters") == 158_016 for m in schema_models().values())
    assert metric_columns("Efficiency").min().min() < 1e-4
    assert calibration_metrics() == ["Max prob"]


# ----------------------------------------------------------------------------- Capability vs cost


def test_cost_axis_sizes_and_times_read_the_suite_at_its_scale():
    at = open_story_page(nav.spec_for("cost").file, query={"cohort": "all"})
    spec = chart_spec(at, "cost_bubble")
    layout = spec["layout"]
    title = layout["yaxis"]["title"]["text"]
    metric = efficiency_metric()
    assert title == f"Mean {metric[0].lower()}{metric[1:]} (log scale)"  # "Mean observed inference time (s)"
    assert "denoised" not in title.lower()
    # each model's runtime is the mean of its Efficiency cells; its size from the schema
    eff = metric_columns("Efficiency")
    expected_rt = {m: fmt.seconds(eff.loc[m].mean()) for m in eff.index}
    sizes = {m["display_name"]: fmt.params(m["num_parameters"]) for m in schema_models().values()
             if m.get("num_parameters")}
    assert "158K" in sizes.values()
    hover = {row[0]: row for t in spec["data"] if t.get("customdata") is not None for row in t["customdata"]
             if row and row[0] in expected_rt}
    assert set(hover) == set(expected_rt)
    for m, row in hover.items():
        assert row[3] == expected_rt[m], (m, row)
        assert row[2] == sizes[m], (m, row)
    dumped = json.dumps(spec)
    assert not re.search(r"(?<![\d.])0M\b", dumped) and "0.00 s" not in dumped  # a 158K model is not "0M"
    # the y ticks read in µs / ms / s, none of them "0"
    ticks = layout["yaxis"]["ticktext"]
    assert ticks and all(re.fullmatch(r"[\d.,]+ (µs|ms|s)", t) and not t.startswith("0 ") for t in ticks), ticks
    assert any(t.endswith("µs") for t in ticks)
    # the recipe's top three (here both models) labelled in a strip above the highest bubble, inside the plot,
    # each with an arrow down to its ring: no bubble covers a label
    top = math.log10(float(eff.mean(axis=1).max()))
    lo, hi = layout["yaxis"]["range"]
    labels = [a for a in layout.get("annotations", []) if a.get("showarrow")]
    assert len(labels) == N_MODELS
    assert all(top < a["ay"] < hi for a in labels)
    labelled = [t for t in spec["data"] if str(t.get("mode", "")).endswith("text")]
    assert all(t.get("cliponaxis") is False for t in labelled)


def test_cost_data_table_keeps_microseconds():
    at = open_chart_data(open_story_page(nav.spec_for("cost").file, query={"cohort": "all"}))
    eff = metric_columns("Efficiency")
    shown = [t for t in tables(at) if {"runtime", "runtime_s"} <= set(t.columns)]
    assert shown
    t = shown[0].set_index("model")
    for m in eff.index:
        assert t.loc[m, "runtime"] == fmt.seconds(eff.loc[m].mean())
        assert float(t.loc[m, "runtime_s"]) == pytest.approx(eff.loc[m].mean(), rel=1e-6)


def test_cost_every_section_names_the_suites_efficiency_metric():
    metric = efficiency_metric()
    for label, at in open_all_sections(nav.spec_for("cost").file):
        t = unmarkdown(page_text(at))
        assert "0.00 s" not in t and " 0M" not in t, label
        if label == "Paper findings":
            assert f"efficiency column is {metric}" in t


# ----------------------------------------------------------------------------- Podium


def test_podium_says_how_many_groups_each_model_has_and_never_all_seven():
    counts = group_win_rate_counts()
    held = [t.lower() for t in group_titles_with_win_rates()]
    seen = set()
    for label, at in open_all_sections(nav.spec_for("podium").file):
        t = unmarkdown(page_text(at))
        seen.add(label)
        assert "all seven groups" not in t, label
        assert "on the seven metric groups" not in t, label  # classic's takeaway
        if label == "Recipe podium":
            assert (f"has win rates in {len(held)} of them: {fmt.names(held)}") in t
        if label == "Paper podium":
            assert counts.nunique() == 1  # the fixture gives both models the same number
            assert (f"each of the {fmt.count(N_MODELS, 'model')} has a win rate in {int(counts.iloc[0])} of the 7 "
                    "groups a recipe weighs") in t
            assert f"checked over the {fmt.count(len(held), 'group')} with a win rate here ({fmt.names(held)})" in t
    assert {"Recipe podium", "Robustness", "Paper podium", "Field of rivals"} <= seen


def test_podium_stability_of_a_coin_flip_is_a_toss_up():
    at = open_story_page(nav.spec_for("podium").file, query={"cohort": "all"}, section="Robustness")
    # HELM's own mean win rates per group, the default recipe (Holistic) renormalised over the groups held
    wr = pd.DataFrame({g: leaderboard()[t]["Mean win rate"] if t in leaderboard() else np.nan
                       for g, t in ((g, g.capitalize()) for g in ranking.RECIPE_GROUPS)})
    assert wr.notna().any().sum() == 2  # accuracy and efficiency: the Calibration table's win rates are blank
    w = dict(ranking.RECIPES["holistic"].weights)
    stab = stability.podium_stability(wr, w, n_samples=10_000, concentration=50.0, seed=0)
    p1, p2 = stab["p_first"].iloc[0], stab["p_first"].iloc[1]
    assert abs(p1 - p2) < stability.TOSS_UP_MARGIN  # the suite's two models split first place
    t = unmarkdown(texts(at))
    assert "First place is **a toss-up**" in t
    assert f"{stab.index[0]} is first in {fmt.share(p1)} of the samples, {stab.index[1]} in {fmt.share(p2)}" in t
    assert f"each of the {fmt.count(N_MODELS, 'model')} ranked would be first in {fmt.share(1 / N_MODELS)}" in t
    for word in ("robust", "fairly stable", "fragile"):
        assert f"looks **{word}**" not in t


# ----------------------------------------------------------------------------- Calibration


def _lsat_runs() -> dict[str, float]:
    """The suite's LSAT runs of one model under two multiple-choice methods: method -> exact match on test."""
    methods = {"multiple_choice_joint": "joint", "multiple_choice_separate_original": "separate"}
    out = {}
    for r in runs():
        if r["folder"].startswith("lsat_qa") and r["method"] in methods:
            out[(r["model"], methods[r["method"]])] = stat_mean(r["stats"], "exact_match")
    return out


def test_calibration_labels_the_apps_ece_and_says_helm_published_none():
    no_ece = f"HELM published no ECE for Your HELM output (my-suite): its calibration column is " \
             f"{fmt.names(calibration_metrics())}."
    seen = set()
    for label, at in open_all_sections(nav.spec_for("calibration").file):
        t = page_text(at)
        seen.add(label)
        assert "has no calibration values" not in t, label
        if label != "Switch interfaces":  # the interfaces slide is about joint and separate runs, not about ECE
            assert no_ece in t, label
        if label == "Reliability diagram":
            labels = [m.label for m in at.metric]
            assert "ECE (computed here)" in labels and "ECE" not in labels
            assert "ECE computed by this app from the run's per-instance confidences" in t
        if label == "Switch interfaces":
            lsat = _lsat_runs()
            ((model_id, _),) = {(m, None) for m, _ in lsat}
            joint, separate = lsat[(model_id, "joint")], lsat[(model_id, "separate")]
            assert (joint, separate) == (0.6, 0.8)
            assert (f"{display_name(model_id)} on LSAT (EM): {fmt.value(joint)} with joint, {fmt.value(separate)} "
                    f"with separate: separate is {fmt.value(separate - joint)} higher than joint.") in t
            assert "None of the core scenarios that use" not in t
    assert {"Reliability diagram", "Accuracy and calibration", "Switch interfaces"} <= seen


# ----------------------------------------------------------------------------- Sensitivity


def test_sensitivity_reads_only_the_marks_it_draws_on_every_scenario():
    acc = metric_columns("Accuracy")
    scenarios = [c.split(" - ")[0] for c in acc.columns]
    at = open_story_page(nav.spec_for("sensitivity").file, query={"cohort": "all"})
    for scen in scenarios:
        at.selectbox(key="sens_scenario").set_value(scen).run()
        assert_clean(at)
        t = texts(at)
        assert "nothing to show" not in t
        spec = chart_spec(at, "sensitivity_dumbbell")
        symbols = {str(tr.get("marker", {}).get("symbol")) for tr in spec["data"] if tr.get("mode") == "markers"}
        if "The diamond is the mean" in t:
            assert "diamond" in symbols, scen
        if "diamond" not in symbols:
            assert "diamond" not in t, scen
        # the axis holds the data, inside the metric's 0–1 scale, not plotly's −1…1 around a single point
        lo, hi = spec["layout"]["xaxis"]["range"]
        col = acc[[c for c in acc.columns if c.startswith(scen + " - ")][0]].dropna()
        assert -0.02 <= lo <= col.min() and col.max() <= hi <= 1.02, (scen, lo, hi)
    # LSAT's range for Pythia is joint against separate, not seed luck: the page says so
    at.selectbox(key="sens_scenario").set_value("LSAT").run()
    ((model_id, _),) = {(m, None) for m, _ in _lsat_runs()}
    assert (f"On LSAT, the runs behind the value of {display_name(model_id)} (joint and separate) use different "
            "multiple-choice interfaces") in texts(at)
    for label, at in open_all_sections(nav.spec_for("sensitivity").file):
        t = texts(at)
        assert "HellaSwag and OpenbookQA" not in t and "(MMLU, RAFT, CivilComments)" not in t, label
        assert "Try NaturalQuestions" not in t, label
        if label == "Across scenarios":
            assert "Bars are ranges over seeds alone" not in t
            assert "has a spread over seeds alone, so no bar is drawn" in t
            spec = chart_spec(at, "sensitivity_median")
            assert not [tr for tr in spec["data"] if tr.get("type") == "bar"]


# ----------------------------------------------------------------------------- Limits


def test_limits_every_step_holds_for_the_suite():
    from helm_core import content

    steps = critique.load_steps()
    at = open_story_page(nav.spec_for("limits").file, query={"cohort": "all"})
    n_scenarios = len(metric_columns("Accuracy").columns)
    for k in range(1, len(steps) + 1):
        if k > 1:
            at.button(key="step_next").click().run()
            assert_clean(at)
        t = page_text(at)
        assert at.subheader[0].value == f"{k}. {steps[k - 1].title}"
        said = next(line for line in t.split("\n") if line.startswith("This step's text is about HELM classic"))
        assert said.startswith("This step's text is about HELM classic and its 2022 paper; "), said
        if k == 1:
            m = {x.label: x.value for x in at.metric}
            assert "Core scenarios" not in m
            assert m["Scenarios"] == str(n_scenarios) and m["Models, same exam"] == str(N_MODELS)
            assert "choose the 'paper' cohort" not in t
        if k == 3:
            # one set of rivals in a 2-model suite: said once, with the win rate HELM's rule gives
            assert len(re.findall(r"against the whole cohort \(2 models\)", t)) == 1, t
            assert "This cohort allows one set of rivals only" in t
