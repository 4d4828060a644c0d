"""Head-to-head win rates, as HELM's summarize.py computes them, and recipes built on them.

Per column a model's win rate is the share of the *other* models with a value that it beats;
ties count half; lower-is-better columns are inverted; columns with fewer than two values or
no direction are skipped; a model's mean win rate is the mean over the columns where it has a value.

A *recipe* is a weight per metric group applied to the per-group mean win rates (DESIGN.md §4).
A model without a value for a weighted group is never scored as zero: it is either scored over the
groups it has, with the weights renormalised, or excluded, and in both cases flagged.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Mapping, Sequence

import numpy as np
import pandas as pd

from .data import CORE_GROUPS, Release, in_2022_paper, select_models, strongly_contaminated

WIN_RATE_GROUPS: tuple[str, ...] = CORE_GROUPS + ("summarization_metrics",)


def _directions(lower_is_better, columns: pd.Index) -> list[object]:
    """One direction per column: from a Series or any mapping keyed by column (a column it lacks has no
    direction, so it is skipped), or from a sequence in column order. Anything else is a TypeError: a dict
    is not read as a sequence of its keys, nor a string as a sequence of characters."""
    if isinstance(lower_is_better, pd.Series):
        lib = lower_is_better.reindex(columns)
        return [None if pd.isna(v) else bool(v) for v in lib]
    if isinstance(lower_is_better, Mapping):
        lib = [lower_is_better.get(c) for c in columns]
        return [None if v is None or (isinstance(v, float) and np.isnan(v)) or v is pd.NA else bool(v) for v in lib]
    if not isinstance(lower_is_better, (list, tuple, np.ndarray, pd.Index, pd.api.extensions.ExtensionArray)):
        raise TypeError("lower_is_better must be a Series or mapping keyed by column, or a list in column order; "
                        f"got {type(lower_is_better).__name__}")
    lib = list(lower_is_better)
    if len(lib) != len(columns):
        raise ValueError(f"lower_is_better has {len(lib)} entries for {len(columns)} columns")
    return [None if v is None or (isinstance(v, float) and np.isnan(v)) or v is pd.NA else bool(v) for v in lib]


def column_win_rates(table: pd.DataFrame,
                     lower_is_better: pd.Series | Mapping[object, object] | Sequence[object]) -> pd.DataFrame:
    """Per-column win rates (same shape as `table`); NaN where a model has no value or the column is skipped."""
    if not isinstance(table, pd.DataFrame):
        raise TypeError("table must be a DataFrame of models × columns")
    dirs = _directions(lower_is_better, table.columns)
    values = table.to_numpy(dtype=float, copy=True)
    keep = np.array([d is not None for d in dirs], dtype=bool)
    if values.size == 0 or not keep.any():
        return pd.DataFrame(np.nan, index=table.index, columns=table.columns)
    sign = np.array([(-1.0 if d else 1.0) if d is not None else 1.0 for d in dirs])
    oriented = values * sign  # higher is better everywhere now
    ranks = pd.DataFrame(oriented).rank(axis=0, method="average", na_option="keep").to_numpy()
    n = np.sum(~np.isnan(values), axis=0).astype(float)
    usable = keep & (n >= 2)
    with np.errstate(invalid="ignore", divide="ignore"):
        wr = (ranks - 1.0) / (n - 1.0)
    wr[:, ~usable] = np.nan
    return pd.DataFrame(wr, index=table.index, columns=table.columns)


def win_rates(table: pd.DataFrame,
              lower_is_better: pd.Series | Mapping[object, object] | Sequence[object]) -> pd.Series:
    """Mean win rate per row (model) of a models × columns table; NaN for a model with no usable value."""
    per_col = column_win_rates(table, lower_is_better)
    return per_col.mean(axis=1, skipna=True).rename("win_rate")


def group_table(release: Release, group: str, exclude_contaminated: bool = True) -> tuple[pd.DataFrame, pd.Series]:
    """The models × (scenario, metric) table of one metric group and each column's direction.

    Rows follow release.models, columns the order in which (scenario, metric) first appears in the results.
    Where a (model, scenario, metric) appears more than once, the first value that is not blank is kept.
    """
    res = release.results
    mask = (res["metric_group"] == group).to_numpy()
    if exclude_contaminated:
        mask = mask & ~strongly_contaminated(release).to_numpy()
    r = res[mask]
    pairs = r[["scenario", "metric"]]
    first = ~pairs.duplicated()
    cols = pd.MultiIndex.from_frame(pairs[first].reset_index(drop=True))
    lib = pd.Series(r["lower_is_better"].to_numpy()[first.to_numpy()], index=cols, name="lower_is_better")
    models = release.model_names
    values = np.full((len(models), len(cols)), np.nan)
    if len(r):
        row = pd.Index(models).get_indexer(r["model"])
        col = cols.get_indexer(pd.MultiIndex.from_frame(pairs))
        v = r["value"].to_numpy(dtype=float)
        ok = (row >= 0) & ~np.isnan(v)
        # Assign in reverse so the first non-blank value of a duplicated cell wins.
        values[row[ok][::-1], col[ok][::-1]] = v[ok][::-1]
    table = pd.DataFrame(values, index=pd.Index(models, name="model"), columns=cols)
    return table, lib


def group_win_rates(
    release: Release,
    models: Iterable[str] | None = None,
    groups: Sequence[str] = WIN_RATE_GROUPS,
    exclude_contaminated: bool = True,
) -> pd.DataFrame:
    """Models × metric groups mean win rates recomputed from the results.

    Cells HELM flags as strongly contaminated are left out (HELM does this since v0.2).
    With `models`, the win rates are computed among those models only.
    """
    rel = select_models(release, models) if models is not None else release
    out = {}
    for g in groups:
        if not (rel.results["metric_group"] == g).any():
            out[g] = pd.Series(np.nan, index=rel.model_names)
            continue
        table, lib = group_table(rel, g, exclude_contaminated)
        out[g] = win_rates(table, lib)
    df = pd.DataFrame(out, index=rel.model_names)
    df.index.name = "model"
    return df


def published_group_win_rates(release: Release) -> pd.DataFrame:
    """HELM's published per-group Mean win rate (models × groups); empty when the release has none."""
    p = release.published_win_rates
    if p is None or p.empty:
        return pd.DataFrame()
    present = set(p["metric_group"])
    cols = [g for g in WIN_RATE_GROUPS if g in present]
    listed = set(p["model"])
    rows = [m for m in release.model_names if m in listed]
    values = np.full((len(rows), len(cols)), np.nan)
    r = pd.Index(rows).get_indexer(p["model"])
    c = pd.Index(cols).get_indexer(p["metric_group"])
    v = pd.to_numeric(p["win_rate"], errors="coerce").to_numpy(dtype=float)
    ok = (r >= 0) & (c >= 0) & ~np.isnan(v)
    # first non-blank value per (model, group) wins, as pivot_table(aggfunc="first") did
    values[r[ok][::-1], c[ok][::-1]] = v[ok][::-1]
    t = pd.DataFrame(values, index=pd.Index(rows, name="model"), columns=pd.Index(cols, name="metric_group"))
    return t


def shown_group_win_rates(release: Release, models: Iterable[str] | None = None) -> tuple[pd.DataFrame, str]:
    """The group win rates a page should show, and which kind they are.

    For a release that carries HELM's published win rates, and the full model set, those are shown
    (recomputing bias and toxicity from 3-decimal inputs creates ties HELM did not have).
    Otherwise (a sub-cohort, or loaded data) they are recomputed among the chosen models.
    """
    selected = list(models) if models is not None else release.model_names
    published = published_group_win_rates(release)
    if not published.empty and set(selected) == set(release.model_names) and len(published) == len(selected):
        return published.reindex(selected), "published"
    return group_win_rates(release, selected), "recomputed"


# ----------------------------------------------------------------------------- recipes

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


def _weighted_matrix(group_wr: pd.DataFrame, weights) -> tuple[pd.Series, np.ndarray, np.ndarray]:
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
    used, x, present = _weighted_matrix(group_wr, weights)
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


# ----------------------------------------------------------------------------- podium stability


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
    used, x, present = _weighted_matrix(group_wr, weights)
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


# ----------------------------------------------------------------------------- the model set matters


def model_set_effect(
    release: Release,
    models: Iterable[str],
    target: str,
    removed: Iterable[str],
    groups: Sequence[str] = RECIPE_GROUPS,
) -> pd.DataFrame:
    """A model's win rates among `models`, and among `models` without the rivals in `removed`.

    Win rates are relative: the same scores give a different win rate against a different field.
    Both sides are recomputed from the results (like with like). One row per group:
    win_rate_with, win_rate_without, change, rank_with, rank_without, n_with, n_without.
    """
    models = list(dict.fromkeys(models))
    if target not in models:
        raise ValueError(f"{target!r} is not among the chosen models")
    drop = {m for m in removed if m != target}
    rest = [m for m in models if m not in drop]
    a = group_win_rates(release, models, groups)
    b = group_win_rates(release, rest, groups)
    rows = []
    for g in groups:
        wa = a[g] if g in a.columns else pd.Series(dtype=float)
        wb = b[g] if g in b.columns else pd.Series(dtype=float)
        va = float(wa.get(target, np.nan))
        vb = float(wb.get(target, np.nan))
        rows.append(
            {
                "metric_group": g,
                "win_rate_with": va,
                "win_rate_without": vb,
                "change": vb - va,
                "rank_with": float(wa.rank(ascending=False, method="min").get(target, np.nan)),
                "rank_without": float(wb.rank(ascending=False, method="min").get(target, np.nan)),
                "n_with": int(wa.notna().sum()),
                "n_without": int(wb.notna().sum()),
            }
        )
    return pd.DataFrame(rows)


RIVAL_SETS: dict[str, str] = {
    "newer": "models added after the 2022 paper",
    "stronger": "models with a higher accuracy win rate",
    "weaker": "models with a lower accuracy win rate",
}


def rival_sets(release: Release, models: Iterable[str], target: str) -> dict[str, list[str]]:
    """Ready-made sets of rivals to remove in `model_set_effect`: the models that are not among the 2022 paper's
    (by HELM id in any release: Lite's GPT-3.5 (text-davinci-002) is the paper's model, not a newer one), and the
    models above / below `target` on accuracy win rate (recomputed among `models`)."""
    models = list(dict.fromkeys(models))
    if target not in models:
        raise ValueError(f"{target!r} is not among the chosen models")
    acc = group_win_rates(release, models, ("accuracy",))["accuracy"]
    t = acc.get(target, np.nan)
    others = [m for m in models if m != target]
    paper = in_2022_paper(release).reindex(others).fillna(False).astype(bool)
    return {
        "newer": [m for m in others if not paper[m]],
        "stronger": [m for m in others if pd.notna(t) and pd.notna(acc[m]) and acc[m] > t],
        "weaker": [m for m in others if pd.notna(t) and pd.notna(acc[m]) and acc[m] < t],
    }


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


def _weights_arg(weights) -> dict:
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
    return {g: float(v) for g, v in _weights_arg(weights).items() if g in groups}


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


def recipe_stability(release: Release, models: Iterable[str] | None, weights: WeightItems | Mapping[str, float],
                     missing: str = "renormalize", n_samples: int = 10_000, concentration: float = 50.0,
                     seed: int = 0) -> pd.DataFrame:
    """podium_stability on the group win rates a page should show for `models`."""
    wr, _ = shown_group_win_rates(release, models)
    gwr = wr.reindex(columns=list(RECIPE_GROUPS))
    return podium_stability(gwr, release_weights(release, weights), n_samples=n_samples, concentration=concentration,
                            seed=seed, missing=missing)


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


def dirichlet_spread(weights, concentration: float) -> pd.Series:
    """Standard deviation of each weight under podium_stability's Dirichlet (normalised weights, zero stays zero).
    The weights are normalised over the groups given: for a release, pass `release_weights(release, weights)` (or
    use `typical_weight_move`), since podium_stability perturbs only the groups the release ranks on."""
    w = normalize_weights(_weights_arg(weights))
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


# ----------------------------------------------------------------------------- dominance over the groups held


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
