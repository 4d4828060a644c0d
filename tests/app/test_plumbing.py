from __future__ import annotations

import html

import pytest

from .helpers import open_page, open_section, open_story_page, section_labels, tables, texts


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
    at = open_page()
    assert section_labels(at) == ["Same exam", "What HELM publishes"]
    assert "display_requests.json" not in texts(at)  # only the open slide is built
    open_section(at, "What HELM publishes")
    t = texts(at)
    assert "display_requests.json" in t and "per_instance_stats.json" in t
    files = next(d for d in tables(at) if "file" in d.columns)
    assert list(files["file"]) == ["display_requests.json", "display_predictions.json", "per_instance_stats.json",
                                   "groups/*.json"]


def test_the_example_card_uses_helms_display_names():
    """The genuine prompt and completion are named as HELM names them (schema.json display names), not by ids."""
    import json

    from .helpers import ROOT

    schema = json.loads((ROOT / "data/real_runs/helm_safety_dev_2024/runs/v4/schema.json").read_text())
    display = next(m["display_name"] for m in schema["models"] if m["name"] == "meta/llama-3-8b-chat")
    at = open_page(query={"home_section": "What HELM publishes"})
    t = texts(at)
    assert f"a real BBQ prompt and {display}'s answer" in t  # the slide's point
    assert f"{display} on BBQ, instance id57790" in t  # the card
    assert "meta/llama-3-8b-chat" not in t and "meta&#95;llama" not in t


def _point(at) -> str:
    return next(str(m.value) for m in at.markdown if str(m.value).startswith("**One exam"))


@pytest.mark.parametrize("query", [{"cohort": "paper"}, {"cohort": "all"}, {"release": "lite"},
                                   {"release": "capabilities"}])
def test_the_exam_sentence_is_computed(query):
    """How many models have every scenario, recomputed here from data/ (the release's results, the cohort)."""
    from helm_core import coverage, data, fmt

    rel = data.load_bundled(query.get("release", "classic"))
    models = data.cohort_models(rel, query.get("cohort", "all") if rel.is_classic else "all")
    m = coverage.coverage_matrix(rel, models)
    n, complete = len(m), int(m.all(axis=1).sum())
    at = open_page(query=query)
    point = _point(at)
    assert f"One exam, {fmt.count(m.shape[1], 'scenario')}:" in point
    assert f"({int(m.to_numpy().sum()):,} of {m.size:,} cells measured)" in point
    if complete == n:
        assert f"all {n} models have a value on every one" in point
    elif n - complete <= n / 2:
        assert f"all but {n - complete} of the {n} models have" in point
    else:
        assert f"{complete} of the {n} models have" in point
    assert "Every model sat the same exam" not in texts(at)


@pytest.mark.parametrize("release,needle,absent", [
    ("classic", "up to 5 in-context examples per prompt; none on HellaSwag and OpenbookQA", "zero-shot"),
    ("lite", "up to 8 in-context examples per prompt", "seeds"),
    ("capabilities", "with no in-context examples (zero-shot", "the same prompts and in-context examples"),
])
def test_the_exam_setup_is_said_only_where_true(release, needle, absent):
    t = html.unescape(texts(open_page(query={"release": release})))
    assert needle in t and absent not in t


def test_stage_and_phone_draw_the_exam_by_pattern_of_blanks(release):
    """A stage or a phone cannot name 67 models on an axis: one column per pattern of blanks instead, every model
    in one column, every column named by its size (or by its one model)."""
    from helm_core import data, summary
    from ui import charts

    models = data.cohort_models(release, "all")
    patterns = summary.exam_patterns(release, models)
    assert patterns["n_models"].sum() == 67 and len(patterns) == 6
    for mode in ("presenter", "phone"):
        fig = charts.exam_patterns_chart(patterns, release.taxonomy.scenario_names, mode=mode)
        heads = list(fig.layout.xaxis.ticktext)
        assert [h.replace("<br>", " ") for h in heads[:3]] == ["30 models", "25 models", "9 models"]
        assert len(heads) == 6
        cells = sum(len(t.x) for t in fig.data)
        assert cells == 6 * 16
