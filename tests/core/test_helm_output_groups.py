"""helm_core.helm_output.groups: HELM's groups/*.json leaderboard tables into result rows, and clean names."""
from __future__ import annotations

import json
import math

import pytest

from helm_core import helm_output as ho
from helm_core.data import CORE_GROUPS, DataError
from tests.core.helm_output_helpers import FIX, GROUPS, _write, cell, tables_output


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
    ("[click](javascript:alert(1))", "[click](javascript:alert(1))"),
    ("<script>x</script>", "<script>x</script>"),
    ("a\x00b\n\tc", "a b c"),
    ("  a \u2028 b\x7f ", "a b"),
    ("**bold** $x$ ~~s~~ `c` \\_ | &amp;", "**bold** $x$ ~~s~~ `c` \\_ | &amp;"),
    ("x" * 500, "x" * 120),
])
def test_clean_name(raw, expected):
    """One printable line of bounded length, every other character kept as written (no look-alikes): each
    destination escapes the name itself (helm_core.escape)."""
    assert ho.clean_name(raw) == expected


def test_names_from_files_are_cleaned(tmp_path):
    doc = json.loads((GROUPS / "core_scenarios.json").read_text())
    doc[0]["rows"][0][0]["value"] = "[evil](http://x)\n <b>"
    _write(tmp_path / "groups" / "core_scenarios.json", json.dumps(doc))
    names = ho.read_helm_output(tmp_path).release.model_names
    assert "[evil](http://x) <b>" in names


def test_core_groups_constant_is_what_gaps_use():
    assert set(ho.core_gaps(ho.read_helm_output(GROUPS).release)["metric_group"]) <= set(CORE_GROUPS)
