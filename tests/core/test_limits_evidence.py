"""Evidence from the data for the limits stepper and the targeted-studies page (helm_core.limits_evidence)."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from helm_core import limits_evidence as le
from helm_core.data import CORE_GROUPS, cohort_models, strongly_contaminated
from helm_core.win_rates import group_win_rates


@pytest.fixture(scope="module")
def rel():
    from helm_core.data import load_release

    return load_release()


def _cohort(rel, name):
    return {
        "all": rel.model_names,
        "paper": cohort_models(rel, "paper"),
        "closed": cohort_models(rel, "all", ["closed"]),
        "one": ["TNLG v2 (530B)"],
        "none": [],
    }[name]


# ----------------------------------------------------------------------------- blank cells

# Scenarios HELM's schema leaves out of each group (HELM_FACTS.md §5): calibration CNN/DM, XSUM, both MS MARCO;
# robustness and fairness CNN/DM, XSUM; bias and toxicity MMLU, TruthfulQA, HellaSwag, OpenBookQA.
DESIGN_BLANK_SCENARIOS = {"accuracy": 0, "calibration": 4, "robustness": 2, "fairness": 2, "bias": 4, "toxicity": 4,
                          "efficiency": 0}


@pytest.mark.parametrize("cohort", ["all", "paper", "closed", "one", "none"])
def test_blank_cells_add_up(rel, cohort):
    models = _cohort(rel, cohort)
    df = le.blank_cells_by_group(rel, models).set_index("metric_group")
    assert list(df.index) == list(CORE_GROUPS)
    assert (df["cells"] == len(models) * 16).all()
    assert (df["measured"] + df["by_design"] + df["not_run"] == df["cells"]).all()
    assert (df["blank"] == df["by_design"] + df["not_run"]).all()
    assert (df[["measured", "by_design", "not_run"]] >= 0).all().all()
    for g, n in DESIGN_BLANK_SCENARIOS.items():
        assert df.loc[g, "by_design"] == n * len(models), g


def test_blank_cells_measured_matches_the_results(rel):
    df = le.blank_cells_by_group(rel).set_index("metric_group")
    res = rel.results[rel.results["value"].notna()]
    for g in CORE_GROUPS:
        expected = res[res["metric_group"] == g][["model", "scenario"]].drop_duplicates().shape[0]
        assert df.loc[g, "measured"] == expected
    # every 67-model accuracy blank is a model that was not run (the schema has accuracy everywhere)
    assert df.loc["accuracy", "not_run"] == 67 * 16 - df.loc["accuracy", "measured"] > 0


# ----------------------------------------------------------------------------- model-set effect


@pytest.mark.parametrize("model", ["Cohere xlarge v20220609 (52.4B)", "OPT (175B)", "text-davinci-002", "Llama 2 (70B)"])
def test_rival_sets_are_drawn_from_the_cohort_and_hold_the_model(rel, model):
    sets = le.rival_sets(rel, model, rel.model_names)
    assert sets, model
    first = next(iter(sets.values()))
    assert set(first) == set(rel.model_names)
    paper = set(cohort_models(rel, "paper"))
    for label, members in sets.items():
        assert model in members and len(members) >= 2
        if label == "the 2022 paper's models":
            assert set(members) - {model} <= paper
    assert len({frozenset(m) for m in sets.values()}) == len(sets), "duplicate sets are dropped"


@pytest.mark.parametrize("model,cohort", [("TNLG v2 (530B)", ["OPT (175B)"]), ("not a model", None)])
def test_rival_sets_empty_when_the_model_is_not_in_the_cohort(rel, model, cohort):
    assert le.rival_sets(rel, model, cohort if cohort is not None else rel.model_names) == {}


@pytest.mark.parametrize("model", ["Cohere xlarge v20220609 (52.4B)", "OPT (175B)", "davinci (175B)"])
def test_model_set_effect_recomputes_win_rates_per_set(rel, model):
    df = le.model_set_effect(rel, model, tuple(rel.model_names))
    sets = le.rival_sets(rel, model, rel.model_names)
    assert list(df["rivals"]) == list(sets)
    for row in df.itertuples():
        wr = group_win_rates(rel, sets[row.rivals], groups=("accuracy",))["accuracy"].dropna()
        assert row.win_rate == pytest.approx(wr[model])
        assert row.rank == int((wr > wr[model]).sum()) + 1 and 1 <= row.rank <= row.ranked == len(wr)
    # the point of the step: the same cells give a different win rate against a different set of rivals
    whole = df.iloc[0]["win_rate"]
    paper = df.set_index("rivals").loc["the 2022 paper's models", "win_rate"]
    assert paper - whole > 0.1


def test_model_set_effect_without_the_group_or_model(rel):
    no_acc = type(rel)(results=rel.results[rel.results["metric_group"] != "accuracy"], models=rel.models,
                       taxonomy=rel.taxonomy, meta=rel.meta)
    assert le.model_set_effect(no_acc, "OPT (175B)", tuple(rel.model_names)).empty
    assert le.model_set_effect(rel, "OPT (175B)", ("TNLG v2 (530B)",)).empty


# ----------------------------------------------------------------------------- seed spread


@pytest.mark.parametrize("cohort,top", [("all", 10), ("paper", 5), ("closed", 3), ("all", 0)])
def test_seed_ranges(rel, cohort, top):
    df = le.seed_ranges(rel, _cohort(rel, cohort), top=top)
    assert len(df) == (top if top else 0)
    if df.empty:
        return
    assert (df["seeds"] == 3).all()
    assert (df["min"] <= df["mean"] + 1e-9).all() and (df["mean"] <= df["max"] + 1e-9).all()
    assert np.allclose(df["range"], df["max"] - df["min"])
    assert df["range"].is_monotonic_decreasing
    assert set(df["model"]) <= set(_cohort(rel, cohort))
    # cells that average subjects or subsets (more runs than seeds) are never used
    assert not set(df["scenario"]) & {"MMLU", "CivilComments", "RAFT"}


def test_seed_ranges_widest_cell(rel):
    top = le.seed_ranges(rel, top=1).iloc[0]
    r = rel.results
    cell = r[(r["model"] == top["model"]) & (r["scenario"] == top["scenario"]) & (r["metric_group"] == "accuracy")].iloc[0]
    assert (cell["run_min"], cell["run_max"], cell["n_runs"]) == (top["min"], top["max"], 3)


def test_seed_ranges_empty_cohort(rel):
    assert le.seed_ranges(rel, []).empty


# ----------------------------------------------------------------------------- contamination


def test_contamination_cells_bundled(rel):
    df = le.contamination_cells(rel)
    strong = df[df["level"] == "strong"]
    # T0++ was trained on HellaSwag, OpenBookQA, BoolQ, XSUM, CNN/DM and IMDB (claim contamination_unknown);
    # T0pp has no HellaSwag/OpenBookQA runs, so HELM's tables flag the other four.
    assert set(strong["model"]) == {"T0pp (11B)"}
    assert set(strong["scenario"]) == {"BoolQ", "XSUM", "CNN/DailyMail", "IMDB"}
    assert not strong["in_win_rates"].any() and df[df["level"] == "weaker"]["in_win_rates"].all()
    assert (df["mark"].map(le.CONTAMINATION_LEVELS) == df["level"]).all()
    assert not df.duplicated(["model", "scenario"]).any()
    # the strong rows are exactly the (model, scenario) cells the win-rate code leaves out
    flagged = rel.results[strongly_contaminated(rel)][["model", "scenario"]].drop_duplicates()
    assert set(map(tuple, flagged.to_numpy())) == set(zip(strong["model"], strong["scenario"]))
    assert df.iloc[0]["level"] == "strong"


@pytest.mark.parametrize("cohort,strong,weaker", [("all", 4, 54), ("paper", 4, None), ("closed", 0, 0), ("none", 0, 0)])
def test_contamination_counts_follow_the_cohort(rel, cohort, strong, weaker):
    df = le.contamination_cells(rel, _cohort(rel, cohort))
    c = le.contamination_counts(df)
    assert c["strong_cells"] == strong
    if weaker is not None:
        assert c["weaker_cells"] == weaker
    assert set(df["model"]) <= set(_cohort(rel, cohort))
    if strong == 0 and weaker == 0:
        assert df.empty and list(df.columns) == ["model", "scenario", "level", "mark", "metric", "accuracy",
                                                 "in_win_rates", "note"]


def test_contamination_accuracy_is_helms_value(rel):
    df = le.contamination_cells(rel).set_index(["model", "scenario"])
    r = rel.results
    v = r[(r["model"] == "davinci (175B)") & (r["scenario"] == "BoolQ") & (r["metric_group"] == "accuracy")]["value"].iloc[0]
    assert df.loc[("davinci (175B)", "BoolQ"), "accuracy"] == v


# ----------------------------------------------------------------------------- moving targets


def test_moving_target_tnlg_narrativeqa(rel):
    ex = le.MOVING_TARGET_EXAMPLE
    df = le.moving_target(rel, ex["model"], ex["scenario"], (72.6, 38.9), groups=ex["groups"]).set_index("metric_group")
    assert df.loc["accuracy", "release"] == pytest.approx(72.2)
    assert df.loc["robustness", "release"] == pytest.approx(31.9)
    assert df.loc["robustness", "difference"] == pytest.approx(-7.0)
    assert df.loc["accuracy", "paper"] == 72.6 and df.loc["accuracy", "metric"] == "F1"


@pytest.mark.parametrize("model,scenario,models", [
    ("TNLG v2 (530B)", "NarrativeQA", ("OPT (175B)",)),  # not in the cohort
    ("TNLG v2 (530B)", "WikiFact", None),  # not a core scenario
    ("no such model", "NarrativeQA", None),
])
def test_moving_target_empty_when_the_cell_is_missing(rel, model, scenario, models):
    assert le.moving_target(rel, model, scenario, (1.0, 2.0), models=models).empty


def test_moving_target_checks_lengths(rel):
    with pytest.raises(ValueError, match="2 metric groups"):
        le.moving_target(rel, "TNLG v2 (530B)", "NarrativeQA", (72.6,))


# ----------------------------------------------------------------------------- targeted studies


def test_core_cells_civilcomments(rel):
    df = le.core_cells(rel, "OPT (175B)", "CivilComments").set_index("metric_group")
    assert list(df.index) == ["accuracy", "robustness", "fairness"]
    assert (df["run_min"] <= df["value"]).all() and (df["value"] <= df["run_max"]).all()
    assert (df["n_runs"] > 3).all()  # the cell averages subsets as well as seeds
    assert le.core_cells(rel, "OPT (175B)", "CivilComments", models=["TNLG v2 (530B)"]).empty


@pytest.mark.parametrize("scenarios,n,cohort", [(("MMLU", "HellaSwag"), 3, "all"), (("TruthfulQA",), 1, "paper"),
                                               (("WikiFact", "MMLU"), 2, "closed")])
def test_top_models(rel, scenarios, n, cohort):
    models = _cohort(rel, cohort)
    df = le.top_models(rel, scenarios, models=models, n=n)
    present = [s for s in scenarios if s in rel.taxonomy.scenario_names]
    assert list(dict.fromkeys(df["scenario"])) == present
    for s, part in df.groupby("scenario"):
        assert list(part["rank"]) == list(range(1, len(part) + 1)) and len(part) <= n
        assert part["value"].is_monotonic_decreasing
        table = rel.results[(rel.results["scenario"] == s) & (rel.results["metric_group"] == "accuracy")
                            & rel.results["model"].isin(models)]
        assert part["value"].iloc[0] == table["value"].max()
    assert set(df["model"]) <= set(models)


def test_top_models_empty(rel):
    assert le.top_models(rel, ("WikiFact",)).empty
    assert isinstance(le.top_models(rel, ("MMLU",), models=[]), pd.DataFrame)
