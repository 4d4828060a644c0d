"""Browser tests for the coverage story: Core Grid, Coverage Jump, Metric Orbit (render, hover, click, URL state)."""
from __future__ import annotations

import re
from urllib.parse import parse_qs, urlparse

import pytest

from .helpers import assert_clean, open_url, wait_settled

PAGES = {"grid": "16 × 7 Core Grid", "coverage": "Coverage Jump", "metrics": "Metric Orbit"}
CHART_KEYS = {
    "grid": ["grid_cells"],
    "coverage": ["coverage_bars", "coverage_models", "coverage_scenarios", "coverage_ground", "coverage_overlap"],
    "metrics": ["metrics_profile", "metrics_corr", "metrics_pair"],
}


@pytest.fixture(scope="module", autouse=True)
def _router_ready(server, browser):
    """Open the app's root once first. Streamlit runs a fresh server in the legacy `pages/`-folder mode (a deep
    link runs the page file without Home.py's router and sidebar) until some session has called st.navigation."""
    ctx = browser.new_context()
    pg = ctx.new_page()
    open_url(pg, server)
    pg.get_by_text("Cohort", exact=True).first.wait_for(timeout=30_000)
    ctx.close()


def open_page(page, url: str, title: str) -> None:
    open_url(page, url)
    # the router's run must have happened (the sidebar carries the cohort filter), then the page's
    page.get_by_text("Cohort", exact=True).first.wait_for(timeout=30_000)
    page.locator('[data-testid="stMain"] h1', has_text=title).wait_for(timeout=30_000)
    wait_settled(page)


def query(page) -> dict[str, list[str]]:
    return parse_qs(urlparse(page.url).query)


def chart(page, key: str):
    return page.locator(f'.st-key-{key} [data-testid="stPlotlyChart"]')


def centre(locator) -> tuple[float, float]:
    locator.scroll_into_view_if_needed()
    bb = locator.bounding_box()
    return bb["x"] + bb["width"] / 2, bb["y"] + bb["height"] / 2


def hover_text(page, key: str, point) -> str:
    x, y = centre(point)
    page.mouse.move(x, y)
    page.wait_for_timeout(400)
    return chart(page, key).locator(".hoverlayer").first.text_content() or ""


@pytest.mark.parametrize("path", list(PAGES))
def test_page_renders_with_every_chart(server, page, path):
    open_page(page, f"{server}/{path}", PAGES[path])
    assert_clean(page)
    for key in CHART_KEYS[path]:
        c = chart(page, key)
        assert c.count() == 1, key
        assert c.locator(".main-svg").count() > 0, key
        label = page.locator(f'.st-key-{key} [role="figure"][aria-label]')
        assert label.count() == 1 and len(label.get_attribute("aria-label")) > 40, key  # the text alternative


def test_grid_has_112_cells_with_hover(server, page):
    open_page(page, f"{server}/grid", PAGES["grid"])
    points = chart(page, "grid_cells").locator(".scatterlayer .point")
    assert points.count() == 112
    # the first trace holds the measured cells; its first point is MMLU × Accuracy
    text = hover_text(page, "grid_cells", chart(page, "grid_cells").locator(".scatterlayer .trace").first
                      .locator(".point").first)
    assert "MMLU × Accuracy" in text and "Models with a value: 67 of 67" in text and "Best:" in text


def test_grid_blank_cell_hover_gives_the_reason(server, page):
    open_page(page, f"{server}/grid?view=schema", PAGES["grid"])
    traces = chart(page, "grid_cells").locator(".scatterlayer .trace")
    # traces: measured, listed-but-empty (∅: IMDB and MS MARCO bias/toxicity), blank, blank-but-the-paper-counts-it
    assert traces.nth(1).locator(".point").count() == 6
    blanks = traces.nth(2).locator(".point")
    assert blanks.count() == 14  # the paper's 14; the 2 MS MARCO calibration cells are drawn apart
    assert traces.nth(3).locator(".point").count() == 2
    text = hover_text(page, "grid_cells", blanks.first)
    assert "Blank:" in text and "[verified]" in text


def test_grid_view_and_clicked_cell_round_trip(server, browser, page):
    open_page(page, f"{server}/grid", PAGES["grid"])
    page.locator('[data-testid="stRadio"]').filter(has_text="schema").get_by_text("data", exact=True).click()
    page.wait_for_function("() => location.search.includes('view=data')", timeout=15_000)
    wait_settled(page)
    measured = chart(page, "grid_cells").locator(".scatterlayer .trace").first.locator(".point")
    x, y = centre(measured.nth(6))  # BoolQ × Calibration (MMLU has 5 measured cells before it)
    page.mouse.click(x, y)
    page.wait_for_function("() => location.search.includes('cell=')", timeout=15_000)
    wait_settled(page)
    q = query(page)
    assert q["view"] == ["data"] and q["cell"] == ["BoolQ|calibration"]
    main = page.locator('[data-testid="stMain"]')
    assert "BoolQ × Calibration" in main.inner_text()
    url = page.url
    ctx = browser.new_context(viewport={"width": 1400, "height": 900})
    fresh = ctx.new_page()
    fresh.console_errors = []  # type: ignore[attr-defined]
    try:
        open_page(fresh, url, PAGES["grid"])
        text = fresh.locator('[data-testid="stMain"]').inner_text()
        assert "BoolQ × Calibration" in text and "What the data holds" in text
        assert "Models with a value: 54 of 67" in text
        assert_clean(fresh)
    finally:
        ctx.close()


def test_coverage_ground_round_trip(server, browser, page):
    open_page(page, f"{server}/coverage", PAGES["coverage"])
    main = page.locator('[data-testid="stMain"]')
    assert "12 of 16" in main.locator('[data-testid="stMetric"]').filter(has_text="Scenarios all 2 share").inner_text()
    # remove "T5 (11B)" from the tool, so only Anthropic-LM is left
    tool = page.locator(".st-key-ground")
    tool.get_by_role("button", name="Remove T5 (11B)").click()
    page.wait_for_function("() => location.search.includes('ground=')", timeout=15_000)
    wait_settled(page)
    assert query(page)["ground"] == ["Anthropic-LM v4-s3 (52B)"]
    url = page.url
    ctx = browser.new_context(viewport={"width": 1400, "height": 900})
    fresh = ctx.new_page()
    try:
        open_page(fresh, url, PAGES["coverage"])
        metric = fresh.locator('[data-testid="stMetric"]').filter(has_text="Scenarios all 1 share")
        assert "16 of 16" in metric.inner_text()
    finally:
        ctx.close()


def test_metrics_correlation_click_picks_the_pair(server, browser, page):
    open_page(page, f"{server}/metrics", PAGES["metrics"])
    cells = chart(page, "metrics_corr").locator(".scatterlayer .trace").first.locator(".point")
    text = hover_text(page, "metrics_corr", cells.first)
    assert "MMLU × Calibration" in text and "Spearman" in text
    x, y = centre(cells.nth(1))  # MMLU × Robustness
    page.mouse.click(x, y)
    page.wait_for_function("() => location.search.includes('pair=')", timeout=15_000)
    wait_settled(page)
    assert query(page)["pair"] == ["MMLU|robustness"]
    main_text = page.locator('[data-testid="stMain"]').inner_text()
    assert re.search(r"MMLU: accuracy \(EM\) against Robustness", main_text)
    ctx = browser.new_context(viewport={"width": 1400, "height": 900})
    fresh = ctx.new_page()
    try:
        open_page(fresh, page.url, PAGES["metrics"])
        assert "MMLU: accuracy (EM) against Robustness" in fresh.locator('[data-testid="stMain"]').inner_text()
    finally:
        ctx.close()
