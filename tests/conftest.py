"""Shared fixtures and the suite's layout.

Caches: every test starts with empty Streamlit caches, except the read-only loads of the bundled data (KEEP_WARM:
the releases in data/, the genuine runs in data/real_runs/, the claims), which the app itself loads once per
process and shares between sessions. Reading them again for each of ~800 AppTests was most of the AppTest time.
A test that needs them cold too gets a full clear: mark it `cold_caches` (the every-page sweep in
tests/app/test_all_pages.py is, so every page is still run from cold caches), or use `monkeypatch` (which may
change what a load reads, e.g. helm_output's EAGER_INSTANCE_BYTES): such a test gets a full clear before and after.

Markers: every test under tests/e2e is marked `browser` (Playwright + Chromium against `streamlit run`), so the
fast inner loop is `bash scripts/test.sh -m "not browser"`; and it is put in the xdist group "browser", so with
`-n 2 --dist loadgroup` (pytest.ini) one worker runs every browser test against one shared server and browser
(tests/e2e/conftest.py) while the other runs unit and AppTest tests.
"""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

E2E = ROOT / "tests" / "e2e"
BROWSER_GROUP = "browser"
KEEP_WARM = frozenset({
    "ui.cache.bundled_release", "ui.cache.model_matches", "ui.cache.claims",
    "ui.cache.bundled_sources", "ui.cache.bundled_output", "ui.cache.bundled_instances",
})


def pytest_collection_modifyitems(config, items):
    for item in items:
        if E2E in Path(str(item.path)).parents:
            item.add_marker(pytest.mark.browser)
            item.add_marker(pytest.mark.xdist_group(BROWSER_GROUP))


def clear_caches(keep: frozenset[str] = frozenset()) -> None:
    """Clear every st.cache_data and every st.cache_resource except those whose function is named in `keep`."""
    import streamlit as st

    st.cache_data.clear()
    if not keep:
        st.cache_resource.clear()
        return
    try:
        from streamlit.runtime.caching import cache_resource_api

        caches = cache_resource_api._resource_caches
        with caches._caches_lock:
            dropped = [c for fc in caches._function_caches.values() for c in fc.values() if c.display_name not in keep]
            caches._function_caches = {
                sid: {k: c for k, c in fc.items() if c.display_name in keep}
                for sid, fc in caches._function_caches.items()
            }
    except AttributeError:  # Streamlit's internals moved: clear everything (slower, never wrong)
        st.cache_resource.clear()
        return
    for c in dropped:
        c.mark_detached()
        c.clear()


@pytest.fixture(autouse=True)
def _clear_streamlit_caches(request):
    cold = request.node.get_closest_marker("cold_caches") is not None or "monkeypatch" in request.fixturenames
    clear_caches(frozenset() if cold else KEEP_WARM)
    yield
    if "monkeypatch" in request.fixturenames:
        clear_caches()


@pytest.fixture(scope="session")
def release():
    from helm_core.data import load_release

    return load_release()
