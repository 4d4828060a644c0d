"""Pages whose sections are lazy tabs (ui.components.sections): every section of every such page runs cleanly,
only the open section is built, and every section declares the same query keys, so no link parameter of a
closed section is dropped while another one is open."""
from __future__ import annotations

import pytest

from ui import nav

from .helpers import open_page, section_labels, section_tabs, texts
from .test_all_pages import black_marks

PAGES = nav.available_pages()
# The pages with several charts: built one section at a time so the first load draws one section (DESIGN.md §7);
# and Prompts & Completions, whose views of the bundled runs (side by side, trials, browser) are built one at a time.
SECTIONED = {"coverage", "metrics", "grid", "calibration", "sensitivity", "podium", "cost", "studies", "releases", "runs"}
BY_PATH = {p.url_path: p for p in PAGES}
RELEASE_NAMES = {"classic": "HELM classic v0.4.0", "lite": "HELM Lite v1.13.0", "capabilities": "HELM Capabilities v1.15.0"}


def _sections(spec) -> tuple[str, list[str]]:
    at = open_page(spec.file)
    key, _ = section_tabs(at)
    return key, section_labels(at)


def test_exactly_the_multi_chart_pages_have_sections():
    have = {p.url_path for p in PAGES if section_tabs(open_page(p.file))[0] is not None}
    assert have == SECTIONED


@pytest.mark.parametrize("path", sorted(SECTIONED))
@pytest.mark.parametrize("cohort,release", [("all", "classic"), ("paper", "classic"), ("all", "lite"),
                                            ("paper", "capabilities")])
def test_every_section_builds_alone(path, cohort, release):
    """Every section of every sectioned page, alone, on each bundled release (the cohort does not filter a later
    release: its radio is disabled there), with the release named on the page."""
    spec = BY_PATH[path]
    key, labels = _sections(spec)
    assert key == f"{path}_section"
    assert len(labels) >= 2 and len(set(labels)) == len(labels)
    declared = None
    for label in labels:
        at = open_page(spec.file, query={key: label, "cohort": cohort, "release": release})
        _, tabs = section_tabs(at)
        assert [len(t.children) > 0 for t in tabs] == [t.label == label for t in tabs], label
        assert spec.title in texts(at)
        assert f"Data: {RELEASE_NAMES[release]}" in texts(at)
        assert not black_marks(at), (label, black_marks(at))
        keys = set(at.session_state["_qp_allowed"])
        if declared is None:
            declared = keys
        assert keys == declared, f"{path} · {label}: {sorted(keys ^ declared)}"


@pytest.mark.parametrize("path", sorted(SECTIONED))
def test_every_section_runs_in_presenter_mode(path):
    spec = BY_PATH[path]
    key, labels = _sections(spec)
    for label in labels:
        at = open_page(spec.file, query={key: label, "present": "1"})
        assert "Section " in texts(at)


def _counter(at) -> str:
    return next(m.value for m in at.markdown if str(m.value).startswith("**Section "))


def test_presenter_next_and_previous_step_through_the_tabs():
    """PageDown / Next walks a page's tabs, then moves to the next page; Previous comes back to the last tab."""
    spec = BY_PATH["sensitivity"]
    key, labels = _sections(spec)
    at = open_page(spec.file, query={"present": "1"})
    n = PAGES.index(spec) + 1
    assert _counter(at) == f"**Section {n} of {len(PAGES)}** · {spec.section} · tab 1 of {len(labels)}"
    for i, label in enumerate(labels[1:], start=2):
        at.button(key="present_next").click().run()
        assert at.session_state[key] == label
        assert [t.label for t in section_tabs(at)[1] if t.children] == [label]
        assert _counter(at).endswith(f"tab {i} of {len(labels)}")
    at.button(key="present_next").click().run()  # past the last tab: the next page
    nxt = PAGES[n]
    assert f"Section {n + 1} of {len(PAGES)}" in _counter(at) and nxt.title in texts(at)
    # (AppTest's next run would rerun the page it switched to itself, so go to the next page the AppTest way.)
    at.switch_page(nxt.file)
    at.query_params["present"] = "1"
    at.run()
    at.button(key="present_prev").click().run()  # back from the next page's first tab: this page's last tab
    assert spec.title in texts(at)
    assert _counter(at).endswith(f"tab {len(labels)} of {len(labels)}")
    assert [t.label for t in section_tabs(at)[1] if t.children] == [labels[-1]]
