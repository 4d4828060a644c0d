"""Benchmarks (DESIGN.md §7). One command:  python -m bench.run  [--repeat 5] [--out bench/results.json]
(`--pages podium,cost` times only those pages, for trying a change; it writes JSON only with --out).

Prints a table and writes JSON: per page the AppTest server time cold and warm (median of N); in Chromium
(bench/browser.py, skipped with --no-browser) each page's first load against the app's shell with one chart,
the shell against a bare one-chart page, and the presenter's demo walk against a reference app's page switch;
and helm_core timings at the bundled size and at scale.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402


def timed(fn, repeat: int = 5) -> tuple[float, object]:
    times, out = [], None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), out


def bench_core(repeat: int) -> dict[str, float]:
    from helm_core.data import load_release
    from helm_core.win_rates import group_win_rates, win_rates

    out: dict[str, float] = {}
    out["load_release_ms"] = timed(load_release, repeat)[0] * 1e3
    rel = load_release()
    out["group_win_rates_67_ms"] = timed(lambda: group_win_rates(rel), repeat)[0] * 1e3
    from helm_core.win_rates import group_table

    table, lib = group_table(rel, "accuracy")
    out["win_rates_67x16_ms"] = timed(lambda: win_rates(table, lib), repeat)[0] * 1e3
    rng = np.random.default_rng(0)
    big = pd.DataFrame(np.round(rng.random((1000, 200)), 3))
    big[rng.random((1000, 200)) < 0.1] = np.nan
    big_lib = [bool(i % 2) for i in range(200)]
    out["win_rates_1000x200_ms"] = timed(lambda: win_rates(big, big_lib), repeat)[0] * 1e3
    return out


def bench_pages(repeat: int, only: set[str] | None = None) -> dict[str, dict[str, float]]:
    import streamlit as st
    from streamlit.testing.v1 import AppTest

    from ui import nav

    results: dict[str, dict[str, float]] = {}
    for spec in nav.available_pages():
        if only is not None and spec.url_path not in only:
            continue
        st.cache_data.clear()
        st.cache_resource.clear()
        at = AppTest.from_file(str(ROOT / "Home.py"), default_timeout=120)
        t0 = time.perf_counter()
        at.run()
        if spec.url_path:
            at.switch_page(spec.file).run()
        cold = time.perf_counter() - t0
        if at.exception:
            raise SystemExit(f"{spec.file}: exception during benchmark: {at.exception[0].value}")
        warm = timed(lambda: at.run(), repeat)[0]
        row = {"cold_ms": cold * 1e3, "warm_ms": warm * 1e3, "widget_ms": widget_change_ms(at, repeat),
               "figure_kb": figure_kb(at)}
        row.update(section_switches(at))
        if row["widget_ms"] != row["widget_ms"]:  # no widget in the first section: the first section with one
            row["widget_ms"] = widget_change_ms(at, repeat, in_sections=True)
        results[spec.url_path or "(home)"] = row
    return results


def figure_kb(at) -> float:
    return sum(len(e.proto.spec) for e in at.get("plotly_chart")) / 1024


def section_switches(at) -> dict[str, float]:
    """On a page with section tabs: server time of opening each other tab, the first time (its data not
    cached yet) and again (median and slowest); figure_kb becomes the heaviest section's."""
    from tests.app.helpers import section_tabs

    key, tabs = section_tabs(at)
    if key is None:
        return {}
    labels = [t.label for t in tabs]
    tour = labels[1:] + labels[:1]
    first, again, kb = [], [], [figure_kb(at)]
    for times in (first, again):
        for label in tour:
            at.session_state[key] = label
            t0 = time.perf_counter()
            at.run()
            times.append(time.perf_counter() - t0)
            if at.exception:
                raise SystemExit(f"section {label}: exception during benchmark: {at.exception[0].value}")
            kb.append(figure_kb(at))
    return {"section_first_max_ms": max(first) * 1e3, "section_ms": statistics.median(again) * 1e3,
            "section_max_ms": max(again) * 1e3, "figure_kb": max(kb)}


def widget_change_ms(at, repeat: int, *, in_sections: bool = False) -> float:
    """Median server time of a typical widget change: the page's first slider, select box,
    segmented control, radio or multiselect outside the sidebar, toggled between two values.
    `in_sections`: look in each section tab in turn until one has such a widget."""
    if in_sections:
        from tests.app.helpers import section_tabs

        key, tabs = section_tabs(at)
        for label in [t.label for t in tabs] if key is not None else []:
            at.session_state[key] = label
            at.run()
            ms = widget_change_ms(at, repeat)
            if ms == ms:
                return ms
        return float("nan")
    for kind in ("slider", "selectbox", "button_group", "radio", "multiselect"):
        widgets = [w for w in getattr(at.main, kind)]
        if not widgets:
            continue
        w = widgets[0]
        if kind == "slider":
            lo, hi = w.min, w.max
            values = [lo, hi] if not isinstance(w.value, (list, tuple)) else [(lo, hi), (lo, lo)]
        elif kind == "button_group":
            values = [o.content if hasattr(o, "content") else o for o in list(w.options)[:2]]
        elif kind == "multiselect":
            opts = list(w.options)
            values = [opts[:2], opts[:3]] if len(opts) >= 3 else []
        else:
            values = list(w.options)[:2]
        if len(values) < 2:
            continue
        times = []
        for i in range(repeat):
            widget = getattr(at.main, kind)[0]
            widget.set_value(values[i % 2]) if kind != "selectbox" else widget.select(values[i % 2])
            t0 = time.perf_counter()
            at.run()
            times.append(time.perf_counter() - t0)
        return statistics.median(times) * 1e3
    return float("nan")


def bench_modules(repeat: int) -> dict[str, float]:
    """Run every bench/bench_*.py module's `bench(repeat) -> dict[str, float]` (timings in ms)."""
    import importlib

    out: dict[str, float] = {}
    for path in sorted((ROOT / "bench").glob("bench_*.py")):
        if path.stem == "bench_scale":  # a suite at scale (GBs generated on disk): only with --scale
            continue
        mod = importlib.import_module(f"bench.{path.stem}")
        out.update(mod.bench(repeat))
    return out


def _json_safe(obj):
    """NaN (no widget to time, say) becomes null, so results.json is strict JSON."""
    if isinstance(obj, dict):
        return {k: _json_safe(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_json_safe(v) for v in obj]
    if isinstance(obj, float) and obj != obj:
        return None
    return obj


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="HELM Explorer benchmarks")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--out", type=Path, default=None, help="default bench/results.json (none with --pages)")
    ap.add_argument("--pages", help="comma-separated URL paths ('' is home) to time only those pages")
    ap.add_argument("--no-browser", action="store_true", help="skip the Chromium timings and server RSS")
    ap.add_argument("--browser-repeat", type=int, default=5,
                    help="turns of (bare reference, shell reference, page) first loads per page in Chromium "
                         "(the ratio's noise falls with more; 0: no first loads)")
    ap.add_argument("--walk-repeat", type=int, default=3,
                    help="presenter demo walks in Chromium, each step beside a reference page switch (0: none)")
    ap.add_argument("--scale", default=None, metavar="RUNS",
                    help="also time a user's HELM suite at scale (bench.bench_scale), e.g. --scale 600,3000: "
                         "synthetic suites with 1 MB of instance files per run, generated under --scale-dir")
    ap.add_argument("--scale-dir", default="/tmp/helm-scale")
    args = ap.parse_args(argv)
    only = None if args.pages is None else {p.strip().strip("/") for p in args.pages.split(",")}
    if only is not None:
        from ui import nav

        unknown = only - {spec.url_path for spec in nav.available_pages()}
        if unknown:
            ap.error(f"unknown page(s): {', '.join(sorted(unknown))}")
    out = args.out or (None if only is not None else ROOT / "bench" / "results.json")

    core = {} if only is not None else bench_core(args.repeat)
    if only is None:
        core.update(bench_modules(args.repeat))
    pages = bench_pages(args.repeat, only)
    browser = {}
    if not args.no_browser:
        from bench.browser import bench_browser

        browser = bench_browser(repeat=args.browser_repeat, only=only, walk_repeat=args.walk_repeat)
        for name, b in browser["pages"].items():
            pages[name].update(b)
    print(f"{'page':<13} {'cold ms':>8} {'warm ms':>8} {'widget ms':>9} {'tab ms':>12} {'fig KB':>7} "
          f"{'browser s':>9} {'ratio (pairs)':>17}")
    for name, r in pages.items():
        over = r["warm_ms"] >= 150 or r["cold_ms"] >= 1500 or r.get("widget_ms", 0) >= 100 \
            or r.get("section_max_ms", 0) >= 100 or r["figure_kb"] >= 1024 or r.get("ratio", 0) > 1.3
        tab = f"{r['section_ms']:>5.1f} (≤{r['section_max_ms']:.0f})" if "section_ms" in r else "–"
        print(f"{name:<13} {r['cold_ms']:>8.1f} {r['warm_ms']:>8.1f} {r['widget_ms']:>9.1f} {tab:>12} "
              f"{r['figure_kb']:>7.0f} "
              f"{r.get('browser_s', float('nan')):>9.2f} {r.get('ratio', float('nan')):>5.2f} "
              + (f"({r['pair_ratio_min']:.2f}–{r['pair_ratio_max']:.2f}) " if "pair_ratio_min" in r else f"{'':>12}")
              + ("  <-- over budget" if over else ""))
    print("budgets: warm < 150 ms, cold < 1500 ms, widget and tab switch < 100 ms, figures < 1024 KB (heaviest "
          "tab), browser first load ≤ 1.3× the app's shell with one chart (ratio of median settled times; in "
          "brackets the lowest and highest ratio of single page/shell turns)")
    if browser:
        from bench.browser import print_first_loads, print_walk

        print()
        if "walk" in browser:
            print_walk(browser["walk"])
        print_first_loads(browser)
        print(f"server RSS after the walk and every page: {browser['server_rss_mb']:.0f} MB (budget 400)")
    print()
    for k, v in core.items():
        print(f"{k:<34} {v:>9.2f}")
    scale = {}
    if args.scale:
        from bench.bench_scale import bench as bench_scale

        scale = bench_scale([int(x) for x in args.scale.split(",") if x.strip()], repeat=min(args.repeat, 3),
                            base=args.scale_dir)
        print()
        for k, v in scale.items():
            print(f"HELM suite {k}: floor {v['floor_s']:.2f} s, load {v['load_s']:.2f} s (x{v['ratio']:.2f}, budget 3), "
                  f"peak RSS {v['peak_rss_mb']:.0f} MB (budget 400), one run's instances {v['open_one_run_s']:.3f} s")
    if out is not None:
        out.parent.mkdir(parents=True, exist_ok=True)
        result = _json_safe({"pages": pages, "core": core, "browser": browser, **({"scale": scale} if scale else {})})
        out.write_text(json.dumps(result, indent=2, allow_nan=False) + "\n")
        print(f"\nwrote {out.relative_to(ROOT) if ROOT in out.parents else out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
