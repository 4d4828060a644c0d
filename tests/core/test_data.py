"""load_release: the bundled data, and a clear DataError for each kind of bad file."""
from __future__ import annotations

import shutil

import numpy as np
import pytest

from helm_core.data import (CORE_GROUPS, DataError, cohort_models, load_release, main_metric_table,
                            select_models, strongly_contaminated, BUNDLED)


def test_bundled_release_shape(release):
    assert release.name == "HELM classic v0.4.0"
    assert len(release.models) == 67
    assert len(release.taxonomy.scenarios) == 16
    assert release.models["paper_cohort"].sum() == 28
    assert set(CORE_GROUPS) <= set(release.results["metric_group"])
    # Blank cells are kept, not dropped.
    assert release.results["value"].isna().sum() > 5000
    assert len(release.paper_models) == 30
    assert (~release.paper_models["ran_core"]).sum() == 2


def test_run_ranges_contain_the_value(release):
    r = release.results.dropna(subset=["value", "run_min", "run_max"])
    assert ((r["run_min"] <= r["value"] + 1e-9) & (r["value"] <= r["run_max"] + 1e-9)).all()


def test_accuracy_table_counts(release):
    t = main_metric_table(release)
    assert t.shape == (67, 16)
    assert t["HellaSwag"].notna().sum() == 32
    assert t["MMLU"].notna().sum() == 67


def test_main_metric_table_rejects_multi_metric_group(release):
    with pytest.raises(ValueError, match="several metrics"):
        main_metric_table(release, "bias")


@pytest.mark.parametrize("main,expected", [("EM", 0.5), ("F1", 0.7), (None, 0.5)])
def test_main_metric_table_reads_a_scenarios_main_metric_when_it_has_two(release, main, expected):
    """A loaded suite's groups tables can hold two accuracy metrics for one scenario: the table reads the
    scenario's main metric (the taxonomy's), else the metric listed first, instead of failing the page."""
    from dataclasses import replace

    import pandas as pd

    scen = release.taxonomy.scenario_names[0]
    model = release.model_names[0]
    extra = pd.DataFrame([{"model": model, "scenario": scen, "metric_group": "accuracy", "metric": m, "value": v,
                           "lower_is_better": False} for m, v in (("EM", 0.5), ("F1", 0.7))])
    rest = release.results[~((release.results["scenario"] == scen) & (release.results["metric_group"] == "accuracy"))]
    scenarios = release.taxonomy.scenarios.copy()
    scenarios.loc[scenarios["scenario"] == scen, "main_metric"] = main
    rel = replace(release, results=pd.concat([rest, extra], ignore_index=True),
                  taxonomy=replace(release.taxonomy, scenarios=scenarios))
    assert main_metric_table(rel).loc[model, scen] == expected


def test_cohorts(release):
    assert len(cohort_models(release, "paper")) == 28
    assert len(cohort_models(release, "all", access=["closed"])) == 3
    with pytest.raises(ValueError):
        cohort_models(release, "nope")
    sub = select_models(release, cohort_models(release, "paper"))
    assert sub.results["model"].nunique() == 28


def test_contamination_flags(release):
    flagged = release.results[strongly_contaminated(release)]
    assert set(flagged["model"]) == {"T0pp (11B)"}


@pytest.fixture
def copy_data(tmp_path):
    dst = tmp_path / "rel"
    shutil.copytree(BUNDLED, dst)
    return dst


def _edit(path, old, new, count=1):
    s = path.read_text()
    assert old in s
    path.write_text(s.replace(old, new, count))


BAD = [
    ("missing_column", lambda d: _edit(d / "results.csv", "model,scenario,metric_group", "modelx,scenario,metric_group"),
     ["results.csv", "missing column", "model"]),
    ("unknown_scenario", lambda d: _edit(d / "results.csv", "Alpaca (7B),MMLU,", "Alpaca (7B),Jeopardy,"),
     ["results.csv", "row 2", "unknown scenario", "Jeopardy"]),
    ("text_in_number", lambda d: _edit(d / "results.csv", "Alpaca (7B),MMLU,accuracy,EM,0.385", "Alpaca (7B),MMLU,accuracy,EM,high"),
     ["results.csv", "row 2", "value", "expected a number", "high"]),
    ("empty_file", lambda d: (d / "models.csv").write_text(""), ["models.csv", "empty"]),
    ("missing_file", lambda d: (d / "scenarios.csv").unlink(), ["scenarios.csv", "missing"]),
    ("bad_access", lambda d: _edit(d / "models.csv", ",open,", ",public,"), ["models.csv", "access", "public"]),
    ("bad_bool", lambda d: _edit(d / "models.csv", ",false,2023-03-13,false", ",false,2023-03-13,maybe"),
     ["models.csv", "paper_cohort", "maybe"]),
    ("unknown_model", lambda d: _edit(d / "models.csv", "Alpaca (7B),stanford", "Alpaca X,stanford"),
     ["results.csv", "Alpaca (7B)", "not listed in models.csv"]),
    ("bad_json", lambda d: (d / "meta.json").write_text("{nope"), ["meta.json", "not valid JSON"]),
    ("header_only", lambda d: (d / "results.csv").write_text((d / "results.csv").read_text().splitlines()[0] + "\n"),
     ["results.csv", "no result rows"]),
]


@pytest.mark.parametrize("name,breaker,needles", BAD, ids=[b[0] for b in BAD])
def test_bad_files_raise_clear_errors(copy_data, name, breaker, needles):
    breaker(copy_data)
    with pytest.raises(DataError) as exc:
        load_release(copy_data)
    msg = str(exc.value)
    for n in needles:
        assert n in msg, msg


def test_not_a_folder(tmp_path):
    with pytest.raises(DataError, match="not a folder"):
        load_release(tmp_path / "nowhere")


def test_copy_loads_as_folder_kind(copy_data):
    rel = load_release(copy_data)
    assert rel.meta["kind"] == "folder" and not rel.is_bundled
    assert np.isclose(rel.results["value"].sum(), load_release().results["value"].sum())
