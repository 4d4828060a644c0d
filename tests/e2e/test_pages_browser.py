"""Open every page (and every section tab) in Chromium: the script finishes, every chart draws, no exception,
no console error, every chart has a text alternative and every widget an accessible name; and on the way, the app
stays on this machine and writes nothing into its folder (deploy readiness). Then the links and choices that
travel in the URL."""
from __future__ import annotations

from pathlib import Path

import pytest

from ui import nav

from .helpers import (NAV, TOOLS, another_tab, assert_accessible_names, assert_clean, each_section, go_in_app, open_url,
                      wait_settled)

PAGES = nav.available_pages()


def test_every_page_renders_and_stays_on_this_machine(server_proc, page):
    """The desktop sweep, once over every page (every section of the tools; a story page's first slide, its
    further slides being walked in both themes by test_slides_browser.py's presenter walk): the script finishes,
    the first visual starts on the first screen, every chart draws with a text alternative, no exception or console
    error, every widget has an accessible name, no serious or critical axe-core WCAG A/AA violation (light; the
    phone sweep runs axe in dark). Meanwhile, deploy readiness (Streamlit Community Cloud gives the app
    a read-mostly checkout): the browser fetches nothing but the app's own server, the server opens no connection
    beyond this machine, and nothing is written into the project folder."""
    from urllib.parse import urlparse

    from bench import a11y
    from .deploy import remote_peers, tree_state
    from .slide_probe import visual_box

    before = tree_state()
    requested: list[str] = []
    page.on("request", lambda r: requested.append(r.url))
    peers: set[str] = set()
    inaccessible: list[str] = []
    for i, spec in enumerate(PAGES):
        name = spec.url_path or "home"
        # The first page loads the app; the others are reached in the same session, as a visitor moves on.
        (go_in_app if i else open_url)(page, f"{server_proc.url}/{spec.url_path}")
        if spec.url_path not in TOOLS:
            box = visual_box(page)
            assert box and box["kind"], f"{name}: no chart or table"
            assert box["top"] < 900, f"{name}: the first {box['kind']} starts at {box['top']:.0f} px"
        for section in each_section(page):
            where = name + (f" · {section}" if section else "")
            assert_clean(page)
            assert spec.title in page.locator('[data-testid="stMain"]').inner_text(), where
            charts = page.locator('[data-testid="stPlotlyChart"]')
            for i in range(charts.count()):
                assert charts.nth(i).locator(".main-svg").count() > 0, (where, i)
            assert_accessible_names(page, where)
            inaccessible += a11y.problems(page, where)
            if spec.url_path not in TOOLS:
                break  # a story page's further slides: walked in both themes by the presenter route walk
        peers |= remote_peers(server_proc.pid)
    assert not inaccessible, "\n".join(inaccessible)
    own = urlparse(server_proc.url).netloc
    foreign = sorted({u for u in requested if urlparse(u).scheme in ("http", "https", "ws", "wss")
                      and urlparse(u).netloc != own})
    assert not foreign, f"the browser fetched from elsewhere: {foreign[:10]}"
    assert not peers, f"the server has connections beyond this machine: {sorted(peers)}"
    after = tree_state()
    changed = sorted(k for k in after if before.get(k) != after[k])
    assert not changed, f"the app wrote into the project folder: {changed[:10]}"


def test_the_axe_check_finds_violations_and_its_colour_rules_only_colours(page):
    """The sweeps' accessibility check can fail: a low-contrast paragraph and an image without alternative text
    are both found; the second theme's check (a11y.THEME_RULES) finds the contrast only; axe sent once to a
    document is reused, and a new document gets it again."""
    from bench import a11y

    page.set_content("<html lang='en'><title>t</title><body><p style='color:#bbb;background:#fff'>faint</p>"
                     "<img src='x.png'></body></html>")
    assert {v["id"] for v in a11y.violations(page)} == {"color-contrast", "image-alt"}
    assert [v["id"] for v in a11y.violations(page, a11y.THEME_RULES)] == ["color-contrast"]
    page.set_content("<html lang='en'><title>t</title><body><p>clear</p></body></html>")
    assert a11y.problems(page, "clean") == []


def test_cohort_choice_goes_into_the_url_and_back(server, page):
    open_url(page, server)
    page.get_by_text("all", exact=True).first.click()  # the paper's cohort is the default; widen it
    page.wait_for_function("() => location.search.includes('cohort=all')", timeout=60_000)
    url = page.url
    with another_tab(page) as fresh:
        open_url(fresh, url)
        metric = fresh.locator('[data-testid="stMetric"]').filter(has_text="Models").first
        assert "67" in metric.inner_text()


def test_plumbing_dot_matrix_has_hover_points(server, page):
    open_url(page, server)
    points = page.locator('[data-testid="stPlotlyChart"] .scatterlayer .point')
    assert points.count() >= 28 * 16 * 0.9  # the default cohort: the 2022 paper's 28 models


def test_first_request_to_a_fresh_server_can_be_a_deep_link(browser):
    """A prepared link opened before anyone has loaded the home page still runs the router (sidebar,
    cohort filter, URL whitelist)."""
    from .conftest import serving

    with serving() as proc:
        ctx = browser.new_context()
        pg = ctx.new_page()
        open_url(pg, f"{proc.url}/grid?cohort=all&junk=1")  # (paper, the default, is not written to the URL)
        assert "Cohort" in pg.locator('[data-testid="stSidebar"]').inner_text()
        pg.wait_for_function("() => !location.search.includes('junk')", timeout=60_000)
        assert "cohort=all" in pg.url
        ctx.close()


def test_chart_data_downloads_as_csv(server, page):
    """The CSV beside a chart is made on click: it arrives whole, with the chart's rows."""
    import csv
    import io

    open_url(page, f"{server}/grid")
    box = page.locator('[data-testid="stExpander"]').filter(has_text="Data behind this chart (112 rows)").first
    box.get_by_text("Data behind this chart (112 rows)").click()  # opens it; its table is made on this rerun
    box.get_by_role("button", name="Download CSV").wait_for(timeout=60_000)
    wait_settled(page)  # a click during that rerun can land on a button the rerun replaces: no download
    # The bytes are made on click, by the run that drew the button, and the click does not rerun the page: one
    # click brings the file (a click that also reran the page could drop the file before the browser asked for it,
    # on a busy machine: ui.components.download).
    with page.expect_download(timeout=30_000) as info:
        box.get_by_role("button", name="Download CSV").click()
    download = info.value
    assert download.suggested_filename == "core_grid_paper.csv"
    rows = list(csv.DictReader(io.StringIO(Path(download.path()).read_text(encoding="utf-8"))))
    assert len(rows) == 112
    assert {"scenario", "measured"} <= set(rows[0])
    assert sum(r["measured"] == "True" for r in rows) == 98
    assert_clean(page)


@pytest.mark.parametrize("release,name", [("lite", "HELM Lite v1.13.0")])
def test_switching_release_in_the_sidebar_then_walking_every_page(server, page, release, name):
    """Pick a later release in the sidebar: it goes into the URL, the cohort radio is disabled (classic only), and
    the pages reached through the navigation (every third, and the last, below the fold) keep it, run cleanly (no
    exception, no console error) and name it. (Every page and section on the later releases: the AppTest statement
    sweep.)"""
    open_url(page, server)
    sidebar = page.locator('[data-testid="stSidebar"]')
    sidebar.get_by_text(release, exact=True).first.click()
    page.wait_for_function(f"() => location.search.includes('release={release}')", timeout=60_000)
    wait_settled(page)
    assert "The cohort applies to HELM classic only" in sidebar.inner_text()
    assert sidebar.locator('[data-testid="stRadio"]').filter(has_text="Cohort").locator("input").first.is_disabled()
    nav_box = sidebar.locator(NAV)
    walk = {p.url_path: p for p in PAGES[::3] + PAGES[-1:]}  # the top and the bottom of the page list
    for spec in walk.values():
        title = nav.title(spec, release != "classic")  # the grid is "16 × 7" on classic only
        nav_box.get_by_role("link", name=title, exact=True).first.click()
        page.wait_for_function("p => location.pathname.replace(/^\\//, '') === p", arg=spec.url_path,
                               timeout=60_000)
        wait_settled(page)
        assert_clean(page)
        main = page.locator('[data-testid="stMain"]').inner_text()
        assert title in main and f"Data: {name}" in main, spec.url_path
        assert f"release={release}" in page.url, (spec.url_path, page.url)
