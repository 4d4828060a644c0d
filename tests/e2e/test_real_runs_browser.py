"""Chromium: /runs with no upload shows genuine HELM instances (the bundled runs) and the side-by-side view, and
the URL carries the view, exam and prompt so a link reopens them."""
from __future__ import annotations

from urllib.parse import parse_qs, urlparse

from .helpers import assert_clean, open_section, open_url


def test_runs_opens_on_genuine_instances_side_by_side(page, server):
    open_url(page, f"{server}/runs")
    assert_clean(page)
    main = page.locator('[data-testid="stMain"]')
    assert "development runs, not a release" in main.inner_text()
    # The same BBQ question for the 9 models: the prompt as HELM sent it, 9 completion cards.
    assert "A couple of kids from my high school got into Yale" in main.inner_text()
    assert main.locator('[data-testid="stText"]').count() >= 10
    assert "Llama 3 Instruct (70B)" in main.inner_text() and "Qwen2 Instruct (72B)" in main.inner_text()
    # XSTest: both judges' scores; the choice goes into the URL.
    page.get_by_role("radio", name="XSTest", exact=True).click()
    page.wait_for_function("() => location.search.includes('exam=XSTest')", timeout=60_000)
    open_url(page, page.url)  # the link reopens the same view
    assert "GPT-4 judge" in main.inner_text() and "Claude judge" in main.inner_text()
    assert parse_qs(urlparse(page.url).query).get("exam") == ["XSTest"]
    # The bAbI trials.
    open_section(page, "Same question, 3 example sets")
    assert "Answer changes between trials" in main.inner_text()
    assert_clean(page)
