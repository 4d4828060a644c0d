"""What HELM can produce: the one rule every loaded number is checked against, and the record of what was refused.

Every number a dataset brings in (a stats.json stat, a leaderboard cell, a model's parameter count, a per-instance
statistic or confidence, a row of the bundled results) is checked here when it is loaded, against what HELM could
have written for that metric:

- never a non-finite number (JSON's `Infinity` / `-Infinity` parse in Python; HELM never writes them); NaN / null
  stays "no value", as HELM's own blank cells;
- shares in [0, 1] for the metrics HELM defines so (exact match and its variants, F1, ROUGE, BLEU, ECE, max prob,
  toxic fraction, truncated, RR@k / NDCG@k, the bias metrics, win rates, fractions of finish reasons);
- times (inference runtimes) and costs >= 0 and at most MAX_SECONDS per request;
- counts (instances, tokens, trials, references, completions) >= 0 and at most MAX_COUNT;
- a log-probability <= 0; a parameter count > 0 and at most MAX_PARAMS;
- any other metric: finite and at most MAX_MAGNITUDE in size (no HELM metric comes near it).

A value that fails is kept out of every computation (it becomes "no value") and recorded as a row of
REJECTED_COLUMNS (where it came from, model, scenario, metric, the value, the reason), carried by the loaded
release in `meta["rejected_values"]` (and by a lazily read table or run in its own `rejected` / `attrs`), with
`rejected_sentence` for a page to say so. Pure numpy / pandas.
"""
from __future__ import annotations

import functools
import math
import re
from dataclasses import dataclass
from typing import Iterable, Mapping

import numpy as np
import pandas as pd

MAX_SECONDS = 1_000_000.0  # per request: over 11 days; HELM's slowest published means are minutes
MAX_COUNT = 1_000_000_000.0  # instances, tokens (per instance), trials, references
MAX_PARAMS = 1e14  # 100 trillion parameters; the largest published models are about 2e12
MAX_MAGNITUDE = 1e15  # any metric's size


@dataclass(frozen=True)
class Rule:
    low: float
    high: float
    what: str  # "a share", "a time", ... for the reason


SHARE = Rule(0.0, 1.0, "a share in [0, 1]")
TIME = Rule(0.0, MAX_SECONDS, f"a time in seconds, from 0 to {MAX_SECONDS:,.0f}")
COST = Rule(0.0, MAX_MAGNITUDE, "a cost, never negative")
COUNT = Rule(0.0, MAX_COUNT, f"a count, from 0 to {MAX_COUNT:,.0f}")
LOGPROB = Rule(-MAX_MAGNITUDE, 0.0, "a log-probability, never above 0")
PARAMS = Rule(1.0, MAX_PARAMS, f"a parameter count, from 1 to {MAX_PARAMS:.0e}")
NONNEG = Rule(0.0, MAX_MAGNITUDE, "never negative")
ANY = Rule(-MAX_MAGNITUDE, MAX_MAGNITUDE, f"a finite number of size at most {MAX_MAGNITUDE:.0e}")

# HELM's stat names (stats.json, per_instance_stats.json).
_SHARE_STATS = {
    "exact_match", "quasi_exact_match", "prefix_exact_match", "quasi_prefix_exact_match", "exact_match@5",
    "quasi_exact_match@5", "prefix_exact_match@5", "quasi_prefix_exact_match@5", "exact_match_indicator",
    "f1_score", "classification_macro_f1", "classification_micro_f1", "rouge_1", "rouge_2", "rouge_l", "bleu_1",
    "bleu_4", "ece_1_bin", "ece_10_bin", "platt_ece_1_bin", "platt_ece_10_bin", "max_prob", "toxic_frac",
    "expected_max_toxicity", "max_toxicity_probability", "prompt_truncated", "selective_acc@10",
    "selective_cov_acc_area", "RR@10", "NDCG@10", "RR@20", "NDCG@20", "bbq_accuracy", "math_equiv",
    "math_equiv_chain_of_thought", "summarization_coverage",
}
_TIME_STATS = {"inference_runtime", "inference_denoised_runtime", "inference_idealized_runtime"}
_COST_STATS = {"training_co2_cost", "training_energy_cost"}
_NONNEG_STATS = {"summarization_density", "summarization_compression", "monte_carlo_entropy", "perplexity",
                 "bits_per_byte"}
# HELM's display names (leaderboard headers, the bundled results' metric column), "(Robustness)" etc. stripped.
_SHARE_DISPLAY = {
    "EM", "F1", "ROUGE-1", "ROUGE-2", "ROUGE-L", "BLEU-1", "BLEU-4", "ECE (1-bin)", "ECE (10-bin)", "Max prob",
    "Toxic fraction", "truncated", "RR@10", "NDCG@10", "RR@20", "NDCG@20", "Macro-F1", "Micro-F1",
    "Stereotypes (race)", "Stereotypes (gender)", "Representation (race)", "Representation (gender)",
    "Exact match", "Quasi-exact match", "Prefix exact match", "Quasi-prefix exact match", "F1 (word overlap)",
    "Selective coverage-accuracy area", "Accuracy at 10% coverage", "Coverage", "BBQ accuracy",
    "Equivalent", "Equivalent (CoT)", "COT correct", "IFEval Strict Acc",
}
_TIME_DISPLAY = {"Observed inference time (s)", "Denoised inference time (s)", "Idealized inference time (s)",
                 "Observed inference runtime (s)", "Denoised inference runtime (s)", "Idealized inference runtime (s)"}
_PERTURBED = re.compile(r"^(.*?) \((?:Robustness|Fairness|[A-Za-z ]+ perturbation)\)$")


def rule_for(name: str, aliases: Mapping[str, str] | None = None) -> Rule:
    """The rule for a metric, by HELM's stat name ("exact_match"), display name ("EM", "EM (Robustness)",
    "LSAT - EM") or, through `aliases` (display name -> stat name, e.g. from a suite's schema.json), by the
    suite's own display name."""
    name = str(name)
    if aliases and name in aliases:
        return _rule(str(aliases[name]))
    if aliases and " - " in name and name.split(" - ", 1)[1] in aliases:
        return _rule(str(aliases[name.split(" - ", 1)[1]]))
    return _rule(name)


@functools.lru_cache(maxsize=8192)
def _rule(name: str) -> Rule:
    if name in _SHARE_STATS or name.startswith(("bias_metric:", "finish_reason_")):
        return SHARE
    if name in _TIME_STATS:
        return TIME
    if name in _COST_STATS:
        return COST
    if name in ("logprob", "logprob_per_byte"):
        return LOGPROB
    if name in _NONNEG_STATS:
        return NONNEG
    if name.startswith("num_") or name.startswith("max_num_"):
        return COUNT
    if name in _SHARE_DISPLAY or "win rate" in name.lower():
        return SHARE
    if name in _TIME_DISPLAY or name.endswith("time (s)") or name.endswith("runtime (s)"):
        return TIME
    if name.startswith("# "):
        return COUNT
    m = _PERTURBED.match(name)
    if m:
        return _rule(m.group(1))
    if " - " in name:  # a multi-scenario table's header: "<run group> - <metric>"
        return _rule(name.split(" - ", 1)[1])
    return ANY


def _show(v: float) -> str:
    """A number short enough for a sentence, whatever its size (1e+308, not 300 digits)."""
    if math.isnan(v):
        return "NaN"
    if math.isinf(v):
        return "Infinity" if v > 0 else "-Infinity"
    return f"{v:.4g}"


def value_text(v: float) -> str:
    """A refused value as text for a table or a CSV: "Infinity", "-Infinity", "NaN" or 4 significant digits
    ("1e+308"), so no table shows a bare 'inf' or 300 digits."""
    return _show(float(v))


def _tol(bound: float | np.ndarray):
    """Slack for float rounding at a bound (a mean of ones summed in floating point can end at 1 + 1e-16)."""
    return 1e-9 * np.maximum(1.0, np.abs(bound))


def problem(value: float, rule: Rule) -> str | None:
    """Why HELM could not have produced `value` under `rule`, or None (NaN is "no value": None)."""
    v = float(value)
    if math.isnan(v):
        return None
    if math.isinf(v):
        return "not a finite number"
    if v < rule.low - _tol(rule.low) or v > rule.high + _tol(rule.high):
        return f"outside the range HELM can produce ({rule.what})"
    return None


def value_problem(value: float, metric: str, aliases: Mapping[str, str] | None = None) -> str | None:
    """`problem` of a value of `metric` (see `rule_for`)."""
    return problem(value, rule_for(metric, aliases))


def bounds(names: Iterable[str], aliases: Mapping[str, str] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Lower and upper bounds per name (as arrays), for a vectorised check."""
    rules = [rule_for(n, aliases) for n in names]
    return np.array([r.low for r in rules], dtype=float), np.array([r.high for r in rules], dtype=float)


def out_of_range(values: np.ndarray, low: np.ndarray, high: np.ndarray) -> np.ndarray:
    """Mask of values HELM could not have produced: infinite, or outside [low, high] (NaN is never flagged)."""
    v = np.asarray(values, dtype=float)
    with np.errstate(invalid="ignore"):
        return np.isinf(v) | (v < low - _tol(low)) | (v > high + _tol(high))


# ----------------------------------------------------------------------------- stats.json rows

STAT_NUMBERS = ("count", "sum", "min", "max", "mean", "stddev")


def _codes(names) -> tuple[np.ndarray, list[str]]:
    """(codes, categories) of a column of names: a categorical's own, else by a dict (few distinct names)."""
    if isinstance(names, pd.Series) and isinstance(names.dtype, pd.CategoricalDtype):
        names = names.array
    if isinstance(names, pd.Categorical):
        return np.asarray(names.codes), [str(c) for c in names.categories]
    index: dict[str, int] = {}
    codes = np.fromiter((index.setdefault(n, len(index)) for n in names), dtype=np.int64)
    return codes, list(index)


def bad_stats(names, numbers: Mapping[str, np.ndarray], aliases: Mapping[str, str] | None = None) -> np.ndarray:
    """Mask of the stats HELM could not have written: a count that is negative or not finite; a mean, min, max
    or sum / count outside the metric's rule (`rule_for`); an infinite sum; a negative or infinite stddev.
    `numbers` maps STAT_NUMBERS to arrays aligned with `names` (NaN where the file has no value)."""
    codes, cats = _codes(names)
    if len(codes) == 0:
        return np.zeros(0, dtype=bool)
    lo_c, hi_c = bounds(cats, aliases)
    lo, hi = lo_c[codes], hi_c[codes]
    count = np.asarray(numbers["count"], dtype=float)
    total = np.asarray(numbers["sum"], dtype=float)
    sd = np.asarray(numbers["stddev"], dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        bad = ~np.isfinite(count) | (count < 0) | np.isinf(total) | np.isinf(sd) | (sd < 0)
        for k in ("mean", "min", "max"):
            bad |= out_of_range(numbers[k], lo, hi)
        per = np.divide(total, count, out=np.full(len(count), np.nan), where=count > 0)
    return bad | out_of_range(per, lo, hi)


def stat_problem(name: str, numbers: Mapping[str, float], aliases: Mapping[str, str] | None = None
                 ) -> tuple[str, float, str] | None:
    """(field, value, reason) of the first field of one stat that `bad_stats` flags, or None."""
    rule = rule_for(name, aliases)
    count = float(numbers["count"])
    if not math.isfinite(count) or count < 0:
        return "count", count, "not a count HELM writes (a stat counts its instances: finite, never negative)"
    for k in ("mean", "min", "max"):
        why = problem(numbers[k], rule)
        if why:
            return k, float(numbers[k]), why
    total = float(numbers["sum"])
    if math.isinf(total):
        return "sum", total, "not a finite number"
    if count > 0:
        why = problem(total / count, rule)
        if why:
            return "sum", total, f"sum / count = {_show(total / count)}, {why}"
    sd = float(numbers["stddev"])
    if math.isinf(sd) or sd < 0:
        return "stddev", sd, "not a standard deviation (finite, never negative)"
    return None


# ----------------------------------------------------------------------------- the record

REJECTED_COLUMNS = ["source", "model", "scenario", "metric", "value", "reason"]
# The note of a result cell whose value was left out.
LEFT_OUT_NOTE = "Left out: a value HELM could not have produced (listed with the values left out at load)."


def record(source: str, model: str, scenario: str, metric: str, value: float, reason: str) -> dict:
    return {"source": str(source)[:300], "model": str(model), "scenario": str(scenario), "metric": str(metric)[:300],
            "value": float(value), "reason": reason}


def frame(rows: Iterable[dict] | pd.DataFrame | None) -> pd.DataFrame:
    """Rejection records as a REJECTED_COLUMNS table (empty when none)."""
    if isinstance(rows, pd.DataFrame):
        return rows.reindex(columns=REJECTED_COLUMNS)
    df = pd.DataFrame(list(rows or []), columns=REJECTED_COLUMNS)
    df["value"] = df["value"].astype(float)
    return df


def rejected(release) -> pd.DataFrame:
    """The values a loaded release left out because HELM could not have produced them (REJECTED_COLUMNS)."""
    meta = getattr(release, "meta", None)
    return frame(meta.get("rejected_values") if isinstance(meta, dict) else None)


def describe(row: Mapping) -> str:
    """One rejected value in words: "EM = 1e+308 (Pythia (70M), LSAT; runs/x/stats.json): outside …"."""
    who = ", ".join(str(row[k]) for k in ("model", "scenario") if str(row.get(k) or ""))
    where = "; ".join(p for p in (who, str(row.get("source") or "")) if p)
    return f"{row['metric']} = {_show(float(row['value']))}" + (f" ({where})" if where else "") + f": {row['reason']}"


def rejected_sentence(rows: pd.DataFrame, limit: int = 3) -> str:
    """"N values HELM could not have produced were left out: …" naming the first `limit`; "" when none."""
    n = len(rows)
    if n == 0:
        return ""
    head = "1 value HELM could not have produced was" if n == 1 else f"{n:,} values HELM could not have produced were"
    shown = "; ".join(describe(r) for r in rows.head(limit).to_dict("records"))
    more = f"; and {n - limit:,} more" if n > limit else ""
    return f"{head} left out: {shown}{more}."


def check_release_frames(results: pd.DataFrame, models: pd.DataFrame, source: str, rejected: list[dict],
                         aliases: Mapping[str, str] | None = None) -> tuple[pd.DataFrame, pd.DataFrame]:
    """A release's results and models with every value HELM could not have produced left out: a result whose
    value, min or max breaks its metric's rule becomes blank (value, n_runs, run_min, run_max NaN; note
    LEFT_OUT_NOTE), a parameter count outside PARAMS becomes unknown (NaN). Each is appended to `rejected`.
    Vectorised (one pass per column); returns new frames only when something was left out."""
    metrics = pd.Index(pd.unique(results["metric"]))
    low, high = bounds(metrics, aliases)
    pos = metrics.get_indexer(results["metric"])
    low, high = low[pos], high[pos]
    bad = np.zeros(len(results), dtype=bool)
    for col in ("value", "run_min", "run_max"):
        bad |= out_of_range(results[col].to_numpy(float), low, high)
    if bad.any():
        for r in results[bad].to_dict("records"):
            rule = rule_for(r["metric"], aliases)
            col, why = next((c, problem(r[c], rule)) for c in ("value", "run_min", "run_max") if problem(r[c], rule))
            rejected.append(record(source, r["model"], r["scenario"],
                                   r["metric"] + ("" if col == "value" else f" ({col})"), r[col], why))
        results = results.copy()
        results.loc[bad, ["value", "n_runs", "run_min", "run_max"]] = np.nan
        results.loc[bad, "note"] = LEFT_OUT_NOTE
    params = models["params"].to_numpy(float)
    badp = out_of_range(params, PARAMS.low, PARAMS.high)
    if badp.any():
        for m, v in zip(models.loc[badp, "model"], params[badp]):
            rejected.append(record(source, m, "", "num_parameters", v, problem(v, PARAMS) or ""))
        models = models.copy()
        models.loc[badp, "params"] = np.nan
    return results, models
