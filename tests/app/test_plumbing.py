from __future__ import annotations

import html

import pytest

from .helpers import open_page, open_story_page, texts


def _metrics(at):
    return {m.label: m.value for m in at.metric}


def test_headline_counts_come_from_the_data():
    at = open_page(query={"cohort": "all"})
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
    assert at.radio(key="cohort").value == "paper"  # the default: the 2022 paper's cohort
    assert _metrics(at)["Models"] == "28"
    at.radio(key="cohort").set_value("all").run()
    assert _metrics(at)["Models"] == "67"


@pytest.mark.parametrize("cohort,models,accuracy,listed,blank_owners", [
    ("paper", 28, "95.3%", "2,322 have a value (86.4%)",
     "The 21 blank cells belong to 6 models, all in the 2022 paper's cohort: GLM (130B), T0pp (11B), T5 (11B), "
     "UL2 (20B) and YaLM (100B) with 4 each; Cohere small v20220720 (410M) with 1."),
    ("all", 67, "81.9%", "4,266 have a value (66.3%)",
     "The 194 blank cells belong to 37 models: 31 models not in the 2022 paper's cohort (173 blanks) and "
     "6 models in the 2022 paper's cohort (21 blanks)."),
])
def test_headline_is_comparable_and_says_whose_blanks(cohort, models, accuracy, listed, blank_owners):
    at = open_page(query={"cohort": cohort})
    m = _metrics(at)
    assert m["Models"] == str(models) and m["Accuracy measured"] == accuracy
    helptext = next(x.proto.help for x in at.metric if x.label == "Accuracy measured")
    assert listed in helptext and "blank by design" in helptext
    t = html.unescape(texts(at))  # data text is shown escaped (components.text)
    assert blank_owners in t
    assert "Newer models were not run" not in t
    # metrics and HELM's bookkeeping columns are counted apart
    assert "bookkeeping columns" in t and ("5,693 metric values" if cohort == "all" else "3,151 metric values") in t


def test_a_release_without_paper_models_shows_every_model(release):
    from dataclasses import replace

    name = "later release"
    rel = replace(release, models=release.models.assign(paper_cohort=False),
                  meta={**release.meta, "kind": "upload", "release": name})
    at = open_story_page("app_pages/plumbing.py", session={"dataset_key": name, "_releases": {name: rel}})
    assert _metrics(at)["Models"] == "67"
    assert "no model of this dataset is in the 2022 paper's cohort" in " ".join(c.value for c in at.sidebar.caption)


def test_invalid_query_values_give_a_notice_not_an_exception():
    at = open_page(query={"cohort": "bogus", "zzz": "1"})
    assert _metrics(at)["Models"] == "28"  # the default cohort: the 2022 paper's
    notices = " ".join(str(t.value) for t in at.toast)
    assert "cohort" in notices and "zzz" in notices


def test_empty_filter_says_so():
    at = open_page(query={"cohort": "paper", "access": "closed"})
    assert _metrics(at)["Models"] == "3"


def test_page_explains_what_helm_publishes():
    t = texts(open_page())
    assert "display_requests.json" in t and "per_instance_stats.json" in t
