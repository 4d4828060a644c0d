"""helm_core.chapters: chapter markers from a room's log of slide changes (table-driven)."""
from __future__ import annotations

import csv
import io

import pytest

from helm_core.chapters import (Chapter, SlideChange, chapter_csv, chapter_lines, chapters, section_of,
                                timestamp)

P = "HELM As Evaluation Plumbing"
G = "16 × 7 Core Grid"
LOG = [
    SlideChange(0.0, 0, f"{P} · The same exam"),
    SlideChange(42.5, 1, f"{P} · The exam papers"),
    SlideChange(95.0, 2, f"{G} · Cells"),
    SlideChange(128.0, 3, f"{G} · Schema"),  # skipped through in 2 s
    SlideChange(130.0, 4, f"{G} · Blanks"),
]


@pytest.mark.parametrize("seconds, text", [
    (0, "00:00"), (0.99, "00:00"), (59.9, "00:59"), (60, "01:00"), (307, "05:07"), (3599.5, "59:59"),
    (3600, "1:00:00"), (3723, "1:02:03"), (36000 + 61, "10:01:01"),
])
def test_timestamp(seconds, text):
    assert timestamp(seconds) == text


def test_timestamp_refuses_negative_time():
    with pytest.raises(ValueError):
        timestamp(-1)


@pytest.mark.parametrize("title, section", [
    (f"{P} · The same exam", P), (G, G), (f"{G} · A · B", G), ("  Spaced · x", "Spaced"), ("", ""),
])
def test_section_of(title, section):
    assert section_of(title) == section


@pytest.mark.parametrize("kwargs, expected", [
    # per slide, nothing dropped: one chapter per visit, the last open-ended
    (dict(), [(0.0, 42.5, 0, f"{P} · The same exam"), (42.5, 52.5, 1, f"{P} · The exam papers"),
              (95.0, 33.0, 2, f"{G} · Cells"), (128.0, 2.0, 3, f"{G} · Schema"), (130.0, None, 4, f"{G} · Blanks")]),
    # per slide, the 2 s visit dropped: the slide before it runs on over its time
    (dict(min_seconds=10), [(0.0, 42.5, 0, f"{P} · The same exam"), (42.5, 52.5, 1, f"{P} · The exam papers"),
                            (95.0, 35.0, 2, f"{G} · Cells"), (130.0, None, 4, f"{G} · Blanks")]),
    # per section: consecutive slides of one section merge, named after the section
    (dict(by="section"), [(0.0, 95.0, 0, P), (95.0, None, 2, G)]),
    (dict(by="section", end=200.0), [(0.0, 95.0, 0, P), (95.0, 105.0, 2, G)]),
    # the recording starts at 60 s: the slide on screen then opens it at 0
    (dict(start=60.0), [(0.0, 35.0, 1, f"{P} · The exam papers"), (35.0, 33.0, 2, f"{G} · Cells"),
                        (68.0, 2.0, 3, f"{G} · Schema"), (70.0, None, 4, f"{G} · Blanks")]),
    # ... and ends at 120 s: the entry after the end is left out, the last chapter ends there
    (dict(start=60.0, end=120.0, min_seconds=10), [(0.0, 35.0, 1, f"{P} · The exam papers"),
                                                   (35.0, 25.0, 2, f"{G} · Cells")]),
])
def test_chapters(kwargs, expected):
    got = [(c.start, c.duration, c.slide, c.title) for c in chapters(LOG, **kwargs)]
    assert got == expected


@pytest.mark.parametrize("log, kwargs, expected", [
    ([], {}, []),
    # a rerun of the same slide and a revisit straight after merge into one chapter
    ([(0, 0, "A"), (5, 0, "A"), (20, 1, "B"), (21, 0, "A"), (40, 2, "C")], dict(min_seconds=10),
     [(0.0, 40.0, 0, "A"), (40.0, None, 2, "C")]),
    # a short first chapter: its time goes to the next one, which starts at 0
    ([(0, 0, "A"), (3, 1, "B"), (30, 2, "C")], dict(min_seconds=10), [(0.0, 30.0, 1, "B"), (30.0, None, 2, "C")]),
    # a short last chapter with a known end is dropped too
    ([(0, 0, "A"), (30, 1, "B"), (60, 2, "C")], dict(min_seconds=10, end=65), [(0.0, 30.0, 0, "A"),
                                                                            (30.0, 35.0, 1, "B")]),
    # everything too short with a known end: the longest chapter spans the recording
    ([(0, 0, "A"), (2, 1, "B"), (6, 2, "C")], dict(min_seconds=10, end=8), [(0.0, 8.0, 1, "B")]),
    # a start before the first entry: the first entry opens at 0 after the gap
    ([(10, 0, "A"), (30, 1, "B")], dict(start=0), [(0.0, 30.0, 0, "A"), (30.0, None, 1, "B")]),
    # newlines and runs of spaces in a title become single spaces
    ([(0, 0, "A\n  b")], {}, [(0.0, None, 0, "A b")]),
])
def test_chapter_rules(log, kwargs, expected):
    assert [(c.start, c.duration, c.slide, c.title) for c in chapters(log, **kwargs)] == expected


@pytest.mark.parametrize("kwargs, lines", [
    (dict(), ["00:00 HELM As Evaluation Plumbing · The same exam", "00:42 HELM As Evaluation Plumbing · The exam papers",
              "01:35 16 × 7 Core Grid · Cells", "02:10 16 × 7 Core Grid · Blanks"]),
    (dict(by="section"), ["00:00 HELM As Evaluation Plumbing", "01:35 16 × 7 Core Grid"]),
    (dict(start=30.0), ["00:00 HELM As Evaluation Plumbing · The same exam",
                        "00:12 HELM As Evaluation Plumbing · The exam papers", "01:05 16 × 7 Core Grid · Cells",
                        "01:40 16 × 7 Core Grid · Blanks"]),
])
def test_chapter_lines(kwargs, lines):
    assert chapter_lines(LOG, **kwargs).split("\n") == lines


def test_chapter_lines_past_an_hour_and_strictly_increasing():
    log = [(i * 1000.7, i, f"Slide {i}") for i in range(6)]
    lines = chapter_lines(log, min_seconds=1).split("\n")
    assert lines == ["00:00 Slide 0", "16:40 Slide 1", "33:21 Slide 2", "50:02 Slide 3", "1:06:42 Slide 4",
                     "1:23:23 Slide 5"]


def test_chapter_lines_times_strictly_increase_for_close_changes():
    # changes about a second apart, straddling whole seconds (1.9 - 0.9 is 0.9999999999999999 in floating point):
    # on whole seconds, with min_seconds >= 1, two lines never share a second; A (under a second) gives way to B
    log = [(0.0, 0, "A"), (0.9, 1, "B"), (1.9, 2, "C"), (2.95, 3, "D"), (3.1, 4, "E"), (5.0, 5, "F")]
    lines = chapter_lines(log, min_seconds=1).split("\n")
    seconds = [int(line.split(" ")[0].split(":")[0]) * 60 + int(line.split(" ")[0].split(":")[1]) for line in lines]
    assert seconds[0] == 0 and all(b > a for a, b in zip(seconds, seconds[1:]))
    assert lines == ["00:00 B", "00:01 C", "00:02 D", "00:03 E", "00:05 F"]


@pytest.mark.parametrize("kwargs", [dict(min_seconds=0), dict(min_seconds=0.5), dict(by="tab")])
def test_chapter_lines_refuse_bad_options(kwargs):
    with pytest.raises(ValueError):
        chapter_lines(LOG, **kwargs)


@pytest.mark.parametrize("log, kwargs", [
    ([(5, 0, "A"), (1, 1, "B")], {}),  # not in time order
    ([(0, 0, "A")], dict(start=10, end=5)),  # end before start
    ([(float("nan"), 0, "A")], {}),
    ([(0, 0, "A")], dict(min_seconds=-1)),
])
def test_chapters_refuse_bad_input(log, kwargs):
    with pytest.raises(ValueError):
        chapters(log, **kwargs)


def test_chapter_csv():
    rows = list(csv.reader(io.StringIO(chapter_csv(LOG, end=150.0))))
    assert rows == [
        ["slide", "title", "start", "duration"],
        ["1", f"{P} · The same exam", "0.0", "42.5"],
        ["2", f"{P} · The exam papers", "42.5", "52.5"],
        ["3", f"{G} · Cells", "95.0", "33.0"],
        ["4", f"{G} · Schema", "128.0", "2.0"],
        ["5", f"{G} · Blanks", "130.0", "20.0"],
    ]


@pytest.mark.parametrize("title, cell", [
    ("=HYPERLINK(\"x\")", "'=HYPERLINK(\"x\")"), ("+1", "'+1"), ("-1", "'-1"), ("@SUM(A1)", "'@SUM(A1)"),
    ("a, \"quoted\" title", "a, \"quoted\" title"), ("Plain", "Plain"),
])
def test_chapter_csv_cells_stay_text(title, cell):
    rows = list(csv.reader(io.StringIO(chapter_csv([(0, 0, title)]))))
    assert rows[1] == ["1", cell, "0.0", ""]


def test_chapter_csv_of_an_empty_log_is_the_header():
    assert chapter_csv([]) == "slide,title,start,duration\n"


def test_chapter_is_immutable():
    c = Chapter(0.0, 1.0, 0, "A")
    with pytest.raises(AttributeError):
        c.title = "B"
