"""Presenter mode and accessibility, in Chromium."""
from __future__ import annotations

import re

import pytest

from ui import nav

from .helpers import assert_clean, open_url, wait_settled

PAGES = nav.available_pages()

NAME_JS = """e => (e.getAttribute('aria-label') || (e.labels && e.labels[0] && e.labels[0].innerText) ||
  (e.getAttribute('aria-labelledby') || '').split(' ').map(i => (document.getElementById(i) || {}).innerText || '').join(' ') ||
  (e.closest('label') && e.closest('label').innerText) || e.innerText || e.getAttribute('title') || '').trim()"""
ROLES = ["slider", "combobox", "radio", "checkbox", "switch", "spinbutton", "textbox", "button"]


@pytest.mark.parametrize("spec", PAGES, ids=[p.url_path or "home" for p in PAGES])
def test_charts_have_text_alternatives_and_widgets_have_labels(server, page, spec):
    open_url(page, f"{server}/{spec.url_path}")
    assert_clean(page)
    charts = page.locator('[data-testid="stPlotlyChart"]')
    for i in range(charts.count()):
        label = charts.nth(i).get_attribute("aria-label") or ""
        assert len(label) > 20, f"chart {i} on {spec.url_path or 'home'} has no useful text alternative: {label!r}"
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


# Pages without a chart (text, stepper, tables, upload): the others must put their main chart on the first screen.
NO_CHART = {"limits", "threads", "references", "runs", "data"}


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
