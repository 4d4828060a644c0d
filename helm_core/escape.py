"""One escaping rule per destination, so a name from the data (or from a visitor's files) shows literally.

Pure (no Streamlit import). Pick the function by where the text goes, never by what it contains:

| destination | function | rule |
|---|---|---|
| `st.markdown`, `st.caption`, `st.info`..., a widget's `help`/`label` (Markdown) | `markdown` | backslash escapes |
| one cell or header of a Markdown table | `table_cell` | `markdown` on one line, `|` escaped too |
| `st.text`, `st.code`, `st.dataframe` cells, CSV, a chart's `alt` text | `plain` | nothing: shown as typed |
| plotly text (titles, tick labels, legend, text, hover text, annotations) | `chart_label` | `&`, `<`, `>` (and the `{` of `%{`) as entities |
| an attribute of raw HTML | `html_attr` | `html.escape(quote=True)` |

Markdown gets backslash escapes, not HTML entities: Streamlit's Markdown shows an entity such as `&#95;` as typed,
which once put `benchmark&#95;output` on screen. CommonMark makes a backslash before any ASCII punctuation mark
a literal, so `markdown` escapes every one of them that Markdown, GitHub's extensions or Streamlit's own syntax
could read (emphasis, links, images, code, HTML, tables, strikethrough, math `$`, colour and icon directives
`:red[...]`, `:material/...:`, emoji `:smile:`, entity `&amp;`), and the marks that start a heading, list or
quote at the beginning of a line (`#`, `-`, `+`, `1.`, `>`).

Two things survive backslash escapes because Streamlit's renderer finds them in the text after escapes are
resolved: bare web addresses (`https://…`, `www.…`, `name@host`) become links, and `:name:` becomes an emoji. An
invisible word joiner (U+2060) after the scheme, `www`, `@` or a colon breaks both; `unmarkdown` removes it again.
"""
from __future__ import annotations

import html
import re

WORD_JOINER = "\u2060"

# Every ASCII punctuation mark Markdown (CommonMark + GFM), remark-math or Streamlit's directives could read.
# Backslash-escaping any ASCII punctuation is always a literal in CommonMark, so escaping a harmless one (".")
# only costs a character; it is done only at the start of a line ("1." list marker), not everywhere.
_INLINE = re.compile(r"([\\`*_{}\[\]<>#+\-=!|~$&:])")
_LINE_START_NUMBER = re.compile(r"^(\s*\d{1,9})([.)])(?=\s|$)", re.MULTILINE)
_AUTOLINK = re.compile(r"(?i)(\bhttps?|\bftp|\bwww|@)(?=\\?[:.]|[-\w])|(\\:)")
_UNESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")


def _text(value: object) -> str:
    return "" if value is None else str(value)


def markdown(value: object) -> str:
    """`value` as Markdown that renders as exactly this text (line breaks kept as Markdown line breaks: a single
    newline joins lines, as Markdown does; use `plain` with st.text for preformatted text)."""
    s = _INLINE.sub(r"\\\1", _text(value))
    s = _LINE_START_NUMBER.sub(r"\1\\\2", s)
    return _AUTOLINK.sub(lambda m: (m.group(1) or m.group(2)) + WORD_JOINER, s)


def table_cell(value: object) -> str:
    """One cell (or header) of a Markdown table: `markdown` on a single line (line breaks become spaces, since a
    newline would end the table row); `|` is escaped by `markdown` already, so it cannot split the cell."""
    return markdown(" ".join(_text(value).splitlines()))


def plain(value: object) -> str:
    """Text for a destination that is not Markdown (st.text, st.code, a dataframe cell, a CSV, alt text): no
    escaping at all, so it shows as typed. None becomes ""."""
    return _text(value)


def chart_label(value: object) -> str:
    """Text for plotly (titles, axis and tick labels, category values, legend names, `text`, hover text,
    annotations). Plotly reads a subset of HTML in these (<b>, <br>, <a href>, <span style>...) and decodes entities,
    so `&`, `<` and `>` become `&amp;`, `&lt;`, `&gt;` and the text shows literally. A hovertemplate also reads
    `%{name}` as a field: the `{` of a `%{` in the text becomes `&#123;` (decoded when plotly draws it), so the
    escaped text can be put into a template beside the template's own fields. Escape once, where the text enters
    the figure; the builder's own markup (`<br>`, `<b>`) goes around the escaped text."""
    return _text(value).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("%{", "%&#123;")


def html_attr(value: object) -> str:
    """A value for an attribute of raw HTML (quotes escaped too)."""
    return html.escape(_text(value), quote=True)


def unmarkdown(text: str) -> str:
    """The literal text a `markdown`/`table_cell` result renders as: backslash escapes resolved (CommonMark: a
    backslash before ASCII punctuation) and word joiners removed. For tests and for reading escaped text back."""
    return _UNESCAPE.sub(r"\1", text).replace(WORD_JOINER, "")


def unchart_label(text: str) -> str:
    """The literal text a `chart_label` result shows as (its entities decoded)."""
    return text.replace("%&#123;", "%{").replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")
