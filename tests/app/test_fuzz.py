"""A seeded AppTest explorer: random widget moves on every page; any exception fails.

Every slider, select, multiselect, radio, segmented control / pills, toggle, checkbox, number input,
text input, button and file uploader (with junk bytes) on the page is a candidate for each move, and so is
switching to another of the page's sections (ui.components.sections), which builds that section's widgets.
"""
from __future__ import annotations

import random

import pytest

from tests.fuzz_config import SEEDS, STEPS
from ui import nav

from .helpers import open_page, section_tabs

PAGES = nav.available_pages()
JUNK = [b"", b"PK\x03\x04garbage", bytes(range(256)) * 4, b"{not json", b"\x00" * 1024]


def _candidates(at):
    out = []
    for kind in ("slider", "select_slider", "selectbox", "multiselect", "radio", "button_group", "toggle",
                 "checkbox", "number_input", "text_input", "button", "file_uploader"):
        for w in getattr(at, kind):
            if getattr(w, "disabled", False):
                continue
            out.append((kind, w))
    key, tabs = section_tabs(at)
    if key is not None:
        out.append(("section", (at, key, [t.label for t in tabs])))
    return out


def _move(rng: random.Random, kind: str, w) -> None:
    if kind in ("slider", "select_slider"):
        opts = list(getattr(w, "options", []) or [])
        if opts:
            v = [rng.choice(opts), rng.choice(opts)] if isinstance(w.value, (list, tuple)) else rng.choice(opts)
            if isinstance(v, list):
                v = sorted(v, key=opts.index)
            w.set_value(v)
        else:
            lo, hi = w.min, w.max
            if isinstance(w.value, (list, tuple)):
                a, b = sorted(rng.uniform(lo, hi) for _ in range(2))
                w.set_value((type(lo)(a), type(lo)(b)) if isinstance(lo, int) else (a, b))
            else:
                x = rng.uniform(lo, hi)
                w.set_value(int(round(x)) if isinstance(lo, int) else x)
    elif kind in ("selectbox", "radio"):
        if w.options:
            w.set_value(w.options[rng.randrange(len(w.options))]) if kind == "radio" else w.select_index(rng.randrange(len(w.options)))
    elif kind == "multiselect":
        opts = list(w.options)
        k = rng.randint(0, min(len(opts), 6))
        w.set_value(rng.sample(opts, k))
    elif kind == "button_group":
        opts = list(w.options)
        if opts:
            w.set_value(rng.choice(opts).content if hasattr(opts[0], "content") else rng.choice(opts))
    elif kind in ("toggle", "checkbox"):
        w.set_value(not w.value)
    elif kind == "number_input":
        lo = w.min if w.min is not None else -1e6
        hi = w.max if w.max is not None else 1e6
        w.set_value(type(w.value)(rng.uniform(lo, hi)) if w.value is not None else lo)
    elif kind == "text_input":
        w.set_value(rng.choice(["", "a", "<script>alert(1)</script>", "' OR 1=1 --", "ä" * 300, "../../etc/passwd"]))
    elif kind == "button":
        w.click()
    elif kind == "section":
        at, key, labels = w
        at.session_state[key] = rng.choice(labels)
    elif kind == "file_uploader":
        w.upload(rng.choice(["x.zip", "x.json", "x.bin"]), rng.choice(JUNK))


@pytest.mark.parametrize("seed", range(SEEDS))
@pytest.mark.parametrize("spec", PAGES, ids=[p.url_path or "home" for p in PAGES])
def test_random_widget_moves_never_raise(spec, seed):
    rng = random.Random(hash((spec.url_path, seed)) & 0xFFFF)
    at = open_page(spec.file)
    moves = 0
    for step in range(STEPS):
        cands = _candidates(at)
        if not cands:
            break
        kind, w = rng.choice(cands)
        label = getattr(w, "label", kind)
        try:
            _move(rng, kind, w)
        except (ValueError, IndexError, TypeError):
            continue  # the move itself was not valid for this widget; not an app error
        at.run()
        moves += 1
        assert not at.exception, f"{spec.file} step {step}: {kind} '{label}': {[e.value for e in at.exception]}"
    assert moves > 0 or not _candidates(open_page(spec.file))
