"""Chapter markers for a recorded talk, from the log of slide changes a live room keeps (ui/rooms.py).

Two outputs from one list of `Chapter`s:
- `chapter_lines`: lines to paste under a video, YouTube style: `00:00 HELM As Evaluation Plumbing`. The first
  chapter starts at 00:00, times are whole seconds (the log's times are floored to them before the rules below
  apply) and strictly increase (at least `min_seconds` >= 1 apart), mm:ss below an hour and h:mm:ss from then on.
- `chapter_csv`: one row per chapter, `slide,title,start,duration` (seconds).

The rules, in order (`chapters`):
1. Clip to the recording: `start` (seconds on the log's clock; default the first entry) is time 0, and the slide on
   screen then opens the first chapter; entries at or after `end` are left out.
2. Granularity: `by="slide"` keys a chapter by its full title; `by="section"` by the part before the first " · "
   (the lead's titles read "Section · Slide"), so consecutive slides of one section make one chapter, named after
   the section. Consecutive entries with the same key merge (a page rerun, a revisit straight after).
3. Too short: a chapter under `min_seconds` (presenter skipping through) is dropped; the chapter before it runs on
   over its time (the first one's time goes to the next), then equal neighbours merge again. Dropping only lengthens
   the others, so one pass suffices. The last chapter has no duration unless `end` is given, and is never dropped
   for that. When `end` is given and every chapter is too short, the longest one is kept, spanning the recording.
YouTube also wants at least three chapters (`YOUTUBE_MIN_CHAPTERS`) of at least 10 s each (the default
`min_seconds` of `chapter_lines`); fewer than three show no chapters there, which a page can say.
"""
from __future__ import annotations

import csv
import io
import math
from dataclasses import dataclass
from typing import Iterable, Literal, NamedTuple

SECTION_SEPARATOR = " · "
YOUTUBE_MIN_CHAPTERS = 3
YOUTUBE_MIN_SECONDS = 10.0
Granularity = Literal["slide", "section"]


class SlideChange(NamedTuple):
    """One entry of a room's log: at `t` seconds (the room's clock, from its creation) the presenter showed route
    index `slide`, titled `title`."""
    t: float
    slide: int
    title: str


@dataclass(frozen=True)
class Chapter:
    start: float  # seconds from the start of the recording; 0 for the first chapter
    duration: float | None  # None for the last chapter when the end is not known
    slide: int  # route index of the chapter's first slide
    title: str


def section_of(title: str) -> str:
    """The section part of a "Section · Slide" title (the whole title when it has no separator)."""
    return title.split(SECTION_SEPARATOR, 1)[0].strip()


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


def chapters(log: Iterable[SlideChange | tuple], *, by: Granularity = "slide", start: float | None = None,
             end: float | None = None, min_seconds: float = 0.0) -> list[Chapter]:
    """The chapters of a recording from a room's log (see the module's docstring for the rules)."""
    if by not in ("slide", "section"):
        raise ValueError(f"by must be 'slide' or 'section', not {by!r}")
    if not (isinstance(min_seconds, (int, float)) and math.isfinite(min_seconds) and min_seconds >= 0):
        raise ValueError("min_seconds must be a finite number of seconds, at least 0")
    entries = [SlideChange(float(t), int(s), _one_line(title)) for t, s, title in log]
    if any(not math.isfinite(e.t) for e in entries):
        raise ValueError("the log's times must be finite numbers")
    if any(b.t < a.t for a, b in zip(entries, entries[1:])):
        raise ValueError("the log must be in time order")
    if not entries:
        return []
    t0 = entries[0].t if start is None else float(start)
    if end is not None and end <= t0:
        raise ValueError("end must come after start")
    # 1. Clip: the entry on screen at t0 opens the recording.
    before = [i for i, e in enumerate(entries) if e.t <= t0]
    entries = entries[before[-1] if before else 0:]
    entries = [e for e in entries if end is None or e.t < end]
    if not entries:
        return []
    entries[0] = entries[0]._replace(t=t0)  # the first chapter opens the recording, even after a gap
    key = (lambda e: e.title) if by == "slide" else (lambda e: section_of(e.title))

    def merged(items: list[SlideChange]) -> list[SlideChange]:
        out: list[SlideChange] = []
        for e in items:
            if out and key(out[-1]) == key(e):
                continue
            out.append(e)
        return out

    def durations(items: list[SlideChange]) -> list[float | None]:
        ends = [e.t for e in items[1:]] + [end]
        return [None if stop is None else stop - e.t for e, stop in zip(items, ends)]

    # 2. Merge equal neighbours; 3. drop the short ones (their time goes to the neighbour), merge again.
    items = merged(entries)
    lengths = durations(items)
    kept = [e for e, d in zip(items, lengths) if d is None or d >= min_seconds]
    if not kept:
        kept = [max(zip(items, lengths), key=lambda p: p[1])[0]]
    kept[0] = kept[0]._replace(t=items[0].t)
    items = merged(kept)
    return [Chapter(start=e.t - t0, duration=d, slide=e.slide,
                    title=e.title if by == "slide" else section_of(e.title))
            for e, d in zip(items, durations(items))]


def timestamp(seconds: float) -> str:
    """Whole seconds as a chapter time: `05:07` below an hour, `1:02:03` from there on."""
    s = int(math.floor(seconds))
    if s < 0:
        raise ValueError("a chapter time cannot be negative")
    h, rest = divmod(s, 3600)
    m, sec = divmod(rest, 60)
    return f"{h}:{m:02d}:{sec:02d}" if h else f"{m:02d}:{sec:02d}"


def chapter_lines(log: Iterable[SlideChange | tuple], *, by: Granularity = "slide", start: float | None = None,
                  end: float | None = None, min_seconds: float = YOUTUBE_MIN_SECONDS) -> str:
    """Chapter lines to paste under a recorded talk, one per line, the first at 00:00. `min_seconds` is at least 1,
    so two chapters never share a whole second."""
    if not (isinstance(min_seconds, (int, float)) and min_seconds >= 1):
        raise ValueError("chapter lines need min_seconds of at least 1, so their times strictly increase")
    # On whole seconds from the start, so the times shown are the times the rules were applied to.
    log = [SlideChange(float(t), int(s), title) for t, s, title in log]
    if not log:
        return ""
    t0 = log[0].t if start is None else float(start)
    whole = [e._replace(t=float(math.floor(e.t - t0))) for e in log]
    stop = None if end is None else float(math.floor(end - t0))
    return "\n".join(f"{timestamp(c.start)} {c.title}"
                     for c in chapters(whole, by=by, start=0.0, end=stop, min_seconds=min_seconds))


def _csv_cell(text: str) -> str:
    """A title as a spreadsheet shows it as text: a leading =, +, - or @ would start a formula."""
    return "'" + text if text[:1] in ("=", "+", "-", "@") else text


def chapter_csv(log: Iterable[SlideChange | tuple], *, by: Granularity = "slide", start: float | None = None,
                end: float | None = None, min_seconds: float = 0.0) -> str:
    """CSV with a header `slide,title,start,duration`: slide is the chapter's first slide numbered from 1 (the
    route index + 1), start and duration are seconds to 0.1 (duration blank for the last chapter when the end is
    not known). By default nothing is dropped for being short: every visit is a row."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["slide", "title", "start", "duration"])
    for c in chapters(log, by=by, start=start, end=end, min_seconds=min_seconds):
        w.writerow([c.slide + 1, _csv_cell(c.title), f"{c.start:.1f}",
                    "" if c.duration is None else f"{c.duration:.1f}"])
    return buf.getvalue()
