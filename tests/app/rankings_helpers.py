"""Helpers shared by the Rankings page tests (podium, cost)."""
from __future__ import annotations

import base64
import json
from dataclasses import replace

import numpy as np

import pandas as pd
from streamlit.testing.v1 import AppTest

from .helpers import ROOT, TIMEOUT, assert_clean


SIDEBAR_KEYS = {"cohort", "access"}


def open_with(file: str, query: dict[str, str] | None = None, session: dict | None = None) -> AppTest:
    """Run Home.py once, then set the page's own query parameters (and session state) and switch to `file`.

    `open_page(file, query=...)` sets the query before Home.py's first run, where the default page drops every
    key it does not declare, so page-specific keys (recipe, w_*, cost, ...) must be set after that run."""
    at = AppTest.from_file(str(ROOT / "Home.py"), default_timeout=TIMEOUT)
    for k, v in (session or {}).items():
        at.session_state[k] = v
    for k in SIDEBAR_KEYS & set(query or {}):  # the sidebar's widgets read the URL on the first run
        at.query_params[k] = query[k]
    at.run()
    for k, v in (query or {}).items():
        at.query_params[k] = v
    at.switch_page(file).run()
    assert_clean(at)
    return at


def chart_spec(at: AppTest, key: str) -> dict:
    """The plotly figure (as JSON) of the chart drawn with components.chart(key=...)."""
    for c in at.get("plotly_chart"):
        if c.proto.id.endswith("-" + key):
            return json.loads(c.proto.spec)
    raise AssertionError(f"no chart with key {key!r}; charts: {[c.proto.id for c in at.get('plotly_chart')]}")


def chart_alt(at: AppTest, key: str) -> str:
    """The text alternative (the browser's aria-label) of the chart drawn with components.chart(key=...)."""
    for c in at.get("plotly_chart"):
        if c.proto.id.endswith("-" + key):
            return c.proto.alt
    raise AssertionError(f"no chart with key {key!r}; charts: {[c.proto.id for c in at.get('plotly_chart')]}")


def values(v) -> list:
    """A plotly JSON array as a list (plotly 7 sends numpy arrays as base64 typed arrays)."""
    if isinstance(v, dict) and "bdata" in v:
        return np.frombuffer(base64.b64decode(v["bdata"]), dtype=np.dtype(v["dtype"])).tolist()
    return list(v)


def plain(at: AppTest) -> str:
    """The page's text (helpers.texts) as a reader sees it: Markdown escapes resolved (helm_core.escape)."""
    from helm_core.escape import unmarkdown

    from .helpers import texts

    return unmarkdown(texts(at))


def podium_lines(at: AppTest, title: str) -> str:
    """The three lines of the podium box whose heading is `title` (ui.recipe_controls.podium), as a reader sees
    them."""
    from helm_core.escape import unmarkdown

    md = [unmarkdown(str(m.value)) for m in at.markdown]
    for i, v in enumerate(md):
        if v == f"**{title}**":
            return md[i + 1]
    raise AssertionError(f"no podium titled {title!r}; bold lines: {[v for v in md if v.startswith('**')][:12]}")


def metrics(at: AppTest) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def sliders(at: AppTest) -> dict[str, int]:
    return {s.key: s.value for s in at.slider}


NO_EFFICIENCY = "upload-without-efficiency"


def without_efficiency(release):
    """The bundled release with every efficiency value and HELM's published win rates removed,
    as a user's upload without efficiency runs would look."""
    res = release.results[release.results["metric_group"] != "efficiency"].reset_index(drop=True)
    meta = {**release.meta, "kind": "upload", "release": NO_EFFICIENCY}
    return replace(release, results=res, published_win_rates=pd.DataFrame(columns=["model", "metric_group", "win_rate"]),
                   meta=meta)


def loaded_session(release) -> dict:
    """Session state that makes `release` the active dataset, as the data page does after an upload.
    The key equals the release name, because AppTest maps the sidebar's formatted dataset option back to it."""
    return {"dataset_key": release.name, "_releases": {release.name: release}}
