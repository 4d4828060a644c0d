"""helm_core.escape in a real browser: each name, escaped for its destination, shows as exactly its own text in
Chromium (st.markdown, st.caption, a Markdown table cell, plotly tick labels and title), and no Markdown, HTML,
math, emoji or link element appears (tests/e2e/escape_app.py); and the real app on a suite whose model, scenario,
metric and table names are full of `_ * [ ] < > & | $ ~` (tests/hostile_names.write_suite, loaded with
HELM_OUTPUT) shows every name literally on the first slide of every page, in its text and in its charts' SVG."""
from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urlencode

import pytest

from tests import hostile_names as H
from ui import nav

from .conftest import close_tab, serving, warm
from .helpers import assert_clean, go_in_app, open_url, watch_console

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
def escape_page(tabs):
    with serving(script=APP) as proc:
        page = tabs.new_page()
        open_url(page, proc.url)
        yield page
        close_tab(page)


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


# ----------------------------------------------------------------------------- the real app on a hostile suite

# The main area's text, and each SVG text element of its charts (a label's lines, split by plotly at <br>, joined
# by a space).
PAGE_TEXT_JS = """() => {
  const main = document.querySelector('[data-testid="stMain"]');
  const svg = [...main.querySelectorAll('[data-testid="stPlotlyChart"] svg text')].map(t => {
    const lines = t.querySelectorAll('tspan.line');
    return lines.length ? [...lines].map(l => l.textContent).join(' ') : t.textContent;
  });
  return {text: main.innerText, svg};
}"""
ENTITY_TEXT = re.compile(r"&#|&lt;|&gt;|&amp;")
STRAY_BACKSLASH = re.compile(r"\\[!-/:-@\[-`{-~]")


@pytest.fixture(scope="module")
def hostile_app(tabs, tmp_path_factory):
    suite = H.write_suite(tmp_path_factory.mktemp("hostile") / "out")
    with serving(extra_env={"HELM_OUTPUT": str(suite)}) as proc:
        warm(tabs, proc.url)
        page = watch_console(tabs.new_page())
        yield proc.url, page
        close_tab(page)


def _problems(text: str) -> list[str]:
    """A name not shown as written, entity text, a backslash before punctuation (the names themselves, which hold
    `&amp;` as text, taken out first)."""
    out = H.not_literal(text, H.NAMES)
    rest = text
    for name in H.NAMES:
        rest = rest.replace(name, " ")
    out += [f"entity text {m.group(0)!r} in {rest[max(0, m.start() - 40):m.end() + 40]!r}"
            for m in ENTITY_TEXT.finditer(rest)]
    out += [f"stray backslash in {rest[max(0, m.start() - 40):m.end() + 40]!r}"
            for m in STRAY_BACKSLASH.finditer(rest)]
    return out


def test_every_page_shows_hostile_names_literally(hostile_app):
    """The first slide of every page on the hostile suite (opened on a hostile name where the link can: the grid's
    cell, the sensitivity page's scenario): each name in the main area's text and in every chart's SVG text reads
    exactly as written (no entity, no stray backslash, no mark turned into formatting), and between them the pages
    show every model, scenario and metric name."""
    base, page = hostile_app
    seen_text, seen_svg, problems = set(), set(), []
    for i, spec in enumerate(nav.available_pages()):
        # The first page loads the app; the others are reached in the same session, as a visitor moves on.
        (go_in_app if i else open_url)(page, f"{base}/{spec.url_path}?"
                                       + urlencode({"cohort": "all", **H.LINKS.get(spec.url_path, {})}))
        assert_clean(page)
        got = page.evaluate(PAGE_TEXT_JS)
        text = " ".join(got["text"].replace("\u2060", "").split())
        svg = [" ".join(t.replace("\u2060", "").split()) for t in got["svg"]]
        problems += [f"/{spec.url_path}: {p}" for p in _problems(text)]
        problems += [f"/{spec.url_path} chart: {p}" for t in svg for p in _problems(t)]
        seen_text |= {n for n in H.NAMES if n in text}
        seen_svg |= {n for n in H.NAMES if any(n in t for t in svg)}
    assert not problems, problems[:10]
    names = {H.MODEL, H.OTHER, H.SCENARIO, H.METRIC}
    assert names <= seen_text and names <= seen_svg, (names - seen_text, names - seen_svg)
