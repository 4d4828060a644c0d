"""Every page registered in the navigation runs without an exception (new pages are covered automatically)."""
from __future__ import annotations

import pytest

from ui import nav

from .helpers import false_products, hexes, open_page, texts

PAGES = nav.available_pages()


def faint_marks(at) -> list[str]:
    """Marks (a trace's markers or bars, or the line of a lines trace) whose colour keeps less than 3:1 contrast
    against the background of either theme (white, and the dark theme's #0E1117), as drawn there (ui.stage swaps
    the theme's ink): they would vanish on one of them. Outlines and text on a coloured cell are not marks."""
    import json

    from ui import palette

    found = []
    for chart in at.get("plotly_chart"):
        for trace in json.loads(chart.proto.spec).get("data", []):
            if trace.get("visible") is False or trace.get("opacity", 1) == 0:
                continue
            mode = str(trace.get("mode", "markers" if trace.get("type", "scatter") == "scatter" else ""))
            colours = []
            marker = trace.get("marker") or {}
            outline = marker.get("line") or {}
            width = outline.get("width") or 0
            width = min(width) if isinstance(width, list) and width else width  # per-point widths: the thinnest
            outlines = hexes(outline.get("color")) if isinstance(width, (int, float)) and width >= 1 else []
            if "markers" in mode or trace.get("type") in ("bar", "barpolar"):
                colours += hexes(marker.get("color"))
            if "lines" in mode:
                colours += hexes((trace.get("line") or {}).get("color"))
            for c in colours:
                for theme, bg in palette.BACKGROUNDS.items():
                    legible = [palette.contrast(palette.for_theme(x, theme), bg) >= 3 for x in [c, *outlines]]
                    if not any(legible):  # neither the fill nor an outline of 1 px or more keeps 3:1
                        found.append(f"{trace.get('name')} {c} on {theme}")
    return sorted(set(found))


RELEASES = {"classic": "HELM classic v0.4.0", "lite": "HELM Lite v1.13.0", "capabilities": "HELM Capabilities v1.15.0"}
# Pages with section tabs (test_sections.py checks this is exactly them): its statement sweep opens each of their
# sections alone by its link on classic in both cohorts with the same checks (title, release named, no faint marks),
# and every section on the later releases (release named), so here they run once, from the plain link; the other
# pages run on every release.
SECTIONED = {"", "coverage", "metrics", "grid", "calibration", "sensitivity", "podium", "cost", "studies", "releases",
             "runs", "references"}  # "": the home page (the exam, what HELM publishes)
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
    assert not faint_marks(at), f"marks under 3:1 on a theme on {spec.url_path or 'home'}: {faint_marks(at)}"
    assert not false_products(body), false_products(body)  # "N × M = K" is arithmetic: K must be N·M


def test_every_page_in_the_map_exists():
    missing = [p.file for p in nav.PAGES if not p.path.exists()]
    assert not missing, f"page files missing: {missing}"


def test_no_legacy_pages_folder():
    """A `pages/` folder next to Home.py switches Streamlit 1.67 into its legacy multipage mode for a fresh
    server's first deep link (the page then runs without Home.py: no sidebar, no URL whitelist)."""
    assert not (nav.ROOT / "pages").exists()
    assert all(p.file.startswith("app_pages/") for p in nav.PAGES)


@pytest.mark.parametrize("release", ["classic", "lite"])
def test_the_sidebar_lists_every_page_under_its_section(release):
    """The app's own page list (ui.nav.sidebar_links; Streamlit's sidebar navigation with sections writes list
    items outside a list): a heading per section, then its pages' links in the page map's order, with the titles of
    the release shown; the speaker view is reached by its own link only."""
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(nav.ROOT / "Home.py"), default_timeout=120)
    at.query_params["release"] = release
    at.run()
    assert not at.exception
    later = release != "classic"
    links = [(link.proto.page, link.proto.label) for link in at.sidebar.get("page_link")]
    assert links == [(spec.url_path, nav.title(spec, later)) for spec in PAGES]
    assert [h.value for h in at.sidebar.subheader] == list(dict.fromkeys(spec.section for spec in PAGES))
    assert all(spec.url_path not in dict(links) for spec in nav.HIDDEN)
