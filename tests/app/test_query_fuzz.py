"""Open every page with garbage values for every known query key and with unknown keys:
a notice, never an exception."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from tests.fuzz_config import SEEDS
from ui import nav

from .helpers import open_page, section_labels, section_tabs

ROOT = Path(__file__).resolve().parents[2]
PAGES = nav.available_pages()
GARBAGE = ["", "-1", "999999", "nan", "inf", "<script>alert(1)</script>", "%00", "a,b,,c", "🙂" * 20,
           "../../etc/passwd", "1e309", "true", "null", "{}", "x" * 500]


_KEYS: dict[str, list[str]] = {}


def page_keys(spec) -> list[str]:
    """The query keys a page declares at run time (every `ui.state.allow` call of the run, router included)."""
    if spec.file not in _KEYS:
        at = open_page(spec.file)
        _KEYS[spec.file] = sorted(at.session_state["_qp_allowed"])
    return _KEYS[spec.file]


def known_keys() -> list[str]:
    return sorted({k for spec in PAGES for k in page_keys(spec)})


def test_known_keys_found():
    keys = known_keys()
    assert {"cohort", "access", "present", "view", "step", "recipe", "w_accuracy"} <= set(keys)


@pytest.mark.parametrize("seed", range(SEEDS))
@pytest.mark.parametrize("spec", PAGES, ids=[p.url_path or "home" for p in PAGES])
def test_garbage_query_values(spec, seed):
    rng = random.Random(seed * 7919 + len(spec.url_path))
    query = {k: rng.choice(GARBAGE) for k in page_keys(spec)}
    query["definitely_unknown_key"] = "1"
    at = open_page(spec.file, query=query)
    assert "definitely_unknown_key" not in at.query_params
    if spec.url_path == "":  # AppTest shows toasts of the first page only
        toasts = " ".join(str(t.value) for t in at.toast)
        assert "unknown link parameter" in toasts


@pytest.mark.parametrize("spec", PAGES, ids=[p.url_path or "home" for p in PAGES])
def test_each_key_alone(spec):
    rng = random.Random(len(spec.file))
    for key in page_keys(spec):
        open_page(spec.file, query={key: rng.choice(GARBAGE)})


@pytest.mark.parametrize("spec", PAGES, ids=[p.url_path or "home" for p in PAGES])
def test_garbage_query_values_in_each_section(spec):
    """A closed section's widgets check their link values only once it opens: open each section with garbage
    in every other key."""
    first = open_page(spec.file)
    key = section_tabs(first)[0]
    if key is None:
        return  # a page without sections is covered by the tests above
    rng = random.Random(len(spec.file))
    for label in section_labels(first):
        query = {k: rng.choice(GARBAGE) for k in page_keys(spec) if k != key}
        at = open_page(spec.file, query={**query, key: label})
        assert [t.label for t in section_tabs(at)[1] if t.children] == [label]


SUITE_0516 = ROOT / "tests" / "fixtures" / "helm_output_0516"
HOSTILE_VALUES = GARBAGE + ["my_model *v2* [x] <b>&amp; | $y$ ~z~", "Acc_uracy *T* [t] <t> & | $ ~", "&#95;&lt;",
                            "\\*not\\_bold\\*", "core_scenarios", "Calibration", "Mean win rate"]


@pytest.mark.parametrize("path", ["leaderboard", "data"])
def test_garbage_query_values_on_a_loaded_suite(monkeypatch, path):
    """On a suite with groups files the leaderboard declares a key per group file and per table (lb_group,
    lb_table_<group>, lb_column_<table>, lb_column_<group>_<table>): garbage and Markdown-laden values in each, one
    page open per seed, never raise; the open tab and the pickers keep valid values only."""
    monkeypatch.setenv("HELM_OUTPUT", str(SUITE_0516))
    spec = nav.spec_for(path)
    keys = sorted(open_page(spec.file, query={"cohort": "all"}).session_state["_qp_allowed"])
    if path == "leaderboard":
        assert {"lb_group", "lb_table", "lb_table_4", "lb_column_0", "lb_column_4_0"} <= set(keys)
    for seed in range(max(SEEDS, 3)):
        rng = random.Random(seed)
        query = {k: rng.choice(HOSTILE_VALUES) for k in keys if k not in ("present", "follow")}
        at = open_page(spec.file, query={**query, "cohort": "all"})
        if path == "leaderboard":
            groups = at.selectbox(key="lb_group")
            assert groups.value in groups.options
            label = [t.label for t in section_tabs(at)[1] if t.children]
            assert len(label) == 1
