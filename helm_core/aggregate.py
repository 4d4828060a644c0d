"""HELM's own ranking of each release: the aggregate column it publishes, and our reproduction of it.

HELM classic and Lite publish a "Mean win rate" per metric group (summarize.py's compute_aggregate_row_win_rates:
per column the share of other models beaten, ties half, averaged over the columns a model has; helm_core.win_rates
reproduces it). HELM Capabilities publishes a "Mean score" instead and no win rates: summarize.py's
compute_aggregate_row_means, the plain mean of a row's non-empty cells in that table (stanford-crfm/helm
src/helm/benchmark/presentation/summarize.py, `AggregationStrategy.MEAN`, header "Mean score", "The mean of the
scores from all columns"). A user's suite publishes nothing of the kind unless it carries HELM's tables.

`published_ranking(release)` reads what HELM published (models ranked by it); `reproduced_ranking(release)`
recomputes the same aggregate from the release's cells; `aggregate_name(release)` names it.
"""
from __future__ import annotations

from typing import Iterable

import numpy as np
import pandas as pd

from .data import Release, select_models
from .win_rates import group_win_rates, published_group_win_rates

MEAN_WIN_RATE = "Mean win rate"
MEAN_SCORE = "Mean score"
RANKING_COLUMNS = ["model", "value", "rank"]


def aggregate_name(release: Release) -> str | None:
    """The aggregate HELM publishes for this release: "Mean win rate" (classic, Lite), "Mean score"
    (Capabilities), or None (nothing published: a user's suite without HELM's tables)."""
    meta = release.meta.get("published_aggregate") if isinstance(release.meta, dict) else None
    if isinstance(meta, dict) and meta.get("name") in (MEAN_WIN_RATE, MEAN_SCORE):
        return str(meta["name"])
    if not release.published_win_rates.empty:
        return MEAN_WIN_RATE
    if not release.published_scores.empty:
        return MEAN_SCORE
    return None


def _lower_is_better(release: Release, group: str, aggregate: str) -> bool:
    """A win rate is higher-is-better in every group; a mean score follows its columns (efficiency: seconds)."""
    if aggregate == MEAN_WIN_RATE:
        return False
    lib = release.results.loc[release.results["metric_group"] == group, "lower_is_better"].dropna()
    return bool(lib.iloc[0]) if len(lib) else False


def _ranked(values: pd.Series, lower_is_better: bool, aggregate: str | None, group: str, kind: str) -> pd.DataFrame:
    v = values.dropna().astype(float)
    out = pd.DataFrame({"model": v.index.astype(str), "value": v.to_numpy()})
    out["rank"] = out["value"].rank(ascending=lower_is_better, method="min").astype(int)
    out = out.sort_values(["rank", "model"], kind="mergesort").reset_index(drop=True)
    out.attrs.update({"aggregate": aggregate, "group": group, "kind": kind})
    return out[RANKING_COLUMNS]


def _empty(aggregate: str | None, group: str, kind: str) -> pd.DataFrame:
    out = pd.DataFrame({"model": pd.Series(dtype=str), "value": pd.Series(dtype=float),
                        "rank": pd.Series(dtype=int)})
    out.attrs.update({"aggregate": aggregate, "group": group, "kind": kind})
    return out


def published_ranking(release: Release, group: str = "accuracy") -> pd.DataFrame:
    """HELM's own ranking of the release on one metric group, as HELM published it: columns model, value (the
    published aggregate), rank (1 = best; ties share the better rank), best first. `attrs["aggregate"]` names the
    aggregate ("Mean win rate" / "Mean score"). Empty (aggregate None) when the release publishes nothing for the
    group, e.g. a user's suite."""
    name = aggregate_name(release)
    if name == MEAN_WIN_RATE:
        pub = published_group_win_rates(release)
        if group in pub.columns and pub[group].notna().any():
            return _ranked(pub[group], False, name, group, "published")
    elif name == MEAN_SCORE:
        s = release.published_scores
        s = s[(s["metric_group"] == group) & s["model"].isin(release.model_names)]
        if not s.empty:
            vals = s.drop_duplicates("model").set_index("model")["score"]
            return _ranked(vals, _lower_is_better(release, group, name), name, group, "published")
    return _empty(name, group, "published")


def mean_scores(release: Release, models: Iterable[str] | None = None, group: str = "accuracy") -> pd.Series:
    """HELM's "Mean score" (summarize.py compute_aggregate_row_means) recomputed: per model, the mean of its
    non-empty cells in the group's table (one column per scenario × metric); NaN for a model with none."""
    rel = select_models(release, models) if models is not None else release
    r = rel.results[(rel.results["metric_group"] == group) & rel.results["value"].notna()]
    r = r.drop_duplicates(["model", "scenario", "metric"])
    return r.groupby("model")["value"].mean().reindex(rel.model_names).rename("mean_score")


def reproduced_ranking(release: Release, group: str = "accuracy", models: Iterable[str] | None = None) -> pd.DataFrame:
    """HELM's aggregate recomputed from the release's cells (among `models`, default all): the mean win rate
    (helm_core.win_rates.group_win_rates: contaminated cells left out, as HELM does) where HELM publishes win rates or
    nothing (its default aggregation), the mean score where it publishes a mean score. Same columns as
    published_ranking; attrs["kind"] = "reproduced"."""
    name = aggregate_name(release)
    if name == MEAN_SCORE:
        vals = mean_scores(release, models, group)
        return _ranked(vals, _lower_is_better(release, group, name), name, group, "reproduced")
    if not (release.results["metric_group"] == group).any():
        return _empty(name or MEAN_WIN_RATE, group, "reproduced")
    wr = group_win_rates(release, models, (group,))[group]
    return _ranked(wr, False, name or MEAN_WIN_RATE, group, "reproduced")


def compare_rankings(release: Release, group: str = "accuracy") -> pd.DataFrame:
    """Published beside reproduced, per model HELM published: model, published, reproduced, difference
    (reproduced − published), published_rank, reproduced_rank. Empty when nothing is published."""
    pub = published_ranking(release, group)
    cols = ["model", "published", "reproduced", "difference", "published_rank", "reproduced_rank"]
    if pub.empty:
        return pd.DataFrame(columns=cols)
    rep = reproduced_ranking(release, group).set_index("model")
    out = pub.rename(columns={"value": "published", "rank": "published_rank"})
    out["reproduced"] = out["model"].map(rep["value"])
    out["reproduced_rank"] = out["model"].map(rep["rank"])
    out["difference"] = out["reproduced"] - out["published"]
    return out[cols]


def cohort_ranking(release: Release, models: Iterable[str] | None = None, group: str = "accuracy") -> pd.DataFrame:
    """HELM's ranking of a cohort, as a page shows it: the published ranking when `models` is the release's whole
    model set and HELM published the aggregate for every one of them; otherwise the same aggregate reproduced among
    `models` (a win rate depends on the field; a mean score does not, but is recomputed alike). Same columns as
    published_ranking; attrs: "aggregate", "group", "kind" ("published" / "reproduced") and "published" (whether
    the release publishes this aggregate at all: False for a user's suite without HELM's tables)."""
    selected = list(dict.fromkeys(release.model_names if models is None else models))
    pub = published_ranking(release, group)
    full = set(selected) == set(release.model_names)
    if not pub.empty and full and set(pub["model"]) == set(selected):
        out = pub
    else:
        out = reproduced_ranking(release, group, selected)
    out = out.copy()
    out.attrs.update({**pub.attrs, **out.attrs, "published": not pub.empty})
    return out


def published_top(release: Release, n: int = 3, group: str = "accuracy") -> list[str]:
    """The first `n` models of HELM's published ranking (ties broken by name, as published_ranking orders them)."""
    return published_ranking(release, group)["model"].head(max(int(n), 0)).tolist()


def max_difference(release: Release, group: str = "accuracy") -> float:
    """The largest |reproduced − published| over the published models (NaN when nothing is published)."""
    c = compare_rankings(release, group)
    return float(np.nanmax(c["difference"].abs().to_numpy(dtype=float))) if len(c) else float("nan")
