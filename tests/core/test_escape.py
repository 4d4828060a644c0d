"""helm_core.escape: one escaping rule per destination. Names full of Markdown, HTML and Streamlit syntax go through
every function and must come back as the literal text (the browser check is tests/e2e/test_escape_browser.py)."""
from __future__ import annotations

import html
import re
import textwrap

import pytest

from helm_core import escape

# Characters Markdown (CommonMark + GFM), remark-math or Streamlit's directives read anywhere in a line.
INLINE_SPECIAL = set("\\`*_{}[]<>#+-=!|~$&:")
NAMES = [
    "benchmark_output", "my_model*v2*", "[link](https://evil.example)", "![img](https://x.org/a.png)",
    "<b>bold</b> & <script>alert(1)</script>", "a < b > c", "AT&T &amp; &lt;x&gt; &#95;", "col|umn | pipe",
    "$x^2$ and $$y$$", "~~struck~~ ~tilde", "`code` and ``more``", "# heading", "## two", "1. first", "2) second",
    "  3. indented", "- item", "+ item", "> quote", "=== ---", "***", "https://crfm.stanford.edu/helm/?a=1&b=2",
    "www.example.com", "name@example.org", ":smile: :red[red text] :material/star: :)", "GPT-4 (0613)",
    "Llama 2 (70B)", "back\\slash \\_ \\*", "under_score_name_", "{curly}", "tést 中文 ✓", "", "two\nlines\n# h2",
    "T0pp (11B)", "<InstructGPT>", "a!b", "12:30", "100% {x} %{y} %%{z}",
]


def _unescaped_specials(md: str) -> list[str]:
    """Special characters of `md` not preceded by an escaping backslash (a backslash escapes the next character)."""
    out, i = [], 0
    while i < len(md):
        ch = md[i]
        if ch == "\\" and i + 1 < len(md):
            i += 2
            continue
        if ch in INLINE_SPECIAL:
            out.append(ch)
        i += 1
    return out


def _line_start_markers(md: str) -> list[str]:
    """Lines of `md` that would start a heading, list, quote or thematic break (CommonMark block starts)."""
    bad = []
    for line in md.split("\n"):
        s = line.lstrip(" ")
        if re.match(r"(#{1,6}(\s|$)|[-+*>](\s|$)|\d{1,9}[.)](\s|$)|(-{3,}|_{3,}|\*{3,}|={3,})\s*$)", s):
            bad.append(line)
    return bad


@pytest.mark.parametrize("name", NAMES)
def test_markdown_escapes_every_special_character_and_reads_back(name):
    md = escape.markdown(name)
    assert _unescaped_specials(md) == [], md
    assert _line_start_markers(md) == [], md
    assert escape.unmarkdown(md) == name
    # a bare web address, e-mail or emoji shortcode carries a word joiner, so the renderer does not link it
    for word in ("https", "www", "@", ":smile"):
        if word in name:
            assert escape.WORD_JOINER in md


@pytest.mark.parametrize("name", NAMES)
def test_table_cell_is_one_escaped_line(name):
    cell = escape.table_cell(name)
    assert "\n" not in cell
    assert _unescaped_specials(cell) == []
    assert "|" not in cell.replace("\\|", "")
    assert escape.unmarkdown(cell) == " ".join(name.splitlines())


@pytest.mark.parametrize("name", NAMES)
def test_plain_is_untouched(name):
    assert escape.plain(name) == name


@pytest.mark.parametrize("name", NAMES)
def test_chart_label_leaves_no_tag_or_entity_for_plotly(name):
    label = escape.chart_label(name)
    assert "<" not in label and ">" not in label
    assert "%{" not in label  # a hovertemplate would read it as a field
    assert re.sub(r"&(amp|lt|gt|#123);", "", label).count("&") == 0  # every & starts one of the entities
    assert escape.unchart_label(label) == name
    assert html.unescape(label) == name


@pytest.mark.parametrize("name", NAMES)
def test_html_attr_round_trips(name):
    attr = escape.html_attr(name)
    assert not set(attr) & set("<>\"'")
    assert html.unescape(attr) == name


@pytest.mark.parametrize("func,value,expected", [
    (escape.markdown, None, ""), (escape.plain, None, ""), (escape.chart_label, None, ""), (escape.markdown, 0.5, "0.5"),
    (escape.markdown, "benchmark_output", "benchmark\\_output"),  # not "benchmark&#95;output"
    (escape.markdown, "a <b>", "a \\<b\\>"), (escape.chart_label, "a <b> & c", "a &lt;b&gt; &amp; c"),
    (escape.chart_label, "50% %{x}", "50% %&#123;x}"),
    (escape.html_attr, 'x"y', "x&quot;y"), (escape.markdown, "1. first", "1\\. first"),
    (escape.table_cell, "a\nb|c", "a b\\|c"),
])
def test_examples(func, value, expected):
    assert func(value) == expected


def test_no_lookalikes_names_keep_their_characters():
    """Names with < > [ ] show literally: no ‹ › ( ) substitutes."""
    for name in ("<InstructGPT>", "[beta]", "a*b"):
        out = escape.unmarkdown(escape.markdown(name))
        assert out == name and not set(out) & set("‹›∗")


def _markdown_app(names):
    import streamlit as st

    from helm_core.escape import markdown

    for n in names:
        st.markdown(markdown(n))


def test_streamlit_keeps_the_escaped_markdown(tmp_path):
    """AppTest: st.markdown of escaped names stores the escaped text (Streamlit dedents and strips a body, as
    Markdown ignores leading spaces anyway), which reads back as the name."""
    from streamlit.testing.v1 import AppTest

    names = [n for n in NAMES if n.strip()]
    at = AppTest.from_function(_markdown_app, args=(names,), default_timeout=30).run()
    assert not at.exception
    got = [m.value for m in at.markdown]
    assert got == [textwrap.dedent(escape.markdown(n)).strip() for n in names]
    assert [escape.unmarkdown(v) for v in got] == [textwrap.dedent(n).strip() for n in names]
