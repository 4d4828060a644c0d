"""An audience joining at once, without a browser (DESIGN.md §7): N simulated viewers speak Streamlit's own
websocket protocol to `streamlit run Home.py` and, in the same run and in turns, to Streamlit's floor
(bench/floor_app.py, a two-element page), so a machine that drifts moves both alike.

    python -m bench.audience                       # 50 joiners on home, 3 turns, 4 walk steps each
    python -m bench.audience --n 20 --pages all --turns 1 --steps 0 --out /tmp/audience.json

A viewer is a bench.ws_client.Viewer: it does what Streamlit's frontend does, message for message. That module's
docstring lists the messages, when a step counts as served (its time) and what counts as an error; here a step not
served within --timeout is one.

Not simulated: the browser's download of index.html and the static bundles (the same for app and floor, and
cached by a browser after its first visit) and the browser's drawing. Server memory and CPU come from
/proc/<pid> (the streamlit process: the event loop and every script thread).
"""
from __future__ import annotations

import argparse
import asyncio
import collections
import json
import math
import os
import signal
import statistics
import subprocess
import sys
import threading
import time
import urllib.parse
from pathlib import Path

from bench.browser import rss_mb
from bench.ws_client import QUIET_S, Step, Viewer

ROOT = Path(__file__).resolve().parents[1]
PROFILE_RATE = 200  # py-spy samples per second
FLOOR_WALK = ("two", "")  # the floor's page switches: to its second page and back
# Budgets (DESIGN.md §7)
BUDGET_RATIO = 1.2
BUDGET_RSS_MB = 600
# "The p50 viewer was served before the last": p50 below this share of the slowest viewer's time. Sessions that
# share the CPU fairly all finish together (p50/max near 1); served one after another, p50/max is near 0.5.
BEFORE_LAST_SHARE = 0.9


# -- the server's resources ----------------------------------------------------------------------------------
CLK_TCK = os.sysconf("SC_CLK_TCK")


def proc_cpu_s(pid: int) -> float:
    """User + system CPU seconds of process `pid` (all its threads)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLK_TCK


def load_average() -> float:
    return float(Path("/proc/loadavg").read_text().split()[0])


class Sampler:
    """Peak RSS and CPU of the server process while a phase runs (every 0.1 s)."""

    def __init__(self, pid: int):
        self.pid, self.peak_rss, self.task = pid, 0.0, None

    async def _run(self) -> None:
        while True:
            self.peak_rss = max(self.peak_rss, rss_mb(self.pid))
            await asyncio.sleep(0.1)

    def __enter__(self):
        self.cpu0, self.wall0, self.own0 = proc_cpu_s(self.pid), time.perf_counter(), time.process_time()
        self.task = asyncio.get_running_loop().create_task(self._run())
        return self

    def __exit__(self, *exc):
        self.task.cancel()
        self.peak_rss = max(self.peak_rss, rss_mb(self.pid))
        self.cpu_s = proc_cpu_s(self.pid) - self.cpu0
        self.wall_s = time.perf_counter() - self.wall0
        self.client_cpu_s = time.process_time() - self.own0


def drain(proc: subprocess.Popen) -> collections.deque:
    """Read a server's output as it comes (its last 200 lines kept): from its pipe (a pipe nobody reads fills up,
    and then every thread that logs, e.g. an app exception, blocks on it), or from the file it writes to."""
    lines: collections.deque = collections.deque(maxlen=200)
    if proc.stdout is not None:
        threading.Thread(target=lambda: lines.extend(proc.stdout), daemon=True).start()
    elif getattr(proc, "log_path", None):  # tests/e2e/conftest.serving writes the output to a file: follow it
        def follow() -> None:
            with open(proc.log_path, encoding="utf-8", errors="replace") as f:
                while proc.poll() is None:
                    line = f.readline()
                    if line:
                        lines.append(line)
                    else:
                        time.sleep(0.2)
        threading.Thread(target=follow, daemon=True).start()
    return lines


def start_profile(pid: int, out: Path) -> subprocess.Popen:
    """py-spy (requirements-dev.txt) sampling the server's GIL holder while the joiners' first runs go on."""
    out.parent.mkdir(parents=True, exist_ok=True)
    spy = subprocess.Popen(["py-spy", "record", "--pid", str(pid), "--format", "raw", "--gil", "--nonblocking",
                            "--rate", str(PROFILE_RATE), "--full-filenames", "--output", str(out)],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(0.5)  # py-spy attaches before the joiners start
    return spy


def stop_profile(spy: subprocess.Popen) -> None:
    spy.send_signal(signal.SIGINT)  # py-spy writes its output on SIGINT
    try:
        spy.wait(timeout=30)
    except subprocess.TimeoutExpired:
        spy.kill()


# -- one turn ------------------------------------------------------------------------------------------------
def walk_plan(pages: list[str], steps: int, index: int) -> list[str]:
    """Viewer `index`'s walk: the pages from its own starting point on, each followed by its tabs ("tab")."""
    if not pages or steps <= 0:
        return []
    start = index % len(pages)
    order = pages[start:] + pages[:start]
    plan: list[str] = []
    while len(plan) < steps:
        for p in order:
            plan += [p, "tab"]
    return plan[:steps]


async def one_turn(port: int, pid: int, links: list[str], n: int, walk_pages: list[str], steps: int,
                   timeout: float, profile: Path | None = None, cpu_log: Path | None = None) -> dict:
    viewers = [Viewer(port, i) for i in range(n)]
    result: dict = {"load_average": load_average()}
    spy = None if profile is None else start_profile(pid, profile)
    try:
        with Sampler(pid) as join:
            firsts = await asyncio.gather(*[v.open(links[i % len(links)], timeout) for i, v in enumerate(viewers)])
        if spy is not None:
            stop_profile(spy)
            spy = None
        result["join"] = {"cpu_s": join.cpu_s, "wall_s": join.wall_s, "peak_rss_mb": join.peak_rss,
                          "client_cpu_s": join.client_cpu_s}
        if cpu_log is not None:
            result["cpu_log_join_end"] = cpu_log.stat().st_size

        async def walk(v: Viewer) -> list[Step]:
            done = []
            if v.ws is None or v.closed:
                return done
            for target in walk_plan(walk_pages, steps, v.index):
                if target == "tab":
                    if v.next_tab() is None:
                        continue
                    done.append(await v.switch_tab(timeout))
                else:
                    done.append(await v.switch_page(target, timeout))
                if done[-1].seconds is None:
                    break
            return done

        with Sampler(pid) as walking:
            walks = await asyncio.gather(*[walk(v) for v in viewers])
        result["walk"] = {"cpu_s": walking.cpu_s, "wall_s": walking.wall_s, "peak_rss_mb": walking.peak_rss,
                          "client_cpu_s": walking.client_cpu_s}
    finally:
        if spy is not None:
            stop_profile(spy)
        await asyncio.gather(*[v.close() for v in viewers], return_exceptions=True)
    result["rss_after_mb"] = rss_mb(pid)
    result["first"] = [s.__dict__ for s in firsts]
    result["steps"] = [s.__dict__ for w in walks for s in w]
    return result


def quantile(xs: list[float], q: float) -> float:
    """The q-quantile by the nearest rank (p50 of 50 viewers: the 25th fastest; p95: the 48th)."""
    xs = sorted(xs)
    return xs[max(0, math.ceil(q * len(xs)) - 1)] if xs else float("nan")


def summarise(turn: dict) -> dict:
    firsts = [s["seconds"] for s in turn["first"] if s["seconds"] is not None]
    out = {"load_average": turn["load_average"], "served": len(firsts), "viewers": len(turn["first"]),
           "p50": quantile(firsts, 0.5), "p95": quantile(firsts, 0.95), "max": max(firsts, default=float("nan")),
           "min": min(firsts, default=float("nan")),
           "errors": [e for s in turn["first"] + turn["steps"] for e in s["errors"]],
           "join_cpu_s": turn["join"]["cpu_s"], "join_wall_s": turn["join"]["wall_s"],
           "client_cpu_s": turn["join"]["client_cpu_s"] + turn.get("walk", {}).get("client_cpu_s", 0.0),
           "peak_rss_mb": max(turn["join"]["peak_rss_mb"], turn.get("walk", {}).get("peak_rss_mb", 0.0)),
           "rss_after_mb": turn["rss_after_mb"]}
    if "walk" in turn:
        out["walk_wall_s"], out["walk_cpu_s"] = turn["walk"]["wall_s"], turn["walk"]["cpu_s"]
    out["cpu_per_viewer_ms"] = out["join_cpu_s"] / max(1, out["viewers"]) * 1e3
    out["cpu_utilisation"] = out["join_cpu_s"] / out["join_wall_s"] if out["join_wall_s"] else float("nan")
    out["p50_over_max"] = out["p50"] / out["max"] if out["max"] else float("nan")
    for kind in ("page", "tab"):
        ts = [s["seconds"] for s in turn["steps"] if s["kind"] == kind and s["seconds"] is not None]
        if ts:
            out[f"{kind}_steps"] = len(ts)
            out[f"{kind}_p50"], out[f"{kind}_p95"], out[f"{kind}_max"] = quantile(ts, 0.5), quantile(ts, 0.95), max(ts)
    return out


# -- the run -------------------------------------------------------------------------------------------------
async def warm(port: int, links: list[str], walk_pages: list[str], timeout: float) -> list[str]:
    """Open every link and walk every page and tab once, twice over (the process-wide caches, and the app's
    background warm-up, before any measured turn)."""
    errors = []
    for _ in range(2):
        v = Viewer(port, 0)
        try:
            for link in dict.fromkeys(["/"] + links):
                errors += (await v.open(link, timeout)).errors if v.ws is None else \
                    (await v.switch_page(urllib.parse.urlsplit(link).path.strip("/"), timeout)).errors
            for page in walk_pages:
                errors += (await v.switch_page(page, timeout)).errors
                tc = v.next_tab()
                for _ in range(len(tc[0]["labels"]) if tc else 0):
                    errors += (await v.switch_tab(timeout)).errors
        finally:
            await v.close()
    await asyncio.sleep(1.0)
    return errors


def app_links(pages: str) -> list[str]:
    from ui import nav

    specs = nav.available_pages()
    if pages == "all":
        return [f"/{s.url_path}" for s in specs]
    known = {s.url_path for s in specs}
    out = []
    for p in pages.split(","):
        path = p.strip()
        base = urllib.parse.urlsplit(path).path.strip("/")
        base = "" if base == "home" else base
        if base not in known:
            raise SystemExit(f"unknown page {p!r}: one of home, {', '.join(sorted(known - {''}))}")
        query = urllib.parse.urlsplit(path).query
        out.append(f"/{base}" + (f"?{query}" if query else ""))
    return out


def median_of(turns: list[dict], key: str) -> float:
    vals = [t[key] for t in turns if key in t and t[key] == t[key]]
    return statistics.median(vals) if vals else float("nan")


def report(turns: dict[str, list[dict]], n: int) -> dict:
    keys = ("p50", "p95", "max", "min", "p50_over_max", "cpu_per_viewer_ms", "cpu_utilisation", "join_wall_s",
            "walk_wall_s", "walk_cpu_s", "page_steps", "tab_steps", "page_p50", "page_p95", "page_max", "tab_p50", "tab_p95", "tab_max", "load_average")
    med = {name: {k: median_of(ts, k) for k in keys} for name, ts in turns.items()}
    ratio = {k: med["app"][k] / med["floor"][k] for k in ("p50", "p95", "max", "cpu_per_viewer_ms")
             if med["floor"][k]}
    for kind in ("page", "tab"):
        if med["app"][f"{kind}_p50"] == med["app"][f"{kind}_p50"] and med["floor"]["page_p50"]:
            ratio[f"{kind}_step_p50"] = med["app"][f"{kind}_p50"] / med["floor"]["page_p50"]
    if "shell" in med:
        ratio.update({f"shell_{k}": med["shell"][k] / med["floor"][k] for k in ("p50", "cpu_per_viewer_ms")})
    errors = {name: [e for t in ts for e in t["errors"]] for name, ts in turns.items()}
    peak_rss = {name: max(t["peak_rss_mb"] for t in ts) for name, ts in turns.items()}
    budget = {"ratio_p50_within_1.2": ratio.get("p50", float("inf")) <= BUDGET_RATIO,
              "p50_before_last": med["app"]["p50_over_max"] < BEFORE_LAST_SHARE, "no_errors": not errors["app"],
              "rss_within_600_mb": peak_rss["app"] <= BUDGET_RSS_MB,
              "all_served": all(t["served"] == t["viewers"] for t in turns["app"])}
    return {"n": n, "median": med, "ratio": ratio, "errors": errors, "peak_rss_mb": peak_rss, "budget": budget,
            "budget_met": all(budget.values())}


def print_report(rep: dict, turns: dict[str, list[dict]]) -> None:
    n = rep["n"]
    print(f"\n{n} joiners at once, time to first page (s); per turn: p50 / p95 / max, p50/max, server CPU per "
          "joiner, load average before the turn")
    for name, ts in turns.items():
        for i, t in enumerate(ts):
            print(f"  {name:<5} turn {i + 1}: {t['p50']:6.2f} / {t['p95']:6.2f} / {t['max']:6.2f}   "
                  f"p50/max {t['p50_over_max']:.2f}   CPU {t['cpu_per_viewer_ms']:5.1f} ms/joiner "
                  f"({t['cpu_utilisation']:.2f} cores)   served {t['served']}/{t['viewers']}   "
                  f"load {t['load_average']:.1f}   RSS peak {t['peak_rss_mb']:.0f} MB")
    m, r = rep["median"], rep["ratio"]
    print("median of turns: " + "; ".join(f"{name} p50 {m[name]['p50']:.2f} s, p95 {m[name]['p95']:.2f} s, "
                                          f"max {m[name]['max']:.2f} s" for name in turns))
    print(f"ratio app/floor: p50 {r.get('p50', float('nan')):.2f} (budget {BUDGET_RATIO}), "
          f"p95 {r.get('p95', float('nan')):.2f}, max {r.get('max', float('nan')):.2f}, "
          f"server CPU per joiner {r.get('cpu_per_viewer_ms', float('nan')):.2f}")
    if "shell_p50" in r:
        print(f"ratio shell/floor (the app's router and sidebar with one chart as its page): p50 {r['shell_p50']:.2f}, "
              f"server CPU per joiner {r['shell_cpu_per_viewer_ms']:.2f}")
    print(f"p50 viewer served before the last (p50/max < {BEFORE_LAST_SHARE}): "
          + ", ".join(f"{name} {m[name]['p50_over_max']:.2f}" for name in turns))
    if m["app"]["walk_wall_s"] == m["app"]["walk_wall_s"]:
        print(f"walk: {m['app']['page_steps'] + (m['app']['tab_steps'] if m['app']['tab_steps'] == m['app']['tab_steps'] else 0):.0f} "
              f"steps of {n} viewers at once in {m['app']['walk_wall_s']:.1f} s wall, server CPU "
              f"{m['app']['walk_cpu_s']:.1f} s (each step waits {QUIET_S} s of quiet before the next)")
    for kind in ("page", "tab"):
        if m["app"][f"{kind}_p50"] == m["app"][f"{kind}_p50"]:
            print(f"walk, {kind} switches under {n} viewers: app p50 {m['app'][f'{kind}_p50']:.2f} s, "
                  f"p95 {m['app'][f'{kind}_p95']:.2f} s, max {m['app'][f'{kind}_max']:.2f} s"
                  + (f"; floor page switch p50 {m['floor']['page_p50']:.2f} s (x{r[f'{kind}_step_p50']:.2f})"
                     if f"{kind}_step_p50" in r else ""))
    for key, what in (("cpu_split", "the join"), ("cpu_split_walk", "the walk")):
        splits = {name: [t[key] for t in ts if key in t] for name, ts in turns.items()}
        if not any(splits.values()):
            continue
        print(f"server CPU per joiner in {what} (ms, median of turns; thread CPU time, which other processes' load "
              "does not inflate):")
        for name, ss in splits.items():
            if ss:
                keys = sorted({k for s in ss for k in s}, key=lambda k: (k != "run", k != "outside runs", k))
                print(f"  {name:<5} " + ", ".join(f"{k} {statistics.median(s.get(k, 0.0) for s in ss):.1f}"
                                                 for k in keys if k != "runs_per_joiner")
                      + f" ({statistics.median(s['runs_per_joiner'] for s in ss):.1f} runs per joiner)")
    for name in turns:
        errs = rep["errors"][name]
        print(f"errors ({name}): {len(errs)}" + "".join(f"\n    {e}" for e in sorted(set(errs))[:10]))
    print("server peak RSS: " + ", ".join(f"{name} {v:.0f} MB" for name, v in rep["peak_rss_mb"].items())
          + f" (budget {BUDGET_RSS_MB} for the app)")
    print("budget: " + ", ".join(f"{k} {'yes' if v else 'NO'}" for k, v in rep["budget"].items()))


def cpu_split(log: Path, start: int, end: int, phase: dict, n: int) -> dict:
    """The script runs logged between `start` and `end` (`--cpu-split`: one phase of a turn): thread CPU ms per
    joiner, by what ran inside the runs, and the server's CPU outside them (event loop) per joiner."""
    with log.open() as f:
        f.seek(start)
        runs = [json.loads(line) for line in f.read(max(0, end - start)).splitlines() if line.strip()]
    keys = sorted({k for r in runs for k in r})
    out = {k: sum(r.get(k, 0.0) for r in runs) / max(1, n) for k in keys}
    out["runs_per_joiner"] = len(runs) / max(1, n)
    out["outside runs"] = phase["cpu_s"] * 1e3 / max(1, n) - out.get("run", 0.0)
    return out


async def run(args) -> dict:
    import contextlib

    from tests.e2e import conftest as e2e

    links = app_links(args.pages)
    walk_pages = [p.strip() for p in args.walk.split(",") if p.strip()] if args.walk else []
    walk_pages = ["" if p == "home" else p for p in walk_pages]
    env = {**({"HELM_RUN_SLOTS": str(args.gate)} if args.gate else {}),
           **({"HELM_BENCH_EXAM_SPEC": args.exam_spec} if args.exam_spec else {})}
    variants = str(ROOT / "bench" / "variants")
    if env:
        env["PYTHONPATH"] = variants
    # name -> (script, server environment, the joiners' links, the walk's pages)
    targets = {"floor": (ROOT / "bench" / "floor_app.py", {}, ["/"], list(FLOOR_WALK)),
               "app": (ROOT / "Home.py", env, links, walk_pages)}
    if args.shell:
        targets["shell"] = (ROOT / "bench" / "shell_reference.py", {}, ["/"], [])
    cpu_logs: dict[str, Path] = {}
    if args.cpu_split:
        args.cpu_split.mkdir(parents=True, exist_ok=True)
        for name, t in targets.items():
            cpu_logs[name] = args.cpu_split / f"{name}.jsonl"
            cpu_logs[name].write_text("")
            t[1].update({"PYTHONPATH": variants, "HELM_BENCH_CPU_LOG": str(cpu_logs[name]),
                         **({"HELM_BENCH_CPU_APP": "1", "HELM_BENCH_CPU_WRAP": args.cpu_wrap} if name == "app" else {})})
    turns: dict[str, list[dict]] = {name: [] for name in targets}
    raw: dict[str, list[dict]] = {name: [] for name in targets}
    warm_errors: dict[str, list[str]] = {}
    with contextlib.ExitStack() as stack:
        procs = {name: stack.enter_context(e2e.serving(t[1], script=t[0])) for name, t in targets.items()}
        ports = {name: int(p.url.rsplit(":", 1)[1]) for name, p in procs.items()}
        logs = {name: drain(p) for name, p in procs.items()}
        for name, (_, _, t_links, t_walk) in targets.items():
            warm_errors[name] = await warm(ports[name], t_links, t_walk, args.timeout)
            print(f"warmed {name} (RSS {rss_mb(procs[name].pid):.0f} MB)", flush=True)
            if warm_errors[name]:
                tail = "".join(list(logs[name])[-20:])
                raise SystemExit(f"the {name} server failed while warming: {sorted(set(warm_errors[name]))[:5]}"
                                 f"\nits last log lines:\n{tail}")
        for turn in range(args.turns):
            order = list(targets) if turn % 2 == 0 else list(reversed(targets))
            for name in order:
                await asyncio.sleep(args.pause)
                prof = args.profile / f"{name}_turn{turn + 1}.txt" if args.profile else None
                mark = cpu_logs[name].stat().st_size if name in cpu_logs else 0
                t = await one_turn(ports[name], procs[name].pid, targets[name][2], args.n, targets[name][3],
                                   args.steps, args.timeout, prof, cpu_logs.get(name))
                raw[name].append(t)
                s = summarise(t)
                if name in cpu_logs:
                    mid, end = t["cpu_log_join_end"], cpu_logs[name].stat().st_size
                    s["cpu_split"] = cpu_split(cpu_logs[name], mark, mid, t["join"], args.n)
                    if "walk" in t and end > mid:
                        s["cpu_split_walk"] = cpu_split(cpu_logs[name], mid, end, t["walk"], args.n)
                turns[name].append(s)
                print(f"turn {turn + 1} {name:<5}: p50 {s['p50']:.2f} s, p95 {s['p95']:.2f} s, max {s['max']:.2f} s, "
                      f"served {s['served']}/{s['viewers']}, errors {len(s['errors'])}, load {s['load_average']:.1f}",
                      flush=True)
    rep = report(turns, args.n)
    rep.update({"variant": {"gate": args.gate, "exam_spec": args.exam_spec}, "turns": turns, "links": links,
                "walk": walk_pages, "steps": args.steps, "quiet_s": QUIET_S, "warm_errors": warm_errors})
    if args.raw:
        rep["raw"] = raw
    print_report(rep, turns)
    if args.profile:
        from bench.server_profile import attribute, parse, print_attribution

        for name in targets:
            files = sorted(args.profile.glob(f"{name}_turn*.txt"))
            stacks = [s for f in files for s in parse(f)]
            rep.setdefault("profile", {})[name] = a = attribute(stacks, args.n * len(files))
            print_attribution(a, f"{name}, {len(files)} join(s) of {args.n}")
    return rep


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="N viewers joining at once over Streamlit's websocket protocol, "
                                             "app vs a two-element floor page, in turns")
    ap.add_argument("--n", type=int, default=50, help="viewers joining at once (default 50)")
    ap.add_argument("--pages", default="home",
                    help="the deep links the joiners open, comma-separated, viewer i the i-th (cycling): url paths "
                         "with an optional query, e.g. home,sensitivity?sensitivity_section=Best+or+worst+seed; "
                         "'all': every page (default home)")
    ap.add_argument("--walk", default="podium,sensitivity,grid,cost",
                    help="pages each viewer then walks (each followed by a switch to its next tab), from a start "
                         "of its own; empty: no walk")
    ap.add_argument("--steps", type=int, default=4, help="walk steps per viewer after its first page (0: none)")
    ap.add_argument("--turns", type=int, default=3, help="turns of (floor, app), alternating order (default 3)")
    ap.add_argument("--timeout", type=float, default=180.0, help="seconds before a step counts as not served")
    ap.add_argument("--pause", type=float, default=2.0, help="seconds of rest before each turn")
    ap.add_argument("--raw", action="store_true", help="keep every viewer's steps in the JSON")
    ap.add_argument("--gate", type=int, default=None, metavar="SLOTS",
                    help="run the app's pages through ui.run_gate with SLOTS runs at a time (bench/variants), "
                         "to measure that change before Home.py takes it")
    ap.add_argument("--shell", action="store_true",
                    help="also time the app's shell with one chart as its page (bench/shell_reference.py), in turns")
    ap.add_argument("--cpu-split", type=Path, default=None, metavar="DIR",
                    help="log each script run's thread CPU time, split by part (page, st.plotly_chart, message hash, "
                         "the home page's exam figure), to DIR/<target>.jsonl and print it per joiner "
                         "(bench/variants; unlike --profile, not inflated by other processes' load)")
    ap.add_argument("--cpu-wrap", default="", metavar="MOD:ATTR,...",
                    help="with --cpu-split, also time these functions in the app's runs, e.g. "
                         "ui.real_runs:example_card,streamlit.runtime.caching.cache_utils:CachedFunc.__call__")
    ap.add_argument("--exam-spec", nargs="?", const="1", default=None, choices=("1", "json"),
                    help="the home page's exam chart from a cached figure spec (bench/variants); 'json': the spec "
                         "as plain JSON types, handed to st.plotly_chart without its copy and cleaning")
    ap.add_argument("--profile", type=Path, default=None, metavar="DIR",
                    help="record the server with py-spy during each join (GIL holder only, raw stacks in DIR) and "
                         "print where the first runs' time goes (bench.server_profile)")
    ap.add_argument("--out", type=Path, default=None, help="write the report as JSON")
    args = ap.parse_args(argv)
    rep = asyncio.run(run(args))
    if args.out is not None:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        from bench.run import _json_safe

        args.out.write_text(json.dumps(_json_safe(rep), indent=2, default=str, allow_nan=False) + "\n")
        print(f"wrote {args.out}")
    return 0 if rep["budget_met"] else 1


if __name__ == "__main__":
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    sys.exit(main())
