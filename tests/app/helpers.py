"""AppTest helpers: open a page of the real app (Home.py router) and check it ran cleanly."""
from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]
TIMEOUT = 60


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


def assert_clean(at: AppTest) -> None:
    assert not at.exception, [e.value for e in at.exception]


def texts(at: AppTest) -> str:
    """All markdown, caption, info, warning and error text on the page, joined."""
    parts = []
    for coll in (at.markdown, at.caption, at.info, at.warning, at.error, at.success, at.title, at.subheader, at.header):
        parts.extend(str(e.value) for e in coll)
    return "\n".join(parts)


def open_chart_data(at: AppTest) -> AppTest:
    """Open every 'Data behind this chart' expander and rerun: they render their table only when open
    (ui.components.chart), the way a visitor's click does."""
    keys = [e.proto.id.split("-", 2)[-1] for e in at.expander
            if e.label.startswith("Data behind this chart") and e.proto.id.startswith("$$ID-")]
    for k in keys:
        at.session_state[k] = True
    if keys:
        at.run()
        assert_clean(at)
    return at
