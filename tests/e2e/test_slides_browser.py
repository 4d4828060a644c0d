"""Chromium: the presenter route as an audience sees it, and the phone.

- Presenter (1280 × 720), in light: the pre-show check (bench/preflight.py) walks the route from
  `/?present=1` with PageDown. Every step must show a chart or a table fully inside the viewport, with no chart
  text under 16 px or under 4.5:1 contrast, and no chart text outside its chart or over another; every step must
  arrive in turn (the counter moves by exactly one per press, so no slide, tab or stepper step is skipped); PageUp
  goes back one step; axe-core finds no serious or critical WCAG A/AA violation on any step. The live tools are
  checked on the way: a room, its follow link, the speaker view (axe-core on both). Then in dark, what differs
  there being colour only: axe-core on every step (every step's chart text contrast on both themes is
  tests/app/test_presenter.py's; the phone sweep below draws every page in dark).
- A server with one page made to raise: the pre-show check fails, naming that page.
- Phone (390 × 844, dark): every page's first screen and every section of the tools (the runs browser, HELM's
  tables, the data page): no page scrolls sideways, no chart text falls outside its chart or over another, no
  axe-core violation.
(Desktop 1400 × 900: every story page's first visual starts on the first screen: test_pages_browser.py.)
"""
from __future__ import annotations

import shutil


from ui import nav

from bench import a11y
from .helpers import TOOLS, assert_clean, each_section, open_url
from .slide_probe import problems

PAGES = nav.available_pages()


def test_presenter_route_every_step_shows_its_visual_on_stage(server, browser):
    from bench import preflight

    lines: list[str] = []
    found = preflight.walk(server, theme="light", live=True, browser=browser, out=lines.append)
    steps = [ln for ln in lines if ln[:4].strip().isdigit()]
    assert len(steps) >= 30, "\n".join(lines)
    assert not found, "\n".join(found)


def test_presenter_route_in_dark_has_no_accessibility_violation(server, browser):
    """The route again in dark, for what differs there (colour): axe-core on every step; the layout checks and the
    live tools are the light walk's."""
    from bench import preflight

    lines: list[str] = []
    found = preflight.walk(server, theme="dark", live=False, layout=False, browser=browser, out=lines.append)
    assert len([ln for ln in lines if ln[:4].strip().isdigit()]) >= 30, "\n".join(lines)
    assert not found, "\n".join(found)


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
        for spec in PAGES:
            open_url(page, f"{server}/{spec.url_path}")
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
