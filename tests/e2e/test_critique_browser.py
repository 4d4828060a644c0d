"""Critique pages in Chromium: the four pages render cleanly with every chart drawn; the stepper's step lives in
the URL (reload keeps it, Next and the arrow keys change it, a shared link opens it); the studies, threads and
references controls round-trip through the URL; a thread's deep link opens the linked state."""
from __future__ import annotations

import re

import pytest

from .helpers import another_tab, assert_clean, open_url, wait_settled
from helm_core import critique

PAGES = ["limits", "studies", "threads", "references"]
STEPS = critique.load_steps()


def _main(page) -> str:
    return page.locator('[data-testid="stMain"]').inner_text()


def _step_heading(page) -> str:
    return page.locator('[data-testid="stMain"] h3').first.inner_text()


def _wait_query(page, fragment: str) -> None:
    page.wait_for_function(f"() => location.search.includes({fragment!r})", timeout=60_000)
    wait_settled(page)


@pytest.mark.parametrize("path", PAGES)
def test_page_renders_with_every_chart(server, page, path):
    open_url(page, f"{server}/{path}")
    assert_clean(page)
    charts = page.locator('[data-testid="stPlotlyChart"]')
    for i in range(charts.count()):
        assert charts.nth(i).locator(".main-svg").count() > 0
    text = _main(page)
    if path == "limits":
        assert f"Step 1 of {len(STEPS)}" in text and STEPS[0].title in text
    if path == "studies":
        assert charts.count() == 1 and "These are the paper's numbers, not this app's data." in text
    if path == "threads":
        assert "Reasoning robustness" in text
    if path == "references":
        assert "Holistic Evaluation of Language Models" in text and "Data provenance" in text


def test_reloading_a_step_5_url_shows_step_5(server, page):
    open_url(page, f"{server}/limits?step=5")
    assert_clean(page)
    assert _step_heading(page).startswith(f"5. {STEPS[4].title}")
    page.reload(wait_until="domcontentloaded")
    wait_settled(page)
    assert _step_heading(page).startswith(f"5. {STEPS[4].title}")
    assert "step=5" in page.url


def test_next_changes_the_url_and_the_link_opens_that_step(server, page):
    open_url(page, f"{server}/limits")
    page.locator(".st-key-step_next button:visible").click()
    _wait_query(page, "step=2")
    assert _step_heading(page).startswith(f"2. {STEPS[1].title}")
    page.locator(".st-key-step_next button:visible").click()
    _wait_query(page, "step=3")
    assert _step_heading(page).startswith(f"3. {STEPS[2].title}")
    page.locator(".st-key-step_back button:visible").click()
    _wait_query(page, "step=2")
    url = page.url
    with another_tab(page) as fresh:
        open_url(fresh, url)
        assert _step_heading(fresh).startswith(f"2. {STEPS[1].title}")
    assert_clean(page)


def test_arrow_keys_move_one_step(server, page):
    open_url(page, f"{server}/limits?step=3")
    page.locator('[data-testid="stMain"] h1').first.click()  # focus the page, not a widget
    page.keyboard.press("ArrowRight")
    _wait_query(page, "step=4")
    assert _step_heading(page).startswith(f"4. {STEPS[3].title}")
    page.locator('[data-testid="stMain"] h1').first.click()
    page.keyboard.press("ArrowLeft")
    _wait_query(page, "step=3")
    assert _step_heading(page).startswith(f"3. {STEPS[2].title}")


def test_bad_step_shows_step_1_and_a_notice(server, page):
    open_url(page, f"{server}/limits?step=99")
    assert_clean(page)
    assert _step_heading(page).startswith(f"1. {STEPS[0].title}")
    assert "The link asked for step “99”" in _main(page) and "showing step 1 instead" in _main(page)


@pytest.mark.parametrize("path, key, option, expect", [
    ("references", "topic", "critique", "4 of 17 entries"),
    ("threads", "thread", "safety-classification", "Safety classification"),
])
def test_choice_round_trips_through_the_url(server, page, path, key, option, expect):
    open_url(page, f"{server}/{path}")
    page.locator(f".st-key-{key} button:visible", has_text=re.compile(rf"^{re.escape(option)}$")).click()
    _wait_query(page, f"{key}={option}")
    assert expect in _main(page)
    with another_tab(page) as fresh:
        open_url(fresh, page.url)
        assert expect in _main(fresh)


def test_studies_choice_round_trips_through_the_url(server, page):
    """The study picker sits in the page's second section: the section and the study both go into the URL, the
    session keeps the study while another section is open, a shared link opens both, and a link to another
    section keeps its study for when the picker's section opens."""
    from .helpers import open_section

    open_url(page, f"{server}/studies")
    open_section(page, "The studies")
    _wait_query(page, "studies_section=")
    page.locator(".st-key-study button:visible", has_text=re.compile(r"^knowledge$")).click()
    _wait_query(page, "study=knowledge")
    assert "Knowledge · paper §5.2" in _main(page)
    # Streamlit takes a widget's key out of the URL while the widget is not drawn; the session keeps the choice
    # and puts it back when the section opens again.
    open_section(page, "Why narrow studies")
    assert "Zoom into one study" not in _main(page)
    open_section(page, "The studies")
    assert "study=knowledge" in page.url and "Knowledge · paper §5.2" in _main(page)
    with another_tab(page) as fresh:
        open_url(fresh, page.url)
        assert "Knowledge · paper §5.2" in _main(fresh)
        assert fresh.get_by_role("tab", name="The studies", exact=True).get_attribute("aria-selected") == "true"
        assert_clean(fresh)
        # A link to another section keeps its study (declared with `keep`) for when the picker's section opens.
        open_url(fresh, f"{server}/studies?studies_section=Why+narrow+studies&study=toxicity")
        assert "Why narrow studies see what the broad grid blurs" in _main(fresh)
        open_section(fresh, "The studies")
        assert "Toxicity" in fresh.locator('[data-testid="stMain"] h4').first.inner_text()
        assert "study=toxicity" in fresh.url
        assert_clean(fresh)
    assert_clean(page)


def test_thread_deep_link_opens_the_linked_step(server, page):
    open_url(page, f"{server}/threads?thread=reasoning-robustness")
    page.locator('[data-testid="stPageLink"] a', has_text="step 7").first.click()
    _wait_query(page, "step=7")
    assert re.search(r"/limits\?", page.url)
    assert _step_heading(page).startswith(f"7. {STEPS[6].title}")
    assert_clean(page)
