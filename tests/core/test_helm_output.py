"""helm_core.helm_output: HELM output (groups JSON, run folders, zips) into the Release shape, and a clear
DataError for every kind of bad input."""
from __future__ import annotations

import io
import json
import math
import os
import shutil
import stat
import tempfile
import zipfile
from pathlib import Path

import pandas as pd
import pytest

from helm_core import helm_output as ho
from helm_core.data import CORE_GROUPS, DataError, cohort_models, main_metric_table, select_models

FIX = Path(__file__).resolve().parents[1] / "fixtures" / "helm_output"
SUITE = FIX / "runs" / "demo"
GROUPS = FIX / "groups"
MMLU = "mmlu:subject=philosophy,method=multiple_choice_joint,model=eleutherai_gpt-j-6b"
BOOLQ = "boolq:model=eleutherai_pythia-1b-v0,data_augmentation=canonical"
GSM = "gsm:model=local_tiny-model"


def zip_folder(folder: Path, prefix: str = "demo/") -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for p in sorted(folder.rglob("*")):
            if p.is_file():
                z.write(p, prefix + p.relative_to(folder).as_posix())
    return buf.getvalue()


def zip_members(members: list[tuple[str, bytes]], symlink: str | None = None) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in members:
            z.writestr(name, data)
        if symlink:
            info = zipfile.ZipInfo(symlink)
            info.external_attr = (stat.S_IFLNK | 0o777) << 16
            z.writestr(info, "../../etc/passwd")
    return buf.getvalue()


@pytest.fixture
def suite(tmp_path) -> Path:
    dst = tmp_path / "demo"
    shutil.copytree(SUITE, dst)
    return dst


@pytest.fixture(scope="module")
def runs_output():
    return ho.read_helm_output(SUITE)


@pytest.fixture(scope="module")
def tables_output():
    return ho.read_helm_output(GROUPS)


def cell(release, model, scenario, group, metric=None):
    r = release.results
    sel = r[(r["model"] == model) & (r["scenario"] == scenario) & (r["metric_group"] == group)]
    if metric is not None:
        sel = sel[sel["metric"] == metric]
    assert len(sel) == 1, sel
    return sel.iloc[0]


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


@pytest.mark.parametrize("run, labels", [
    (MMLU, ["EM", "EM (Robustness)", "EM (Fairness)", "ECE (10-bin)", "# eval", "# train", "# prompt tokens",
            "Inference time (s)"]),
    (GSM, ["EM", "# eval", "# train", "# prompt tokens", "Inference time (s)"]),
])
def test_run_headline(runs_output, run, labels):
    h = ho.run_headline(runs_output, run)
    assert h["label"].tolist() == labels
    assert h.loc[h["label"] == "# eval", "value"].iloc[0] in (2, 3)


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


# ----------------------------------------------------------------------------- leaderboard tables


@pytest.mark.parametrize("model, scenario, group, metric, value, n_runs, note", [
    ("GPT-J (6B)", "MMLU", "accuracy", "EM", 0.249, 5, ""),
    ("BLOOM (176B)", "BoolQ", "accuracy", "EM", 0.704, 1, "☠"),
    ("BLOOM (176B)", "NarrativeQA", "calibration", "ECE (10-bin)", 0.237, 1, ""),
    ("Tiny local model", "MMLU", "robustness", "EM (Robustness)", 0.190, 5, ""),
    ("Tiny local model", "GSM8K", "accuracy", "EM", 0.5, 1, ""),  # per-scenario table of an extra scenario
])
def test_table_cells(tables_output, model, scenario, group, metric, value, n_runs, note):
    c = cell(tables_output.release, model, scenario, group, metric)
    assert c["value"] == pytest.approx(value)
    assert c["n_runs"] == n_runs
    assert c["note"].startswith(note)


def test_table_blank_cells_and_directions(tables_output):
    rel = tables_output.release
    c = cell(rel, "Tiny local model", "NarrativeQA", "accuracy")
    assert math.isnan(c["value"]) and math.isnan(c["n_runs"])
    r = rel.results
    assert r.loc[r["metric_group"] == "calibration", "lower_is_better"].all()
    assert not r.loc[r["metric_group"] == "accuracy", "lower_is_better"].any()
    eff = cell(rel, "GPT-J (6B)", "GSM8K", "efficiency")
    assert eff["metric"] == "Denoised inference time (s)" and math.isnan(eff["value"])


def test_table_win_rates_and_models(tables_output):
    pub = tables_output.release.published_win_rates.set_index(["model", "metric_group"])["win_rate"]
    assert pub[("BLOOM (176B)", "accuracy")] == 1.0 and pub[("Tiny local model", "accuracy")] == 0.0
    assert ("Tiny local model", "calibration") not in pub.index  # HELM wrote no win rate (null)
    m = tables_output.release.models.set_index("model")
    assert m.loc["BLOOM (176B)", "helm_id"] == "bigscience/bloom" and m.loc["Tiny local model", "access"] == ""
    assert tables_output.runs.empty
    scen = tables_output.release.taxonomy.scenarios
    assert scen["scenario"].tolist() == ["MMLU", "BoolQ", "NarrativeQA", "GSM8K"]


def test_single_groups_file(tmp_path):
    out = ho.read_helm_output(GROUPS / "core_scenarios.json")
    assert set(out.release.taxonomy.scenario_names) == {"MMLU", "BoolQ", "NarrativeQA"}


def test_tables_win_over_runs_when_both(tmp_path):
    out = ho.read_helm_output(FIX)
    assert out.release.meta["loaded_from"] == "groups"
    assert len(out.runs) == 3  # the runs still feed the instance browser
    assert {"Pythia (1B)", "Tiny local model"} <= set(out.release.model_names)
    assert any("leaderboard tables" in n for n in out.release.meta["notes"])


# ----------------------------------------------------------------------------- zips and folders


def test_zip_matches_folder(runs_output):
    data = zip_folder(SUITE)
    z = ho.read_helm_zip(data, "demo.zip")
    pd.testing.assert_frame_equal(z.release.results, runs_output.release.results)
    assert z.release.name == "Your HELM output (demo.zip)"
    assert z.digest == ho.read_helm_zip(data, "other-name.zip").digest  # content hash, not the name
    assert len(z.runs) == 3 and z.instances(MMLU).shape[0] == 6


def test_zip_path_on_disk(tmp_path):
    p = tmp_path / "suite.zip"
    p.write_bytes(zip_folder(SUITE))
    rel = ho.load_helm_output(p)
    assert rel.meta["kind"] == "uploaded" and len(rel.models) == 3


def test_no_temporary_files(monkeypatch):
    def refuse(*a, **k):
        raise AssertionError("the loader must not write temporary files")

    for name in ("mkstemp", "mkdtemp", "TemporaryDirectory", "NamedTemporaryFile", "TemporaryFile"):
        monkeypatch.setattr(tempfile, name, refuse)
    out = ho.read_helm_zip(zip_folder(SUITE), "demo.zip")
    assert len(out.runs) == 3


def test_helm_latest_link_is_skipped(tmp_path):
    runs = tmp_path / "runs"
    shutil.copytree(SUITE, runs / "demo")
    os.symlink("demo", runs / "latest")
    out = ho.read_helm_output(runs)
    assert len(out.runs) == 3  # not 6: the link is not followed
    assert any("latest" in n for n in out.release.meta["notes"])


# ----------------------------------------------------------------------------- errors, one per case


def _write(p: Path, text) -> Path:
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_bytes(text if isinstance(text, bytes) else text.encode())
    return p


def _mutate_json(path: Path, fn) -> None:
    obj = json.loads(path.read_text())
    fn(obj)
    path.write_text(json.dumps(obj))


ERROR_ZIPS = [
    ("traversal", [("../evil/stats.json", b"[]")], None, "outside the archive"),
    ("traversal_backslash", [("demo\\..\\..\\evil.json", b"[]")], None, "outside the archive"),
    ("absolute", [("/etc/stats.json", b"[]")], None, "absolute path"),
    ("drive_letter", [("C:/x/stats.json", b"[]")], None, "absolute path"),
    ("symlink", [("demo/run_spec.json", b"{}")], "demo/stats.json", "symbolic link"),
    ("no_files", [], None, "archive is empty"),
    ("unrelated_files", [("notes.txt", b"hello"), ("img/a.png", b"\x89PNG")], None, "no HELM output found"),
]


@pytest.mark.parametrize("case, members, link, message", ERROR_ZIPS, ids=[c[0] for c in ERROR_ZIPS])
def test_bad_archives(case, members, link, message):
    data = zip_members(members, symlink=link)
    with pytest.raises(DataError, match=message) as e:
        ho.read_helm_zip(data, f"{case}.zip")
    assert f"{case}.zip" in str(e.value)


def test_zip_bomb_like_archive_is_refused_before_reading():
    # 50 MB of zeros compresses to ~50 KB: the declared size is checked against the limit first.
    data = zip_members([("demo/stats.json", b"0" * 50_000_000)])
    assert len(data) < 1_000_000
    with pytest.raises(DataError, match="unpacks to 50.0 MB, over the limit of 10.0 MB"):
        ho.read_helm_zip(data, "bomb.zip", max_bytes=10_000_000)


def test_archive_with_too_many_files():
    data = zip_members([(f"demo/f{i}.txt", b"x") for i in range(30)])
    with pytest.raises(DataError, match="30 files, over the limit of 20"):
        ho.read_helm_zip(data, "many.zip", max_files=20)


def test_folder_over_the_limits(suite):
    with pytest.raises(DataError, match="over the limit"):
        ho.read_helm_output(suite, max_bytes=1000)
    with pytest.raises(DataError, match="more than 5 files"):
        ho.read_helm_output(suite, max_files=5)


def test_member_lying_about_its_size():
    data = bytearray(zip_members([("demo/stats.json", b"[" + b" " * 5000 + b"]")]))
    # Shrink the declared size in the central directory: reading stops at the declared size and the
    # member is reported, instead of trusting more bytes than were declared.
    cd = data.rfind(b"PK\x01\x02")
    data[cd + 24: cd + 28] = (10).to_bytes(4, "little")
    with pytest.raises(DataError, match=r"liar\.zip: member 'demo/stats\.json' (cannot be read|unpacks to more)"):
        ho.read_helm_zip(bytes(data), "liar.zip")


def test_upload_over_the_limit():
    with pytest.raises(DataError, match=r"big\.zip: 0\.0 MB is over the upload limit"):
        ho.read_helm_zip(b"PK" + b"\0" * 2000, "big.zip", max_upload_bytes=1000)


@pytest.mark.parametrize("name, data, message", [
    ("empty.zip", b"", "file is empty"),
    ("random.zip", bytes(range(256)) * 8, "not a readable zip archive"),
    ("truncated.zip", zip_folder(SUITE)[:300], "not a readable zip archive"),
])
def test_not_a_zip(name, data, message):
    with pytest.raises(DataError, match=message) as e:
        ho.read_helm_zip(data, name)
    assert name in str(e.value)


@pytest.mark.parametrize("filename, content, message", [
    ("empty.json", b"", "file is empty"),
    ("random.zip", os.urandom(64) + b"not a zip", "not a readable zip archive"),
    ("notes.txt", b"hello", "expected a .zip archive, a groups .json file or a folder"),
])
def test_bad_single_files(tmp_path, filename, content, message):
    p = _write(tmp_path / filename, content)
    with pytest.raises(DataError, match=message):
        ho.read_helm_output(p)


def test_missing_path(tmp_path):
    with pytest.raises(DataError, match="no such file or folder"):
        ho.read_helm_output(tmp_path / "nope")


def test_empty_folder(tmp_path):
    (tmp_path / "empty").mkdir()
    with pytest.raises(DataError, match="empty: the folder is empty"):
        ho.read_helm_output(tmp_path / "empty")


def test_symlink_in_folder(suite, tmp_path):
    target = _write(tmp_path / "outside.json", "[]")
    os.symlink(target, suite / "escape.json")
    with pytest.raises(DataError, match="escape.json is a symbolic link"):
        ho.read_helm_output(suite)


def test_symlinked_folder_in_folder(suite, tmp_path):
    (tmp_path / "elsewhere").mkdir()
    os.symlink(tmp_path / "elsewhere", suite / "linked")
    with pytest.raises(DataError, match="linked is a symbolic link"):
        ho.read_helm_output(suite)


@pytest.mark.parametrize("file, message", [
    ("stats.json", "stats.json: file is missing"),
    ("run_spec.json", "run_spec.json: file is missing"),
])
def test_missing_required_file(suite, file, message):
    (suite / MMLU / file).unlink()
    with pytest.raises(DataError, match=message) as e:
        ho.read_helm_output(suite)
    assert MMLU in str(e.value)


@pytest.mark.parametrize("rel, message", [
    (f"{MMLU}/stats.json", "stats.json: malformed JSON"),
    (f"{MMLU}/run_spec.json", "run_spec.json: malformed JSON"),
    (f"{MMLU}/scenario_state.json", "scenario_state.json: malformed JSON"),
    (f"{BOOLQ}/per_instance_stats.json", "per_instance_stats.json: malformed JSON"),
    ("schema.json", "schema.json: malformed JSON"),
])
def test_malformed_json_in_runs(suite, rel, message):
    p = suite / rel
    p.write_text(p.read_text()[:-20] + "{{{")
    with pytest.raises(DataError, match=message):
        ho.read_helm_output(suite)


def test_malformed_groups_json(tmp_path):
    _write(tmp_path / "groups" / "core_scenarios.json", '[{"title": "Accuracy", "header": [')
    with pytest.raises(DataError, match=r"groups/core_scenarios\.json: malformed JSON \(.* line 1"):
        ho.read_helm_output(tmp_path)


def test_non_utf8_json(tmp_path):
    _write(tmp_path / "groups" / "x.json", b"\xff\xfe[]")
    with pytest.raises(DataError, match="not UTF-8"):
        ho.read_helm_output(tmp_path)


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


TABLE_TYPE_ERRORS = [
    ("not_a_list", lambda o: {"tables": o}, "expected a list of tables"),
    ("empty_list", lambda o: [], "list of tables is empty"),
    ("table_not_object", lambda o: [1], "table 1: expected a table object"),
    ("header_object", lambda o: [dict(o[0], header={})], "'header': expected a list"),
    ("rows_text", lambda o: [dict(o[0], rows="none")], "'rows': expected a list"),
    ("row_length", lambda o: [dict(o[0], rows=[o[0]["rows"][0][:2]])], "has 2 cells but the header has 5"),
    ("cell_value_text", lambda o: [dict(o[0], rows=[o[0]["rows"][0][:2] + [{"value": "0.5"}] + o[0]["rows"][0][3:]])],
     "expected a number or null, found text"),
    ("model_not_text", lambda o: [dict(o[0], rows=[[{"value": 3}] + o[0]["rows"][0][1:]])],
     "cell 1 'value': expected the model name as text"),
    ("lower_is_better_text", lambda o: [dict(o[0], header=o[0]["header"][:2] + [dict(o[0]["header"][2], lower_is_better="no")]
                                              + o[0]["header"][3:])], "'lower_is_better': expected true, false or null"),
    ("metadata_metric_number", lambda o: [dict(o[0], header=o[0]["header"][:2] + [dict(o[0]["header"][2], metadata={
        "metric": 1, "run_group": "MMLU"})] + o[0]["header"][3:])], "metadata 'metric': expected text"),
]


@pytest.mark.parametrize("case, fn, message", TABLE_TYPE_ERRORS, ids=[c[0] for c in TABLE_TYPE_ERRORS])
def test_wrong_field_types_in_tables(tmp_path, case, fn, message):
    doc = json.loads((GROUPS / "core_scenarios.json").read_text())
    _write(tmp_path / "groups" / "core_scenarios.json", json.dumps(fn(doc)))
    with pytest.raises(DataError, match=message) as e:
        ho.read_helm_output(tmp_path)
    assert "core_scenarios.json" in str(e.value)


def test_tables_without_readable_columns(tmp_path):
    doc = [{"title": "Something", "name": "something_detailed", "header": [{"value": "Model"}], "rows": []}]
    _write(tmp_path / "groups" / "x.json", json.dumps(doc))
    with pytest.raises(DataError, match="no metric columns"):
        ho.read_helm_output(tmp_path)


@pytest.mark.parametrize("raw, expected", [
    ("GPT-J (6B)", "GPT-J (6B)"),
    ("[click](javascript:alert(1))", "(click)(javascript:alert(1))"),
    ("<script>x</script>", "‹script›x‹/script›"),
    ("a\x00b\n\tc", "a b c"),
    ("**bold** $x$ ~~s~~ `c`", "∗∗bold∗∗ ＄x＄ ∼∼s∼∼ 'c'"),
    ("x" * 500, "x" * 120),
])
def test_clean_name(raw, expected):
    assert ho.clean_name(raw) == expected


def test_names_from_files_are_cleaned(tmp_path):
    doc = json.loads((GROUPS / "core_scenarios.json").read_text())
    doc[0]["rows"][0][0]["value"] = "[evil](http://x) <b>"
    _write(tmp_path / "groups" / "core_scenarios.json", json.dumps(doc))
    names = ho.read_helm_output(tmp_path).release.model_names
    assert "(evil)(http://x) ‹b›" in names


def test_core_groups_constant_is_what_gaps_use():
    assert set(ho.core_gaps(ho.read_helm_output(GROUPS).release)["metric_group"]) <= set(CORE_GROUPS)


@pytest.mark.parametrize("name, data, message", [
    ("x.bin", b"hello", "x.bin: expected a .zip archive of HELM output or a groups .json file"),
    ("x.json", b"", "x.json: file is empty"),
    ("x.json", b"{oops", "x.json: malformed JSON"),
    ("x.json", b'{"a": 1}', "x.json: expected a list of tables"),
    ("x.zip", b"PK\x03\x04junk", "x.zip: not a readable zip archive"),
    ("big.json", b"[]" * 600, "big.json: 0.0 MB is over the upload limit"),
])
def test_bad_uploads(name, data, message):
    with pytest.raises(DataError, match=message):
        ho.read_helm_upload(data, name, max_upload_bytes=1000)


def _zip_of(name: str, data: bytes) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr(name, data)
    return buf.getvalue()


@pytest.mark.parametrize("name, data, message", [
    # Over the byte limit: refused before parsing.
    ("huge.json", b"[" + b" " * ho.MAX_JSON_BYTES + b"]", r"huge\.json: 32\.0 MB of JSON is over the per-file limit"),
    # Small in bytes, but millions of tiny objects (each a Python dict): refused before parsing.
    ("many.json", b"[" + b"{}," * ho.MAX_JSON_CONTAINERS + b"{}]", r"many\.json: up to 1,000,002 JSON objects"),
    ("lists.json", b"[" * (ho.MAX_JSON_CONTAINERS + 1), r"lists\.json: up to 1,000,001 JSON objects"),
    # The same limits apply to a file inside a zip, named by its path.
    ("demo.zip", _zip_of("groups/core_scenarios.json", b"[" + b"{}," * ho.MAX_JSON_CONTAINERS + b"{}]"),
     r"groups/core_scenarios\.json: up to 1,000,002 JSON objects"),
])
def test_json_over_the_parse_limits_is_refused_with_its_reason(name, data, message):
    with pytest.raises(DataError, match=message):
        ho.read_helm_upload(data, name)


def test_a_zipped_json_over_the_byte_limit_is_refused_before_it_is_unpacked(monkeypatch):
    # 40 MB of zeros compress to ~40 KB: the declared size is enough to refuse it.
    data = _zip_of("demo/run/stats.json", b"0" * 40_000_000)
    assert len(data) < 1_000_000
    calls = []
    monkeypatch.setattr(ho, "_parse_json", lambda *a: calls.append(a))
    with pytest.raises(DataError, match=r"demo/run/stats\.json: 40\.0 MB of JSON is over the per-file limit"):
        ho.read_helm_upload(data, "bomb.zip")
    assert calls == []


@pytest.mark.parametrize("name, size, message", [
    ("x.zip", 201_000_000, r"x\.zip: 201\.0 MB is over the upload limit of 200\.0 MB"),
    ("x.json", 33_000_000, r"x\.json: 33\.0 MB of JSON is over the per-file limit of 32\.0 MB"),
    ("X.JSON", 33_000_000, r"X\.JSON: 33\.0 MB of JSON"),
    ("x.json", 32_000_000, None),
    ("x.zip", 200_000_000, None),
])
def test_check_upload_size_by_name_and_size_alone(name, size, message):
    if message is None:
        ho.check_upload_size(name, size)
    else:
        with pytest.raises(DataError, match=message):
            ho.check_upload_size(name, size)


def test_json_just_under_the_container_limit_is_parsed():
    data = b"[" + b"[]," * (ho.MAX_JSON_CONTAINERS - 2) + b"[]]"
    with pytest.raises(DataError, match="table 1: expected a table object"):  # parsed, then rejected as a table
        ho.read_helm_upload(data, "flat.json")


def test_upload_of_one_groups_file_and_of_a_zip_without_zip_name():
    one = ho.read_helm_upload((GROUPS / "core_scenarios.json").read_bytes(), "core_scenarios.json")
    assert set(one.release.taxonomy.scenario_names) == {"MMLU", "BoolQ", "NarrativeQA"}
    z = ho.read_helm_upload(zip_folder(SUITE), "suite-without-extension")
    assert len(z.runs) == 3


# ----------------------------------------------------------------------------- robustness (seeded fuzz)

VALUES = [None, "x", 1, -1.5, True, [], {}, [1], {"a": None}]


def _paths(obj, pre=()):
    yield pre
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from _paths(v, pre + (k,))
    elif isinstance(obj, list):
        for i, v in enumerate(obj[:3]):
            yield from _paths(v, pre + (i,))


def _set(obj, path, val):
    if not path:
        return val
    cur = obj
    for p in path[:-1]:
        cur = cur[p]
    cur[path[-1]] = val
    return obj


@pytest.mark.parametrize("seed", range(3))
def test_any_wrong_type_anywhere_gives_a_data_error_or_loads(tmp_path, seed):
    import random

    rng = random.Random(seed)
    files = sorted(FIX.rglob("*.json"))
    for it in range(40):
        root = tmp_path / f"h{it}"
        shutil.copytree(FIX, root)
        f = rng.choice(files)
        obj = json.loads(f.read_text())
        path = rng.choice(list(_paths(obj)))
        (root / f.relative_to(FIX)).write_text(json.dumps(_set(obj, path, rng.choice(VALUES))))
        try:
            out = ho.read_helm_output(root)
            for run in out.runs["run"]:
                out.instances(run)
                ho.run_headline(out, run)
            ho.summary(out)
        except DataError as exc:
            assert str(exc)  # a message, naming what was wrong
        shutil.rmtree(root)


def test_corrupted_archive_bytes_give_a_data_error_or_load():
    import random

    rng = random.Random(7)
    base = zip_folder(FIX, prefix="")
    outcomes = {"loaded": 0, "error": 0}
    for _ in range(300):
        b = bytearray(base)
        for _ in range(rng.randint(1, 20)):
            b[rng.randrange(len(b))] = rng.randrange(256)
        if rng.random() < 0.2:
            b = b[: rng.randrange(len(b))]
        try:
            out = ho.read_helm_upload(bytes(b), "f.zip")
            for run in out.runs["run"]:
                out.instances(run)
            outcomes["loaded"] += 1
        except DataError:
            outcomes["error"] += 1
    assert outcomes["error"] > 0 and sum(outcomes.values()) == 300


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
