"""helm_core.real_runs: answers across trials and models, outcome filters, sources, and the real-run ECE of the
bundled BBQ runs checked against an independent recomputation (HELM's equal-mass 10 bins)."""
from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd
import pytest

from helm_core import helm_output, real_runs
from helm_core.data import DataError

NAN = float("nan")


def frame(rows: list[tuple]) -> pd.DataFrame:
    """Instance rows (instance_id, trial, completion, mapped_output, correct[, prob, stats])."""
    out = []
    for r in rows:
        iid, trial, comp, mapped, correct, *rest = r
        prob = rest[0] if rest else NAN
        stats = rest[1] if len(rest) > 1 else {}
        out.append({"instance_id": iid, "train_trial_index": trial, "perturbation": "", "split": "test",
                    "completion": comp, "mapped_output": mapped, "correct": correct, "prob": prob, "stats": stats})
    return pd.DataFrame(out)


@pytest.mark.parametrize("text,expected", [
    (" mouse", "mouse"),
    ("The Mouse.", "mouse"),
    ("a  cat!", "cat"),
    ("Cannot be determined", "cannot be determined"),
    ("", ""),
    ("an apple, the end", "apple end"),
])
def test_normalize_answer_as_helm(text, expected):
    assert real_runs.normalize_answer(text) == expected


@pytest.mark.parametrize("rows,n,changed,correct_changed", [
    # the same answer in every trial (whitespace and case do not count as a change)
    ([("a", 0, " mouse", "", 1.0), ("a", 1, "Mouse", "", 1.0), ("a", 2, "mouse.", "", 1.0)], 1, 0, 0),
    # the README's id1760: mouse / cat / mouse
    ([("b", 0, " mouse", "", 0.0), ("b", 1, " cat", "", 1.0), ("b", 2, " mouse", "", 0.0)], 1, 1, 1),
    # answers change but both are wrong
    ([("c", 0, " wolf", "", 0.0), ("c", 1, " sheep", "", 0.0)], 1, 1, 0),
    # an instance with one trial is not counted
    ([("d", 0, " cat", "", 1.0), ("e", 0, " cat", "", 1.0), ("e", 1, " mouse", "", 0.0)], 1, 1, 1),
    # multiple choice: the mapped choice is the answer, not the letter
    ([("f", 0, "A", "yes", 1.0), ("f", 1, " A", "yes", 1.0), ("f", 2, "B", "no", 0.0)], 1, 1, 1),
    ([], 0, 0, 0),
])
def test_share_changed(rows, n, changed, correct_changed):
    df = frame(rows) if rows else frame([("x", 0, "", "", 1.0)]).iloc[0:0]
    s = real_runs.share_changed(df)
    assert (s["n"], s["changed"], s["correct_changed"]) == (n, changed, correct_changed)
    if n:
        assert s["share"] == pytest.approx(changed / n)
    else:
        assert math.isnan(s["share"])


@pytest.mark.parametrize("rows,expected", [
    # three questions, three trials each: right 3/3, right 1/3, wrong 3/3
    ([("a", 0, "x", "", 1.0), ("a", 1, "x", "", 1.0), ("a", 2, "x", "", 1.0),
      ("b", 0, "x", "", 0.0), ("b", 1, "y", "", 1.0), ("b", 2, "x", "", 0.0),
      ("c", 0, "z", "", 0.0), ("c", 1, "z", "", 0.0), ("c", 2, "z", "", 0.0)],
     [("right with all 3 sets", 1, False), ("right with 2 of 3 sets", 0, True), ("right with 1 of 3 sets", 1, True),
      ("wrong with all 3 sets", 1, False)]),
    # two trials; a question with an ungraded trial is left out
    ([("a", 0, "x", "", 1.0), ("a", 1, "y", "", 0.0), ("b", 0, "x", "", NAN), ("b", 1, "x", "", 1.0)],
     [("right with all 2 sets", 0, False), ("right with 1 of 2 sets", 1, True), ("wrong with all 2 sets", 0, False)]),
    # one trial per question: no outcome across sets
    ([("a", 0, "x", "", 1.0)], []),
])
def test_trial_outcomes_by_number_of_sets_right(rows, expected):
    out = real_runs.trial_outcomes(real_runs.trial_changes(frame(rows)))
    assert [(r.label, r.questions, r.mixed) for r in out.itertuples()] == expected
    if expected:
        assert out["share"].sum() == pytest.approx(1.0)


def test_trials_side_by_side_in_trial_order():
    df = frame([("b", 2, " mouse", "", 0.0), ("b", 0, " mouse", "", 0.0), ("b", 1, " cat", "", 1.0)])
    t = real_runs.trials_side_by_side(df, "b")
    assert t["trial"].tolist() == [0, 1, 2] and t["answer"].tolist() == [" mouse", " cat", " mouse"]
    assert t["correct"].tolist() == [0.0, 1.0, 0.0]


def test_side_by_side_shared_and_agreement():
    frames = {
        "m1": frame([("q1", 0, "B", "yes", 1.0, 0.9), ("q2", 0, "A", "no", 0.0, 0.6)]),
        "m2": frame([("q1", 0, "A", "no", 0.0, NAN, {"xst_score": 0.5}), ("q3", 0, "B", "yes", 1.0)]),
    }
    assert real_runs.shared_instances(frames) == ["q1"]
    s = real_runs.side_by_side(frames, "q1", ("xst_score",))
    assert s["model"].tolist() == ["m1", "m2"] and s["answer"].tolist() == ["yes", "no"]
    assert s["correct"].tolist() == [1.0, 0.0] and s["prob"].iloc[0] == 0.9 and math.isnan(s["prob"].iloc[1])
    assert math.isnan(s["xst_score"].iloc[0]) and s["xst_score"].iloc[1] == 0.5
    a = real_runs.agreement(frames, ["q1"])
    assert a.iloc[0].to_dict() == {"instance_id": "q1", "n_models": 2, "n_correct": 1.0, "n_answers": 2, "n_values": 0}
    assert real_runs.agreement(frames, ["q1"], "xst_score")["n_values"].tolist() == [1]  # NaN is not a value
    assert real_runs.side_by_side(frames, "nowhere").empty


@pytest.mark.parametrize("correct,split,expected", [
    (None, None, ["a", "b", "c"]),
    (1.0, None, ["a"]),
    (0.0, None, ["b"]),
    ("nan", None, ["c"]),
    (None, "valid", ["b"]),
    (1.0, "valid", []),
])
def test_filter_outcome(correct, split, expected):
    df = frame([("a", 0, "x", "", 1.0), ("b", 0, "y", "", 0.0), ("c", 0, "z", "", NAN)])
    df.loc[1, "split"] = "valid"
    assert real_runs.filter_outcome(df, correct, split)["instance_id"].tolist() == expected


def test_sources_of_the_bundle_name_their_status_and_commit():
    sources = {s.key: s for s in real_runs.load_sources()}
    assert set(sources) == {"safety", "babi"}
    assert "not a release" in sources["safety"].status and sources["safety"].suite == "v4"
    assert sources["safety"].commit.startswith("865aaae") and sources["babi"].commit.startswith("801b913")
    assert "0.2.2" in sources["babi"].helm_version
    for s in sources.values():
        assert (real_runs.REAL_RUNS / s.path).is_dir()


@pytest.mark.parametrize("content,problem", [
    ("not json", "cannot read"),
    ("[]", "expected a list of sources"),
    ('[{"key": "x"}]', "expected the fields"),
])
def test_bad_sources_file(tmp_path, content, problem):
    (tmp_path / "sources.json").write_text(content)
    with pytest.raises(DataError, match=problem):
        real_runs.load_sources(tmp_path)


# ----------------------------------------------------------------------------- real-run ECE

SAFETY = real_runs.REAL_RUNS / "helm_safety_dev_2024" / "runs" / "v4"
TOGETHER = ["meta_llama-3-70b-chat", "meta_llama-3-8b-chat", "mistralai_mixtral-8x22b-instruct-v0.1",
            "qwen_qwen2-72b-instruct"]


def independent_ece(probs: list[float], correct: list[int], num_bins: int = 10) -> float:
    """HELM's get_ece_em written out again: sort, split into equal-count groups, bin edges at the midpoints
    between neighbouring groups (1.0 last), each probability in the first bin whose edge is >= it."""
    p = sorted(probs)
    n = len(p)
    k = min(num_bins, n)
    groups, start = [], 0
    for i in range(k):
        size = n // k + (1 if i < n % k else 0)
        groups.append(p[start:start + size])
        start += size
    edges = sorted({(groups[i][-1] + groups[i + 1][0]) / 2 for i in range(k - 1)} | {1.0})
    bins: dict[int, list[tuple[float, int]]] = {}
    for pr, c in zip(probs, correct):
        b = next(i for i, e in enumerate(edges) if pr <= e)
        bins.setdefault(b, []).append((pr, c))
    return sum(len(v) / n * abs(sum(c for _, c in v) / len(v) - sum(x for x, _ in v) / len(v)) for v in bins.values())


def raw_confidences(model: str) -> tuple[list[float], list[int]]:
    """Straight from the bundled files: exp(logprob) of the token the model wrote, and exact_match."""
    run = SAFETY / f"bbq:subject=all,method=multiple_choice_joint,model={model}"
    states = json.loads((run / "scenario_state.json").read_text())["request_states"]
    stats = {x["instance_id"]: {s["name"]["name"]: s.get("mean") for s in x["stats"]}
             for x in json.loads((run / "per_instance_stats.json").read_text())}
    probs, correct = [], []
    for rs in states:
        tok = rs["result"]["completions"][0]["tokens"][0]
        probs.append(math.exp(tok["logprob"]))
        correct.append(int(stats[rs["instance"]["id"]]["exact_match"]))
    return probs, correct


@pytest.mark.parametrize("model", TOGETHER)
def test_real_run_ece_equals_an_independent_recomputation(model):
    out = helm_output.read_helm_output(SAFETY)
    run = f"bbq:subject=all,method=multiple_choice_joint,model={model}"
    summary = real_runs.reliability(out.instances(run))
    probs, correct = raw_confidences(model)
    assert summary["n"] == len(probs) == 100 and summary["few_samples"]
    assert summary["accuracy"] == pytest.approx(np.mean(correct))
    assert summary["ece"] == pytest.approx(independent_ece(probs, correct), abs=1e-12)
    assert real_runs.reported_stat(out.run_stats, run, "ece_10_bin") == pytest.approx(1 - np.mean(correct))


def test_runs_without_logprobs_have_no_reliability():
    out = helm_output.read_helm_output(SAFETY)
    run = "bbq:subject=all,method=multiple_choice_joint,model=openai_gpt-4o-2024-05-13"
    with pytest.raises(ValueError, match="no per-instance probabilities"):
        real_runs.reliability(out.instances(run))
    assert math.isnan(real_runs.reported_stat(out.run_stats, run, "ece_10_bin"))


# ----------------------------------------------------------------------------- any per-instance metric

METRIC_ROWS = [("i1", 0, "A", "", 1.0, NAN, {"exact_match": 1.0, "max_prob": 0.9, "num_output_tokens": 1}),
               ("i2", 0, "B", "", 0.0, NAN, {"exact_match": 0.0, "max_prob": 0.4}),
               ("i3", 0, "C", "", 0.0, NAN, {"exact_match": 0.0, "max_prob": 0.6, "flag": True}),
               ("i4", 0, "D", "", NAN, NAN, {})]


def test_instance_metrics_in_first_seen_order_numbers_only():
    assert real_runs.instance_metrics(frame(METRIC_ROWS)) == ["exact_match", "max_prob", "num_output_tokens"]


@pytest.mark.parametrize("name, lo, hi, ids", [
    ("max_prob", 0.5, None, ["i1", "i3"]),
    ("max_prob", None, 0.6, ["i2", "i3"]),
    ("max_prob", 0.4, 0.4, ["i2"]),
    ("max_prob", None, None, ["i1", "i2", "i3"]),  # rows without the stat go
    ("exact_match", 1, 1, ["i1"]),
    ("num_output_tokens", 0, 5, ["i1"]),
    ("absent", None, None, []),
    (None, 0.5, 0.6, ["i1", "i2", "i3", "i4"]),  # no metric: every row
    ("", None, None, ["i1", "i2", "i3", "i4"]),
])
def test_filter_metric(name, lo, hi, ids):
    assert real_runs.filter_metric(frame(METRIC_ROWS), name, lo, hi)["instance_id"].tolist() == ids


# ----------------------------------------------------------------------------- adapter settings

JOINT = {"method": "multiple_choice_joint", "max_train_instances": 5, "max_tokens": 1, "num_outputs": 1,
         "temperature": 0.0, "stop_sequences": ["\n"], "instructions": "", "input_prefix": "Question: "}
SEPARATE = {**JOINT, "method": "multiple_choice_separate_original", "max_train_instances": 0, "max_tokens": 0}


@pytest.mark.parametrize("spec, field, value", [
    (JOINT, "method", "multiple_choice_joint"),  # the method plain
    (JOINT, "max_train_instances", "5"),
    (JOINT, "temperature", "0.0"),
    (JOINT, "stop_sequences", '["\\n"]'),  # as JSON: the newline is visible
    (JOINT, "instructions", '""'),  # empty instructions are shown as empty, not left out
    (json.dumps(SEPARATE), "max_train_instances", "0"),  # the JSON text of the runs table works too
])
def test_adapter_details(spec, field, value):
    d = real_runs.adapter_details(spec).set_index("field")
    assert d.loc[field, "value"] == value and d.loc[field, "meaning"]


@pytest.mark.parametrize("spec", ["", "not json", "[1, 2]", {}])
def test_adapter_details_without_a_spec(spec):
    assert real_runs.adapter_details(spec).empty


def test_adapter_differences_of_joint_and_separate():
    d = real_runs.adapter_differences(JOINT, SEPARATE).set_index("field")
    assert d.index.tolist() == ["method", "max_train_instances", "max_tokens"]
    assert d.loc["method", "b"] == "multiple_choice_separate_original" and d.loc["max_tokens", "a"] == "1"
    assert real_runs.adapter_differences(JOINT, JOINT).empty


# ----------------------------------------------------------------------------- two runs side by side

RUN_A = [("i1", 0, "A", "yes", 1.0, NAN, {"max_prob": 0.9}), ("i2", 0, "B", "no", 0.0, NAN, {"max_prob": 0.5}),
         ("i3", 0, "C", "maybe", 1.0, NAN, {}), ("i1", 1, "B", "no", 0.0, NAN, {}), ("i5", 0, "A", "", NAN, NAN, {})]
RUN_B = [("i3", 0, "C", "Maybe.", 0.0, NAN, {"max_prob": 0.7}), ("i2", 0, "A", "yes", 1.0, NAN, {}),
         ("i1", 0, "A", "yes", 1.0, NAN, {"max_prob": 0.8}), ("i4", 0, "A", "yes", 1.0, NAN, {}),
         ("i5", 0, "B", "", 1.0, NAN, {})]


def test_align_runs_by_instance_id_in_a_order_first_trial():
    al = real_runs.align_runs(frame(RUN_A), frame(RUN_B), "max_prob")
    assert al["instance_id"].tolist() == ["i1", "i2", "i3", "i5"]  # i4 is only in B; i1's trial 1 is not used
    assert al["answer_a"].tolist() == ["yes", "no", "maybe", "A"] and al["answer_b"].tolist() == ["yes", "yes", "Maybe.", "B"]
    assert al["agree"].tolist() == [True, False, True, False]  # "maybe" and "Maybe." agree after normalisation
    assert al["max_prob_a"].tolist()[:2] == [0.9, 0.5] and math.isnan(al["max_prob_a"].iloc[2])
    assert al["max_prob_b"].iloc[2] == 0.7


def test_alignment_counts_graded_only():
    c = real_runs.alignment_counts(real_runs.align_runs(frame(RUN_A), frame(RUN_B)))
    assert c == {"n": 4, "graded": 3, "both": 1, "only_a": 1, "only_b": 1, "neither": 0, "agree": 2}


def test_align_runs_without_shared_instances():
    al = real_runs.align_runs(frame(RUN_A[:1]), frame(RUN_B[3:4]))
    assert al.empty and real_runs.alignment_counts(al)["n"] == 0
