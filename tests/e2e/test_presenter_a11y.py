"""Presenter mode and accessibility, in Chromium."""
from __future__ import annotations

import re

import pytest

from ui import nav

from .helpers import assert_clean, each_section, open_url, wait_settled

PAGES = nav.available_pages()

NAME_JS = """e => (e.getAttribute('aria-label') || (e.labels && e.labels[0] && e.labels[0].innerText) ||
  (e.getAttribute('aria-labelledby') || '').split(' ').map(i => (document.getElementById(i) || {}).innerText || '').join(' ') ||
  (e.closest('label') && e.closest('label').innerText) || e.innerText || e.getAttribute('title') || '').trim()"""
ROLES = ["slider", "combobox", "radio", "checkbox", "switch", "spinbutton", "textbox", "button", "tab"]


@pytest.mark.parametrize("spec", PAGES, ids=[p.url_path or "home" for p in PAGES])
def test_charts_have_text_alternatives_and_widgets_have_labels(server, page, spec):
    open_url(page, f"{server}/{spec.url_path}")
    for section in each_section(page):
        assert_clean(page)
        _check_names(page, spec, section)


def _check_names(page, spec, section) -> None:
    where = f"{spec.url_path or 'home'}" + (f" · {section}" if section else "")
    charts = page.locator('[data-testid="stPlotlyChart"]')
    for i in range(charts.count()):
        label = charts.nth(i).get_attribute("aria-label") or ""
        assert len(label) > 20, f"chart {i} on {where} has no useful text alternative: {label!r}"
    main = page.locator('[data-testid="stMain"], [data-testid="stSidebar"]')
    unnamed = []
    for role in ROLES:
        els = main.get_by_role(role)
        for i in range(els.count()):
            el = els.nth(i)
            if not el.is_visible():
                continue
            if not el.evaluate(NAME_JS):
                unnamed.append(f"{role} #{i}: {el.evaluate('e => e.outerHTML.slice(0, 160)')}")
    assert not unnamed, unnamed


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


# Pages without a chart (text, stepper, tables, upload): the others must put their main chart on the first screen.
NO_CHART = {"limits", "threads", "references", "runs", "data", "leaderboard"}


@pytest.mark.parametrize("spec", PAGES, ids=[p.url_path or "home" for p in PAGES])
def test_presenter_main_chart_fits_1280x720(server, browser, spec):
    ctx = browser.new_context(viewport={"width": 1280, "height": 720})
    page = ctx.new_page()
    open_url(page, f"{server}/{spec.url_path}?present=1")
    assert_clean(page)
    charts = page.locator('[data-testid="stPlotlyChart"]')
    if spec.url_path in NO_CHART:
        assert charts.count() == 0, f"{spec.url_path} has a chart now: check that it fits and drop it from NO_CHART"
    else:
        assert charts.count() > 0
        box = charts.first.bounding_box()
        assert box is not None
        assert box["y"] >= 0 and box["y"] + box["height"] <= 720 + 1, f"main chart at {box} does not fit 1280×720"
        # Nothing scrolled: the first screen is what the audience sees.
        assert page.evaluate("() => (document.querySelector('[data-testid=\"stMain\"]') || {}).scrollTop || 0") == 0
    ctx.close()
