"""What a release's results say about seeds (HELM's trials: sets of in-context examples) and in-context examples,
so that a sentence about them is true of the release it is shown on.

HELM classic ran most core scenarios with 3 trials of 5 in-context examples; HELM Lite's published tables record
one run per configuration and no trial count; HELM Capabilities is zero-shot. None of that is assumed here: the
counts come from the results table (`# trials` and `# train` of the general-information group, `n_runs` of the
accuracy cells), which a user's suite fills from its runs' stats (`num_train_trials`, `num_train_instances`).
"""
from __future__ import annotations

from typing import Iterable

import numpy as np
import pandas as pd

from . import fmt
from .data import Release, select_models

TRIALS_METRIC = "# trials"
SHOTS_METRIC = "# train"


def seed_facts(release: Release, models: Iterable[str] | None = None, runs: pd.DataFrame | None = None) -> dict:
    """`runs`: a user's suite's run index (model, scenario, num_train_trials from each run_spec.json's adapter),
    which gives the trials of a cell whose stats record none. Per accuracy cell with a value (model × scenario): `cells`; `by_trials`: {number of trials: cells} for the
    cells whose `# trials` is recorded as a whole number (a mean over sub-runs is left out); `trials_recorded`:
    cells with a `# trials` value at all; `most_trials`: the largest whole number of trials (0 when none);
    `single`: cells that come from one run (`n_runs` 1); `shots_max`: the largest `# train` (in-context examples;
    NaN when not recorded); `zero_shot`: every recorded `# train` is 0."""
    rel = select_models(release, models) if models is not None else release
    res = rel.results
    acc = res[(res["metric_group"] == "accuracy") & res["value"].notna()].drop_duplicates(["model", "scenario"])
    keys = set(zip(acc["model"], acc["scenario"]))

    def per_cell(metric: str) -> pd.Series:
        m = res[(res["metric"] == metric) & res["value"].notna()].drop_duplicates(["model", "scenario"])
        m = m.loc[np.array([k in keys for k in zip(m["model"], m["scenario"])], dtype=bool)]
        return m["value"].astype(float)

    trials = per_cell(TRIALS_METRIC)
    if runs is not None and not runs.empty and {"model", "scenario", "num_train_trials"} <= set(runs.columns):
        spec = runs.groupby(["model", "scenario"])["num_train_trials"].max()
        have = set(zip(*[res.loc[trials.index, c] for c in ("model", "scenario")])) if len(trials) else set()
        extra = [float(spec[k]) for k in sorted(keys - have) if k in spec.index and np.isfinite(spec[k])]
        trials = pd.concat([trials, pd.Series(extra, dtype=float)], ignore_index=True)
    whole = trials[(trials - trials.round()).abs() < 1e-9].round().astype(int)
    by_trials = {int(k): int(v) for k, v in whole.value_counts().sort_index().items()}
    shots = per_cell(SHOTS_METRIC)
    return {
        "cells": int(len(acc)),
        "by_trials": by_trials,
        "trials_recorded": int(len(trials)),
        "most_trials": max(by_trials) if by_trials else 0,
        "single": int((acc["n_runs"].astype(float) == 1).sum()),
        "shots_max": float(shots.max()) if len(shots) else float("nan"),
        "zero_shot": bool(len(shots)) and bool((shots == 0).all()),
    }


def has_seeds(facts: dict) -> bool:
    """True when some accuracy cell of the release ran with more than one trial (seed)."""
    return any(k > 1 for k in facts["by_trials"])


def seeds_sentence(facts: dict, name: str) -> str:
    """One sentence on the release's seeds, true of it: how many accuracy cells ran with how many seeds, or that
    its tables record none, or that it is zero-shot with one run per cell."""
    cells = facts["cells"]
    if not cells:
        return f"{name} holds no accuracy value, so nothing about its seeds can be said."
    if has_seeds(facts):
        k = max((t for t in facts["by_trials"] if t > 1), key=lambda t: (facts["by_trials"][t], t))
        n = facts["by_trials"][k]
        return (f"{name} ran {fmt.count(n)} of its {fmt.count(cells, 'accuracy cell')} with {k} seeds (sets of "
                "in-context examples)" + ("." if n == cells else "; the others with fewer, or as a mix of runs."))
    single = facts["single"]
    runs = ((f"all {fmt.count(cells, 'accuracy cell')}" if single == cells else
             f"{fmt.count(single)} of its {fmt.count(cells, 'accuracy cell')}")
            + f" {fmt.plural(single, 'comes', 'come')} from a single run")
    if facts["zero_shot"]:
        return f"{name} is zero-shot (no in-context examples, so no seeds to vary): {runs}."
    if facts["trials_recorded"]:
        return f"{name} ran one seed (one set of in-context examples) per run: {runs}."
    return f"The tables of {name} record no seeds: {runs}."


def shots_phrase(facts: dict) -> str:
    """"up to 5 in-context examples", "no in-context examples (zero-shot)", or "" when not recorded."""
    m = facts["shots_max"]
    if facts["zero_shot"]:
        return "no in-context examples (zero-shot)"
    if not np.isfinite(m):
        return ""
    n = int(round(m))
    return f"up to {fmt.count(n, 'in-context example')}"


def runs_phrase(facts: dict) -> str:
    """What HELM's runs behind an accuracy cell are, in a parenthesis true of the release: "3 seeds of in-context
    examples", "one seed each", "zero-shot, one run each" or "its tables record no seeds"."""
    if has_seeds(facts):
        k = max((t for t in facts["by_trials"] if t > 1), key=lambda t: (facts["by_trials"][t], t))
        n, cells = facts["by_trials"][k], facts["cells"]
        return f"{k} seeds of in-context examples" + ("" if n == cells else " for most cells" if 2 * n > cells
                                                      else " for some cells")
    if facts["zero_shot"]:
        return "zero-shot, one run each"
    if facts["trials_recorded"]:
        return "one seed each"
    return "its tables record no seeds"
