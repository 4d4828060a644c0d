"""Browser tests: a real `streamlit run Home.py` on a free localhost port, driven by Playwright
with Debian's Chromium (/usr/bin/chromium). Playwright's own browser downloads are not used.

How to write a browser test (so the suite stays within its 10 minutes):
- Use the shared fixtures: `server` (the base URL of one `streamlit run Home.py` for the whole session, already
  warmed: its root has been opened once, so the router has run and a deep link such as /grid gets the real app),
  `server_proc` (its process, for `.pid`), `browser` (one Chromium for the session) and `page` (a new tab of the
  session's one context per test, 1400 × 900, collecting console errors for helpers.assert_clean; a failing
  test's tab is dumped to test-artifacts/). Need another viewport or a
  second visitor? `browser.new_context(...)`, and close it.
- Do not start a server per test. A test that needs a server configured differently (an environment variable such
  as HELM_OUTPUT, another script, a server whose memory is its own) uses `serving(...)` in a module-scoped fixture,
  shared by the tests of that module.
- Every test here is marked `browser` and put in an xdist group by tests/conftest.py (GROUPS): under
  `bash scripts/test.sh` (pytest -n 3 --dist loadgroup) each group runs on one worker, one test after another,
  against that worker's one server and browser; the unit and AppTest tests fill the workers as they come free. A
  new module joins the shortest group (`--durations`); a module that starts its own server joins
  "browser-own-server". Tests must not depend on each other's order or on state another test left in the server
  (each `page` is a new Streamlit session).
- Before adding a walk over every page (and section), check whether one of the existing walks can carry the new
  check: test_pages_browser.py (every page and section, 1400 × 900: clean, charts drawn, accessible names, and
  the deploy checks: network and file system),
  test_slides_browser.py (the presenter route at 1280 × 720 in both themes on one walk of the pre-show check;
  every page at 390 × 844), the release walk in test_pages_browser.py (every page on Lite). A walk opens its first
  page and reaches the others in the same session (helpers.go_in_app, as Back and Forward do): a page load costs
  Chromium twice what a run does."""
from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("HELM_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
    "--disable-sync", "--no-first-run", "--disable-quic",
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PortTaken(RuntimeError):
    """The free port was taken by someone else (another xdist worker's server) before streamlit bound it."""


def start_server(port: int, extra_env: dict | None = None, script: Path = ROOT / "Home.py",
                 cwd: Path = ROOT) -> subprocess.Popen:
    """`streamlit run script` on localhost:port, returned once it answers its health check."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1", **(extra_env or {})}
    cmd = [sys.executable, "-m", "streamlit", "run", str(script), "--server.port", str(port),
           "--server.address", "127.0.0.1", "--server.headless", "true", "--browser.gatherUsageStats", "false",
           "--server.fileWatcherType", "none"]
    # The server's output goes to a file, never a pipe nobody reads: once a pipe's ~64 KB buffer is full (a long run
    # of logged app errors), every thread that logs blocks and the server hangs.
    import tempfile

    log = tempfile.NamedTemporaryFile(prefix="streamlit-", suffix=".log", delete=False)
    proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=log, stderr=subprocess.STDOUT)
    proc.log_path = log.name  # type: ignore[attr-defined]
    log.close()
    deadline = time.time() + 60
    while time.time() < deadline:
        if proc.poll() is not None:
            out = Path(proc.log_path).read_text(encoding="utf-8", errors="replace")  # type: ignore[attr-defined]
            raise (PortTaken if "already in use" in out else RuntimeError)(f"streamlit exited early:\n{out}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2) as r:
                if r.status == 200:
                    return proc
        except OSError:
            time.sleep(0.3)
    proc.terminate()
    raise RuntimeError("streamlit did not become healthy within 60 s")


@contextlib.contextmanager
def serving(extra_env: dict | None = None, script: Path = ROOT / "Home.py", cwd: Path = ROOT):
    """A `streamlit run Home.py` (or `script`) on a free port for the block; the process's `.url` is its address."""
    for attempt in range(3):
        port = free_port()
        try:
            proc = start_server(port, extra_env, script, cwd)
            break
        except PortTaken:
            if attempt == 2:
                raise
    proc.url = f"http://127.0.0.1:{port}"
    try:
        yield proc
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


def warm(tabs, base: str) -> None:
    """Open the app's root once in a fresh server process (a tab of `tabs`, the session's shared context, which
    then holds the app's scripts in its caches). Streamlit 1.67 decides per process whether the app uses the
    legacy `pages/` directory and clears that only when Home.py's st.navigation has run; until then a deep link
    such as /data, whose url_path equals a file name in app_pages/, runs that file on its own, without Home.py's
    router and sidebar."""
    from .helpers import open_url

    tab = tabs.new_page()
    try:
        open_url(tab, base)
    finally:
        tab.close()


@pytest.fixture(scope="session")
def server_proc(tabs):
    """The shared server process (`.url`, `.pid`), warmed once (see `warm`)."""
    with serving() as proc:
        warm(tabs, proc.url)
        yield proc


@pytest.fixture(scope="session")
def server(server_proc):
    return server_proc.url


@pytest.fixture(scope="session")
def browser():
    if not Path(CHROMIUM).exists() and not shutil.which(CHROMIUM):
        pytest.fail(f"Chromium not found at {CHROMIUM}: install Debian's chromium (scripts/test.sh does this as root)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture(scope="session")
def tabs(browser):
    """The session's one browser context at 1400 × 900, whose tabs are the tests' pages. A new tab is a new
    Streamlit session as a new context is, but it shares the context's HTTP and code caches: a test's first page
    load cost Chromium 1.5 CPU-s instead of 2.5 in a new context (each starts with cold caches). `page` clears the
    cookies and storage its test left, so no test sees another's (the app's cookies: ui/cookies.py)."""
    ctx = browser.new_context(viewport={"width": 1400, "height": 900})
    yield ctx
    ctx.close()


def close_tab(pg) -> None:
    """Close a tab of `tabs` and clear what its test left in the shared context: the origin's storage and the
    context's cookies."""
    try:
        pg.evaluate("() => { try { localStorage.clear(); sessionStorage.clear(); } catch (e) {} }")
    except Exception:  # noqa: BLE001 - a page that is gone or on no origin
        pass
    ctx = pg.context
    pg.close()
    ctx.clear_cookies()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    """Marks a test whose call failed (`item.call_failed`), for `page`'s failure dump."""
    report = yield
    if report.when == "call" and report.failed:
        item.call_failed = True
    return report


@pytest.fixture
def page(tabs, request):
    """A new tab of the shared context for the test (a new Streamlit session), at 1400 × 900. When the test
    fails, the tab's screenshot and text go to test-artifacts/ (helpers.dump_pages) before it closes."""
    from .helpers import dump_pages, watch_console

    pg = watch_console(tabs.new_page())
    yield pg
    if getattr(request.node, "call_failed", False):
        dump_pages(request.node.nodeid, [pg])
    close_tab(pg)
