"""Bring your own HELM output, in Chromium: upload a zip through the real data page and see every page switch
to it; a broken zip leaves the dataset as it was; the runs page (with a server started with HELM_OUTPUT)
shows prompts as text and keeps the chosen run and instance in the URL."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from .conftest import serving, warm
from .helpers import NAV, SUITE, assert_clean, open_url, wait_settled, zip_suite

MMLU = "mmlu:subject=philosophy,method=multiple_choice_joint,model=eleutherai_gpt-j-6b"
BOOLQ = "boolq:model=eleutherai_pythia-1b-v0,data_augmentation=canonical"


def metric(page, label: str) -> str:
    return page.locator('[data-testid="stMetric"]').filter(has_text=label).first.inner_text()


def upload(page, file: Path) -> None:
    page.locator('[data-testid="stFileUploader"] input[type="file"]').set_input_files(str(file))


def go_to(page, title: str) -> None:
    """Navigate inside the app (a reload would start a new session, and uploads live in the session)."""
    page.locator(NAV).get_by_role("link", name=title).first.click()
    page.wait_for_timeout(300)
    wait_settled(page)


def test_upload_switches_every_page(server, page, tmp_path):
    open_url(page, f"{server}/data?cohort=all")
    assert_clean(page)
    upload(page, zip_suite(tmp_path / "demo.zip"))
    page.get_by_text("Now showing: Your HELM output (demo.zip)").wait_for(timeout=60_000)
    wait_settled(page)
    assert_clean(page)
    assert "3" in metric(page, "Models") and "3" in metric(page, "Runs")
    nav_text = page.locator(NAV).inner_text()
    assert "Scenario × Metric Grid" in nav_text and "16 × 7" not in nav_text  # classic's shape, not the upload's
    go_to(page, "HELM As Evaluation Plumbing")
    assert_clean(page)
    assert re.search(r"\b3\b", metric(page, "Models"))
    assert "Your HELM output (demo.zip)" in page.locator('[data-testid="stMain"]').inner_text()
    # The sidebar's dataset choice switches back, on every page.
    page.locator('[data-testid="stSidebar"]').get_by_text("HELM classic v0.4.0 (bundled)").click()
    page.wait_for_function(
        """() => [...document.querySelectorAll('[data-testid="stMetric"]')]
                 .some(m => m.innerText.includes('Models') && m.innerText.includes('67'))""", timeout=60_000)
    wait_settled(page)
    assert_clean(page)
    assert "16 × 7 Core Grid" in page.locator(NAV).inner_text()


def test_broken_zip_keeps_the_dataset(server, page, tmp_path):
    bad = tmp_path / "broken.zip"
    bad.write_bytes(bytes(range(256)) * 8)
    open_url(page, f"{server}/data?cohort=all")
    upload(page, bad)
    page.get_by_text("not a readable zip archive").wait_for(timeout=60_000)
    wait_settled(page)
    assert_clean(page)
    assert "keeps showing HELM classic v0.4.0" in page.locator('[data-testid="stAlert"]').first.inner_text()
    go_to(page, "HELM As Evaluation Plumbing")
    assert "67" in metric(page, "Models")


def test_uploads_do_not_leak_to_other_sessions(server, browser, page, tmp_path):
    open_url(page, f"{server}/data")
    upload(page, zip_suite(tmp_path / "demo.zip"))
    page.get_by_text("Now showing: Your HELM output (demo.zip)").wait_for(timeout=60_000)
    ctx = browser.new_context()
    other = ctx.new_page()
    open_url(other, f"{server}/data")
    assert "Now showing: HELM classic v0.4.0 (bundled)" in other.locator('[data-testid="stMain"]').inner_text()
    assert other.locator('[data-testid="stSidebar"]').get_by_text("Your HELM output").count() == 0
    ctx.close()


@pytest.fixture(scope="module")
def local_server(tabs):
    """A second server, started as a local user would: HELM_OUTPUT points at the fixture suite (warmed like the
    shared one: conftest.warm)."""
    with serving({"HELM_OUTPUT": str(SUITE)}) as proc:
        warm(tabs, proc.url)
        yield proc.url


def test_runs_page_shows_prompts_as_text(local_server, browser, page):
    open_url(page, f"{local_server}/runs?run={MMLU}")
    assert_clean(page)
    code = page.locator('[data-testid="stCode"]').filter(has_text="Which philosopher wrote the").first
    assert "<b>Republic</b>" in code.inner_text()  # shown literally...
    assert page.locator('[data-testid="stMain"] b').filter(has_text="Republic").count() == 0  # ...not rendered
    assert "0.667" in metric(page, "EM")


def test_run_and_instance_go_into_the_url_and_back(local_server, browser, page):
    open_url(page, f"{local_server}/runs?cohort=all")  # every run of the suite, not only the paper cohort's
    main = page.locator('[data-testid="stMain"]')
    main.locator('[data-testid="stSelectbox"]').filter(has_text="Run (").click()
    page.get_by_role("option", name=MMLU).click()
    page.wait_for_function("() => location.search.includes('run=mmlu')", timeout=60_000)
    wait_settled(page)
    page.locator('[data-testid="stPaginationNext"]').first.click()  # "Next page"
    page.wait_for_function("() => location.search.includes('instance=2')", timeout=60_000)
    wait_settled(page)
    url = page.url
    ctx = browser.new_context()
    fresh = ctx.new_page()
    open_url(fresh, url)
    assert_clean(fresh)
    text = fresh.locator('[data-testid="stMain"]').inner_text()
    assert "Instance 2 of 6" in text and "id id102" in text
    assert "GPT-J (6B) · MMLU" in text
    ctx.close()


def test_bad_run_in_the_link_gives_a_notice(local_server, browser, page):
    open_url(page, f"{local_server}/runs?run=nope")
    assert_clean(page)
    page.get_by_text("Ignored the link's").first.wait_for(timeout=60_000)
    assert "Instance 1 of" in page.locator('[data-testid="stMain"]').inner_text()
