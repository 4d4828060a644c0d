"""Chromium: the tiles of the 16 × 7 grid (and of Metric Orbit's correlation grid) never overlap, at 1280 × 720,
1400 × 900 and a narrow window, in every view. Bounding boxes come from plotly's SVG (the grid's tiles are its
layout shapes). (Every presenter step's fit and text: test_slides_browser.py.)"""
from __future__ import annotations

import pytest

from .helpers import go_in_app, open_url, wait_settled

TILES_JS = """key => [...document.querySelectorAll(`.st-key-${key} [data-testid="stPlotlyChart"] .shapelayer path`)]
  .map(p => { const b = p.getBoundingClientRect(); return [b.left, b.top, b.right, b.bottom]; })"""


def _intersect(a, b, tol: float = 0.5) -> bool:
    return min(a[2], b[2]) - max(a[0], b[0]) > tol and min(a[3], b[3]) - max(a[1], b[1]) > tol


def _contains(a, b, tol: float = 0.5) -> bool:
    return a[0] - tol <= b[0] and a[1] - tol <= b[1] and b[2] <= a[2] + tol and b[3] <= a[3] + tol


def tile_overlaps(boxes: list[list[float]]) -> list[tuple[int, int]]:
    """Pairs of drawn grid shapes that overlap, other than a blank tile's cross inside its own tile."""
    bad = []
    for i, a in enumerate(boxes):
        for j in range(i + 1, len(boxes)):
            b = boxes[j]
            if _intersect(a, b) and not (_contains(a, b) or _contains(b, a)):
                bad.append((i, j))
    return bad


@pytest.mark.parametrize("a,b,expected", [
    ([0, 0, 10, 10], [10, 0, 20, 10], False),   # neighbours touching at an edge
    ([0, 0, 10, 10], [9, 0, 20, 10], True),     # overlapping by a pixel band
    ([0, 0, 10, 10], [2, 2, 8, 8], True),       # one inside the other (a cross in its tile) intersects
])
def test_intersect(a, b, expected):
    assert _intersect(a, b) is expected


def test_tile_overlaps_flags_overlap_but_not_a_cross_in_its_tile():
    assert tile_overlaps([[0, 0, 10, 10], [12, 0, 22, 10], [2, 2, 8, 8]]) == []
    assert tile_overlaps([[0, 0, 10, 10], [8, 0, 18, 10]]) == [(0, 1)]


def _stage(browser):
    ctx = browser.new_context(viewport={"width": 1280, "height": 720})
    page = ctx.new_page()
    page.console_errors = []  # type: ignore[attr-defined]
    page.on("pageerror", lambda e: page.console_errors.append(str(e)))  # type: ignore[attr-defined]
    return ctx, page


def test_grid_tiles_never_overlap(server, browser):
    ctx, page = _stage(browser)
    try:
        # Every screen size and every view once (the tiles' geometry is the chart's layout, the same for every
        # view and cohort; the views differ in marks, hatching and hover): three runs rather than all 9 pairs,
        # and the correlation grid after the first; presenter mode last (a link that turns it on turns it on for
        # the session).
        cases = [((1400, 900), "schema", "all"), ((760, 900), "data", "paper"), ((1280, 720), "paper", "paper")]
        for i, ((width, height), view, cohort) in enumerate(cases):
            page.set_viewport_size({"width": width, "height": height})
            present = "&present=1" if width == 1280 else ""
            # one session, as a visitor resizing the window and following links (helpers.go_in_app)
            (go_in_app if i else open_url)(page, f"{server}/grid?view={view}&cohort={cohort}{present}")
            page.wait_for_selector(".st-key-grid_cells .shapelayer path", timeout=60_000)
            wait_settled(page)
            boxes = page.evaluate(TILES_JS, "grid_cells")
            tiles = [b for b in boxes if not any(_contains(o, b) and o is not b for o in boxes)]
            assert len(tiles) == 112, (width, view, cohort, len(tiles))
            sizes = {(round(b[2] - b[0]), round(b[3] - b[1])) for b in tiles}
            assert len({w for w, _ in sizes}) <= 2 and len({h for _, h in sizes}) <= 2, sizes  # equal tiles
            assert min(w for w, _ in sizes) >= 8 and min(h for _, h in sizes) >= 8, sizes
            assert tile_overlaps(boxes) == [], (width, view, cohort)
            if i != 0:
                continue
            # the Metric Orbit's correlation grid is drawn the same way
            go_in_app(page, f"{server}/metrics?metrics_section=Track%20accuracy"
                            + ("&present=1" if width == 1280 else ""))
            page.wait_for_selector(".st-key-metrics_corr .shapelayer path", timeout=60_000)
            wait_settled(page)
            assert tile_overlaps(page.evaluate(TILES_JS, "metrics_corr")) == [], ("metrics_corr", width)
    finally:
        ctx.close()
