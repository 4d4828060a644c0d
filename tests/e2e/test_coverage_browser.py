"""Browser tests for the coverage story: Core Grid, Coverage Jump, Metric Orbit (render, hover, click, URL state)."""
from __future__ import annotations

import re
from urllib.parse import parse_qs, urlparse

import pytest

from .helpers import another_tab, assert_clean, open_section, open_url, wait_settled

PAGES = {"grid": "16 × 7 Core Grid", "coverage": "Coverage Jump", "metrics": "Metric Orbit"}
CHART_KEYS = {
    "grid": ["grid_cells"],
    # pages with sections (ui.components.sections): each section's label, in order, with the charts it draws
    "coverage": {"Coverage jump": ["coverage_bars"], "Per model": ["coverage_models"],
                 "Per scenario": ["coverage_scenarios"], "Comparable ground": ["coverage_ground"],
                 "Pairwise overlap": ["coverage_overlap"]},
    "metrics": {"Profile": ["metrics_profile"], "Seven groups": [], "Track accuracy": ["metrics_corr", "metrics_pair"]},
}
SECTION_KEYS = {"coverage": "coverage_section", "metrics": "metrics_section"}


def open_page(page, url: str, title: str) -> None:
    open_url(page, url)
    # the router's run must have happened (the sidebar carries the cohort filter), then the page's
    page.get_by_text("Cohort", exact=True).first.wait_for(timeout=60_000)
    page.locator('[data-testid="stMain"] h1', has_text=title).wait_for(timeout=60_000)
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


def test_grid_has_112_cells_with_hover(server, page):
    open_page(page, f"{server}/grid?cohort=all", PAGES["grid"])
    points = chart(page, "grid_cells").locator(".scatterlayer .point")
    assert points.count() == 112
    # the first trace holds the measured cells; its first point is MMLU × Accuracy
    text = hover_text(page, "grid_cells", chart(page, "grid_cells").locator(".scatterlayer .trace:has(.point)").first
                      .locator(".point").first)
    assert "MMLU × Accuracy" in text and "Models with a value: 67 of 67" in text and "Best:" in text


def test_grid_blank_cell_hover_gives_the_reason(server, page):
    open_page(page, f"{server}/grid?view=schema", PAGES["grid"])
    traces = chart(page, "grid_cells").locator(".scatterlayer .trace:has(.point)")
    # traces: measured, listed-but-empty (∅: IMDB and MS MARCO bias/toxicity), blank, blank-but-the-paper-counts-it
    assert traces.nth(1).locator(".point").count() == 6
    blanks = traces.nth(2).locator(".point")
    assert blanks.count() == 14  # the paper's 14; the 2 MS MARCO calibration cells are drawn apart
    assert traces.nth(3).locator(".point").count() == 2
    text = hover_text(page, "grid_cells", blanks.first)
    assert "Blank:" in text and "[verified]" in text


def test_grid_view_and_clicked_cell_round_trip(server, browser, page):
    open_page(page, f"{server}/grid?cohort=all", PAGES["grid"])
    page.locator('[data-testid="stRadio"]').filter(has_text="schema").get_by_text("data", exact=True).click()
    page.wait_for_function("() => location.search.includes('view=data')", timeout=60_000)
    wait_settled(page)
    measured = chart(page, "grid_cells").locator(".scatterlayer .trace:has(.point)").first.locator(".point")
    x, y = centre(measured.nth(6))  # BoolQ × Calibration (MMLU has 5 measured cells before it)
    page.mouse.click(x, y)
    page.wait_for_function("() => location.search.includes('cell=')", timeout=60_000)
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


def test_grid_sections_share_the_view(server, page):
    """Only the open section is built; the view picked in the grid is the one the blank-cell section explains,
    and a link opens a section in its view."""
    from .helpers import open_section

    open_page(page, f"{server}/grid", PAGES["grid"])
    tabs = page.get_by_role("tab")
    assert [tabs.nth(i).inner_text().strip() for i in range(tabs.count())] == ["Grid", "Where views differ", "Why blank"]
    main = page.locator('[data-testid="stMain"]')
    page.locator('[data-testid="stRadio"]').filter(has_text="schema").get_by_text("schema", exact=True).click()
    page.wait_for_function("() => location.search.includes('view=schema')", timeout=60_000)
    wait_settled(page)
    open_section(page, "Why blank")
    q = query(page)
    assert q["grid_section"] == ["Why blank"] and q["view"] == ["schema"]
    assert "Why each blank cell is blank (schema view)" in main.inner_text()
    assert page.locator('[data-testid="stPlotlyChart"]').count() == 0
    open_section(page, "Where views differ")
    assert "cells of the grid are counted differently" in main.inner_text()
    assert page.locator('[data-testid="stPlotlyChart"]').count() == 0
    open_section(page, "Grid")
    assert "96 of 112 cells measured" in main.inner_text() and "view=schema" in page.url
    assert chart(page, "grid_cells").locator(".scatterlayer .point").count() == 112
    assert_clean(page)
    with another_tab(page) as fresh:
        open_page(fresh, f"{server}/grid?grid_section=Why+blank&view=data", PAGES["grid"])
        assert "Why each blank cell is blank (data view)" in fresh.locator('[data-testid="stMain"]').inner_text()
        assert fresh.get_by_role("tab", name="Why blank", exact=True).get_attribute("aria-selected") == "true"
        assert_clean(fresh)


def test_coverage_ground_round_trip(server, browser, page):
    open_page(page, f"{server}/coverage", PAGES["coverage"])
    assert page.locator(".st-key-ground").count() == 0  # the tool is in its own section
    open_section(page, "Comparable ground")
    assert query(page)["coverage_section"] == ["Comparable ground"]
    main = page.locator('[data-testid="stMain"]')
    assert "12 of 16" in main.locator('[data-testid="stMetric"]').filter(has_text="Scenarios all 2 share").inner_text()
    # remove "T5 (11B)" from the tool, so only Anthropic-LM is left
    tool = page.locator(".st-key-ground")
    tool.get_by_role("button", name="Remove T5 (11B)").click()
    page.wait_for_function("() => location.search.includes('ground=')", timeout=60_000)
    wait_settled(page)
    assert query(page)["ground"] == ["Anthropic-LM v4-s3 (52B)"]
    url = page.url
    # the tool has its choice again when its section reopens (Streamlit takes an unmounted widget's value out of
    # the URL meanwhile, and puts it back), with no notice
    open_section(page, "Pairwise overlap")
    assert page.locator('[data-testid="stToast"]').count() == 0
    open_section(page, "Comparable ground")
    assert "16 of 16" in main.locator('[data-testid="stMetric"]').filter(has_text="Scenarios all 1 share").inner_text()
    assert query(page)["ground"] == ["Anthropic-LM v4-s3 (52B)"]
    ctx = browser.new_context(viewport={"width": 1400, "height": 900})
    fresh = ctx.new_page()
    try:
        open_page(fresh, url, PAGES["coverage"])
        metric = fresh.locator('[data-testid="stMetric"]').filter(has_text="Scenarios all 1 share")
        assert "16 of 16" in metric.inner_text()
        assert fresh.get_by_role("tab", name="Comparable ground", exact=True).get_attribute("aria-selected") == "true"
        # a link's tool choice survives while the first section is open, and reaches the tool
        open_page(fresh, f"{server}/coverage?ground=Anthropic-LM+v4-s3+%2852B%29", PAGES["coverage"])
        assert query(fresh)["ground"] == ["Anthropic-LM v4-s3 (52B)"]
        assert fresh.locator('[data-testid="stToast"]').count() == 0
        open_section(fresh, "Comparable ground")
        metric = fresh.locator('[data-testid="stMetric"]').filter(has_text="Scenarios all 1 share")
        assert "16 of 16" in metric.inner_text()
    finally:
        ctx.close()


@pytest.mark.parametrize("path,value,opens", [("coverage", "Per+scenario", "Per scenario"),
                                              ("coverage", "Nope", "Coverage jump"),
                                              ("metrics", "Track+accuracy", "Track accuracy"),
                                              ("metrics", "Nope", "Profile")])
def test_section_links(server, page, path, value, opens):
    """A link opens its section; a bad value opens the first section, with no exception."""
    open_page(page, f"{server}/{path}?{SECTION_KEYS[path]}={value}", PAGES[path])
    assert_clean(page)
    assert page.get_by_role("tab", name=opens, exact=True).get_attribute("aria-selected") == "true"
    keys = CHART_KEYS[path][opens]
    assert page.locator('[data-testid="stMain"] [data-testid="stPlotlyChart"]').count() == len(keys)
    for key in keys:
        assert chart(page, key).locator(".main-svg").count() > 0, key


def test_metrics_correlation_click_picks_the_pair(server, browser, page):
    open_page(page, f"{server}/metrics", PAGES["metrics"])
    open_section(page, "Track accuracy")
    cells = chart(page, "metrics_corr").locator(".scatterlayer .trace:has(.point)").first.locator(".point")
    text = hover_text(page, "metrics_corr", cells.first)
    assert "MMLU × Calibration" in text and "Spearman" in text
    x, y = centre(cells.nth(1))  # MMLU × Robustness
    page.mouse.click(x, y)
    page.wait_for_function("() => location.search.includes('pair=')", timeout=60_000)
    wait_settled(page)
    assert query(page)["pair"] == ["MMLU|robustness"]
    assert query(page)["metrics_section"] == ["Track accuracy"]
    main_text = page.locator('[data-testid="stMain"]').inner_text()
    assert re.search(r"MMLU: accuracy \(EM\) against Robustness", main_text)
    ctx = browser.new_context(viewport={"width": 1400, "height": 900})
    fresh = ctx.new_page()
    try:
        open_page(fresh, page.url, PAGES["metrics"])
        assert "MMLU: accuracy (EM) against Robustness" in fresh.locator('[data-testid="stMain"]').inner_text()
    finally:
        ctx.close()


def test_metrics_profile_models_carry_across_sections(server, page):
    """The profile's models are one choice: the scatter's section draws the same picker with the same models."""
    open_page(page, f"{server}/metrics?cohort=all", PAGES["metrics"])
    page.locator(".st-key-models").get_by_role("button", name="Remove OPT (175B)").click()
    page.wait_for_function("() => location.search.includes('models=')", timeout=60_000)
    wait_settled(page)
    picked = ["text-davinci-002", "Cohere xlarge v20220609 (52.4B)"]
    assert query(page)["models"] == picked
    open_section(page, "Seven groups")  # the picker is not drawn here
    assert page.locator('[data-testid="stToast"]').count() == 0
    open_section(page, "Track accuracy")
    tool = page.locator(".st-key-models")
    for name in picked:
        assert tool.get_by_role("button", name=f"Remove {name}").count() == 1, name
    assert tool.get_by_role("button", name="Remove OPT (175B)").count() == 0
    assert query(page)["models"] == picked
