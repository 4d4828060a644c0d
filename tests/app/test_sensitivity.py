"""Prompt Sensitivity page: the scenario picker (NaturalQuestions open-book by default), sorting, the spread
kinds, best-vs-worst-seed rankings, the claims with the data beside them, URL seeding and thin datasets."""
from __future__ import annotations

import base64
import dataclasses
import json

import numpy as np
import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from helm_core import sensitivity as sens
from helm_core.data import load_release

from .helpers import (assert_clean, chart_keys, is_md_table, md_rows, open_section, open_story_page, parse_md_table,
                      section_labels, texts)

PAGE = "app_pages/sensitivity.py"
NQ = "NaturalQuestions (open-book)"
SECTIONS = ["Per model", "Across scenarios", "Best or worst seed", "Format and examples"]


def open_page(file: str = PAGE, **kwargs) -> AppTest:
    """The page opened with its own query keys, session state and section (helpers.open_story_page)."""
    return open_story_page(file, **kwargs)


def _metrics(at):
    return {m.label: m.value for m in at.metric}


def _figure(at, key):
    for chart in at.get("plotly_chart"):
        if chart.proto.id.endswith(key):
            return json.loads(chart.proto.spec)
    raise AssertionError(f"no chart {key}")


def _decode(arr):
    if isinstance(arr, dict):
        return np.frombuffer(base64.b64decode(arr["bdata"]), dtype=np.dtype(arr["dtype"])).tolist()
    return list(arr)


def test_default_is_nq_open_book_with_seed_spread():
    at = open_page(query={"cohort": "all"})
    assert at.selectbox(key="sens_scenario").value == NQ
    m = _metrics(at)
    sp = sens.seed_spread(load_release(), NQ)
    assert m["Models with 3-seed spread"] == str(int((sp["kind"] == "seeds").sum())) == "41"
    assert m["One run only"] == "25"
    assert m["Median range"] == f"{sp.loc[sp['kind'] == 'seeds', 'range'].median():.3f}"
    assert section_labels(at) == SECTIONS
    # Only the open section is built: the first load draws the dumbbell alone.
    assert chart_keys(at) == ["sensitivity_dumbbell"]
    for section, key in (("Across scenarios", "sensitivity_median"), ("Best or worst seed", "sensitivity_ranks")):
        open_section(at, section)
        _figure(at, key)
        assert len(at.get("plotly_chart")) == 1


def test_scenario_choice_carries_to_the_best_or_worst_section():
    at = open_page()
    at.selectbox(key="sens_scenario").set_value("BoolQ").run()
    open_section(at, "Best or worst seed")
    assert at.selectbox(key="sens_scenario").value == "BoolQ"
    assert "with 3 seeds on BoolQ" in texts(at)
    open_section(at, "Per model")
    assert at.selectbox(key="sens_scenario").value == "BoolQ"


def test_sort_by_spread_reorders_the_dumbbell():
    at = open_page(query={"cohort": "all"})
    by_mean = _figure(at, "sensitivity_dumbbell")["layout"]["yaxis"]["categoryarray"]
    at.button_group(key="sens_sort").set_value("spread").run()
    by_spread = _figure(at, "sensitivity_dumbbell")["layout"]["yaxis"]["categoryarray"]
    assert by_mean != by_spread and sorted(by_mean) == sorted(by_spread)
    # the axis is reversed (top = first): the widest model is on top when sorted by spread
    assert by_spread[-1] == "T5 (11B)"
    assert by_mean[-1] == "text-davinci-003"


def test_switching_to_mmlu_says_the_spread_is_over_subjects():
    at = open_page()
    at.selectbox(key="sens_scenario").set_value("MMLU").run()
    assert "sub-tasks as well as seeds" in texts(at)
    assert "Models with several runs" in _metrics(at)
    open_section(at, "Best or worst seed")
    assert at.selectbox(key="sens_scenario").value == "MMLU"
    assert any("No model of the current cohort has a spread over seeds alone" in str(i.value) for i in at.info)


def test_hellaswag_has_no_spread():
    at = open_page(query={"sens_scenario": "HellaSwag"})
    assert at.selectbox(key="sens_scenario").value == "HellaSwag"
    t = texts(at)
    assert "every model of the cohort has a single run in HELM classic v0.4.0: each circle is that run's value" in t
    assert "diamond" not in t  # no diamond is drawn when every model has one run


def test_rank_tables_highlight_changes():
    at = open_page(section="Best or worst seed", query={"cohort": "all"})
    m = _metrics(at)
    f = sens.rank_flips(load_release(), NQ)
    s = sens.flip_summary(f)
    assert m["Models that change rank"] == f"{s['moved']} of {s['n']}"
    assert m["Largest move"] == f"{s['max_move']} places"
    shown = [m.value for m in at.markdown if is_md_table(m.value) and {"rank", "change"} <= set(md_rows(m.value)[0])]
    assert len(shown) == 2
    best, worst = (parse_md_table(t) for t in shown)
    # Every row that changes place is highlighted, and only those.
    marked = {i for i, row in enumerate(md_rows(shown[0])[1:]) if all(c.startswith(":orange-background[") for c in row)}
    assert marked == {i for i, c in enumerate(best["change"]) if c != "="} and marked
    assert best["model"].iloc[0] == f.sort_values("rank_if_best")["model"].iloc[0]
    t5 = best.set_index("model").loc["T5 (11B)", "change"]
    assert t5.startswith("▼")
    assert set(worst["change"]) >= {"="}


def test_claims_with_data_beside_them():
    at = open_page(section="Format and examples")
    t = texts(at)
    for statement in ("67.3 F1", "37.6% to 63.6%", "below 0.03", "0 to 1 in-context example", "30% to 80%"):
        assert statement in t
    assert "This release disagrees" in t and "59.9% to 65.0%" in t  # davinci's v0.4.0 seed range
    assert "BLOOM (176B) an F1 of 0.621" in t
    assert "What is unverified here" in t


def test_url_opens_a_section():
    at = open_page(query={"sensitivity_section": "Format and examples"})
    assert "What is unverified here" in texts(at)
    assert chart_keys(at) == ["sensitivity_claims"]


@pytest.mark.parametrize("value", ["Nope", "", "per model", "Per model,Across scenarios"])
def test_bad_section_in_url_opens_the_first(value):
    at = open_page(query={"sensitivity_section": value})
    _figure(at, "sensitivity_dumbbell")


def test_url_seeds_scenario_and_sort():
    at = open_page(query={"cohort": "all", "sens_scenario": "BoolQ", "sens_sort": "spread"})
    assert at.selectbox(key="sens_scenario").value == "BoolQ"
    assert at.button_group(key="sens_sort").value == "spread"
    sp = sens.seed_spread(load_release(), "BoolQ")
    assert _metrics(at)["Models with 3-seed spread"] == str(int((sp["kind"] == "seeds").sum()))


@pytest.mark.parametrize("key,value,kind,default", [
    ("sens_scenario", "Nope", "selectbox", NQ), ("sens_scenario", "", "selectbox", NQ),
    ("sens_sort", "alphabet", "button_group", "mean"),
])
def test_bad_url_values_fall_back(key, value, kind, default):
    at = open_page(query={key: value})
    assert getattr(at, kind)(key=key).value == default


def test_small_cohort():
    at = open_page(query={"cohort": "paper", "access": "closed"})
    assert _metrics(at)["Models with 3-seed spread"] == "3"
    open_section(at, "Best or worst seed")
    assert "Models that change rank" in _metrics(at)


def test_cohort_without_the_claims_models():
    at = open_page(query={"access": "closed"}, section="Format and examples")
    t = texts(at)
    assert "davinci (175B) has no seed spread" in t
    assert "BLOOM (176B) on NaturalQuestions (open-book) is not in the current cohort" in t


def test_release_without_trials_or_nq():
    rel = load_release()
    res = rel.results
    res = res[(res["metric"] != "# trials") & (res["scenario"] != NQ)].reset_index(drop=True)
    name = "my upload"
    thin = dataclasses.replace(rel, results=res, meta={**rel.meta, "release": name, "kind": "upload"})
    at = open_page(session={"_releases": {name: thin}, "dataset_key": name})
    assert at.selectbox(key="sens_scenario").value == "MMLU"  # first scenario with values
    at.selectbox(key="sens_scenario").set_value("BoolQ").run()
    assert_clean(at)
    # without '# trials' no spread can be called a seed spread
    assert "does not say what separates them (seeds, sub-tasks or adaptation methods)" in texts(at)
    open_section(at, "Best or worst seed")
    assert any("No model of the current cohort has a spread over seeds alone" in str(i.value) for i in at.info)


def test_rank_slope_draws_each_direction_as_one_trace_with_every_mover():
    at = open_page(section="Best or worst seed", query={"cohort": "all"})
    fig = _figure(at, "sensitivity_ranks")
    f = sens.rank_flips(load_release(), NQ)
    movers = [t for t in fig["data"] if t.get("mode") == "lines+markers"]
    assert [t["name"] for t in movers] == ["climbs when all are at their worst seed",
                                           "drops when all are at their worst seed"]
    for trace, sign in zip(movers, (1, -1)):
        names = {row[0] for row in trace["customdata"] if row[0] is not None}
        assert names == set(f.loc[f["change"] * sign > 0, "model"])
        assert len(trace["x"]) == 3 * len(names)  # best, worst, gap per model


@pytest.mark.parametrize("lo,hi,expected", [
    ([0.2], [0.2], (0.142, 0.258)),  # a single point: a 0.1 span around it, not plotly's −1…1
    ([0.0], [0.0], (-0.02, 0.058)),  # clamped to the 0–1 scale's margin
    ([0.2, 0.4], [0.2, 0.4], (0.184, 0.416)),
    ([0.9], [1.0], (0.892, 1.008)),
    ([10.0], [30.0], (8.4, 31.6)),  # not a share: no clamp
    ([np.nan], [np.nan], None),
])
def test_value_range_holds_the_data(lo, hi, expected):
    from ui.charts_reliability import value_range

    got = value_range(pd.Series(lo), pd.Series(hi))
    if expected is None:
        assert got is None
    else:
        assert got == pytest.approx(list(expected))


def _claims_chart_rows(at) -> dict[str, list[float]]:
    """Per row of the claims chart (label, <br> as a space) the x of its marks, whatever the trace."""
    out: dict[str, list[float]] = {}
    for t in _figure(at, "sensitivity_claims")["data"]:
        if t.get("mode") != "markers" or "y" not in t:
            continue
        for x, y in zip(_decode(t["x"]), t["y"]):
            if x is not None and y is not None:
                out.setdefault(y.replace("<br>", " "), []).append(round(float(x), 4))
    return out


def test_format_claims_drawn_beside_the_data():
    """The paper's numbers (claims.toml, F1 points and % as 0–1) and the release's values, one row each."""
    from helm_core.claims import load_claims

    at = open_page(section="Format and examples", query={"cohort": "all"})
    claims = load_claims()
    top, start, end = (v / 100 for v in claims["format_collapse"].values)
    lo, hi = (v / 100 for v in claims["seed_spread_nq"].values)
    rows = _claims_chart_rows(at)
    assert sorted(rows["BLOOM (176B) another format (paper)"]) == pytest.approx(sorted([end, start]))
    assert rows["Anthropic-LM v4-s3 (52B) that format (paper)"] == pytest.approx([top, top])
    assert sorted(rows["davinci (175B) range over seeds (paper)"]) == pytest.approx([lo, hi])
    sp = sens.seed_spread(load_release(), NQ).set_index("model")
    bloom = sp.loc["BLOOM (176B)"]
    assert sorted(rows["BLOOM (176B) HELM's default format"]) == pytest.approx(
        sorted([bloom["min"], bloom["max"], bloom["mean"]]), abs=1e-4)
    assert f"HELM classic v0.4.0, default format: {bloom['mean']:.3f}." in texts(at)


@pytest.mark.parametrize("release,said,unsaid", [
    ("lite", "The tables of HELM Lite v1.13.0 record no seeds", "3 seeds"),
    ("capabilities", "HELM Capabilities v1.15.0 is zero-shot", "3 seeds"),
])
def test_later_releases_say_only_what_their_seeds_are(release, said, unsaid):
    """Lite ran one seed (its tables record none) and Capabilities is zero-shot: no slide speaks of 3 seeds there, and
    HELM's own 3-seed practice (a classic fact) is not shown as theirs."""
    from .helpers import open_section

    at = open_page(query={"release": release})
    seen = []
    for label in SECTIONS:
        if label != SECTIONS[0]:
            open_section(at, label)
        seen.append(texts(at))
    everything = "\n".join(seen)
    assert said in everything
    assert "repeats this with 3 seeds" not in everything
    from helm_core.claims import load_claims

    for c in load_claims().values():  # the paper's own statements (about classic) are shown as claims, badged
        everything = everything.replace(c.statement, "")
    assert unsaid not in everything


def test_classic_shows_helms_three_seed_practice():
    at = open_page()
    assert "repeats this with 3 seeds" in texts(at)


def test_presenter_dumbbell_holds_what_the_stage_can_show():
    """At 16 px the stage holds 18 names: the first 18 of the chosen order, the axis title says how many of how many."""
    from helm_core.data import cohort_models
    from ui import charts_reliability as CR

    rel = load_release()
    models = tuple(cohort_models(rel, "paper"))
    fig = CR.spread_dumbbell_spec(rel, NQ, models, "spread", "presenter")
    shown = fig["layout"]["yaxis"]["categoryarray"]
    sp = sens.seed_spread(rel, NQ, models)
    assert len(shown) == CR.STAGE_ROWS and list(reversed(shown)) == list(sens.order_spread(sp, "spread")["model"][:18])
    assert fig["layout"]["xaxis"]["title"]["text"].endswith(f"first 18 of {len(sp)} models")
    slope = CR.rank_slope_spec(rel, NQ, models, "presenter")
    assert slope["layout"]["yaxis"]["range"] == [18.5, 0.5]


def test_trials_inside_one_run_are_not_called_a_single_seed():
    """A suite whose runs carry their seeds inside (num_train_trials 3, one run per cell): the slide says the value is
    a mean over 3 trials inside one run, not "a single run, so no spread"."""
    rel = load_release()
    res = rel.results.copy()
    nq = res["scenario"] == NQ
    res.loc[nq & (res["metric_group"] == "accuracy"), ["n_runs"]] = 1.0
    res.loc[nq & (res["metric_group"] == "accuracy"), "run_min"] = res.loc[nq & (res["metric_group"] == "accuracy"), "value"]
    res.loc[nq & (res["metric_group"] == "accuracy"), "run_max"] = res.loc[nq & (res["metric_group"] == "accuracy"), "value"]
    res.loc[nq & (res["metric"] == "# trials"), "value"] = 3.0
    name = "my trials"
    suite = dataclasses.replace(rel, results=res, meta={**rel.meta, "release": name, "kind": "upload"})
    at = open_page(session={"_releases": {name: suite}, "dataset_key": name})
    from helm_core.data import cohort_models

    sp = sens.seed_spread(suite, NQ, cohort_models(suite, "paper"))  # the sidebar's default cohort
    t = texts(at)
    if set(sp["kind"]) == {"single"}:  # the core reads them as one run each: the page says where the seeds went
        n = int((sp["n_trials"] == 3).sum())
        assert f"{n} of {len(sp)} models ran 3 trials (sets of in-context examples) inside one run" in t
        assert "has a single run" not in t.split("\n")[0]
    else:  # a core that reads the trials inside the run: whatever it calls them, not "a single run"
        assert "every model of the cohort has a single run" not in t
