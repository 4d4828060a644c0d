"""Browser timings: every page in Chromium until the script is done and every chart has drawn, beside a
one-chart reference page served by a second server in the same run and loaded in turns with each page; on
pages with section tabs, the time from a click on another tab until that section has drawn; and server RSS."""
from __future__ import annotations

import statistics
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def bench_browser(repeat: int = 7, only: set[str] | None = None) -> dict:
    from playwright.sync_api import sync_playwright

    from tests.e2e import conftest as e2e
    from tests.e2e.helpers import open_section, open_url
    from ui import nav

    app_port, ref_port = e2e.free_port(), e2e.free_port()
    app = e2e.start_server(app_port)
    ref = e2e.start_server(ref_port, script=ROOT / "bench" / "reference_app.py")
    out: dict = {"pages": {}}
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=e2e.CHROMIUM, headless=True, args=e2e.CHROMIUM_ARGS)

            def load(url: str) -> float:
                ctx = browser.new_context(viewport={"width": 1400, "height": 900})
                page = ctx.new_page()
                t0 = time.perf_counter()
                open_url(page, url)
                seconds = time.perf_counter() - t0
                ctx.close()
                return seconds

            def measure(url: str) -> tuple[float, float, list[float]]:
                """Median seconds of `url` and of the reference page, loaded in turns (reference, page, …), so a
                machine that slows down or speeds up during the run moves both alike; and each pair's ratio, whose
                spread shows how far one run's ratio can be trusted."""
                pairs = [(load(ref_url), load(url)) for _ in range(repeat)]
                return (statistics.median(p for _, p in pairs), statistics.median(r for r, _ in pairs),
                        sorted(p / r for r, p in pairs))

            def sections(url: str) -> list[float]:
                """Open the page, then every other section tab in turn: seconds per switch."""
                ctx = browser.new_context(viewport={"width": 1400, "height": 900})
                page = ctx.new_page()
                open_url(page, url)
                labels = page.locator('[data-testid="stMain"] [role="tab"]').all_inner_texts()
                times = [open_section(page, label.strip()) for label in labels[1:]]
                ctx.close()
                return times

            ref_url = f"http://127.0.0.1:{ref_port}/"
            load(ref_url)
            load(f"http://127.0.0.1:{app_port}/")  # warm the servers' caches once
            refs = []
            for spec in nav.available_pages():
                if only is not None and spec.url_path not in only:
                    continue
                s, ref_s, pair_ratios = measure(f"http://127.0.0.1:{app_port}/{spec.url_path}")
                refs.append(ref_s)
                row = {"browser_s": s, "reference_s": ref_s, "ratio": s / ref_s,
                       "pair_ratio_min": pair_ratios[0], "pair_ratio_max": pair_ratios[-1]}
                switches = sections(f"http://127.0.0.1:{app_port}/{spec.url_path}")
                if switches:
                    row.update(section_switch_s=statistics.median(switches), section_switch_max_s=max(switches))
                out["pages"][spec.url_path or "(home)"] = row
            out["reference_s"] = statistics.median(refs) if refs else float("nan")
            browser.close()
        out["server_rss_mb"] = rss_mb(app.pid)
    finally:
        for proc in (app, ref):
            proc.terminate()
            proc.wait(timeout=10)
    return out

