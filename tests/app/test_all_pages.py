"""Every page registered in the navigation runs without an exception (new pages are covered automatically)."""
from __future__ import annotations

import pytest

from ui import nav

from .helpers import open_page, texts

PAGES = nav.available_pages()


def black_marks(at) -> list[str]:
    """Traces drawn in pure black (markers, or the line of a lines trace): invisible on the dark theme.
    Black as an outline or as text on a coloured cell is fine."""
    import json

    found = []
    for chart in at.get("plotly_chart"):
        for trace in json.loads(chart.proto.spec).get("data", []):
            marker_colour = (trace.get("marker") or {}).get("color")
            line_colour = (trace.get("line") or {}).get("color") if "lines" in str(trace.get("mode", "")) else None
            if "#000000" in (marker_colour, line_colour) or "black" in (marker_colour, line_colour):
                found.append(str(trace.get("name")))
    return found


RELEASES = {"classic": "HELM classic v0.4.0", "lite": "HELM Lite v1.13.0", "capabilities": "HELM Capabilities v1.15.0"}
# Pages with section tabs (test_sections.py checks this is exactly them): test_every_section_builds_alone there
# opens each of their sections (the first included) on every bundled release with the same checks (title, release
# named, no black marks), so here they run once, from the plain link; the other pages run on every release.
SECTIONED = {"", "coverage", "metrics", "grid", "calibration", "sensitivity", "podium", "cost", "studies", "releases",
             "runs"}  # "": the home page (the exam, what HELM publishes)
CASES = [(spec, release) for spec in PAGES
         for release in ([None] if spec.url_path in SECTIONED else [None, *RELEASES])]


@pytest.mark.cold_caches
@pytest.mark.parametrize("spec,release", CASES,
                         ids=[f"{s.url_path or 'home'}-{r or 'default'}" for s, r in CASES])
def test_page_runs_cleanly(spec, release):
    """Every page from cold caches (None = no `release=` in the link: classic), and every page without section
    tabs on every bundled release, naming the release."""
    at = open_page(spec.file, query={"release": release} if release else None)
    body = texts(at)
    assert nav.title(spec, (release or "classic") != "classic") in body
    assert f"Data: {RELEASES[release or 'classic']}" in body
    assert not black_marks(at), f"pure black marks on {spec.url_path or 'home'}: {black_marks(at)}"


def test_every_page_in_the_map_exists():
    missing = [p.file for p in nav.PAGES if not p.path.exists()]
    assert not missing, f"page files missing: {missing}"


def test_no_legacy_pages_folder():
    """A `pages/` folder next to Home.py switches Streamlit 1.67 into its legacy multipage mode for a fresh
    server's first deep link (the page then runs without Home.py: no sidebar, no URL whitelist)."""
    assert not (nav.ROOT / "pages").exists()
    assert all(p.file.startswith("app_pages/") for p in nav.PAGES)


@pytest.mark.parametrize("spec", PAGES, ids=[p.url_path or "home" for p in PAGES])
def test_page_runs_in_presenter_mode_with_a_capped_main_chart(spec):
    """?present=1: the bar shows 'section k of n', and the first chart of the page (its main chart, placed right
    under the header) is capped so it fits a 1280 × 720 screen; the browser test checks the position."""
    import json
    import re

    from ui import presenter

    from ui import slides

    at = open_page(spec.file, query={"present": "1"})
    charts = at.get("plotly_chart")
    if slides.deck_of(spec) is not None:
        # A slide deck: the bar says "Step k of n · page · slide"; the slide's chart fills the stage under its point.
        assert re.search(r"\*\*Step \d+ of \d+\*\* · " + re.escape(spec.title), texts(at)), spec.url_path
        limit = slides.STAGE_HEIGHT - slides._STAGE_CHROME - slides._POINT_LINE
    else:
        k = PAGES.index(spec) + 1
        assert f"Section {k} of {len(PAGES)}" in texts(at)
        limit = presenter.MAIN_CHART_MAX_HEIGHT
    if charts:
        height = json.loads(charts[0].proto.spec)["layout"].get("height")
        assert height is not None and height <= limit, (spec.url_path, height)
