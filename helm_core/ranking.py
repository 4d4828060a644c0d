"""Recipes: a weight per metric group applied to the per-group mean win rates (DESIGN.md §4), and rankings.

A model without a value for a weighted group is never scored as zero: it is either scored over the
groups it has, with the weights renormalised, or excluded, and in both cases flagged.
Also here: comparing two rankings (rank shifts, Kendall's tau), the page-sized bundle the podium shows
for one cohort and recipe (`recipe_ranking`), and where the 2022 paper's accuracy podium stands.
The win rates themselves are in helm_core.win_rates; perturbing a recipe's weights in helm_core.stability.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Mapping, Sequence

import numpy as np
import pandas as pd

from .data import CORE_GROUPS, Release
from .win_rates import WIN_RATE_GROUPS, group_win_rates, shown_group_win_rates


RECIPE_GROUPS: tuple[str, ...] = CORE_GROUPS
MISSING_POLICIES: tuple[str, ...] = ("renormalize", "exclude")


@dataclass(frozen=True)
class Recipe:
    """A named weighting of the metric groups (weights are relative; they are normalised to sum to 1)."""

    name: str  # short token, used in URLs
    label: str
    description: str
    weights: tuple[tuple[str, float], ...]

    def weight_series(self) -> pd.Series:
        return normalize_weights(dict(self.weights))


def _recipe(name: str, label: str, description: str, **overrides: float) -> Recipe:
    base = {g: 1.0 for g in RECIPE_GROUPS} if name != "accuracy" else {g: 0.0 for g in RECIPE_GROUPS}
    base.update(overrides)
    return Recipe(name, label, description, tuple(base.items()))


RECIPES: dict[str, Recipe] = {
    r.name: r
    for r in (
        _recipe("holistic", "Holistic", "Equal weight on each of the 7 core metric groups."),
        _recipe("accuracy", "Accuracy only", "All weight on accuracy: HELM's accuracy leaderboard.", accuracy=1.0),
        _recipe("efficiency", "Efficiency push", "Holistic, with efficiency weighted ×3.", efficiency=3.0),
        _recipe("safety", "Safety push", "Holistic, with bias and toxicity weighted ×3 each.", bias=3.0, toxicity=3.0),
    )
}


def normalize_weights(weights: Mapping[str, float] | pd.Series | Sequence[float]) -> pd.Series:
    """Validate a recipe's weights and scale them to sum to 1.

    `weights` maps metric groups to non-negative numbers (a sequence is read in RECIPE_GROUPS order).
    Returns a Series over RECIPE_GROUPS (plus any other win-rate group given), groups not given weigh 0.
    Raises ValueError with a message naming the problem: unknown group, non-number, negative,
    not finite, or all weights zero.
    """
    if isinstance(weights, pd.Series):
        items = list(weights.items())
    elif isinstance(weights, Mapping):
        items = list(weights.items())
    elif isinstance(weights, (str, bytes)) or not isinstance(weights, Sequence):
        raise TypeError("weights must be a mapping of metric group to weight, or a sequence of numbers")
    else:
        if len(weights) != len(RECIPE_GROUPS):
            raise ValueError(f"expected {len(RECIPE_GROUPS)} weights ({', '.join(RECIPE_GROUPS)}), got {len(weights)}")
        items = list(zip(RECIPE_GROUPS, weights))
    unknown = [str(g) for g, _ in items if g not in WIN_RATE_GROUPS]
    if unknown:
        raise ValueError(f"unknown metric group(s): {', '.join(unknown)}; expected some of {', '.join(RECIPE_GROUPS)}")
    out = {g: 0.0 for g in RECIPE_GROUPS}
    for g, v in items:
        if isinstance(v, bool) or not isinstance(v, (int, float, np.integer, np.floating)):
            raise ValueError(f"weight for {g!r} must be a number, got {v!r}")
        v = float(v)
        if not np.isfinite(v):
            raise ValueError(f"weight for {g!r} must be finite, got {v}")
        if v < 0:
            raise ValueError(f"weight for {g!r} must not be negative, got {v:g}")
        out[g] = v
    total = sum(out.values())
    if total <= 0:
        raise ValueError("at least one weight must be above zero")
    order = [g for g in WIN_RATE_GROUPS if g in out]
    return pd.Series({g: out[g] / total for g in order}, name="weight", dtype=float)


def group_coverage(group_wr: pd.DataFrame, groups: Sequence[str] = RECIPE_GROUPS) -> pd.Series:
    """How many models have a win rate in each group (0 for a group the frame lacks)."""
    return pd.Series({g: int(group_wr[g].notna().sum()) if g in group_wr.columns else 0 for g in groups},
                     name="models", dtype=int)


def weighted_matrix(group_wr: pd.DataFrame, weights) -> tuple[pd.Series, np.ndarray, np.ndarray]:
    """The recipe's groups with a weight above zero (normalised weights), the models × those groups win rates,
    and where a model has a value; shared by recipe_scores and helm_core.stability.podium_stability."""
    if not isinstance(group_wr, pd.DataFrame):
        raise TypeError("group_wr must be a DataFrame of models × metric groups")
    w = normalize_weights(weights)
    used = w[w > 0]
    x = group_wr.reindex(columns=used.index).to_numpy(dtype=float, copy=True)
    present = ~np.isnan(x)
    return used, x, present


def recipe_scores(group_wr: pd.DataFrame, weights, missing: str = "renormalize") -> pd.DataFrame:
    """Score and rank models under a recipe.

    score = Σ w_g · win_rate_g over the weighted groups (weights normalised to sum to 1).
    A model without a value for a weighted group is flagged, and:
      - missing="renormalize": scored over the weighted groups it has, with their weights rescaled to
        sum to 1 (`weight_covered` says what share of the recipe that is); excluded if it has none;
      - missing="exclude": excluded (no score, no rank).
    Rank 1 is the best; ties share the better rank. Rows are sorted by rank (excluded last), then name.
    Columns: score, rank, weight_covered, n_groups, missing_groups, flagged, excluded.
    """
    if missing not in MISSING_POLICIES:
        raise ValueError(f"unknown missing-group policy {missing!r}; expected one of {', '.join(MISSING_POLICIES)}")
    used, x, present = weighted_matrix(group_wr, weights)
    wv = used.to_numpy()
    num = np.where(present, x, 0.0) @ wv
    covered = present.astype(float) @ wv
    complete = present.all(axis=1)
    if missing == "renormalize":
        with np.errstate(invalid="ignore", divide="ignore"):
            score = np.where(covered > 0, num / np.where(covered > 0, covered, 1.0), np.nan)
    else:
        score = np.where(complete, num, np.nan)
    names = np.asarray(used.index)
    out = pd.DataFrame(
        {
            "score": score,
            "weight_covered": covered,
            "n_groups": present.sum(axis=1).astype(int),
            "missing_groups": [", ".join(names[~p]) for p in present],
            "flagged": ~complete,
            "excluded": np.isnan(score),
        },
        index=group_wr.index,
    )
    out.insert(1, "rank", out["score"].rank(ascending=False, method="min"))
    out.index.name = group_wr.index.name or "model"
    order = np.lexsort((out.index.astype(str).to_numpy(), out["rank"].fillna(np.inf).to_numpy()))
    return out.iloc[order]


# ----------------------------------------------------------------------------- comparing rankings


def _ranks(x: pd.Series | pd.DataFrame) -> pd.Series:
    if isinstance(x, pd.DataFrame):
        if "rank" not in x.columns:
            raise ValueError("a ranking frame needs a 'rank' column (as recipe_scores returns)")
        x = x["rank"]
    if not isinstance(x, pd.Series):
        raise TypeError("a ranking must be a Series of ranks (1 = best) indexed by model, or a frame with 'rank'")
    s = pd.to_numeric(x, errors="coerce").astype(float)
    return s[s.notna()]


def _common(a, b) -> tuple[pd.Series, pd.Series]:
    ra, rb = _ranks(a), _ranks(b)
    common = ra.index.intersection(rb.index, sort=False)
    return ra.loc[common], rb.loc[common]


def rank_shift(a: pd.Series | pd.DataFrame, b: pd.Series | pd.DataFrame) -> pd.DataFrame:
    """How each model moves from ranking `a` to ranking `b` (ranks: 1 = best).

    Only models ranked in both are compared, and both rankings are re-ranked among those models,
    so a model left out of one ranking does not shift everybody else.
    Columns: rank_a, rank_b, shift (= rank_a − rank_b: positive means it moved up under b).
    Sorted by rank_b, then rank_a, then name.
    """
    ra, rb = _common(a, b)
    ra = ra.rank(method="min")
    rb = rb.rank(method="min")
    out = pd.DataFrame({"rank_a": ra, "rank_b": rb, "shift": ra - rb})
    out.index.name = "model"
    order = np.lexsort((out.index.astype(str).to_numpy(), out["rank_a"].to_numpy(), out["rank_b"].to_numpy()))
    return out.iloc[order]


def kendall_tau(a: pd.Series | pd.DataFrame, b: pd.Series | pd.DataFrame) -> float:
    """Kendall's tau-b between two rankings over the models ranked in both (ties handled);
    NaN with fewer than two common models or when one ranking is all ties."""
    ra, rb = _common(a, b)
    n = len(ra)
    if n < 2:
        return float("nan")
    x, y = ra.to_numpy(), rb.to_numpy()
    dx = np.sign(x[:, None] - x[None, :]).astype(np.int8)
    dy = np.sign(y[:, None] - y[None, :]).astype(np.int8)
    s = float(np.sum(dx.astype(np.int64) * dy)) / 2.0
    n0 = n * (n - 1) / 2.0
    tx = (float(np.sum(dx == 0)) - n) / 2.0
    ty = (float(np.sum(dy == 0)) - n) / 2.0
    den = np.sqrt((n0 - tx) * (n0 - ty))
    return float(s / den) if den > 0 else float("nan")


# ----------------------------------------------------------------------------- page-sized bundles (cache-friendly)

WeightItems = tuple[tuple[str, float], ...]


@dataclass(frozen=True)
class RecipeRanking:
    """Everything the podium needs for one cohort and recipe."""

    kind: str  # "published" or "recomputed" group win rates
    group_wr: pd.DataFrame  # models × RECIPE_GROUPS
    coverage: pd.Series  # models with a value per group
    weights: pd.Series  # normalised
    accuracy: pd.DataFrame  # recipe_scores under accuracy only
    recipe: pd.DataFrame  # recipe_scores under the recipe
    shift: pd.DataFrame  # rank_shift(accuracy, recipe)
    tau: float  # kendall_tau(accuracy, recipe)


def weight_mapping(weights) -> dict:
    """A recipe's weights as given to a page-sized call: a tuple or list of (group, weight) pairs becomes a dict;
    anything else (a mapping) is returned as it is."""
    return dict(weights) if isinstance(weights, (tuple, list)) else weights


def ranked_groups(release: Release) -> tuple[str, ...]:
    """The recipe groups a release's podium ranks on: all seven for classic (and loaded data, where a missing
    group is flagged per model), and for a later bundled release (Lite, Capabilities) only the groups its
    tables measure, since no model there can have the others."""
    if release.is_later:
        res = release.results
        have = set(res.loc[res["value"].notna(), "metric_group"])
        return tuple(g for g in RECIPE_GROUPS if g in have)
    return RECIPE_GROUPS


def release_weights(release: Release, weights: WeightItems | Mapping[str, float]) -> dict[str, float]:
    """The recipe's weights on the groups the release ranks on (ranked_groups); the others are set aside.
    May leave every weight at zero (normalize_weights then says so)."""
    groups = set(ranked_groups(release))
    return {g: float(v) for g, v in weight_mapping(weights).items() if g in groups}


def recipe_ranking(release: Release, models: Iterable[str] | None, weights: WeightItems | Mapping[str, float],
                   missing: str = "renormalize") -> RecipeRanking:
    """Accuracy-only ranking beside the recipe's ranking for `models`, on the group win rates a page
    should show (shown_group_win_rates). `weights` may be a tuple of (group, weight) pairs (hashable).
    One set of models per view: with missing="exclude" the accuracy ranking ranks only the models the recipe
    ranks (those with every weighted group), so its ranks and the rank shifts count the same models."""
    wr, kind = shown_group_win_rates(release, models)
    gwr = wr.reindex(columns=list(RECIPE_GROUPS))
    w = normalize_weights(release_weights(release, weights))
    rec = recipe_scores(gwr, w, missing=missing)
    acc = recipe_scores(gwr, {"accuracy": 1.0}, missing=missing)
    if missing == "exclude":  # rank accuracy among the recipe's models; the others stay listed, unranked
        kept = rec.index[~rec["excluded"]]
        dropped = acc.index.difference(kept, sort=False)
        acc = pd.concat([recipe_scores(gwr.loc[kept], {"accuracy": 1.0}, missing=missing),
                         acc.loc[dropped].assign(score=np.nan, rank=np.nan, excluded=True)])
    return RecipeRanking(kind=kind, group_wr=gwr, coverage=group_coverage(gwr), weights=w, accuracy=acc,
                         recipe=rec, shift=rank_shift(acc, rec), tau=kendall_tau(acc, rec))


# The 2022 paper's accuracy podium (claim "top_accuracy" in data/claims.toml).
PAPER_ACCURACY_PODIUM: tuple[str, ...] = ("text-davinci-002", "TNLG v2 (530B)", "Anthropic-LM v4-s3 (52B)")


def paper_podium_check(release: Release, models: Iterable[str] | None = None) -> pd.DataFrame:
    """Where the paper's accuracy podium stands in this release: accuracy win rate and rank among `models`
    (shown kind) and among the release's paper cohort (recomputed among those models).
    One row per podium model present in the release: model, paper_place, win_rate, rank, n,
    cohort_win_rate, cohort_rank, cohort_n."""
    from .data import cohort_models

    names = release.model_names if models is None else list(models)
    wr, _ = shown_group_win_rates(release, names)
    acc = wr["accuracy"] if "accuracy" in wr.columns else pd.Series(np.nan, index=names)
    paper = cohort_models(release, "paper")
    pacc = group_win_rates(release, paper, ("accuracy",))["accuracy"] if paper else pd.Series(dtype=float)
    rows = []
    for place, m in enumerate(PAPER_ACCURACY_PODIUM, start=1):
        if m not in release.model_names:
            continue
        rows.append({
            "model": m,
            "paper_place": place,
            "win_rate": float(acc.get(m, np.nan)),
            "rank": float(acc.rank(ascending=False, method="min").get(m, np.nan)),
            "n": int(acc.notna().sum()),
            "cohort_win_rate": float(pacc.get(m, np.nan)),
            "cohort_rank": float(pacc.rank(ascending=False, method="min").get(m, np.nan)),
            "cohort_n": int(pacc.notna().sum()),
        })
    cols = ["model", "paper_place", "win_rate", "rank", "n", "cohort_win_rate", "cohort_rank", "cohort_n"]
    return pd.DataFrame(rows, columns=cols)
