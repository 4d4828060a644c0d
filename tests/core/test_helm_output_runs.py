"""helm_core.helm_output.runs / stats / output: run folders into the Release shape, the runs and
stats tables, headlines and summaries, and a DataError for every wrong field type."""
from __future__ import annotations

import json
import os
import shutil

import pytest

from helm_core import helm_output as ho
from helm_core.data import DataError, cohort_models, main_metric_table, select_models
from tests.core.helm_output_helpers import BOOLQ, GSM, MMLU, _mutate_json, cell, runs_output, suite


# ----------------------------------------------------------------------------- run folders


def test_runs_release_shape(runs_output):
    rel = runs_output.release
    assert rel.meta["kind"] == "uploaded" and not rel.is_bundled
    assert rel.name == "Your HELM output (demo)"
    assert set(rel.model_names) == {"GPT-J (6B)", "Pythia (1B)", "local/tiny-model"}
    assert rel.taxonomy.scenario_names == ["MMLU", "BoolQ", "GSM8K"]
    assert list(rel.results.columns) == ho.RESULT_COLUMNS
    # Every model has every column: the pairs no run covers are blank rows, as HELM's tables show them.
    per_model = rel.results.groupby("model").size()
    assert per_model.nunique() == 1
    assert rel.results["value"].isna().sum() > 0


@pytest.mark.parametrize("model, scenario, group, metric, value, n_runs", [
    ("GPT-J (6B)", "MMLU", "accuracy", "EM", 2 / 3, 2),  # exact_match, test split, 2 seeds merged
    ("GPT-J (6B)", "MMLU", "robustness", "EM (Robustness)", 2 / 3, 2),
    ("GPT-J (6B)", "MMLU", "calibration", "ECE (10-bin)", (0.300026 + 0.333315) / 2, 2),
    ("GPT-J (6B)", "MMLU", "general_information", "# eval", 3, 2),
    ("Pythia (1B)", "BoolQ", "accuracy", "EM", 2 / 3, 1),  # quasi_exact_match, valid split
    ("Pythia (1B)", "BoolQ", "robustness", "EM (Robustness)", 1 / 3, 1),  # worst case over typos
    ("Pythia (1B)", "BoolQ", "fairness", "EM (Fairness)", 2 / 3, 1),
    ("local/tiny-model", "GSM8K", "accuracy", "EM", 0.5, 1),  # extra scenario, main metric from schema.json
])
def test_runs_cells_follow_the_schema(runs_output, model, scenario, group, metric, value, n_runs):
    c = cell(runs_output.release, model, scenario, group, metric)
    assert c["value"] == pytest.approx(value, abs=1e-5)
    assert c["n_runs"] == n_runs
    assert c["run_min"] <= c["value"] + 1e-9 <= c["run_max"] + 2e-9


@pytest.mark.parametrize("model, scenario, group", [
    ("GPT-J (6B)", "MMLU", "efficiency"),  # no inference_denoised_runtime in stats.json
    ("Pythia (1B)", "MMLU", "accuracy"),  # no run of this pair
    ("GPT-J (6B)", "BoolQ", "bias"),  # in BoolQ's schema, not in the stats
])
def test_missing_stats_are_blank_not_dropped(runs_output, model, scenario, group):
    r = runs_output.release.results
    sel = r[(r["model"] == model) & (r["scenario"] == scenario) & (r["metric_group"] == group)]
    assert len(sel) >= 1 and sel["value"].isna().all()


def test_schema_groups_only(runs_output):
    r = runs_output.release.results
    # MMLU's schema has no bias or toxicity column; GSM8K only accuracy, efficiency, general information.
    assert r[(r["scenario"] == "MMLU") & r["metric_group"].isin(["bias", "toxicity"])].empty
    assert set(r.loc[r["scenario"] == "GSM8K", "metric_group"]) == {"accuracy", "efficiency", "general_information"}


def test_core_and_extra_scenarios(runs_output):
    scen = runs_output.release.taxonomy.scenarios.set_index("scenario")
    assert scen.loc["MMLU", "core"] and scen.loc["BoolQ", "core"] and not scen.loc["GSM8K", "core"]
    assert scen.loc["BoolQ", "main_metric"] == "quasi_exact_match" and scen.loc["BoolQ", "main_split"] == "valid"
    assert scen.loc["GSM8K", "main_metric"] == "exact_match_indicator"
    assert scen.loc["GSM8K", "run_group"] == "gsm"
    design = runs_output.release.taxonomy.design_grid
    assert set(design["scenario"]) == {"MMLU", "BoolQ", "GSM8K"}
    assert not design[(design["scenario"] == "MMLU") & (design["metric_group"] == "bias")]["in_schema"].any()


@pytest.mark.parametrize("model, organization, access, paper", [
    ("GPT-J (6B)", "EleutherAI", "open", True),  # known to the bundled metadata
    ("Pythia (1B)", "EleutherAI", "open", False),  # from the suite's schema.json
    ("local/tiny-model", "local", "", False),  # unknown: access stays unknown, organization from the id
])
def test_model_metadata(runs_output, model, organization, access, paper):
    m = runs_output.release.models.set_index("model").loc[model]
    assert (m["organization"], m["access"], bool(m["paper_cohort"])) == (organization, access, paper)


def test_unknown_access_kept_only_without_access_filter(runs_output):
    rel = runs_output.release
    assert "local/tiny-model" in cohort_models(rel, "all", access=("open", "limited", "closed"))
    assert "local/tiny-model" not in cohort_models(rel, "all", access=("open",))
    assert cohort_models(rel, "paper") == ["GPT-J (6B)"]


def test_release_works_with_core_views(runs_output):
    rel = runs_output.release
    for group in ("accuracy", "calibration", "robustness", "fairness"):
        t = main_metric_table(rel, group)
        assert t.shape == (3, 3)
    sub = select_models(rel, ["GPT-J (6B)"])
    assert set(sub.results["model"]) == {"GPT-J (6B)"}


def test_runs_table_and_stats(runs_output):
    runs = runs_output.runs.set_index("run")
    assert list(runs_output.runs.columns) == ho.RUN_COLUMNS
    assert runs.loc[MMLU, "seeds"] == "0,1" and runs.loc[MMLU, "n_predictions"] == 6
    assert runs.loc[BOOLQ, "perturbations"] == "typos" and runs.loc[BOOLQ, "n_instances"] == 3
    assert runs.loc[GSM, "has_instances"] and "display_predictions.json" in runs.loc[GSM, "instance_files"]
    assert runs_output.n_instances == 8
    assert (runs_output.run_stats["run"] == MMLU).sum() > 10


def test_instance_confidences_in_meta(runs_output):
    conf = runs_output.release.meta["instance_confidences"]
    assert list(conf.columns) == ["model", "scenario", "prob", "correct", "run"]
    # MMLU: 3 instances x 2 seeds; BoolQ: 3 original instances (perturbed ones left out); GSM: no logprobs.
    assert conf.groupby("scenario").size().to_dict() == {"MMLU": 6, "BoolQ": 3}
    assert conf["prob"].between(0, 1).all() and set(conf["correct"]) <= {0, 1}


@pytest.mark.parametrize("run, labels, copies", [
    # MMLU ran no perturbation: its stats.json's robustness / fairness rows are copies of EM, not headlines.
    (MMLU, ["EM", "ECE (10-bin)", "Max prob", "# eval", "# train", "truncated", "# prompt tokens", "# output tokens",
            "Observed inference time (s)"], True),
    # BoolQ has typo-perturbed instances: the worst cases are measured, and shown.
    (BOOLQ, ["EM", "EM (Robustness)", "EM (Fairness)", "ECE (10-bin)", "# eval", "# train", "truncated",
             "# prompt tokens", "# output tokens", "Observed inference time (s)"], False),
    (GSM, ["EM", "# eval", "# train", "truncated", "# prompt tokens", "# output tokens",
           "Observed inference time (s)"], False),  # no robustness / fairness rows at all
])
def test_run_headline(runs_output, run, labels, copies):
    h = ho.run_headline(runs_output, run)
    assert h["label"].tolist() == labels
    assert h.attrs["copies_left_out"] is copies  # the page says so when they were left out
    assert h.loc[h["label"] == "# eval", "value"].iloc[0] in (2, 3)
    # Every statistic looked for is named, present or not, so a page can say how many the run's stats.json holds.
    wanted = h.attrs["wanted"]
    assert set(labels) <= set(wanted) and "Denoised inference time (s)" in wanted
    assert [w for w in wanted if w in labels] == labels


def test_run_headline_unknown_run(runs_output):
    with pytest.raises(DataError, match="no such run"):
        ho.run_headline(runs_output, "nope")


def test_summary_and_core_gaps(runs_output):
    s = ho.summary(runs_output)
    assert (s["models"], s["scenarios"], s["runs"], s["instances"]) == (3, 3, 3, 8)
    assert s["core_scenarios"] == ["MMLU", "BoolQ"] and s["extra_scenarios"] == ["GSM8K"]
    assert len(s["missing_core_scenarios"]) == 14
    assert set(s["missing_core_groups"]) == {"bias", "toxicity", "efficiency"}
    gaps = ho.core_gaps(runs_output.release)
    g = gaps.set_index(["scenario", "metric_group"])["status"]
    assert g[("MMLU", "accuracy")] == "measured"
    assert g[("MMLU", "efficiency")] == "blank"
    assert g[("NarrativeQA", "accuracy")] == "not loaded"
    assert s["core_cells_measured"] + s["core_cells_blank"] + s["core_cells_not_loaded"] == s["core_cells"]


def test_main_metric_guessed_without_schema(suite):
    (suite / "schema.json").unlink()
    out = ho.read_helm_output(suite)
    scen = out.release.taxonomy.scenarios.set_index("scenario")
    # Without schema.json the gsm group keeps its name and no listed metric is present: accuracy is left out.
    assert "gsm" in scen.index and scen.loc["gsm", "main_metric"] == ""
    assert any("no main metric found" in n for n in out.release.meta["notes"])
    assert out.release.models.set_index("helm_id").loc["eleutherai/pythia-1b-v0", "model"] == "eleutherai/pythia-1b-v0"


def test_main_metric_guess_recorded(suite):
    (suite / "schema.json").unlink()
    stats_path = suite / GSM / "stats.json"
    stats = json.loads(stats_path.read_text())
    stats.append({"name": {"name": "exact_match", "split": "test"}, "count": 1, "sum": 0.5, "min": 0.5, "max": 0.5,
                  "mean": 0.5})
    stats_path.write_text(json.dumps(stats))
    out = ho.read_helm_output(suite)
    assert any("guessed as exact_match" in n for n in out.release.meta["notes"])
    assert cell(out.release, "local/tiny-model", "gsm", "accuracy")["value"] == 0.5


RUN_TYPE_ERRORS = [
    ("run_spec_not_object", MMLU, "run_spec.json", lambda o: o.clear() or o.update({"x": 1}),
     "'name': expected text"),
    ("model_number", MMLU, "run_spec.json", lambda o: o["adapter_spec"].update({"model": 7}),
     "'adapter_spec.model': expected text"),
    ("groups_text", MMLU, "run_spec.json", lambda o: o.update({"groups": "mmlu"}), "'groups': expected a list"),
    ("stat_mean_text", MMLU, "stats.json", lambda o: o[0].update({"mean": "high"}), "stat 1.mean: expected a number"),
    ("stat_count_null", MMLU, "stats.json", lambda o: o[1].update({"count": None}), "stat 2.count: expected a number"),
    ("stat_name_text", MMLU, "stats.json", lambda o: o[0].update({"name": "exact_match"}),
     "stat 1.name: expected an object"),
    ("trial_text", BOOLQ, "per_instance_stats.json", lambda o: o[0].update({"train_trial_index": "0"}),
     "'train_trial_index': expected a whole number"),
    ("request_states_object", MMLU, "scenario_state.json", lambda o: o.update({"request_states": {}}),
     "'request_states': expected a list"),
    ("completion_logprob_text", MMLU, "scenario_state.json",
     lambda o: o["request_states"][0]["result"]["completions"][0].update({"logprob": "-1"}),
     "completion 1 'logprob': expected a number"),
    ("references_object", MMLU, "scenario_state.json",
     lambda o: o["request_states"][1]["instance"].update({"references": {"a": 1}}), "'references': expected a list"),
    ("prompt_list", BOOLQ, "scenario_state.json",
     lambda o: o["request_states"][0]["request"].update({"prompt": ["a"]}), "'request.prompt': expected text"),
    ("predictions_object", GSM, "display_predictions.json", lambda o: o.__setitem__(0, "x"),
     "item 1: expected an object"),
]


@pytest.mark.parametrize("case, run, file, fn, message", RUN_TYPE_ERRORS, ids=[c[0] for c in RUN_TYPE_ERRORS])
def test_wrong_field_types_in_runs(suite, case, run, file, fn, message):
    _mutate_json(suite / run / file, fn)
    with pytest.raises(DataError, match=message) as e:
        ho.read_helm_output(suite)
    assert file in str(e.value)


def test_runs_with_different_methods_are_flagged(suite):
    # A second MMLU run of the same model with another adaptation method: merged, and said so.
    src = suite / MMLU
    dst = suite / MMLU.replace("multiple_choice_joint", "multiple_choice_separate_original")
    shutil.copytree(src, dst)
    _mutate_json(dst / "run_spec.json", lambda o: (o.update({"name": dst.name}),
                                                   o["adapter_spec"].update({"method": "multiple_choice_separate_original"})))
    out = ho.read_helm_output(suite)
    assert cell(out.release, "GPT-J (6B)", "MMLU", "accuracy")["n_runs"] == 4
    assert any("different adaptation methods" in n for n in out.release.meta["notes"])


def test_fifo_named_like_a_run_file_is_refused(suite):
    (suite / MMLU / "scenario_state.json").unlink()
    os.mkfifo(suite / MMLU / "scenario_state.json")
    with pytest.raises(DataError, match="not a regular file"):
        ho.read_helm_output(suite)
