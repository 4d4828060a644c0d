"""Related threads: four threads, each with what HELM shows, deep links with state into registered pages,
references, and no invented episodes."""
from __future__ import annotations

from urllib.parse import parse_qsl

import pytest

from .critique_helpers import open_at, page_links
from .helpers import tables, texts
from helm_core import claims, critique, references
from ui import nav

PAGE = nav.spec_for("threads").file
THREADS = critique.load_threads()
REFS = references.load_references()
CLAIMS = claims.load_claims()
AVAILABLE = {p.url_path for p in nav.available_pages()}


def test_default_is_the_first_thread_and_the_table_lists_all_four():
    at = open_at(PAGE)
    assert at.subheader[0].value == THREADS[0].title
    table = tables(at)[0]
    assert list(table["thread"]) == [t.title for t in THREADS]


@pytest.mark.parametrize("thread", THREADS, ids=[t.id for t in THREADS])
def test_each_thread_shows_claims_links_and_references(thread):
    at = open_at(PAGE)
    at.button_group(key="thread").set_value(thread.id).run()
    assert at.subheader[0].value == thread.title
    t = texts(at)
    for cid in thread.claims:
        assert CLAIMS[cid].statement in t
    for rid in thread.references:
        assert REFS.by_id(rid).title in t
    links = page_links(at)
    for link in thread.links:
        if link.page in AVAILABLE:
            match = [q for label, page, q in links if label == link.label and page == link.page]
            assert match, link.target
            assert parse_qsl(match[0]) == link.query_items
        else:
            assert link.label in t
    # every page link on the page goes to a registered page
    assert all(page in {p.url_path for p in nav.PAGES} for _, page, _ in links)


@pytest.mark.parametrize("thread", THREADS, ids=[t.id for t in THREADS])
def test_thread_from_the_url(thread):
    at = open_at(PAGE, {"thread": thread.id})
    assert at.subheader[0].value == thread.title


def test_bad_thread_falls_back_to_the_first():
    at = open_at(PAGE, {"thread": "nope"})
    assert at.subheader[0].value == THREADS[0].title


def test_no_episode_is_invented():
    at = open_at(PAGE)
    assert all(not t.episodes for t in THREADS), "episodes were added: update this test to check they render"
    assert "none is made up" in texts(at)


def test_references_link_carries_the_threads_topics():
    at = open_at(PAGE, {"thread": "serving-tradeoffs"})
    q = next(q for label, page, q in page_links(at) if page == "references" and "BibTeX" in label)
    topics = {v for k, v in parse_qsl(q)}
    assert topics == {t for rid in THREADS[3].references for t in REFS.by_id(rid).topics}


# ----------------------------------------------------------------------------- the slide: thread → view → number


@pytest.mark.parametrize("cohort", ["paper", "all"])
def test_the_table_ties_each_thread_to_its_view_and_its_computed_number(cohort):
    from helm_core import threads as numbers
    from helm_core.data import cohort_models, load_bundled

    rel = load_bundled("classic")
    models = cohort_models(rel, cohort)
    at = open_at(PAGE, {"cohort": cohort})
    table = tables(at)[0]
    assert list(table["thread"]) == [t.title for t in THREADS]
    assert list(table["where this app shows it"]) == [t.number_link.label for t in THREADS]
    assert list(table["the number it rests on"]) == [numbers.thread_number(rel, models, t.number) for t in THREADS]
    assert f"{len(THREADS)} threads run from HELM into later work; {len(THREADS)} of them rest on a number" in texts(at)


def test_on_a_later_release_a_number_it_cannot_give_says_so():
    from .helpers import open_story_page

    at = open_story_page(PAGE, {"release": "lite"})
    table = tables(at)[0].set_index("thread")
    assert table.loc["Reasoning robustness", "the number it rests on"] == \
        "no value in HELM Lite v1.13.0 for this cohort"  # Lite's tables hold no robustness group
    assert table.loc["Serving trade-offs", "the number it rests on"].endswith("models have an efficiency value")
    assert "rest on a number this app computes from HELM Lite v1.13.0" in texts(at)


def test_the_table_marks_the_thread_shown_below():
    at = open_at(PAGE, {"thread": THREADS[2].id})
    md = next(m.value for m in at.markdown if m.value.startswith("| thread | where this app shows it"))
    marked = [line for line in md.split("\n") if "-background[" in line]
    assert len(marked) == 1 and THREADS[2].title in marked[0]
