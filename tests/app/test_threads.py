"""Related threads: four threads, each with what HELM shows, deep links with state into registered pages,
references, and no invented episodes."""
from __future__ import annotations

from urllib.parse import parse_qsl

import pytest

from helm_core import content
from ui import nav

from .critique_helpers import open_at, page_links
from .helpers import tables, texts

PAGE = nav.spec_for("threads").file
THREADS = content.load_threads()
REFS = content.load_references()
CLAIMS = content.load_claims()
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
