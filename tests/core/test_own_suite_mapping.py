"""The importer on a suite with a schema of its own (tests/fixtures/helm_output_0516, crfm-helm 0.5.16 layout):
each leaderboard column lands in the metric group HELM's schema.json puts it in, whether the results come from
the groups tables or from the run folders alone, and nothing is reported as left out."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from helm_core import helm_output as ho
from helm_core.helm_output.schema import _Schema, group_stats, schema_column_groups

FIX = Path(__file__).resolve().parents[1] / "fixtures" / "helm_output_0516"
SUITE = FIX / "runs" / "my-suite"


@pytest.fixture(scope="module")
def from_tables():
    return ho.read_helm_output(FIX)


@pytest.fixture(scope="module")
def from_runs(tmp_path_factory):
    """The same suite without groups/ (as helm-run leaves it before helm-summarize)."""
    d = tmp_path_factory.mktemp("suite") / "my-suite"
    shutil.copytree(SUITE, d, ignore=shutil.ignore_patterns("groups"))
    return ho.read_helm_output(d)


COLUMNS = [
    ("SST", "accuracy", "Macro-F1"),
    ("bAbI", "accuracy", "EM"),
    ("LegalSupport", "calibration", "Max prob"),
    ("LSAT", "calibration", "Max prob"),
    ("SST", "efficiency", "Observed inference time (s)"),
    ("bAbI", "general_information", "# output tokens"),
]


@pytest.mark.parametrize("scenario, group, metric", COLUMNS)
@pytest.mark.parametrize("source", ["from_tables", "from_runs"])
def test_each_column_is_in_its_schema_group(request, source, scenario, group, metric):
    rel = request.getfixturevalue(source).release
    r = rel.results
    sel = r[(r["scenario"] == scenario) & (r["metric"] == metric)]
    assert set(sel["metric_group"]) == {group}
    assert sel["value"].notna().any()


@pytest.mark.parametrize("source", ["from_tables", "from_runs"])
def test_no_column_is_left_out_and_no_perturbation_is_invented(request, source):
    rel = request.getfixturevalue(source).release
    assert not any("left out" in n for n in rel.meta["notes"])
    groups = set(rel.results.loc[rel.results["value"].notna(), "metric_group"])
    assert groups == {"accuracy", "calibration", "efficiency", "general_information"}


SCHEMA = _Schema(
    models={},
    run_groups={"sst": {"display_name": "SST (own)", "short_display_name": "SST",
                        "metric_groups": ["accuracy", "calibration"],
                        "environment": {"main_name": "classification_macro_f1", "main_split": "test"}}},
    metrics={"classification_macro_f1": {"display_name": "Macro-F1"}, "max_prob": {"display_name": "Max prob"},
             "inference_runtime": {"display_name": "Observed inference runtime (s)",
                                   "short_display_name": "Observed inference time (s)"}},
    metric_groups={"accuracy": {"metrics": [{"name": "${main_name}", "split": "${main_split}"}]},
                   "calibration": {"metrics": [{"name": "max_prob", "split": "${main_split}"}]},
                   "efficiency": {"metrics": [{"name": "inference_runtime", "split": "${main_split}"}]},
                   "robustness": {"metrics": [{"name": "${main_name}", "perturbation_name": "robustness"}]}},
)


@pytest.mark.parametrize("key, group", [
    (("SST", "Macro-F1"), "accuracy"),  # ${main_name} resolved with the run group's environment
    (("SST (own)", "Macro-F1"), "accuracy"),  # by display name too
    (("sst", "Max prob"), "calibration"),
    (("SST", "Observed inference time (s)"), None),  # efficiency is not among SST's metric groups
])
def test_schema_column_groups_per_run_group(key, group):
    per_group, _ = schema_column_groups(SCHEMA)
    assert per_group.get(key) == group


@pytest.mark.parametrize("metric, group", [
    ("Max prob", "calibration"), ("Observed inference time (s)", "efficiency"), ("Macro-F1", None),
])
def test_schema_column_groups_anywhere(metric, group):
    _, anywhere = schema_column_groups(SCHEMA)
    assert anywhere.get(metric) == group


@pytest.mark.parametrize("group, stats", [
    ("calibration", ("max_prob",)),  # the suite's own schema
    ("efficiency", ("inference_runtime",)),
    ("toxicity", ("toxic_frac",)),  # not in the suite's schema: the classic catalogue
    ("robustness", ()),  # perturbation copies of the main metric are not group stats
])
def test_group_stats_prefer_the_suites_schema(group, stats):
    assert group_stats(SCHEMA, group) == stats


def test_classic_catalogue_without_a_schema():
    empty = _Schema({}, {}, {})
    assert group_stats(empty, "calibration") == ("ece_10_bin",)
    assert schema_column_groups(empty) == ({}, {})


def _runs_only(tmp_path, suite: Path, drop_schema_groups: bool) -> Path:
    import json

    d = tmp_path / suite.name
    shutil.copytree(suite, d, ignore=shutil.ignore_patterns("groups"))
    if drop_schema_groups and (d / "schema.json").exists():  # no metric groups per run group: every group is tried
        schema = json.loads((d / "schema.json").read_text())
        for g in schema.get("run_groups", []):
            g.pop("metric_groups", None)
        (d / "schema.json").write_text(json.dumps(schema))
    return d


@pytest.mark.parametrize("suite, perturbed, kept", [
    (SUITE, False, set()),  # perturbation_specs is empty: the worst-case stats are copies of EM
    (Path(__file__).resolve().parents[1] / "fixtures" / "helm_output" / "runs" / "demo", True, {"robustness"}),
])
def test_robustness_only_where_perturbations_were_run(tmp_path, suite, perturbed, kept):
    rel = ho.read_helm_output(_runs_only(tmp_path, suite, drop_schema_groups=True)).release
    r = rel.results
    have = set(r.loc[r["value"].notna() & r["metric_group"].isin(["robustness", "fairness"]), "metric_group"])
    assert kept <= have if perturbed else have == set()
    noted = any("no perturbation was run" in n for n in rel.meta["notes"])
    assert noted is (not perturbed)
