"""HELM's eight golden win-rate cases (summarize.py / test_summarize.py), plus scale and the published values."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from helm_core.win_rates import column_win_rates, group_win_rates, published_group_win_rates, shown_group_win_rates, win_rates

N = None
CASES = [
    # id, columns {name: values}, lower_is_better per column, expected mean win rates
    ("one_scenario", {"A": [1, 2, 3, 4, 5]}, [False], [0, 0.25, 0.5, 0.75, 1]),
    ("two_scenarios", {"A": [1, 2, 3, 4, 5], "B": [3, 1, 2, 5, 4]}, [False, False], [0.25, 0.125, 0.375, 0.875, 0.875]),
    ("incomplete_values", {"A": [1, 2, 3, 4, 5], "B": [3, 1, N, N, N]}, [False, False], [0.5, 0.125, 0.5, 0.75, 1]),
    ("ignore_nones", {"A": [1, 2, 3, 4, 5], "B": [N] * 5, "C": [N, 1, N, N, N]}, [False, False, False], [0, 0.25, 0.5, 0.75, 1]),
    ("ignore_unset_lower_is_better", {"A": [1, 2, 3, 4, 5], "B": [3, 1, 2, 5, 4]}, [False, None], [0, 0.25, 0.5, 0.75, 1]),
    ("no_win_rate", {"A": [N] * 5}, [False], [N] * 5),
    ("ties", {"A": [1, 1, 1, 4, 5]}, [False], [0.25, 0.25, 0.25, 0.75, 1.0]),
    ("lower_is_better", {"A": [1, 2, 3, 4, 5]}, [True], [1, 0.75, 0.5, 0.25, 0]),
]


def _table(cols):
    return pd.DataFrame({k: [np.nan if v is None else v for v in vals] for k, vals in cols.items()},
                        index=[f"Model {c}" for c in "ABCDE"], dtype=float)


@pytest.mark.parametrize("name,cols,lib,expected", CASES, ids=[c[0] for c in CASES])
def test_helm_golden_cases(name, cols, lib, expected):
    got = win_rates(_table(cols), lib)
    exp = np.array([np.nan if e is None else e for e in expected], dtype=float)
    np.testing.assert_allclose(got.to_numpy(), exp, equal_nan=True)


def test_direction_as_series_aligned_by_column_name():
    t = _table({"A": [1, 2, 3, 4, 5], "B": [5, 4, 3, 2, 1]})
    got = win_rates(t, pd.Series({"B": True, "A": False}))
    np.testing.assert_allclose(got.to_numpy(), [0, 0.25, 0.5, 0.75, 1])


@pytest.mark.parametrize("name,cols,lib,expected", CASES, ids=[c[0] for c in CASES])
def test_direction_as_dict_equals_series_and_list(name, cols, lib, expected):
    # A mapping keyed by column is read like a Series (not as a sequence of its keys): identical results.
    t = _table(cols)
    as_dict = dict(zip(t.columns, lib))
    got = win_rates(t, as_dict)
    np.testing.assert_array_equal(got.to_numpy(), win_rates(t, pd.Series(as_dict)).to_numpy())
    np.testing.assert_array_equal(got.to_numpy(), win_rates(t, lib).to_numpy())


@pytest.mark.parametrize("lib, expected", [
    ({"x": True}, [np.nan] * 5),  # no direction for A or B: both columns are skipped, as with a Series
    ({"B": True}, [1, 0.75, 0.5, 0.25, 0]),  # B lower-is-better (5..1 -> A best); A has no direction
    ({"A": False, "B": True, "extra": False}, [0.5] * 5),  # opposite directions on equal columns cancel
])
def test_dict_directions_are_keyed_by_column(lib, expected):
    t = _table({"A": [1, 2, 3, 4, 5], "B": [1, 2, 3, 4, 5]})
    got = win_rates(t, lib)
    np.testing.assert_allclose(got.to_numpy(), expected, equal_nan=True)
    np.testing.assert_array_equal(got.to_numpy(), win_rates(t, pd.Series(lib, dtype=object)).to_numpy())


def test_dict_directions_on_multiindex_columns():
    t = _table({"A": [1, 2, 3, 4, 5], "B": [5, 4, 3, 2, 1]})
    t.columns = pd.MultiIndex.from_tuples([("MMLU", "EM"), ("MMLU", "ECE")])
    got = win_rates(t, {("MMLU", "EM"): False, ("MMLU", "ECE"): True})
    np.testing.assert_allclose(got.to_numpy(), [0, 0.25, 0.5, 0.75, 1])


@pytest.mark.parametrize("lib", ["TF", {True, False}, 1, None, 0.5])
def test_direction_of_a_wrong_type_raises_type_error(lib):
    t = _table({"A": [1, 2, 3, 4, 5], "B": [1] * 5})
    with pytest.raises(TypeError, match="lower_is_better must be a Series or mapping"):
        win_rates(t, lib)


def test_direction_length_mismatch_raises():
    with pytest.raises(ValueError, match="2 columns"):
        win_rates(_table({"A": [1, 2, 3, 4, 5], "B": [1] * 5}), [False])


def test_column_win_rates_shape_and_range():
    rng = np.random.default_rng(0)
    t = pd.DataFrame(rng.random((30, 8)))
    t[t > 0.9] = np.nan
    wr = column_win_rates(t, [False, True] * 4)
    assert wr.shape == t.shape
    vals = wr.to_numpy()[~np.isnan(wr.to_numpy())]
    assert ((vals >= 0) & (vals <= 1)).all()
    # NaN exactly where the table has no value
    assert (np.isnan(wr.to_numpy()) == t.isna().to_numpy()).all()


def test_single_model_columns_are_skipped():
    t = pd.DataFrame({"A": [0.5, np.nan], "B": [0.1, 0.9]}, index=["x", "y"])
    np.testing.assert_allclose(win_rates(t, [False, False]).to_numpy(), [0.0, 1.0])


def test_scale_1000_models_200_columns_matches_reference():
    rng = np.random.default_rng(1)
    t = pd.DataFrame(np.round(rng.random((1000, 200)), 2))
    t[rng.random((1000, 200)) < 0.1] = np.nan
    lib = [bool(i % 2) for i in range(200)]
    got = win_rates(t, lib)
    # Reference for a few columns, written the slow way: wins + ties/2 over the others.
    per = []
    for j in range(5):
        col = t[j].to_numpy()
        ok = ~np.isnan(col)
        vals = col[ok]
        sign = -1 if lib[j] else 1
        wr = np.full(len(col), np.nan)
        for i in np.flatnonzero(ok):
            wins = np.sum(sign * vals < sign * col[i]) + 0.5 * (np.sum(vals == col[i]) - 1)
            wr[i] = wins / (len(vals) - 1)
        per.append(wr)
    np.testing.assert_allclose(column_win_rates(t, lib).iloc[:, :5].to_numpy(), np.array(per).T, equal_nan=True)
    assert got.notna().all()


def test_recomputed_accuracy_reproduces_helm_published(release):
    ours = group_win_rates(release)["accuracy"]
    published = published_group_win_rates(release)["accuracy"]
    diff = (ours - published.reindex(ours.index)).abs()
    # Inputs are rounded to 3 decimals, which moves a win rate by at most about 0.01.
    assert diff.max() < 0.01, diff.sort_values().tail()
    assert diff.mean() < 0.003


def test_contaminated_cells_are_left_out(release):
    with_all = group_win_rates(release, exclude_contaminated=False)["accuracy"]
    without = group_win_rates(release)["accuracy"]
    published = published_group_win_rates(release)["accuracy"]
    # Leaving out T0pp's strongly contaminated cells is what brings us to HELM's numbers.
    assert (without - published).abs().max() < (with_all - published).abs().max()
    assert without["T0pp (11B)"] != with_all["T0pp (11B)"]


@pytest.mark.parametrize("group", ["robustness", "fairness", "efficiency", "summarization_metrics"])
def test_other_groups_track_published(release, group):
    ours = group_win_rates(release)[group]
    published = published_group_win_rates(release)[group].reindex(ours.index)
    assert (ours - published).abs().max() < 0.011


def test_shown_win_rates_published_for_full_set_recomputed_for_subset(release):
    df, kind = shown_group_win_rates(release)
    assert kind == "published" and len(df) == 67
    sub = release.models[release.models["paper_cohort"]]["model"].tolist()
    df2, kind2 = shown_group_win_rates(release, sub)
    assert kind2 == "recomputed" and len(df2) == 28
    assert df2["accuracy"].between(0, 1).all()
