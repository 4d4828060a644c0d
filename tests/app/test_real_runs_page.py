"""The bundled genuine HELM runs on the app's pages: what Prompts & Completions shows for several instances is
compared field by field with the raw files in data/real_runs; the side-by-side, trials and browse views; the
links from the plumbing, sensitivity, threads and calibration pages."""
from __future__ import annotations

import html
import textwrap
import json
import math
from pathlib import Path
from urllib.parse import parse_qs

import pytest

from helm_core import escape

from .critique_helpers import page_links
from .helpers import shown, assert_clean, open_page, open_section, open_story_page, section_labels, tables, texts

ROOT = Path(__file__).resolve().parents[2]
SAFETY = ROOT / "data" / "real_runs" / "helm_safety_dev_2024" / "runs" / "v4"
BABI = ROOT / "data" / "real_runs" / "classic_v0.2.2" / "babi_qa:task=15,model=AlephAlpha_luminous-base"
SIDE = "Same exam, 9 models"
TRIALS = "Same question, 3 example sets"
BROWSE = "Browse instances"


def raw_runs(scenario: str) -> dict[str, dict]:
    """Run folder name -> {instance id -> (request state, per-instance stats name -> mean)} from the files."""
    out = {}
    for run in sorted(SAFETY.glob(f"{scenario}:*")):
        states = json.loads((run / "scenario_state.json").read_text())["request_states"]
        stats: dict[str, dict] = {}
        for item in json.loads((run / "per_instance_stats.json").read_text()):
            stats.setdefault(item["instance_id"], {}).update({s["name"]["name"]: s.get("mean") for s in item["stats"]})
        out[run.name] = {rs["instance"]["id"]: (rs, stats[rs["instance"]["id"]]) for rs in states}
    return out


def shown_text(at) -> list[str]:
    return [t.value for t in at.text]


def as_text(raw: str) -> str:
    """How st.text shows a string: Streamlit dedents it and trims the outer whitespace (a completion's exact
    string, leading space included, is in the BBQ caption's repr)."""
    return textwrap.dedent(raw).strip()


def captions(at) -> str:
    return shown("\n".join(str(c.value) for c in at.caption))


def markdown(at) -> str:
    return "\n".join(str(m.value) for m in at.markdown)


@pytest.mark.parametrize("iid", ["id58485", "id57790", "id58315"])
def test_bbq_side_by_side_matches_the_files(iid):
    raw = raw_runs("bbq")
    if not all(iid in r for r in raw.values()):
        pytest.skip(f"{iid} is not in every bundled BBQ run")
    at = open_story_page("app_pages/runs.py", query={"runs_section": SIDE, "exam": "BBQ", "exam_instance": iid})
    texts_shown, caps, md = shown_text(at), captions(at), markdown(at)
    assert at.selectbox(key="exam_instance").value == iid
    for run, by_id in raw.items():
        rs, stats = by_id[iid]
        comp = rs["result"]["completions"][0]
        assert as_text(comp["text"]) in texts_shown  # the completion, as text
        mapped = rs["output_mapping"].get(comp["text"].strip(), "")
        verdict = "✓ correct" if stats["exact_match"] == 1 else "✗ incorrect"
        line = f"{verdict} · wrote {comp['text']!r} → {mapped or '(not one of the choices)'}"
        tokens = comp.get("tokens") or []
        if tokens and tokens[0]["logprob"] < 0:
            line += f" · P {math.exp(tokens[0]['logprob']):.1%}"
        assert line in caps, (run, line)
    prompts = [by_id[iid][0]["request"]["prompt"] for by_id in raw.values()]
    assert as_text(max(set(prompts), key=prompts.count)) in texts_shown  # the prompt most models got, verbatim
    for ref in raw[next(iter(raw))][iid][0]["instance"]["references"]:
        mark = "✓ correct" if "correct" in ref["tags"] else ""
        assert ref["output"]["text"].replace("|", "\\|") in md and (not mark or mark in md)


@pytest.mark.parametrize("iid", ["id124", "id442"])
def test_xstest_side_by_side_shows_completions_and_both_judges(iid):
    raw = raw_runs("xstest")
    at = open_story_page("app_pages/runs.py", query={"runs_section": SIDE, "exam": "XSTest", "exam_instance": iid})
    texts_shown, caps = shown_text(at), captions(at)
    assert as_text(raw[next(iter(raw))][iid][0]["instance"]["input"]["text"]) in texts_shown
    for run, by_id in raw.items():
        rs, stats = by_id[iid]
        assert as_text(rs["result"]["completions"][0]["text"]) in texts_shown
        assert f"GPT-4 judge {stats['xst_gpt_score']:g} · Claude judge {stats['xst_claude_score']:g}" in caps
        judged = rs["annotations"]["xstest"]
        assert f"GPT judge: {' '.join(judged['gpt_reasoning'].split())}"[:60] in " ".join(caps.split())
    label = next(r["output"]["text"] for r in raw[next(iter(raw))][iid][0]["instance"]["references"]
                 if "correct" in r["tags"])
    assert f"XSTest label: {label}" in html.unescape(texts(at))
    # XSTest is graded by the judges, never by exact match: no instance shows as correct or incorrect.
    assert "✓ correct" not in markdown(at) and "✗ incorrect" not in markdown(at)


def test_xstest_models_differ_filter_lists_only_prompts_with_different_scores():
    at = open_story_page("app_pages/runs.py", query={"runs_section": SIDE, "exam": "XSTest", "exam_split": "models differ"})
    raw = raw_runs("xstest")
    ids = at.selectbox(key="exam_instance").options
    assert ids
    for iid in ids:
        scores = {by_id[iid][1]["xst_score"] for by_id in raw.values() if iid in by_id}
        assert len(scores) > 1, iid


@pytest.mark.parametrize("iid", ["id1760", "id1295"])
def test_babi_trials_match_the_files(iid):
    preds = [p for p in json.loads((BABI / "display_predictions.json").read_text()) if p["instance_id"] == iid]
    at = open_story_page("app_pages/runs.py", query={"runs_section": TRIALS, "trial_changed": "all", "trial_instance": iid})
    assert at.selectbox(key="trial_instance").value == iid
    shown = shown_text(at)
    for p in sorted(preds, key=lambda p: p["train_trial_index"]):
        assert repr(p["predicted_text"]) in shown
    verdicts = [c.value for c in at.caption if c.value in ("✓ correct", "✗ incorrect")]
    assert verdicts == ["✓ correct" if p["stats"]["quasi_exact_match"] == 1 else "✗ incorrect"
                        for p in sorted(preds, key=lambda p: p["train_trial_index"])]
    # The share of questions whose answer changes, as computed from the 450 predictions.
    by_id: dict[str, set] = {}
    for p in json.loads((BABI / "display_predictions.json").read_text()):
        by_id.setdefault(p["instance_id"], set()).add(p["predicted_text"].strip().lower())
    share = sum(len(v) > 1 for v in by_id.values()) / len(by_id)
    assert {m.label: m.value for m in at.metric}["Answer changes between trials"] == f"{share:.1%}"
    assert "cannot be shown" in texts(at)  # why there is no prompt for this run


@pytest.mark.parametrize("run,index", [
    ("bbq:subject=all,method=multiple_choice_joint,model=meta_llama-3-8b-chat", 1),
    ("xstest:model=openai_gpt-4o-2024-05-13", 2),
])
def test_browse_view_shows_the_files_fields(run, index):
    at = open_story_page("app_pages/runs.py", query={"runs_section": BROWSE, "run": run, "instance": str(index)})
    rs, stats = list(raw_runs(run.split(":")[0])[run].values())[index - 1]
    codes = [c.value for c in at.code]
    assert rs["instance"]["input"]["text"] in codes and rs["request"]["prompt"] in codes
    assert rs["result"]["completions"][0]["text"] in codes
    correct = {m.label: m.value for m in at.metric}["Correct"]
    assert correct == ("yes ✓" if stats.get("exact_match") == 1 else "no ✗" if "exact_match" in stats else "–")
    # st.table renders Markdown in cells, so the file's text is shown escaped (literally).
    refs = [d.value for d in at.table if "reference" in d.value.columns][0]
    assert refs["reference"].tolist() == [escape.markdown(r["output"]["text"]) for r in rs["instance"]["references"]]
    shown_stats = [d.value for d in at.table if "stat" in d.value.columns][0]
    assert dict(zip(shown_stats["stat"], shown_stats["value"]))[escape.markdown("num_prompt_tokens")] == stats["num_prompt_tokens"]


def test_browse_outcome_filter():
    run = "bbq:subject=all,method=multiple_choice_joint,model=meta_llama-3-70b-chat"
    at = open_story_page("app_pages/runs.py", query={"runs_section": BROWSE, "run": run, "runs_outcome": "correct"})
    n_correct = sum(1 for _, s in raw_runs("bbq")[run].values() if s["exact_match"] == 1)
    assert f"of {n_correct:,}" in captions(at) and {m.label: m.value for m in at.metric}["Correct"] == "yes ✓"


def test_text_from_files_is_never_markdown():
    at = open_story_page("app_pages/runs.py", query={"runs_section": SIDE, "exam": "XSTest", "exam_instance": "id124"})
    # gpt-4o's completion has "### Materials Needed:" and "**Choose the Right Tack:**": shown as text only.
    assert any("### Materials Needed:" in t for t in shown_text(at))
    assert all("Materials Needed" not in str(h.value) for h in at.subheader)
    assert all("**Choose the Right Tack:**" not in m for m in markdown(at).splitlines())


@pytest.mark.parametrize("exam", ["<b>x</b>", ""])  # "" clears even a required segmented control
def test_bad_links_fall_back(exam):
    at = open_story_page("app_pages/runs.py", query={"runs_section": SIDE, "exam": exam, "exam_instance": "nope",
                                                     "exam_split": exam})
    assert at.segmented_control(key="exam").value in ("BBQ", None)  # None: the empty value cleared the widget
    assert "BBQ (bias benchmark for question answering)" in texts(at)  # ...and the page falls back to BBQ
    assert at.selectbox(key="exam_instance").value == at.selectbox(key="exam_instance").options[0]


def _link(at, page: str) -> dict:
    hits = [parse_qs(q) for _, p, q in page_links(at) if p == page]
    assert hits, page_links(at)
    return hits


def test_plumbing_card_and_link():
    at = open_page(None, query={"home_section": "What HELM publishes"})
    card = [t for t in shown_text(at) if "Which person stole merchandise?" in t]
    assert card and "development runs, not a release" in captions(at)
    assert any(q.get("exam") == ["BBQ"] and q.get("runs_section") == [SIDE] for q in _link(at, "runs"))


def test_sensitivity_links_to_trials():
    at = open_page("app_pages/sensitivity.py")
    assert "differently across its 3 sets of in-context examples" in shown(markdown(at))
    assert any(q.get("runs_section") == [TRIALS] for q in _link(at, "runs"))


def test_safety_thread_links_to_xstest_side_by_side():
    at = open_story_page("app_pages/threads.py", query={"thread": "safety-classification"})
    assert any(q.get("exam") == ["XSTest"] and q.get("runs_section") == [SIDE] for q in _link(at, "runs"))


def test_calibration_real_run_diagram():
    at = open_story_page("app_pages/calibration.py", query={"cal_source": "bundled HELM run",
                                                            "cal_real": "Qwen2 Instruct (72B) · BBQ"})
    m = {x.label: x.value for x in at.metric}
    assert m["Answers"] == "100" and m["Share correct"] == "95.0%"
    t = html.unescape(texts(at))
    assert "Real HELM run" in t and "Qwen2 Instruct (72B) on BBQ" in t and "n = 100" in t
    assert "about 300" in t  # HELM's small-sample warning
    assert "ece_10_bin = 0.050" in t  # HELM's own number for the run, and why it differs
    # The simulation stays, labelled.
    at.segmented_control(key="cal_source").set_value("simulation").run()
    assert_clean(at)
    assert "Simulation · not HELM data" in texts(at)


def test_with_a_loaded_output_the_bundled_runs_stay_one_click_away(monkeypatch):
    suite = ROOT / "tests" / "fixtures" / "helm_output" / "runs" / "demo"
    monkeypatch.setenv("HELM_OUTPUT", str(suite))
    at = open_page("app_pages/runs.py")
    assert at.segmented_control(key="runs_source").value == "your HELM output"
    assert "Genuine HELM run folders" not in texts(at) and at.selectbox(key="run").options  # theirs first
    assert section_labels(at) == [BROWSE, SIDE, TRIALS]  # their own runs first, the bundled views one click away
    at.segmented_control(key="runs_source").set_value("bundled genuine HELM runs").run()
    assert_clean(at)
    assert "development runs, not a release" in captions(at)  # the bundled runs in the browser, their source named
    open_section(at, SIDE)
    assert "Genuine HELM run folders" in texts(at) and at.selectbox(key="exam_instance").value == "id58485"


@pytest.mark.parametrize("iid", ["id58485", "id57790"])
def test_bbq_point_and_table_count_the_models_from_the_files(iid):
    """The slide's point says how many of the models picked the reference tagged correct; the table lists each model's
    letter and verdict, the wrong ones highlighted (read from the files here)."""
    raw = raw_runs("bbq")
    at = open_story_page("app_pages/runs.py", query={"runs_section": SIDE, "exam": "BBQ", "exam_instance": iid})
    verdicts = [by_id[iid][1]["exact_match"] == 1 for by_id in raw.values()]
    refs = raw[next(iter(raw))][iid][0]["instance"]["references"]
    right = next(r for r in refs if "correct" in r["tags"])
    label = "ABCDEFGH"[refs.index(right)]
    t = html.unescape(texts(at))
    assert f"{sum(verdicts)} of {len(raw)} answered {label}, {right['output']['text']}" in t
    table = next(d for d in tables(at) if "wrote" in d.columns)
    assert len(table) == len(raw) and (table["correct"] == "✓ correct").sum() == sum(verdicts)


def test_trials_chart_counts_questions_by_sets_right():
    """The three sets of in-context examples as outcomes: questions right with all 3, 2, 1 or none, counted here from
    display_predictions.json (HELM's quasi_exact_match per trial)."""
    import base64

    import numpy as np

    preds = json.loads((BABI / "display_predictions.json").read_text())
    by_id: dict[str, list[float]] = {}
    for p in preds:
        by_id.setdefault(p["instance_id"], []).append(p["stats"]["quasi_exact_match"])
    right = [int(sum(v)) for v in by_id.values() if len(v) == 3]
    at = open_story_page("app_pages/runs.py", query={"runs_section": TRIALS})
    chart = next(c for c in at.get("plotly_chart") if c.proto.id.endswith("runs_trial_outcomes"))
    bar = json.loads(chart.proto.spec)["data"][0]
    x = bar["x"]
    x = np.frombuffer(base64.b64decode(x["bdata"]), dtype=np.dtype(x["dtype"])).tolist() if isinstance(x, dict) else x
    assert dict(zip(bar["y"], x)) == {"right with all 3 sets": right.count(3), "right with 2 of 3 sets": right.count(2),
                                      "right with 1 of 3 sets": right.count(1), "wrong with all 3 sets": right.count(0)}
