"""Chromium: the presenter route as an audience sees it, the desktop's first screen, and the phone.

- Presenter (1280 × 720), light and dark: from `/?present=1`, PageDown through every step of the route. Every step
  must show a chart or a table fully inside the viewport, no chart text under 16 px or under 4.5:1 contrast, no
  chart text outside its chart or over another; the counter moves by exactly one per press, so no slide (a page's
  tab, a stepper's step) is skipped. PageUp goes back one step.
- Desktop (1400 × 900): on every story page the first chart starts on the first screen (checked on the walk of
  every page in test_pages_browser.py).
- Phone (390 × 844, dark): no page scrolls sideways, no chart text falls outside its chart or over another.
"""
from __future__ import annotations

import re

import pytest

from ui import nav

from .helpers import assert_clean, open_url, wait_settled
from .slide_probe import problems

PAGES = nav.available_pages()
COUNTER = re.compile(r"Step (\d+) of (\d+)")


def _counter(page) -> tuple[int, int]:
    m = COUNTER.search(page.locator(".st-key-present_bar").inner_text())
    assert m, page.locator(".st-key-present_bar").inner_text()
    return int(m.group(1)), int(m.group(2))


def _wait_step(page, k: int) -> None:
    page.wait_for_function(
        "k => { const b = document.querySelector('.st-key-present_bar');"
        " return b && new RegExp('Step ' + k + ' of ').test(b.innerText); }", arg=k, timeout=30_000)
    wait_settled(page)


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_presenter_route_every_step_shows_its_visual_on_stage(server, browser, theme):
    ctx = browser.new_context(viewport={"width": 1280, "height": 720}, color_scheme=theme)
    page = ctx.new_page()
    page.console_errors = []  # type: ignore[attr-defined]
    page.on("pageerror", lambda e: page.console_errors.append(str(e)))  # type: ignore[attr-defined]
    found: list[str] = []
    try:
        open_url(page, f"{server}/?present=1")
        k, n = _counter(page)
        assert k == 1 and n >= 30, (k, n)
        for step in range(1, n + 1):
            got, total = _counter(page)
            assert (got, total) == (step, n), f"expected step {step} of {n}, the bar says {got} of {total}"
            assert_clean(page)
            where = page.locator(".st-key-present_bar").inner_text().replace("\n", " ")
            found += [f"step {step} ({where[:90]}): {p}" for p in problems(page, "presenter")]
            if step < n:
                page.keyboard.press("PageDown")
                _wait_step(page, step + 1)
        assert page.get_by_role("button", name="Next").is_disabled()
        page.keyboard.press("PageUp")
        _wait_step(page, n - 1)
        assert_clean(page)
    finally:
        ctx.close()
    assert not found, "\n".join(found)


def test_phone_no_page_scrolls_sideways_and_chart_labels_stay_inside(server, browser):
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, color_scheme="dark", is_mobile=True,
                              has_touch=True)
    page = ctx.new_page()
    found: list[str] = []
    try:
        for spec in PAGES:
            open_url(page, f"{server}/{spec.url_path}")
            assert_clean(page)
            found += [f"{spec.url_path or 'home'}: {p}" for p in problems(page, "phone")]
    finally:
        ctx.close()
    assert not found, "\n".join(found)
