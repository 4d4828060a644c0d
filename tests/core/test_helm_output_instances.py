"""helm_core.helm_output.load_instances and instance_confidences: prompts, completions, references,
seeds, perturbations and the probability of the chosen answer, exactly as the module documents."""
from __future__ import annotations

import json
import math
import shutil
from pathlib import Path

import pandas as pd
import pytest

from helm_core import helm_output as ho
from helm_core.data import DataError

SUITE = Path(__file__).resolve().parents[1] / "fixtures" / "helm_output" / "runs" / "demo"
MMLU = SUITE / "mmlu:subject=philosophy,method=multiple_choice_joint,model=eleutherai_gpt-j-6b"
BOOLQ = SUITE / "boolq:model=eleutherai_pythia-1b-v0,data_augmentation=canonical"
GSM = SUITE / "gsm:model=local_tiny-model"

# (seed, instance) -> (letter written, probabilities of the four letters), as in the fixture builder, whose
# files hold the logs rounded to 4 decimals.
_PROBS = {
    (0, "id101"): ("B", {"B": 0.70, "A": 0.15, "C": 0.10, "D": 0.04}),
    (0, "id102"): ("A", {"A": 0.90, "B": 0.05, "C": 0.03, "D": 0.02}),
    (0, "id103"): ("A", {"A": 0.50, "B": 0.40, "C": 0.05, "D": 0.01}),
    (1, "id101"): ("B", {"B": 0.80, "A": 0.13, "C": 0.04, "D": 0.03}),
    (1, "id102"): ("C", {"C": 0.40, "A": 0.30, "B": 0.10, "D": 0.05}),
    (1, "id103"): ("B", {"B": 0.60, "A": 0.30, "C": 0.04, "D": 0.02}),
}
MMLU_LOGPROBS = {k: (letter, {c: round(math.log(p), 4) for c, p in probs.items()}) for k, (letter, probs) in _PROBS.items()}
MMLU_CORRECT = {"id101": "B", "id102": "A", "id103": "B"}


@pytest.fixture(scope="module")
def mmlu():
    return ho.load_instances(MMLU)


@pytest.fixture(scope="module")
def boolq():
    return ho.load_instances(BOOLQ)


@pytest.fixture
def run_copy(tmp_path):
    def make(src: Path) -> Path:
        dst = tmp_path / src.name
        shutil.copytree(src, dst)
        return dst
    return make


def test_columns_and_rows(mmlu):
    assert list(mmlu.columns) == ho.INSTANCE_COLUMNS
    assert len(mmlu) == 6
    assert sorted(mmlu["train_trial_index"].unique()) == [0, 1]
    assert set(mmlu["split"]) == {"test"} and set(mmlu["perturbation"]) == {""}
    assert set(mmlu["method"]) == {"multiple_choice_joint"}


@pytest.mark.parametrize("key", sorted(MMLU_LOGPROBS), ids=lambda k: f"seed{k[0]}-{k[1]}")
def test_joint_probability_of_the_chosen_letter(mmlu, key):
    seed, iid = key
    letter, lps = MMLU_LOGPROBS[key]
    row = mmlu[(mmlu["train_trial_index"] == seed) & (mmlu["instance_id"] == iid)].iloc[0]
    assert row["completion"] == f" {letter}"
    assert row["prob"] == pytest.approx(math.exp(lps[letter]))
    assert row["prob_normalised"] == pytest.approx(math.exp(lps[letter]) / sum(math.exp(v) for v in lps.values()))
    assert row["prob_source"] == "logprob of the chosen letter"
    assert row["correct"] == float(letter == MMLU_CORRECT[iid])
    # The mapped output is the text of the chosen choice.
    choice = next(r for r in row["references"] if r["label"] == letter)
    assert row["mapped_output"] == choice["text"]


def test_prompt_as_sent_and_references(mmlu):
    row = mmlu[(mmlu["train_trial_index"] == 0) & (mmlu["instance_id"] == "id101")].iloc[0]
    assert row["prompt"].startswith("The following are multiple choice questions (with answers) about philosophy.\n")
    assert row["prompt"].endswith("D. Spinoza\nAnswer:")
    assert "Epistemology" in row["prompt"]  # the in-context examples are part of the prompt
    assert row["input"] == "Which philosopher wrote the <b>Republic</b>? *Answer with a letter*"  # kept verbatim
    refs = row["references"]
    assert [r["label"] for r in refs] == ["A", "B", "C", "D"]
    assert [r["correct"] for r in refs] == [False, True, False, False]
    assert row["stats"]["exact_match"] == 1.0 and "num_prompt_tokens" in row["stats"]


def test_whitespace_is_kept(mmlu):
    row = mmlu[mmlu["instance_id"] == "id102"].iloc[0]
    assert "\n    (indented line)\tand a tab" in row["input"]


def test_seeds_have_their_own_prompts(mmlu):
    a = mmlu[(mmlu["instance_id"] == "id101") & (mmlu["train_trial_index"] == 0)]["prompt"].iloc[0]
    b = mmlu[(mmlu["instance_id"] == "id101") & (mmlu["train_trial_index"] == 1)]["prompt"].iloc[0]
    assert a != b and a.index("Epistemology") < a.index("Critique") and b.index("Critique") < b.index("Epistemology")


@pytest.mark.parametrize("iid, perturbation, completion, correct", [
    ("id201", "", " Yes", 1.0), ("id201", "typos", " Yes", 1.0),
    ("id202", "", " No", 1.0), ("id202", "typos", " Yes", 0.0),
    ("id203", "", " Yes", 0.0), ("id203", "typos", " Yes", 0.0),
])
def test_generation_rows_and_perturbations(boolq, iid, perturbation, completion, correct):
    row = boolq[(boolq["instance_id"] == iid) & (boolq["perturbation"] == perturbation)].iloc[0]
    assert row["completion"] == completion and row["correct"] == correct
    assert row["prob_source"] == "logprob of the completion"
    # The probability of the whole completion, HELM's max_prob, equals the per-instance stat.
    assert row["prob"] == pytest.approx(row["stats"]["max_prob"])
    assert math.isnan(row["prob_normalised"])
    assert row["mapped_output"] == ""


def test_display_files_only(tmp_path):
    df = ho.load_instances(GSM)
    assert len(df) == 2
    row = df[df["instance_id"] == "id301"].iloc[0]
    assert row["prompt"] == "Q: A baker makes 12 rolls and sells 5. How many rolls are left?\nA:"
    assert row["input"].startswith("A baker makes")
    assert row["references"] == [{"text": "7", "correct": True, "label": ""}]
    assert row["completion"].endswith(" 7")
    # Every logprob is 0 in this run: no probability is made up from max_prob = 1.0.
    assert df["prob"].isna().all() and set(df["prob_source"]) == {""}
    assert row["stats"]["exact_match_indicator"] == 1.0


def test_all_zero_logprobs_mean_no_probability(run_copy):
    d = run_copy(BOOLQ)
    state = json.loads((d / "scenario_state.json").read_text())
    for rs in state["request_states"]:
        for c in rs["result"]["completions"]:
            c["logprob"] = 0.0
            for t in c["tokens"]:
                t["logprob"] = 0.0
    (d / "scenario_state.json").write_text(json.dumps(state))
    pis = json.loads((d / "per_instance_stats.json").read_text())
    for item in pis:
        for s in item["stats"]:
            if s["name"]["name"] == "logprob":
                s.update({"sum": 0.0, "mean": 0.0, "min": 0.0, "max": 0.0})
    (d / "per_instance_stats.json").write_text(json.dumps(pis))
    df = ho.load_instances(d)
    assert df["prob"].isna().all()
    assert ho.instance_confidences(df).empty
    assert "no log-probabilities" in ho.describe_prob(df.iloc[0])


def _joint_state(tokens, text=" B", lp=-0.5):
    return (text, lp, tokens)


MAPPING = {"A": "x", "B": "y", "C": "z", "D": "w"}


@pytest.mark.parametrize("top, expected_prob, expected_norm", [
    # chosen letter token with all four letters in top_logprobs
    (_joint_state([(" B", -0.5, {" B": -0.5, " A": -1.0, " C": -2.0, " D": -3.0})]),
     math.exp(-0.5), math.exp(-0.5) / sum(math.exp(v) for v in (-0.5, -1.0, -2.0, -3.0))),
    # only some letters among the top-k: normalised over the ones present (an upper bound)
    (_joint_state([(" B", -0.5, {" B": -0.5, " A": -1.0, " the": -0.2})]),
     math.exp(-0.5), math.exp(-0.5) / (math.exp(-0.5) + math.exp(-1.0))),
    # no top_logprobs (newer HELM): no normalised value
    (_joint_state([(" B", -0.5, None)]), math.exp(-0.5), float("nan")),
    # the letter token is not first: the letter's own token is used, not the whole completion
    (_joint_state([(" ", -0.1, None), ("B", -0.7, None)], text=" B", lp=-0.8), math.exp(-0.7), float("nan")),
    # the model wrote something that is not a letter: the whole completion's probability
    (_joint_state([(" Plato", -1.2, None)], text=" Plato", lp=-1.2), math.exp(-1.2), float("nan")),
])
def test_joint_prob_cases(top, expected_prob, expected_norm):
    p, n = ho.instances._joint_prob(top, MAPPING)
    assert p == pytest.approx(expected_prob)
    if math.isnan(expected_norm):
        assert math.isnan(n)
    else:
        assert n == pytest.approx(expected_norm)


def test_separate_method_uses_max_prob_stat(run_copy):
    d = run_copy(BOOLQ)
    spec = json.loads((d / "run_spec.json").read_text())
    spec["adapter_spec"]["method"] = "multiple_choice_separate_original"
    (d / "run_spec.json").write_text(json.dumps(spec))
    state = json.loads((d / "scenario_state.json").read_text())
    state["adapter_spec"]["method"] = "multiple_choice_separate_original"
    # Two request states per instance (one per reference), as HELM writes for separate methods.
    extra = []
    for rs in state["request_states"]:
        rs["reference_index"], rs["request_mode"] = 0, "original"
        twin = json.loads(json.dumps(rs))
        twin["reference_index"] = 1
        extra.append(twin)
    state["request_states"] += extra
    (d / "scenario_state.json").write_text(json.dumps(state))
    df = ho.load_instances(d)
    # One row per instance (3 originals + 3 typos), not one per request.
    assert len(df) == 6 and set(df["prob_source"]) == {"max_prob stat"}
    assert not df.duplicated(["instance_id", "train_trial_index", "perturbation"]).any()
    # No predicted_index stat, and these completions do not end with an option's text: no chosen option.
    assert df["reference_index"].isna().all() and set(df["choice_source"]) == {""}
    conf = ho.instance_confidences(df)
    assert len(conf) == 3  # one per original instance, not one per reference


@pytest.mark.parametrize("kwargs, n, correct_sum", [
    ({}, 3, 2),  # original instances only (the default)
    ({"perturbation": "typos"}, 3, 1),
    ({"perturbation": None}, 6, 3),
    ({"split": "test"}, 0, 0),
])
def test_instance_confidences_boolq(boolq, kwargs, n, correct_sum):
    conf = ho.instance_confidences(boolq, **kwargs)
    assert list(conf.columns) == ["prob", "correct"]
    assert len(conf) == n and int(conf["correct"].sum()) == correct_sum
    assert conf["correct"].dtype == "int64"


def test_instance_confidences_normalised(mmlu):
    a = ho.instance_confidences(mmlu)
    b = ho.instance_confidences(mmlu, normalised=True)
    assert len(a) == len(b) == 6
    # The letters' probabilities sum to at most 1 (up to the 4-decimal rounding of the logs in the files), so
    # normalising over them can only raise the value.
    assert (b["prob"] >= a["prob"] - 1e-4).all()
    assert ((b["prob"] - a["prob"]).abs() > 1e-3).any()
    assert a["correct"].tolist() == b["correct"].tolist() == [1, 1, 0, 1, 0, 1]


def test_confidences_feed_the_calibration_module(mmlu):
    from helm_core import calibration

    conf = ho.instance_confidences(mmlu)
    ece = calibration.ece(conf["prob"], conf["correct"])
    assert 0 <= ece <= 1


@pytest.mark.parametrize("seed, perturbation, text, n", [
    (None, None, "", 6), (0, None, "", 3), (None, "", "", 6), (None, "typos", "", 0),
    (None, None, "republic", 2),  # case-insensitive, input / prompt / references
    (None, None, "spinoza", 2), (None, None, "<b>", 2), (1, None, "utilitarianism", 1),
    (None, None, "no such text anywhere", 0),
])
def test_filter_instances(mmlu, seed, perturbation, text, n):
    assert len(ho.filter_instances(mmlu, seed, perturbation, text)) == n


def test_instance_stats_table(mmlu):
    t = ho.instance_stats_table(mmlu.iloc[0]["stats"])
    assert list(t.columns) == ["stat", "value"] and "exact_match" in set(t["stat"])


def test_not_a_run_folder(tmp_path):
    with pytest.raises(DataError, match="not a run folder"):
        ho.load_instances(tmp_path / "nope")
    (tmp_path / "r").mkdir()
    (tmp_path / "r" / "stats.json").write_text("[]")
    with pytest.raises(DataError, match="no per-instance files"):
        ho.load_instances(tmp_path / "r")


def test_per_instance_stats_wrong_type(run_copy):
    d = run_copy(MMLU)
    (d / "per_instance_stats.json").write_text(json.dumps({"instance_id": "x"}))
    with pytest.raises(DataError, match="per_instance_stats.json: expected a list"):
        ho.load_instances(d)


def test_frame_is_a_dataframe_with_text_columns(mmlu):
    assert isinstance(mmlu, pd.DataFrame)
    for c in ("input", "prompt", "completion", "mapped_output", "perturbation"):
        assert mmlu[c].map(lambda v: isinstance(v, str)).all(), c


# ----------------------------------------------------------------------------- multiple_choice_separate_*

SEPARATE_SUITE = Path(__file__).resolve().parents[1] / "fixtures" / "helm_output_separate" / "runs" / "separate"
SEPARATE = "commonsense:dataset=hellaswag,method=multiple_choice_separate_original,model=eleutherai_pythia-1b-v0"


def _raw_separate(folder: Path):
    state = json.loads((folder / "scenario_state.json").read_text())
    pis = json.loads((folder / "per_instance_stats.json").read_text())
    stats = {p["instance_id"]: {s["name"]["name"]: s["mean"] for s in p["stats"]} for p in pis}
    return state["request_states"], stats


def test_separate_run_shows_each_instance_once_with_every_option():
    df = ho.load_instances(SEPARATE_SUITE / SEPARATE)
    states, stats = _raw_separate(SEPARATE_SUITE / SEPARATE)
    ids = sorted({rs["instance"]["id"] for rs in states})
    assert len(states) == 12 and df["instance_id"].tolist() == ids  # 12 requests, 3 instances
    for _, row in df.iterrows():
        s = stats[row["instance_id"]]
        chosen = int(s["predicted_index"])
        assert row["reference_index"] == chosen and row["choice_source"] == "HELM's predicted_index"
        assert [r["chosen"] for r in row["references"]] == [i == chosen for i in range(4)]
        assert row["correct"] == s["exact_match"] == float(row["references"][chosen]["correct"])
        assert row["prob"] == pytest.approx(s["max_prob"]) and row["prob_source"] == "max_prob stat"
        mine = [rs for rs in states if rs["instance"]["id"] == row["instance_id"]]
        for rs in mine:  # every option's log-probability: the sum over its answer tokens in its own request
            ref = rs["instance"]["references"][rs["reference_index"]]["output"]["text"]
            n = len(ref.split(" "))
            toks = rs["result"]["completions"][0]["tokens"][-n:]
            got = row["references"][rs["reference_index"]]
            assert got["logprob"] == pytest.approx(sum(t["logprob"] for t in toks)) and got["tokens"] == n
        chosen_rs = next(rs for rs in mine if rs["reference_index"] == chosen)
        assert row["prompt"] == chosen_rs["request"]["prompt"]
        assert row["mapped_output"] == row["references"][chosen]["text"]


def test_separate_run_the_defect_case_is_not_marked_correct():
    # id302: the model chose option 3 (index 2); the correct option is the first one, which it did not choose.
    df = ho.load_instances(SEPARATE_SUITE / SEPARATE).set_index("instance_id")
    row = df.loc["id302"]
    assert row["correct"] == 0.0 and row["reference_index"] == 2
    correct_ref = next(r for r in row["references"] if r["correct"])
    assert correct_ref["text"] == "glides across the ice." and not correct_ref["chosen"]
    conf = ho.instance_confidences(df.reset_index())
    assert len(conf) == 3 and conf["correct"].tolist() == [1, 0, 1]


def test_separate_run_without_predicted_index_recomputes_it_as_helm(tmp_path):
    d = tmp_path / SEPARATE
    shutil.copytree(SEPARATE_SUITE / SEPARATE, d)
    pis = json.loads((d / "per_instance_stats.json").read_text())
    for p in pis:
        p["stats"] = [s for s in p["stats"] if s["name"]["name"] not in ("predicted_index", "exact_match")]
    (d / "per_instance_stats.json").write_text(json.dumps(pis))
    with_helm = ho.load_instances(SEPARATE_SUITE / SEPARATE)
    df = ho.load_instances(d)
    assert df["reference_index"].tolist() == with_helm["reference_index"].tolist() == [1.0, 2.0, 3.0]
    assert set(df["choice_source"]) == {"recomputed from the log-probabilities"}
    # Per-token mean, not the total: id303's option 1 ("serves.") has the highest total but is not chosen.
    assert df["correct"].tolist() == with_helm["correct"].tolist() == [1.0, 0.0, 1.0]


def test_separate_run_in_a_suite_eager_and_lazy():
    out = ho.read_helm_output(SEPARATE_SUITE)
    assert out.runs["n_instances"].tolist() == [3]
    conf = out.release.meta["instance_confidences"]
    assert len(conf) == 3  # one confidence per instance, not one per request
    lazy = ho.read_helm_output(SEPARATE_SUITE, eager_instance_bytes=0)
    pd.testing.assert_frame_equal(lazy.instances(SEPARATE), out.instances(SEPARATE))
