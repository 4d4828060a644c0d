"""Where a Streamlit server's time goes, from py-spy's raw stacks of the thread holding the GIL (recorded by
`python -m bench.audience --profile DIR`, or `py-spy record --format raw --gil --full-filenames -p PID`).

    python -m bench.server_profile DIR/app_turn1.txt [--joiners 50]

Each sample is one moment of the interpreter's time (the server is one process, so one thread at a time runs
Python); it goes to the first category that matches its stack (see CATEGORIES). Printed: each category's share
and milliseconds per joiner, the project's own functions by inclusive time, and the functions with the most
self time."""
from __future__ import annotations

import argparse
import collections
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RATE = 200  # bench.audience.PROFILE_RATE

# (name, test on the stack's frames as (function, file) pairs, outermost first). First match wins.
CATEGORIES: tuple[tuple[str, object], ...] = (
    ("event loop: flush queues, serialise, websocket send",
     lambda fr: not any(f == "ScriptRunner._run_script_thread" for f, _ in fr)
     and any("asyncio" in p or "uvicorn" in p or "starlette" in p for _, p in fr)),
    ("other threads (warm-up, GC outside scripts)",
     lambda fr: not any(f == "ScriptRunner._run_script_thread" for f, _ in fr)),
    ("st.plotly_chart: figure -> JSON, element id",
     lambda fr: any(f == "PlotlyMixin.plotly_chart" for f, _ in fr)),
    ("plotly: building figures (go.Figure, update_layout, ...)",
     lambda fr: any("/plotly/" in p for _, p in fr)),
    ("message hash (deterministic serialise + md5 per delta)",
     lambda fr: any(p.endswith("forward_msg_cache.py") for _, p in fr)),
    ("st.cache_data / cache_resource lookups",
     lambda fr: any("/runtime/caching/" in p for _, p in fr)),
    ("page script (app_pages, ui, helm_core, pandas)",
     lambda fr: any(f == "Page.run" for f, _ in fr)),
    ("Home.py router and sidebar",
     lambda fr: any(p.endswith("Home.py") or "/bench/" in p for _, p in fr)),
    ("Streamlit's run setup and teardown (session state, widgets, navigation)", lambda fr: True),
)


def parse(path: Path) -> list[tuple[list[tuple[str, str]], int]]:
    """py-spy raw lines: `frame;frame;... count`, each frame `function (file:line)`."""
    out = []
    for line in path.read_text().splitlines():
        if not line.strip():
            continue
        stack, n = line.rsplit(" ", 1)
        frames = []
        for fr in stack.split(";"):
            name, _, where = fr.partition(" (")
            frames.append((name.strip(), where.rsplit(":", 1)[0]))
        out.append((frames, int(n)))
    return out


def _own(path: str) -> str | None:
    """A project file's path relative to the project root, or None."""
    prefix = f"{ROOT}/"
    return path[len(prefix):] if path.startswith(prefix) else None


def attribute(stacks, joiners: int, rate: int = RATE) -> dict:
    total = sum(n for _, n in stacks)
    cats: collections.Counter = collections.Counter()
    own: collections.Counter = collections.Counter()
    leaf: collections.Counter = collections.Counter()
    for frames, n in stacks:
        for name, test in CATEGORIES:
            if test(frames):
                cats[name] += n
                break
        seen = set()
        for f, p in frames:
            rel = _own(p)
            if rel and (f, rel) not in seen:
                seen.add((f, rel))
                own[f"{f} ({rel})"] += n
        if frames:
            f, p = frames[-1]
            leaf[f"{f} ({p.split('site-packages/')[-1]})"] += n
    ms = lambda n: n / rate * 1e3 / max(1, joiners)  # noqa: E731
    return {"samples": total, "gil_seconds": total / rate, "joiners": joiners,
            "categories": [(k, v / total if total else 0.0, ms(v)) for k, v in cats.most_common()],
            "own": [(k, v / total, ms(v)) for k, v in own.most_common(25)],
            "self": [(k, v / total, ms(v)) for k, v in leaf.most_common(15)]}


def print_attribution(a: dict, title: str) -> None:
    print(f"\n{title}: {a['samples']} samples, {a['gil_seconds']:.2f} s holding the GIL, "
          f"{a['gil_seconds'] / max(1, a['joiners']) * 1e3:.1f} ms per joiner")
    for k, share, ms in a["categories"]:
        print(f"  {share:6.1%} {ms:7.1f} ms/joiner  {k}")
    print("  the project's functions (inclusive):")
    for k, share, ms in a["own"][:15]:
        print(f"  {share:6.1%} {ms:7.1f} ms/joiner  {k}")
    print("  most self time:")
    for k, share, ms in a["self"][:10]:
        print(f"  {share:6.1%} {ms:7.1f} ms/joiner  {k}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="+", type=Path)
    ap.add_argument("--joiners", type=int, default=50)
    ap.add_argument("--rate", type=int, default=RATE)
    args = ap.parse_args(argv)
    for f in args.files:
        print_attribution(attribute(parse(f), args.joiners, args.rate), str(f))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
