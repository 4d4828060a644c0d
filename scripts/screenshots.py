"""Render every page in Chromium: the first screen at 1400 × 900, the presenter view at 1280 × 720, and a phone
at 390 × 844.

Usage:  python scripts/screenshots.py [--out screenshots] [--pages grid,podium] [--theme dark] [--full]
        python scripts/screenshots.py --gallery     # the README's images, into docs/screenshots/
The 1400 × 900 shot is the first screen; --full adds NAME_full.png with the whole page (Streamlit scrolls inside
its main area, not the document, so the window is made as tall as the page first). The phone shot is
phone_NAME.png, the presenter shot present_NAME.png.
Starts its own `streamlit run Home.py` on a free localhost port and uses Debian's /usr/bin/chromium.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


# The README's gallery: these shots, written to docs/screenshots/ by --gallery.
GALLERY_DIR = ROOT / "docs" / "screenshots"
GALLERY = ("home.png", "present_podium.png", "phone_cost.png", "dark_present_grid.png", "dark_phone_calibration.png")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=ROOT / "screenshots")
    ap.add_argument("--pages", default="", help="comma-separated url paths (home = the default page); default all")
    ap.add_argument("--no-presenter", action="store_true")
    ap.add_argument("--no-phone", action="store_true")
    ap.add_argument("--full", action="store_true", help="also a whole-page shot per page (NAME_full.png)")
    ap.add_argument("--theme", choices=("light", "dark"), default="light",
                    help="the app's theme for this run (dark: files get a dark_ prefix)")
    ap.add_argument("--tabs", action="store_true",
                    help="one shot per section tab (NAME_tab2.png, ...; the first tab is NAME.png), both window sizes")
    ap.add_argument("--query", default="", help="extra query string for every page, e.g. cohort=all")
    ap.add_argument("--gallery", action="store_true", help=f"write the README's images ({', '.join(GALLERY)})")
    args = ap.parse_args(argv)
    if args.gallery:
        return gallery()

    from playwright.sync_api import sync_playwright

    from tests.e2e import conftest as e2e
    from tests.e2e.helpers import each_section, open_url, wait_settled
    from ui import nav

    wanted = {p.strip() for p in args.pages.split(",") if p.strip()}
    specs = [s for s in nav.available_pages() if not wanted or (s.url_path or "home") in wanted]
    args.out.mkdir(parents=True, exist_ok=True)
    prefix = "dark_" if args.theme == "dark" else ""
    with e2e.serving({"STREAMLIT_THEME_BASE": args.theme}) as server:
        base = server.url
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=e2e.CHROMIUM, headless=True, args=e2e.CHROMIUM_ARGS)
            for spec in specs:
                name = spec.url_path or "home"
                ctx = browser.new_context(viewport={"width": 1400, "height": 900}, color_scheme=args.theme)
                page = ctx.new_page()
                extra = f"?{args.query}" if args.query else ""
                open_url(page, f"{base}/{spec.url_path}{extra}")
                page.screenshot(path=str(args.out / f"{prefix}{name}.png"))
                if args.tabs:
                    _tab_shots(page, each_section, args.out / f"{prefix}{name}")
                if args.full:
                    height = page.evaluate(
                        "() => document.querySelector('[data-testid=\"stMain\"]').scrollHeight")
                    page.set_viewport_size({"width": 1400, "height": min(int(height) + 40, 16_000)})
                    wait_settled(page)
                    page.screenshot(path=str(args.out / f"{prefix}{name}_full.png"))
                ctx.close()
                if not args.no_phone:
                    ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True,
                                              color_scheme=args.theme)
                    page = ctx.new_page()
                    open_url(page, f"{base}/{spec.url_path}" + (f"?{args.query}" if args.query else ""))
                    page.wait_for_timeout(1500)  # the phone probe's rerun into the phone layout
                    wait_settled(page)
                    page.screenshot(path=str(args.out / f"{prefix}phone_{name}.png"))
                    ctx.close()
                if not args.no_presenter:
                    ctx = browser.new_context(viewport={"width": 1280, "height": 720}, color_scheme=args.theme)
                    page = ctx.new_page()
                    open_url(page, f"{base}/{spec.url_path}?present=1" + (f"&{args.query}" if args.query else ""))
                    page.screenshot(path=str(args.out / f"{prefix}present_{name}.png"))
                    if args.tabs:
                        _tab_shots(page, each_section, args.out / f"{prefix}present_{name}")
                    ctx.close()
                print(f"{name}: done")
            browser.close()
    print(f"screenshots in {args.out}")
    return 0


def _tab_shots(page, each_section, stem: Path) -> None:
    """A shot of every section tab after the first (the first is the page's own shot)."""
    for i, label in enumerate(each_section(page), start=1):
        if i > 1 and label is not None:
            page.screenshot(path=f"{stem}_tab{i}.png")


def gallery() -> int:
    """Render the README's gallery: desktop, presenter, phone, and the dark theme on stage and on a phone."""
    import shutil
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        main(["--out", tmp, "--pages", "home,podium,cost"])
        main(["--out", tmp, "--pages", "grid,calibration", "--theme", "dark"])
        GALLERY_DIR.mkdir(parents=True, exist_ok=True)
        for name in GALLERY:
            shutil.copyfile(Path(tmp) / name, GALLERY_DIR / name)
    print(f"gallery in {GALLERY_DIR.relative_to(ROOT)}: {', '.join(GALLERY)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
