"""AppTest helpers for the coverage story pages (grid, coverage, metrics)."""
from __future__ import annotations

from dataclasses import replace

import pandas as pd
from streamlit.testing.v1 import AppTest

from .helpers import ROOT, TIMEOUT, assert_clean, open_section


def open_story_page(file: str, query: dict[str, str | list[str]] | None = None,
                    session: dict | None = None, section: str | None = None) -> AppTest:
    """Like helpers.open_page, but the page's own query keys reach it: the first run (the default page) drops
    keys it does not declare, so they are set again after switching, before the page's first run. Then opens
    the section tab `section` (a click on it)."""
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


def loaded(release, name: str, drop_groups: tuple[str, ...] = ()) -> dict:
    """Session state making a modified copy of `release` the active dataset, as the data page does after an upload."""
    res = release.results[~release.results["metric_group"].isin(drop_groups)].reset_index(drop=True)
    rel = replace(release, results=res, meta={**release.meta, "kind": "upload", "release": name},
                  published_win_rates=pd.DataFrame(columns=["model", "metric_group", "win_rate"]))
    return {"dataset_key": name, "_releases": {name: rel}}


def metrics_of(at: AppTest) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def notices(at: AppTest) -> str:
    """URL notices of the run: toasts, plus notices still queued for the router to show.

    After `switch_page`, AppTest runs the page script alone (the app has a legacy `pages/` folder), so Home.py's
    `state.finish_run()`, which turns queued notices into toasts, does not run there; in the browser it does."""
    shown = [str(t.value) for t in at.toast]
    queued = at.session_state["_qp_notices"] if "_qp_notices" in at.session_state else []
    return " ".join(shown + [str(n) for n in queued])
