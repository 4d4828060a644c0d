"""Open every page with garbage values for every known query key and with unknown keys:
a notice, never an exception."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from helm_core import escape
from tests import hostile_names as H
from tests.fuzz_config import SEEDS
from ui import nav

from . import literal_helpers as L
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


HOSTILE_VALUES = GARBAGE + [*H.NAMES, "&#95;&lt;", "\\*not\\_bold\\*", "`code` span`", "core_scenarios",
                            "zz_hostile", "Calibration", "Mean win rate", f"{H.SCENARIO}|accuracy"]


@pytest.fixture(scope="module")
def hostile_suite(tmp_path_factory):
    """The 0516 suite with hostile model, scenario, metric and table names (hostile_names.write_suite)."""
    return H.write_suite(tmp_path_factory.mktemp("hostile") / "out")


@pytest.mark.parametrize("path", ["leaderboard", "data", "grid", "metrics"])
def test_garbage_query_values_on_a_loaded_suite(set_helm_output, hostile_suite, path):
    """On a suite with groups files the leaderboard declares a key per group file and per table (lb_group,
    lb_table_<group>, lb_column_<table>, lb_column_<group>_<table>); the grid and the metrics page take a cell
    (`Scenario|group`) whose scenario holds a `|` itself: garbage, Markdown-laden values and the suite's own hostile
    names in each, one page open per seed, never raise; the open tab and the pickers keep valid values only, and
    every name on the page still reads literally."""
    set_helm_output(hostile_suite)
    spec = nav.spec_for(path)
    keys = sorted(open_page(spec.file, query={"cohort": "all"}).session_state["_qp_allowed"])
    if path == "leaderboard":
        assert {"lb_group", "lb_table", "lb_table_4", "lb_column_0", "lb_column_4_0"} <= set(keys)
    for seed in range(max(SEEDS, 3)):
        rng = random.Random(seed)
        query = {k: rng.choice(HOSTILE_VALUES) for k in keys if k not in ("present", "follow")}
        at = open_page(spec.file, query={**query, "cohort": "all"})
        assert L.markdown_problems(L.markdown_sources(at), H.NAMES) == []
        if path == "leaderboard":
            groups = at.selectbox(key="lb_group")
            assert groups.value in groups.options
            label = [t.label for t in section_tabs(at)[1] if t.children]
            assert len(label) == 1


@pytest.mark.parametrize("key", ["cohort", "unknown`key` *with* <b>marks</b> &amp; more"])
def test_a_link_value_is_shown_back_literally(key):
    """The notice for a bad or unknown link value quotes it literally (escaped for Markdown after the cut, not in a
    code span that a backtick would close): its text reads back as the value, shortened with "…"."""
    value = "`x` *b* <i>&amp; $y$ [l](http://e.x) " + "z" * 60
    at = open_page(None, query={key: value})
    toasts = [str(t.value) for t in at.toast]
    assert L.markdown_problems(toasts, []) == []
    shown = escape.unmarkdown(" ".join(toasts))
    if key == "cohort":
        assert f"“cohort={value[:40]}…”" in shown
    else:
        assert f"“{key[:30]}…”" in shown
    for t in toasts:  # every mark of the value escaped: no code span, emphasis, tag or link survives
        assert escape.unmarkdown(t).count("`") == t.count("\\`")
