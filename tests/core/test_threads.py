"""The number each related thread rests on (helm_core.threads), recomputed here from the tidy files with pandas."""
from __future__ import annotations

import pandas as pd
import pytest

from helm_core import threads
from helm_core.data import cohort_models, load_bundled

CLASSIC = load_bundled("classic")
LITE = load_bundled("lite")
RES = CLASSIC.results


def _efficiency_models(rel, models) -> int:
    r = rel.results
    return r.loc[(r["metric_group"] == "efficiency") & r["value"].notna() & r["model"].isin(models), "model"].nunique()


def _widest_seed_cell(models) -> pd.Series:
    acc = RES[(RES["metric_group"] == "accuracy") & RES["value"].notna() & RES["model"].isin(models)]
    trials = RES[RES["metric"] == "# trials"].set_index(["model", "scenario"])["value"].rename("trials")
    acc = acc.join(trials, on=["model", "scenario"])
    acc = acc[(acc["n_runs"] >= 2) & (acc["n_runs"] == acc["trials"])]
    acc = acc.assign(range=acc["run_max"] - acc["run_min"])
    return acc.sort_values(["range", "model", "scenario"], ascending=[False, True, True]).iloc[0]


@pytest.mark.parametrize("cohort", ["paper", "all"])
def test_efficiency_models_counts_the_cohorts_models_with_a_value(cohort):
    models = cohort_models(CLASSIC, cohort)
    text = threads.thread_number(CLASSIC, models, "efficiency_models")
    assert text == f"{_efficiency_models(CLASSIC, models)} of {len(models)} models have an efficiency value"


@pytest.mark.parametrize("cohort", ["paper", "all"])
def test_seed_spread_names_the_widest_cell(cohort):
    models = cohort_models(CLASSIC, cohort)
    top = _widest_seed_cell(models)
    text = threads.thread_number(CLASSIC, models, "seed_spread")
    assert text.startswith(f"{top['run_min']:.3f} to {top['run_max']:.3f} {top['metric']} over 3 seeds: ")
    assert text.endswith(f"{top['model']} on {top['scenario']}")


@pytest.mark.parametrize("cohort", ["paper", "all"])
def test_harm_blanks_share_of_cells(cohort):
    models = cohort_models(CLASSIC, cohort)
    cells = len(models) * len(CLASSIC.taxonomy.scenario_names)
    shares = {}
    for g in ("bias", "toxicity"):
        r = RES[(RES["metric_group"] == g) & RES["value"].notna() & RES["model"].isin(models)]
        shares[g] = 1 - len(r.drop_duplicates(["model", "scenario"])) / cells
    text = threads.thread_number(CLASSIC, models, "harm_blanks")
    assert text == (f"bias blank in {shares['bias']:.0%} and toxicity in {shares['toxicity']:.0%} of the model × "
                    "scenario cells")


def test_robustness_accuracy_is_a_median_correlation_over_scenarios():
    text = threads.thread_number(CLASSIC, cohort_models(CLASSIC, "paper"), "robustness_accuracy")
    assert text.startswith("median rank correlation 0.") and text.endswith("scenarios")


@pytest.mark.parametrize("rel,models,kind,expected", [
    (LITE, None, "robustness_accuracy", None),  # Lite's tables hold no robustness group
    (LITE, None, "seed_spread", None),  # Lite runs one seed
    (LITE, None, "efficiency_models", f"{len(LITE.models)} of {len(LITE.models)} models have an efficiency value"),
    (CLASSIC, [], "efficiency_models", None),  # no model: nothing to compute
    (CLASSIC, ["no such model"], "harm_blanks", None),
])
def test_what_a_release_or_cohort_cannot_give_is_none(rel, models, kind, expected):
    assert threads.thread_number(rel, models, kind) == expected


def test_an_unknown_kind_is_a_key_error():
    with pytest.raises(KeyError):
        threads.thread_number(CLASSIC, None, "vibes")


def test_every_kind_is_computed():
    assert set(threads.NUMBER_KINDS) == set(threads._COMPUTE)
