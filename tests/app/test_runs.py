"""The runs page: with the bundled release it explains what HELM publishes; with loaded run folders it
browses instances (prompt as text, completion, references, stats, filters, search, next/previous)."""
from __future__ import annotations

import html
from pathlib import Path

import pytest

from helm_core import escape

from streamlit.testing.v1 import AppTest

from .helpers import shown, LSAT_JOINT, LSAT_SEPARATE, SUITE_0516, assert_clean, open_lazy, open_page, texts

SUITE = Path(__file__).resolve().parents[1] / "fixtures" / "helm_output" / "runs" / "demo"
MMLU = "mmlu:subject=philosophy,method=multiple_choice_joint,model=eleutherai_gpt-j-6b"
BOOLQ = "boolq:model=eleutherai_pythia-1b-v0,data_augmentation=canonical"
GSM = "gsm:model=local_tiny-model"


@pytest.fixture
def local(monkeypatch):
    """The app started with `--helm-output` (here through HELM_OUTPUT): the suite is the default dataset."""
    monkeypatch.setenv("HELM_OUTPUT", str(SUITE))


def open_runs(query: dict[str, str]) -> AppTest:
    """The runs page opened from a link with page parameters."""
    return open_page("app_pages/runs.py", query=query)


def metrics(at) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def codes(at) -> list[str]:
    return [c.value for c in at.code]


def caption(at) -> str:
    return "\n".join(str(c.value) for c in at.caption)


def test_bundled_release_opens_on_genuine_runs_and_links_to_helm():
    at = open_page("app_pages/runs.py")
    t = texts(at)
    # No upload: the bundled genuine runs, their source named, the leaderboard's limits said.
    assert "Genuine HELM run folders" in t and "hold aggregates only, not prompts or completions" in t
    assert "development runs, not a release" in t
    assert any(getattr(p, "label", "") == "Load your own HELM output" for p in at.get("page_link"))
    open_lazy(at, "What HELM publishes per run")
    t = texts(at)
    assert "scenario_state.json" in t and "display_predictions.json" in t
    assert "https://crfm.stanford.edu/helm/classic/latest/" in t


def test_run_page_shows_headline_and_instance(local):
    at = open_runs({"run": MMLU})
    m = metrics(at)
    assert m["EM"] == "0.667" and m["# eval"] == "3" and m["ECE (10-bin)"] == "0.317"
    assert m["Correct"] == "yes ✓" and m["P(chosen answer)"] == "70.0%"
    c = codes(at)
    # The prompt, verbatim, in a code block: HTML and markdown-looking text stays text.
    prompt = next(v for v in c if v.startswith("The following are multiple choice questions"))
    assert "Which philosopher wrote the <b>Republic</b>? *Answer with a letter*" in prompt
    assert prompt.endswith("Answer:")
    assert " B" in c
    assert all("<b>Republic</b>" not in str(md.value) for md in at.markdown)
    assert "Instance 1 of 6" in caption(at)
    refs = [d.value for d in at.table if "reference" in d.value.columns][0]
    assert refs.loc[refs["correct"] == "✓ correct", "reference"].tolist() == ["Plato"]


def test_next_instance_and_seed_filter(local):
    at = open_runs({"run": MMLU})
    at.pagination(key="instance").set_value(2).run()
    assert_clean(at)
    assert "Instance 2 of 6" in caption(at) and "id id102" in caption(at)
    at.selectbox(key="runs_seed").set_value("1").run()
    assert "of 3" in caption(at)
    assert "seed 1" in caption(at)


def test_instance_from_the_link(local):
    at = open_runs({"run": MMLU, "instance": "3"})
    assert "Instance 3 of 6" in caption(at) and "id id103" in caption(at)
    assert metrics(at)["Correct"] == "no ✗"


def test_search_and_perturbation_filter(local):
    at = open_runs({"cohort": "all", "run": BOOLQ})
    assert "Instance 1 of 6" in caption(at)
    at.text_input(key="runs_search").set_value("penguins").run()
    assert "of 2" in caption(at)
    assert any("Penguins" in v for v in codes(at))
    at.selectbox(key="runs_perturbation").set_value("typos").run()
    assert_clean(at)
    assert "of 1" in caption(at) and "perturbation typos" in caption(at)
    at.text_input(key="runs_search").set_value("no such words").run()
    assert any("No instance of this run matches" in i.value for i in at.info)


def test_display_files_only_run(local):
    at = open_runs({"cohort": "all", "run": GSM})
    assert "Q: A baker makes 12 rolls and sells 5. How many rolls are left?\nA:" in codes(at)
    assert metrics(at)["P(chosen answer)"] == "–"
    assert "no log-probabilities" in caption(at)


def test_scenario_and_model_filters_narrow_the_runs(local):
    at = open_page("app_pages/runs.py", query={"cohort": "all"})
    assert len(at.selectbox(key="run").options) == 3
    at.selectbox(key="runs_scenario").set_value("BoolQ").run()
    assert at.selectbox(key="run").options == [BOOLQ]
    at.selectbox(key="runs_scenario").set_value("all").run()
    at.selectbox(key="runs_model").set_value("GPT-J (6B)").run()
    assert at.selectbox(key="run").options == [MMLU]


def test_cohort_filter_applies(local):
    at = open_page("app_pages/runs.py", query={"cohort": "paper"})
    assert at.selectbox(key="run").options == [MMLU]  # GPT-J is the only paper-cohort model
    at = open_page("app_pages/runs.py", query={"access": "closed"})
    assert any("No run of the loaded dataset" in i.value for i in at.info)


def test_invalid_run_in_the_link_falls_back(local):
    # (The notice itself is a toast, which AppTest shows only on an app's first run; the browser test
    # checks it.)
    at = open_runs({"run": "no-such-run", "instance": "99"})
    assert_clean(at)
    assert at.selectbox(key="run").value == at.selectbox(key="run").options[0]
    assert "Instance 1 of" in caption(at)


def test_groups_only_dataset_says_there_are_no_runs(monkeypatch):
    monkeypatch.setenv("HELM_OUTPUT", str(SUITE.parents[1] / "groups"))
    at = open_page("app_pages/runs.py")
    assert "leaderboard tables only" in texts(at)


SEPARATE_SUITE = Path(__file__).resolve().parents[1] / "fixtures" / "helm_output_separate" / "runs" / "separate"
SEPARATE = "commonsense:dataset=hellaswag,method=multiple_choice_separate_original,model=eleutherai_pythia-1b-v0"


@pytest.mark.parametrize("page, iid, chosen, correct, correct_text", [
    ("1", "id301", "paints the wall with a roller.", "yes ✓", "paints the wall with a roller."),
    ("2", "id302", "stands up and skates very slowly backwards.", "no ✗", "glides across the ice."),
    ("3", "id303", "returns the serve.", "yes ✓", "returns the serve."),
])
def test_separate_method_run_shows_one_instance_with_every_option(monkeypatch, page, iid, chosen, correct, correct_text):
    # One request per answer option in the files; one instance on the page, with each option's log-probability,
    # the option the model chose (HELM's predicted_index) and whether that choice was correct.
    monkeypatch.setenv("HELM_OUTPUT", str(SEPARATE_SUITE))
    at = open_runs({"run": SEPARATE, "instance": page})
    assert_clean(at)
    assert f"Instance {page} of 3" in caption(at) and f"id {iid}" in caption(at)
    assert "chose option" in caption(at) and "reference" not in caption(at).split(iid)[1].split("\n")[0]
    assert metrics(at)["Correct"] == correct
    refs = [d.value for d in at.table if "reference" in d.value.columns][0]
    assert len(refs) == 4 and refs["log-prob"].notna().all()
    assert refs.loc[refs["chosen"] == "◀ chosen", "reference"].tolist() == [chosen]
    assert refs.loc[refs["correct"] == "✓ correct", "reference"].tolist() == [correct_text]
    assert "Chosen option: HELM's predicted_index" in shown(caption(at))


def test_large_suite_is_read_lazily_and_a_run_opens(monkeypatch, tmp_path):
    # A suite over the eager threshold: the runs table comes from stats.json, the progress bar is gone once
    # the suite is loaded, and opening a run reads its instance files (a spinner while they are read).
    from bench.synth_suite import make_suite
    from helm_core.helm_output import output

    suite = make_suite(tmp_path / "suite", 4, 20_000)
    monkeypatch.setattr(output, "EAGER_INSTANCE_BYTES", 0)
    monkeypatch.setenv("HELM_OUTPUT", str(suite))
    run = "mmlu:subject=philosophy,method=multiple_choice_joint,model=synthetic_model-0002"
    at = open_runs({"run": run})
    assert_clean(at)
    assert not at.get("progress")
    assert "Run (12 match)" in [s.label for s in at.selectbox]
    assert "synthetic/model-0002 · MMLU" in shown(caption(at)) and "10 instances" in caption(at)
    assert "Instance 1 of" in caption(at) and any(c.startswith("The following are multiple choice") for c in codes(at))


def test_calibration_on_a_lazily_read_suite_says_why_it_has_no_confidences(monkeypatch, tmp_path):
    # A suite over the eager threshold keeps no per-instance confidences at load: the calibration page says why
    # (not "carries no per-instance confidences", which would be false for a suite with log-probabilities).
    from bench.synth_suite import make_suite
    from helm_core.helm_output import output

    from .helpers import open_story_page

    suite = make_suite(tmp_path / "suite", 2, 20_000)
    monkeypatch.setattr(output, "EAGER_INSTANCE_BYTES", 0)
    monkeypatch.setenv("HELM_OUTPUT", str(suite))
    at = open_story_page("app_pages/calibration.py", {"cohort": "all"})
    assert_clean(at)
    said = texts(at)
    assert "instance files were not read at load" in said
    assert "carries no per-instance confidences" not in said


# ----------------------------------------------------------------------------- a suite like crfm-helm 0.5.16 output

TINY_BABI = "babi_qa:task=15,model=local_tiny-gpt2"


@pytest.fixture
def suite_0516(monkeypatch):
    monkeypatch.setenv("HELM_OUTPUT", str(SUITE_0516))


def setting_table(at):
    """The run spec's settings as shown: st.table renders Markdown, so the file's text is escaped."""
    return next(d.value for d in at.table if list(d.value.columns) == ["setting", "value"]).set_index("setting")["value"]


def test_headline_without_perturbations_has_no_worst_case_copies(suite_0516):
    at = open_runs({"cohort": "all", "run": LSAT_JOINT})
    m = metrics(at)
    # stats.json holds EM (Robustness) / (Fairness) rows, copies of EM: no perturbation ran, so none is a headline.
    assert not [k for k in m if "Robustness" in k or "Fairness" in k]
    assert "No perturbation was run" in caption(at)
    assert (m["EM"], m["truncated"], m["# output tokens"], m["Max prob"]) == ("0.600", "0.200", "1.0", "0.450")
    assert "ECE (10-bin)" not in m  # the suite's calibration column is Max prob
    assert m["Observed inference time (s)"] == "47.7 ms"


def test_headline_with_perturbations_keeps_the_worst_case(local):
    m = metrics(open_runs({"cohort": "all", "run": BOOLQ}))
    assert m["EM (Robustness)"] == "0.333" and m["EM (Fairness)"] == "0.667"


def test_microsecond_runtimes_keep_their_scale(suite_0516):
    m = metrics(open_runs({"cohort": "all", "run": TINY_BABI}))
    assert m["Observed inference time (s)"] == "19.4 µs"


@pytest.mark.parametrize("run, expected", [
    (LSAT_JOINT, {"method": "multiple_choice_joint", "in-context examples": "2", "max tokens": "1",
             "instructions": '"The following are multiple choice questions (with answers).\\n"'}),
    (LSAT_SEPARATE, {"method": "multiple_choice_separate_original", "in-context examples": "0", "max tokens": "0"}),
])
def test_run_spec_beside_the_run(suite_0516, run, expected):
    s = setting_table(open_runs({"cohort": "all", "run": run}))
    for k, v in expected.items():
        assert s[escape.markdown(k)] == escape.markdown(v)
    assert {escape.markdown(k) for k in ("temperature", "stop sequences", "outputs per request")} <= set(s.index)


def test_filter_by_any_per_instance_metric(suite_0516):
    at = open_runs({"cohort": "all", "run": LSAT_JOINT, "runs_metric": "max_prob"})
    assert at.selectbox(key="runs_metric").value == "max_prob"
    assert "Instance 1 of 5" in caption(at)
    slider = at.slider[0]
    lo, hi = slider.value
    assert (round(lo, 3), round(hi, 3)) == (0.301, 0.664)  # the run's own per-instance max_prob range
    slider.set_value((0.4, hi)).run()
    assert_clean(at)
    assert "3 instances of 5 with this metric in range" in caption(at) and "Instance 1 of 3" in caption(at)
    # With the outcome filter: every instance with max_prob ≥ 0.4 was answered correctly, so none is incorrect.
    at.segmented_control(key="runs_outcome").set_value("incorrect").run()
    assert any("No instance of this run matches" in i.value for i in at.info)


def test_two_runs_side_by_side_joint_vs_separate(suite_0516):
    at = open_runs({"cohort": "all", "run": LSAT_JOINT, "runs_model": "Pythia (70M)", "runs_scenario": "LSAT"})
    box = at.selectbox(key="runs_compare")
    assert box.options == ["(none)", LSAT_SEPARATE]  # the same model's other LSAT run
    box.set_value(LSAT_SEPARATE).run()
    assert_clean(at)
    m = metrics(at)
    # Joint: 3 of 5 right (EM 0.6); separate: 4 of 5 (EM 0.8); aligned by HELM's instance id.
    assert (m["Shared instances"], m["Both correct"], m["Only A correct"], m["Only B correct"]) == ("5", "3", "0", "1")
    aligned = next(d.value for d in at.dataframe if "answer_a" in d.value.columns)
    assert aligned["instance_id"].tolist() == ["id1401", "id1402", "id1403", "id1404", "id1405"]
    assert aligned.loc[1, "correct_a"] == "✗ incorrect" and aligned.loc[1, "correct_b"] == "✓ correct"
    diff = next(d.value for d in at.table if list(d.value.columns) == ["setting", "A", "B"]).set_index("setting")
    assert diff.loc["method", "B"] == escape.markdown("multiple_choice_separate_original")
    assert diff.loc[escape.markdown("in-context examples"), "A"] == "2"


def test_links_with_model_and_scenario_filter_the_runs(suite_0516):
    at = open_runs({"cohort": "all", "runs_model": "Tiny GPT-2 (local)", "runs_scenario": "bAbI"})
    assert at.selectbox(key="run").options == [TINY_BABI]
    # The suite has groups files: a link back to its leaderboard.
    back = "HELM's Leaderboard: this suite's own tables (groups/*.json), each cell linked to its runs"
    assert back in [p.label for p in at.get("page_link")]


def test_no_leaderboard_link_for_a_suite_without_groups_files(local):
    at = open_runs({"cohort": "all"})
    assert not [p for p in at.get("page_link") if p.label.startswith("HELM's Leaderboard: this suite")]
    bad = open_runs({"cohort": "all", "runs_model": "<script>", "runs_scenario": "nope"})
    assert bad.selectbox(key="runs_model").value == "all" and bad.selectbox(key="runs_scenario").value == "all"


@pytest.mark.parametrize("key, bad", [("runs_metric", "no_such_stat"), ("runs_metric", "<b>x</b>"),
                                      ("runs_compare", "no-such-run"), ("runs_compare", LSAT_JOINT)])
def test_bad_metric_or_compare_in_the_link_falls_back(suite_0516, key, bad):
    # LSAT_JOINT as the run to compare with while LSAT_JOINT is open: not one of the other runs, so no comparison.
    at = open_runs({"cohort": "all", "run": LSAT_JOINT, key: bad})
    assert at.selectbox(key=key).value == "(none)"
    assert "Shared instances" not in metrics(at) and not at.slider


@pytest.mark.parametrize("run", [LSAT_JOINT, TINY_BABI])
def test_headline_says_how_many_statistics_the_stats_file_holds(suite_0516, run):
    """The runs page says how many of the headline statistics it looks for the run's stats.json holds, and which it
    lacks (never "none" for a run that has some)."""
    from helm_core import helm_output

    out = helm_output.read_helm_output(SUITE_0516)
    head = helm_output.run_headline(out, run)
    wanted = head.attrs["wanted"]
    at = open_runs({"cohort": "all", "run": run})
    said = shown(caption(at))
    assert f"This run's stats.json holds {len(head)} of the {len(wanted)} headline statistics looked for; not in it:" \
        in said
    assert "none of the" not in said
    for label in wanted:
        if label not in set(head["label"]):
            assert label in said
