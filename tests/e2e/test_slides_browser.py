"""Chromium: the presenter route as an audience sees it, and the phone.

- Presenter (1280 × 720), light and dark on one walk: the pre-show check (bench/preflight.py, `theme="both"`)
  walks the route from `/?present=1` with PageDown. Every step must show a chart or a table fully inside the
  viewport, with no chart text under 16 px or under 4.5:1 contrast (in the theme the step arrived in: light and
  dark by turns), and no chart text outside its chart or over another; every step must arrive in turn (the
  counter moves by exactly one per press, so no slide, tab or stepper step is skipped); PageUp goes back one step;
  axe-core finds no serious or critical WCAG A/AA violation on any step, in light and in dark (the browser's
  colour scheme switched on the same drawing; axe-core does not read chart SVG text). The live tools are checked
  on the way: a room, its follow link, the speaker view (axe-core on both). Every step's chart text contrast on
  both themes is tests/app/test_presenter.py's too; the phone sweep below draws every page in dark.
- A server with one page made to raise: the pre-show check fails, naming that page.
- Phone (390 × 844, dark): every page's first screen and every section of the tools (the runs browser, HELM's
  tables, the data page): no page scrolls sideways, no chart text falls outside its chart or over another, no
  axe-core violation.
(Desktop 1400 × 900: every story page's first visual starts on the first screen: test_pages_browser.py.)
"""
from __future__ import annotations

import re
import shutil


from ui import nav

from bench import a11y
from .helpers import TOOLS, assert_clean, each_section, go_in_app, open_url
from .slide_probe import problems

PAGES = nav.available_pages()


def test_presenter_route_every_step_shows_its_visual_on_stage_in_both_themes(server, browser):
    """One walk of the route for both themes: each step checked in the theme it arrived in, then axe-core again
    in the other on the same drawing (the pre-show check's `theme="both"`); the steps arrive in light and dark
    by turns."""
    from bench import preflight

    lines: list[str] = []
    found = preflight.walk(server, theme="both", live=True, browser=browser, out=lines.append)
    steps = [ln for ln in lines if re.match(r"\s*\d+\s+[\d.]+s ", ln)]  # a line per step, then the summary
    assert len(steps) >= 30, "\n".join(lines)
    assert not found, "\n".join(found)
    arrived = [ln.rsplit("[", 1)[-1].rstrip("]") for ln in steps]
    assert arrived[:4] == ["light", "dark", "light", "dark"], "\n".join(lines)
    assert set(arrived) == {"light", "dark"}


def test_preflight_says_when_a_link_fixes_the_theme(server, browser):
    """A link that fixes a theme (`theme=light`): the walk in both themes cannot switch, and says so."""
    from bench import preflight

    lines: list[str] = []
    found = preflight.walk(server, theme="both", query="theme=light", live=False, layout=False, max_steps=1,
                           browser=browser, out=lines.append)
    assert any("did not switch to dark" in f for f in found), "\n".join(lines)


def test_preflight_names_a_page_that_raises(browser, tmp_path):
    """A copy of the app whose Coverage Jump page raises: the walk reports it at its step, by its path."""
    from bench import preflight

    from .conftest import ROOT, serving

    app = tmp_path / "app"
    shutil.copytree(ROOT, app, ignore=shutil.ignore_patterns(".git", "tests", "docs", "bench", "__pycache__",
                                                             "screenshots", "*.pyc"))
    page_file = app / "app_pages" / "coverage.py"
    page_file.write_text(page_file.read_text(encoding="utf-8").replace(
        'if __name__ == "__main__":', 'if __name__ == "__main__":\n    raise RuntimeError("made to fail")', 1),
        encoding="utf-8")
    with serving(script=app / "Home.py", cwd=app) as proc:
        lines: list[str] = []
        found = preflight.walk(proc.url, live=False, layout=False, max_steps=4, browser=browser,
                               out=lines.append)
    assert found, "\n".join(lines)
    assert any("/coverage" in f and "EXCEPTION" in f and "made to fail" in f for f in found), found
    assert not any("/coverage" not in f for f in found), found  # the other steps are clean


def test_phone_no_page_scrolls_sideways_and_chart_labels_stay_inside(server, browser):
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, color_scheme="dark", is_mobile=True,
                              has_touch=True)
    page = ctx.new_page()
    found: list[str] = []
    try:
        for i, spec in enumerate(PAGES):
            (go_in_app if i else open_url)(page, f"{server}/{spec.url_path}")  # one session, as a visitor
            for section in each_section(page):
                where = (spec.url_path or "home") + (f" · {section}" if section else "")
                assert_clean(page)
                found += [f"{where}: {p}" for p in problems(page, "phone")]
                found += a11y.problems(page, f"{where} (phone, dark)")
                if spec.url_path not in TOOLS:
                    break  # a story page's further slides: the presenter walks draw them in both themes
    finally:
        ctx.close()
    assert not found, "\n".join(found)
