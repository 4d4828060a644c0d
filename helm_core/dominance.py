"""Pareto dominance among models over the metric groups (HELM's point that with many metrics dominance is rare).

A model is nondominated when no other model is at least as good in every group and better in one; only models
with a win rate in every group compared take part, and `dominance_check` says how many groups each model has.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence

import pandas as pd

from .data import Release
from .ranking import RECIPE_GROUPS, ranked_groups
from .win_rates import shown_group_win_rates


def pareto_nondominated(group_wr: pd.DataFrame, groups: Sequence[str] = RECIPE_GROUPS) -> pd.Series:
    """Among the models with a win rate in every one of `groups`: True where no other such model is at least as
    good in every group and better in one (HELM's point that with many metrics dominance is rare).
    Models missing a group are left out of the result."""
    cols = [g for g in groups if g in group_wr.columns]
    if not cols:
        return pd.Series(dtype=bool, name="nondominated")
    x = group_wr[cols]
    x = x[x.notna().all(axis=1)]
    v = x.to_numpy(dtype=float)
    ge = (v[:, None, :] >= v[None, :, :]).all(axis=2)
    gt = (v[:, None, :] > v[None, :, :]).any(axis=2)
    dominated = (ge & gt).any(axis=0)
    return pd.Series(~dominated, index=x.index, name="nondominated")


def dominance_summary(release: Release, models: Iterable[str] | None = None) -> pd.Series:
    """pareto_nondominated over the groups the release ranks on (the 7 core groups for classic), on the win rates
    a page should show for `models`."""
    wr, _ = shown_group_win_rates(release, models)
    return pareto_nondominated(wr, ranked_groups(release))


@dataclass(frozen=True)
class DominanceCheck:
    groups: tuple[str, ...]  # the groups the release ranks on (ranked_groups)
    measured: tuple[str, ...]  # of those, the groups where some model of the cohort has a win rate
    group_counts: pd.Series  # per model of the cohort: how many of `groups` it has a win rate in
    nondominated: pd.Series  # pareto_nondominated over `measured`, among the models with all of them


def dominance_check(release: Release, models: Iterable[str] | None = None) -> DominanceCheck:
    """Pareto dominance over the groups this cohort actually has win rates in (the seven on classic), with how
    many groups each model has, so a page can say "in all seven groups" only when that is true."""
    wr, _ = shown_group_win_rates(release, models)
    groups = ranked_groups(release)
    cols = wr.reindex(columns=list(groups))
    has = cols.notna()
    measured = tuple(g for g in groups if bool(has[g].any()))
    counts = has.sum(axis=1).astype(int).rename("groups")
    nd = pareto_nondominated(cols, measured) if measured else pd.Series(dtype=bool, name="nondominated")
    return DominanceCheck(groups=tuple(groups), measured=measured, group_counts=counts, nondominated=nd)
