"""Pre-show check: walk the presenter route of a running app in Chromium, as the presenter will, before the audience
arrives. It warms the server's caches on the way.

    python -m bench.preflight                         # http://localhost:8501
    python -m bench.preflight https://your-app.streamlit.app
    python -m bench.preflight URL --theme dark --query release=lite --no-live
    python -m bench.preflight URL --theme both        # axe-core in light and in dark on every step, one walk

For every step of the route (PageDown from `/?present=1`): the time until the slide has settled, any exception box,
any console error, and the stage checks (the slide's chart or table fully on a 1280 × 720 screen, chart text at
least 16 px, no serious or critical axe-core WCAG A/AA violation). With `--theme both`, each step is checked in
the theme it arrived in, then the browser's colour scheme is switched (the app follows the system theme) and
axe-core's colour rules run again on the same drawing (the markup is the same in both themes); the next step
arrives in that theme, so the stage checks alternate between the two (axe-core does not read the charts' SVG text,
whose colours are set for the theme a step arrived in; the stage checks do). Then the live tools: it starts a
room, opens the follow link in a second browser and the speaker view in a third, moves one slide and checks both
follow (and runs axe-core on both). Prints a line per step and a summary; exits 1 on any problem, naming the step
and page. Needs Debian's /usr/bin/chromium (or HELM_CHROMIUM), Playwright and
axe-playwright-python (requirements-dev.txt; `--no-a11y` skips the axe checks).
"""
from __future__ import annotations

import argparse
import os
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

CHROMIUM = os.environ.get("HELM_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run", "--disable-quic"]
COUNTER = re.compile(r"Step (\d+) of (\d+)")
THEMES = ("light", "dark")
IGNORED_CONSOLE = ("net::ERR", "Failed to load resource", "favicon", "webhooks", "Content Security Policy")


def _bar(page) -> str:
    """The presenter bar's counter: "Step k of n · page · slide · release" (the bar's buttons left out)."""
    text = page.evaluate("() => (document.querySelector('.st-key-present_bar') || {innerText: ''}).innerText")
    m = re.search(r"Step \d+ of \d+[^\n]*", text)
    return m.group(0) if m else ""


def _exception(page) -> str | None:
    exc = page.locator('[data-testid="stException"]')
    return exc.first.inner_text()[:300].replace("\n", " ") if exc.count() else None


def _settle(page, timeout_ms: int) -> float:
    from tests.e2e.helpers import wait_settled

    return wait_settled(page, timeout_ms)


def walk(base: str, *, theme: str = "light", query: str = "", live: bool = True, layout: bool = True,
         timeout_s: float = 60.0, max_steps: int | None = None, browser=None, out=print,
         a11y: bool = True) -> list[str]:
    """Walk the route (the first `max_steps` steps, or all); returns the problems found (empty: ready for the
    show). `theme`: "light", "dark" or "both" (every step in both, on one page load: see the module's doc).
    `browser`: a Playwright browser to use (the tests'), else one of its own. `a11y`: run axe-core on every
    step and on the speaker and follow views (serious and critical WCAG A/AA violations are problems)."""
    if browser is not None:
        return _walk(browser, base, theme, query, live, layout, timeout_s, max_steps, out, a11y)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        own = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        try:
            return _walk(own, base, theme, query, live, layout, timeout_s, max_steps, out, a11y)
        finally:
            own.close()


def _walk(browser, base: str, theme: str, query: str, live: bool, layout: bool, timeout_s: float,
          max_steps: int | None, out, a11y: bool) -> list[str]:
    from tests.e2e.slide_probe import problems as stage_problems

    axe = _axe_problems if a11y else (lambda page, where="", colours_only=False: [])

    problems: list[str] = []
    extra = f"&{query}" if query else ""
    themes = THEMES if theme == "both" else (theme,)
    shown = themes[0]  # the theme the next step arrives in
    if True:
        ctx = browser.new_context(viewport={"width": 1280, "height": 720}, color_scheme=shown)
        page = ctx.new_page()
        console: list[str] = []
        page.on("console", lambda m: m.type == "error" and console.append(m.text))
        page.on("pageerror", lambda e: console.append(str(e)))
        t0 = time.perf_counter()
        try:
            page.goto(f"{base}/?present=1{extra}", wait_until="domcontentloaded", timeout=int(timeout_s * 1000))
            _settle(page, int(timeout_s * 1000))
        except Exception as e:  # noqa: BLE001 - an app that does not answer is the first problem to report
            ctx.close()
            return [f"the app at {base} did not load: {type(e).__name__}: {str(e)[:200]}"]
        first = time.perf_counter() - t0
        m = COUNTER.search(_bar(page))
        if not m:
            ctx.close()
            return [f"presenter mode did not start at {base}/?present=1 (no step counter)"]
        n = int(m.group(2))
        last = n if max_steps is None else min(n, max_steps)
        out(f"{'step':>4}  {'time':>6}  slide")
        times: list[float] = []
        for step in range(1, last + 1):
            elapsed = first if step == 1 else None
            if step > 1:
                t = time.perf_counter()
                page.keyboard.press("PageDown")
                try:
                    page.wait_for_function(
                        "k => { const b = document.querySelector('.st-key-present_bar');"
                        " return b && new RegExp('Step ' + k + ' of ').test(b.innerText); }",
                        arg=step, timeout=int(timeout_s * 1000))
                    _settle(page, int(timeout_s * 1000))
                except Exception:  # noqa: BLE001 - a step that never arrives is reported, then the walk stops
                    path = "/" + page.url.split("/", 3)[-1].split("?")[0]
                    exc = _exception(page)
                    problems.append(f"step {step} ({path}): did not arrive within {timeout_s:.0f} s after PageDown "
                                    f"(the bar shows: {_bar(page)[:100] or 'nothing'})"
                                    + (f"; EXCEPTION {exc}" if exc else ""))
                    break
                elapsed = time.perf_counter() - t
            times.append(elapsed)
            where = _bar(page)
            where = where[where.find("·") + 1:].strip() if "·" in where else where
            path = "/" + page.url.split("/", 3)[-1].split("?")[0]
            flags = []
            exc = _exception(page)
            if exc:
                flags.append(f"EXCEPTION {exc}")
            errors = [c for c in console if not any(s in c for s in IGNORED_CONSOLE)]
            console.clear()
            if errors:
                flags.append(f"console error: {errors[0][:200]}")
            arrived_in = shown
            mark = (lambda f: f"[{arrived_in}] {f}") if len(themes) > 1 else str
            if layout and not exc:
                flags += map(mark, stage_problems(page, "presenter"))
            if not exc:
                flags += map(mark, axe(page))
                if len(themes) > 1:  # the other theme on this drawing; the next step arrives in it
                    other = themes[1 - themes.index(shown)]
                    trouble = _switch_theme(page, other, int(timeout_s * 1000))
                    if trouble:
                        flags.append(trouble)
                        themes = (shown,)  # the link fixes a theme: the rest of the walk stays in it
                    else:
                        shown = other
                        flags += [f"[{other}] {f}" for f in axe(page, colours_only=True)]
            seen_in = f"  [{arrived_in}]" if theme == "both" else ""
            out(f"{step:>4}  {elapsed:>5.2f}s  {path} · {where[:90]}{seen_in}"
                + "".join(f"\n      ! {f}" for f in flags))
            problems += [f"step {step} ({path} · {where[:80]}): {f}" for f in flags]
        if last == n and n > 1 and not any("did not arrive" in p for p in problems):
            page.keyboard.press("PageUp")  # and back one step
            try:
                page.wait_for_function(
                    "k => new RegExp('Step ' + k + ' of ').test(document.querySelector('.st-key-present_bar').innerText)",
                    arg=n - 1, timeout=int(timeout_s * 1000))
            except Exception:  # noqa: BLE001
                problems.append(f"PageUp from the last step did not go back to step {n - 1}")
        if live and not any("did not arrive" in p for p in problems):
            problems += _live(browser, page, base, extra, timeout_s, out, axe)
        ctx.close()
    if times:
        ordered = sorted(times)
        out(f"\n{len(times)} steps · first load {times[0]:.2f} s · median step {ordered[len(ordered) // 2]:.2f} s · "
            f"slowest {ordered[-1]:.2f} s")
    return problems


def _switch_theme(page, scheme: str, timeout_ms: int) -> str | None:
    """Switch the browser's colour scheme; the app, following the system theme, redraws in it. Returns a problem
    when its background does not change (a link that fixes a theme, `theme=` or `embed_options`)."""
    from tests.e2e.slide_probe import BACKGROUND_JS

    if re.search(r"embed_options=(light|dark)_theme", page.url):
        return f"the page did not switch to {scheme}: its link fixes the theme (`theme=` / `embed_options`)"
    before = page.evaluate(BACKGROUND_JS)
    page.emulate_media(color_scheme=scheme)
    try:
        page.wait_for_function(f"b => ({BACKGROUND_JS})() !== b", arg=before, timeout=min(timeout_ms, 10_000))
    except Exception:  # noqa: BLE001 - reported as a problem of the walk
        return f"the page did not switch to {scheme} with the system theme within 10 s"
    return None


def _axe_problems(page, where: str = "", colours_only: bool = False) -> list[str]:
    """axe-core's problems on the drawn page; `colours_only`: the rules a theme switch can change (a11y.THEME_RULES)."""
    from bench import a11y  # lazily: axe-playwright-python is a development requirement

    return a11y.problems(page, where, a11y.THEME_RULES if colours_only else None)


def _live(browser, page, base: str, extra: str, timeout_s: float, out, axe) -> list[str]:
    """Start a room on the presenter's page, open the follow link and the speaker view, move one slide."""
    problems: list[str] = []
    try:
        page.keyboard.press("Home")
        page.goto(f"{base}/?present=1{extra}", wait_until="domcontentloaded")
        _settle(page, int(timeout_s * 1000))
        page.get_by_role("button", name="Audience").click()
        page.get_by_role("button", name="Start a live room").click()
        _settle(page, int(timeout_s * 1000))
        body = page.locator('[data-testid="stPopoverBody"]').inner_text(timeout=10_000)
        m = re.search(r"(https?://\S+\?follow=\w+)", body)
        if not m:
            return ["live room: no follow link in the Audience box"]
        follow = m.group(1)
        page.keyboard.press("Escape")
        page.get_by_role("button", name="Speaker").click()
        speaker = page.get_by_role("link", name="Open speaker view").get_attribute("href", timeout=10_000)
        page.keyboard.press("Escape")
        f_ctx = browser.new_context(viewport={"width": 390, "height": 844})
        s_ctx = browser.new_context(viewport={"width": 1000, "height": 900})
        fpage, spage = f_ctx.new_page(), s_ctx.new_page()
        fpage.goto(follow.replace(follow.split("/?")[0], base), wait_until="domcontentloaded")
        _settle(fpage, int(timeout_s * 1000))
        spage.goto(speaker.replace(speaker.split("/speaker")[0], base), wait_until="domcontentloaded")
        _settle(spage, int(timeout_s * 1000))
        page.keyboard.press("PageDown")
        page.wait_for_function("() => /Step 2 of/.test(document.querySelector('.st-key-present_bar').innerText)",
                               timeout=int(timeout_s * 1000))
        target = page.url.split("?")[0].rsplit("/", 1)[-1]
        t = time.perf_counter()
        fpage.wait_for_function("p => location.pathname.replace(/^\\//, '') === p", arg=target, timeout=10_000)
        follower = time.perf_counter() - t
        spage.wait_for_function("() => /2 of \\d+/.test(document.body.innerText)", timeout=10_000)
        speaker_s = time.perf_counter() - t
        out(f"\nlive: a follower followed in {follower:.2f} s, the speaker view in {speaker_s:.2f} s")
        for name, pg in (("follower", fpage), ("speaker view", spage)):
            exc = _exception(pg)
            if exc:
                problems.append(f"live {name}: EXCEPTION {exc}")
            else:
                _settle(pg, int(timeout_s * 1000))
                problems += axe(pg, f"live {name}")
        f_ctx.close()
        s_ctx.close()
    except Exception as e:  # noqa: BLE001 - report what failed, not a traceback
        problems.append(f"live tools: {type(e).__name__}: {str(e)[:200]}")
    return problems


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("url", nargs="?", default="http://localhost:8501")
    ap.add_argument("--theme", choices=("light", "dark", "both"), default="light",
                    help="both: every step checked in light and in dark, on one walk")
    ap.add_argument("--query", default="", help="extra query for the walk, e.g. release=lite or cohort=all")
    ap.add_argument("--no-live", action="store_true", help="skip the room, follow link and speaker view")
    ap.add_argument("--no-layout", action="store_true", help="skip the stage layout checks")
    ap.add_argument("--no-a11y", action="store_true", help="skip the axe-core accessibility checks")
    ap.add_argument("--timeout", type=float, default=60.0, help="seconds a step may take (a cold cloud app: more)")
    ap.add_argument("--steps", type=int, default=None, help="walk only the first N steps")
    args = ap.parse_args(argv)
    base = args.url.rstrip("/")
    print(f"Pre-show check of {base} (presenter mode, 1280 × 720, {args.theme})")
    found = walk(base, theme=args.theme, query=args.query, live=not args.no_live, layout=not args.no_layout,
                 timeout_s=args.timeout, max_steps=args.steps, a11y=not args.no_a11y)
    if found:
        print(f"\nNOT READY: {len(found)} problem(s)")
        for f in found:
            print(f"  - {f}")
        return 1
    print("\nREADY: every step loaded cleanly.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
