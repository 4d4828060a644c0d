"""Presenter mode's keys in Chromium. (Accessible names of charts and widgets are checked on the walk of every page
and section in test_pages_browser.py; the main chart's fit on a 1280 × 720 screen in test_layout_browser.py.)"""
from __future__ import annotations

import re

from ui import nav

from .helpers import assert_clean, open_url, wait_settled

PAGES = nav.available_pages()


def test_presenter_mode_walks_sections_with_the_keyboard(server, browser):
    ctx = browser.new_context(viewport={"width": 1280, "height": 720})
    page = ctx.new_page()
    open_url(page, f"{server}/?present=1")
    assert page.locator('section[data-testid="stSidebar"]').is_hidden()
    assert f"Section 1 of {len(PAGES)}" in page.locator('[data-testid="stMain"]').inner_text()
    page.keyboard.press("PageDown")
    page.wait_for_url(re.compile(rf"/{PAGES[1].url_path}"), timeout=20_000)
    wait_settled(page)
    assert "present=1" in page.url
    assert f"Section 2 of {len(PAGES)}" in page.locator('[data-testid="stMain"]').inner_text()
    page.keyboard.press("PageUp")
    page.wait_for_function(f"() => !location.pathname.includes('{PAGES[1].url_path}')", timeout=20_000)
    wait_settled(page)
    assert "Section 1 of" in page.locator('[data-testid="stMain"]').inner_text()
    ctx.close()


def test_presenter_keys_step_through_a_pages_tabs(server, browser):
    """PageDown walks the open page's slides on the route (its section tabs) before the next page; PageUp from a
    page's first slide lands on the previous page's last one. The bar says "Step k of n" and names the slide."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 720})
    page = ctx.new_page()
    open_url(page, f"{server}/sensitivity?present=1")
    tabs = [t.strip() for t in page.locator('[data-testid="stMain"] [role="tab"]').all_inner_texts()]
    assert len(tabs) >= 3
    bar = page.locator(".st-key-present_bar")

    def step() -> tuple[int, int]:
        k, n = re.search(r"Step (\d+) of (\d+)", bar.inner_text()).groups()
        return int(k), int(n)

    first, total = step()
    assert tabs[0] in bar.inner_text()
    for i, label in enumerate(tabs[1:], start=1):  # classic's paper cohort: every slide of the page is on the route
        page.keyboard.press("PageDown")
        # (presenter mode hides the tab strip: the bar names the slide)
        page.get_by_role("tab", name=label, exact=True, include_hidden=True).and_(
            page.locator('[aria-selected="true"]')).wait_for(state="attached", timeout=20_000)
        wait_settled(page)
        assert step() == (first + i, total) and label in bar.inner_text()
        assert "/sensitivity" in page.url and "present=1" in page.url
    idx = next(i for i, p in enumerate(PAGES) if p.url_path == "sensitivity")
    page.keyboard.press("PageDown")  # past the last tab: the next page
    page.wait_for_url(re.compile(rf"/{PAGES[idx + 1].url_path}"), timeout=20_000)
    wait_settled(page)
    assert step() == (first + len(tabs), total)
    page.keyboard.press("PageUp")  # back: the last tab of the page before
    page.wait_for_url(re.compile(r"/sensitivity"), timeout=20_000)
    wait_settled(page)
    assert step() == (first + len(tabs) - 1, total)
    assert page.get_by_role("tab", name=tabs[-1], exact=True, include_hidden=True).get_attribute("aria-selected") \
        == "true"
    assert_clean(page)
    ctx.close()

