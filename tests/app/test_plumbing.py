from __future__ import annotations

from .helpers import open_page, texts


def _metrics(at):
    return {m.label: m.value for m in at.metric}


def test_headline_counts_come_from_the_data():
    at = open_page()
    m = _metrics(at)
    assert m["Models"] == "67"
    assert m["Core scenarios"] == "16"
    assert m["Metric groups"] == "7"
    assert int(m["Organizations"]) > 10


def test_cohort_filter_changes_counts():
    at = open_page(query={"cohort": "paper"})
    assert _metrics(at)["Models"] == "28"
    at = open_page(query={"access": "closed"})
    assert _metrics(at)["Models"] == "3"  # Anthropic-LM v4-s3 and both TNLG v2 models


def test_cohort_switch_by_widget():
    at = open_page()
    at.radio(key="cohort").set_value("paper").run()
    assert _metrics(at)["Models"] == "28"


def test_invalid_query_values_give_a_notice_not_an_exception():
    at = open_page(query={"cohort": "bogus", "zzz": "1"})
    assert _metrics(at)["Models"] == "67"
    notices = " ".join(str(t.value) for t in at.toast)
    assert "cohort" in notices and "zzz" in notices


def test_empty_filter_says_so():
    at = open_page(query={"cohort": "paper", "access": "closed"})
    assert _metrics(at)["Models"] == "3"


def test_page_explains_what_helm_publishes():
    t = texts(open_page())
    assert "display_requests.json" in t and "per_instance_stats.json" in t
