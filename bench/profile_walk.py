"""Where a demo-walk step's time goes (python -m bench.profile_walk [--steps N] [--pages a,b]): one presenter walk
(PageDown from /?present=1) in Chromium with its DevTools profiler on. Per step: the time until the last websocket
message from the server (the script's run, as the browser sees it), the time from there to the last DOM change
(the browser's own work), the messages and bytes received, and Chromium's Performance.getMetrics deltas (script,
layout and style time, and all main-thread task time). At the end the JavaScript functions with the most self
time over the whole walk (the CPU profiler's samples), by function and bundle."""
from __future__ import annotations

import argparse
import collections
import time
from pathlib import Path

from bench.browser import COUNTER, LOADED, new_page, settle, walk_position

ROOT = Path(__file__).resolve().parents[1]
METRICS = ("TaskDuration", "ScriptDuration", "LayoutDuration", "RecalcStyleDuration", "Nodes", "JSHeapUsedSize")


def metrics(cdp) -> dict[str, float]:
    return {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"] if m["name"] in METRICS}


def _frame(node: dict) -> str:
    cf = node["callFrame"]
    name = cf["functionName"] or "(anonymous)"
    where = cf["url"].rsplit("/", 1)[-1][:40]
    return f"{name} [{where}:{cf['lineNumber']}]" if where else name


def top_functions(profile: dict, n: int = 15) -> list[tuple[float, str]]:
    """The `n` functions with the most self time (ms); a browser built-in (no script URL) is named with the
    bundle function that called it."""
    nodes = {node["id"]: node for node in profile["nodes"]}
    parent = {c: node["id"] for node in profile["nodes"] for c in node.get("children", ())}
    self_ms: collections.Counter = collections.Counter()
    for node_id, dt in zip(profile["samples"], profile["timeDeltas"]):
        node = nodes[node_id]
        name = _frame(node)
        if not node["callFrame"]["url"] and node_id in parent and not name.startswith("("):
            up = parent[node_id]
            while up in parent and not nodes[up]["callFrame"]["url"]:
                up = parent[up]
            name += f" ← {_frame(nodes[up])}"
        self_ms[name] += dt / 1e3
    return [(ms, name) for name, ms in self_ms.most_common(n)]


def _profiled(ctx, page, frames: list, step, more, label) -> tuple[list[dict], list[tuple[float, str]]]:
    """Call `step(t0_page) -> seconds` while `more()`, with the CPU profiler on; per step a row of timings."""
    cdp = ctx.new_cdp_session(page)
    cdp.send("Performance.enable")
    cdp.send("Profiler.enable")
    cdp.send("Profiler.setSamplingInterval", {"interval": 500})
    cdp.send("Profiler.start")
    rows = []
    while more(rows):
        before_m = metrics(cdp)
        t0_page, t0 = page.evaluate("performance.now()"), time.perf_counter()
        n0 = len(frames)
        seconds = step(t0_page)
        mine = frames[n0:]
        after_m = metrics(cdp)
        last_ws = (mine[-1][0] - t0) if mine else float("nan")
        rows.append({"step": label(page), "last_change_s": seconds, "last_ws_s": last_ws,
                     "browser_after_ws_s": seconds - last_ws, "ws_msgs": len(mine),
                     "ws_kb": sum(b for _, b in mine) / 1024,
                     **{k: after_m[k] - before_m[k] for k in METRICS}})
    prof = cdp.send("Profiler.stop")["profile"]
    return rows, top_functions(prof)


def _open(browser, url: str):
    ctx, page = new_page(browser, (1280, 720))
    frames: list[tuple[float, int]] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(
        (time.perf_counter(), len(payload)))))
    page.goto(url, wait_until="commit")
    settle(page)
    return ctx, page, frames


def profile_walk(app_url: str, steps: int, browser, start: str = ""):
    ctx, page, frames = _open(browser, f"{app_url}/{start}?present=1")
    nxt = page.locator(".st-key-present_next button").first

    def step(t0_page):
        before = page.evaluate(f"({COUNTER} || [''])[0]")
        page.keyboard.press("PageDown")
        return settle(page, t0_page, f"({COUNTER} || [''])[0] !== {before!r}")

    out = _profiled(ctx, page, frames, step, lambda rows: nxt.is_enabled() and len(rows) < steps, walk_position)
    ctx.close()
    return out


def profile_reference(browser, steps: int):
    from tests.e2e import conftest as e2e

    with e2e.serving(script=ROOT / "bench" / "reference_app.py") as ref:
        ctx, page, frames = _open(browser, f"{ref.url}/")

        def step(t0_page):
            before = page.evaluate("location.pathname")
            page.locator('[data-testid="stPageLink"] a').first.click()
            return settle(page, t0_page, f"location.pathname !== {before!r} && {LOADED}")

        out = _profiled(ctx, page, frames, step, lambda rows: len(rows) < steps,
                        lambda pg: pg.evaluate("location.pathname"))
        ctx.close()
    return out


def server_walk(max_steps: int = 80) -> list[tuple[str, float, float]]:
    """The same walk on the server alone (AppTest, a fresh process's caches): per step the page, the seconds of
    the script run(s) it took the first time, and again on a second walk (caches warm)."""
    from streamlit.testing.v1 import AppTest

    from helm_core.data import cohort_models, load_bundled
    from ui import slides

    rel = load_bundled("classic")
    route = slides.route(slides.Ctx(rel=rel, models=tuple(cohort_models(rel, "paper")), state={}))
    out = []
    for walk in range(2):
        at = AppTest.from_file(str(ROOT / "Home.py"), default_timeout=120)
        at.query_params["present"] = "1"
        at.run()
        last_page = route[0].page
        for i in range(max_steps):
            nxt = at.button(key="present_next")
            if nxt.disabled:
                break
            t0 = time.perf_counter()
            nxt.click().run()
            seconds = time.perf_counter() - t0
            counter = next(str(m.value) for m in at.markdown if str(m.value).startswith("**Step "))
            step = route[int(counter.split()[1]) - 1]
            if walk == 0:
                out.append([step.page or "(home)", step.title if step.key else "", seconds, float("nan")])
            else:
                out[i][3] = seconds
            if step.page != last_page:  # AppTest reruns its own page next: move it to the page the app switched to
                at.switch_page(step.file)
                at.query_params["present"] = "1"
                if step.key:
                    at.query_params[step.key] = step.token
                at.run()
            last_page = step.page
    return out


def main() -> None:
    from playwright.sync_api import sync_playwright

    from tests.e2e import conftest as e2e

    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=80)
    ap.add_argument("--server", action="store_true", help="only the server's script time per step (AppTest)")
    ap.add_argument("--start", default="", help="the page (URL path) the walk starts on; default the first")
    a = ap.parse_args()
    if a.server:
        print(f"{'step':<50} {'first s':>8} {'again s':>8}")
        for path, tab, first, again in server_walk(a.steps):
            print(f"{(path + (' · ' + tab if tab else ''))[:50]:<50} {first:>8.3f} {again:>8.3f}")
        return
    with e2e.serving() as app, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=e2e.CHROMIUM, headless=True, args=e2e.CHROMIUM_ARGS)
        rows, top = profile_walk(app.url, a.steps, browser, a.start)
        ref_rows, ref_top = profile_reference(browser, 10)
        browser.close()
    print(f"{'step':<50} {'last chg':>8} {'last ws':>7} {'after':>6} {'msgs':>5} {'KB':>6} {'task':>6} {'script':>6} "
          f"{'layout':>6} {'style':>6} {'nodes':>6}")
    for r in rows:
        print(f"{r['step'][:50]:<50} {r['last_change_s']:>8.2f} {r['last_ws_s']:>7.2f} {r['browser_after_ws_s']:>6.2f} "
              f"{r['ws_msgs']:>5} {r['ws_kb']:>6.0f} {r['TaskDuration']:>6.2f} {r['ScriptDuration']:>6.2f} "
              f"{r['LayoutDuration']:>6.2f} {r['RecalcStyleDuration']:>6.2f} {r['Nodes']:>+6.0f}")
    print("\nthe reference app's page switches:")
    for r in ref_rows:
        print(f"{r['step'][:50]:<50} {r['last_change_s']:>8.2f} {r['last_ws_s']:>7.2f} {r['browser_after_ws_s']:>6.2f} "
              f"{r['ws_msgs']:>5} {r['ws_kb']:>6.0f} {r['TaskDuration']:>6.2f} {r['ScriptDuration']:>6.2f} "
              f"{r['LayoutDuration']:>6.2f} {r['RecalcStyleDuration']:>6.2f} {r['Nodes']:>+6.0f}")
    print("\nJavaScript self time over the reference's switches (ms):")
    for ms, name in ref_top:
        print(f"  {ms:>8.0f}  {name[:150]}")
    print("\nJavaScript self time over the walk (ms):")
    for ms, name in top:
        print(f"  {ms:>8.0f}  {name[:150]}")


if __name__ == "__main__":
    main()
