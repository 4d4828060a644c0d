"""A seeded AppTest explorer: random widget moves on every page; any exception fails.

Every slider, select, multiselect, radio, segmented control / pills, toggle, checkbox, number input,
text input, button and file uploader (with junk bytes) on the page is a candidate for each move, and so is
switching to another of the page's sections (ui.components.sections), which builds that section's widgets.
"""
from __future__ import annotations

import json
import math
import random
import re
import shutil
import zlib
from pathlib import Path

import numpy as np
import pytest

from helm_core import escape
from tests import hostile_names as H
from tests.fuzz_config import SEEDS, STEPS
from ui import nav

from . import literal_helpers as L
from .helpers import open_page, open_story_page, section_labels, section_tabs, texts

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
    # zlib.crc32, not hash(): a str's hash() differs from process to process (PYTHONHASHSEED), so the moves of a
    # failure could not be replayed.
    rng = random.Random(zlib.crc32(f"{spec.url_path}:{seed}".encode()))
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


# ----------------------------------------------------------------------------- a hostile suite on every page

MY = H.SUITE
JOINT = "lsat_qa:task=all,method=multiple_choice_joint,model=eleutherai_pythia-70m"
SEPARATE = "lsat_qa:task=all,method=multiple_choice_separate_original,model=eleutherai_pythia-70m"
BABI_T = "babi_qa:task=15,model=local_tiny-gpt2"


def _edit(path: Path, fn) -> None:
    obj = json.loads(path.read_text())
    fn(obj)
    path.write_text(json.dumps(obj))  # Infinity / -Infinity, as Python's json writes (and reads) them


def _stat(path: Path, name: str, **values) -> None:
    _edit(path, lambda stats: [s.update(values) for s in stats
                               if s["name"]["name"] == name and not s["name"].get("perturbation")])


@pytest.fixture(scope="module")
def hostile_suite(tmp_path_factory) -> Path:
    """The 0516 suite (genuine-shaped helm-run + helm-summarize output) with what a probe uploaded: model, scenario,
    metric and table names full of Markdown / HTML syntax (`_ * [ ] < > & | $ ~`: hostile_names.write_suite, its
    groups file with a table titled "", an Infinity and a NaN cell), Infinity and out-of-range stats, table cells
    and parameter counts, a confidence of +Infinity, and a run folder copied under another name with another EM."""
    root = H.write_suite(tmp_path_factory.mktemp("hostile") / "out")
    suite = root / MY
    _stat(suite / JOINT / "stats.json", "exact_match", mean=math.inf, sum=math.inf, max=math.inf)
    _stat(suite / BABI_T / "stats.json", "inference_runtime", mean=-0.5, sum=-0.5, min=-0.5)
    _stat(suite / BABI_T / "stats.json", "num_prompt_tokens", mean=-math.inf, sum=-math.inf)
    _edit(suite / "schema.json", lambda s: (s["models"][0].update(num_parameters=1e308),
                                            s["models"][1].update(num_parameters=-158016)))

    def cells(doc):
        for t in doc:
            for row in t["rows"]:
                for c in row[1:]:
                    if isinstance(c.get("value"), (int, float)):
                        c["value"] = math.inf if t["name"] == "accuracy" else -math.inf
                        break
    _edit(suite / "groups" / "core_scenarios.json", cells)
    _edit(suite / SEPARATE / "per_instance_stats.json",
          lambda items: [s.update(mean=math.inf, sum=math.inf, max=math.inf) for s in items[0]["stats"]
                         if s["name"]["name"] == "max_prob"])
    shutil.copytree(suite / JOINT, suite / (JOINT + " copy"))
    _stat(suite / (JOINT + " copy") / "stats.json", "exact_match", mean=0.1, sum=0.1, min=0.1, max=0.1)
    return root


@pytest.fixture
def on_hostile_suite(set_helm_output, hostile_suite):
    """The hostile suite as the server's configured output, for one test."""
    set_helm_output(hostile_suite)
    return hostile_suite


INF_TEXT = re.compile(r"(?<![\w.])-?inf(?![\w])|\d{40,}")


# Pages whose slides show no name of the loaded data (the bundled releases, the paper's studies, the story's threads
# and sources): every other page must show a hostile name somewhere, so the literal checks below are not vacuous.
NO_DATA_NAMES = {"releases", "studies", "threads", "references"}


def _literal(at, where) -> set[str]:
    """Check that every hostile name on the page (its Markdown, every chart's text) is shown literally; return the
    names it shows."""
    sources = L.markdown_sources(at)
    problems = L.markdown_problems(sources, H.NAMES)
    drawn = []
    for i, spec in enumerate(L.chart_specs(at)):
        problems += [f"chart {i}: {p}" for p in L.chart_problems(spec, H.NAMES)]
        drawn += [L.shown(x) for x in L.chart_strings(spec)]
    assert not problems, (where, problems[:5])
    text = escape.unmarkdown("\n".join(sources)) + "\n" + "\n".join(drawn)
    return {n for n in H.NAMES if n in text}


@pytest.mark.parametrize("spec", PAGES, ids=[p.url_path or "home" for p in PAGES])
def test_a_hostile_suite_never_raises_nor_prints_inf(on_hostile_suite, spec):
    """Every page and every slide on the hostile suite: no exception, no 'inf' or 300-digit number shown, every name
    shown literally (Markdown escaped as helm_core.escape.markdown does, no entity; chart text escaped for plotly);
    the data page says which values were left out and which run folder was."""
    at = open_story_page(spec.file, query={"cohort": "all", **H.LINKS.get(spec.url_path, {})})
    seen: set[str] = set()
    for label in L.walk_slides(at):
        body = texts(at)
        assert not INF_TEXT.search(body), (label, INF_TEXT.search(body).group(0))
        for df in [*at.dataframe, *at.table]:
            v = df.value
            nums = v.select_dtypes("number").to_numpy(float) if hasattr(v, "select_dtypes") else []
            assert not np.isinf(nums).any(), label
        assert not [e for e in H.ENTITIES if e in body], label  # a name's `_ < > &` never shows as an entity
        seen |= _literal(at, label)
    assert seen or spec.url_path in NO_DATA_NAMES, "no hostile name on the page: the literal checks saw nothing"
    if spec.url_path in ("data", "leaderboard"):
        # The pages that list the names: each reads as the loader holds it, with no stray backslash.
        shown = escape.unmarkdown(body)
        assert "\\" not in shown
    if spec.url_path == "data":
        assert "values HELM could not have produced were left out" in shown
        assert "2 run folders" in shown
        models = next(d.value for d in at.dataframe if "helm_id" in d.value.columns)
        assert {H.MODEL, H.OTHER} <= set(models["model"])  # as written in the files: no look-alike characters
    if spec.url_path == "leaderboard":
        at.selectbox(key="lb_group").set_value("zz_hostile").run()
        assert [escape.unmarkdown(x) for x in section_labels(at)] == [H.TITLE, H.SCENARIO]
        assert H.MODEL in escape.unmarkdown(texts(at))
        for label in L.walk_slides(at):
            seen |= _literal(at, f"zz_hostile {label}")
        assert seen >= set(H.NAMES)


@pytest.mark.parametrize("mode", ["presenter", "phone"])
@pytest.mark.parametrize("spec", PAGES, ids=[p.url_path or "home" for p in PAGES])
def test_a_hostile_suite_shows_names_literally_on_stage_and_phone(on_hostile_suite, spec, mode):
    """The same walk in presenter mode (?present=1) and on a phone (ui.viewport's probe says so): the charts are
    built for the screen (names wrapped, rows named above their marks, upright heads), and still show every name
    literally."""
    query = {"cohort": "all", **({"present": "1"} if mode == "presenter" else {}), **H.LINKS.get(spec.url_path, {})}
    session = {"_viewport": {"bucket": "phone"}} if mode == "phone" else {}
    at = open_story_page(spec.file, query=query, session=session)
    seen: set[str] = set()
    for label in L.walk_slides(at):
        seen |= _literal(at, f"{mode} {label}")
    assert seen or spec.url_path in NO_DATA_NAMES
