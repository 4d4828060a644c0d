"""HELM's Leaderboard in Chromium, on a server started with a suite like crfm-helm 0.5.16 output (HELM_OUTPUT):
the slide's bars sit above HELM's tables; a click on a table cell picks that cell (in the URL, the column under
its own table's key), and its link opens Prompts & Completions on the runs behind it; every groups file opens."""
from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import serving
from .helpers import assert_clean, open_url, wait_settled

SUITE = Path(__file__).resolve().parents[1] / "fixtures" / "helm_output_0516"
JOINT = "lsat_qa:task=all,method=multiple_choice_joint,model=eleutherai_pythia-70m"
SEPARATE = "lsat_qa:task=all,method=multiple_choice_separate_original,model=eleutherai_pythia-70m"


@pytest.fixture(scope="module")
def suite_server():
    """A server started as a local user would: HELM_OUTPUT points at the 0516 suite."""
    with serving({"HELM_OUTPUT": str(SUITE)}) as proc:
        yield proc.url


def test_a_cell_click_opens_its_runs(suite_server, page):
    open_url(page, f"{suite_server}/leaderboard?cohort=all")
    assert_clean(page)
    main = page.locator('[data-testid="stMain"]')
    chart = main.locator('[data-testid="stPlotlyChart"]').first
    grid_box = main.locator('[data-testid="stDataFrame"]').first
    grid_box.wait_for(timeout=60_000)
    assert chart.bounding_box()["y"] < grid_box.bounding_box()["y"]  # the slide's bars, then HELM's table
    grid = page.locator('[data-testid="stDataFrame"]').first
    grid.locator('[role="columnheader"]').nth(5).wait_for(state="attached", timeout=60_000)
    headers = [h.inner_text().strip() for h in grid.locator('[role="columnheader"]').all()]
    assert headers == ["Model/adapter", "Mean win rate", "bAbI - EM", "SST - Macro-F1", "LegalSupport - EM", "LSAT - EM"]
    # The grid is drawn on a canvas: click the bottom-right cell (Pythia (70M), LSAT - EM: HELM's 0.7, the
    # merge of its joint and separate runs).
    grid.scroll_into_view_if_needed()  # below the slide's bars
    page.wait_for_timeout(300)
    box = grid.bounding_box()
    page.mouse.click(box["x"] + box["width"] - 30, box["y"] + box["height"] - 17)
    # (Text from the data is escaped Markdown: a word joiner follows a colon, helm_core.escape.)
    page.wait_for_function("() => document.body.innerText.replaceAll('\u2060', '')"
                           ".includes('Pythia (70M) · LSAT - EM: 0.7')", timeout=60_000)
    wait_settled(page)
    # The click set the cell pickers, which are in the URL (a shareable cell).
    page.wait_for_function("() => location.search.includes('lb_column_0=LSAT')", timeout=60_000)
    assert "lb_model=Pythia+%2870M%29" in page.url
    link = page.get_by_role("link", name="Open the 2 runs behind this cell in Prompts & Completions (Pythia (70M) on LSAT)")
    link.click()
    page.wait_for_url("**/runs?*", timeout=60_000)
    wait_settled(page)
    assert_clean(page)
    # (The run is the first of the filtered list, the select box's default, so the URL no longer spells it.)
    assert "runs_scenario=LSAT" in page.url and "runs_model=Pythia" in page.url
    main = page.locator('[data-testid="stMain"]').inner_text()
    assert "Pythia (70M) · LSAT · method multiple_choice_joint" in main
    assert "Run (2 match)" in main  # the cell's two runs: joint and separate
    assert "Two runs side by side" in main and "Run spec" in main


def test_group_choice_opens_its_own_tables_without_a_bad_link_notice(suite_server, page):
    from .helpers import open_section

    open_url(page, f"{suite_server}/leaderboard?cohort=all")
    open_section(page, "Calibration")
    assert "lb_table=Calibration" in page.url
    page.locator('[data-testid="stMain"] [data-testid="stSelectbox"]').filter(has_text="Group file").click()
    page.get_by_role("option", name="lsat_qa").click()
    page.wait_for_function("() => location.search.includes('lb_group=lsat_qa')", timeout=60_000)
    wait_settled(page)
    assert_clean(page)
    tabs = [t.strip().replace("\u2060", "") for t in page.locator('[data-testid="stMain"] [role="tab"]').all_inner_texts()]
    assert tabs == ["task: all"]  # HELM's title of the lsat_qa file's one table, shown as written
    page.wait_for_timeout(500)
    assert page.locator('[data-testid="stToast"]').count() == 0  # the old group's tab is no bad link here


def test_every_groups_file_opens_including_one_titled_empty(suite_server, page):
    """Each per-scenario groups file of the suite opens (two of them HELM titled "": their tab is the run group),
    the slide's point naming the file and the table."""
    open_url(page, f"{suite_server}/leaderboard?cohort=all")
    for group, tab in (("babi_qa", "task: 15"), ("legal_support", "LegalSupport"), ("sst", "SST")):
        page.locator('[data-testid="stMain"] [data-testid="stSelectbox"]').filter(has_text="Group file").click()
        page.get_by_role("option", name=group).click()
        page.wait_for_function(f"() => location.search.includes('lb_group={group}')", timeout=60_000)
        wait_settled(page)
        assert_clean(page)
        tabs = [t.strip().replace("\u2060", "")
                for t in page.locator('[data-testid="stMain"] [role="tab"]').all_inner_texts()]
        assert tabs == [tab]
        shown = page.locator('[data-testid="stMain"]').inner_text().replace("\u2060", "")
        assert f"{group}.json, 1 table: in {tab}," in shown
