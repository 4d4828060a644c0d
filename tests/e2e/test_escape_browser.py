"""helm_core.escape in a real browser: each name, escaped for its destination, shows as exactly its own text in
Chromium (st.markdown, st.caption, a Markdown table cell, plotly tick labels and title), and no Markdown, HTML,
math, emoji or link element appears. Its own server runs tests/e2e/escape_app.py."""
from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import serving
from .helpers import open_url

# Distinct names (plotly merges equal category labels); one per line, none blank.
NAMES = [
    "benchmark_output", "my_model*v2*", "[link](https://evil.example)", "![img](https://x.org/a.png)",
    "<b>bold</b> & <script>alert(1)</script>", "AT&T &amp; &lt;x&gt; &#95;", "col|umn", "$x^2$ and $$y$$",
    "~~struck~~", "`code`", "# heading", "1. first", "2) second", "- item", "> quote", "=== ---",
    "https://crfm.stanford.edu/helm/?a=1&b=2", "www.example.com", "name@example.org",
    ":smile: :red[red text] :material/star:", "GPT-4 (0613)", "back\\slash \\_", "<InstructGPT>", "tést 中文",
]
FORBIDDEN = "a, img, code, pre, em, strong, del, h1, h2, h3, h4, h5, h6, li, blockquote, hr, .katex, span[style*=color]"
APP = Path(__file__).with_name("escape_app.py")


@pytest.fixture(scope="module")
def escape_page(browser):
    with serving(script=APP) as proc:
        ctx = browser.new_context(viewport={"width": 1400, "height": 900})
        page = ctx.new_page()
        open_url(page, proc.url)
        yield page
        ctx.close()


def _text(el) -> str:
    return el.inner_text().replace("\u2060", "").strip()


def test_markdown_shows_every_name_literally(escape_page):
    for i, name in enumerate(NAMES):
        box = escape_page.locator(f".st-key-md_{i} [data-testid=stMarkdownContainer]").first
        assert _text(box) == name
        assert box.locator(FORBIDDEN).count() == 0, box.inner_html()


def test_captions_and_table_cells_show_every_name_literally(escape_page):
    captions = escape_page.locator(".st-key-captions [data-testid=stCaptionContainer]")
    assert [_text(captions.nth(i)) for i in range(captions.count())] == NAMES
    cells = escape_page.locator(".st-key-table table tbody tr td:first-child")
    assert [_text(cells.nth(i)) for i in range(cells.count())] == NAMES
    assert escape_page.locator(f".st-key-captions :is({FORBIDDEN}), .st-key-table td :is({FORBIDDEN})").count() == 0


def test_plotly_text_shows_every_name_literally(escape_page):
    ticks = escape_page.locator("[data-testid=stPlotlyChart] .xtick text")
    shown = [t.text_content() for t in ticks.all()]
    assert shown == NAMES
    assert escape_page.locator("[data-testid=stPlotlyChart] .gtitle").text_content() == NAMES[0]
    assert escape_page.locator("[data-testid=stPlotlyChart] .xtick a, [data-testid=stPlotlyChart] .xtick tspan[style*=bold]").count() == 0
