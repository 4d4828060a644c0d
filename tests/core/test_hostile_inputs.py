"""Hostile and genuine-but-unusual HELM output, at the loading layer (issue 29): every groups table gets a label;
values HELM could not have produced are refused by name and kept out of results; duplicate runs and archive
members are made explicit; counts come from stats.json when no instance file is read; directions come from the
schema; a run's trials inside it are exposed; the headline of a run without schema.json is found.

The variants start from tests/fixtures/helm_output_0516 (built like crfm-helm 0.5.16 output) and change one thing.
"""
from __future__ import annotations

import json
import math
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from helm_core import calibration, grid, helm_output as ho, leaderboard, limits_evidence, sensitivity, validity
from helm_core.data import DataError, load_bundled, load_release
from tests.core.helm_output_helpers import zip_folder, zip_members

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
S0516 = FIXTURES / "helm_output_0516"
MY = "runs/my-suite"
JOINT = "lsat_qa:task=all,method=multiple_choice_joint,model=eleutherai_pythia-70m"
SEPARATE = "lsat_qa:task=all,method=multiple_choice_separate_original,model=eleutherai_pythia-70m"
BABI_P = "babi_qa:task=15,model=eleutherai_pythia-70m"
BABI_T = "babi_qa:task=15,model=local_tiny-gpt2"
EXAMPLES = FIXTURES / "helm_run_examples"
DATA = Path(__file__).resolve().parents[2] / "data"


def variant(tmp_path: Path, *, groups: bool = True, schema: bool = True) -> Path:
    """A copy of the 0516 suite (optionally without its groups tables or schema.json) to change."""
    dst = tmp_path / "out"
    shutil.copytree(S0516, dst)
    if not groups:
        shutil.rmtree(dst / MY / "groups")
    if not schema:
        (dst / MY / "schema.json").unlink()
    return dst


def edit(path: Path, fn) -> None:
    obj = json.loads(path.read_text())
    out = fn(obj)
    path.write_text(json.dumps(obj if out is None else out))  # allow_nan: Infinity / -Infinity as Python writes them


def set_stat(root: Path, run: str, name: str, **values) -> None:
    def fn(stats):
        hit = [s for s in stats if s["name"]["name"] == name and not s["name"].get("perturbation")]
        assert hit, name
        for s in hit:
            s.update(values)
    edit(root / MY / run / "stats.json", fn)


# ----------------------------------------------------------------------------- 1. groups tables' labels


PER_SCENARIO = sorted(p.name for p in (S0516 / MY / "groups").glob("*.json") if p.name != "core_scenarios.json")


def test_the_genuine_shaped_fixture_has_helm_s_empty_titles():
    """helm-summarize titles a scenario table with its scenario args: "" for a scenario without any."""
    titles = {f: [t["title"] for t in json.loads((S0516 / MY / "groups" / f).read_text())] for f in PER_SCENARIO}
    assert titles["sst.json"] == [""] and titles["legal_support.json"] == [""]


@pytest.mark.parametrize("file", PER_SCENARIO)
def test_every_groups_table_gets_a_nonempty_unique_meaningful_title(file):
    doc = json.loads((S0516 / MY / "groups" / file).read_text())
    tables = leaderboard.parse_tables(doc, f"groups/{file}")
    titles = [t.title for t in tables]
    assert all(t.strip() for t in titles) and len(set(titles)) == len(titles)
    for raw, t in zip(doc, tables):
        assert t.helm_title == raw["title"]  # HELM's own title is kept
        if raw["title"]:
            assert t.title == raw["title"]
        else:  # the run group HELM's header cells name (their metadata.run_group), not a placeholder
            assert t.title == raw["header"][1]["metadata"]["run_group"]


def test_tables_with_the_same_or_no_title_are_told_apart():
    doc = json.loads((S0516 / MY / "groups" / "sst.json").read_text())
    twin = json.loads(json.dumps(doc[0]))
    bare = json.loads(json.dumps(doc[0]))
    for h in bare["header"]:
        h.pop("metadata", None)
    tables = leaderboard.parse_tables([doc[0], twin, bare], "groups/sst.json")
    assert [t.title for t in tables] == ["SST", "SST (2)", "sst"]  # the last: the file's group (no metadata)


def test_a_single_groups_file_upload_has_labelled_tables():
    """A supported route: one groups/<group>.json uploaded alone."""
    path = S0516 / MY / "groups" / "legal_support.json"
    out = ho.read_helm_upload(path.read_bytes(), "legal_support.json")
    assert [t.title for t in out.leaderboard()] == ["LegalSupport"]


# ----------------------------------------------------------------------------- 2, 3. values HELM cannot produce


def _runs_variant(tmp_path, change) -> ho.HelmOutput:
    root = variant(tmp_path, groups=False)
    change(root)
    return ho.read_helm_output(root)


STAT_CASES = [
    # (id, run, stat, values, results metric, model, scenario)
    ("em_infinity", JOINT, "exact_match", {"mean": math.inf, "sum": math.inf, "max": math.inf}, "EM", "Pythia (70M)", "LSAT"),
    ("em_1e308", JOINT, "exact_match", {"mean": 1e308, "sum": 1e308, "max": 1e308}, "EM", "Pythia (70M)", "LSAT"),
    ("em_negative", BABI_T, "exact_match", {"mean": -3.5, "sum": -3.5, "min": -3.5}, "EM", "Tiny GPT-2 (local)", "bAbI"),
    ("runtime_negative", BABI_T, "inference_runtime", {"mean": -0.5, "sum": -0.5, "min": -0.5},
     "Observed inference time (s)", "Tiny GPT-2 (local)", "bAbI"),
    ("tokens_minus_infinity", BABI_T, "num_prompt_tokens", {"mean": -math.inf, "sum": -math.inf},
     "# prompt tokens", "Tiny GPT-2 (local)", "bAbI"),
    ("max_prob_minus_2", JOINT, "max_prob", {"mean": -2.0, "sum": -2.0, "min": -2.0}, "Max prob", "Pythia (70M)", "LSAT"),
]


def _finite_and_in_range(release) -> None:
    r = release.results
    v = r["value"].to_numpy(float)
    assert not np.isinf(v).any()
    bad = validity.out_of_range(v, *validity.bounds(r["metric"]))
    assert not bad.any(), r[bad]
    p = release.models["params"].to_numpy(float)
    assert not validity.out_of_range(p, validity.PARAMS.low, validity.PARAMS.high).any()


@pytest.mark.parametrize("case", STAT_CASES, ids=[c[0] for c in STAT_CASES])
def test_a_stat_helm_could_not_write_is_refused_by_name_and_left_out(tmp_path, case):
    _, run, stat, values, metric, model, scenario = case
    out = _runs_variant(tmp_path, lambda root: set_stat(root, run, stat, **values))
    rel = out.release
    _finite_and_in_range(rel)
    rej = validity.rejected(rel)
    hit = rej[rej["metric"].str.startswith(stat)]
    assert len(hit) == 1 and hit["model"].iloc[0] == model and hit["scenario"].iloc[0] == scenario
    assert run in hit["source"].iloc[0]
    # Out of the results, as if the run's stats.json had no such stat (LSAT's cell keeps the other run's value),
    # and out of the run's stats table.
    def drop(root):
        edit(root / MY / run / "stats.json", lambda stats: [s for s in stats if not (
            s["name"]["name"] == stat and not s["name"].get("perturbation"))])
    ref = _runs_variant(tmp_path / "ref", drop).release.results
    r = rel.results
    key = ["model", "scenario", "metric_group", "metric"]
    both = r.merge(ref, on=key, suffixes=("", "_ref"))
    assert len(both) == len(r) == len(ref)
    assert np.allclose(both["value"], both["value_ref"], equal_nan=True)
    rs = out.run_stats
    kept = rs[(rs["run"] == run) & (rs["name"] == stat) & (rs["perturbation"] == "")]
    assert kept.empty
    assert any("could not have produced" in n and stat in n for n in rel.meta["notes"])
    # and the headline of the run does not show it
    assert stat not in set(ho.run_headline(out, run)["stat"])


@pytest.mark.parametrize("params", [1e308, -158016, math.inf])
def test_a_parameter_count_helm_could_not_have_is_refused(tmp_path, params):
    root = variant(tmp_path)
    edit(root / MY / "schema.json", lambda s: s["models"][0].update(num_parameters=params))
    rel = ho.read_helm_output(root).release
    m = rel.models.set_index("model")
    assert math.isnan(m.loc["Tiny GPT-2 (local)", "params"]) and m.loc["Pythia (70M)", "params"] == 70426624
    rej = validity.rejected(rel)
    assert rej[["model", "metric"]].values.tolist() == [["Tiny GPT-2 (local)", "num_parameters"]]
    _finite_and_in_range(rel)


@pytest.mark.parametrize("value", [math.inf, -math.inf, 1e308, -3.5])
def test_a_groups_table_cell_helm_could_not_write_is_refused(tmp_path, value):
    root = variant(tmp_path)
    path = root / MY / "groups" / "core_scenarios.json"

    def fn(doc):
        acc = doc[0]  # Accuracy: Model/adapter, Mean win rate, bAbI - EM, ...
        assert acc["header"][2]["value"] == "bAbI - EM"
        acc["rows"][0][2]["value"] = value
    edit(path, fn)
    out = ho.read_helm_output(root)
    _finite_and_in_range(out.release)
    rej = validity.rejected(out.release)
    assert len(rej) == 1 and rej["metric"].iloc[0] == "bAbI - EM" and "core_scenarios.json" in rej["source"].iloc[0]
    # HELM's own table, as the leaderboard shows it: the cell is blank, and the table says why.
    acc = next(t for t in out.leaderboard() if t.file.endswith("core_scenarios.json") and t.name == "accuracy")
    vals = acc.cells.loc[acc.cells["column"] == "bAbI - EM", "value"].to_numpy(float)
    assert not np.isinf(vals).any() and np.isnan(vals[0])
    assert len(acc.rejected) == 1


def test_a_per_instance_confidence_helm_could_not_write_is_not_clipped(tmp_path):
    root = variant(tmp_path)

    def fn(items):
        for item, bad in zip(items, (math.inf, 1e308, -2.0)):
            for s in item["stats"]:
                if s["name"]["name"] == "max_prob":
                    s.update(mean=bad, sum=bad, min=bad, max=bad)
    edit(root / MY / SEPARATE / "per_instance_stats.json", fn)
    out = ho.read_helm_output(root)
    inst = out.instances(SEPARATE)
    assert inst["prob"].dropna().between(0, 1).all() and inst["prob"].isna().sum() >= 3
    assert len(inst.attrs["rejected_values"]) == 3
    conf = out.confidences(SEPARATE)
    assert conf["prob"].between(0, 1).all() and not (conf["prob"] == 1.0).any()
    # read at load too (a small suite): listed with the release's other refused values
    rej = validity.rejected(out.release)
    assert (rej["metric"] == "max_prob").sum() == 3


def test_instance_confidences_drop_out_of_range_probabilities_instead_of_clipping():
    inst = pd.DataFrame({"instance_id": ["a", "b", "c"], "train_trial_index": [0, 0, 0], "perturbation": ["", "", ""],
                         "split": ["test"] * 3, "prob": [0.4, math.inf, 1.5], "prob_normalised": [np.nan] * 3,
                         "correct": [1.0, 0.0, 1.0]})
    conf = ho.instance_confidences(inst)
    assert conf["prob"].tolist() == [0.4]
    assert conf.attrs["left_out"] == 2


def test_rejected_sentence_names_each_value_briefly():
    rows = validity.frame([validity.record("runs/x/stats.json", "M", "S", "exact_match", 1e308, "outside"),
                           validity.record("schema.json", "M", "", "num_parameters", -158016, "outside")])
    s = validity.rejected_sentence(rows)
    assert s.startswith("2 values HELM could not have produced were left out")
    assert "exact_match = 1e+308" in s and "num_parameters = -1.58e+05" in s and len(s) < 400


@pytest.mark.parametrize("name", ["classic", "lite", "capabilities"])
def test_the_bundled_releases_hold_no_value_helm_could_not_produce(name):
    """The same check runs on the bundled data: HELM's own published numbers all pass it."""
    rel = load_bundled(name)
    assert validity.rejected(rel).empty
    _finite_and_in_range(rel)


def test_a_release_folder_with_impossible_values_is_checked_like_an_upload(tmp_path):
    dst = tmp_path / "rel"
    shutil.copytree(DATA, dst, ignore=shutil.ignore_patterns("real_runs", "releases"))
    res = pd.read_csv(dst / "results.csv", dtype=str, keep_default_na=False)
    i = res.index[(res["metric"] == "EM") & (res["value"] != "")][0]
    res.loc[i, "value"] = "1.5"
    res.to_csv(dst / "results.csv", index=False)
    mod = pd.read_csv(dst / "models.csv", dtype=str, keep_default_na=False)
    mod.loc[0, "params"] = "-1"
    mod.to_csv(dst / "models.csv", index=False)
    rel = load_release(dst)
    rej = validity.rejected(rel)
    assert sorted(rej["metric"]) == ["EM", "num_parameters"]
    assert math.isnan(rel.results.loc[i, "value"]) and math.isnan(rel.models.loc[0, "params"])


# ----------------------------------------------------------------------------- 4. duplicates


def test_two_run_folders_with_one_run_name_keep_one_and_say_so(tmp_path):
    root = variant(tmp_path)
    copy = root / MY / (JOINT + " copy")
    shutil.copytree(root / MY / JOINT, copy)
    set_stat(root, JOINT + " copy", "exact_match", mean=0.1, sum=0.1, min=0.1, max=0.1)
    out = ho.read_helm_output(root)
    assert (out.runs["run_name"] == JOINT).sum() == 1
    kept = out.runs[out.runs["run_name"] == JOINT].iloc[0]
    assert kept["folder"].endswith(JOINT)  # the first folder in order; the copy is left out
    dup = out.release.meta["duplicates"]
    assert dup == [{"kind": "run", "name": JOINT, "kept": f"{MY}/{JOINT}", "left_out": [f"{MY}/{JOINT} copy"]}]
    assert any("2 run folders" in n and "copy" in n for n in out.release.meta["notes"])
    assert ho.duplicate_sentence(dup[0]) in out.release.meta["notes"]  # the note the data page shows
    assert ho.duplicates_table(dup).to_dict("records") == [
        {"run": JOINT, "folder used": f"{MY}/{JOINT}", "folders left out": f"{MY}/{JOINT} copy"}]
    assert len(leaderboard.cell_runs(out.runs, (JOINT,))) == 1


@pytest.mark.parametrize("record, sentence", [
    ({"name": "r", "kept": "a/r", "left_out": ["b/r"]},
     "Run 'r' is in 2 run folders (a/r, b/r): a/r is used, the other left out, so no cell counts the run twice."),
    ({"name": "r", "kept": "a/r", "left_out": ["b/r", "c/r"]},
     "Run 'r' is in 3 run folders (a/r, b/r, c/r): a/r is used, the others left out, so no cell counts the run "
     "twice."),
])
def test_duplicate_sentence(record, sentence):
    assert ho.duplicate_sentence(record) == sentence


@pytest.mark.parametrize("value, text", [(math.inf, "Infinity"), (-math.inf, "-Infinity"), (1e308, "1e+308"),
                                         (-3.5, "-3.5"), (math.nan, "NaN")])
def test_a_refused_value_as_text(value, text):
    assert validity.value_text(value) == text


def test_a_duplicate_run_in_another_suite_keeps_the_suite_of_the_groups_tables(tmp_path):
    root = variant(tmp_path)
    other = root / "runs" / "a-older-suite" / JOINT
    shutil.copytree(root / MY / JOINT, other)
    out = ho.read_helm_output(root)
    assert out.runs.loc[out.runs["run_name"] == JOINT, "folder"].tolist() == [f"{MY}/{JOINT}"]
    assert out.release.meta["duplicates"][0]["left_out"] == [f"runs/a-older-suite/{JOINT}"]


def test_runs_from_duplicate_folders_are_not_averaged_twice(tmp_path):
    root = variant(tmp_path, groups=False)
    shutil.copytree(root / MY / BABI_T, root / MY / (BABI_T + "-again"))
    set_stat(root, BABI_T + "-again", "exact_match", mean=0.0, sum=0.0, min=0.0, max=0.0)
    base = ho.read_helm_output(variant(tmp_path / "b", groups=False)).release.results
    rel = ho.read_helm_output(root).release.results
    key = (rel["model"] == "Tiny GPT-2 (local)") & (rel["scenario"] == "bAbI") & (rel["metric"] == "EM")
    bkey = (base["model"] == "Tiny GPT-2 (local)") & (base["scenario"] == "bAbI") & (base["metric"] == "EM")
    assert rel.loc[key, "value"].iloc[0] == base.loc[bkey, "value"].iloc[0]


def test_a_zip_member_stored_twice_is_refused_by_name():
    members = [("s/r/run_spec.json", (S0516 / MY / JOINT / "run_spec.json").read_bytes()),
               ("s/r/stats.json", (S0516 / MY / JOINT / "stats.json").read_bytes()),
               ("s/r/stats.json", b"[]")]
    with pytest.warns(UserWarning):  # zipfile itself warns when it writes a duplicate name
        data = zip_members(members)
    with pytest.raises(DataError, match=r"s/r/stats\.json.*(twice|2 times)"):
        ho.read_helm_zip(data, "dup.zip")


# ----------------------------------------------------------------------------- 5. counts from stats.json


def test_counts_come_from_stats_json_when_no_instance_file_is_read(tmp_path):
    """A suite shared without its (large) instance files: run_spec.json and stats.json only."""
    for d in EXAMPLES.iterdir():
        if (d / "run_spec.json").is_file():
            (tmp_path / d.name).mkdir()
            for f in ("run_spec.json", "stats.json"):
                shutil.copy(d / f, tmp_path / d.name / f)
    out = ho.read_helm_output(tmp_path)
    assert sorted(out.runs["n_instances"]) == [5, 10, 10]  # num_instances over the splits, as in stats.json
    assert out.n_instances == 25 and ho.summary(out)["instances"] == 25


# ----------------------------------------------------------------------------- 6. what the core decides


def test_run_headline_without_schema_json_finds_the_run_s_stats(tmp_path):
    root = variant(tmp_path, schema=False)
    out = ho.read_helm_output(root)
    for run in out.runs["run"]:
        head = ho.run_headline(out, run)
        assert {"exact_match", "num_instances", "num_prompt_tokens", "inference_runtime"} <= set(head["stat"]) or \
            "classification_macro_f1" in set(head["stat"]), (run, head)
        assert len(head) >= 7


def _trials_variant(tmp_path, per_instance: bool) -> ho.HelmOutput:
    """Both babi runs made 3-trial runs: HELM's stats.json (count 3, min/max over the trials' means), or a
    stats.json of one value with the trials in per_instance_stats.json."""
    root = variant(tmp_path, groups=False)
    for run, trial_means in ((BABI_P, (0.2, 0.4, 0.6)), (BABI_T, (0.0, 0.2, 0.4))):
        edit(root / MY / run / "run_spec.json", lambda s: s["adapter_spec"].update(num_train_trials=3))
        if per_instance:
            def fn(items, means=trial_means):
                out = []
                for t, m in enumerate(means):
                    n_right = round(m * len(items))
                    for k, item in enumerate(items):
                        it = json.loads(json.dumps(item))
                        it["train_trial_index"] = t
                        for s in it["stats"]:
                            if s["name"]["name"] == "exact_match":
                                v = 1.0 if k < n_right else 0.0
                                s.update(mean=v, sum=v, min=v, max=v)
                        out.append(it)
                return out
            edit(root / MY / run / "per_instance_stats.json", fn)
        else:
            set_stat(root, run, "exact_match", count=3, sum=sum(trial_means), min=min(trial_means),
                     max=max(trial_means), mean=sum(trial_means) / 3)
    return ho.read_helm_output(root)


@pytest.mark.parametrize("per_instance", [False, True], ids=["stats_json_trials", "per_instance_trials"])
def test_trials_inside_one_run_are_seeds(tmp_path, per_instance):
    out = _trials_variant(tmp_path, per_instance)
    sp = sensitivity.seed_spread(out.release, "bAbI").set_index("model")
    assert set(sp["kind"]) == {"seeds"}
    assert sp.loc["Pythia (70M)", "n_trials"] == 3
    assert sp.loc["Pythia (70M)", "min"] == pytest.approx(0.2) and sp.loc["Pythia (70M)", "max"] == pytest.approx(0.6)
    assert sp.loc["Tiny GPT-2 (local)", "min"] == pytest.approx(0.0)
    if per_instance:
        tv = out.release.meta["trial_values"]
        assert sorted(tv.loc[tv["run"] == BABI_P, "trial"]) == [0, 1, 2]


def test_method_comparison_finds_one_model_on_one_scenario_under_two_interfaces():
    for out in (ho.read_helm_output(S0516), ho.read_helm_output(S0516, eager_instance_bytes=0),
                ho.read_helm_upload(zip_folder(S0516, "benchmark_output/"), "suite.zip")):
        comp = calibration.method_comparison(out.runs, out.run_stats, out.release.taxonomy.scenarios)
        assert comp[["model", "scenario", "method", "value"]].values.tolist() == [
            ["Pythia (70M)", "LSAT", "joint", 0.6], ["Pythia (70M)", "LSAT", "separate", 0.8]]


def test_the_interface_sentence_knows_runs_outside_the_cohort():
    out = ho.read_helm_output(S0516)
    comp = calibration.method_comparison(out.runs, out.run_stats, out.release.taxonomy.scenarios)
    assert calibration.own_comparison_note(comp, ["Tiny GPT-2 (local)"], "the suite") == (
        "the suite runs one model on one scenario under several interfaces, outside the current cohort: "
        "Pythia (70M) on LSAT (joint, separate).")
    assert calibration.own_comparison_note(comp.iloc[0:0], ["Tiny GPT-2 (local)"], "the suite") == (
        "the suite runs no model on one scenario under two interfaces.")
    assert calibration.own_comparison_note(comp, ["Pythia (70M)"], "the suite") == ""


def _without_direction(tmp_path, stat: str):
    """The 0516 suite (run folders only) whose schema.json lists `stat` without lower_is_better."""
    root = variant(tmp_path, groups=False)

    def fn(schema):
        for m in schema["metrics"]:
            if m["name"] == stat:
                m.pop("lower_is_better", None)
    edit(root / MY / "schema.json", fn)
    return ho.read_helm_output(root).release


def test_the_suite_schema_gives_the_direction_not_the_catalogue(tmp_path):
    """max_prob has no lower_is_better in the suite's schema: no direction, never a best; a metric the suite's
    schema lists without one has none either."""
    rel = _without_direction(tmp_path, "inference_runtime")
    r = rel.results
    assert r.loc[r["metric"] == "Max prob", "lower_is_better"].isna().all()
    assert r.loc[r["metric"] == "Observed inference time (s)", "lower_is_better"].isna().all()
    best = grid.best_values(rel)
    assert not best["metric"].isin(["Max prob", "Observed inference time (s)"]).any()


def test_a_main_metric_without_direction_ranks_no_model(tmp_path):
    """exact_match has a direction in the app's catalogue; the suite's schema, which gives it none, wins."""
    rel = _without_direction(tmp_path, "exact_match")
    acc = rel.results[(rel.results["metric_group"] == "accuracy") & (rel.results["scenario"] == "bAbI")]
    assert acc["lower_is_better"].isna().all()
    assert limits_evidence.top_models(rel, ["bAbI"]).empty
    assert not grid.best_values(rel)["metric"].eq("EM").any()
    sp = sensitivity.seed_spread(rel, "bAbI")
    assert len(sp) == 2 and sp["rank_mean"].isna().all() and sp["rank_best"].isna().all()
    assert sensitivity.rank_flips(rel, "bAbI").empty
