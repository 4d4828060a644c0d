"""AppTest helpers: open a page of the real app (Home.py router) and check it ran cleanly."""
from __future__ import annotations

import re
from pathlib import Path

import pandas as pd
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]
TIMEOUT = 60


# The suite built like crfm-helm 0.5.16 output (tests/fixtures/make_helm_0516.py): one model's LSAT runs under
# the joint and the separate multiple-choice method.
SUITE_0516 = Path(__file__).resolve().parents[1] / "fixtures" / "helm_output_0516"
LSAT_JOINT = "lsat_qa:task=all,method=multiple_choice_joint,model=eleutherai_pythia-70m"
LSAT_SEPARATE = "lsat_qa:task=all,method=multiple_choice_separate_original,model=eleutherai_pythia-70m"


def open_page(file: str | None = None, query: dict[str, str] | None = None) -> AppTest:
    """Run Home.py, then switch to `file` (e.g. "app_pages/grid.py").

    Query params are set before the first run (so the sidebar's widgets are seeded) and again before the
    page switch (the first run lands on the default page, which drops keys it does not know)."""
    at = AppTest.from_file(str(ROOT / "Home.py"), default_timeout=TIMEOUT)
    for k, v in (query or {}).items():
        at.query_params[k] = v
    at.run()
    if file and Path(file).name != "plumbing.py":
        for k, v in (query or {}).items():
            at.query_params[k] = v
        at.switch_page(file).run()
    assert_clean(at)
    return at


def open_story_page(file: str, query: dict[str, str | list[str]] | None = None,
                    session: dict | None = None, section: str | None = None) -> AppTest:
    """Like open_page, but the page's own query keys reach it: the first run (the default page) drops keys it
    does not declare, so they are set again after switching, before the page's first run. `session` is set
    before the first run; then the section tab `section` is opened (a click on it)."""
    at = AppTest.from_file(str(ROOT / "Home.py"), default_timeout=TIMEOUT)
    for k, v in (query or {}).items():
        at.query_params[k] = v
    for k, v in (session or {}).items():
        at.session_state[k] = v
    at.run()
    at.switch_page(file)
    for k, v in (query or {}).items():
        at.query_params[k] = v
    at.run()
    assert_clean(at)
    if section is not None:
        open_section(at, section)
    return at


def assert_clean(at: AppTest) -> None:
    assert not at.exception, [e.value for e in at.exception]


def shown(markdown_text: str) -> str:
    """Markdown source as a reader sees it: the escapes that keep data text literal (helm_core.escape) resolved and
    the invisible word joiners (against autolinks) dropped."""
    from helm_core.escape import unmarkdown

    return unmarkdown(markdown_text)


def texts(at: AppTest, *, raw: bool = False) -> str:
    """All markdown, caption, info, warning and error text on the page, joined, as a reader sees it: the escapes
    that keep data text literal (helm_core.escape.markdown) resolved. `raw`: the Markdown source as sent."""
    from helm_core.escape import unmarkdown

    parts = []
    for coll in (at.markdown, at.caption, at.info, at.warning, at.error, at.success, at.title, at.subheader, at.header):
        parts.extend(str(e.value) for e in coll)
    joined = "\n".join(parts)
    return joined if raw else unmarkdown(joined)


def open_chart_data(at: AppTest) -> AppTest:
    """Open every 'Data behind this chart' expander and rerun: they render their table only when open
    (ui.components.chart), the way a visitor's click does."""
    return open_lazy(at, "Data behind this chart")


def open_lazy(at: AppTest, label_prefix: str) -> AppTest:
    """Open the lazy expanders (ui.components.lazy_expander) whose label starts with `label_prefix`, and rerun."""
    keys = [e.proto.id.split("-", 2)[-1] for e in at.expander
            if e.label.startswith(label_prefix) and e.proto.id.startswith("$$ID-")]
    for k in keys:
        at.session_state[k] = True
    if keys:
        at.run()
        assert_clean(at)
    return at


def section_tabs(at: AppTest) -> tuple[str | None, list]:
    """The page's section tabs (ui.components.sections): their query key, and the tabs in order
    (`.label`; a closed section's tab has no children, since only the open one is built)."""
    def find(node):
        children = getattr(node, "children", None)
        if not isinstance(children, dict):
            return None
        if any(type(c).__name__ == "Tab" for c in children.values()):
            return node
        return next((hit for c in children.values() if (hit := find(c)) is not None), None)

    block = find(at._tree)
    if block is None:
        return None, []
    return block.proto.tab_container.query_param_key, [c for c in block.children.values() if type(c).__name__ == "Tab"]


def section_labels(at: AppTest) -> list[str]:
    """The labels of the page's section tabs, in order."""
    return [t.label for t in section_tabs(at)[1]]


def open_section(at: AppTest, label: str) -> AppTest:
    """Open the section tab `label` and rerun, the way a click does: only the open section is built."""
    key, tabs = section_tabs(at)
    assert label in [t.label for t in tabs], (label, [t.label for t in tabs])
    at.session_state[key] = label
    if key in at.query_params:  # a section opened by the link: the link's value would win on the rerun
        at.query_params[key] = label
    at.run()
    assert_clean(at)
    return at


def page_links(at: AppTest) -> dict[str, dict[str, str]]:
    """Label -> query parameters of the page links on the page."""
    from urllib.parse import parse_qsl

    return {p.label: dict(parse_qsl(p.proto.query_string)) for p in at.get("page_link")}


def chart_keys(at: AppTest) -> list[str]:
    """The keys of the plotly charts on the page, in order."""
    return [c.proto.id.rsplit("-", 1)[-1] for c in at.get("plotly_chart")]


def tables(at: AppTest) -> list[pd.DataFrame]:
    """The data of every table on the page: st.dataframe, st.table (its text as sent: Markdown-escaped), and the
    Markdown tables of ui.components.table read back (text unescaped, "–" as missing, numeric columns as numbers,
    highlight markers dropped)."""
    frames = [e.value for e in at.dataframe] + [e.value for e in at.table]
    return frames + [parse_md_table(m.value) for m in at.markdown if is_md_table(m.value)]


def is_md_table(text: str) -> bool:
    lines = text.split("\n")
    return len(lines) >= 2 and lines[0].startswith("| ") and re.fullmatch(r"\|(?:-{3}:?\|)+", lines[1]) is not None


def md_rows(text: str) -> list[list[str]]:
    """The raw (still escaped) cells of a Markdown table, header row first."""
    rows = []
    for line in [ln for i, ln in enumerate(text.split("\n")) if i != 1]:
        cells, cur, i = [], "", 1
        while i < len(line) - 1:
            ch = line[i]
            if ch == "\\":
                cur += line[i:i + 2]
                i += 2
                continue
            if ch == "|":
                cells.append(cur.strip())
                cur = ""
            else:
                cur += ch
            i += 1
        cells.append(cur.strip())
        rows.append(cells)
    return rows


def unescape_md(cell: str) -> str:
    m = re.fullmatch(r":[a-z-]+-background\[(.*)\]", cell)
    cell = m.group(1) if m else cell
    return re.sub(r"\\(.)", r"\1", cell).replace("\u2060", "")


def parse_md_table(text: str) -> pd.DataFrame:
    rows = md_rows(text)
    df = pd.DataFrame([[unescape_md(c) for c in r] for r in rows[1:]], columns=[unescape_md(c) for c in rows[0]])
    for c in df.columns:
        values = df[c].replace("–", None)
        try:
            df[c] = pd.to_numeric(values)
        except (ValueError, TypeError):
            df[c] = values
    return df


def hexes(value) -> list[str]:
    """The #RRGGBB colours in a plotly colour value (a string or a list of them; numbers are a colour scale's)."""
    items = value if isinstance(value, list) else [value]
    named = {"black": "#000000", "white": "#FFFFFF"}
    out = []
    for v in items:
        if isinstance(v, str):
            v = named.get(v.lower(), v)
            if len(v) == 7 and v.startswith("#"):
                out.append(v)
    return out


def faint_text(spec: dict) -> list[str]:
    """A chart's texts (ticks, axis titles, legend, colour bar, title, annotations: what the presenter walk
    measures in Chromium) whose colour keeps less than 4.5:1 against the background of either theme, as drawn
    there (ui.palette.for_theme: ui.stage swaps the theme's ink). A text with no colour of its own takes the
    layout's font colour."""
    from ui import palette

    layout = spec.get("layout", {})
    base = (layout.get("font") or {}).get("color")
    found = []

    def check(where: str, font: dict | None) -> None:
        colour = (font or {}).get("color", base)
        for c in hexes(colour):
            for theme, bg in palette.BACKGROUNDS.items():
                if palette.contrast(palette.for_theme(c, theme), bg) < 4.5:
                    found.append(f"{where} {c} on {theme}")

    for name, axis in layout.items():
        if name.startswith(("xaxis", "yaxis")) and isinstance(axis, dict):
            if axis.get("showticklabels") is not False:
                check(f"{name} ticks", axis.get("tickfont"))
            if isinstance(axis.get("title"), dict) and axis["title"].get("text"):
                check(f"{name} title", axis["title"].get("font"))
    if layout.get("showlegend") is not False:
        check("legend", (layout.get("legend") or {}).get("font"))
    if isinstance(layout.get("title"), dict) and layout["title"].get("text"):
        check("title", layout["title"].get("font"))
    for i, a in enumerate(layout.get("annotations") or []):
        if a.get("text") and a.get("visible") is not False:
            check(f"annotation {i}", a.get("font"))
    for trace in spec.get("data", []):
        bar = (trace.get("marker") or {}).get("colorbar")
        if isinstance(bar, dict) and (trace.get("marker") or {}).get("showscale"):
            check("colour bar", bar.get("tickfont"))
    return sorted(set(found))


_PRODUCT = re.compile(r"(\d[\d,]*)\s+[^\d=.;:]{0,40}?×\s*(\d[\d,]*)\s+[^\d=.;:]{0,40}?=\s*(\d[\d,]*)")


def false_products(text: str) -> list[str]:
    """Sentences of the shape "N things × M others = K" whose K is not N × M (they read as arithmetic)."""
    n = lambda s: int(s.replace(",", ""))  # noqa: E731
    return [m.group(0) for m in _PRODUCT.finditer(text) if n(m.group(1)) * n(m.group(2)) != n(m.group(3))]
