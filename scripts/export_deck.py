"""Write the offline handout: every slide of the story in one self-contained HTML file (ui/handout.py).

    python -m scripts.export_deck deck.html                                  # classic, the 2022 paper's cohort
    python -m scripts.export_deck deck.html --release lite
    python -m scripts.export_deck deck.html --release classic --cohort all

It exports the bundled releases only. With HELM_OUTPUT set (a server started on your own HELM output), it refuses
unless `--release` names the bundled release to export: it never writes a bundled deck in place of your suite.

The file embeds plotly.js once and needs no network: open it in any browser, on stage if the server fails, or
hand it out after the episode.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def main(argv: list[str] | None = None) -> int:
    from ui import cache, state

    from streamlit import logger

    logger.set_log_level("error")  # Streamlit warns about bare mode (no `streamlit run`) on every cached call
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path, help="the HTML file to write")
    ap.add_argument("--release", choices=list(cache.RELEASES), default=None,
                    help="the bundled release to export (default: classic)")
    ap.add_argument("--cohort", choices=list(state.COHORTS), default=state.DEFAULT_COHORT)
    args = ap.parse_args(argv)
    from ui import datasets

    own = datasets.configured_output_path()
    if own and args.release is None:
        print(f"HELM_OUTPUT is set ({own}), but the handout exports the bundled releases only, not your own HELM "
              "output: nothing written. Pass --release classic (or lite, capabilities) to export a bundled release "
              "anyway.", file=sys.stderr)
        return 2
    args.release = args.release or "classic"
    from ui import handout

    t0 = time.perf_counter()
    page = handout.build(args.release, args.cohort)
    args.out.write_text(page, encoding="utf-8")
    size = args.out.stat().st_size
    print(f"wrote {args.out} ({size / 1e6:.1f} MB) in {time.perf_counter() - t0:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
