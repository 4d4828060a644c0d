"""Waiting for a Streamlit page to settle, and checking it is clean."""
from __future__ import annotations

import collections
import contextlib
import io
import time
import zipfile
from pathlib import Path

# A small HELM suite (3 runs, 3 models) that tests upload as a zip.
SUITE = Path(__file__).resolve().parents[1] / "fixtures" / "helm_output" / "runs" / "demo"

SETTLE_JS = """() => {
  const app = document.querySelector('[data-testid="stApp"]');
  if (!app || app.getAttribute('data-test-script-state') !== 'notRunning') return false;
  if (document.querySelector('[data-testid="stSkeleton"]')) return false;
  const charts = document.querySelectorAll('[data-testid="stPlotlyChart"]');
  for (const c of charts) { if (!c.querySelector('.main-svg')) return false; }
  return true;
}"""

# The sidebar's page list (ui/nav.py: a heading per section, a link per page, never folded away).
# The story's pages (sections 1-12 of the episode) are slides: their first visual (chart or table) starts on the
# first screen of a 1400 × 900 window, and the presenter walks draw their further slides. The tools (instances,
# HELM's own tables, the upload page) lead with their controls, and the sweeps open every section of them.
TOOLS = {"runs", "leaderboard", "data"}
NAV = ".st-key-app_nav"

# Console noise that is not an app error (the closed network refuses Chromium's own calls).
IGNORED_CONSOLE = ("net::ERR", "Failed to load resource", "favicon", "webhooks", "Content Security Policy")


# What kept a page from settling, for the error of a wait that timed out.
UNSETTLED_JS = """() => {
  const app = document.querySelector('[data-testid="stApp"]');
  const charts = [...document.querySelectorAll('[data-testid="stPlotlyChart"]')];
  return {url: location.href, script: app ? app.getAttribute('data-test-script-state') : 'no app',
          skeletons: document.querySelectorAll('[data-testid="stSkeleton"]').length,
          undrawn_charts: charts.filter(c => !c.querySelector('.main-svg')).length, charts: charts.length,
          exception: (document.querySelector('[data-testid="stException"]') || {}).innerText || null};
}"""


def wait_settled(page, timeout_ms: int = 45_000) -> float:
    """Wait until the script is done, no skeleton shows, and every plotly chart has drawn; return seconds. A page
    that does not settle in time raises TimeoutError saying what it was still showing."""
    t0 = time.perf_counter()
    page.wait_for_selector('[data-testid="stApp"]', timeout=timeout_ms)
    # Give the frontend a moment to start the run, then wait for it to finish twice in a row (0.2 s apart: a
    # rerun the first finish triggers, such as a section's or a widget's follow-up run, has started by then).
    page.wait_for_timeout(150)
    try:
        page.wait_for_function(SETTLE_JS, timeout=timeout_ms)
        page.wait_for_timeout(200)
        page.wait_for_function(SETTLE_JS, timeout=timeout_ms)
    except Exception as e:  # noqa: BLE001 - Playwright's TimeoutError, with the page's state added
        try:
            now = page.evaluate(UNSETTLED_JS)
        except Exception:  # noqa: BLE001 - the page is gone
            now = "page unavailable"
        raise TimeoutError(f"the page did not settle within {timeout_ms / 1000:.0f} s: {now}") from e
    return time.perf_counter() - t0


def open_url(page, url: str) -> float:
    page.goto(url, wait_until="domcontentloaded")
    return wait_settled(page)


# Watch for the next run: `window.__helmRan` turns true at any change of a run state (anywhere in the document),
# so a wait after a click or a key knows the run it started has begun, not only that the page is idle (a widget
# bound to the URL writes the address at once, before its run starts; on a busy machine that run can start later
# than `wait_settled`'s first pause).
WATCH_RUNS_JS = """() => {
  if (window.__helmRuns) window.__helmRuns.disconnect();
  window.__helmRan = false;
  window.__helmRuns = new MutationObserver(() => { window.__helmRan = true; });
  window.__helmRuns.observe(document.documentElement,
                            {attributes: true, subtree: true, attributeFilter: ['data-test-script-state']});
}"""
RAN_JS = "() => window.__helmRan !== false"  # true too when no watch was set


def watch_runs(page) -> None:
    """Call before the click or key whose run a later `wait_run` (or a test's own wait on RAN_JS) waits for."""
    page.evaluate(WATCH_RUNS_JS)


def wait_run(page, timeout_ms: int = 60_000) -> float:
    """After `watch_runs` and an input: wait until a run has started and the page has settled; return seconds."""
    t0 = time.perf_counter()
    page.wait_for_function(RAN_JS, timeout=timeout_ms)
    wait_settled(page)
    return time.perf_counter() - t0


# In-app navigation as the browser's Back and Forward do it: the address changes without a reload, and Streamlit's
# frontend runs the page the address names, with its query, in the same session (its `popstate` handler). A visitor
# moving through the app by its links is in one session too. Each further page then costs the browser a run, not
# the frontend's whole start: 16 pages at 390 × 844 took Chromium 10 CPU-s instead of 23.
GO_JS = """url => {
  history.pushState({}, '', url);
  window.dispatchEvent(new PopStateEvent('popstate', {state: {}}));
}"""


def go_in_app(page, url: str) -> float:
    """Move a loaded page of the app to `url` (on the same server) in its session, as Back and Forward do, and wait
    until the run that starts has settled; return seconds. When no run starts within 20 s (seen once in a full
    suite's run under load, cause not pinned down: no run state changed for 60 s), the page is loaded instead,
    with a warning in the test summary, so the page is still checked."""
    import warnings

    t0 = time.perf_counter()
    watch_runs(page)
    page.evaluate(GO_JS, url)
    try:
        page.wait_for_function(RAN_JS, timeout=20_000)
    except Exception:  # noqa: BLE001 - Playwright's TimeoutError: load the page instead
        warnings.warn(f"in-app navigation to {url} started no run within 20 s; loaded it instead", stacklevel=2)
        page.goto(url, wait_until="domcontentloaded")
    wait_settled(page)
    return time.perf_counter() - t0


# The open tab's panel holds an element: the run the click started has begun to draw the section (a closed
# section is not built, so a newly opened tab's panel is empty until then). A wait for that run, which on a busy
# machine can start later than the fixed pause in `wait_settled`.
PANEL_FILLED_JS = """label => {
  // The tab is looked up by its label on every poll: a rerun may replace the element the click went to.
  const tabs = [...document.querySelectorAll('[role="tab"]')].filter(t => t.innerText.trim() === label);
  return tabs.some(t => {
    if (t.getAttribute('aria-selected') !== 'true') return false;
    const p = document.getElementById(t.getAttribute('aria-controls') || '');
    return p !== null && p.querySelector('[data-testid="stElementContainer"]') !== null;
  });
}"""


def open_section(page, label: str) -> float:
    """Click the section tab `label` (ui.components.sections) and wait until the run that click started has
    built and drawn its content; return seconds."""
    page.get_by_role("tab", name=label, exact=True).first.click()
    page.wait_for_function(PANEL_FILLED_JS, arg=label, timeout=60_000)
    return wait_settled(page)


def each_section(page):
    """Yield once per section tab of the open page with that section open (once, None, on a page without tabs).
    In presenter mode the tab list is hidden (the bar names the slide): the bar's Next steps through the page's
    slides instead, as PageDown does, until it leaves the page."""
    tabs = page.locator('[data-testid="stMain"] [role="tab"]')
    labels = [t.strip() for t in tabs.all_inner_texts()]
    yield labels[0] if labels else None
    if labels and not tabs.first.is_visible():
        here = page.url.split("?")[0]
        for label in labels[1:]:
            before = page.url
            page.get_by_role("button", name="Next").click()
            page.wait_for_function("u => location.href !== u", arg=before, timeout=60_000)  # the slide is in the URL
            wait_settled(page)
            if page.url.split("?")[0] != here:
                return
            yield label
        return
    for label in labels[1:]:
        open_section(page, label)
        yield label


def record_console(pg):
    """Keep the last 50 of `pg`'s console messages (any type) and uncaught exceptions in `pg.console_log`, for
    dump_pages: a page that went blank says why there."""
    pg.console_log = collections.deque(maxlen=50)  # type: ignore[attr-defined]
    pg.on("console", lambda m: pg.console_log.append(f"console.{m.type}: {m.text}"))  # type: ignore[attr-defined]
    pg.on("pageerror", lambda e: pg.console_log.append(f"uncaught: {e}"))  # type: ignore[attr-defined]
    return pg


def watch_console(pg):
    """Collect `pg`'s console errors and uncaught exceptions for helpers.assert_clean (and its console for
    dump_pages: record_console)."""
    record_console(pg)
    pg.console_errors = []  # type: ignore[attr-defined]
    pg.on("console", lambda m: m.type == "error" and pg.console_errors.append(m.text))  # type: ignore[attr-defined]
    pg.on("pageerror", lambda e: pg.console_errors.append(str(e)))  # type: ignore[attr-defined]
    return pg


@contextlib.contextmanager
def another_tab(page):
    """A new tab beside `page`, in its browser context: a new Streamlit session, as a link opened in another tab
    is (a new tab shares the context's caches; a new context would start cold). For a round trip through the URL;
    closed after the block."""
    tab = watch_console(page.context.new_page())
    try:
        yield tab
    finally:
        tab.close()


ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


def dump_pages(name: str, pages) -> None:
    """After a failure: each still-open page's screenshot and text in test-artifacts/<name>/, and the end of its
    text on stdout (pytest shows it in the failure's report), so a failure seen once under load can be read."""
    out = ARTIFACTS / "".join(c if c.isalnum() or c in "-_." else "_" for c in name)[:120]
    out.mkdir(parents=True, exist_ok=True)
    for i, pg in enumerate(pages):
        try:
            if pg.is_closed():
                continue
            text = pg.evaluate("() => document.body ? document.body.innerText : ''")
            console = "\n".join(getattr(pg, "console_log", None) or ["(not recorded)"])
            (out / f"{i}.txt").write_text(f"{pg.url}\n\n{text}\n\n--- console, last 50\n{console}", encoding="utf-8")
            pg.screenshot(path=str(out / f"{i}.png"), full_page=True, timeout=10_000)
            print(f"--- page {i} ({pg.url}), the end of its text; all of it in {out / f'{i}.txt'}\n{text[-1500:]}\n"
                  f"--- its console, last lines\n{console[-1500:]}")
        except Exception as e:  # noqa: BLE001 - a page that went away while failing: dump the others
            print(f"--- page {i}: not dumped ({e})")


def assert_clean(page) -> None:
    exc = page.locator('[data-testid="stException"]')
    assert exc.count() == 0, exc.first.inner_text()[:2000]
    errors = [e for e in getattr(page, "console_errors", []) if not any(s in e for s in IGNORED_CONSOLE)]
    assert not errors, errors


NAME_JS = """e => (e.getAttribute('aria-label') || (e.labels && e.labels[0] && e.labels[0].innerText) ||
  (e.getAttribute('aria-labelledby') || '').split(' ').map(i => (document.getElementById(i) || {}).innerText || '').join(' ') ||
  (e.closest('label') && e.closest('label').innerText) || e.innerText || e.getAttribute('title') || '').trim()"""
ROLES = ["slider", "combobox", "radio", "checkbox", "switch", "spinbutton", "textbox", "button", "tab"]


def assert_accessible_names(page, where: str) -> None:
    """Every chart has a useful text alternative (aria-label) and every visible widget an accessible name."""
    charts = page.locator('[data-testid="stPlotlyChart"]')
    for i in range(charts.count()):
        label = charts.nth(i).get_attribute("aria-label") or ""
        assert len(label) > 20, f"chart {i} on {where} has no useful text alternative: {label!r}"
    main = page.locator('[data-testid="stMain"], [data-testid="stSidebar"]')
    unnamed = []
    for role in ROLES:
        els = main.get_by_role(role)
        for i in range(els.count()):
            el = els.nth(i)
            if not el.is_visible():
                continue
            if not el.evaluate(NAME_JS):
                unnamed.append(f"{role} #{i}: {el.evaluate('e => e.outerHTML.slice(0, 160)')}")
    assert not unnamed, f"{where}: {unnamed}"


def zip_suite(path: Path) -> Path:
    """Write the fixture suite as `path` (a zip with a demo/ folder) and return it."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for p in sorted(SUITE.rglob("*")):
            if p.is_file():
                z.write(p, "demo/" + p.relative_to(SUITE).as_posix())
    path.write_bytes(buf.getvalue())
    return path
