"""The genuine HELM run folders bundled in data/real_runs/: where they come from, and what they show side by
side (one prompt across models, one question across in-context example sets, real confidences).

Everything here works on the instance frames of `helm_output` (INSTANCE_COLUMNS), so it serves a user's
upload as well as the bundled sample. Nothing is filled in: a value the files do not hold stays NaN / "".
"""
from __future__ import annotations

import json
import math
import re
import string
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from . import calibration
from .data import BUNDLED, DataError

REAL_RUNS = BUNDLED / "real_runs"
SOURCES_FILE = "sources.json"
_PUNCT = set(string.punctuation)
_ARTICLES = re.compile(r"\b(a|an|the)\b")


@dataclass(frozen=True)
class Source:
    """One bundled suite of run folders and its provenance (data/real_runs/sources.json)."""

    key: str
    path: str  # relative to data/real_runs
    title: str
    helm_version: str
    suite: str
    date: str
    status: str  # e.g. "development runs, not a release"
    repo: str
    commit: str
    licence: str
    note: str

    def describe(self) -> str:
        """The source in plain words, for the screen."""
        return (f"{self.title}: {self.status}; made with {self.helm_version}; suite {self.suite}"
                + (f" ({self.date})" if self.date else "") + f". Copied from {self.repo} at commit {self.commit[:7]} "
                f"({self.licence}).")


def load_sources(root: Path = REAL_RUNS) -> list[Source]:
    """The bundled sources, in the file's order. Raises DataError when the file is missing or malformed."""
    path = Path(root) / SOURCES_FILE
    try:
        raw = json.loads(path.read_text())
    except (OSError, ValueError) as exc:
        raise DataError(f"{path}: cannot read the bundled runs' sources ({exc})") from None
    fields = Source.__dataclass_fields__
    out = []
    for i, item in enumerate(raw if isinstance(raw, list) else []):
        if not isinstance(item, dict) or set(item) != set(fields):
            raise DataError(f"{path}: item {i + 1}: expected the fields {', '.join(fields)}")
        out.append(Source(**{k: str(item[k]) for k in fields}))
    if not out:
        raise DataError(f"{path}: expected a list of sources")
    return out


# ----------------------------------------------------------------------------- answers


def normalize_answer(text: str) -> str:
    """HELM's `normalize_text` (quasi_exact_match): lower case, no punctuation, no articles, single spaces."""
    t = "".join(ch for ch in str(text).lower() if ch not in _PUNCT)
    return " ".join(_ARTICLES.sub(" ", t).split())


def answer(row: Mapping) -> str:
    """The answer of an instance row: the choice a letter maps to (multiple choice), else the completion."""
    mapped = row.get("mapped_output") or ""
    return str(mapped) if mapped else str(row.get("completion") or "")


# ----------------------------------------------------------------------------- one question, several seeds

TRIAL_COLUMNS = ["instance_id", "split", "n_trials", "answers", "n_answers", "changed", "correct", "correct_changed"]


def trial_changes(instances: pd.DataFrame) -> pd.DataFrame:
    """Per instance (original, unperturbed rows): its answers in trial order, how many distinct answers after
    HELM's normalisation, whether the answer changes between trials, its correctness per trial, and whether
    correctness changes. Only instances with at least two trials are listed."""
    df = instances[instances["perturbation"] == ""]
    rows = []
    for iid, g in df.groupby("instance_id", sort=False):
        g = g.sort_values("train_trial_index")
        if len(g) < 2:
            continue
        answers = [answer(r) for r in g.to_dict("records")]
        norm = {normalize_answer(a) for a in answers}
        corr = [float(c) for c in g["correct"]]
        known = [c for c in corr if not math.isnan(c)]
        rows.append({"instance_id": iid, "split": str(g["split"].iloc[0]), "n_trials": len(g),
                     "answers": tuple(answers), "n_answers": len(norm), "changed": len(norm) > 1,
                     "correct": tuple(corr), "correct_changed": len(set(known)) > 1})
    return pd.DataFrame(rows, columns=TRIAL_COLUMNS)


def share_changed(instances: pd.DataFrame) -> dict:
    """How often the answer to the same question changes with the in-context examples: instances with at least
    two trials (`n`), those whose answer changes (`changed`) and whose correctness changes
    (`correct_changed`), with their shares (NaN when n = 0)."""
    t = trial_changes(instances)
    n = int(len(t))
    changed = int(t["changed"].sum()) if n else 0
    cc = int(t["correct_changed"].sum()) if n else 0
    return {"n": n, "changed": changed, "share": changed / n if n else float("nan"),
            "correct_changed": cc, "share_correct_changed": cc / n if n else float("nan"),
            "trials": int(t["n_trials"].max()) if n else 0}


OUTCOME_COLUMNS = ["right", "trials", "label", "questions", "share", "mixed"]


def trial_outcomes(changes: pd.DataFrame) -> pd.DataFrame:
    """Questions by how many of their trials (sets of in-context examples) were right, from `trial_changes`: one
    row per count k = n … 0 of the most common number of trials n (questions graded in every trial of n only),
    `label` ("right with all 3 sets", "right with 2 of 3", …, "wrong with all 3"), `questions`, `share` of those
    questions, and `mixed` (right with one set and wrong with another)."""
    if changes.empty:
        return pd.DataFrame(columns=OUTCOME_COLUMNS)
    n = int(changes["n_trials"].mode().iloc[0])
    graded = [c for t, c in zip(changes["n_trials"], changes["correct"])
              if t == n and not any(math.isnan(x) for x in c)]
    if n < 2 or not graded:
        return pd.DataFrame(columns=OUTCOME_COLUMNS)
    right = pd.Series([int(sum(x >= 1 for x in c)) for c in graded])
    rows = []
    for k in range(n, -1, -1):
        label = (f"right with all {n} sets" if k == n else f"wrong with all {n} sets" if k == 0
                 else f"right with {k} of {n} sets")
        q = int((right == k).sum())
        rows.append({"right": k, "trials": n, "label": label, "questions": q, "share": q / len(graded),
                     "mixed": 0 < k < n})
    return pd.DataFrame(rows, columns=OUTCOME_COLUMNS)


def trials_side_by_side(instances: pd.DataFrame, instance_id: str) -> pd.DataFrame:
    """One instance's trials (original rows) in order: trial, completion, answer, correct."""
    g = instances[(instances["instance_id"] == instance_id) & (instances["perturbation"] == "")]
    g = g.sort_values("train_trial_index")
    return pd.DataFrame({"trial": g["train_trial_index"].astype("int64").to_numpy(),
                         "completion": g["completion"].to_numpy(),
                         "answer": [answer(r) for r in g.to_dict("records")],
                         "correct": g["correct"].astype(float).to_numpy()})


# ----------------------------------------------------------------------------- one prompt, several models

SIDE_COLUMNS = ["model", "completion", "mapped_output", "answer", "correct", "prob", "prompt", "annotations"]


def shared_instances(frames: Mapping[str, pd.DataFrame]) -> list[str]:
    """Instance ids present (original, first trial) in every frame, in the first frame's order."""
    ids = None
    order: list[str] = []
    for df in frames.values():
        sel = df[(df["perturbation"] == "") & (df["train_trial_index"] == df["train_trial_index"].min())]
        these = list(dict.fromkeys(sel["instance_id"]))
        if ids is None:
            ids, order = set(these), these
        else:
            ids &= set(these)
    return [i for i in order if ids and i in ids]


def side_by_side(frames: Mapping[str, pd.DataFrame], instance_id: str, stats: tuple[str, ...] = ()) -> pd.DataFrame:
    """One instance across runs (model -> instances): per model its first-trial, original completion, the
    answer, correct (0/1, NaN when the run has no correctness), the probability of the answer (NaN without
    log-probabilities), the prompt as sent, the annotations (e.g. judges) and the per-instance `stats` asked
    for (NaN where absent). Models without the
    instance are left out."""
    rows = []
    for model, df in frames.items():
        sel = df[(df["instance_id"] == instance_id) & (df["perturbation"] == "")]
        if sel.empty:
            continue
        r = sel.sort_values("train_trial_index").iloc[0].to_dict()
        st = r["stats"] if isinstance(r["stats"], dict) else {}
        ann = r.get("annotations")
        rows.append({"model": model, "completion": r["completion"], "mapped_output": str(r.get("mapped_output") or ""),
                     "answer": answer(r),
                     "correct": float(r["correct"]), "prob": float(r["prob"]), "prompt": str(r.get("prompt") or ""),
                     "annotations": ann if isinstance(ann, dict) else {},
                     **{s: float(st.get(s, float("nan"))) for s in stats}})
    return pd.DataFrame(rows, columns=SIDE_COLUMNS + list(stats))


def agreement(frames: Mapping[str, pd.DataFrame], ids: list[str], stat: str | None = None) -> pd.DataFrame:
    """Per shared instance: how many runs got it right and how many distinct answers they gave (first trial,
    original rows); `n_correct` is NaN when no run has correctness for it; `n_values`: how many distinct
    values the per-instance `stat` takes across the runs (0 without `stat`)."""
    rows = []
    for iid in ids:
        s = side_by_side(frames, iid, (stat,) if stat else ())
        known = s["correct"].dropna()
        rows.append({"instance_id": iid, "n_models": len(s),
                     "n_correct": float(known.sum()) if len(known) else float("nan"),
                     "n_answers": len({normalize_answer(a) for a in s["answer"]}),
                     "n_values": int(s[stat].dropna().nunique()) if stat else 0})
    return pd.DataFrame(rows, columns=["instance_id", "n_models", "n_correct", "n_answers", "n_values"])


# ----------------------------------------------------------------------------- real confidences


def reliability(instances: pd.DataFrame, n_bins: int = calibration.N_BINS, strategy: str = "equal_mass") -> dict:
    """`calibration.summarize` of a run's real per-instance confidences (original instances, every split).
    Raises ValueError when the run has no log-probabilities."""
    from .helm_output import instance_confidences

    conf = instance_confidences(instances)
    if conf.empty:
        raise ValueError("this run has no per-instance probabilities (no log-probabilities in its files)")
    out = calibration.summarize(conf["prob"].to_numpy(), conf["correct"].to_numpy(), n_bins, strategy)
    out["simulated"] = False
    return out


def runs_with_confidences(runs: pd.DataFrame, has_prob: Mapping[str, bool]) -> pd.DataFrame:
    """The runs (rows of a HelmOutput's runs table) whose instances carry probabilities, by `has_prob`."""
    keep = np.array([bool(has_prob.get(r, False)) for r in runs["run"]], dtype=bool)
    return runs[keep].reset_index(drop=True)


def reported_stat(run_stats: pd.DataFrame, run: str, name: str, split: str = "test") -> float:
    """A run's own stats.json value (no perturbation, no sub-split), NaN when absent."""
    s = run_stats[(run_stats["run"] == run) & (run_stats["name"] == name) & (run_stats["split"] == split)
                  & (run_stats["perturbation"] == "") & (run_stats["sub_split"] == "") & (run_stats["count"] > 0)]
    return float(s["mean"].iloc[0]) if len(s) else float("nan")


def filter_outcome(instances: pd.DataFrame, correct: float | str | None = None, split: str | None = None) -> pd.DataFrame:
    """Rows with `correct` equal to 1.0 / 0.0 (None = all, "nan" = not graded) and of `split` (None = all)."""
    df = instances
    if correct == "nan":
        df = df[df["correct"].isna()]
    elif correct is not None:
        df = df[df["correct"] == float(correct)]
    if split is not None:
        df = df[df["split"] == split]
    return df.reset_index(drop=True)


# ----------------------------------------------------------------------------- any per-instance metric


def instance_metrics(instances: pd.DataFrame) -> list[str]:
    """The per-instance stats (HELM's per_instance_stats.json names) with a number on at least one instance, in
    the order they first appear."""
    names: dict[str, None] = {}
    for st in instances["stats"]:
        if isinstance(st, Mapping):
            for k, v in st.items():
                if isinstance(v, (int, float)) and not isinstance(v, bool) and not math.isnan(float(v)):
                    names.setdefault(str(k), None)
    return list(names)


def metric_values(instances: pd.DataFrame, name: str) -> pd.Series:
    """One per-instance stat per row (NaN where an instance does not have it), aligned with `instances`."""
    def get(st):
        v = st.get(name) if isinstance(st, Mapping) else None
        return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else float("nan")
    return pd.Series([get(s) for s in instances["stats"]], index=instances.index, dtype=float)


def filter_metric(instances: pd.DataFrame, name: str | None, lo: float | None = None,
                  hi: float | None = None) -> pd.DataFrame:
    """Rows whose per-instance stat `name` lies in [lo, hi] (either bound None = open); rows without the stat
    are dropped. `name` None or "" keeps every row."""
    if not name:
        return instances
    v = metric_values(instances, name)
    keep = v.notna()
    if lo is not None:
        keep &= v >= lo
    if hi is not None:
        keep &= v <= hi
    return instances[keep].reset_index(drop=True)


# ----------------------------------------------------------------------------- the run's adapter

# run_spec.json adapter_spec fields HELM users read first, with what each means.
ADAPTER_FIELDS = (
    ("method", "method", "How the prompt is built and scored (generation, multiple_choice_joint, "
                         "multiple_choice_separate_original …)."),
    ("max_train_instances", "in-context examples", "At most this many training examples go into each prompt."),
    ("num_train_trials", "trials (seeds)", "How often the run is repeated with a fresh sample of in-context "
                                           "examples (train_trial_index)."),
    ("max_tokens", "max tokens", "The most tokens the model may generate per completion."),
    ("num_outputs", "outputs per request", "Completions asked for per request."),
    ("temperature", "temperature", "Sampling temperature (0: greedy)."),
    ("stop_sequences", "stop sequences", "Generation stops at the first of these."),
    ("instructions", "instructions", "Text put before the in-context examples."),
    ("input_prefix", "input prefix", "Text before each input."),
    ("output_prefix", "output prefix", "Text before each answer."),
    ("max_eval_instances", "max eval instances", "At most this many evaluation instances."),
)
ADAPTER_COLUMNS = ["field", "setting", "value", "meaning"]


def adapter_details(adapter_spec: str | Mapping) -> pd.DataFrame:
    """The adapter settings of a run (run_spec.json's adapter_spec, as JSON text or a dict) that HELM users read
    first, each with its value as the file has it (JSON-encoded: strings quoted, so "" and "\\n" are visible)
    and what it means. Fields the spec does not have are left out."""
    if isinstance(adapter_spec, str):
        try:
            spec = json.loads(adapter_spec or "{}")
        except ValueError:
            spec = {}
    else:
        spec = dict(adapter_spec)
    if not isinstance(spec, dict):
        spec = {}
    rows = []
    for key, label, meaning in ADAPTER_FIELDS:
        if key not in spec:
            continue
        v = spec[key]
        plain = (isinstance(v, (int, float)) and not isinstance(v, bool)) or (key == "method" and isinstance(v, str))
        shown = v if plain else json.dumps(v, ensure_ascii=False)
        rows.append({"field": key, "setting": label, "value": str(shown)[:500], "meaning": meaning})
    return pd.DataFrame(rows, columns=ADAPTER_COLUMNS)


def adapter_differences(a: str | Mapping, b: str | Mapping) -> pd.DataFrame:
    """The ADAPTER_FIELDS settings where two runs differ: field, setting, a, b."""
    da, db = adapter_details(a).set_index("field"), adapter_details(b).set_index("field")
    rows = []
    for key, label, _ in ADAPTER_FIELDS:
        va = da["value"].get(key, "–")
        vb = db["value"].get(key, "–")
        if va != vb:
            rows.append({"field": key, "setting": label, "a": va, "b": vb})
    return pd.DataFrame(rows, columns=["field", "setting", "a", "b"])


# ----------------------------------------------------------------------------- two runs side by side

ALIGN_COLUMNS = ["instance_id", "input", "answer_a", "correct_a", "answer_b", "correct_b", "agree"]


def _first_original(instances: pd.DataFrame) -> pd.DataFrame:
    df = instances[instances["perturbation"] == ""]
    if df.empty:
        return df
    df = df[df["train_trial_index"] == df["train_trial_index"].min()]
    return df.drop_duplicates("instance_id")


def align_runs(a: pd.DataFrame, b: pd.DataFrame, stat: str | None = None) -> pd.DataFrame:
    """Two runs' instances aligned by HELM's instance id (original rows, first trial of each run), in run
    a's order: the input, each run's answer and correctness (NaN when not graded), whether the answers agree
    after HELM's normalisation, and the per-instance `stat` of each (columns `<stat>_a`, `<stat>_b`). Only
    instances both runs have."""
    fa, fb = _first_original(a), _first_original(b).set_index("instance_id")
    rows = []
    for r in fa.to_dict("records"):
        iid = r["instance_id"]
        if iid not in fb.index:
            continue
        s = fb.loc[iid].to_dict()
        s["instance_id"] = iid
        ans_a, ans_b = answer(r), answer(s)
        row = {"instance_id": iid, "input": str(r.get("input") or s.get("input") or ""),
               "answer_a": ans_a, "correct_a": float(r["correct"]), "answer_b": ans_b,
               "correct_b": float(s["correct"]), "agree": normalize_answer(ans_a) == normalize_answer(ans_b)}
        if stat:
            row[f"{stat}_a"] = metric_values(pd.DataFrame([r]), stat).iloc[0]
            row[f"{stat}_b"] = metric_values(pd.DataFrame([s]), stat).iloc[0]
        rows.append(row)
    cols = ALIGN_COLUMNS + ([f"{stat}_a", f"{stat}_b"] if stat else [])
    return pd.DataFrame(rows, columns=cols)


def alignment_counts(aligned: pd.DataFrame) -> dict:
    """How two aligned runs compare: shared instances, both right, only a, only b, both wrong (graded
    instances only), and how many answers agree."""
    graded = aligned.dropna(subset=["correct_a", "correct_b"])
    ca, cb = graded["correct_a"] >= 1, graded["correct_b"] >= 1
    return {"n": int(len(aligned)), "graded": int(len(graded)), "both": int((ca & cb).sum()),
            "only_a": int((ca & ~cb).sum()), "only_b": int((~ca & cb).sum()), "neither": int((~ca & ~cb).sum()),
            "agree": int(aligned["agree"].sum()) if len(aligned) else 0}
