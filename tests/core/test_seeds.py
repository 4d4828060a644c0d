"""helm_core.seeds: what a release's results say about its seeds and in-context examples, table-driven on small
releases, and the sentence each bundled release gets (recomputed from data/ by plain pandas)."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from helm_core import seeds
from helm_core.data import Release, Taxonomy, load_bundled

NAN = float("nan")
DATA = Path(__file__).resolve().parents[2] / "data"


def make(cells) -> Release:
    """cells: (model, scenario, accuracy, n_runs, # trials, # train); NaN = not recorded."""
    rows = []
    for m, s, acc, n_runs, trials, shots in cells:
        rows.append((m, s, "accuracy", "EM", acc, n_runs))
        if not np.isnan(trials):
            rows.append((m, s, "general_information", "# trials", trials, NAN))
        if not np.isnan(shots):
            rows.append((m, s, "general_information", "# train", shots, NAN))
    res = pd.DataFrame(rows, columns=["model", "scenario", "metric_group", "metric", "value", "n_runs"])
    res["lower_is_better"] = False
    res["note"] = ""
    models = sorted({c[0] for c in cells})
    mods = pd.DataFrame({"model": models, "helm_id": models})
    scen = sorted({c[1] for c in cells})
    tax = Taxonomy(scenarios=pd.DataFrame({"scenario": scen, "main_metric": ["EM"] * len(scen)}),
                   metric_groups=pd.DataFrame(), design_grid=pd.DataFrame())
    return Release(results=res, models=mods, taxonomy=tax, meta={"release": "R", "release_id": "r"})


@pytest.mark.parametrize("cells,by_trials,single,zero_shot,sentence", [
    # three seeds per cell, 5 shots: a seeded release
    ([("a", "S", 0.5, 3, 3, 5), ("b", "S", 0.6, 3, 3, 5)], {3: 2}, 0, False,
     "R ran 2 of its 2 accuracy cells with 3 seeds (sets of in-context examples)."),
    # a mix: one cell with 3 seeds, one run with one seed, one mean over sub-runs (2.5: not a whole number)
    ([("a", "S", 0.5, 3, 3, 5), ("b", "S", 0.6, 1, 1, 5), ("c", "S", 0.7, 6, 2.5, 5)], {1: 1, 3: 1}, 1, False,
     "R ran 1 of its 3 accuracy cells with 3 seeds (sets of in-context examples); the others with fewer, or as a "
     "mix of runs."),
    # trials recorded, all one: one seed per run
    ([("a", "S", 0.5, 1, 1, 5), ("b", "T", 0.6, 4, 1, 5)], {1: 2}, 1, False,
     "R ran one seed (one set of in-context examples) per run: 1 of its 2 accuracy cells comes from a single run."),
    # no trials recorded (HELM Lite's tables)
    ([("a", "S", 0.5, 1, NAN, 5), ("b", "S", 0.6, 1, NAN, 8)], {}, 2, False,
     "The tables of R record no seeds: all 2 accuracy cells come from a single run."),
    # zero-shot (HELM Capabilities)
    ([("a", "S", 0.5, 1, NAN, 0), ("b", "S", 0.6, 1, NAN, 0)], {}, 2, True,
     "R is zero-shot (no in-context examples, so no seeds to vary): all 2 accuracy cells come from a single run."),
    # a blank accuracy cell counts for nothing
    ([("a", "S", NAN, 3, 3, 5)], {}, 0, False, "R holds no accuracy value, so nothing about its seeds can be said."),
])
def test_seed_facts_and_sentence(cells, by_trials, single, zero_shot, sentence):
    f = seeds.seed_facts(make(cells))
    assert f["by_trials"] == by_trials and f["single"] == single and f["zero_shot"] is zero_shot
    assert seeds.has_seeds(f) is any(k > 1 for k in by_trials)
    assert seeds.seeds_sentence(f, "R") == sentence


@pytest.mark.parametrize("cells,phrase", [
    ([("a", "S", 0.5, 3, 3, 5), ("b", "S", 0.6, 3, 3, 5)], "3 seeds of in-context examples"),
    ([("a", "S", 0.5, 3, 3, 5), ("b", "S", 0.6, 1, 1, 5)], "3 seeds of in-context examples for some cells"),
    ([("a", "S", 0.5, 3, 3, 5), ("b", "S", 0.6, 3, 3, 5), ("c", "S", 0.6, 1, 1, 5)],
     "3 seeds of in-context examples for most cells"),
    ([("a", "S", 0.5, 1, 1, 5)], "one seed each"),
    ([("a", "S", 0.5, 1, NAN, 0)], "zero-shot, one run each"),
    ([("a", "S", 0.5, 1, NAN, 5)], "its tables record no seeds"),
])
def test_runs_phrase(cells, phrase):
    assert seeds.runs_phrase(seeds.seed_facts(make(cells))) == phrase


def test_a_suites_run_specs_fill_the_trials_its_stats_lack():
    rel = make([("a", "S", 0.5, 1, NAN, 2), ("b", "S", 0.6, 1, 1, 2)])
    runs = pd.DataFrame({"model": ["a", "a", "b"], "scenario": ["S", "S", "S"], "num_train_trials": [3.0, 1.0, 5.0]})
    f = seeds.seed_facts(rel, runs=runs)
    # a: its run_spec says 3 trials (the largest of its runs); b keeps its stats' own 1
    assert f["by_trials"] == {1: 1, 3: 1} and seeds.has_seeds(f)


@pytest.mark.parametrize("shots,phrase", [([5, 2], "up to 5 in-context examples"), ([1, 0], "up to 1 in-context example"),
                                          ([0, 0], "no in-context examples (zero-shot)"), ([NAN, NAN], "")])
def test_shots_phrase(shots, phrase):
    rel = make([("a", "S", 0.5, 1, NAN, shots[0]), ("b", "S", 0.5, 1, NAN, shots[1])])
    assert seeds.shots_phrase(seeds.seed_facts(rel)) == phrase


def test_bundled_releases():
    """Classic's counts recomputed from data/results.csv with plain pandas; Lite records no trials, Capabilities is
    zero-shot with one run per cell."""
    res = pd.read_csv(DATA / "results.csv")
    acc = res[(res["metric_group"] == "accuracy") & res["value"].notna()]
    trials = res[res["metric"] == "# trials"].merge(acc[["model", "scenario"]], on=["model", "scenario"])
    f = seeds.seed_facts(load_bundled("classic"))
    assert f["cells"] == len(acc) and f["by_trials"][3] == int((trials["value"] == 3).sum()) and seeds.has_seeds(f)
    lite = seeds.seed_facts(load_bundled("lite"))
    assert not seeds.has_seeds(lite) and lite["trials_recorded"] == 0 and not lite["zero_shot"]
    cap = seeds.seed_facts(load_bundled("capabilities"))
    assert cap["zero_shot"] and cap["single"] == cap["cells"] and not seeds.has_seeds(cap)
