"""Headline counts and the 'same exam' matrix of the plumbing page."""
from __future__ import annotations

from typing import Iterable

import pandas as pd

from . import fmt
from .data import CORE_GROUPS, Release, main_metric_table, select_models
from .limits_evidence import blank_cells_by_group

# HELM's "General information" columns (# eval, # train, truncated, # prompt tokens, # output tokens, # trials)
# describe the runs, they do not measure the model: counted apart from the metrics.
BOOKKEEPING_GROUPS = ("general_information",)


def headline_counts(release: Release, models: Iterable[str] | None = None) -> dict[str, int]:
    """Counts computed from the data: models, organizations, scenarios, metric groups; values and blanks of
    the metrics apart from the bookkeeping columns (BOOKKEEPING_GROUPS); and the core model × scenario ×
    group cells, split into measured, blank by design (the schema gives the scenario no such group) and
    missing (the schema lists the group, the model has no value)."""
    rel = select_models(release, models) if models is not None else release
    res = rel.results
    books = res["metric_group"].isin(BOOKKEEPING_GROUPS)
    has = res["value"].notna()
    by_group = blank_cells_by_group(rel)
    acc = by_group.set_index("metric_group").loc["accuracy"] if not by_group.empty else None
    total = int(by_group["cells"].sum())
    measured = int(by_group["measured"].sum())
    by_design = int(by_group["by_design"].sum())
    missing = int(by_group["not_run"].sum())
    return {
        "models": int(rel.models.shape[0]),
        "organizations": int(rel.models["organization"].nunique()),
        "scenarios": int(len(rel.taxonomy.scenario_names)),
        "metric_groups": int(len(CORE_GROUPS)),
        "metric_groups_measured": int(res.loc[has & res["metric_group"].isin(CORE_GROUPS), "metric_group"].nunique()),
        "values": int(has.sum()),
        "blank_values": int((~has).sum()),
        "metric_values": int((has & ~books).sum()),
        "metric_blank": int((~has & ~books).sum()),
        "bookkeeping_values": int((has & books).sum()),
        "bookkeeping_blank": int((~has & books).sum()),
        "core_cells": total,
        "core_cells_measured": measured,
        "core_cells_blank": total - measured,
        "core_cells_by_design": by_design,
        "core_cells_listed": total - by_design,
        "core_cells_listed_measured": total - by_design - missing,
        "core_cells_missing": missing,
        "accuracy_cells": int(acc["cells"]) if acc is not None else 0,
        "accuracy_measured": int(acc["measured"]) if acc is not None else 0,
    }


def metric_groups_text(measured: int, total: int = len(CORE_GROUPS)) -> str:
    """The "Metric groups" headline, the same on the home and data pages: "7", or "3 of 7"."""
    return f"{measured:,} of {total:,}" if measured < total else f"{measured:,}"


def bookkeeping_metrics(release: Release) -> list[str]:
    """HELM's "General information" column names the release holds (# eval, # train, truncated, ...), in order."""
    res = release.results
    # unique() keeps the order of first appearance and is vectorised (the element-wise version took ~5 ms).
    return [str(m) for m in res.loc[res["metric_group"].isin(BOOKKEEPING_GROUPS), "metric"].unique()]


def blank_owners(release: Release, models: Iterable[str] | None = None) -> pd.DataFrame:
    """Who the blank cells of the 'same exam' (the main accuracy metric) belong to: one row per model with a
    blank, most blanks first. Columns: model, blanks, scenarios (comma-joined), paper_cohort."""
    rel = select_models(release, models) if models is not None else release
    exam = exam_matrix(rel)
    blank = exam[~exam["measured"]]
    cols = ["model", "blanks", "scenarios", "paper_cohort"]
    if blank.empty:
        return pd.DataFrame(columns=cols)
    out = blank.groupby("model", sort=False).agg(blanks=("scenario", "size"), scenarios=("scenario", ", ".join))
    out = out.reset_index()
    cohort = rel.models.set_index("model")["paper_cohort"].astype(bool)
    out["paper_cohort"] = out["model"].map(cohort).fillna(False).astype(bool)
    order = {m: i for i, m in enumerate(rel.model_names)}
    out["_o"] = out["model"].map(order)
    return out.sort_values(["blanks", "_o"], ascending=[False, True]).drop(columns="_o")[cols].reset_index(drop=True)


def blank_sentence(release: Release, models: Iterable[str] | None = None, listed: int = 6) -> str:
    """One sentence, computed from the data, saying where the blanks of the 'same exam' are and whose they are
    (empty when there is no blank)."""
    rel = select_models(release, models) if models is not None else release
    exam = exam_matrix(rel)
    blank = exam[~exam["measured"]]
    if blank.empty:
        return ""
    by_scen = blank.groupby("scenario").size().sort_values(ascending=False, kind="stable")
    where = ", ".join(f"{s} ({n})" for s, n in by_scen.head(4).items())
    owners = blank_owners(rel)
    n_blank, n_models = int(owners["blanks"].sum()), len(owners)
    head = (f"Most blanks: {where}. The {fmt.count(n_blank, 'blank cell')} "
            f"{fmt.plural(n_blank, 'belongs')} to {fmt.count(n_models, 'model')}")
    parts = []
    # The 2022 paper's cohort is a classic notion: on any other release its models ran another exam.
    for flag, label in ((False, "not in the 2022 paper's cohort"), (True, "in the 2022 paper's cohort")):
        grp = owners[owners["paper_cohort"] == flag]
        if not grp.empty and rel.is_classic:
            parts.append((label, len(grp), int(grp["blanks"].sum())))
    if len(parts) == 1:
        label = parts[0][0]
        head += f", {label}" if n_models == 1 else f", all {label}"
    elif parts:
        head += ": " + " and ".join(f"{fmt.count(k, 'model')} {label} ({fmt.count(b, 'blank')})"
                                  for label, k, b in parts)
    if n_models <= listed:
        per = [f"{fmt.names(list(g['model']))} with {n}{' each' if len(g) > 1 else ''}"
               for n, g in owners.groupby("blanks", sort=False)]
        head += f": {'; '.join(per)}"
    return head + "."


def exam_matrix(release: Release, models: Iterable[str] | None = None) -> pd.DataFrame:
    """Long frame for the 'same exam' dot matrix: one row per (model, scenario) with the main metric,
    its value (NaN = blank) and whether it is measured."""
    rel = select_models(release, models) if models is not None else release
    table = main_metric_table(rel, "accuracy")
    long = table.reset_index(names="model").melt(id_vars="model", var_name="scenario", value_name="value")
    metric = (
        rel.results[rel.results["metric_group"] == "accuracy"]
        .drop_duplicates("scenario")
        .set_index("scenario")["metric"]
    )
    long["metric"] = long["scenario"].map(metric).fillna("")
    long["measured"] = long["value"].notna()
    return long


def coverage_help(counts: dict[str, int], schema: str = "HELM's schema") -> str:
    """What the 'Accuracy measured' headline counts, and how the other core cells split (from headline_counts):
    comparable with the paper's 96.0% (accuracy on the core scenarios) and 87.5% (cells HELM's design lists).
    `schema` names what assigns groups to scenarios (taxonomy.schema_name: HELM's schema on classic)."""
    c = counts
    return (
        f"{fmt.count(c['accuracy_measured'])} of {fmt.count(c['accuracy_cells'], 'model × scenario cell')} have the "
        f"scenario's main accuracy metric ({fmt.count(c['models'], 'model')} × {fmt.count(c['scenarios'], 'scenario')}). "
        f"Across all {c['metric_groups']} metric groups, {schema} {'list' if schema.endswith('tables') else 'lists'} "
        f"{fmt.count(c['core_cells_listed'], 'model × scenario × group cell')}: "
        f"{fmt.count(c['core_cells_listed_measured'])} have a value "
        f"({fmt.ratio(c['core_cells_listed_measured'], c['core_cells_listed'])}) and "
        f"{fmt.count(c['core_cells_missing'])} {fmt.plural(c['core_cells_missing'], 'is')} missing. "
        f"Another {fmt.count(c['core_cells_by_design'], 'cell')} {fmt.plural(c['core_cells_by_design'], 'is')} "
        "blank by design (the schema gives the scenario no such group) and not counted."
    )


SCENARIO_COLUMNS = ["scenario", "kind", "models with a value", "metric groups", "runs"]


def scenario_table(release: Release, runs: pd.DataFrame | None = None) -> pd.DataFrame:
    """What a dataset holds, scenario by scenario, in the order pages draw them (taxonomy.own_scenarios): its kind
    (taxonomy.scenario_kinds: "core", "other", "own"), how many models have a value for it, how many of the seven
    classic metric groups have one ("3 of 7"), and how many loaded runs it has (`runs`: a loaded suite's runs table;
    0 without one)."""
    from . import taxonomy

    order = list(taxonomy.own_scenarios(release))
    kinds = taxonomy.scenario_kinds(release)
    res = release.results[release.results["value"].notna()]
    models = res.groupby("scenario")["model"].nunique()
    groups = res[res["metric_group"].isin(CORE_GROUPS)].groupby("scenario")["metric_group"].nunique()
    n_runs = runs.groupby("scenario").size() if runs is not None and len(runs) else pd.Series(dtype=int)
    return pd.DataFrame({
        "scenario": order,
        "kind": [kinds.get(s, "") for s in order],
        "models with a value": [int(models.get(s, 0)) for s in order],
        "metric groups": [f"{int(groups.get(s, 0))} of {len(CORE_GROUPS)}" for s in order],
        "runs": [int(n_runs.get(s, 0)) for s in order],
    }, columns=SCENARIO_COLUMNS)


def exam_patterns(release: Release, models: Iterable[str] | None = None) -> pd.DataFrame:
    """The 'same exam' grouped by which scenarios a model lacks: one row per pattern of blanks (the models with the
    same missing scenarios), most models first, then fewest missing. A compact form of the dot matrix that fits a
    stage or a phone whatever the number of models.

    Columns: pattern (0, 1, ...), n_models, models (tuple, release order), missing (tuple, taxonomy order),
    n_missing."""
    rel = select_models(release, models) if models is not None else release
    exam = exam_matrix(rel)
    scen = list(rel.taxonomy.scenario_names)
    cols = ["pattern", "n_models", "models", "missing", "n_missing"]
    if exam.empty:
        return pd.DataFrame(columns=cols)
    blank = exam[~exam["measured"]]
    missing_by_model = blank.groupby("model", sort=False)["scenario"].apply(
        lambda s: tuple(x for x in scen if x in set(s))).to_dict()
    groups: dict[tuple[str, ...], list[str]] = {}
    for m in rel.model_names:
        groups.setdefault(missing_by_model.get(m, ()), []).append(m)
    rows = sorted(groups.items(), key=lambda kv: (-len(kv[1]), len(kv[0]), kv[0]))
    out = pd.DataFrame([{"n_models": len(ms), "models": tuple(ms), "missing": miss, "n_missing": len(miss)}
                        for miss, ms in rows])
    out.insert(0, "pattern", range(len(out)))
    return out[cols]


def complete_phrase(n_complete: int, n_models: int) -> str:
    """How many of n models have every scenario, in words: "all 28 models", "all but 6 of the 28 models",
    "30 of the 67 models", "none of the 3 models", "the one model"."""
    if n_models == 1:
        return "the one model" if n_complete else "no model"
    if n_complete == n_models:
        return f"all {fmt.count(n_models, 'model')}"
    if n_complete == 0:
        return f"none of the {fmt.count(n_models, 'model')}"
    k = n_models - n_complete
    if k <= n_models / 2:
        return f"all but {k:,} of the {fmt.count(n_models, 'model')}"
    return f"{n_complete:,} of the {fmt.count(n_models, 'model')}"


def exam_setup(release: Release) -> dict:
    """How the exam's prompts were set, from HELM's own bookkeeping columns: the most in-context examples any run
    put in a prompt ("# train"), the scenarios whose prompts had none, whether some runs averaged fewer than their
    scenario's most (a model got fewer examples), and the most seeds ("# trials"; None when the release does not
    publish the column). Every value None when the release has no "# train" column."""
    res = release.results
    book = res[res["metric_group"].isin(BOOKKEEPING_GROUPS) & res["value"].notna()]
    train = book[book["metric"] == "# train"]
    trials = book[book["metric"] == "# trials"]
    out = {"train_max": None, "zero_shot": (), "fewer_for_some": False,
           "trials_max": int(round(trials["value"].max())) if not trials.empty else None}
    if train.empty:
        return out
    per_scen = train.groupby("scenario")["value"].agg(["min", "max"])
    order = [s for s in release.taxonomy.scenario_names if s in per_scen.index]
    per_scen = per_scen.reindex(order)
    out["train_max"] = int(round(per_scen["max"].max()))
    out["zero_shot"] = tuple(s for s in order if per_scen.loc[s, "max"] == 0)
    out["fewer_for_some"] = bool((per_scen["min"] < per_scen["max"] - 1e-9).any())
    return out


def setup_phrase(setup: dict) -> str:
    """The exam's prompts in words (from exam_setup), true of the release: "the same prompts, with no in-context
    examples (zero-shot ...)", "the same prompts and in-context examples (up to 5 in-context examples per prompt;
    none on HellaSwag and OpenbookQA; ...)"."""
    most = setup.get("train_max")
    if most is None:
        return "the same prompts"
    if most == 0:
        return "the same prompts, with no in-context examples (zero-shot: HELM's # train is 0 in every run)"
    parts = [f"up to {fmt.count(most, 'in-context example')} per prompt"]
    if setup.get("zero_shot"):
        parts.append(f"none on {fmt.names(list(setup['zero_shot']))}")
    if setup.get("fewer_for_some"):
        parts.append("fewer for some models (HELM's # train averages below that in some runs)")
    trials = setup.get("trials_max")
    if trials and trials > 1:
        parts.append(f"the example sets drawn with up to {trials} seeds")
    return "the same prompts and in-context examples (" + "; ".join(parts) + ")"
