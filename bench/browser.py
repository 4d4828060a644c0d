"""Browser timings in Chromium, each beside its reference in turns in the same run (so a machine that slows down
or speeds up during the run moves both alike):

- first loads: every page in a fresh browser context, against the app's own shell with one chart as its page
  (bench/shell_reference.py); and that shell against a bare one-chart page (bench/reference_app.py);
- the demo walk: presenter mode from `/?present=1`, PageDown through every page and tab as a presenter does,
  each step beside a page switch of the two-page reference app (a click on its page link);
- the server's memory after all of it.

A load or a step counts until it has settled: the script has finished, no skeleton shows, every plotly chart has
drawn, and nothing in the DOM has changed for 0.5 s. Its time is that of the last DOM change (from the
navigation's start, or from the key press or click): the 0.5 s of quiet only tells that it was the last. Changes
inside a canvas's fallback content, which the browser never draws, do not count (see OBSERVER_JS).
"""
from __future__ import annotations

import statistics
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
QUIET_MS = 500

# Installed in every page before its own scripts: the time of the last DOM change on the page's clock.
# A change inside a <canvas> element's content does not count: that content is the canvas's fallback, which a
# browser that draws the canvas never shows (Streamlit's data grid writes an accessibility copy of its cells
# there about 0.3 s after it has drawn them). The canvas element's own changes (its size) count.
OBSERVER_JS = """(() => {
  window.__lastChange = 0;
  const unseen = (m) => {
    const el = m.target.nodeType === 1 ? m.target : m.target.parentElement;
    const c = el && el.closest('canvas');
    return c !== null && c !== undefined && (c !== el || m.type === 'childList');
  };
  new MutationObserver((ms) => { if (ms.some((m) => !unseen(m))) window.__lastChange = performance.now(); })
    .observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
})()"""
# What tells that a load or a step has landed (a JS expression), before the wait for quiet starts.
LOADED = "document.querySelector('[data-testid=\"stMain\"] [data-testid=\"stElementContainer\"]') !== null"
COUNTER = "(document.querySelector('.st-key-present_bar') || {innerText: ''}).innerText.match(/Step \\d+ of \\d+/)"


SETTLED_JS = """([t0, quiet, landed]) => {
  const app = document.querySelector('[data-testid="stApp"]');
  if (!app || app.getAttribute('data-test-script-state') !== 'notRunning') return false;
  if (window.__lastChange < t0 || !(new Function('return ' + landed))()) return false;
  if (document.querySelector('[data-testid="stSkeleton"]')) return false;
  for (const c of document.querySelectorAll('[data-testid="stPlotlyChart"]')) { if (!c.querySelector('.main-svg')) return false; }
  return performance.now() - window.__lastChange >= quiet;
}"""


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def settle(page, t0: float = 0.0, landed: str = LOADED, timeout_ms: int = 60_000) -> float:
    """Seconds from `t0` (the page's clock, ms; 0 = the navigation's start) to the last DOM change, once `landed`
    (a JS expression) holds and the page has settled."""
    page.wait_for_function(SETTLED_JS, arg=[t0, QUIET_MS, landed], timeout=timeout_ms, polling=50)
    return (page.evaluate("window.__lastChange") - t0) / 1e3


def new_page(browser, viewport=(1400, 900)):
    ctx = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]})
    ctx.add_init_script(OBSERVER_JS)
    return ctx, ctx.new_page()


def first_load(browser, url: str) -> float:
    ctx, page = new_page(browser)
    page.goto(url, wait_until="commit")
    seconds = settle(page)
    ctx.close()
    return seconds


def press(page, key: str) -> float:
    """Press `key` in presenter mode; seconds until the bar's counter shows another position and the app has
    settled."""
    before = page.evaluate(f"({COUNTER} || [''])[0]")
    t0 = page.evaluate("performance.now()")
    page.keyboard.press(key)
    return settle(page, t0, f"({COUNTER} || [''])[0] !== {before!r}")


def click_link(page) -> float:
    """Follow the reference app's page link; seconds until the other page has settled."""
    before = page.evaluate("location.pathname")
    t0 = page.evaluate("performance.now()")
    page.locator('[data-testid="stPageLink"] a').first.click()
    return settle(page, t0, f"location.pathname !== {before!r} && {LOADED}")


def walk_position(page) -> str:
    """Where the presenter is: the presenter bar's "page · slide" (ui.presenter.show_counter)."""
    text = page.evaluate("(document.querySelector('.st-key-present_bar [data-testid=\"stMarkdownContainer\"]')"
                         " || {innerText: ''}).innerText")
    parts = [p.strip() for p in text.split("·")]
    return " · ".join(parts[1:-1]) if len(parts) > 2 else (page.evaluate("location.pathname").strip("/") or "(home)")


def demo_walk(browser, app_url: str, ref_url: str, *, max_steps: int = 80) -> tuple[list[tuple[str, float]], list[float]]:
    """One presenter's walk from `/?present=1` to the last section, one PageDown at a time, each step followed by
    a page switch in the reference app. Returns [(where the step landed, seconds)] and the reference switches."""
    ctx, page = new_page(browser, (1280, 720))
    rctx, ref = new_page(browser, (1280, 720))
    page.goto(f"{app_url}/?present=1", wait_until="commit")
    settle(page)
    ref.goto(ref_url, wait_until="commit")
    settle(ref)
    steps, refs = [], []
    nxt = page.locator(".st-key-present_next button").first
    while nxt.is_enabled() and len(steps) < max_steps:
        seconds = press(page, "PageDown")
        steps.append((walk_position(page), seconds))
        refs.append(click_link(ref))
    ctx.close()
    rctx.close()
    return steps, refs


def bench_browser(repeat: int = 7, only: set[str] | None = None, walk_repeat: int = 3) -> dict:
    """`repeat` turns of (bare reference, shell reference, page) first loads per page (0: none); `walk_repeat`
    demo walks (0: none)."""
    from playwright.sync_api import sync_playwright

    from tests.e2e import conftest as e2e
    from ui import nav

    ports = [e2e.free_port() for _ in range(3)]
    app = e2e.start_server(ports[0])
    shell = e2e.start_server(ports[1], script=ROOT / "bench" / "shell_reference.py")
    bare = e2e.start_server(ports[2], script=ROOT / "bench" / "reference_app.py")
    app_url, shell_url, bare_url = (f"http://127.0.0.1:{p}" for p in ports)
    out: dict = {"pages": {}}
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=e2e.CHROMIUM, headless=True, args=e2e.CHROMIUM_ARGS)
            for url in (bare_url, shell_url, app_url):  # each server's process-wide caches once
                first_load(browser, f"{url}/")
            if walk_repeat:
                out["walk"] = walk_stats([demo_walk(browser, app_url, bare_url) for _ in range(walk_repeat)])
            bare_s, shell_s = [], []
            for spec in nav.available_pages() if repeat else []:
                if only is not None and spec.url_path not in only:
                    continue
                page_s, shell_here = [], []
                for _ in range(repeat):
                    bare_s.append(first_load(browser, f"{bare_url}/"))
                    shell_here.append(first_load(browser, f"{shell_url}/"))
                    page_s.append(first_load(browser, f"{app_url}/{spec.url_path}"))
                shell_s += shell_here
                pairs = sorted(settled(p_) / settled(s_) for p_, s_ in zip(page_s, shell_here))
                med, ref = statistics.median(page_s), statistics.median(shell_here)
                out["pages"][spec.url_path or "(home)"] = {
                    "browser_s": med, "shell_reference_s": ref, "ratio": settled(med) / settled(ref),
                    "ratio_last_change": med / ref, "pair_ratio_min": pairs[0], "pair_ratio_max": pairs[-1]}
            if bare_s:
                med_shell, med_bare = statistics.median(shell_s), statistics.median(bare_s)
                out.update(bare_reference_s=med_bare, shell_reference_s=med_shell,
                           shell_ratio=settled(med_shell) / settled(med_bare), shell_ratio_last_change=med_shell / med_bare)
            browser.close()
        out["server_rss_mb"] = rss_mb(app.pid)
    finally:
        for proc in (app, shell, bare):
            proc.terminate()
            proc.wait(timeout=10)
    return out


def settled(seconds: float) -> float:
    """A time to the last DOM change as the time the page is known to have settled (0.5 s of quiet later)."""
    return seconds + QUIET_MS / 1e3


def walk_stats(walks: list[tuple[list[tuple[str, float]], list[float]]]) -> dict:
    """Per step (where it landed), the median over the walks of its time to the last DOM change; the walk's median
    and slowest step against the median reference page switch over every walk, as settled times (the budget's
    figure: + 0.5 s of quiet each) and as times to the last change."""
    labels = [label for label, _ in walks[0][0]]
    per_step = {label: statistics.median(w[0][i][1] for w in walks if i < len(w[0])) for i, label in enumerate(labels)}
    refs = [s for _, r in walks for s in r]
    ref = statistics.median(refs)
    median, slowest = statistics.median(per_step.values()), max(per_step.values())
    return {"steps": per_step, "reference_switch_s": ref, "median_step_s": median, "slowest_step_s": slowest,
            "slowest_step": max(per_step, key=per_step.get),
            "median_ratio": settled(median) / settled(ref), "slowest_ratio": settled(slowest) / settled(ref),
            "median_ratio_last_change": median / ref, "slowest_ratio_last_change": slowest / ref,
            "walks": len(walks), "reference_switch_min_s": min(refs), "reference_switch_max_s": max(refs),
            "walk_medians_s": [statistics.median(s for _, s in w[0]) for w in walks],
            "walk_slowest_s": [max(s for _, s in w[0]) for w in walks]}


def print_walk(walk: dict) -> None:
    print(f"demo walk: presenter mode from /?present=1, PageDown to the end; {walk['walks']} walk(s), per step the "
          "median seconds to the last DOM change (settled = that + 0.5 s of quiet):")
    for label, s in walk["steps"].items():
        print(f"  {label:<56} {s:>6.2f} s")
    print(f"median step {walk['median_step_s']:.2f} s, slowest {walk['slowest_step_s']:.2f} s ({walk['slowest_step']}); "
          f"the reference app's page switch {walk['reference_switch_s']:.2f} s "
          f"({walk['reference_switch_min_s']:.2f}–{walk['reference_switch_max_s']:.2f}); each walk's median and slowest "
          "step (the first walk is the first after the server started): "
          + ", ".join(f"{m:.2f}/{s:.2f} s" for m, s in zip(walk["walk_medians_s"], walk.get("walk_slowest_s", []))))
    print(f"ratios of settled times: median step {walk['median_ratio']:.2f} (budget 1.2), slowest step "
          f"{walk['slowest_ratio']:.2f} (budget 2)" + ("  <-- over budget" if walk["median_ratio"] > 1.2
                                                       or walk["slowest_ratio"] > 2 else "")
          + f"; of times to the last change: {walk['median_ratio_last_change']:.2f}, "
            f"{walk['slowest_ratio_last_change']:.2f}")


def print_first_loads(res: dict) -> None:
    """The first-load table of `bench_browser`'s result."""
    if not res.get("pages"):
        return
    print("first loads (fresh browser context; median seconds to the last DOM change; ratios of settled times, "
          "budget 1.3 against the app's shell with one chart; in brackets single turns' lowest and highest):")
    for name, r in res["pages"].items():
        print(f"  {name:<13} {r['browser_s']:>5.2f} s vs shell {r['shell_reference_s']:.2f} s: {r['ratio']:.2f} "
              f"({r['pair_ratio_min']:.2f}–{r['pair_ratio_max']:.2f}); last change {r['ratio_last_change']:.2f}"
              + ("  <-- over budget" if r["ratio"] > 1.3 else ""))
    print(f"  the shell with one chart {res['shell_reference_s']:.2f} s vs a bare one-chart page "
          f"{res['bare_reference_s']:.2f} s: {res['shell_ratio']:.2f} (target 1.15; last change "
          f"{res['shell_ratio_last_change']:.2f})" + ("  <-- over target" if res["shell_ratio"] > 1.15 else ""))


if __name__ == "__main__":
    import argparse
    import json

    ap = argparse.ArgumentParser(description="browser part of the bench only")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--walk-repeat", type=int, default=1)
    ap.add_argument("--pages")
    ap.add_argument("--out", type=Path)
    a = ap.parse_args()
    res = bench_browser(a.repeat, None if a.pages is None else {x.strip().strip("/") for x in a.pages.split(",")},
                        a.walk_repeat)
    if "walk" in res:
        print_walk(res["walk"])
    print_first_loads(res)
    if a.out:
        a.out.write_text(json.dumps(res, indent=2))
