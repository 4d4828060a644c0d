"""Browser tests for the Rankings pages (podium, cost): clean render with every chart drawn (section by section),
URL state round trips (written by the browser, read back in another tab: a new session), and the recipe shared
between the two pages and between the podium's sections."""
from __future__ import annotations

from .helpers import NAV, another_tab, assert_clean, open_section, open_url, wait_run, wait_settled, watch_runs


def radio(page, label: str):
    return page.locator('[data-testid="stRadio"]').filter(has_text=label).first


def checked(page, label: str) -> str:
    return radio(page, label).locator("label:has(input:checked)").inner_text().split("\n")[0].strip()


def weight_slider(page, label: str):
    """A recipe weight slider; the browser draws them only once their popover is open, so open it first."""
    body = page.locator('[data-testid="stPopoverBody"]')
    if not body.is_visible():
        page.get_by_role("button", name="Adjust weights").click()
        body.wait_for(state="visible", timeout=60_000)
    return body.locator('[data-testid="stSlider"]').filter(has_text=label).first


def slider_value(page, label: str) -> str:
    return weight_slider(page, label).locator('[data-testid="stSliderThumbValue"]').inner_text()


def main_text(page) -> str:
    """The main area's text as read (without the invisible word joiners helm_core.escape puts after a colon)."""
    return page.locator('[data-testid="stMain"]').inner_text().replace("\u2060", "")


def podium_block(page, title: str) -> str:
    """The podium lines under a podium title (the bordered box after the title; the title's last occurrence, since
    the slope chart above heads its column with the recipe's name too)."""
    text = main_text(page)
    start = text.rindex(title) + len(title)
    return text[start:start + 200].strip().split("\n\n")[0]


def choose(page, label: str, option: str) -> None:
    """Click `option` of the radio `label`, watching for the run it starts (its address changes first: the radios
    are bound to the URL, so `wait_url` waits for that run too, not only for the address)."""
    watch_runs(page)
    radio(page, label).get_by_text(option, exact=True).click()


def wait_url(page, fragment: str) -> None:
    page.wait_for_function(f"() => location.search.includes({fragment!r})", timeout=60_000)
    wait_run(page)


def charts_drawn(page) -> int:
    charts = page.locator('[data-testid="stPlotlyChart"]')
    for i in range(charts.count()):
        assert charts.nth(i).locator(".main-svg").count() > 0
    return charts.count()


def nav_to(page, title: str, url_path: str) -> None:
    page.locator(NAV).get_by_text(title).click()
    page.wait_for_function(f"() => location.pathname.endsWith('/{url_path}')", timeout=60_000)
    wait_settled(page)


def test_podium_renders_cleanly_with_every_chart(server, page):
    open_url(page, f"{server}/podium?cohort=all")
    assert_clean(page)
    text = main_text(page)
    assert "One Recipe Reorders The Podium" in text
    assert "HELM's published group win rates" in text
    tabs = page.get_by_role("tab")
    assert tabs.all_inner_texts() == ["Recipe podium", "Robustness", "Paper podium", "Field of rivals"]
    assert page.get_by_role("tab", name="Recipe podium", exact=True).get_attribute("aria-selected") == "true"
    # the first load draws the first slide's charts only: the slope chart and the weights below it
    assert charts_drawn(page) == 2
    assert "HELM's podium · HELM's Mean win rate (published)" in text
    assert page.locator('[data-testid="stPlotlyChart"][aria-label^="Current recipe weights"]').count() == 1
    # the slope chart has one labelled line end per model on each side
    assert page.locator('[data-testid="stPlotlyChart"] .scatterlayer .point').count() > 20
    open_section(page, "Robustness")
    assert_clean(page)
    assert "podium_section=Robustness" in page.url
    assert charts_drawn(page) == 1
    assert page.locator('[data-testid="stPlotlyChart"][aria-label^="Podium stability"]').count() == 1
    assert "A simulation:" in main_text(page)
    open_section(page, "Paper podium")
    assert_clean(page)
    assert charts_drawn(page) == 1  # the paper's three against this release's ranks
    assert "Pareto dominance is rare" in main_text(page)
    open_section(page, "Field of rivals")
    assert_clean(page)
    assert charts_drawn(page) == 2  # the win rate per field of rivals, and every group's win rate below it
    assert "A HELM user asked exactly this" in main_text(page)


def test_cost_renders_cleanly_with_its_chart(server, page):
    open_url(page, f"{server}/cost?cohort=all")
    assert_clean(page)
    text = main_text(page)
    assert "Capability vs Cost Pressure" in text
    assert 'In the band "no runtime in HELM": 41 of 67 models' in text
    assert page.get_by_role("tab").all_inner_texts() == ["Capability vs cost", "Paper findings"]
    assert charts_drawn(page) == 1
    assert page.locator('[data-testid="stPlotlyChart"] .scatterlayer .point').count() >= 26
    assert "What the paper said" not in text
    open_section(page, "Paper findings")
    assert_clean(page)
    assert "cost_section=Paper+findings" in page.url or "cost_section=Paper%20findings" in page.url
    assert charts_drawn(page) == 1  # the paper's scale finding against the data
    text = main_text(page)
    assert "the paper's scale finding fails for 17 of the " in text and "with a disclosed size" in text
    assert "rank correlation of accuracy win rate with runtime is +0.43" in text


def test_podium_recipe_and_weights_round_trip_through_the_url(server, browser, page):
    open_url(page, f"{server}/podium")
    choose(page, "Recipe", "safety")
    wait_url(page, "recipe=safety")
    assert "w_bias=3" in page.url and "w_toxicity=3" in page.url
    # a keyboard step on the Accuracy slider makes the recipe custom
    assert page.locator('[data-testid="stSlider"]').count() == 0  # no slider drawn until the popover opens
    weight_slider(page, "Accuracy").get_by_role("slider").focus()
    watch_runs(page)
    page.keyboard.press("ArrowRight")
    wait_url(page, "recipe=custom")
    wait_url(page, "w_accuracy=2")
    assert checked(page, "Recipe") == "custom"
    podium = podium_block(page, "This app's recipe: Custom weights")
    url = page.url
    assert all(f"w_{g}=" in url for g in ("calibration", "robustness", "fairness", "efficiency"))

    ctx = browser.new_context(viewport={"width": 1400, "height": 900})
    fresh = ctx.new_page()
    open_url(fresh, url)
    assert_clean(fresh)
    assert checked(fresh, "Recipe") == "custom"
    assert slider_value(fresh, "Accuracy") == "2"
    assert slider_value(fresh, "Bias") == "3"
    assert slider_value(fresh, "Calibration") == "1"
    assert podium_block(fresh, "This app's recipe: Custom weights") == podium
    ctx.close()


def test_top_n_and_policy_round_trip(server, page):
    open_url(page, f"{server}/podium?cohort=all")
    choose(page, "A model with no value", "exclude")
    wait_url(page, "missing=exclude")
    text = main_text(page)
    assert "are left out; 25 are ranked" in text
    with another_tab(page) as fresh:
        open_url(fresh, page.url)
        assert checked(fresh, "A model with no value") == "exclude"
        assert "are left out; 25 are ranked" in main_text(fresh)


def test_the_recipe_carries_across_the_podium_sections_and_a_link(server, page):
    open_url(page, f"{server}/podium")
    choose(page, "Recipe", "safety")
    wait_url(page, "recipe=safety")
    podium = podium_block(page, "This app's recipe: Safety push")
    open_section(page, "Robustness")
    assert_clean(page)
    assert checked(page, "Recipe") == "safety"
    assert "recipe=safety" in page.url and "w_bias=3" in page.url
    choose(page, "How far the weights wander", "large")
    wait_url(page, "spread=large")
    stability_chart = '[data-testid="stPlotlyChart"][aria-label^="Podium stability"]'
    stability = page.locator(stability_chart).get_attribute("aria-label")
    # the link opens the same section with the same recipe and spread
    with another_tab(page) as fresh:
        open_url(fresh, page.url)
        assert_clean(fresh)
        assert fresh.get_by_role("tab", name="Robustness", exact=True).get_attribute("aria-selected") == "true"
        assert checked(fresh, "Recipe") == "safety" and checked(fresh, "How far the weights wander") == "large"
        assert fresh.locator(stability_chart).get_attribute("aria-label") == stability
    # back in the first section, the podium has the recipe
    open_section(page, "Recipe podium")
    assert_clean(page)
    assert checked(page, "Recipe") == "safety"
    assert podium_block(page, "This app's recipe: Safety push") == podium


def test_the_recipe_survives_a_switch_to_cost_from_a_later_podium_section(server, page):
    """A section without the recipe controls (Paper podium) unmounts them; the recipe must still reach the
    Capability vs Cost page and come back."""
    open_url(page, f"{server}/podium?recipe=custom&w_accuracy=2&w_toxicity=5&missing=exclude")
    open_section(page, "Paper podium")
    assert_clean(page)
    nav_to(page, "Capability vs Cost Pressure", "cost")
    assert_clean(page)
    wait_url(page, "recipe=custom")
    assert "w_accuracy=2" in page.url and "w_toxicity=5" in page.url and "missing=exclude" in page.url
    nav_to(page, "One Recipe Reorders The Podium", "podium")
    open_section(page, "Recipe podium")
    weights = '[data-testid="stPlotlyChart"][aria-label^="Current recipe weights"]'
    label = page.locator(weights).get_attribute("aria-label")
    assert "Accuracy 29%" in label and "Toxicity 71%" in label, label
    assert checked(page, "Recipe") == "custom" and checked(page, "A model with no value") == "exclude"


def test_cost_axis_round_trip(server, page):
    open_url(page, f"{server}/cost?cohort=all")
    choose(page, "Cost (y", "params")
    wait_url(page, "cost=params")
    assert 'In the band "size undisclosed": 2 of 67 models' in main_text(page)
    with another_tab(page) as fresh:
        open_url(fresh, page.url)
        assert_clean(fresh)
        assert checked(fresh, "Cost (y") == "params"
        assert 'In the band "size undisclosed": 2 of 67 models' in main_text(fresh)


def test_the_recipe_is_shared_between_podium_and_cost(server, page):
    open_url(page, f"{server}/podium")
    choose(page, "Recipe", "safety")
    wait_url(page, "recipe=safety")
    choose(page, "A model with no value", "exclude")
    wait_url(page, "missing=exclude")
    page.locator(NAV).get_by_text("Capability vs Cost Pressure").click()
    page.wait_for_function("() => location.pathname.endsWith('/cost')", timeout=60_000)
    wait_settled(page)
    wait_url(page, "recipe=safety")
    assert "missing=exclude" in page.url
    labels = page.locator('[data-testid="stPlotlyChart"] .annotation-text')  # the top three, above the bubbles
    assert "#1 text-davinci-002" in " ".join(labels.all_text_contents())
    # and back: the podium still has the recipe
    page.locator(NAV).get_by_text("One Recipe Reorders The Podium").click()
    page.wait_for_function("() => location.pathname.endsWith('/podium')", timeout=60_000)
    wait_settled(page)
    assert checked(page, "Recipe") == "safety"
    assert podium_block(page, "This app's recipe: Safety push").startswith("#1 text-davinci-002")


def test_a_link_whose_weights_disagree_with_its_recipe_says_so(server, page):
    open_url(page, f"{server}/podium?recipe=holistic&w_bias=4")
    page.wait_for_selector('[data-testid="stToast"]', timeout=60_000)
    assert "shown as custom weights" in " ".join(page.locator('[data-testid="stToast"]').all_inner_texts())
    assert checked(page, "Recipe") == "custom"
    assert slider_value(page, "Bias") == "4"


def test_a_linked_custom_recipe_survives_a_direct_switch_to_cost_and_back(server, page):
    """Regression: a recipe that came only from the link (never touched in the browser) used to fall back to the
    default on the very next page switch, and the link's weights were overwritten (ui.recipe_controls)."""
    open_url(page, f"{server}/podium?recipe=custom&w_accuracy=2&w_toxicity=5")
    weights = '[data-testid="stPlotlyChart"][aria-label^="Current recipe weights"]'
    assert "Accuracy 29%" in page.locator(weights).get_attribute("aria-label")
    page.locator(NAV).get_by_text("Capability vs Cost Pressure").click()
    page.wait_for_function("() => location.pathname.endsWith('/cost')", timeout=60_000)
    wait_settled(page)
    assert_clean(page)
    page.locator(NAV).get_by_text("One Recipe Reorders The Podium").click()
    page.wait_for_function("() => location.pathname.endsWith('/podium')", timeout=60_000)
    wait_settled(page)
    label = page.locator(weights).get_attribute("aria-label")
    assert "Accuracy 29%" in label and "Toxicity 71%" in label, label
    assert checked(page, "Recipe") == "custom"
    assert slider_value(page, "Toxicity") == "5"


def test_the_browsers_back_button_returns_to_the_podium_as_it_was(server, page):
    """Regression: Back from Capability vs Cost to the podium opened with a link that carries no weight (the default
    recipe) reset every bound slider to 0 in the browser, and the podium showed "These weights cannot make a
    ranking" under a custom recipe (ui.recipe_controls now restores the recipe's own weights)."""
    open_url(page, f"{server}/podium")
    before = podium_block(page, "This app's recipe: Holistic")
    nav_to(page, "Capability vs Cost Pressure", "cost")
    page.go_back()
    page.wait_for_function("() => location.pathname.endsWith('/podium')", timeout=60_000)
    wait_settled(page)
    assert "cannot make a ranking" not in main_text(page)
    assert checked(page, "Recipe") == "holistic"
    assert podium_block(page, "This app's recipe: Holistic") == before
    assert_clean(page)
