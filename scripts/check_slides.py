"""Look at the slides the way their audience will, and say what is wrong: for page authors while they work.

    python scripts/check_slides.py                       # every page: presenter walk, desktop, phone; light
    python scripts/check_slides.py --pages grid,podium   # only these pages (url paths; home = the default page)
    python scripts/check_slides.py --theme dark --query release=lite --shots /tmp/shots

Presenter (1280 × 720): from each page's first slide, PageDown through the page's slides; on every step the
slide's chart or table must be fully on screen, chart text at least 16 px with 4.5:1 contrast, no chart text
outside its chart or over another. Desktop (1400 × 900): the first chart starts on the first screen. Phone
(390 × 844): nothing scrolls sideways, chart text inside its chart. Screenshots of every step with --shots.
Starts its own `streamlit run Home.py` (or uses --base URL) and Debian's /usr/bin/chromium. Exit code 1 when
anything is wrong. The browser tests (tests/e2e/test_slides_browser.py) make the same checks.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pages", default="")
    ap.add_argument("--base", default="", help="a running app's URL (default: start one)")
    ap.add_argument("--theme", choices=("light", "dark"), default="light")
    ap.add_argument("--query", default="", help="extra query, e.g. cohort=all or release=lite")
    ap.add_argument("--shots", type=Path, default=None, help="write a screenshot of every step here")
    ap.add_argument("--modes", default="presenter,desktop,phone")
    args = ap.parse_args(argv)

    from playwright.sync_api import sync_playwright

    from tests.e2e import conftest as e2e
    from tests.e2e.helpers import open_url, wait_settled
    from tests.e2e.slide_probe import problems
    from ui import nav

    wanted = {p.strip() for p in args.pages.split(",") if p.strip()}
    specs = [s for s in nav.available_pages() if not wanted or (s.url_path or "home") in wanted]
    modes = set(args.modes.split(","))
    if args.shots:
        args.shots.mkdir(parents=True, exist_ok=True)
    extra = args.query
    report: list[str] = []

    def url(base: str, spec, *params: str) -> str:
        q = "&".join(p for p in (*params, extra) if p)
        return f"{base}/{spec.url_path}" + (f"?{q}" if q else "")

    def shot(page, name: str) -> None:
        if args.shots:
            page.screenshot(path=str(args.shots / f"{name}.png"))

    def run(base: str) -> None:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=e2e.CHROMIUM, headless=True, args=e2e.CHROMIUM_ARGS)
            scheme = args.theme
            for spec in specs:
                name = spec.url_path or "home"
                if "presenter" in modes:
                    ctx = browser.new_context(viewport={"width": 1280, "height": 720}, color_scheme=scheme)
                    page = ctx.new_page()
                    open_url(page, url(base, spec, "present=1"))
                    for i in range(40):
                        where = page.locator(".st-key-present_bar").inner_text().replace("\n", " ")[:140]
                        if f"/{spec.url_path}" != "/" + page.url.split("/", 3)[-1].split("?")[0] and i:
                            break  # walked onto the next page
                        for prob in problems(page, "presenter"):
                            report.append(f"presenter {name} step {i + 1} [{where}]: {prob}")
                        shot(page, f"present_{name}_{i + 1}")
                        nxt = page.get_by_role("button", name="Next")
                        if nxt.is_disabled():
                            break
                        before = page.url
                        page.keyboard.press("PageDown")
                        page.wait_for_timeout(300)
                        wait_settled(page)
                        if page.url.split("?")[0] != before.split("?")[0]:
                            break
                    ctx.close()
                if "desktop" in modes:
                    ctx = browser.new_context(viewport={"width": 1400, "height": 900}, color_scheme=scheme)
                    page = ctx.new_page()
                    open_url(page, url(base, spec))
                    chart = page.locator('[data-testid="stMain"] [data-testid="stPlotlyChart"]').first
                    if chart.count():
                        box = chart.bounding_box()
                        if box is None or box["y"] > 900:
                            report.append(f"desktop {name}: first chart starts below the first screen ({box})")
                    for prob in problems(page, "desktop"):
                        report.append(f"desktop {name}: {prob}")
                    shot(page, f"desktop_{name}")
                    ctx.close()
                if "phone" in modes:
                    ctx = browser.new_context(viewport={"width": 390, "height": 844}, color_scheme=scheme,
                                              is_mobile=True, has_touch=True)
                    page = ctx.new_page()
                    open_url(page, url(base, spec))
                    # The phone probe (ui.viewport) reports the width once its component has mounted, which reruns
                    # the page in phone layout; that rerun can start after the first settle.
                    page.wait_for_timeout(1500)
                    wait_settled(page)
                    for prob in problems(page, "phone"):
                        report.append(f"phone {name}: {prob}")
                    shot(page, f"phone_{name}")
                    ctx.close()
                print(f"{name}: checked", flush=True)
            browser.close()

    if args.base:
        run(args.base.rstrip("/"))
    else:
        with e2e.serving() as server:
            run(server.url)
    print("\n".join(report) if report else "no problems found")
    return 1 if report else 0


if __name__ == "__main__":
    sys.exit(main())
