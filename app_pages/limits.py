"""Where "Holistic" Still Breaks: a guided walk (data/limits.toml) from HELM's contribution to its blind spots, one
slide per step (a stepper: Back / Next / `?step=N` on a desktop, PageDown walks every step in presenter mode).

Each step's visual is its evidence: computed from the loaded release and cohort where the data can show it (the dense
exam, blank cells, win rates against other rivals, seed spread, contamination flags, the paper's cell beside the
release's), the metric groups of HELM's own successors, or a table of the paper's own claims where no data can show
it. A step whose data the loaded release or cohort does not hold (no seeds, no flags) stays on the page but leaves
the presenter route. The step's text (about HELM classic and its 2022 paper) follows its visual."""
from __future__ import annotations

from functools import partial

import pandas as pd
import streamlit as st

from helm_core import claims, critique, fmt, grid, limits_evidence, summary
from helm_core.data import CORE_GROUPS, GROUP_LABELS, DataError
from ui import cache, charts_critique, charts_releases, components, slides, state
from ui.slides import Card, Chart, Ctx, Link, Slide, Table, View

load_steps = st.cache_resource(show_spinner=False)(critique.load_steps)
headline_counts = cache.on_release(summary.headline_counts)
blank_sentence = cache.on_release(summary.blank_sentence)
blank_cells = cache.on_release(limits_evidence.blank_cells_by_group)
model_set_effect = cache.on_release(limits_evidence.model_set_effect)
seed_ranges = cache.on_release(limits_evidence.seed_ranges)
contamination_cells = cache.on_release(limits_evidence.contamination_cells)
moving_target = cache.on_release(limits_evidence.moving_target)

RIVAL_KEY = "rival_model"
DEFAULT_RIVAL_MODEL = "Cohere xlarge v20220609 (52.4B)"
TEXT = components.text

NO_MODELS = ("No model matches the sidebar's cohort and access filter, so there is nothing to compute here. Widen "
             "the filter.")


def _no_models() -> View:
    return View(point="No model matches the sidebar's cohort and access filter.", empty=NO_MODELS,
                empty_kind="warning")


def _cohort_phrase(ctx: Ctx) -> str:
    return f"{fmt.count(len(ctx.models), 'model')} of the sidebar's cohort"


# ----------------------------------------------------------------------------- 1 · one dense, standardized exam


def dense_view(ctx: Ctx) -> View:
    rel, models = ctx.rel, ctx.models
    if not models:
        return _no_models()
    c = headline_counts(models)
    before, paper = cache.claims()["coverage_jump"].values[:2]
    acc = c["accuracy_measured"] / c["accuracy_cells"] if c["accuracy_cells"] else float("nan")
    scen = fmt.count(c["scenarios"], "core scenario" if rel.is_classic else "scenario")
    rows = pd.DataFrame([
        {"label": "Before HELM: models on average (2022 paper)", "value": before / 100, "kind": "claim"},
        {"label": "HELM classic in the 2022 paper (its own number)", "value": paper / 100, "kind": "claim"},
        {"label": f"{rel.name}, {fmt.count(c['models'], 'model')} of this cohort (data)", "value": acc,
         "kind": "data"},
    ])
    point = (f"{TEXT(rel.name)} puts {fmt.count(c['models'], 'model')} on one exam of {scen}: "
             f"{fmt.share(acc)} of their model × scenario cells have an accuracy value.")
    cards = [
        Card("Models, same exam", fmt.count(c["models"])),
        Card("Core scenarios" if rel.is_classic else "Scenarios", fmt.count(c["scenarios"])),
        Card("Accuracy measured", fmt.ratio(c["accuracy_measured"], c["accuracy_cells"]), summary.coverage_help(c)),
        Card("Schema cells measured", fmt.ratio(c["core_cells_listed_measured"], c["core_cells_listed"]),
             f"{fmt.count(c['core_cells_listed_measured'])} of "
             f"{fmt.count(c['core_cells_listed'], 'model × scenario × group cell')} that HELM's schema lists have a "
             f"value; the {fmt.count(c['core_cells_by_design'], 'cell')} the schema leaves blank by design are not "
             "counted."),
    ]
    if not rel.is_classic:
        tail = (". The paper's 96.0% is about HELM classic's models and scenarios, so compare on the classic "
                "release.")
    elif ctx.cohort == "paper":
        tail = (", the models the paper's 96.0% is about; choose 'all' in the sidebar to add the models HELM ran "
                "later.")
    else:
        tail = (". The paper's 96.0% is about its own models: choose the 'paper' cohort in the sidebar to compare "
                "like with like.")
    alt = "; ".join(f"{r.label}: {fmt.share(r.value)} ({'paper claim' if r.kind == 'claim' else 'data'})"
                    for r in rows.itertuples())
    chart = Chart(charts_critique.coverage_bars(rows, ctx.mode), key="limits_dense",
                  alt=f"Share of core scenarios a model is evaluated on: {alt}.", data=rows, data_name="coverage_jump")
    talk = [f"Before HELM, a model had results on {fmt.value(before, 1)}% of the 16 core scenarios, pooling every paper "
            f"(the 2022 paper's number); HELM classic in the paper: {fmt.value(paper, 1)}%.",
            f"Here: {fmt.count(c['accuracy_measured'])} of {fmt.count(c['accuracy_cells'], 'model × scenario cell')} "
            f"have the scenario's main accuracy metric ({fmt.share(acc)}).",
            f"Across the metric groups HELM's schema lists, {fmt.ratio(c['core_cells_listed_measured'], c['core_cells_listed'])}"
            " of the cells have a value."]
    return View(point=point, visual=chart, cards=cards, talk=talk,
                notes=[f"Computed from {TEXT(rel.name)} for the {fmt.count(c['models'], 'model')} of the sidebar's "
                       f"cohort{tail}"],
                read="Hatched purple bars are the paper's numbers (claims); the solid blue bar is computed from the "
                     "data.")


# ----------------------------------------------------------------------------- 2 · blank cells


def blank_view(ctx: Ctx) -> View:
    rel, models = ctx.rel, ctx.models
    if not models:
        return _no_models()
    df = blank_cells(models)
    # The grid's own word for a blank no model could fill: classic's schema leaves the scenario out ("by design");
    # a later release's published tables simply hold no such column, and publish no reason (app_pages/grid.py).
    later = grid.own_grid(rel)
    design = "not in the release's tables" if later else "by design"
    worst = df.sort_values("blank_share", ascending=False, kind="stable").iloc[0]
    alt = "; ".join(f"{r.label}: {fmt.share(r.blank_share, 0)} blank ({fmt.count(r.by_design)} {design}, "
                    f"{fmt.count(r.not_run)} not run)" for r in df.itertuples())
    chart = Chart(charts_critique.blank_cells_bars(df, ctx.mode, later=later), key="limits_blank_cells",
                  alt=f"Blank cells per metric group, {rel.name}: {alt}.", data=df, data_name="blank_cells_by_group")
    tied = df[df["blank_share"] == worst["blank_share"]]
    if len(tied) > 1:  # several groups equally blank (a later release: every cell of five groups)
        by_design = bool((tied["by_design"] == tied["blank"]).all())
        labels = list(tied["label"])
        point = (f"{fmt.names(labels[:1] + [x.lower() for x in labels[1:]])} are each blank in {fmt.share(worst['blank_share'], 0)} of this "
                 f"cohort's {fmt.count(int(worst['cells']), 'model × scenario cell')}"
                 + (f", all {design}." if by_design else "."))
    else:
        point = (f"{worst['label']} is blank in {fmt.share(worst['blank_share'], 0)} of this cohort's "
                 f"{fmt.count(int(worst['cells']), 'model × scenario cell')}: {fmt.count(int(worst['by_design']))} "
                 f"{design}, {fmt.count(int(worst['not_run']))} not run.")
    total = df[["blank", "by_design", "not_run", "cells"]].sum()
    talk = [f"In all, {fmt.count(int(total['blank']))} of {fmt.count(int(total['cells']), 'cell')} are blank: "
            f"{fmt.count(int(total['by_design']))} {design}, {fmt.count(int(total['not_run']))} because a model "
            "was not run."]
    sentence = blank_sentence(models)
    if sentence:
        talk.append(TEXT(sentence))
    return View(point=point, visual=chart, talk=talk,
                notes=[f"Computed from {TEXT(rel.name)} for the {_cohort_phrase(ctx)}."],
                read=("Blue: measured. Grey, cross-hatched: " + (
                    f"blank, not in {TEXT(rel.name)}'s published tables (the release publishes no reason)" if later
                    else "blank by design (HELM's schema gives the scenario no such group)")
                    + ". Grey, solid: blank because the model was not run. Hatching separates the two kinds of blank."))


# ----------------------------------------------------------------------------- 3 · aggregation: the rivals


def _rival_options(ctx: Ctx) -> list[str]:
    return sorted(ctx.models, key=lambda m: (m != DEFAULT_RIVAL_MODEL, m.lower()))


def rival_controls(ctx: Ctx) -> None:
    state.allow(RIVAL_KEY, set(ctx.models))
    if len(ctx.models) < 2 or not _has_accuracy(ctx):
        return None
    st.selectbox("Model", _rival_options(ctx), key=RIVAL_KEY, bind="query-params",
                 help="The model whose win rate is recomputed against each set of rivals.")
    return None


def _has_accuracy(ctx: Ctx) -> bool:
    return bool((ctx.rel.results["metric_group"] == "accuracy").any())


def rival_sentence(df, model: str) -> str:
    """What the win rates against the sets of rivals show: the spread when they differ, and plainly when this
    cohort allows only one set, or every set gives the same number."""
    lo, hi = df.loc[df["win_rate"].idxmin()], df.loc[df["win_rate"].idxmax()]
    who = TEXT(model)
    if len(df) == 1:
        return (f"This cohort allows one set of rivals only: {who} has a win rate of **{fmt.value(lo['win_rate'], 2)}** "
                f"(#{int(lo['rank'])} of {fmt.count(lo['ranked'])}) against {TEXT(lo['rivals'])}.")
    if lo["win_rate"] == hi["win_rate"]:
        return (f"{who} has the same win rate, **{fmt.value(lo['win_rate'], 2)}**, against each of the "
                f"{fmt.count(len(df), 'set')} of rivals.")
    return (f"Same model, same cells: a win rate of **{fmt.value(lo['win_rate'], 2)}** against "
            f"{TEXT(lo['rivals'])} and **{fmt.value(hi['win_rate'], 2)}** against {TEXT(hi['rivals'])}.")


def rival_view(ctx: Ctx) -> View:
    rel, models = ctx.rel, ctx.models
    if len(models) < 2:
        return View(point="Win rates need at least two models in the sidebar's cohort.",
                    empty="Win rates need at least two models in the sidebar's cohort. Widen the filter.")
    if not _has_accuracy(ctx):
        return View(point=f"{TEXT(rel.name)} has no accuracy group, so there is no win rate to recompute.",
                    empty="The loaded data has no accuracy group, so there is no win rate to recompute.")
    options = _rival_options(ctx)
    model = ctx.get(RIVAL_KEY, options[0], set(models))
    df = model_set_effect(model, models)
    if df.empty:
        return View(point=f"{TEXT(model)} has no accuracy values to compare in {TEXT(rel.name)}.",
                    empty=f"{TEXT(model)} has no accuracy values to compare in {TEXT(rel.name)}.")
    alt = "; ".join(f"against {r.rivals}: {fmt.value(r.win_rate, 2)}, rank {r.rank} of {r.ranked}"
                    for r in df.itertuples())
    chart = Chart(charts_critique.rival_set_bars(df, model, ctx.mode), key="limits_model_set",
                  alt=f"Accuracy win rate of {model}: {alt}.", data=df, data_name="win_rate_by_rivals")
    talk = [f"{TEXT(model)} against {TEXT(r.rivals)}: {fmt.value(r.win_rate, 2)}, rank {r.rank} of "
            f"{fmt.count(r.ranked)}." for r in df.itertuples()] if len(df) > 1 else []  # one set: the point says it
    if len(df) == 1:
        talk.append("Widen the sidebar's cohort to see the same cells score differently against other fields.")
    elif df["win_rate"].nunique() == 1:
        talk.append("Its rank among them does not change with the field.")
    return View(point=rival_sentence(df, model), visual=chart, talk=talk[:4],
                notes=[f"Recomputed from {TEXT(rel.name)} as HELM's summarize.py does (ties count half, cells "
                       "flagged ☠ left out); these are recomputed win rates, not HELM's published column."])


# ----------------------------------------------------------------------------- 4 · seed spread


def seed_view(ctx: Ctx) -> View:
    rel, models = ctx.rel, ctx.models
    if not models:
        return _no_models()
    df = seed_ranges(models, top=10)
    if df.empty:
        msg = (f"No accuracy cell of this cohort in {TEXT(rel.name)} records its seeds separately (a run count equal "
               "to the number of trials), so the seed spread cannot be shown.")
        return View(point=f"{TEXT(rel.name)} records no seeds separately for this cohort.", empty=msg)
    top = df.iloc[0]
    alt = "; ".join(f"{r.model} on {r.scenario}: {fmt.value(r.min)} to {fmt.value(r.max)}" for r in df.itertuples())
    chart = Chart(charts_critique.seed_dumbbell(df, ctx.mode), key="limits_seed_spread",
                  alt=f"Widest ranges over in-context-example seeds, {rel.name}: {alt}.", data=df,
                  data_name="widest_seed_ranges")
    point = (f"The widest seed range in {TEXT(rel.name)}: {TEXT(top['model'])} on {TEXT(top['scenario'])}, "
             f"{fmt.value(top['min'])} to {fmt.value(top['max'])} {TEXT(top['metric'])}.")
    talk = [f"{TEXT(r.model)} on {TEXT(r.scenario)}: {fmt.value(r.min)} to {fmt.value(r.max)} over "
            f"{fmt.count(r.seeds, 'seed')} (HELM shows {fmt.value(r.mean)})." for r in df.head(3).itertuples()]
    return View(point=point, visual=chart, talk=talk,
                notes=[f"Computed from {TEXT(rel.name)}: the widest is {TEXT(top['model'])} on "
                       f"{TEXT(top['scenario'])}, from {fmt.value(top['min'])} to {fmt.value(top['max'])} "
                       f"{TEXT(top['metric'])} over {int(top['seeds'])} seeds. Only cells whose runs are exactly the "
                       "seeds are used."],
                read="Each line runs from a cell's worst seed (▲ pointing left) to its best (▲ pointing right); the "
                     "dot is the mean HELM shows.")


# ----------------------------------------------------------------------------- 5 · contamination


def contamination_view(ctx: Ctx) -> View:
    rel, models = ctx.rel, ctx.models
    if not models:
        return _no_models()
    df = contamination_cells(models)
    if df.empty:
        msg = (f"No cell of this cohort carries a contamination flag in {TEXT(rel.name)}. That is not the same as "
               "clean: HELM can only flag what model developers disclosed.")
        return View(point=f"{TEXT(rel.name)} flags no cell of this cohort as contaminated.", empty=msg)
    n = limits_evidence.contamination_counts(df)
    chart = Chart(charts_critique.contamination_bars(df, ctx.mode), key="limits_contamination",
                  alt=f"Contamination flags per model in {rel.name}: " + "; ".join(
                      f"{m}: " + ", ".join(f"{len(g)} {lvl}" for lvl, g in part.groupby("level", sort=False))
                      for m, part in df.groupby("model", sort=False)) + ".",
                  data=df, data_name="contamination_flags")
    point = (f"{TEXT(rel.name)} flags {fmt.count(len(df), 'cell')} of this cohort: {n['strong_cells']} ☠ strongly "
             f"contaminated, left out of win rates, and {n['weaker_cells']} ⚠ weaker.")
    cards = [Card("☠ strongly contaminated cells", fmt.count(n["strong_cells"]),
                  f"{fmt.count(n['strong_models'], 'model')}; left out of win rates, as HELM does."),
             Card("⚠ weaker flags", fmt.count(n["weaker_cells"]), f"{fmt.count(n['weaker_models'], 'model')}.")]
    talk = [f"☠ {fmt.count(n['strong_cells'], 'cell')} of {fmt.count(n['strong_models'], 'model')}: trained on that "
            "very dataset.",
            f"⚠ {fmt.count(n['weaker_cells'], 'cell')} of {fmt.count(n['weaker_models'], 'model')}: a small reported "
            "overlap, still counted.",
            "Every other cell is unknown, not clean."]
    return View(point=point, visual=chart, cards=cards, talk=talk,
                notes=[f"Listed from the notes in {TEXT(rel.name)}'s results, one row per model and scenario."])


def contamination_details(ctx: Ctx) -> None:
    df = contamination_cells(ctx.models) if ctx.models else pd.DataFrame()
    if df.empty:
        return
    shown = df.assign(flag=df["mark"] + " " + df["level"])[
        ["flag", "model", "scenario", "metric", "accuracy", "in_win_rates"]]
    st.dataframe(shown, hide_index=True, width="stretch",
                 column_config={"accuracy": st.column_config.NumberColumn("accuracy (HELM's value)", format="%.3f"),
                                "in_win_rates": st.column_config.CheckboxColumn("counted in win rates")})
    components.download(df, "contamination_flags", key="limits_contamination_csv")
    for mark, level in limits_evidence.CONTAMINATION_LEVELS.items():
        for note in df.loc[df["mark"] == mark, "note"].unique()[:3]:
            st.caption(f"HELM's note on the {mark} ({level}) cells: {TEXT(note)}")


# ----------------------------------------------------------------------------- 7 · moving targets


def moving_view(ctx: Ctx) -> View:
    rel, models = ctx.rel, ctx.models
    ex = limits_evidence.MOVING_TARGET_EXAMPLE
    claim = cache.claims()[ex["claim"]]
    paper = tuple(claim.values[: len(ex["groups"])])
    df = moving_target(ex["model"], ex["scenario"], paper, groups=ex["groups"], models=models)
    what = f"{ex['model']} on {ex['scenario']}"
    if df.empty:
        only = pd.DataFrame({"metric_group": list(ex["groups"]),
                             "metric": [GROUP_LABELS[g] for g in ex["groups"]], "paper": list(paper)})
        chart = Chart(charts_critique.moving_target_bars(only, ex["model"], ex["scenario"], None, ctx.mode),
                      key="limits_moving_target",
                      alt=f"The paper's numbers for {what}: " + "; ".join(
                          f"{r.metric}: {fmt.value(r.paper, 1)}% (paper claim)" for r in only.itertuples()) + ".",
                      data=only, data_name="paper_numbers")
        where = ("the sidebar's cohort" if ex["model"] in set(rel.model_names) and ex["scenario"] in
                 set(rel.taxonomy.scenario_names) else TEXT(rel.name))
        return View(point=f"{TEXT(what)} is not in {where}, so only the paper's claim is shown.",
                    visual=chart,
                    talk=[f"{r.metric}: {fmt.value(r.paper, 1)}% in the paper." for r in only.itertuples()],
                    read="Hatched purple bars are the paper's numbers (a claim).")
    chart = Chart(charts_critique.moving_target_bars(df, ex["model"], ex["scenario"], rel.name, ctx.mode),
                  key="limits_moving_target",
                  alt="; ".join(f"{r.metric}: paper {fmt.value(r.paper, 1)}%, {rel.name} {fmt.value(r.release, 1)}%"
                                for r in df.itertuples()),
                  data=df, data_name="paper_vs_release")
    worst = df.loc[df["difference"].abs().idxmax()]
    verdict = "The data disagrees with the paper" if abs(worst["difference"]) >= 1 else "The data agrees with the paper"
    point = (f"{verdict}: {TEXT(what)} has {TEXT(worst['metric'])} {fmt.value(worst['release'], 1)}% in "
             f"{TEXT(rel.name)}, {fmt.value(worst['paper'], 1)}% in the paper.")
    parts = [f"{r.metric}: {fmt.value(r.paper, 1)}% in the paper, {fmt.value(r.release, 1)}% in {rel.name} "
             f"({r.difference:+.1f} points)" for r in df.itertuples()]
    return View(point=point, visual=chart, talk=[TEXT(f"{verdict}: " + "; ".join(parts) + ".")],
                read="Hatched purple bars are the paper's numbers (a claim, shown with its badge below); solid blue "
                     "bars are this release's values from data/.")


# ----------------------------------------------------------------------------- 8 · HELM's successors


def successors_view(ctx: Ctx) -> View:
    mt = cache.moving_targets()
    names, presence = mt["names"], mt["presence"]
    classic = [g for g in CORE_GROUPS if presence.loc["classic", g]]
    later = [r for r in presence.index if r != "classic"]
    gone = [g for g in classic if not presence.loc[later, g].any()]
    kept = {r: int(presence.loc[r].sum()) for r in later}
    labels = {g: GROUP_LABELS[g] for g in CORE_GROUPS}
    chart = Chart(charts_releases.group_presence_grid(presence, names, labels, ctx.mode), key="limits_successors",
                  alt="Metric groups with values per bundled release: " + "; ".join(
                      f"{names[r]}: " + (", ".join(GROUP_LABELS[g].lower() for g in CORE_GROUPS if presence.loc[r, g])
                                         or "none") for r in presence.index) + ".",
                  data=presence.reset_index().replace({True: "measured", False: "blank"}),
                  data_name="releases_metric_groups")
    same = len(set(kept.values())) == 1
    has = (f"{fmt.names([TEXT(names[r]) for r in later])} {'each keep' if len(later) > 1 else 'keeps'} "
           f"{next(iter(kept.values()))}" if same else
           fmt.names([f"{TEXT(names[r])} keeps {k}" for r, k in kept.items()]))
    point = (f"HELM's own successors measure less: {has} of the {len(classic)} metric groups "
             f"{TEXT(names['classic'])} measures.")
    talk = [f"{TEXT(names[r])}: " + ", ".join(GROUP_LABELS[g].lower() for g in CORE_GROUPS if presence.loc[r, g])
            + "." for r in presence.index]
    if gone:
        talk.append(f"Gone from every successor's tables: {fmt.names([GROUP_LABELS[g].lower() for g in gone])}.")
    return View(point=point, visual=chart, talk=talk,
                notes=["Computed from the three bundled releases' own tables (data/ and data/releases/); the "
                       "sidebar's release, cohort and access filter do not change it."],
                read="A filled square: the release has values in that metric group; a cross: its tables hold none.")


# ----------------------------------------------------------------------------- claims only


def claims_view(ctx: Ctx, step: critique.Step) -> View:
    all_claims = cache.claims()
    df = claims.claims_table(all_claims, step.claims)
    heads = [h for h in df["head"] if h]
    firsts = {h.split(" ", 1)[0] for h in heads}
    if len(heads) == len(df) and len(firsts) == 1 and all(" " in h for h in heads):  # "Missing scenarios", ...
        what = f", {firsts.pop().lower()} " + fmt.names([h.split(" ", 1)[1] for h in heads])
    else:
        what = f" ({fmt.names([h.lower() for h in heads])})" if heads else ""
    point = f"The paper names {fmt.count(len(df), 'gap')} of its own{what}; no data can show what was never measured."
    shown = df.assign(source=df["source"].str.replace(r"\s*\[[^\]]*\]", "", regex=True))
    cols = ["head", "statement", "confidence"] if ctx.phone else ["head", "statement", "source", "confidence"]
    if not heads:
        cols.remove("head")
    table = Table(shown[cols], key=f"limits_claims_{step.id}", data_name=f"claims_{step.id}",
                  labels={"head": "what", "statement": "what the paper says (a claim, not data)",
                          "confidence": "claim confidence"})
    by_conf = df["confidence"].value_counts()
    talk = [f"{fmt.count(len(df), 'claim')} from the paper: "
            + ", ".join(f"{n} {TEXT(conf)}" for conf, n in by_conf.items()) + ".",
            "The data holds only what HELM ran, so this step shows the paper's own list."]
    return View(point=point, visual=table, talk=talk,
                read="Each row is one of the paper's claims, with where it comes from and how sure this app is of "
                     "it (verified, quoted or unverified).")


# ----------------------------------------------------------------------------- the steps as slides

EVIDENCE = {
    "dense": dense_view,
    "blank_cells": blank_view,
    "model_set": rival_view,
    "seed_spread": seed_view,
    "contamination": contamination_view,
    "moving_target": moving_view,
    "release_groups": successors_view,
}
FROM_RELEASE = {"dense", "blank_cells", "model_set", "seed_spread", "contamination"}


def _on_route(step: critique.Step, ctx: Ctx) -> bool:
    """A step leaves the presenter route when its evidence has nothing to draw for the loaded release and cohort."""
    kind = step.evidence
    if kind in ("dense", "blank_cells", "contamination", "seed_spread") and not ctx.models:
        return False
    if kind == "model_set":
        return len(ctx.models) >= 2 and _has_accuracy(ctx)
    if kind == "seed_spread":
        return not seed_ranges(ctx.models, top=1).empty
    if kind == "contamination":
        return not contamination_cells(ctx.models).empty
    return True


def step_view(step: critique.Step, ctx: Ctx) -> View:
    view = claims_view(ctx, step) if step.evidence == "claims" else EVIDENCE[step.evidence](ctx)
    view.claims = tuple(step.claims)
    view.links = tuple(Link(link.label, link.page, link.query) for link in step.links)
    return view


def _source_phrase(step: critique.Step, ctx: Ctx, view: View) -> str:
    """What this step's visual is computed from, for the sentence that says the text is about HELM classic."""
    if step.evidence == "claims":
        return "the table above lists the paper's own claims"
    if step.evidence == "release_groups":
        return "the chart above compares the three bundled releases"
    if view.visual is None:
        return f"{TEXT(ctx.rel.name)} has nothing to draw for this step"
    if step.evidence == "moving_target" and "only the paper's claim" in view.point:
        return "the chart above shows the paper's numbers only"
    if step.evidence == "moving_target":
        return f"the chart above sets the paper's numbers beside {TEXT(ctx.rel.name)}'s"
    return f"the {'chart' if isinstance(view.visual, Chart) else 'table'} above is computed from {TEXT(ctx.rel.name)}"


def step_details(step: critique.Step, k: int, ctx: Ctx, view: View, event) -> None:
    """The step's text under its evidence (with what it is true of on another release), and desktop extras."""
    if step.evidence == "contamination":
        contamination_details(ctx)
    st.subheader(f"{k}. {step.title}")
    st.markdown(step.text)
    if not ctx.rel.is_classic:
        st.caption(f"This step's text is about HELM classic and its 2022 paper; {_source_phrase(step, ctx, view)}.")


def _error_slides(exc: DataError) -> list[Slide]:
    msg = f"The stepper's content could not be loaded: {TEXT(exc)}"
    return [Slide("error", "Content missing", view=lambda ctx: View(point=msg, empty=msg, empty_kind="warning"),
                  on_route=False)]


def limits_slides(ctx: Ctx) -> list[Slide]:
    try:
        steps = load_steps()
    except DataError as exc:
        return _error_slides(exc)
    return [Slide(s.id, s.title, view=partial(step_view, s), details=partial(step_details, s, k),
                  controls=rival_controls if s.evidence == "model_set" else None, on_route=_on_route(s, ctx))
            for k, s in enumerate(steps, start=1)]


DECK = slides.Deck("limits", limits_slides, picker="stepper", keep=[RIVAL_KEY])

if __name__ == "__main__":
    from ui import layout

    layout.render(DECK)
