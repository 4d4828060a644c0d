"""ui.components.table (one Markdown table) in Chromium: every cell and header shows its text literally (no markup,
no image fetched, no math), numbers are formatted and aligned right, marked rows are highlighted, and only the
project's own URL columns become links."""
from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import serving
from .helpers import assert_clean, open_url
from .table_probe import HOSTILE

PROBE = Path(__file__).with_name("table_probe.py")


@pytest.fixture(scope="module")
def probe():
    with serving(script=PROBE) as proc:
        yield proc.url


def test_cells_and_headers_are_shown_literally(probe, page):
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    open_url(page, probe)
    assert_clean(page)
    table = page.locator('[data-testid="stMarkdown"] table').first
    header = [h.inner_text().strip() for h in table.locator("thead th").all()]
    assert header == ["text_with *markup*", "score"]
    rows = table.locator("tbody tr")
    # Bare URLs and addresses carry an invisible word joiner (U+2060) that keeps them from becoming links.
    shown = [rows.nth(i).locator("td").first.inner_text().strip().replace("\u2060", "") for i in range(rows.count())]
    assert shown == [" ".join(h.splitlines()) for h in HOSTILE]
    assert [rows.nth(i).locator("td").nth(1).inner_text().strip() for i in range(2)] == ["0.123", "–"]
    for tag in ("img", "a", "em", "code", "del", "h1", "ol", "ul", "blockquote", ".katex"):
        assert table.locator(tag).count() == 0, tag
    assert not [u for u in requests if "127.0.0.9" in u]
    assert rows.nth(0).locator("td").nth(1).evaluate("e => getComputedStyle(e).textAlign") == "right"
    background = "e => getComputedStyle(e).backgroundColor"
    marked = [rows.nth(i).locator("td span").count() > 0
              and rows.nth(i).locator("td span").first.evaluate(background) not in ("rgba(0, 0, 0, 0)", "transparent")
              for i in range(rows.count())]
    assert marked == [i == 1 for i in range(rows.count())]


def test_url_columns_are_links(probe, page):
    open_url(page, probe)
    link = page.locator('[data-testid="stMarkdown"] table').nth(1).locator("a")
    assert link.count() == 1
    assert link.get_attribute("href") == "https://github.com/stanford-crfm/helm"
    assert link.inner_text() == "https://github.com/stanford-crfm/helm"
