"""Calibration: expected calibration error, reliability bins, selective accuracy, a labelled simulation,
and what a release says about accuracy against calibration.

ECE follows HELM's `ece_10_bin` (`calibration.get_ece_em(max_probs, correct, num_bins=10)`, after Kumar et
al.'s uncertainty-calibration code): the probabilities of the top prediction are sorted and split into
`n_bins` groups of (nearly) equal size; the bin edges are the midpoints between neighbouring groups, with 1.0
as the last edge; repeated edges (ties) merge bins; a probability belongs to the first bin whose upper edge
is >= it (so a value equal to an edge goes to the lower bin). ECE is the count-weighted mean of
|accuracy - mean confidence| over the bins. With fewer samples than bins there is one bin per sample.
`strategy="uniform"` uses the equal-width edges 0.1, 0.2, ..., 1.0 with the same rule.

Inputs are validated like scikit-learn's `calibration_curve`: same length, at least one sample,
probabilities finite and in [0, 1], correctness 0/1. HELM notes that about 300 instances are needed for a
reliable 10-bin ECE; `few_samples` flags smaller sets.
"""
from __future__ import annotations

from typing import Iterable, Sequence

import numpy as np
import pandas as pd

from . import fmt
from .data import Release, select_models

STRATEGIES: tuple[str, ...] = ("equal_mass", "uniform")
STRATEGY_LABELS = {"equal_mass": "equal mass (HELM)", "uniform": "uniform width"}
N_BINS = 10
MIN_RELIABLE_SAMPLES = 300  # HELM: "We need at least about 300 examples to compute ece_10_bin reliably."
ECE_METRIC = "ECE (10-bin)"
CALIBRATION_GROUP = "calibration"
ACCURACY_GROUP = "accuracy"
BIN_COLUMNS = ["bin", "lower", "upper", "count", "mean_confidence", "accuracy", "gap"]


# ----------------------------------------------------------------------------- validation


def check_inputs(probs: Iterable[float], correct: Iterable[float]) -> tuple[np.ndarray, np.ndarray]:
    """Validate and convert: returns (probs as float64, correct as int64). Raises ValueError with a message
    a person can act on (which input, what was wrong, an example of the offending value)."""
    try:
        p = np.asarray(list(probs) if not isinstance(probs, (np.ndarray, pd.Series)) else probs, dtype=float)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"probs must be numbers between 0 and 1 ({exc})") from None
    try:
        c = np.asarray(list(correct) if not isinstance(correct, (np.ndarray, pd.Series)) else correct, dtype=float)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"correct must be 0/1 values ({exc})") from None
    if p.ndim != 1:
        raise ValueError(f"probs must be one-dimensional, got shape {p.shape}")
    if c.ndim != 1:
        raise ValueError(f"correct must be one-dimensional, got shape {c.shape}")
    if p.shape[0] != c.shape[0]:
        raise ValueError(f"probs and correct must have the same length, got {p.shape[0]} and {c.shape[0]}")
    if p.shape[0] == 0:
        raise ValueError("at least one sample is needed; got none")
    bad = ~np.isfinite(p) | (p < 0) | (p > 1)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise ValueError(
            f"probs must lie in [0, 1]; {int(bad.sum())} value(s) do not, e.g. {p[i]!r} at position {i}"
        )
    badc = ~np.isin(c, (0.0, 1.0))
    if badc.any():
        i = int(np.flatnonzero(badc)[0])
        raise ValueError(
            f"correct must be 0 or 1 (or True/False); {int(badc.sum())} value(s) are not, e.g. {c[i]!r} at position {i}"
        )
    return p, c.astype(np.int64)


def _check_bins(n_bins: int, strategy: str) -> int:
    if strategy not in STRATEGIES:
        raise ValueError(f"unknown bin strategy {strategy!r}; expected one of {', '.join(STRATEGIES)}")
    if isinstance(n_bins, bool) or not isinstance(n_bins, (int, np.integer)) or n_bins < 1:
        raise ValueError(f"n_bins must be a positive integer, got {n_bins!r}")
    return int(n_bins)


def few_samples(n: int) -> bool:
    """True when a 10-bin ECE from `n` samples is below HELM's ~300-instance reliability threshold."""
    return int(n) < MIN_RELIABLE_SAMPLES


# ----------------------------------------------------------------------------- bins and ECE


def bin_edges(probs: Iterable[float], n_bins: int = N_BINS, strategy: str = "equal_mass") -> np.ndarray:
    """Upper bin edges (ascending, the last is 1.0), as HELM's `get_equal_bins` / equal-width bins."""
    n_bins = _check_bins(n_bins, strategy)
    p = np.sort(np.asarray(probs, dtype=float))
    if strategy == "uniform":
        return np.arange(1, n_bins + 1, dtype=float) / n_bins
    k = min(n_bins, len(p))
    if k <= 1:
        return np.array([1.0])
    groups = np.array_split(p, k)
    edges = [(groups[i][-1] + groups[i + 1][0]) / 2.0 for i in range(k - 1)]
    edges.append(1.0)
    return np.unique(np.asarray(edges, dtype=float))


def assign_bins(probs: np.ndarray, edges: np.ndarray) -> np.ndarray:
    """Bin index of each probability: the first bin whose upper edge is >= the probability."""
    return np.searchsorted(edges, probs, side="left")


def reliability_bins(probs: Iterable[float], correct: Iterable[float], n_bins: int = N_BINS,
                     strategy: str = "equal_mass") -> pd.DataFrame:
    """Per bin: `lower`/`upper` edge, `count`, `mean_confidence`, `accuracy` and `gap` (accuracy minus
    confidence; negative = overconfident). Empty bins keep count 0 and NaN means."""
    p, c = check_inputs(probs, correct)
    edges = bin_edges(p, n_bins, strategy)
    idx = assign_bins(p, edges)
    nb = len(edges)
    count = np.bincount(idx, minlength=nb).astype(np.int64)
    sum_p = np.bincount(idx, weights=p, minlength=nb)
    sum_c = np.bincount(idx, weights=c.astype(float), minlength=nb)
    with np.errstate(invalid="ignore", divide="ignore"):
        conf = np.where(count > 0, sum_p / np.maximum(count, 1), np.nan)
        acc = np.where(count > 0, sum_c / np.maximum(count, 1), np.nan)
    lower = np.concatenate([[0.0], edges[:-1]])
    return pd.DataFrame({
        "bin": np.arange(1, nb + 1), "lower": lower, "upper": edges, "count": count,
        "mean_confidence": conf, "accuracy": acc, "gap": acc - conf,
    })


def ece_from_bins(bins: pd.DataFrame) -> float:
    n = float(bins["count"].sum())
    if n <= 0:
        raise ValueError("at least one sample is needed; the bins are empty")
    used = bins[bins["count"] > 0]
    return float(np.sum(used["count"] / n * np.abs(used["gap"])))


def ece(probs: Iterable[float], correct: Iterable[float], n_bins: int = N_BINS, strategy: str = "equal_mass") -> float:
    """Expected calibration error of the top prediction (HELM's ece_10_bin with the defaults)."""
    return ece_from_bins(reliability_bins(probs, correct, n_bins, strategy))


def selective_accuracy(probs: Iterable[float], correct: Iterable[float], coverage: float = 0.1) -> float:
    """Accuracy on the most confident `coverage` share of the samples (HELM reports 10%).

    Keeps the k = ceil(coverage * n) (at least 1) most confident samples; samples tied with the k-th
    confidence are all kept, so the result does not depend on the order of the input. (HELM's own
    `get_selective_stats` takes the first int(0.1 n) + 1 after a sort, one more than this.)"""
    p, c = check_inputs(probs, correct)
    cov = float(coverage)
    if not np.isfinite(cov) or cov <= 0 or cov > 1:
        raise ValueError(f"coverage must be in (0, 1], got {coverage!r}")
    k = max(1, int(np.ceil(cov * len(p) - 1e-9)))
    threshold = np.sort(p)[::-1][k - 1]
    keep = p >= threshold
    return float(c[keep].mean())


def summarize(probs: Iterable[float], correct: Iterable[float], n_bins: int = N_BINS,
              strategy: str = "equal_mass") -> dict:
    """Everything a reliability diagram shows: bins, ECE, sample size and the small-sample flag,
    accuracy, mean confidence, and selective accuracy at 10% coverage."""
    p, c = check_inputs(probs, correct)
    bins = reliability_bins(p, c, n_bins, strategy)
    return {
        "bins": bins,
        "ece": ece_from_bins(bins),
        "n": int(len(p)),
        "few_samples": few_samples(len(p)),
        "accuracy": float(c.mean()),
        "mean_confidence": float(p.mean()),
        "selective_accuracy_10": selective_accuracy(p, c, 0.1),
        "strategy": strategy,
        "n_bins_used": int((bins["count"] > 0).sum()),
    }


# ----------------------------------------------------------------------------- simulation

SIM_CONCENTRATION = 4.0
SIM_CONF_BASE = 4.0


def simulate(accuracy: float, overconfidence: float, n: int = 1000, seed: int = 0) -> pd.DataFrame:
    """A labelled simulation (not HELM data): `n` answers whose chance of being right is p ~ Beta with
    mean `accuracy`; each answer is right with probability p, and the model states the confidence
    p ** (4 ** -overconfidence). overconfidence 0 = perfectly calibrated in expectation, > 0 = says more
    than it knows (the reliability curve sags below the diagonal), < 0 = says less. Seeded numpy.
    Returns columns `prob`, `correct`."""
    a = float(accuracy)
    o = float(overconfidence)
    if not np.isfinite(a) or not 0 < a < 1:
        raise ValueError(f"accuracy must be strictly between 0 and 1, got {accuracy!r}")
    if not np.isfinite(o) or abs(o) > 3:
        raise ValueError(f"overconfidence must be between -3 and 3, got {overconfidence!r}")
    if isinstance(n, bool) or int(n) != n or n < 1:
        raise ValueError(f"n must be a positive whole number, got {n!r}")
    rng = np.random.default_rng(int(seed))
    p_true = rng.beta(a * SIM_CONCENTRATION, (1 - a) * SIM_CONCENTRATION, size=int(n))
    correct = (rng.random(int(n)) < p_true).astype(np.int64)
    prob = np.clip(p_true, 0.0, 1.0) ** (SIM_CONF_BASE ** (-o))
    return pd.DataFrame({"prob": np.clip(prob, 0.0, 1.0), "correct": correct})


def simulated_reliability(accuracy: float, overconfidence: float, n: int = 1000, n_bins: int = N_BINS,
                          strategy: str = "equal_mass", seed: int = 0) -> dict:
    """`summarize` of a `simulate` draw (what the page's simulation shows)."""
    sim = simulate(accuracy, overconfidence, n, seed)
    out = summarize(sim["prob"], sim["correct"], n_bins, strategy)
    out["simulated"] = True
    return out


# ----------------------------------------------------------------------------- per-instance data

INSTANCE_COLUMNS = ("model", "scenario", "run", "prob", "correct")
INSTANCE_SOURCES = ("instance_confidences", "instances")


def confidence_table(df: pd.DataFrame) -> pd.DataFrame:
    """Validate a per-instance frame with columns `prob` (probability of the model's chosen answer) and
    `correct` (0/1), optionally `model`, `scenario` and `run` (a HELM run name). Rows without a probability
    (no log-probabilities returned) are dropped. Returns a new frame with columns model, scenario, run, prob,
    correct (missing text columns are empty strings)."""
    if not isinstance(df, pd.DataFrame):
        raise ValueError(f"expected a table (DataFrame) of per-instance confidences, got {type(df).__name__}")
    missing = [c for c in ("prob", "correct") if c not in df.columns]
    if missing:
        raise ValueError(
            f"per-instance table lacks column(s) {', '.join(missing)}; found {', '.join(map(str, df.columns)) or 'none'}"
        )
    n = len(df)
    text = {c: (df[c].fillna("").astype(str).to_numpy() if c in df.columns else np.full(n, "", dtype=object))
            for c in ("model", "scenario", "run")}
    out = pd.DataFrame({**text, "prob": pd.to_numeric(df["prob"], errors="coerce").to_numpy(),
                        "correct": df["correct"].to_numpy()})
    out = out[out["prob"].notna()].reset_index(drop=True)
    if out.empty:
        return pd.DataFrame({c: pd.Series(dtype=float if c == "prob" else "int64" if c == "correct" else object)
                             for c in INSTANCE_COLUMNS})
    p, c = check_inputs(out["prob"].to_numpy(), pd.to_numeric(out["correct"], errors="coerce").to_numpy())
    out["prob"] = p
    out["correct"] = c
    return out[list(INSTANCE_COLUMNS)]


def release_instances(release: Release) -> pd.DataFrame:
    """Per-instance confidences a release carries (a loaded HELM run with log-probabilities), as
    `confidence_table`; an empty frame when it carries none (the bundled release carries none).
    Looks for a DataFrame in the release attribute or meta entry `instance_confidences` (what
    helm_core.helm_output writes) or `instances`."""
    for name in INSTANCE_SOURCES:
        src = getattr(release, name, None)
        if src is None and isinstance(release.meta, dict):
            src = release.meta.get(name)
        if isinstance(src, pd.DataFrame) and {"prob", "correct"} <= set(src.columns):
            return confidence_table(src)
    return confidence_table(pd.DataFrame(columns=["prob", "correct"]))


def instance_groups(release: Release) -> pd.DataFrame:
    """(model, scenario, run, n, label) for every HELM run with per-instance confidences, largest first.
    `label` is "model · scenario", with the run name added where a pair has several runs."""
    inst = release_instances(release)
    if inst.empty:
        return pd.DataFrame({"model": pd.Series(dtype=object), "scenario": pd.Series(dtype=object),
                             "run": pd.Series(dtype=object), "n": pd.Series(dtype=np.int64),
                             "label": pd.Series(dtype=object)})
    g = inst.groupby(["model", "scenario", "run"], sort=False).size().reset_index(name="n")
    runs_per_pair = g.groupby(["model", "scenario"])["run"].transform("size")
    base = g["model"] + " · " + g["scenario"]
    g["label"] = np.where((runs_per_pair > 1) & (g["run"] != ""), base + " · " + g["run"], base)
    return g.sort_values(["n", "label"], ascending=[False, True]).reset_index(drop=True)


def release_reliability(release: Release, model: str, scenario: str, run: str = "", n_bins: int = N_BINS,
                        strategy: str = "equal_mass") -> dict:
    """`summarize` of the release's per-instance confidences for one (model, scenario, run)."""
    inst = release_instances(release)
    sel = inst[(inst["model"] == model) & (inst["scenario"] == scenario) & (inst["run"] == run)]
    if sel.empty:
        raise ValueError(f"no per-instance confidences for model {model[:60]!r} on {scenario[:60]!r}")
    out = summarize(sel["prob"].to_numpy(), sel["correct"].to_numpy(), n_bins, strategy)
    out["simulated"] = False
    return out


# ----------------------------------------------------------------------------- accuracy vs ECE in a release


def rank_correlation(x: Iterable[float], y: Iterable[float]) -> float:
    """Spearman's rank correlation without scipy: average ranks (ties share a rank), then Pearson.
    NaN with fewer than 3 complete pairs or when either side is constant."""
    d = pd.DataFrame({"x": pd.Series(list(x), dtype=float), "y": pd.Series(list(y), dtype=float)}).dropna()
    if len(d) < 3:
        return float("nan")
    rx = d["x"].rank(method="average").to_numpy()
    ry = d["y"].rank(method="average").to_numpy()
    if np.ptp(rx) == 0 or np.ptp(ry) == 0:
        return float("nan")
    return float(np.corrcoef(rx, ry)[0, 1])


def pearson(x: Iterable[float], y: Iterable[float]) -> float:
    d = pd.DataFrame({"x": pd.Series(list(x), dtype=float), "y": pd.Series(list(y), dtype=float)}).dropna()
    if len(d) < 3 or np.ptp(d["x"]) == 0 or np.ptp(d["y"]) == 0:
        return float("nan")
    return float(np.corrcoef(d["x"], d["y"])[0, 1])


def _restrict(release: Release, models: Iterable[str] | None) -> Release:
    return select_models(release, models) if models is not None else release


def _metric(release: Release, group: str, metric: str | None = None) -> pd.DataFrame:
    r = release.results
    r = r[r["metric_group"] == group]
    if metric is not None:
        r = r[r["metric"] == metric]
    return r


def calibration_scenarios(release: Release) -> list[str]:
    """Scenarios (taxonomy order) where at least one model of the release has an ECE value."""
    cal = _metric(release, CALIBRATION_GROUP, ECE_METRIC)
    have = set(cal.loc[cal["value"].notna(), "scenario"])
    return [s for s in release.taxonomy.scenario_names if s in have]


def accuracy_vs_ece(release: Release, scenario: str, models: Iterable[str] | None = None) -> pd.DataFrame:
    """One row per model with both values on `scenario`: model, organization, access, accuracy, ece,
    accuracy_metric. Sorted by accuracy, best first."""
    rel = _restrict(release, models)
    acc = _metric(rel, ACCURACY_GROUP)
    acc = acc[(acc["scenario"] == scenario) & acc["value"].notna()]
    cal = _metric(rel, CALIBRATION_GROUP, ECE_METRIC)
    cal = cal[(cal["scenario"] == scenario) & cal["value"].notna()]
    a = acc.drop_duplicates("model").set_index("model")
    e = cal.drop_duplicates("model").set_index("model")["value"]
    both = [m for m in a.index if m in e.index]
    info = rel.models.set_index("model")
    out = pd.DataFrame({
        "model": both,
        "organization": [info["organization"].get(m, "") for m in both],
        "access": [info["access"].get(m, "") for m in both],
        "accuracy": [float(a.loc[m, "value"]) for m in both],
        "ece": [float(e.loc[m]) for m in both],
        "accuracy_metric": [str(a.loc[m, "metric"]) for m in both],
    })
    return out.sort_values(["accuracy", "model"], ascending=[False, True]).reset_index(drop=True)


def correlation_summary(release: Release, scenario: str, models: Iterable[str] | None = None) -> dict:
    """n, Spearman rank correlation and Pearson correlation of accuracy with ECE on `scenario`.
    Positive = more accurate models have a higher ECE (worse calibrated)."""
    d = accuracy_vs_ece(release, scenario, models)
    return {"scenario": scenario, "n": int(len(d)), "spearman": rank_correlation(d["accuracy"], d["ece"]),
            "pearson": pearson(d["accuracy"], d["ece"])}


# Paper claims that the data can test (claim ids in data/claims.toml).
# direction +1: "more accurate => worse calibrated" (accuracy and ECE rise together); -1: the opposite.
CLAIM_TESTS: tuple[dict, ...] = (
    {"claim_id": "calibration_hellaswag", "scenario": "HellaSwag", "kind": "direction", "sign": 1,
     "expects": "more accurate models are worse calibrated"},
    {"claim_id": "calibration_openbookqa", "scenario": "OpenbookQA", "kind": "direction", "sign": -1,
     "expects": "more accurate models are better calibrated"},
    {"claim_id": "calibration_civilcomments", "scenario": "CivilComments", "kind": "floor", "sign": 1,
     "threshold": 0.40, "expects": "every model has ECE of 0.40 or more, and more accurate models are worse calibrated"},
)
CLEAR_CORRELATION = 0.3  # |rank correlation| below this counts as no clear relation
VERDICTS = ("agrees", "disagrees", "partly agrees", "no clear relation", "not enough data")


def _direction_verdict(rho: float, sign: int) -> str:
    if not np.isfinite(rho):
        return "not enough data"
    if abs(rho) < CLEAR_CORRELATION:
        return "no clear relation"
    return "agrees" if np.sign(rho) == sign else "disagrees"


def _describe_rho(rho: float) -> str:
    if not np.isfinite(rho):
        return "no correlation can be computed"
    if abs(rho) < CLEAR_CORRELATION:
        return f"no clear relation (rank correlation {rho:+.2f})"
    way = "worse" if rho > 0 else "better"
    return f"more accurate models are {way} calibrated (rank correlation of accuracy with ECE {rho:+.2f})"


def claim_verdicts(release: Release, models: Iterable[str] | None = None) -> pd.DataFrame:
    """For each testable calibration claim: scenario, n models, rank correlation, the verdict
    (one of VERDICTS) and a sentence saying what the data shows."""
    rows = []
    for t in CLAIM_TESTS:
        s = t["scenario"]
        d = accuracy_vs_ece(release, s, models)
        n = int(len(d))
        rho = rank_correlation(d["accuracy"], d["ece"])
        row = {"claim_id": t["claim_id"], "scenario": s, "n_models": n, "spearman": rho,
               "pearson": pearson(d["accuracy"], d["ece"]), "min_ece": float(d["ece"].min()) if n else float("nan"),
               "n_below_threshold": np.nan}
        if n < 3:
            row["verdict"] = "not enough data"
            row["detail"] = f"Only {fmt.count(n, 'model')} {fmt.plural(n, 'has')} both accuracy and ECE on {s} here, too few to test the claim."
        elif t["kind"] == "direction":
            row["verdict"] = _direction_verdict(rho, t["sign"])
            row["detail"] = f"Across {n} models on {s}, {_describe_rho(rho)}; the claim expects that {t['expects']}."
        else:
            thr = float(t["threshold"])
            below = int((d["ece"] < thr).sum())
            row["n_below_threshold"] = below
            floor_ok = below == 0
            dir_v = _direction_verdict(rho, t["sign"])
            if floor_ok and dir_v == "agrees":
                row["verdict"] = "agrees"
            elif not floor_ok and dir_v in ("disagrees", "no clear relation"):
                row["verdict"] = "disagrees"
            else:
                row["verdict"] = "partly agrees"
            floor_txt = (f"all {n} models have ECE of {thr:.2f} or more (lowest {d['ece'].min():.3f})" if floor_ok
                         else f"{below} of {n} models have ECE below {thr:.2f} (lowest {d['ece'].min():.3f})")
            row["detail"] = f"On {s}, {floor_txt}, and {_describe_rho(rho)}."
        rows.append(row)
    return pd.DataFrame(rows, columns=["claim_id", "scenario", "n_models", "spearman", "pearson", "min_ece",
                                       "n_below_threshold", "verdict", "detail"])


def models_without_ece(release: Release, scenario: str | None = None,
                       models: Iterable[str] | None = None) -> pd.DataFrame:
    """Models with an accuracy value but no ECE, on `scenario` or (None) on any scenario where the release
    has ECE for some model. Columns: model, organization, access, n_missing (scenarios with accuracy but
    no ECE), n_with_ece (scenarios where it has an ECE), scenarios (the missing ones, '; '-joined)."""
    rel = _restrict(release, models)
    scen = [scenario] if scenario is not None else calibration_scenarios(release)
    acc = _metric(rel, ACCURACY_GROUP)
    acc = acc[acc["scenario"].isin(scen) & acc["value"].notna()][["model", "scenario"]].drop_duplicates()
    cal = _metric(rel, CALIBRATION_GROUP, ECE_METRIC)
    cal = cal[cal["scenario"].isin(scen) & cal["value"].notna()][["model", "scenario"]].drop_duplicates()
    have = set(map(tuple, cal.to_numpy()))
    miss = acc[[(m, s) not in have for m, s in acc.to_numpy()]]
    n_with = cal.groupby("model").size()
    order = {s: i for i, s in enumerate(release.taxonomy.scenario_names)}
    info = rel.models.set_index("model")
    rows = []
    for m, g in miss.groupby("model", sort=False):
        ss = sorted(g["scenario"], key=lambda s: order.get(s, len(order)))
        rows.append({"model": m, "organization": info["organization"].get(m, ""), "access": info["access"].get(m, ""),
                     "n_missing": len(ss), "n_with_ece": int(n_with.get(m, 0)), "scenarios": "; ".join(ss)})
    out = pd.DataFrame(rows, columns=["model", "organization", "access", "n_missing", "n_with_ece", "scenarios"])
    return out.sort_values(["n_with_ece", "n_missing", "model"], ascending=[True, False, True]).reset_index(drop=True)


# ----------------------------------------------------------------------------- the interface switch

MC_METHODS: tuple[str, ...] = ("joint", "separate", "separate-calibrated")
# HELM v0.1.0 run_specs defaults [REPO@v0.1.0, HELM_FACTS.md §3]
MC_DEFAULT_SCENARIOS: dict[str, tuple[str, ...]] = {
    "joint": ("MMLU", "TruthfulQA"),
    "separate": ("HellaSwag",),
    "separate-calibrated": ("OpenbookQA",),
}


def method_scenarios(release: Release, method: str, models: Sequence[str] | None = None) -> pd.DataFrame:
    """The core scenarios that use `method` by default in HELM, with how many models of the release have
    accuracy and ECE there."""
    if method not in MC_METHODS:
        raise ValueError(f"unknown multiple-choice method {method!r}; expected one of {', '.join(MC_METHODS)}")
    rel = _restrict(release, models)
    acc = _metric(rel, ACCURACY_GROUP)
    cal = _metric(rel, CALIBRATION_GROUP, ECE_METRIC)
    rows = []
    for s in MC_DEFAULT_SCENARIOS[method]:
        if s not in release.taxonomy.scenario_names:
            continue
        rows.append({
            "scenario": s,
            "models_with_accuracy": int(acc.loc[(acc["scenario"] == s) & acc["value"].notna(), "model"].nunique()),
            "models_with_ece": int(cal.loc[(cal["scenario"] == s) & cal["value"].notna(), "model"].nunique()),
        })
    return pd.DataFrame(rows, columns=["scenario", "models_with_accuracy", "models_with_ece"])


# ----------------------------------------------------------------------------- what HELM published for calibration


def published_calibration(release: Release) -> dict:
    """What the release's own tables hold in the calibration group: `has_ece` (some model has HELM's ECE),
    `metrics` (the calibration metric names with a value, as the schema names them, e.g. ["Max prob"] for a
    helm-summarize suite whose schema's calibration column is Max prob)."""
    r = _metric(release, CALIBRATION_GROUP)
    names = list(dict.fromkeys(r.loc[r["value"].notna(), "metric"]))
    return {"has_ece": ECE_METRIC in names, "metrics": names}


def published_ece(release: Release, model: str, scenario: str) -> float:
    """HELM's own ECE for one (model, scenario) cell of the release; NaN when its tables hold none."""
    r = _metric(release, CALIBRATION_GROUP, ECE_METRIC)
    v = r.loc[(r["model"] == model) & (r["scenario"] == scenario), "value"].dropna()
    return float(v.iloc[0]) if len(v) else float("nan")


# ----------------------------------------------------------------------------- a suite's own interface comparison

# HELM's adapter method names for the three multiple-choice interfaces.
MC_ADAPTER_METHODS: dict[str, str] = {
    "multiple_choice_joint": "joint",
    "multiple_choice_separate_original": "separate",
    "multiple_choice_separate_calibrated": "separate-calibrated",
}
METHOD_COMPARISON_COLUMNS = ["model", "scenario", "method", "run", "metric", "split", "value", "ece"]


def method_comparison(runs: pd.DataFrame, run_stats: pd.DataFrame, scenarios: pd.DataFrame) -> pd.DataFrame:
    """A suite's own comparison of multiple-choice interfaces: every (model, scenario) that ran under two or more
    of HELM's multiple-choice methods, one row per run, with the scenario's main metric on its main split (no
    perturbation) and HELM's ECE when the run's stats carry it.

    runs: a HelmOutput's run index (run, model, scenario, method); run_stats: its stats (run, name, split,
    sub_split, perturbation, count, mean); scenarios: the taxonomy's scenarios (scenario, main_metric,
    main_split, optionally main_metric_display). Columns: METHOD_COMPARISON_COLUMNS, method as this app names
    it (joint / separate / separate-calibrated), sorted by model, scenario and MC_METHODS order."""
    empty = pd.DataFrame(columns=METHOD_COMPARISON_COLUMNS)
    if runs is None or runs.empty or not {"run", "model", "scenario", "method"} <= set(runs.columns):
        return empty
    mc = runs[runs["method"].isin(list(MC_ADAPTER_METHODS))]
    if mc.empty:
        return empty
    n_methods = mc.groupby(["model", "scenario"])["method"].transform("nunique")
    mc = mc[n_methods >= 2]
    if mc.empty:
        return empty
    info = scenarios.set_index("scenario")
    stats = run_stats[run_stats["run"].isin(set(mc["run"]))]
    stats = stats[(stats["sub_split"].astype(str) == "") & (stats["perturbation"].astype(str) == "")
                  & (stats["count"] > 0)]
    rows = []
    for r in mc.itertuples(index=False):
        main = str(info["main_metric"].get(r.scenario, "")) if r.scenario in info.index else ""
        split = str(info["main_split"].get(r.scenario, "")) if r.scenario in info.index else ""
        disp = str(info["main_metric_display"].get(r.scenario, "")) if "main_metric_display" in info.columns \
            and r.scenario in info.index else ""
        s = stats[stats["run"] == r.run]
        if split and not (s["split"] == split).any() and len(s):
            split = "test" if (s["split"] == "test").any() else str(s["split"].iloc[0])
        on_split = s[s["split"] == split]
        val = on_split.loc[on_split["name"] == main, "mean"]
        ece_v = on_split.loc[on_split["name"] == "ece_10_bin", "mean"]
        rows.append({"model": r.model, "scenario": r.scenario, "method": MC_ADAPTER_METHODS[r.method], "run": r.run,
                     "metric": disp or main, "split": split,
                     "value": float(val.iloc[0]) if len(val) else float("nan"),
                     "ece": float(ece_v.iloc[0]) if len(ece_v) else float("nan")})
    out = pd.DataFrame(rows, columns=METHOD_COMPARISON_COLUMNS)
    order = {m: i for i, m in enumerate(MC_METHODS)}
    out["_o"] = out["method"].map(order)
    return out.sort_values(["model", "scenario", "_o", "run"]).drop(columns="_o").reset_index(drop=True)


def method_sentences(comparison: pd.DataFrame) -> list[str]:
    """One plain sentence per (model, scenario) of method_comparison: "Pythia (70M) on LSAT: 0.600 EM with joint,
    0.800 with separate: separate is 0.200 higher." (values as the suite's stats hold them)."""
    out = []
    for (model, scenario), g in comparison.groupby(["model", "scenario"], sort=False):
        metric = str(g["metric"].iloc[0])
        parts = [f"{fmt.value(v)} with {m}" for m, v in zip(g["method"], g["value"])]
        have = g.dropna(subset=["value"])
        tail = ""
        if len(have) >= 2:
            best, worst = have.loc[have["value"].idxmax()], have.loc[have["value"].idxmin()]
            gap = float(best["value"] - worst["value"])
            tail = (": the same model scores the same under each method" if gap == 0 else
                    f": {best['method']} is {fmt.value(gap)} higher than {worst['method']}")
        out.append(f"{model} on {scenario} ({metric}): " + ", ".join(parts) + tail + ".")
    return out


def own_comparison_note(comparison: pd.DataFrame, models: Iterable[str], name: str) -> str:
    """What to say when the cohort's own interface comparison is empty, from the whole suite's `comparison`
    (method_comparison, before any cohort filter): "" when some model of `models` has one (show it), else that
    the suite has one outside the cohort (naming its models, scenarios and methods), else that it has none."""
    cohort = set(models)
    if comparison.empty:
        return f"{name} runs no model on one scenario under two interfaces."
    if comparison["model"].isin(cohort).any():
        return ""
    pairs = [f"{m} on {s} ({', '.join(dict.fromkeys(g['method']))})"
             for (m, s), g in comparison.groupby(["model", "scenario"], sort=False)]
    shown = "; ".join(pairs[:3]) + (f"; and {len(pairs) - 3} more" if len(pairs) > 3 else "")
    return f"{name} runs one model on one scenario under several interfaces, outside the current cohort: {shown}."
