"""The room takes part, without a browser (DESIGN.md §7): a presenter and N followers speak Streamlit's own
websocket protocol (bench.ws_client) to `streamlit run Home.py`, through one predict-then-reveal question and one
poll, every follower answering in the same instant.

    python -m bench.participation --followers 100
    python -m bench.participation --followers 20 --no-ticks --out /tmp/participation.json

What happens, as the browsers would do it:
1. The presenter opens the grid in presenter mode, starts a live room (Audience) and opens the slide's own
   question from the bar (Ask: "how many of the 112 cells are blank?", its truth computed from the data).
2. N followers open the follow link on the grid. Each ticks its fragments' run_every timers (the follow poll and
   the room panel, every second) for the whole run, as a follower's browser does (`--no-ticks`: they do not).
3. Every follower sets its slider and presses Send at once; the presenter's stage panel ticks every second, and
   each time it shows "K answers so far" the first K votes (in the order the server acknowledged them) count as
   shown. A vote's latency is from its send to the first presenter refresh that shows it (p95_s, max_s).
4. The presenter reveals; then opens a poll (two options) and every follower votes again, measured the same way.
5. One follower sends a second answer to the poll: it must be refused ("answered ... already"), not counted.

The last line printed is JSON: followers, votes_sent, votes_counted (the presenter's own counts, summed over both
questions), errors, p95_s, max_s, rss_mb (the server's, at the end), refused_second (the second answer refused),
and the per-question numbers. Budgets: every vote counted once, p95 ≤ 2 s, 0 errors, RSS ≤ 600 MB.
"""
from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import re
import statistics
import sys
import time
from pathlib import Path

from bench.audience import quantile
from bench.browser import rss_mb
from bench.ws_client import Viewer

ROOT = Path(__file__).resolve().parents[1]
BUDGET_P95_S = 2.0
BUDGET_RSS_MB = 600
COUNT_RE = re.compile(r"(\d+) answers? so far")
RESULT_RE = re.compile(r"^(\d+) answers?;", re.M)
CODE_RE = re.compile(r"[?&]follow=([A-Za-z0-9]{7})")


def _texts(v: Viewer) -> str:
    return "\n".join(v.texts)


LOCKS: dict[int, asyncio.Lock] = {}


def _lock(v: Viewer) -> asyncio.Lock:
    """One request at a time per viewer, as the frontend queues its reruns (a tick never overlaps a vote)."""
    return LOCKS.setdefault(v.index, asyncio.Lock())


async def _act(v: Viewer, values: dict, timeout: float):
    async with _lock(v):
        return await v.act(values, timeout)


async def _ticking(v: Viewer, stop: asyncio.Event, timeout: float, errors: list[str]) -> None:
    """A browser's run_every timers: each fragment that reruns itself, at its interval, until `stop`."""
    while not stop.is_set():
        for fid in list(v.auto):
            if stop.is_set():
                return
            async with _lock(v):
                step = await v.refresh(fid, timeout)
            errors.extend(f"follower {v.index} tick: {e}" for e in step.errors)
        try:
            await asyncio.wait_for(stop.wait(), timeout=min(v.auto.values(), default=1.0))
        except asyncio.TimeoutError:
            pass


async def _watch(pres: Viewer, n: int, deadline: float, timeout: float, seen: list[tuple[float, int]],
                 errors: list[str], pattern: re.Pattern = COUNT_RE) -> None:
    """The presenter's screen: its fragments tick every second; each count the stage panel shows, with its time."""
    while time.perf_counter() < deadline:
        t0 = time.perf_counter()
        for fid in list(pres.auto):
            step = await pres.refresh(fid, timeout)
            errors.extend(f"presenter tick: {e}" for e in step.errors)
            m = pattern.search(_texts(pres))
            if m:
                seen.append((pres.last_msg, int(m.group(1))))
                if int(m.group(1)) >= n:
                    return
        await asyncio.sleep(max(0.0, 1.0 - (time.perf_counter() - t0)))


async def _round(pres: Viewer, followers: list[Viewer], values: dict[int, dict], timeout: float,
                 errors: list[str]) -> dict:
    """Every follower sends `values[i]` at once; the presenter's counts show them. Latencies per vote."""
    seen: list[tuple[float, int]] = []
    watch = asyncio.create_task(_watch(pres, len(followers), time.perf_counter() + 60, timeout, seen, errors))
    sends: dict[int, float] = {}
    acks: dict[int, float] = {}

    async def vote(v: Viewer) -> None:
        sends[v.index] = time.perf_counter()
        step = await _act(v, values[v.index], timeout)
        errors.extend(f"follower {v.index} vote: {e}" for e in step.errors)
        if "Your answer is in" in _texts(v):
            acks[v.index] = v.last_msg
        elif not step.errors:
            errors.append(f"follower {v.index}: no acknowledgement ({_texts(v)[:120]!r})")

    await asyncio.gather(*(vote(v) for v in followers))
    await watch
    order = sorted(acks, key=lambda i: acks[i])  # the order the server acknowledged them
    latencies = []
    for k, i in enumerate(order, start=1):
        shown = next((t for t, c in seen if c >= k and t >= sends[i]), None)
        if shown is None:
            errors.append(f"vote {k} never shown on the presenter's screen")
        else:
            latencies.append(shown - sends[i])
    counted = max((c for _, c in seen), default=0)
    return {"sent": len(followers), "acknowledged": len(acks), "counted": counted, "latencies": latencies}


async def _join(port: int, path: str, n: int, timeout: float) -> tuple[float | None, list[str]]:
    """N viewers open `path` at once: the last one's time to be served, and the errors."""
    viewers = [Viewer(port, 1000 + i) for i in range(n)]
    steps = await asyncio.gather(*(v.open(path, timeout) for v in viewers))
    for v in viewers:
        await v.close()
    errors = [e for s in steps for e in s.errors] + [f"{path}: not served" for s in steps if s.seconds is None]
    served = [s.seconds for s in steps if s.seconds is not None]
    return (max(served) if served else None), errors


async def _join_ratio(port: int, floor_port: int, follow_path: str, args, errors: list[str]) -> dict:
    """`--join` followers opening the follow link at once against as many viewers opening a bare one-chart page
    (bench/reference_app.py, its own server), in turns of alternating order; the medians of the last-served times."""
    lasts: dict[str, list[float]] = {"followers": [], "one_chart": []}
    for turn in range(args.join_turns):
        order = [("followers", port, follow_path), ("one_chart", floor_port, "/")]
        for name, p, path in (order if turn % 2 == 0 else order[::-1]):
            await asyncio.sleep(1.0)
            last, errs = await _join(p, path, args.join, args.timeout)
            errors.extend(f"join {name}: {e}" for e in errs)
            if last is not None:
                lasts[name].append(last)
    med = {k: statistics.median(v) if v else None for k, v in lasts.items()}
    ratio = med["followers"] / med["one_chart"] if med["followers"] and med["one_chart"] else None
    return {"n": args.join, "turns": args.join_turns, "followers_last_s": med["followers"],
            "one_chart_last_s": med["one_chart"], "ratio": round(ratio, 2) if ratio else None,
            "per_turn": {k: [round(x, 3) for x in v] for k, v in lasts.items()}}


async def run(args) -> dict:
    from tests.e2e import conftest as e2e

    errors: list[str] = []
    with contextlib.ExitStack() as stack:
        proc = stack.enter_context(e2e.serving())
        port = int(proc.url.rsplit(":", 1)[1])
        floor = stack.enter_context(e2e.serving(script=ROOT / "bench" / "reference_app.py")) if args.join else None
        for p in (port, *( [int(floor.url.rsplit(":", 1)[1])] if floor else [])):
            warm = Viewer(p, -1)
            await warm.open("/", args.timeout)  # the router's first run (see tests/e2e/conftest.warm)
            await warm.close()
        pres = Viewer(port, 0)
        for step in (await pres.open("/grid?present=1", args.timeout),
                     await pres.act({"room_start": True}, args.timeout)):
            errors.extend(f"presenter: {e}" for e in step.errors)
        m = CODE_RE.search(_texts(pres))
        if not m:
            raise SystemExit(f"no room code on the presenter's screen: {_texts(pres)[:300]!r}")
        code = m.group(1)
        step = await pres.act({"bar_live_ask_0": True}, args.timeout)
        errors.extend(f"presenter: {e}" for e in step.errors)
        follow_path = f"/grid?follow={code}&grid_section=Grid"
        joined = (await _join_ratio(port, int(floor.url.rsplit(":", 1)[1]), follow_path, args, errors)
                  if floor else None)

        followers = [Viewer(port, i + 1) for i in range(args.followers)]
        t0 = time.perf_counter()
        joins = await asyncio.gather(*(v.open(follow_path, args.timeout)
                                       for v in followers))
        join_s = time.perf_counter() - t0
        for s in joins:
            errors.extend(f"join: {e}" for e in s.errors)
        stop = asyncio.Event()
        tickers = [asyncio.create_task(_ticking(v, stop, args.timeout, errors)) for v in followers] if args.ticks else []

        def keys(v: Viewer, prefix: str) -> str | None:
            return next((k for k in v.widgets if k.startswith(prefix)), None)

        q_values = {}
        for v in followers:
            slider, send = keys(v, "ans_grid."), keys(v, "send_grid.")
            if slider is None or send is None:
                errors.append(f"follower {v.index}: no answer form ({_texts(v)[:120]!r})")
                continue
            q_values[v.index] = {slider: (v.index * 7) % 60, send: True}
        voters = [v for v in followers if v.index in q_values]
        question = await _round(pres, voters, q_values, args.timeout, errors)
        step = await pres.act({"bar_live_reveal": True}, args.timeout)
        errors.extend(f"presenter reveal: {e}" for e in step.errors)
        revealed = RESULT_RE.search(_texts(pres)) is not None

        step = await pres.act({"bar_live_prompt": "Which slide should come back?", "bar_live_options": "Grid\nPodium",
                               "bar_live_poll": True}, args.timeout)
        errors.extend(f"presenter poll: {e}" for e in step.errors)
        await asyncio.sleep(1.5)  # the followers' panels tick and draw the poll
        p_values = {}
        for v in voters:
            radio, send = keys(v, "ans_poll."), keys(v, "send_poll.")
            if radio is None or send is None:
                await asyncio.sleep(1.0)
                radio, send = keys(v, "ans_poll."), keys(v, "send_poll.")
            if radio is None or send is None:
                errors.append(f"follower {v.index}: no poll form")
                continue
            p_values[v.index] = {radio: "Grid" if v.index % 3 else "Podium", send: True}
        poll_voters = [v for v in voters if v.index in p_values]
        poll = await _round(pres, poll_voters, p_values, args.timeout, errors)
        again = poll_voters[0] if poll_voters else None
        refused = False
        if again is not None:  # a second vote from the same follower: refused with a message, not counted
            step = await _act(again, p_values[again.index], args.timeout)
            refused = "answered this question already" in _texts(again)
        stop.set()
        await asyncio.gather(*tickers)
        rss = rss_mb(proc.pid)
        for v in [pres, *followers]:
            await v.close()
    lat = question["latencies"] + poll["latencies"]
    out = {"followers": args.followers, "votes_sent": question["sent"] + poll["sent"],
           "votes_counted": question["counted"] + poll["counted"], "errors": len(errors),
           "p95_s": round(quantile(lat, 0.95), 3) if lat else None, "max_s": round(max(lat), 3) if lat else None,
           "rss_mb": round(rss, 1), "refused_second": refused, "revealed": revealed, "join_s": round(join_s, 2),
           "ticks": args.ticks, "join": joined, "question": {k: v for k, v in question.items() if k != "latencies"},
           "poll": {k: v for k, v in poll.items() if k != "latencies"}, "first_errors": sorted(set(errors))[:10]}
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="N followers answer a question and a poll over Streamlit's protocol")
    ap.add_argument("--followers", type=int, default=100)
    ap.add_argument("--timeout", type=float, default=60.0)
    ap.add_argument("--no-ticks", dest="ticks", action="store_false", help="followers do not tick their fragments")
    ap.add_argument("--join", type=int, default=50,
                    help="followers joining at once, against as many on a bare one-chart page (0: skip)")
    ap.add_argument("--join-turns", type=int, default=3, help="turns of that comparison, alternating order")
    ap.add_argument("--out", type=Path)
    args = ap.parse_args(argv)
    out = asyncio.run(run(args))
    ok = (out["votes_counted"] == out["votes_sent"] and out["errors"] == 0 and out["refused_second"] and out["revealed"]
          and out["p95_s"] is not None and out["p95_s"] <= BUDGET_P95_S and out["rss_mb"] <= BUDGET_RSS_MB)
    if args.out:
        args.out.write_text(json.dumps(out, indent=2))
    print(json.dumps({k: out[k] for k in ("followers", "votes_sent", "votes_counted", "errors", "p95_s", "max_s",
                                          "rss_mb")} | {"refused_second": out["refused_second"], "ok": ok,
                                                        "join": out["join"],
                                                        "first_errors": out["first_errors"]}))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
