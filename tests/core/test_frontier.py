"""helm_core.frontier: the per-model capability/cost/harm/size frame, the Pareto front, and the claim checks."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from helm_core import frontier as F
from helm_core.data import cohort_models, select_models

N = np.nan

# A hand-made frame: capability up is good, cost down is good.
HAND = pd.DataFrame(
    {
        "model": ["fast_weak", "mid", "slow_strong", "dominated", "twin_a", "twin_b", "no_cost", "no_cap"],
        "capability": [0.2, 0.5, 0.9, 0.4, 0.7, 0.7, 0.95, N],
        "runtime_s": [0.1, 0.3, 2.0, 0.5, 1.0, 1.0, N, 0.01],
    }
)


@pytest.mark.parametrize(
    "model,on_front",
    [
        ("fast_weak", True),  # cheapest of all measured
        ("mid", True),
        ("slow_strong", True),  # most capable with a cost
        ("dominated", False),  # mid is better on both
        ("twin_a", True),  # identical points do not dominate each other
        ("twin_b", True),
        ("no_cost", False),  # missing values are never on the front
        ("no_cap", False),
    ],
)
def test_pareto_front_on_a_hand_made_frame(model, on_front):
    front = F.pareto_front(HAND)
    assert bool(front[HAND.index[HAND["model"] == model][0]]) is on_front


@pytest.mark.parametrize(
    "maximize_x,minimize_y,expected",
    [
        (True, True, {"fast_weak", "mid", "slow_strong", "twin_a", "twin_b"}),
        (False, True, {"fast_weak"}),  # least capable and cheapest: one point dominates everything
        (True, False, {"slow_strong"}),  # most capable and most costly
    ],
)
def test_pareto_front_directions(maximize_x, minimize_y, expected):
    front = F.pareto_front(HAND, maximize_x=maximize_x, minimize_y=minimize_y)
    assert set(HAND.loc[front, "model"]) == expected


def test_pareto_front_unknown_column_raises():
    with pytest.raises(ValueError, match="not in the frame"):
        F.pareto_front(HAND, y="cost")


def test_pareto_front_empty_and_all_missing():
    assert not F.pareto_front(HAND.iloc[:0]).any()
    assert not F.pareto_front(HAND.assign(runtime_s=N)).any()


@pytest.mark.parametrize(
    "table,basis,shared,means",
    [
        # every measured row has a, b, c -> shared basis, d ignored
        (pd.DataFrame({"a": [1, 2, N], "b": [1, 2, N], "c": [1, 2, N], "d": [9, N, N]}, index=list("xyz")),
         "shared", ("a", "b", "c"), [1, 2, N]),
        # only one shared column (< 3): each row's own columns
        (pd.DataFrame({"a": [1, 3], "b": [3, N], "c": [N, 5]}, index=list("xy")), "own", ("a",), [2, 4]),
    ],
    ids=["shared", "own"],
)
def test_shared_mean_uses_comparable_ground(table, basis, shared, means):
    mean, n, got_basis, got_shared = F.shared_mean(table.astype(float))
    assert got_basis == basis and got_shared == shared
    np.testing.assert_allclose(mean.to_numpy(), means)


def test_frontier_frame_on_the_bundled_release(release):
    fr = F.frontier_frame(release)
    f = fr.frame
    assert len(f) == 67 and fr.capability_kind == "published"
    # 26 models have denoised inference times in v0.4.0; the others are listed with a reason
    assert f["runtime_s"].notna().sum() == 26
    assert (f.loc[f["runtime_s"].isna(), "runtime_note"] != "").all()
    assert fr.cost_basis == "shared" and len(fr.cost_scenarios) >= 3
    # undisclosed and speculative sizes are flagged
    assert set(f.loc[~f["size_disclosed"], "model"]) == {"gpt-3.5-turbo-0301", "gpt-3.5-turbo-0613"}
    assert f.loc[f["model"] == "text-davinci-002", "params_speculative"].item()
    # capability is the published accuracy win rate
    assert f.loc[f["model"] == "Llama 2 (70B)", "capability"].item() == pytest.approx(0.944)
    assert (f["harm"].dropna() >= 0).all()


@pytest.mark.parametrize("capability", list(F.CAPABILITY_MEASURES))
@pytest.mark.parametrize("harm", list(F.HARM_MEASURES))
def test_frontier_frame_every_measure(release, capability, harm):
    fr = F.frontier_frame(release, cohort_models(release, "paper"), capability, harm)
    f = fr.frame
    assert len(f) == 28
    assert f["capability"].notna().all()
    assert f["harm"].notna().sum() > 20
    assert fr.capability_kind in ("recomputed", "mean accuracy")


@pytest.mark.parametrize("kwargs", [{"capability": "speed"}, {"harm": "danger"}])
def test_frontier_frame_unknown_measure_raises(release, kwargs):
    with pytest.raises(ValueError, match="unknown"):
        F.frontier_frame(release, **kwargs)


def test_frontier_frame_without_efficiency(release):
    rel = select_models(release, ["Llama 2 (70B)", "Mistral v0.1 (7B)", "gpt-3.5-turbo-0613"])
    f = F.frontier_frame(rel).frame
    assert f["runtime_s"].isna().all()
    assert (f["runtime_note"].str.contains("blank")).all()


@pytest.mark.parametrize("cost,expected", [("runtime", 41), ("params", 2)])
def test_left_out_lists_every_model_a_chart_cannot_place(release, cost, expected):
    f = F.frontier_frame(release).frame
    out = F.left_out(f, cost)
    assert len(out) == expected
    assert (out["reason"] != "").all()


def test_left_out_unknown_cost_raises(release):
    with pytest.raises(ValueError, match="cost measure"):
        F.left_out(F.frontier_frame(release).frame, "dollars")


def test_scale_counterexamples_on_a_hand_made_frame():
    f = pd.DataFrame({"model": ["big", "small_good", "small_bad", "secret"], "capability": [0.9, 0.7, 0.3, 0.8],
                      "params": [175e9, 7e9, 1e9, N], "params_speculative": [False] * 4, "paper_cohort": [True] * 4})
    out = F.scale_counterexamples(f)
    assert list(out["model"]) == ["small_good"]


def test_scale_claim_against_v040(release):
    # finding 25: every model above 55% accuracy win rate has >= 50B parameters; v0.4.0's newer models break it
    out = F.scale_counterexamples(F.frontier_frame(release).frame)
    assert "Mistral v0.1 (7B)" in set(out["model"])


def test_best_by_access_and_tradeoff_on_a_hand_made_frame():
    f = pd.DataFrame({"model": ["o1", "o2", "l1", "c1"], "access": ["open", "open", "limited", "closed"],
                      "organization": ["X", "X", "X", "Y"], "capability": [0.9, 0.2, 0.5, 0.7],
                      "runtime_s": [3.0, 1.0, 2.0, N], "params": [70e9, 7e9, 30e9, 50e9]})
    best = F.best_by_access(f)
    assert list(best["access"]) == ["open", "closed", "limited"]
    assert list(best["rank"]) == [1, 2, 3]
    rho, n, orgs = F.tradeoff(f)
    assert n == 3 and rho == pytest.approx(1.0)
    assert list(orgs["organization"]) == ["X"]
    assert orgs["rho_params_capability"].item() == pytest.approx(1.0)


@pytest.mark.parametrize("cost,y", [("runtime", "runtime_s"), ("params", "params")])
def test_cost_view_bundle(release, cost, y):
    v = F.cost_view(release, None, "win_rate", "toxic_frac", cost)
    f = v.frontier.frame
    assert v.y == y
    assert f["pareto"].any()
    assert not (f["pareto"] & f[y].isna()).any()
    assert v.win_rate_kind == "published"
    assert len(v.access_check) == 3


def test_cost_view_unknown_cost_raises(release):
    with pytest.raises(ValueError, match="cost measure"):
        F.cost_view(release, cost="dollars")


@pytest.mark.parametrize("metrics,cost,expected", [
    (["Denoised inference time (s)"], "runtime", "Mean denoised inference time (s)"),
    (["Observed inference time (s)"], "runtime", "Mean observed inference time (s)"),
    (["Observed inference time (s)", "Denoised inference time (s)"], "runtime",
     "Mean inference time (s): Observed inference time (s), Denoised inference time (s)"),
    ([], "runtime", "Mean inference time (s)"),
    (["Observed inference time (s)"], "params", "Parameters"),
])
def test_cost_label_names_the_releases_own_efficiency_metric(release, metrics, cost, expected):
    import dataclasses

    res = release.results[release.results["metric_group"] != "efficiency"]
    rows = [{"model": release.model_names[i], "scenario": "MMLU", "metric_group": "efficiency", "metric": m,
             "value": 0.01 * (i + 1), "lower_is_better": True, "n_runs": 1.0, "run_min": np.nan, "run_max": np.nan,
             "note": ""} for i, m in enumerate(metrics)]
    # a metric that has no value at all is not the release's metric
    rows.append({"model": release.model_names[0], "scenario": "BoolQ", "metric_group": "efficiency",
                 "metric": "Idealized inference time (s)", "value": np.nan, "lower_is_better": True, "n_runs": np.nan,
                 "run_min": np.nan, "run_max": np.nan, "note": ""})
    rel = dataclasses.replace(release, results=pd.concat([res, pd.DataFrame(rows)], ignore_index=True))
    assert F.efficiency_metrics(rel) == metrics
    assert F.cost_label(rel, cost) == expected
    assert F.cost_label(release, "runtime") == "Mean denoised inference time (s)"  # classic v0.4.0
