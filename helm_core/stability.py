"""How sure first place is when a recipe's weights are perturbed (podium stability).

Weight vectors are drawn from a Dirichlet distribution centred on the recipe and the models scored under each,
as helm_core.ranking.recipe_scores does; `stability_verdict` puts the share of first places into words.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Mapping

import numpy as np
import pandas as pd

from .data import Release
from .ranking import (MISSING_POLICIES, RECIPE_GROUPS, WeightItems, normalize_weights, recipe_scores,
                      release_weights, weight_mapping, weighted_matrix)
from .win_rates import shown_group_win_rates


def _small_matmul(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """a (k × g) @ b (g × m) for a handful of groups g with numpy's own einsum loop: a multi-threaded BLAS call on
    such a thin product is slower, and on a busy machine far slower (it oversubscribes the cores)."""
    return np.einsum("kg,gm->km", a, b)


def podium_stability(
    group_wr: pd.DataFrame,
    weights,
    n_samples: int = 10_000,
    concentration: float = 50.0,
    seed: int = 0,
    missing: str = "renormalize",
) -> pd.DataFrame:
    """How often each model is first, and in the top three, when the recipe's weights are perturbed.

    Weight vectors are drawn from a Dirichlet distribution centred on the recipe (alpha = concentration ×
    normalised weight, over the groups the recipe weighs; groups it leaves at zero stay at zero). A larger
    concentration means smaller perturbations (each weight's standard deviation is about
    sqrt(w(1−w)/(concentration+1))). Models are scored under every sample as `recipe_scores` does, with the
    same missing-group policy. Exact score ties go to the model listed first.
    Returns per model: p_first, p_top3, and rank (its rank under the recipe itself), sorted by p_first, p_top3.
    """
    if missing not in MISSING_POLICIES:
        raise ValueError(f"unknown missing-group policy {missing!r}; expected one of {', '.join(MISSING_POLICIES)}")
    if isinstance(n_samples, bool) or not isinstance(n_samples, (int, np.integer)) or not 1 <= n_samples <= 1_000_000:
        raise ValueError(f"n_samples must be a whole number from 1 to 1,000,000, got {n_samples!r}")
    if isinstance(concentration, bool) or not isinstance(concentration, (int, float, np.integer, np.floating)) \
            or not np.isfinite(concentration) or concentration <= 0:
        raise ValueError(f"concentration must be a positive number, got {concentration!r}")
    base = recipe_scores(group_wr, weights, missing=missing)
    used, x, present = weighted_matrix(group_wr, weights)
    keep = present.all(axis=1) if missing == "exclude" else present.any(axis=1)
    models = group_wr.index[keep]
    m = len(models)
    cols = ["p_first", "p_top3", "rank"]
    if m == 0:
        return pd.DataFrame(columns=cols, index=pd.Index([], name="model"), dtype=float)
    xk = np.where(present[keep], x[keep], 0.0).T  # groups × models
    pk = present[keep].astype(float).T
    wv = used.to_numpy()
    rng = np.random.default_rng(seed)
    alpha = float(concentration) * wv
    first = np.zeros(m, dtype=np.int64)
    top = np.zeros(m, dtype=np.int64)
    renorm = missing == "renormalize" and not bool(pk.all())  # with every group present the weights sum to 1
    chunk = max(1, min(n_samples, 262_144 // max(m, 1)))  # a few MB per block keeps the work in cache
    done = 0
    while done < n_samples:
        k = min(chunk, n_samples - done)
        if len(wv) == 1:
            w = np.ones((k, 1))
        else:
            g = rng.standard_gamma(alpha, size=(k, len(wv)))
            tot = g.sum(axis=1, keepdims=True)
            bad = tot[:, 0] <= 0  # every gamma draw underflowed: fall back to the recipe itself
            if bad.any():
                g[bad] = wv
                tot[bad] = 1.0
            w = g / tot
        s = _small_matmul(w, xk)
        if renorm:
            den = _small_matmul(w, pk)
            with np.errstate(invalid="ignore", divide="ignore"):
                np.divide(s, den, out=s)
            zero = den <= 0
            if zero.any():
                s[zero] = -np.inf
        rows = np.arange(k)
        best = np.argmax(s, axis=1)
        first += np.bincount(best, minlength=m)
        if m <= 3:
            top += k
        else:
            # Three passes of argmax (each knocks out the winner) beat a partial sort on wide score matrices.
            top += np.bincount(best, minlength=m)
            for _ in range(2):
                s[rows, best] = -np.inf
                best = np.argmax(s, axis=1)
                top += np.bincount(best, minlength=m)
        done += k
    out = pd.DataFrame({"p_first": first / n_samples, "p_top3": top / n_samples}, index=models)
    out["rank"] = base["rank"].reindex(models)
    out.index.name = "model"
    order = np.lexsort((out["rank"].fillna(np.inf).to_numpy(), -out["p_top3"].to_numpy(), -out["p_first"].to_numpy()))
    return out.iloc[order]


def recipe_stability(release: Release, models: Iterable[str] | None, weights: WeightItems | Mapping[str, float],
                     missing: str = "renormalize", n_samples: int = 10_000, concentration: float = 50.0,
                     seed: int = 0) -> pd.DataFrame:
    """podium_stability on the group win rates a page should show for `models`."""
    wr, _ = shown_group_win_rates(release, models)
    gwr = wr.reindex(columns=list(RECIPE_GROUPS))
    return podium_stability(gwr, release_weights(release, weights), n_samples=n_samples, concentration=concentration,
                            seed=seed, missing=missing)


def dirichlet_spread(weights, concentration: float) -> pd.Series:
    """Standard deviation of each weight under podium_stability's Dirichlet (normalised weights, zero stays zero).
    The weights are normalised over the groups given: for a release, pass `release_weights(release, weights)` (or
    use `typical_weight_move`), since podium_stability perturbs only the groups the release ranks on."""
    w = normalize_weights(weight_mapping(weights))
    return np.sqrt(w * (1 - w) / (float(concentration) + 1.0)).rename("sd")


def typical_weight_move(release: Release, weights: WeightItems | Mapping[str, float], concentration: float) -> float:
    """How far a weight typically moves, relative to itself, when recipe_stability perturbs `weights` on `release`:
    the median over the weighted groups the release ranks on of sd / weight, sd from `dirichlet_spread` on the
    release's own weights (on Lite the holistic recipe weighs 2 groups at 1/2 each: ±14% at concentration 50;
    on classic 7 groups at 1/7: ±34%). 0 when a single group is weighted (nothing moves)."""
    w = normalize_weights(release_weights(release, weights))
    w = w[w > 0]
    sd = dirichlet_spread(w.to_dict(), concentration)[w.index]
    return float((sd / w).median())


# ----------------------------------------------------------------------------- how sure is first place

# A leader whose share of first places is within this many points of the runner-up's is not a leader.
TOSS_UP_MARGIN = 0.10
ROBUST_SHARE = 0.90  # first in at least 90% of the weight samples
# "Fairly stable" needs a majority of the samples and a lead over chance of at least a third of the way from
# chance (1/n) to certainty: with 2 models that is 2/3 of the samples, with 67 models the majority alone.
STABLE_SHARE = 0.50
STABLE_LEAD = 1 / 3
STABILITY_WORDS: tuple[str, ...] = ("robust", "fairly stable", "fragile", "a toss-up", "unchallenged")


def stability_word(p_first: float, p_runner_up: float, n_models: int) -> str:
    """How sure first place is under perturbed weights, from the leader's share of first places `p_first`, the
    runner-up's `p_runner_up` and the number of models ranked `n_models`:
    "unchallenged" with a single model; "a toss-up" when the two shares are within TOSS_UP_MARGIN (50.8% against
    49.2% among 2 models); "robust" from ROBUST_SHARE; "fairly stable" with a majority of the samples and a lead
    over chance (1/n) of at least STABLE_LEAD of the way to certainty; "fragile" otherwise."""
    if n_models < 1 or not np.isfinite(p_first):
        raise ValueError(f"need at least one ranked model and a share of first places, got n={n_models}, "
                         f"p_first={p_first}")
    if n_models == 1:
        return "unchallenged"
    runner = float(p_runner_up) if np.isfinite(p_runner_up) else 0.0
    if p_first - runner < TOSS_UP_MARGIN:
        return "a toss-up"
    if p_first >= ROBUST_SHARE:
        return "robust"
    chance = 1.0 / n_models
    lead = (p_first - chance) / (1.0 - chance)
    if p_first >= STABLE_SHARE and lead >= STABLE_LEAD:
        return "fairly stable"
    return "fragile"


@dataclass(frozen=True)
class StabilityVerdict:
    word: str  # one of STABILITY_WORDS
    leader: str
    p_first: float
    runner_up: str  # "" with a single model
    p_runner_up: float
    n_models: int  # models ranked in the samples
    chance: float  # 1 / n_models: a leader's share of first places by chance alone


def stability_verdict(stab: pd.DataFrame) -> StabilityVerdict:
    """stability_word on podium_stability's frame (sorted, leader first): the leader, the runner-up (second
    in share of first places) and the number of models ranked."""
    if stab.empty:
        raise ValueError("no model was ranked, so first place has no verdict")
    p = stab["p_first"].astype(float)
    n = len(stab)
    runner = stab.index[1] if n > 1 else ""
    p_runner = float(p.iloc[1]) if n > 1 else float("nan")
    return StabilityVerdict(word=stability_word(float(p.iloc[0]), p_runner, n), leader=str(stab.index[0]),
                            p_first=float(p.iloc[0]), runner_up=str(runner), p_runner_up=p_runner, n_models=n,
                            chance=1.0 / n)
