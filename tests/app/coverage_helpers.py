"""AppTest helpers for the coverage story pages (grid, coverage, metrics)."""
from __future__ import annotations

from dataclasses import replace

import pandas as pd
from streamlit.testing.v1 import AppTest

from helm_core.escape import unmarkdown


def loaded(release, name: str, drop_groups: tuple[str, ...] = ()) -> dict:
    """Session state making a modified copy of `release` the active dataset, as the data page does after an upload."""
    res = release.results[~release.results["metric_group"].isin(drop_groups)].reset_index(drop=True)
    rel = replace(release, results=res, meta={**release.meta, "kind": "upload", "release": name},
                  published_win_rates=pd.DataFrame(columns=["model", "metric_group", "win_rate"]))
    return {"dataset_key": name, "_releases": {name: rel}}


def metrics_of(at: AppTest) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def notices(at: AppTest) -> str:
    """URL notices of the run, as a reader sees them: toasts, plus notices still queued for the router to show.

    After `switch_page`, AppTest runs the page script alone (the app has a legacy `pages/` folder), so Home.py's
    `state.finish_run()`, which turns queued notices into toasts, does not run there; in the browser it does."""
    shown = [str(t.value) for t in at.toast]
    queued = at.session_state["_qp_notices"] if "_qp_notices" in at.session_state else []
    return unmarkdown(" ".join(shown + [str(n) for n in queued]))  # as read: a link's value is quoted, escaped
