"""Pages whose sections are lazy tabs (ui.components.sections): every section of every such page runs cleanly,
only the open section is built, and every section declares the same query keys, so no link parameter of a
closed section is dropped while another one is open. These checks ride on the statement sweep below, which opens
every section of every page anyway (each section of a sectioned page by its own link, alone)."""
from __future__ import annotations

import re

import pytest

from ui import nav

from .helpers import false_products, open_page, section_labels, section_tabs, shown, texts
# SECTIONED: the pages with several charts, built one section at a time so the first load draws one section
# (DESIGN.md §7); and Prompts & Completions, whose views of the bundled runs (side by side, trials, browser) are built
# one at a time.
from .test_all_pages import SECTIONED, faint_marks

PAGES = nav.available_pages()
# HELM's Leaderboard: one lazy tab per table of the chosen groups file (its own keys lb_table_<i>, tested in
# test_leaderboard.py), not one of the app's fixed section sets.
TABLE_TABS = {"leaderboard"}
RELEASE_NAMES = {"classic": "HELM classic v0.4.0", "lite": "HELM Lite v1.13.0", "capabilities": "HELM Capabilities v1.15.0"}


def test_exactly_the_multi_chart_pages_have_sections():
    have = {p.url_path for p in PAGES if section_tabs(open_page(p.file))[0] is not None}
    assert have == SECTIONED | TABLE_TABS


# ----------------------------------------------------------------------------- the statement sweep
# Every page, every section (and every step of the stepper, every thread), in both cohorts: the text on screen is
# collected and checked against what helm_core computes for the cohort shown, plus rules every sentence follows.

def _extra_views(path: str) -> list[dict[str, str]]:
    from helm_core import critique

    if path == "limits":
        return [{"step": str(i)} for i in range(1, len(critique.load_steps()) + 1)]
    if path == "threads":
        return [{"thread": t.id} for t in critique.load_threads()]
    return [{}]


def _screens(spec, cohort: str, release: str = "classic", alone: bool = False):
    """(AppTest, section key, section label, text) of every section / step / thread of a page, the text with HTML
    entities resolved. A section is opened the way a click does, or (`alone`) by its own link in a new session,
    as a visitor following a link to it does."""
    from .helpers import open_section, open_story_page

    for extra in _extra_views(spec.url_path):
        query = {"cohort": cohort, "release": release, **extra}
        at = open_story_page(spec.file, query)
        key, tabs = section_tabs(at)
        labels = [t.label for t in tabs] if key else [None]
        for label in labels:
            if label is not None and label != labels[0]:
                if alone:
                    at = open_story_page(spec.file, {**query, key: label})
                else:
                    open_section(at, label)
            parts = [texts(at)] + [m.label + ": " + str(m.value) + " " + (m.proto.help or "") for m in at.metric]
            parts += [e.label for e in at.expander]
            parts += [str(c.value) for c in at.sidebar.caption]
            yield at, key, label, shown("\n".join(parts))


def _screen_texts(spec, cohort: str, release: str = "classic") -> list[str]:
    """The text of every section / step / thread of a page, one string each (sections opened as a click does)."""
    return [text for *_, text in _screens(spec, cohort, release)]


def _check_sections_alone(spec, cohort: str) -> list[str]:
    """The screens of the page in the cohort (classic), each section of a sectioned page opened alone by its link,
    checked as a section: only it is built, the page's title and release are named, no faint mark, no false
    product, and every section declares the same query keys."""
    screens, declared = [], None
    sectioned = spec.url_path in SECTIONED
    for at, key, label, text in _screens(spec, cohort, alone=sectioned):
        screens.append(text)
        if not sectioned:
            continue
        assert key == f"{spec.url_path or 'home'}_section"
        labels = section_labels(at)
        assert len(labels) >= 2 and len(set(labels)) == len(labels)
        _, tabs = section_tabs(at)
        assert [len(t.children) > 0 for t in tabs] == [t.label == label for t in tabs], label
        body = texts(at)
        assert nav.title(spec, False) in body
        assert f"Data: {RELEASE_NAMES['classic']}" in body
        assert not faint_marks(at), (label, faint_marks(at))
        assert not false_products(body), (label, false_products(body))
        keys = set(at.session_state["_qp_allowed"])
        if declared is None:
            declared = keys
        assert keys == declared, f"{spec.url_path} · {label}: {sorted(keys ^ declared)}"
    return screens


SENTENCE_RULES = [
    # (pattern that must not appear, why)
    (r"(?<![\d.,#])1 (models|scenarios|cells|blanks|values|runs|pairs|groups)\b", "singular count with a plural noun"),
    (r"\|\s*[1-9]\d+\.000\s*\|", "a count printed with decimals in a table"),
    (r"\b\d+\.000 (runs|models|scenarios)\b", "a count printed with decimals"),
    (r"Newer models were not run on every scenario", "a fixed claim about whose blanks they are"),
    (r"Core cells measured", "a headline not comparable with the paper's"),
    (r"Not on this chart from the", "top-three models dropped from the cost chart"),
    (r"and the Codex models ran no core scenario\.", "Codex named as a reason coverage is below 100%"),
]


@pytest.mark.parametrize("cohort", ["paper", "all"])
@pytest.mark.parametrize("spec", PAGES, ids=[p.url_path or "home" for p in PAGES])
def test_statements_hold_for_the_cohort_shown(spec, cohort, release):
    """Every screen of the page in the cohort (classic) says what helm_core computes for it and breaks no sentence
    rule; every section of a sectioned page, opened alone by its link, passes the section checks
    (_check_sections_alone)."""
    from helm_core import summary
    from helm_core.claims import load_claims
    from helm_core.data import cohort_models

    models = cohort_models(release, cohort)
    counts = summary.headline_counts(release, models)
    accuracy = f"{counts['accuracy_measured'] / counts['accuracy_cells']:.1%}"
    blanks = summary.blank_sentence(release, models)
    screens = _check_sections_alone(spec, cohort)
    everything = "\n".join(screens)
    assert f"{len(models)} models selected" in everything  # the sidebar names the cohort's size
    for pattern, why in SENTENCE_RULES:
        hit = re.search(pattern, everything)
        assert hit is None, f"{why}: …{everything[max(0, hit.start() - 80):hit.end() + 40]}…"
    notes = [c for c in load_claims().values() if not c.is_paper_claim]
    for c in notes:  # a note about the app's sources is not badged as a paper claim
        # a note about the app's own sources is never badged as a claim (a source kind · a confidence)
        assert not re.search(r"(2022 paper|HELM code/config|CRFM blog|release) · \w+\] " + re.escape(c.statement[:40]),
                             everything), c.id
    path = spec.url_path
    if path == "":
        assert f"Accuracy measured: {accuracy}" in everything
        assert blanks in everything
        assert f"{counts['bookkeeping_values']:,} values" in everything  # bookkeeping counted apart
    if path == "limits":
        assert f"Accuracy measured: {accuracy}" in screens[0]
        assert blanks in screens[1]
    if path == "coverage":
        assert "448 of 480 cells (93.3%)" in everything
    if path == "cost":
        named = "the 2022 paper's cohort" if cohort == "paper" else "every model of the release"
        assert re.search(rf"disagrees\*\* for \d+ of the \d+ models with a disclosed size, of {re.escape(named)}",
                         everything), named
        assert "rank in " + named in everything
    if path == "threads":
        assert "(none added later do), and no clean accuracy/efficiency trade-off" in everything


@pytest.mark.parametrize("name", ["lite", "capabilities"])
@pytest.mark.parametrize("spec", PAGES, ids=[p.url_path or "home" for p in PAGES])
def test_statements_hold_on_a_later_release(spec, name):
    """The same walk on HELM Lite and HELM Capabilities (every model: the paper's cohort is a classic notion): every
    screen names the release it shows, the sidebar counts the release's own models (recomputed from data/), no
    sentence breaks the rules above, and no classic-only sentence shows: the 2022 paper's numbers (16 × 7, 98 of
    112, 30 models) are said as the paper's or not at all."""
    from helm_core.data import load_bundled

    rel = load_bundled(name)
    screens = _screen_texts(spec, "all", name)
    everything = "\n".join(screens)
    for i, screen in enumerate(screens):
        assert f"Data: {RELEASE_NAMES[name]}" in screen, (name, spec.url_path, i)
    assert f"{len(rel.model_names)} models selected" in everything
    for pattern, why in SENTENCE_RULES:
        hit = re.search(pattern, everything)
        assert hit is None, f"{why}: …{everything[max(0, hit.start() - 80):hit.end() + 40]}…"
    for pattern in (r"(?<!paper's )(?<!2022 )\b98 of (the )?112\b", r"(?<!paper's )(?<!2022 )\b30 models\b"):
        hit = re.search(pattern, everything)
        assert hit is None or re.search(r"paper|2022|classic", everything[max(0, hit.start() - 200):hit.end() + 80]), \
            f"{name}: a classic number without its scope: …{everything[max(0, hit.start() - 120):hit.end() + 60]}…"
