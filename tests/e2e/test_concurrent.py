"""8 browser sessions at once (HELM_CONCURRENT_SESSIONS) against one server, each starting on a page of its own
(together every page) and walking on for a bounded time (HELM_CONCURRENT_SECONDS, 8 s) with choices of its own
(cohort, access, recipe weights; two of them upload their own HELM output): zero errors, and no session sees
another's state. Prints the median and p95 page time under that load (pytest -s, or the junit output).

Sessions move inside the app (sidebar links, as a visitor does) after one initial page load, so each stays one
Streamlit session: its upload and its weights must survive the walk and never show up anywhere else."""
from __future__ import annotations

import asyncio
import concurrent.futures
import math
import os
import statistics
import time
from pathlib import Path

import pytest

from helm_core.data import GROUP_LABELS
from ui import nav

from .conftest import CHROMIUM, CHROMIUM_ARGS
from .helpers import IGNORED_CONSOLE, NAV, SETTLE_JS, zip_suite

SESSIONS = int(os.environ.get("HELM_CONCURRENT_SESSIONS", "8"))
WALK_SECONDS = float(os.environ.get("HELM_CONCURRENT_SECONDS", "8"))  # then each session stops walking
SETTLE_MS = 120_000
# (cohort, access, model count the home page must show); None: not checked (depends on the release).
CHOICES = [("all", None, "67"), ("paper", None, "28"), ("all", "closed", "3"), ("paper", "open", None)]
UPLOADERS = {2, 5}  # these sessions upload the fixture suite (3 models) first, with every model in view
# Recipe weights per session (accuracy, toxicity): coprime pairs, so no two sessions share a weight ratio.
WEIGHTS = [(a, t) for a in range(1, 6) for t in range(1, 6) if math.gcd(a, t) == 1]


async def _settle(page) -> None:
    await page.wait_for_selector('[data-testid="stApp"]', timeout=SETTLE_MS)
    await page.wait_for_timeout(250)
    await page.wait_for_function(SETTLE_JS, timeout=SETTLE_MS)
    await page.wait_for_timeout(300)
    await page.wait_for_function(SETTLE_JS, timeout=SETTLE_MS)


async def _nav_to(page, spec) -> None:
    """Click the page's link in the sidebar's page list (Streamlit writes its href relative: `calibration`, `` home)."""
    await page.locator(NAV).locator(f'a[href="{spec.url_path}"]').first.click()
    await page.wait_for_function(
        f"() => location.pathname.replace(/\\/+$/, '').endsWith('/{spec.url_path}'.replace(/\\/+$/, ''))",
        timeout=SETTLE_MS)
    await _settle(page)


def _weights_text(a: int, t: int) -> tuple[str, str]:
    return f"{GROUP_LABELS['accuracy']} {a / (a + t):.0%}", f"{GROUP_LABELS['toxicity']} {t / (a + t):.0%}"


async def _check_weights(page, i: int, a: int, t: int, problems: list[str], when: str) -> None:
    label = await page.locator('[data-testid="stPlotlyChart"][aria-label^="Current recipe weights"]').first \
        .get_attribute("aria-label") or ""
    for part in _weights_text(a, t):
        if part not in label:
            problems.append(f"session {i} {when}: podium weights {label!r}, expected {part}")


async def _session(browser, base: str, i: int, zip_path: Path, deadline: float, times: list[tuple[str, float]],
                   visited: set[str], problems: list[str]) -> None:
    uploader = i in UPLOADERS
    cohort, access, expected = ("all", None, "3") if uploader else CHOICES[i % len(CHOICES)]
    a, t = WEIGHTS[i % len(WEIGHTS)]
    query = f"?cohort={cohort}" + (f"&access={access}" if access else "")
    ctx = await browser.new_context(viewport={"width": 1280, "height": 800})
    page = await ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: m.type == "error" and not any(s in m.text for s in IGNORED_CONSOLE)
            and errors.append(m.text))
    pages = nav.available_pages()
    by_path = {p.url_path: p for p in pages}
    try:
        if uploader:
            await page.goto(f"{base}/data{query}", wait_until="domcontentloaded")
            await _settle(page)
            await page.locator('[data-testid="stFileUploader"] input[type="file"]').set_input_files(str(zip_path))
            await page.get_by_text("Now showing: Your HELM output").first.wait_for(timeout=SETTLE_MS)
            await _settle(page)
        else:
            # This session's own recipe, from a link: custom weights on accuracy and toxicity.
            t0 = time.perf_counter()
            await page.goto(f"{base}/podium{query}&recipe=custom&w_accuracy={a}&w_toxicity={t}",
                            wait_until="domcontentloaded")
            await _settle(page)
            times.append(("first", time.perf_counter() - t0))
            visited.add("podium")
            await _check_weights(page, i, a, t, problems, "from its link")
        # Every session walks at least its first `least` pages (session i starts at page i·n/SESSIONS, so together
        # they reach every page however long the first loads take under this load), then on until the time bound.
        start, least = i * len(pages) // SESSIONS, math.ceil(len(pages) / SESSIONS)
        for k, spec in enumerate(pages[start:] + pages[:start]):
            if k >= least and time.monotonic() > deadline:
                break
            t0 = time.perf_counter()
            await _nav_to(page, spec)
            times.append(("nav", time.perf_counter() - t0))
            visited.add(spec.url_path)
            if await page.locator('[data-testid="stException"]').count():
                text = await page.locator('[data-testid="stException"]').first.inner_text()
                problems.append(f"session {i} {spec.url_path or 'home'}: exception {text[:300]}")
        # After the walk: this session's own state, not another session's.
        if not uploader:
            await _nav_to(page, by_path["podium"])
            await _check_weights(page, i, a, t, problems, "after the walk")
        await _nav_to(page, by_path[""])
        shown = await page.locator('[data-testid="stMetric"]').filter(has_text="Models").first.inner_text()
        if expected and expected not in shown:
            problems.append(f"session {i} ({cohort}, {access}, upload={uploader}): home shows {shown!r}, "
                            f"expected {expected}")
        sidebar = await page.locator('[data-testid="stSidebar"]').inner_text()
        if uploader != ("Your HELM output" in sidebar):
            problems.append(f"session {i} (upload={uploader}): sidebar {'lacks' if uploader else 'shows'} an upload")
    except Exception as exc:  # a timeout or crash in one session is a failure, reported with the rest
        problems.append(f"session {i}: {type(exc).__name__}: {str(exc)[:300]}")
    finally:
        problems.extend(f"session {i}: console: {e[:200]}" for e in errors)
        await ctx.close()


async def _run(base: str, zip_path: Path) -> tuple[list[tuple[str, float]], set[str], list[str]]:
    from playwright.async_api import async_playwright

    times: list[tuple[str, float]] = []
    visited: set[str] = set()
    problems: list[str] = []
    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        deadline = time.monotonic() + WALK_SECONDS
        try:
            # Hard stop: the walk's budget plus time to finish the page in flight and the final checks.
            await asyncio.wait_for(
                asyncio.gather(*[_session(browser, base, i, zip_path, deadline, times, visited, problems)
                                 for i in range(SESSIONS)]),
                timeout=WALK_SECONDS + 4 * SETTLE_MS / 1000,
            )
        except asyncio.TimeoutError:
            problems.append("sessions did not finish in time")
        finally:
            await browser.close()
    return times, visited, problems


@pytest.mark.timeout(1800)
def test_sessions_at_once(server, tmp_path):
    t0 = time.monotonic()
    # In a thread of its own: the session's sync Playwright (the `browser` fixture, which warmed `server`) keeps
    # an event loop running in this one, and asyncio.run refuses to start inside a running loop.
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        times, visited, problems = pool.submit(asyncio.run, _run(server, zip_suite(tmp_path / "demo.zip"))).result()
    wall = time.monotonic() - t0
    assert not problems, "\n".join(problems[:20])
    missing = {p.url_path or "home" for p in nav.available_pages()} - {v or "home" for v in visited}
    assert not missing, f"pages no session reached within the time bound: {sorted(missing)}"
    print(f"\nconcurrent sessions: {SESSIONS}, page views: {len(times)} in {wall:.0f} s")
    for kind, what in (("first", "first load (a new tab: Streamlit's frontend starts)"),
                       ("nav", "in-app page switch")):
        ts = sorted(t for k, t in times if k == kind)
        if len(ts) >= 2:
            p95 = statistics.quantiles(ts, n=20, method="inclusive")[-1]  # never past the max
            print(f"  {what}: {len(ts)} views, median {statistics.median(ts):.2f} s, p95 {p95:.2f} s, "
                  f"max {ts[-1]:.2f} s")
