"""AppTest text sweep on a user's own HELM suite (tests/fixtures/helm_output_0516: crfm-helm 0.5.16 layout, 2
models, 4 scenarios of its own schema, none of classic's 16 core scenarios; accuracy, calibration (Max prob) and
efficiency (observed time); no perturbations).

Every page and every section tab (and every stepper step) runs without an exception on it; the home, data, grid,
coverage and metrics pages say nothing that is only true of HELM classic v0.4.0, and their counts agree with the
suite. The expected counts are computed here from the fixture's own files (schema.json and
groups/core_scenarios.json, read as plain JSON), not from the app.
"""
from __future__ import annotations

import html
import json
import re
from functools import lru_cache
from pathlib import Path

import pytest

from ui import nav

from .helpers import open_page, open_section, open_story_page, page_links, section_labels, texts

FIX = Path(__file__).resolve().parents[1] / "fixtures" / "helm_output_0516"
SUITE = FIX / "runs" / "my-suite"
CLASSIC_GROUPS = ("accuracy", "calibration", "robustness", "fairness", "bias", "toxicity", "efficiency")
NAME = "Your HELM output (helm_output_0516)"


@lru_cache(maxsize=1)
def suite() -> dict:
    """What the suite holds, read from its files as HELM wrote them: the scenarios (run groups of the core table),
    the models (rows), and per classic metric group the scenarios with at least one value (cells with a `value`)."""
    tables = json.loads((SUITE / "groups" / "core_scenarios.json").read_text())
    schema = json.loads((SUITE / "schema.json").read_text())
    scenarios: list[str] = []
    models: set[str] = set()
    measured: dict[str, set[str]] = {}
    accuracy_cells = set()
    for t in tables:
        group = t["name"]
        for ci, h in enumerate(t["header"]):
            rg = (h.get("metadata") or {}).get("run_group")
            if not rg:
                continue
            if rg not in scenarios:
                scenarios.append(rg)
            for row in t["rows"]:
                models.add(row[0]["value"])
                if "value" in row[ci] and row[ci]["value"] is not None:
                    measured.setdefault(group, set()).add(rg)
                    if group == "accuracy":
                        accuracy_cells.add((row[0]["value"], rg))
    groups = [g for g in CLASSIC_GROUPS if measured.get(g)]
    return {
        "scenarios": scenarios, "models": sorted(models), "groups": groups,
        "grid_cells": len(scenarios) * len(CLASSIC_GROUPS),
        "grid_measured": sum(len(measured.get(g, ())) for g in CLASSIC_GROUPS),
        "accuracy_measured": len(accuracy_cells), "accuracy_cells": len(models) * len(scenarios),
        "perturbations": bool(schema.get("perturbations")) and any(
            m.get("perturbation_name") for g in schema["metric_groups"] for m in g.get("metrics", [])),
        "schema_metrics": {m["name"]: m.get("short_display_name") or m["display_name"] for m in schema["metrics"]},
    }


@pytest.fixture(autouse=True)
def _own_suite(set_helm_output):
    """Every page of this file shows the suite (the server path given at start-up, as `HELM_OUTPUT`)."""
    set_helm_output(FIX)


def _text(at) -> str:
    """The page's text as read: entities and backslash escapes resolved, word joiners (helm_core.escape) dropped."""
    return html.unescape(texts(at)).replace("\\", "").replace("\u2060", "")


def _metrics(at) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def _helps(at) -> str:
    return " ".join(html.unescape(m.proto.help or "") for m in at.metric)


def _walk(file: str) -> list[tuple[str, str, dict]]:
    """(section, text, metrics) of every section tab of a page (and every step of a stepper), opened in turn."""
    at = open_story_page(file)
    assert f"Data: {NAME}" in _text(at)
    labels = section_labels(at)
    out = [(labels[0] if labels else "", _text(at) + _helps(at), _metrics(at))]
    for label in labels[1:]:
        open_section(at, label)
        out.append((label, _text(at) + _helps(at), _metrics(at)))
    nexts = [b for b in at.button if b.key == "step_next"]
    while nexts and not nexts[0].disabled:
        nexts[0].click().run()
        assert not at.exception, [e.value for e in at.exception]
        out.append((f"step {at.session_state['step']}", _text(at) + _helps(at), _metrics(at)))
        nexts = [b for b in at.button if b.key == "step_next"]
    return out


# ----------------------------------------------------------------------------- the facts of the fixture


def test_the_fixture_is_a_suite_of_its_own():
    """The premises of the sweep, read from the files: 4 scenarios, none of classic's core ones; 2 models;
    accuracy, calibration and efficiency with values; no perturbation."""
    s = suite()
    assert s["scenarios"] == ["bAbI", "SST", "LegalSupport", "LSAT"]
    assert len(s["models"]) == 2
    assert s["groups"] == ["accuracy", "calibration", "efficiency"]
    assert not s["perturbations"]


# ----------------------------------------------------------------------------- every page, every section

PAGES = nav.available_pages()


@pytest.mark.parametrize("spec", PAGES, ids=[p.url_path or "home" for p in PAGES])
def test_every_page_and_section_runs_on_the_suite(spec):
    """No exception on any page, section or step with the suite loaded, and no page takes it for classic."""
    for section, text, _ in _walk(spec.file):
        where = f"{spec.url_path or 'home'} / {section}"
        assert "112 cells" not in text, where  # the classic grid's takeaway
        assert "0 of 112" not in text, where
        assert "16 × 7" not in text, where  # the grid's classic title (page header, onward links)
        # Counts of one in the singular (a 2-model suite leaves one rival, one run, one scenario …).
        assert not re.search(r"\b(?:these|of|the|all) 1 (?:models|rivals|runs|scenarios|groups|cells)\b", text), where


# ----------------------------------------------------------------------------- page by page


def test_home_counts_agree_with_the_suite():
    s = suite()
    sections = _walk("app_pages/plumbing.py")
    assert [x[0] for x in sections] == ["Same exam", "What HELM publishes"]
    (_, text, m) = sections[0]
    text += " ".join(t for _, t, _ in sections[1:])
    assert "Core scenarios" not in m  # the suite has none of classic's core scenarios
    assert m["Scenarios"] == str(len(s["scenarios"]))
    assert m["Models"] == str(len(s["models"]))
    assert m["Metric groups"] == f"{len(s['groups'])} of 7"
    assert m["Accuracy measured"] == f"{s['accuracy_measured'] / s['accuracy_cells']:.1%}"
    assert "none of them one of classic's 16 core scenarios" in text
    assert f"each column one of the {len(s['scenarios'])} scenarios of {NAME}" in text
    for false in ("each column one of the 16 core scenarios", "Newer models were not run on every scenario",
                  "not in the 2022 paper's cohort", "all in the 2022 paper's cohort", "# trials"):
        assert false not in text, false


def test_home_shows_a_prompt_and_completion_of_the_suite_itself():
    """The exam-paper card on home is the loaded suite's own first run with instances (not a bundled run), and its
    link opens that run on Prompts & Completions."""
    at = open_story_page("app_pages/plumbing.py", section="What HELM publishes")
    t = _text(at)
    assert "a real bAbI prompt and Pythia (70M)'s answer" in html.unescape(t)  # the slide's point
    assert f"A prompt and completion from {NAME}" in t and "Pythia (70M) on bAbI, instance id1101" in t
    assert "meta/llama-3-8b-chat" not in t
    assert "Completion: ' cat' (correct, probability 49.7%)" in [x.value for x in at.text]
    q = page_links(at)["Every prompt and completion of this run in Prompts & Completions"]
    assert q == {"runs_model": "Pythia (70M)", "runs_scenario": "bAbI", "run": "babi_qa:task=15,model=eleutherai_pythia-70m"}
    runs = open_page("app_pages/runs.py", query={"cohort": "all", **q})
    assert runs.selectbox(key="run").value == q["run"]


def test_data_page_maps_every_column_and_agrees_with_home():
    s = suite()
    (_, text, m), = _walk("app_pages/data.py")
    assert "left out" not in text  # Macro-F1, Max prob and Observed inference time (s) all belong to a group
    assert m["Scenarios"] == str(len(s["scenarios"]))
    assert m["Metric groups"] == f"{len(s['groups'])} of 7"  # the home page's headline, same words
    assert (f"Grid cells (the suite's {len(s['scenarios'])} scenarios × the seven metric groups, as the Grid page "
            f"draws them): {s['grid_measured']} measured, {s['grid_cells'] - s['grid_measured']} blank, of "
            f"{s['grid_cells']}.") in text
    assert f"{s['accuracy_measured']} of {s['accuracy_cells']}" in text
    assert "Missing 16 of the 16 core scenarios" not in text
    (_, home, hm) = _walk("app_pages/plumbing.py")[0]
    assert (hm["Metric groups"], hm["Scenarios"]) == (m["Metric groups"], m["Scenarios"])
    assert f"{s['accuracy_measured'] / s['accuracy_cells']:.1%}" in text and hm["Accuracy measured"] in text


def test_grid_draws_the_suites_own_scenarios():
    s = suite()
    sections = _walk("app_pages/grid.py")
    text = " ".join(t for _, t, _ in sections)
    m = sections[0][2]
    n, k = s["grid_cells"], s["grid_measured"]
    assert f"{len(s['scenarios'])} scenarios × the seven classic metric groups = {n} cells" in text
    assert f"{k} of {n} cells measured, {n - k} blank" in text
    assert m[f"Blank cells · {NAME} data"] == str(n - k)
    assert "Blank cells · paper claim" not in m
    assert "hold no value for metric group(s)" not in text
    missing = [g for g in CLASSIC_GROUPS if g not in s["groups"]]
    assert "none for robustness, fairness, bias and toxicity" in text and len(missing) == 4
    assert "No perturbation was run" in text  # why robustness and fairness are blank (Why blank, schema view)
    for scenario in s["scenarios"]:
        assert scenario in text
    assert "0.000" not in text  # runtimes of ~1e-5 s are written at their scale


def test_grid_cell_detail_writes_runtimes_at_their_scale():
    at = open_story_page("app_pages/grid.py", query={"cell": "SST|efficiency"})
    text = _text(at)
    assert "SST × Efficiency" in text and "µs" in text and "0.000" not in text


def test_grid_chart_rows_are_the_scenarios_and_counts_come_from_what_is_drawn():
    from .helpers import open_chart_data

    s = suite()
    at = open_story_page("app_pages/grid.py", query={"view": "data"})
    cells = open_chart_data(at).dataframe[0].value
    assert list(dict.fromkeys(cells["scenario"])) == s["scenarios"]  # in the order of HELM's own table
    assert len(cells) == s["grid_cells"] and int(cells["measured"].sum()) == s["grid_measured"]
    measured = set(cells.loc[cells["measured"], "metric_group"])
    assert measured == set(s["groups"])
    assert f"{int(cells['measured'].sum())} of {len(cells)} cells measured" in _text(at)


def test_coverage_does_not_call_the_suite_newer_than_the_paper():
    for section, text, m in _walk("app_pages/coverage.py"):
        for false in ("added after the paper", "newer models were measured on fewer scenarios",
                      "where the thinning happened", "core scenarios measured"):
            assert false not in text, (section, false)
        if section == "Coverage jump":
            assert m["2022 paper cohort"] == "classic only"


def test_metrics_profiles_the_groups_the_suite_has():
    s = suite()
    from .helpers import chart_keys

    at = open_story_page("app_pages/metrics.py")
    text = _text(at)
    n = len(s["groups"])
    assert f"{NAME} has no robustness, fairness, bias and toxicity cells" in text
    assert "metrics_profile" in chart_keys(at)
    spec = json.loads(next(c for c in at.get("plotly_chart") if c.proto.id.endswith("metrics_profile")).proto.spec)
    axes = {th for t in spec["data"] for th in t.get("theta", [])}
    assert axes == {g.capitalize() for g in s["groups"]}  # a radar of the suite's 3 groups, no empty spokes
    top = spec["layout"]["margin"]["t"]
    assert top >= 40  # room for the top group's label above the circle
    open_section(at, "Seven groups")
    text = _text(at)
    assert "How HELM classic computes it" in text and "How HELM computes it" not in text
    for metric in ("Macro-F1", "Max prob", "Observed inference time (s)"):
        assert re.search(rf"Its column\(s\) in {re.escape(NAME)}: [^.]*{re.escape(metric)}", text), metric
    assert "in HELM's schema" not in text
    # what the suite's own columns measure, in the words of its schema.json (not classic's ECE or denoised time)
    for metric in ("max_prob", "inference_runtime", "classification_macro_f1"):
        desc = next(m["description"] for m in json.loads((SUITE / "schema.json").read_text())["metrics"]
                    if m["name"] == metric)
        assert f"{s['schema_metrics'][metric]}: {desc.rstrip('.')}." in text, metric
    assert "*What it measures.*" not in text and "What it measures in HELM classic." in text
    calibration = text.split("**Calibration**", 1)[1][:40]
    assert "lower is better" not in calibration  # Max prob has no direction in the suite's schema


@pytest.mark.parametrize("release, name", [(None, "HELM classic v0.4.0"), ("lite", "HELM Lite v1.13.0")])
def test_data_page_back_button_names_the_bundled_release_it_returns_to(release, name):
    at = open_story_page("app_pages/data.py", query={"release": release} if release else None)
    assert at.button(key="data_back").label == f"Back to the bundled {name}"
