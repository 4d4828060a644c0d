"""The offline handout (scripts/export_deck.py): one self-contained HTML file that opens with the network off.

Written by the command itself; opened in Chromium with every request other than the file blocked: every slide is
there with its title and point, every chart slide's chart is drawn by the embedded plotly.js, no console error,
every chart a figure named by its text alternative with its data one click away, no serious or
critical axe-core WCAG A/AA violation, and the file stays within its budget (10 MB). (Its build time is measured in the benchmark, not asserted here.)
"""
from __future__ import annotations

import subprocess
import sys

from bench import a11y
from .conftest import ROOT


def test_handout_opens_offline_with_every_chart_drawn(browser, tmp_path):
    out = tmp_path / "deck.html"
    run = subprocess.run([sys.executable, "-m", "scripts.export_deck", str(out)], cwd=ROOT, capture_output=True,
                         text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-2000:]
    assert out.stat().st_size <= 10_000_000, out.stat().st_size
    html = out.read_text(encoding="utf-8")
    assert "http://" not in html.split("<script>", 1)[0]  # nothing in the head fetches anything
    ctx = browser.new_context(viewport={"width": 1200, "height": 900}, offline=True)
    requests: list[str] = []
    errors: list[str] = []

    def block(route):
        if route.request.url.startswith("file:"):
            route.continue_()
        else:
            requests.append(route.request.url)
            route.abort()

    ctx.route("**/*", block)
    page = ctx.new_page()
    page.on("console", lambda m: m.type == "error" and errors.append(m.text))
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(out.as_uri(), wait_until="load")
        n_charts = html.count("class='chart'")
        page.wait_for_function("n => document.querySelectorAll('.chart .main-svg').length >= n", arg=n_charts,
                               timeout=60_000)
        slides = page.locator("section.slide")
        assert slides.count() >= 30
        assert n_charts >= 15
        drawn = page.evaluate("() => [...document.querySelectorAll('.chart')].filter(c => c.querySelector('.main-svg')"
                              " && c.querySelector('.main-svg').getBoundingClientRect().height > 50).length")
        assert drawn == n_charts, (drawn, n_charts)
        for i in range(slides.count()):
            s = slides.nth(i)
            assert s.locator("h2").inner_text().strip() and s.locator("p.headline").inner_text().strip(), i
        # Every chart is a figure named by its text alternative, with its data one click away.
        figures = page.locator("figure")
        assert figures.count() == n_charts
        assert page.locator("figure figcaption").count() == n_charts
        assert page.locator("details summary", has_text="Data behind this chart").count() >= n_charts // 2
        found = a11y.problems(page, "handout")  # a light document (for print), whatever the reader's theme
        assert not found, "\n".join(found)
    finally:
        ctx.close()
    assert not requests, requests
    assert not errors, errors
