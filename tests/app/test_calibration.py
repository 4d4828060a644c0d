"""Calibration page: the labelled simulation and its sliders, bin strategy, the scenario picker and the
verdicts on the paper's claims, the interface switch, URL seeding, and datasets that lack what it needs."""
from __future__ import annotations

import dataclasses
import html
import json
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from helm_core import calibration as cal
from helm_core.data import load_release

from .helpers import (LSAT_JOINT, LSAT_SEPARATE, SUITE_0516, assert_clean, chart_keys, open_chart_data, open_section,
                      open_story_page, section_labels, section_tabs, tables, texts)

PAGE = "app_pages/calibration.py"
SECTIONS = ["Reliability diagram", "Accuracy and calibration", "Switch interfaces", "Missing ECE"]


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


SAFETY = Path(__file__).resolve().parents[2] / "data" / "real_runs" / "helm_safety_dev_2024" / "runs" / "v4"
LLAMA_70B = "bbq:subject=all,method=multiple_choice_joint,model=meta_llama-3-70b-chat"
SIM = {"cal_source": "simulation"}


def _bundled_run(run: str = LLAMA_70B) -> pd.DataFrame:
    """The run's real confidences, read from its files here: the probability of the letter the model wrote (exp of
    its first token's log-probability) and whether it was right (per_instance_stats exact_match)."""
    states = json.loads((SAFETY / run / "scenario_state.json").read_text())["request_states"]
    correct = {i["instance_id"]: next(s["mean"] for s in i["stats"] if s["name"]["name"] == "exact_match")
               for i in json.loads((SAFETY / run / "per_instance_stats.json").read_text())}
    rows = []
    for rs in states:
        token = rs["result"]["completions"][0]["tokens"][0]
        rows.append({"prob": math.exp(token["logprob"]), "correct": correct[rs["instance"]["id"]]})
    return pd.DataFrame(rows)


def test_default_is_a_genuine_helm_run_with_the_simulation_second():
    at = open_page(PAGE)
    assert at.button_group(key="cal_source").options == ["bundled HELM run", "simulation"]
    assert at.button_group(key="cal_source").value == "bundled HELM run"
    run = _bundled_run()
    m = _metrics(at)
    assert m["Answers"] == f"{len(run)}" == "100"
    assert m["ECE"] == f"{cal.ece(run['prob'], run['correct']):.3f}"
    t = html.unescape(texts(at))
    # the point names the model and the run, n, and HELM's warning below ~300 instances
    assert "A genuine HELM run: **Llama 3 Instruct (70B)** on BBQ" in t and "n = 100 (HELM wants ~300)" in t
    assert LLAMA_70B in t and "about 300" in t
    assert "carries no per-instance confidences" in t  # why the classic tables give the diagram nothing of their own
    fig = _figure(at, "calibration_reliability")
    assert not any("SIMULATION" in a["text"] for a in fig["layout"]["annotations"])


def test_the_panel_under_the_diagram_counts_answers_by_confidence():
    """Equal-mass bins hold the same number of answers each; the lower panel shows how many answers the model gave
    at each stated confidence instead (10 equal-width bands), whatever the bins of the diagram."""
    at = open_page(PAGE)
    run = _bundled_run()
    bands = np.clip(np.ceil(run["prob"] * 10) - 1, 0, 9)  # equal-width bands, upper edge inclusive as HELM's bins
    expected = bands.value_counts().sort_index()
    for strategy in ("equal_mass", "uniform"):
        if strategy == "uniform":
            at.button_group(key="cal_bins").set_value("uniform").run()
        counts = _bar_counts(_figure(at, "calibration_reliability"))
        assert counts == expected.tolist() and len(set(counts)) > 1


def test_simulation_is_labelled():
    at = open_page(PAGE, query=SIM)
    t = texts(at)
    assert "Simulation · not HELM data" in t
    m = _metrics(at)
    assert m["Answers"] == "1,000"
    expected = cal.simulated_reliability(0.7, 0.5, 1000, 10, "equal_mass", 0)["ece"]
    assert m["ECE"] == f"{expected:.3f}"
    fig = _figure(at, "calibration_reliability")
    assert any("SIMULATION" in a["text"] for a in fig["layout"]["annotations"])


def test_sections_build_only_the_open_one():
    at = open_page(PAGE)
    key, tabs = section_tabs(at)
    assert key == "calibration_section" and section_labels(at) == SECTIONS
    assert [len(t.children) > 0 for t in tabs] == [True, False, False, False]
    assert chart_keys(at) == ["calibration_reliability"]
    open_section(at, "Accuracy and calibration")
    assert [len(t.children) > 0 for t in section_tabs(at)[1]] == [False, True, False, False]
    assert chart_keys(at) == ["calibration_scatter"]
    open_section(at, "Switch interfaces")
    assert not at.get("plotly_chart")


def test_simulation_settings_survive_a_section_switch():
    at = open_page(PAGE, query=SIM)
    at.slider(key="cal_conf").set_value(-0.5).run()
    ece = _metrics(at)["ECE"]
    open_section(at, "Switch interfaces")
    open_section(at, "Reliability diagram")
    assert at.slider(key="cal_conf").value == pytest.approx(-0.5)
    assert _metrics(at)["ECE"] == ece


@pytest.mark.parametrize("value", ["Nope", "", "switch interfaces"])
def test_bad_section_in_url_opens_the_first(value):
    at = open_page(PAGE, query={"calibration_section": value})
    _figure(at, "calibration_reliability")


def test_overconfidence_slider_grows_ece():
    at = open_page(PAGE, query=SIM)
    at.slider(key="cal_conf").set_value(0.0).run()
    calibrated = float(_metrics(at)["ECE"])
    at.slider(key="cal_conf").set_value(1.0).run()
    over = float(_metrics(at)["ECE"])
    assert calibrated < 0.06 < over
    assert_clean(at)


def test_accuracy_slider_changes_share_correct():
    at = open_page(PAGE, query=SIM)
    at.slider(key="cal_acc").set_value(0.3).run()
    share = float(_metrics(at)["Share correct"].rstrip("%")) / 100
    assert share == pytest.approx(0.3, abs=0.05)


def test_few_answers_warn_below_300():
    at = open_page(PAGE, query=SIM)
    assert "about 300 or more" not in texts(at)
    at.slider(key="cal_n").set_value(200).run()
    assert _metrics(at)["Answers"] == "200"
    assert "Only 200 answers: HELM notes that a 10-bin ECE needs about 300 or more" in texts(at)


def _bar_counts(fig) -> list[int]:
    bar = [t for t in fig["data"] if t["type"] == "bar"][0]
    y = bar["y"]
    if isinstance(y, dict):  # plotly's binary encoding
        import base64

        return np.frombuffer(base64.b64decode(y["bdata"]), dtype=np.dtype(y["dtype"])).tolist()
    return list(y)


def _model_points(at) -> int:
    model = next(t for t in _figure(at, "calibration_reliability")["data"] if t.get("name") == "simulated model")
    return len(_bar_counts({"data": [{"type": "bar", "y": model["x"]}]}))


def test_bin_strategy_switch_changes_the_bins():
    at = open_page(PAGE, query={**SIM, "cal_n": "300"})
    eq = cal.simulated_reliability(0.7, 0.5, 300, 10, "equal_mass", 0)
    assert _metrics(at)["ECE"] == f"{eq['ece']:.3f}" and _model_points(at) == 10
    at.button_group(key="cal_bins").set_value("uniform").run()
    sim = cal.simulated_reliability(0.7, 0.5, 300, 10, "uniform", 0)
    assert _metrics(at)["ECE"] == f"{sim['ece']:.3f}"
    assert _model_points(at) == int((sim["bins"]["count"] > 0).sum()) < 10


def test_scenario_switch_and_verdicts():
    at = open_page(PAGE, section="Accuracy and calibration", query={"cohort": "all"})
    assert at.selectbox(key="cal_scenario").value == "HellaSwag"
    assert float(_metrics(at)["Rank correlation, accuracy vs ECE"]) > 0.5
    at.selectbox(key="cal_scenario").set_value("OpenbookQA").run()
    assert float(_metrics(at)["Rank correlation, accuracy vs ECE"]) < -0.5
    t = texts(at)
    assert "This release agrees" in t and "This release disagrees" in t
    assert "39 of 53 models have ECE below 0.40" in t


def test_interface_switch_shows_each_method():
    at = open_page(PAGE, section="Switch interfaces", query={"cohort": "all"})
    assert "A. In the oven" in at.text[0].value
    assert "Illustration" in texts(at)
    shown = next(t for t in tables(at) if "interface" in t.columns)
    assert shown["core scenario"].tolist() == ["MMLU", "TruthfulQA", "HellaSwag", "OpenbookQA"]
    counts = cal.method_scenarios(load_release(), "separate")
    assert shown.set_index("core scenario").loc["HellaSwag", "models with an ECE"] == counts["models_with_ece"].iloc[0]
    assert "put multiple choice three ways: joint for MMLU and TruthfulQA, separate for HellaSwag" in texts(at)
    at.button_group(key="cal_method").set_value("separate").run()
    code = at.text[0].value
    assert "A. In the oven" not in code and code.count("Question:") == 4
    assert f"HellaSwag: {counts['models_with_accuracy'].iloc[0]} with accuracy" in texts(at)
    at.button_group(key="cal_method").set_value("separate-calibrated").run()
    assert "bare prompt" in at.text[0].value
    assert "OpenbookQA" in texts(at)


def test_interfaces_on_a_later_release_are_classics():
    """Lite's tables do not say which interface a run used: the slide names HELM classic's defaults as classic's."""
    at = open_page(PAGE, section="Switch interfaces", query={"release": "lite"})
    t = texts(at)
    assert "HELM classic's defaults: joint for MMLU and TruthfulQA" in t and "core scenarios put" not in t
    assert "do not say which interface each run used" in t
    shown = next(t for t in tables(at) if "interface" in t.columns)
    assert "models with accuracy" not in shown.columns


def test_own_suite_compares_its_own_interfaces(monkeypatch):
    """The suite ran LSAT joint and separate for Pythia (70M): the point is that comparison, its values read here
    from the two runs' stats.json (EM on the test split)."""
    monkeypatch.setenv("HELM_OUTPUT", str(SUITE_0516))
    at = open_page(PAGE, section="Switch interfaces", query={"cohort": "all"})
    em = {}
    for run in (LSAT_JOINT, LSAT_SEPARATE):
        stats = json.loads((SUITE_0516 / "runs" / "my-suite" / run / "stats.json").read_text())
        em[run] = next(s["mean"] for s in stats if s["name"]["name"] == "exact_match" and s["name"]["split"] == "test"
                       and not s["name"].get("perturbation") and not s["name"].get("sub_split"))
    a, b = em[LSAT_JOINT], em[LSAT_SEPARATE]
    t = texts(at)
    assert f"Pythia (70M) on LSAT (EM): {a:.3f} with joint, {b:.3f} with separate: separate is {b - a:.3f} higher" in t
    assert "runs no model on one scenario under two interfaces" not in t
    shown = next(t for t in tables(at) if "method" in t.columns)
    assert shown["method"].tolist() == ["joint", "separate"]


def test_models_without_ece_are_listed():
    at = open_page(PAGE, section="Missing ECE", query={"cohort": "all"})
    t = texts(at)
    assert "gpt-3.5-turbo-0301" in t and "Falcon (40B)" in t
    never = cal.models_without_ece(load_release())
    assert _metrics(at)["Models with accuracy but never an ECE"] == str(int((never["n_with_ece"] == 0).sum()))
    assert chart_keys(at) == ["calibration_no_ece"]
    shown = open_chart_data(at).dataframe[0].value
    assert list(shown["model"]) == list(never["model"])
    assert list(shown["n_missing"]) == list(never["n_missing"])


def test_url_seeds_the_widgets():
    at = open_page(PAGE, query={**SIM, "cal_scenario": "CivilComments", "cal_method": "separate", "cal_acc": "0.9",
                                "cal_conf": "-1.0", "cal_n": "500", "cal_bins": "uniform"})
    assert at.slider(key="cal_acc").value == pytest.approx(0.9)
    assert _metrics(at)["Answers"] == "500"
    sim = cal.simulated_reliability(0.9, -1.0, 500, 10, "uniform", 0)
    assert _metrics(at)["ECE"] == f"{sim['ece']:.3f}"
    # The other sections' values wait in the link until their section opens.
    assert at.query_params["cal_scenario"] == "CivilComments" and at.query_params["cal_method"] == "separate"
    open_section(at, "Accuracy and calibration")
    assert at.selectbox(key="cal_scenario").value == "CivilComments"
    open_section(at, "Switch interfaces")
    assert at.button_group(key="cal_method").value == "separate"


def test_url_opens_a_section():
    at = open_page(PAGE, query={"calibration_section": "Switch interfaces"})
    assert "A. In the oven" in at.text[0].value
    assert not at.get("plotly_chart")


BAD_QUERIES = [
    # key, bad value, how to read the widget, its default, the section it is in
    ("cal_acc", "5", "slider", 0.7, None),
    ("cal_conf", "nan", "slider", 0.5, None),
    ("cal_n", "12.5", "slider", 1000, None),
    ("cal_scenario", "<script>x</script>", "selectbox", "HellaSwag", "Accuracy and calibration"),
    ("cal_method", "cot", "button_group", "joint", "Switch interfaces"),
    ("cal_bins", "quantile", "button_group", "equal_mass", None),
]


@pytest.mark.parametrize("key,value,kind,default,section", BAD_QUERIES, ids=[q[0] for q in BAD_QUERIES])
def test_bad_url_values_fall_back_to_defaults(key, value, kind, default, section):
    # (AppTest runs a switched-to page without the router, so the notice toast is checked in Chromium.)
    at = open_page(PAGE, query={key: value, **(SIM if kind == "slider" else {})}, section=section)
    assert getattr(at, kind)(key=key).value == default
    assert "<script>" not in texts(at)


def test_small_cohort_still_works():
    at = open_page(PAGE, query={"cohort": "paper", "access": "closed"}, section="Accuracy and calibration")
    t = texts(at)
    assert "(3 models)" in t
    assert "not enough data" in t or "This release" in t


def _with_release(rel, query=None):
    # the sidebar's dataset radio labels a dataset by its release name: use the name as the key
    return open_page(PAGE, query=query, session={"_releases": {rel.name: rel}, "dataset_key": rel.name})


def test_release_without_calibration_says_so():
    rel = load_release()
    res = rel.results[rel.results["metric_group"] != "calibration"].reset_index(drop=True)
    at = _with_release(dataclasses.replace(rel, results=res, meta={**rel.meta, "release": "my upload", "kind": "upload"}))
    assert "A genuine HELM run" in texts(at)  # the bundled run's diagram still works
    assert "HELM published no ECE for my upload: its tables hold no calibration column." in texts(at)
    open_section(at, "Accuracy and calibration")
    assert "HELM published no ECE for my upload: its tables hold no calibration column." in texts(at)
    open_section(at, "Missing ECE")
    assert "HELM published no ECE for my upload" in texts(at)


def test_release_with_per_instance_confidences_draws_real_data():
    rel = load_release()
    rng = np.random.default_rng(1)
    inst = pd.DataFrame({"model": "text-davinci-002", "scenario": "BoolQ", "prob": rng.uniform(0.5, 1, 120),
                         "correct": rng.integers(0, 2, 120), "run": "boolq:model=openai_text-davinci-002"})
    at = _with_release(dataclasses.replace(rel, meta={**rel.meta, "release": "my run", "kind": "upload",
                                                      "instance_confidences": inst}))
    assert at.selectbox(key="cal_run").value == "text-davinci-002 · BoolQ"
    assert at.button_group(key="cal_source").value == "data"
    m = _metrics(at)
    assert m["Answers"] == "120"
    # the app's ECE from the confidences, labelled as the app's, beside HELM's own value for the cell
    assert m["ECE (computed here)"] == f"{cal.ece(inst['prob'], inst['correct']):.3f}"
    assert f"HELM's own table gives this cell an ECE of {cal.published_ece(rel, 'text-davinci-002', 'BoolQ'):.3f}" \
        in texts(at)
    assert "Simulation · not HELM data" not in texts(at)
    assert "n = 120 (HELM wants ~300)" in texts(at) and "about 300 or more" in texts(at)
    at.button_group(key="cal_source").set_value("simulation").run()
    assert "Simulation · not HELM data" in texts(at)
