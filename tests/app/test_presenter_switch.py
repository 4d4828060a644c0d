"""Presenter mode's page steps: a Previous/Next press that leaves the open page switches before the shell (sidebar,
presenter bar) is drawn, so the run the switch interrupts draws nothing; steps within a page's tabs stay as they
were (tests/app/test_sections.py)."""
from __future__ import annotations

import pytest

from ui import nav, presenter

from .helpers import open_page, texts

PAGES = nav.available_pages()


@pytest.fixture
def bar_calls(monkeypatch):
    calls = []
    real = presenter.bar
    monkeypatch.setattr(presenter, "bar", lambda url_path: calls.append(url_path) or real(url_path))
    return calls


def _counter(at) -> str:
    return next(str(m.value) for m in at.markdown if str(m.value).startswith("**Section "))


def test_next_from_a_page_without_tabs_draws_the_bar_once(bar_calls):
    at = open_page(None, query={"present": "1"})  # the home page: no section tabs
    assert _counter(at).startswith(f"**Section 1 of {len(PAGES)}**")
    bar_calls.clear()
    at.button(key="present_next").click().run()
    assert not at.exception
    assert PAGES[1].title in texts(at) and _counter(at).startswith(f"**Section 2 of {len(PAGES)}**")
    assert bar_calls == [PAGES[1].url_path]  # not first on the home page for the run the switch threw away


def test_previous_from_a_pages_first_tab_draws_the_bar_once(bar_calls):
    spec = next(p for p in PAGES if p.url_path == "coverage")
    at = open_page(spec.file, query={"present": "1"})
    assert "tab 1 of" in _counter(at)
    bar_calls.clear()
    at.button(key="present_prev").click().run()
    assert not at.exception
    before = PAGES[PAGES.index(spec) - 1]
    assert before.title in texts(at)
    assert bar_calls == [before.url_path]


def test_a_step_within_the_tabs_stays_on_the_page(bar_calls):
    spec = next(p for p in PAGES if p.url_path == "coverage")
    at = open_page(spec.file, query={"present": "1"})
    bar_calls.clear()
    at.button(key="present_next").click().run()
    assert not at.exception
    assert spec.title in texts(at) and "tab 2 of" in _counter(at)
    assert bar_calls == ["coverage"]
