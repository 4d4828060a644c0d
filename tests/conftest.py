"""Shared fixtures and the suite's layout.

Caches: every test starts with empty st.cache_resource caches, except the read-only loads of the bundled data
(KEEP_WARM: the releases in data/, the genuine runs in data/real_runs/, the claims), which the app itself loads once
per process and shares between sessions; its st.cache_data entries (computations keyed by the release's key, a
content hash for a loaded suite, handed out as copies) stay from earlier tests of the process, as they do between
the app's sessions. Recomputing them for each of ~3,000 AppTests was most of the AppTest time.
A test that needs them cold too gets a full clear: mark it `cold_caches` (the every-page sweep in
tests/app/test_all_pages.py is, so every page is still run from cold caches), or use `monkeypatch` (which may
change what a load reads, e.g. helm_output's EAGER_INSTANCE_BYTES): such a test gets a full clear before and after.
A test that only points the server at a suite uses `set_helm_output(path)` instead and keeps warm caches.

Markers: every test under tests/e2e is marked `browser` (Playwright + Chromium against `streamlit run`), so the
fast inner loop is `bash scripts/test.sh fast` (= `-m "not browser"`); and it is put in an xdist group, so under
`bash scripts/test.sh` (`-n 3 --dist loadgroup`) each group (GROUPS below) runs on one worker, one test after
another against that worker's shared server and browser (tests/e2e/conftest.py), and the unit and AppTest tests
fill the workers as they come free.
"""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def _scan_components_once() -> None:
    """Every new AppTest scans the metadata of every installed distribution for Streamlit v2 components
    (streamlit.components.v2.manifest_scanner, ~0.2 s here, three quarters of a small page's AppTest). The installed
    packages do not change while the tests run, so the scan's result is kept for the process: the same components
    (none, for this app) are registered for every AppTest, with the same code."""
    import functools

    from streamlit.components.v2 import manifest_scanner

    scan = functools.cache(manifest_scanner.scan_component_manifests)  # AppTest calls it without arguments
    manifest_scanner.scan_component_manifests = lambda max_workers=None: list(scan())


_scan_components_once()


def _compile_each_script_once() -> None:
    """AppTest makes a new ScriptCache for every run, so every `at.run()` read Home.py and the page's script again,
    rewrote them for Streamlit's magic (an AST pass) and compiled them: a fifth of an AppTest sweep's time here. The
    bytecode is kept for the process, keyed by the file's path, size and modification time (a test that writes a
    script gets it compiled afresh); what runs is the same code."""
    import os

    from streamlit.runtime.scriptrunner.script_cache import ScriptCache

    compiled: dict[tuple, object] = {}
    uncached = ScriptCache.get_bytecode

    def get_bytecode(self, script_path: str):
        path = os.path.abspath(script_path)
        try:
            st_ = os.stat(path)
        except OSError:
            return uncached(self, script_path)  # Streamlit's own error for a missing script
        key = (path, st_.st_size, st_.st_mtime_ns)
        code = compiled.get(key)
        if code is None:
            code = compiled[key] = uncached(self, script_path)
        return code

    ScriptCache.get_bytecode = get_bytecode


_compile_each_script_once()


def _wait_for_runs_without_spinning() -> None:
    """AppTest waits for a script run by waking every millisecond to look (local_script_runner's
    require_widgets_deltas): a tenth of an AppTest's CPU, taken from the run it waits for and, on this 2-core
    machine, from the other workers. The run ends its thread when it is done, so the wait joins the thread (with
    the same timeout and the same error)."""
    from streamlit.testing.v1 import local_script_runner

    def require_widgets_deltas(runner, timeout: float = 3) -> None:
        thread = runner._script_thread
        if thread is not None:
            thread.join(timeout)
        if runner.script_stopped():
            return
        runner.request_stop()
        runner.join()
        raise RuntimeError(f"AppTest script run timed out after {timeout}(s)")

    local_script_runner.require_widgets_deltas = require_widgets_deltas


_wait_for_runs_without_spinning()

E2E = ROOT / "tests" / "e2e"
KEEP_WARM = frozenset({
    "ui.cache.bundled_release", "ui.cache.model_matches", "ui.cache.claims",
    "ui.cache.bundled_sources", "ui.cache.bundled_output", "ui.cache.bundled_instances",
})


# Browser tests whose verdict is a time under load run alone: after the rest, with nothing beside them (the test
# command's second phase, `-m alone` on one process; see scripts/test.sh). The load test (many sessions at once) and
# the live episode (follow and speaker latencies) are such tests.
ALONE = "alone"
ALONE_MODULES = {"test_concurrent.py", "test_showtime_browser.py"}

# The browser tests run as groups (pytest-xdist `--dist loadgroup`): each group on one worker, one test after another,
# against that worker's shared server and browser (a module with a server of its own starts it in a module fixture).
# Five groups of 2.5-5.5 minutes each (by `--durations`, on this 2-core machine), in the order the workers take them: the
# test command keeps this order (`--no-loadscope-reorder`), so three workers start on the first three and the others
# go to whichever worker frees first; the unit and AppTest tests come after. A module not listed joins "browser".
BROWSER_GROUP = "browser"
GROUPS = {
    # upload abuse, hostile names, HELM output tables and leaderboard, the handout: servers of their own
    "browser-own-server": ["test_upload_abuse.py", "test_escape_browser.py", "test_upload_browser.py",
                           "test_leaderboard_browser.py", "test_handout_browser.py", "test_tables_browser.py"],
    # the desktop sweep of every page (with the deploy checks), links and choices in the URL, the Lite walk; grid
    # tiles, genuine runs, radar labels
    "browser-pages": ["test_pages_browser.py", "test_layout_browser.py", "test_real_runs_browser.py",
                      "test_radar_browser.py"],
    # the presenter route in both themes, the phone sweep, the pre-show check failing (the longest group)
    BROWSER_GROUP: ["test_slides_browser.py"],
    "browser-coverage": ["test_coverage_browser.py", "test_critique_browser.py", "test_keyboard_browser.py"],
    "browser-rankings": ["test_rankings_browser.py", "test_reliability_browser.py", "test_participation_browser.py"],
}
GROUP_OF = {module: group for group, modules in GROUPS.items() for module in modules}
GROUP_ORDER = list(GROUPS)


def xdist_group_of(name: str) -> str:
    """The xdist group of a browser-test module, by its file name."""
    return GROUP_OF.get(name, BROWSER_GROUP)


# First among the hooks: pytest-xdist's own (--dist loadgroup) reads the xdist_group markers added here to put each
# group's tests on one worker; run after it, the markers came too late and every test was scattered on its own,
# so each worker started its own servers and a module's server was started again for each of its tests.
@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    browser = []
    for item in items:
        path = Path(str(item.path))
        if E2E in path.parents:
            item.add_marker(pytest.mark.browser)
            if path.name in ALONE_MODULES:
                item.add_marker(pytest.mark.alone)
            item.add_marker(pytest.mark.xdist_group(xdist_group_of(path.name)))
            browser.append(item)
    # Browser tests first (the load test first of all): xdist hands out the big groups before the single tests,
    # and without workers the long walks start while the machine is fresh. Tests do not depend on their order.
    rest = [i for i in items if i not in browser]
    browser.sort(key=lambda i: (Path(str(i.path)).name not in ALONE_MODULES,
                                GROUP_ORDER.index(xdist_group_of(Path(str(i.path)).name))))
    items[:] = browser + rest


def pytest_make_parametrize_id(config, val, argname):
    """A short id for a long bytes parameter (a zip made at import carries the time, random bytes differ): the
    xdist workers must collect the same test ids."""
    if isinstance(val, (bytes, bytearray)) and len(val) > 32:
        return f"{argname}-{len(val)}-bytes"
    return None


def clear_caches(keep: frozenset[str] = frozenset(), *, data: bool = True) -> None:
    """Clear every st.cache_resource except those whose function is named in `keep`, and (`data`) every
    st.cache_data."""
    import streamlit as st

    if data:
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
    # A warm test keeps the cache_data entries too: they are keyed by the release's key (a content hash for a loaded
    # suite) and hand out copies, so a test reads what it would have computed from cold.
    clear_caches(frozenset() if cold else KEEP_WARM, data=cold)
    yield
    if "monkeypatch" in request.fixturenames:
        clear_caches()


@pytest.fixture
def set_helm_output():
    """`set_helm_output(path)` sets HELM_OUTPUT, the server's start-up path, for the rest of this test (the
    environment is restored after it). Unlike `monkeypatch`, the test keeps warm caches: the configured output is
    read once per process into an st.cache_resource store that is cleared before every test, and what is computed
    from it is keyed by its content hash, so warm caches give what cold ones would."""
    import os
    from unittest import mock

    with mock.patch.dict(os.environ):
        yield lambda path: os.environ.__setitem__("HELM_OUTPUT", str(path))


@pytest.fixture(scope="session")
def release():
    from helm_core.data import load_release

    return load_release()
