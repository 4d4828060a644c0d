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
    """PageDown walks the open page's section tabs before the next page; PageUp from a page's first tab lands
    on the previous page's last tab."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 720})
    page = ctx.new_page()
    open_url(page, f"{server}/sensitivity?present=1")
    tabs = [t.strip() for t in page.locator('[data-testid="stMain"] [role="tab"]').all_inner_texts()]
    assert len(tabs) >= 3
    main = page.locator('[data-testid="stMain"]')
    assert f"tab 1 of {len(tabs)}" in main.inner_text()
    for i, label in enumerate(tabs[1:], start=2):
        page.keyboard.press("PageDown")
        page.get_by_role("tab", name=label, exact=True).and_(page.locator('[aria-selected="true"]')).wait_for(
            timeout=20_000)
        wait_settled(page)
        assert f"tab {i} of {len(tabs)}" in main.inner_text()
        assert "/sensitivity" in page.url and "present=1" in page.url
    idx = next(i for i, p in enumerate(PAGES) if p.url_path == "sensitivity")
    page.keyboard.press("PageDown")  # past the last tab: the next page
    page.wait_for_url(re.compile(rf"/{PAGES[idx + 1].url_path}"), timeout=20_000)
    wait_settled(page)
    assert f"Section {idx + 2} of {len(PAGES)}" in main.inner_text()
    page.keyboard.press("PageUp")  # back: the last tab of the page before
    page.wait_for_url(re.compile(r"/sensitivity"), timeout=20_000)
    wait_settled(page)
    assert f"tab {len(tabs)} of {len(tabs)}" in main.inner_text()
    assert page.get_by_role("tab", name=tabs[-1], exact=True).get_attribute("aria-selected") == "true"
    assert_clean(page)
    ctx.close()

