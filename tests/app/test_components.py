"""ui.components.table and its cell escaping: st.table renders cells as Markdown, so text is escaped for display
while the data (what AppTest and a CSV see) stays as it is. The browser side is tests/e2e/test_tables_browser.py."""
from __future__ import annotations

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from ui import components

from .helpers import parse_md_table, tables

@pytest.mark.parametrize("raw", [
    "GPT-3 (175B)", "text-davinci-002", "a_b *c*", "![i](x)", ":red[x] $y$ `z` ~w~", "<b>&amp;</b>", "x\\y", "# h",
    "  - item", "> quote", "12. x", "3) x", "0.123", "-0.5", "---", "#h", "a - b # c 1. d", "two\nlines",
    "http://x.invalid", "see www.x.invalid", "a@b.invalid", 3,
])
def test_cell_is_the_one_table_cell_rule_and_reads_back_literally(raw):
    """A table cell goes through helm_core.escape.table_cell (tests/core/test_escape.py has the rule's cases): one
    line, and it renders back to exactly the text."""
    from helm_core import escape

    got = components.cell(raw)
    assert got == escape.table_cell(raw) and "\n" not in got
    assert escape.unmarkdown(got) == " ".join(str(raw).splitlines())


def test_markdown_table_display():
    md = components.markdown_table(
        pd.DataFrame({"model": ["a_b", "x|y"], "score": [0.12345, None], "rank": pd.array([1, None], dtype="Int64"),
                      "url": ["https://example.invalid/x_y", ""], "ok": [True, False]}),
        labels={"score": "win *rate*"}, formats={"ok": {True: "yes", False: "no"}.get}, links=("url",),
        highlight=[True, False])
    from helm_core.escape import WORD_JOINER, markdown

    assert md.split("\n") == [
        r"| model | win \*rate\* | rank | url | ok |",
        "|---|---:|---:|---|---|",
        r"| :orange-background[a\_b] | :orange-background[0.123] | :orange-background[1] | "
        f":orange-background[[{markdown('https://example.invalid/x_y').replace(WORD_JOINER, '')}]"
        "(<https://example.invalid/x_y>)] | "
        ":orange-background[yes] |",
        r"| x\|y | – | – |  | no |",
    ]


@pytest.mark.parametrize("column,values,expected", [
    ("Observed inference time (s)", [1.94e-05, 0.0318], ["19.4 µs", "31.8 ms"]),  # never "0.000"
    ("runtime_s", [2.5, None], ["2.5 s", "–"]),
    ("EM", [0.6, 0.25], ["0.600", "0.250"]),
    ("# eval", [5.0, 1000.0], ["5", "1,000"]),
])
def test_markdown_table_reads_each_column_at_its_scale(column, values, expected):
    md = components.markdown_table(pd.DataFrame({column: values}))
    assert [line.strip("| ") for line in md.split("\n")[2:]] == expected


def test_markdown_table_reads_back():
    """The AppTest helper that reads tables back is the inverse of markdown_table for plain values."""
    df = pd.DataFrame({"model": ["GPT-3 (175B)", "a_b *c* [d](e) #f", "- g"], "v": [0.5, 0.25, None],
                       "n": [1, 2, 3]})
    back = parse_md_table(components.markdown_table(df))
    assert list(back.columns) == ["model", "v", "n"]
    assert list(back["model"]) == list(df["model"]) and list(back["n"]) == [1, 2, 3]
    assert back["v"].iloc[:2].tolist() == [0.5, 0.25] and pd.isna(back["v"].iloc[2])


def _table_app():
    from ui import components

    components.table({"model": ["a_b"], "score": [0.5]}, height=120)
    components.table({"model": ["c"]})


def test_table_is_one_markdown_element():
    at = AppTest.from_function(_table_app).run()
    assert not at.exception
    assert len(at.dataframe) == 0 and len(at.table) == 0
    assert [t.to_dict("list") for t in tables(at)] == [{"model": ["a_b"], "score": [0.5]}, {"model": ["c"]}]
