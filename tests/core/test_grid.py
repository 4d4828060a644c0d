"""helm_core.grid: the 16 × 7 core grid in three views, its gaps, differences and cell details."""
from __future__ import annotations

from dataclasses import replace

import numpy as np
import pandas as pd
import pytest

from helm_core import grid as G
from helm_core.data import CORE_GROUPS, cohort_models

SUMM = [(s, g) for s in ("CNN/DailyMail", "XSUM") for g in ("calibration", "robustness", "fairness")]
HARMS = [(s, g) for s in ("MMLU", "TruthfulQA", "HellaSwag", "OpenbookQA") for g in ("bias", "toxicity")]
MSMARCO_CAL = [("MS MARCO (regular)", "calibration"), ("MS MARCO (TREC)", "calibration")]
DATA_ONLY = [(s, g) for s in ("IMDB", "MS MARCO (regular)", "MS MARCO (TREC)") for g in ("bias", "toxicity")]


@pytest.fixture(scope="module")
def sparse(release):
    """Three models; one of them has no value at all, and nobody has a value on RAFT."""
    keep = ["text-davinci-002", "OPT (175B)", "T5 (11B)"]
    rel = replace(release, results=release.results[release.results["model"].isin(keep)].copy(),
                  models=release.models[release.models["model"].isin(keep)].reset_index(drop=True))
    res = rel.results.copy()
    res.loc[res["model"] == "T5 (11B)", "value"] = np.nan
    res.loc[res["scenario"] == "RAFT", "value"] = np.nan
    return replace(rel, results=res.reset_index(drop=True))


def test_core_scenarios_match_the_bundled_taxonomy(release):
    assert list(G.CORE_SCENARIOS) == release.taxonomy.scenario_names


@pytest.mark.parametrize("view,measured,dtype", [("paper", 98, bool), ("schema", 96, bool), ("data", 90, int)])
def test_grid_shape_and_counts(release, view, measured, dtype):
    g = G.grid(release, view)
    assert g.shape == (16, 7)
    assert list(g.index) == list(G.CORE_SCENARIOS) and list(g.columns) == list(CORE_GROUPS)
    assert g.to_numpy().dtype.kind == np.dtype(dtype).kind
    assert int(G.measured(release, view).to_numpy().sum()) == measured


@pytest.mark.parametrize("view,blanks", [
    ("paper", set(SUMM + HARMS)),
    ("schema", set(SUMM + HARMS + MSMARCO_CAL)),
    ("data", set(SUMM + HARMS + MSMARCO_CAL + DATA_ONLY)),
])
def test_blank_cells_per_view(release, view, blanks):
    m = G.measured(release, view)
    got = {(s, g) for s in m.index for g in m.columns if not m.loc[s, g]}
    assert got == blanks


@pytest.mark.parametrize("scenario,group,count", [
    ("MMLU", "accuracy", 67), ("HellaSwag", "accuracy", 32), ("MS MARCO (regular)", "accuracy", 31),
    ("CivilComments", "bias", 2), ("BoolQ", "bias", 6), ("XSUM", "calibration", 0), ("IMDB", "toxicity", 0),
    ("MMLU", "efficiency", 26),
])
def test_data_view_counts_models_with_a_value(release, scenario, group, count):
    assert int(G.grid(release, "data").loc[scenario, group]) == count


@pytest.mark.parametrize("cohort,access,expected", [
    ("all", None, {"paper": 14, "schema": 16, "data": 22}),
    ("paper", None, {"paper": 14, "schema": 16, "data": 22}),
    ("paper", ["closed"], {"paper": 14, "schema": 16, "data": 25}),  # no closed model has BoolQ/CivilComments/RAFT bias
])
def test_blank_counts_follow_the_cohort(release, cohort, access, expected):
    assert G.blank_counts(release, cohort_models(release, cohort, access)) == expected


def test_paper_and_schema_do_not_depend_on_the_cohort(release, sparse):
    for view in ("paper", "schema"):
        assert G.grid(release, view).equals(G.grid(sparse, view))


def test_sparse_cohort_model_without_values_and_scenario_nobody_ran(sparse):
    g = G.grid(sparse, "data")
    assert (g.loc["RAFT"] == 0).all()
    assert int(g.loc["MMLU", "accuracy"]) == 2  # T5 has no value anywhere
    assert G.scenarios_without_values(sparse) == ["RAFT"]
    gaps = G.grid_gaps(sparse, "data")
    raft = gaps[gaps["scenario"] == "RAFT"]
    assert len(raft) == 7 and set(raft["confidence"]) == {"computed"}
    d = G.cell_detail(sparse, "MMLU", "accuracy")
    assert d.missing == ["T5 (11B)"] and len(d.values) == 2


@pytest.mark.parametrize("scenario,group,kind,confidence", [
    ("XSUM", "calibration", "summarization", "verified"),
    ("CNN/DailyMail", "robustness", "summarization", "verified"),
    ("MMLU", "bias", "multiple-choice", "verified"),
    ("OpenbookQA", "toxicity", "multiple-choice", "verified"),
    ("MS MARCO (TREC)", "calibration", "ranking", "verified"),
    ("IMDB", "bias", "schema lists it, data empty", "verified"),
    ("MS MARCO (regular)", "toxicity", "schema lists it, data empty", "unverified"),
])
def test_gap_reasons_and_confidence(release, scenario, group, kind, confidence):
    gaps = G.grid_gaps(release, "data").set_index(["scenario", "metric_group"])
    row = gaps.loc[(scenario, group)]
    assert row["kind"] == kind and row["confidence"] == confidence
    assert row["reason"] and row["source"]


@pytest.mark.parametrize("view,n", [("paper", 14), ("schema", 16), ("data", 22)])
def test_grid_gaps_has_one_row_per_blank(release, view, n):
    gaps = G.grid_gaps(release, view)
    assert len(gaps) == n and list(gaps.columns) == G.GAP_COLUMNS
    assert gaps["confidence"].isin(G.CONFIDENCES).all()


def test_differences_between_views(release):
    d = G.grid_differences(release).set_index(["scenario", "metric_group"])
    assert len(d) == 8
    for cell in MSMARCO_CAL:
        assert d.loc[cell, "paper"] and not d.loc[cell, "schema"]
        assert "the paper counts it" in d.loc[cell, "difference"]
    for cell in DATA_ONLY:
        assert d.loc[cell, "schema"] and d.loc[cell, "data_models"] == 0


@pytest.mark.parametrize("token,expected", [
    ("XSUM|calibration", ("XSUM", "calibration")),
    ("NaturalQuestions (closed-book)|bias", ("NaturalQuestions (closed-book)", "bias")),
    ("CNN/DailyMail|efficiency", ("CNN/DailyMail", "efficiency")),
])
def test_cell_tokens_round_trip(token, expected):
    assert G.parse_cell_token(token) == expected
    assert G.cell_token(*expected) == token
    assert token in G.cell_tokens()


@pytest.mark.parametrize("bad", ["", "XSUM", "XSUM|", "Nope|accuracy", "XSUM|speed", "a|b|c", None, "<script>|x"])
def test_bad_cell_tokens_raise_value_error(bad):
    with pytest.raises(ValueError):
        G.parse_cell_token(bad)


def test_all_tokens_unique_and_112():
    t = G.cell_tokens()
    assert len(t) == 112 == len(set(t))


@pytest.mark.parametrize("scenario,group,first_metric,best_model,best_value", [
    ("HellaSwag", "accuracy", "EM", "text-davinci-003", 0.822),
    ("MMLU", "accuracy", "EM", "Palmyra X (43B)", 0.609),
])
def test_cell_detail_sorted_best_first(release, scenario, group, first_metric, best_model, best_value):
    d = G.cell_detail(release, scenario, group)
    assert d.metrics[0] == first_metric
    vals = d.values[first_metric].to_numpy()
    assert np.all(np.diff(vals) <= 0)  # higher is better: descending
    b = d.best.set_index("metric").loc[first_metric]
    assert b["model"] == best_model and b["value"] == pytest.approx(best_value)
    assert len(d.values) + len(d.missing) == d.cohort_size == 67


def test_cell_detail_lower_is_better_sorted_ascending(release):
    d = G.cell_detail(release, "BoolQ", "calibration")
    assert d.directions["ECE (10-bin)"] is True
    vals = d.values["ECE (10-bin)"].to_numpy()
    assert np.all(np.diff(vals) >= 0)


def test_cell_detail_bias_has_four_metrics(release):
    d = G.cell_detail(release, "NarrativeQA", "bias")
    assert set(d.metrics) == {"Representation (gender)", "Representation (race)", "Stereotypes (gender)",
                              "Stereotypes (race)"}
    assert len(d.best) == 4


def test_best_leaves_out_strongly_contaminated_values(release):
    # T0pp is trained on IMDB (☠); it must not be the best even where its value is the highest.
    best = G.best_values(release)
    contaminated = release.results[release.results["note"].str.startswith("☠")]
    for row in contaminated[contaminated["metric_group"].isin(CORE_GROUPS)].itertuples():
        b = best[(best["scenario"] == row.scenario) & (best["metric"] == row.metric)]
        assert row.model not in set(b["model"])
    d = G.cell_detail(release, "IMDB", "accuracy")
    t0 = d.values.set_index("model").loc["T0pp (11B)"]
    assert bool(t0["contaminated"])


def test_blank_cell_detail_is_empty_with_everyone_missing(release):
    d = G.cell_detail(release, "XSUM", "calibration")
    assert d.values.empty and len(d.missing) == 67 and d.best.empty


@pytest.mark.parametrize("view", G.VIEWS)
def test_grid_cells_frame(release, view):
    c = G.grid_cells(release, view)
    assert len(c) == 112
    assert c["measured"].sum() == G.measured(release, view).to_numpy().sum()
    blank = c[~c["measured"]]
    assert (blank["reason"] != "").all()
    assert (c.loc[c["measured"], "reason"] == "").all()


def test_grid_cells_hover_facts(release):
    c = G.grid_cells(release, "schema").set_index("token")
    mm = c.loc["MS MARCO (regular)|calibration"]
    assert not mm["measured"] and "the paper counts this cell" in mm["differs"]
    imdb = c.loc["IMDB|bias"]
    assert imdb["measured"] and "no model of the cohort has a value" in imdb["differs"]
    acc = c.loc["BoolQ|accuracy"]
    assert "Quasi-exact match" in acc["metrics"] and "Palmyra X (43B)" in acc["best"]


@pytest.mark.parametrize("view", ["", "Paper", "table", None])
def test_unknown_view_raises(release, view):
    with pytest.raises(ValueError):
        G.grid(release, view)
    with pytest.raises(ValueError):
        G.grid_cells(release, view)


def test_groups_without_values_for_an_upload_without_efficiency(release):
    res = release.results[release.results["metric_group"] != "efficiency"]
    rel = replace(release, results=res.reset_index(drop=True))
    assert G.groups_without_values(rel) == ["efficiency"]
    assert G.groups_without_values(release) == []
    assert int(G.grid(rel, "data")["efficiency"].sum()) == 0


def test_schema_view_tolerates_a_release_without_design_rows(release):
    design = release.taxonomy.design_grid
    tax = replace(release.taxonomy, design_grid=design[design["scenario"] != "MMLU"])
    rel = replace(release, taxonomy=tax)
    g = G.grid(rel, "schema")
    assert not g.loc["MMLU"].any()
    gaps = G.grid_gaps(rel, "schema").set_index(["scenario", "metric_group"])
    assert gaps.loc[("MMLU", "accuracy"), "confidence"] == "computed"


def test_empty_cohort(release):
    g = G.grid(release, "data", [])
    assert int(g.to_numpy().sum()) == 0
    c = G.grid_cells(release, "data", [])
    assert not c["measured"].any() and c["share"].isna().all()
    assert isinstance(G.grid_gaps(release, "data", []), pd.DataFrame)


# ----------------------------------------------------------------------------- a loaded suite's own grid

_FIXTURES = __import__("pathlib").Path(__file__).resolve().parents[1] / "fixtures"


@pytest.fixture(scope="module")
def suites():
    from helm_core import helm_output as ho

    return {"own": ho.read_helm_output(_FIXTURES / "helm_output_0516").release,
            "mixed": ho.read_helm_output(_FIXTURES / "helm_output").release}


@pytest.mark.parametrize("name, rows, other, measured", [
    ("own", ["bAbI", "SST", "LegalSupport", "LSAT"], ["bAbI", "SST", "LegalSupport", "LSAT"], 10),  # HELM's order
    ("mixed", ["MMLU", "BoolQ", "NarrativeQA", "GSM8K"], ["GSM8K"], 10),  # 3 x (accuracy, calibration, robustness) + 1
])
def test_a_loaded_suite_grid_is_its_own_scenarios(suites, name, rows, other, measured):
    rel = suites[name]
    assert list(G.grid_scenarios(rel)) == rows and G.grid_row_kinds(rel)[1] == other
    assert G.views_for(rel) == ("schema", "data")  # no paper view: the paper's count is about classic
    g = G.grid(rel, "data")
    assert g.shape == (len(rows), 7)
    assert int(G.measured(rel, "data").to_numpy().sum()) == measured
    cells = G.grid_cells(rel, "data")
    assert len(cells) == len(rows) * 7 and int(cells["measured"].sum()) == measured
    assert not G.measured(rel, "paper").to_numpy().any()
    assert len(G.cell_tokens(rel)) == len(rows) * 7


@pytest.mark.parametrize("name, scenario, group, view, needle", [
    ("own", "SST", "robustness", "data", "No perturbation was run"),
    ("own", "SST", "calibration", "data", "has no Calibration column for SST"),
    ("own", "bAbI", "bias", "schema", "holds no Bias column for any scenario"),
    ("mixed", "GSM8K", "calibration", "schema", "has no Calibration column for GSM8K"),
    ("mixed", "MMLU", "efficiency", "data", "has no Efficiency column for MMLU"),
])
def test_a_loaded_suite_blank_reasons_come_from_its_own_tables(suites, name, scenario, group, view, needle):
    r = G.blank_reason(suites[name], scenario, group, view)
    assert needle in r.reason and r.confidence == "computed"


@pytest.mark.parametrize("name, view, label", [
    ("own", "schema", "Your HELM output (helm_output_0516) tables"),
    ("own", "data", "What the data holds"),
])
def test_view_label_names_the_suite(suites, name, view, label):
    assert G.view_label(suites[name], view) == label


def test_classic_keeps_its_grid_and_paper_view(release):
    assert G.grid_scenarios(release) == G.CORE_SCENARIOS and G.views_for(release) == G.VIEWS
    assert G.grid_row_kinds(release) == (list(G.CORE_SCENARIOS), [])
    assert G.view_label(release, "schema") == "HELM schema"


@pytest.mark.parametrize("group, value, text", [
    ("efficiency", 1.46e-5, "14.6 µs"), ("efficiency", 0.0477, "47.7 ms"), ("efficiency", 2.5, "2.5 s"),
    ("accuracy", 0.6, "0.600"), ("calibration", 0.41422, "0.414"), ("accuracy", float("nan"), "no value"),
])
def test_format_value_at_every_scale(group, value, text):
    assert G.format_value(group, value) == text
