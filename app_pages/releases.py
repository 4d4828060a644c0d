"""Moving Targets: HELM classic v0.4.0, Lite v1.13.0 and Capabilities v1.15.0 side by side, from the bundled
releases (data/ and data/releases/). Every number is computed from the bundled tables (helm_core.releases, through
ui.cache.moving_targets); every "why" is a claim with its source.

Slides: the releases as a timeline (models, scenarios, metric groups), the metric orbit collapsing to accuracy and
efficiency, model turnover, saturation of the shared scenarios, and the same model in two releases."""
from __future__ import annotations

import pandas as pd
import streamlit as st

from helm_core import fmt
from helm_core.data import CORE_GROUPS, GROUP_LABELS
from ui import cache, charts_releases, components, slides
from ui.slides import Chart, Ctx, Slide, Table, View

TEXT = components.text


def _mt() -> dict:
    return cache.moving_targets()


def _names() -> dict[str, str]:
    return _mt()["names"]


def _scope(ctx: Ctx) -> str:
    names = _names()
    return (f"This page compares the three bundled releases ({TEXT(', '.join(names.values()))}) whichever one the "
            f"sidebar shows (now {TEXT(ctx.rel.name)}); the sidebar's cohort and access filter do not apply here.")


def _groups(key: str) -> str:
    by_id = _mt()["summary"].set_index("release")
    return ", ".join(GROUP_LABELS[g].lower() for g in by_id.loc[key, "groups"]) or "none"


# ----------------------------------------------------------------------------- timeline


def timeline_view(ctx: Ctx) -> View:
    summary = _mt()["summary"]
    first, last = summary.iloc[0], summary.iloc[-1]
    chart = Chart(
        charts_releases.timeline_bars(summary, ctx.mode), key="releases_timeline",
        alt="Per release: " + "; ".join(
            f"{r.name}: {r.models} models, {r.scenarios} scenarios, {r.groups_measured} of 7 metric groups, newest "
            f"model {r.newest_model_date or 'of unknown date'}" for r in summary.itertuples()) + ".",
        data=summary.assign(groups=summary["groups"].map(", ".join)), data_name="releases_summary")
    point = (f"From {TEXT(first['name'])} to {TEXT(last['name'])}: {first['models']:,} → {last['models']:,} models, "
             f"{first['scenarios']} → {last['scenarios']} scenarios, {first['groups_measured']} → "
             f"{last['groups_measured']} of the seven metric groups.")
    talk = [
        f"**{TEXT(r.name)}**: {r.models:,} models, {r.scenarios} scenarios, {r.groups_measured} of the 7 classic "
        f"metric groups measured ({_groups(r.release)}); {r.grid_cells_measured} of its {r.grid_cells} scenario × "
        f"group cells hold a value ({r.grid_coverage:.0%}). Newest model released "
        f"{r.newest_model_date or 'on an unknown date'}."
        for r in summary.itertuples()
    ]
    return View(point=point, visual=chart, talk=talk, notes=[_scope(ctx)],
                read="Order: classic, then its successors, one colour each. The newest model's release date (HELM's "
                     "model metadata) is a lower bound for when each leaderboard was last updated; the bundled files "
                     "carry no publication date.")


def timeline_details(ctx: Ctx, view: View, event) -> None:
    summary = _mt()["summary"]
    components.table(summary.drop(columns=["release"]).assign(groups=summary["groups"].map(", ".join)),
                     labels={"name": "release", "groups_measured": "groups of 7", "grid_cells": "grid cells",
                             "grid_cells_measured": "cells with a value", "grid_coverage": "share",
                             "core_group_share": "share of the 7 groups", "newest_model_date": "newest model"},
                     formats={"share": "{:.0%}", "share of the 7 groups": "{:.0%}"})


# ----------------------------------------------------------------------------- metric orbit


def orbit_view(ctx: Ctx) -> View:
    mt = _mt()
    names, presence = mt["names"], mt["presence"]
    by_id = mt["summary"].set_index("release")
    later = [r for r in presence.index if r != "classic"]
    labels = {g: GROUP_LABELS[g] for g in CORE_GROUPS}
    gone = [GROUP_LABELS[g].lower() for g in CORE_GROUPS
            if presence.loc["classic", g] and not presence.loc[later, g].any()]
    kept = [GROUP_LABELS[g].lower() for g in CORE_GROUPS if presence.loc[later, g].all()]
    chart = Chart(
        charts_releases.group_presence_grid(presence, names, labels, ctx.mode), key="releases_orbit",
        alt="Metric groups with values per release: " + "; ".join(f"{names[r]}: {_groups(r)}" for r in presence.index)
            + ".",
        data=presence.reset_index().replace({True: "measured", False: "blank"}), data_name="releases_metric_groups")
    point = (f"The metric orbit collapses: {fmt.names([TEXT(names[r]) for r in later])} keep {len(kept)} of "
             f"classic's {by_id.loc['classic', 'groups_measured']} metric groups"
             + (f" ({fmt.names(kept)})." if kept else "."))
    eff = mt["efficiency_metrics"]
    talk = [
        f"{TEXT(names['classic'])} has values in {by_id.loc['classic', 'groups_measured']} of the seven groups; "
        + "; ".join(f"{TEXT(names[r])} in {by_id.loc[r, 'groups_measured']}" for r in later)
        + f". Gone from {'every successor' if len(later) > 2 else 'both successors'}' tables: "
          f"**{fmt.names(gone) or 'none'}**.",
        "Efficiency is not the same column either: " + "; ".join(
            f"{TEXT(names[k])} reports *{TEXT(', '.join(v) or 'none')}*" for k, v in eff.items()) + ".",
    ]
    return View(point=point, visual=chart, talk=talk, claims=["lite_drops_perturbations", "lite_successor"],
                notes=["Why the groups went, the data cannot say: the claims here are HELM's own statements.",
                       _scope(ctx)],
                read="A filled square: the release has values in that metric group; a cross: its tables hold none.")


# ----------------------------------------------------------------------------- model turnover


def turnover_view(ctx: Ctx) -> View:
    mt = _mt()
    names = mt["names"]
    rows = []
    for (a, b), t in mt["turnover"].items():
        row = {"from → to": f"{names[a]} → {names[b]}", "models before": t["models_a"],
               "models after": t["models_b"], "in both": t["kept"], "dropped": t["dropped"], "new": t["added"]}
        if ctx.phone:
            row = {k: v for k, v in row.items() if k not in ("models before", "models after")}
        rows.append(row)
    table = Table(pd.DataFrame(rows), key="releases_turnover", data_name="model_turnover")
    t = mt["turnover"][("classic", "lite")]
    classic, lite, caps = names["classic"], names["lite"], names["capabilities"]
    point = (f"**{t['kept']} of the {t['models_a']} {TEXT(classic)} models are still on {TEXT(lite)}** "
             f"({t['kept'] / t['models_a']:.0%}); {t['added']} of Lite's {t['models_b']} models are new.")
    talk = [f"The other {t['dropped']} classic models are not on Lite.",
            f"{TEXT(caps)} shares {mt['turnover'][('lite', 'capabilities')]['kept']} models with Lite and "
            f"{mt['turnover'][('classic', 'capabilities')]['kept']} with classic."]
    return View(point=point, visual=table, talk=talk,
                notes=["Matched by the HELM model id in each release's models table (data/releases/model_matches.csv "
                       "lists every id shared by two or more releases), never by name.", _scope(ctx)])


def turnover_details(ctx: Ctx, view: View, event) -> None:
    mt = _mt()
    names = mt["names"]
    classic, lite = names["classic"], names["lite"]
    kept = mt["shared_models"][("classic", "lite")]
    st.markdown(f"**The {len(kept)} models in both {TEXT(classic)} and {TEXT(lite)}**, matched by HELM id (display "
                "names differ between releases):")
    components.table(kept.rename(columns={"helm_id": "HELM id", "model_a": f"name in {classic}",
                                          "model_b": f"name in {lite}"}))
    components.download(kept, "models_in_classic_and_lite", key="releases_kept_csv")


# ----------------------------------------------------------------------------- saturation


def _best_wide():
    mt = _mt()
    best = mt["best"]
    return best.pivot(index="scenario", columns="release", values="best").reindex(
        mt["shared_scenarios"][("classic", "lite")])


def saturation_view(ctx: Ctx) -> View:
    mt = _mt()
    names, best, shared = mt["names"], mt["best"], mt["shared_scenarios"]
    classic, lite, caps = names["classic"], names["lite"], names["capabilities"]
    if best.empty:
        return View(point="The bundled releases share no scenario, so there is nothing to compare.",
                    empty="The bundled releases share no scenario, so there is nothing to compare.",
                    notes=[_scope(ctx)])
    chart = Chart(
        charts_releases.saturation_dumbbell(best, ["classic", "lite"], ctx.mode), key="releases_saturation",
        alt="Best score per release on the shared scenarios: " + "; ".join(
            f"{r.scenario} {r.name} {r.best:.3f} ({r.model})" for r in best.itertuples()) + ".",
        data=best, data_name="best_score_per_release")
    wide = _best_wide()
    change = (wide["lite"] - wide["classic"]).dropna()
    up = int((change > 0).sum())
    top = change.idxmax()
    higher = (f"on all {len(change)}" if up == len(change) else f"on {up} of the {len(change)}")
    point = (f"On the {fmt.count(len(wide), 'scenario')} {TEXT(classic)} and {TEXT(lite)} share, Lite's best score "
             f"is higher {higher}; the largest rise is {TEXT(top)} ({change[top]:+.3f}).")
    talk = [f"Best {wide.loc[top, 'classic']:.3f} in classic, {wide.loc[top, 'lite']:.3f} in Lite on {TEXT(top)}."]
    caps_shared = len(shared[("classic", "capabilities")]) + len(shared[("lite", "capabilities")])
    if caps_shared == 0:
        talk.append(f"{TEXT(caps)} shares no scenario name with either: its "
                    f"{fmt.count(int(mt['summary'].set_index('release').loc['capabilities', 'scenarios']), 'scenario')} "
                    "are all new.")
    return View(point=point, visual=chart, talk=talk, claims=["releases_not_same_measurement"],
                notes=["Best and median over every model of each release with a value (cells HELM flags ☠ left out). "
                       "The fields differ (different models), so a higher best says the leaderboard's top moved, not "
                       "that any one model improved.", _scope(ctx)],
                read="Filled circles: the best score in each release; open diamonds: the median; one colour per "
                     "release.")


def saturation_details(ctx: Ctx, view: View, event) -> None:
    names = _names()
    wide = _best_wide()
    if wide.empty:
        return
    lines = [f"- **{TEXT(s)}**: best {wide.loc[s, 'classic']:.3f} in classic, {wide.loc[s, 'lite']:.3f} in Lite "
             f"({wide.loc[s, 'lite'] - wide.loc[s, 'classic']:+.3f})" for s in wide.index]
    st.markdown(f"{len(wide)} scenarios appear, under the same HELM name, in both {TEXT(names['classic'])} and "
                f"{TEXT(names['lite'])}:\n" + "\n".join(lines))


# ----------------------------------------------------------------------------- same model


def same_model_view(ctx: Ctx) -> View:
    mt = _mt()
    names, v = mt["names"], mt["values"]
    classic, lite = names["classic"], names["lite"]
    if v.empty:
        return View(point="No model has a value on a shared scenario in both releases.",
                    empty="No model has a value on a shared scenario in both releases.", notes=[_scope(ctx)])
    big = v.loc[v["change"].abs().idxmax()]
    chart = Chart(
        charts_releases.same_model_scatter(v, classic, lite, ctx.mode), key="releases_same_model",
        alt=(f"{len(v)} model-scenario pairs, value in {classic} against {lite}; largest change "
             f"{big['model_a']} on {big['scenario']} ({abs(big['change']):.3f})."),
        data=v, data_name="same_model_classic_lite")
    runs = int((v["n_runs_a"] != v["n_runs_b"]).sum())
    n_models, n_scenarios = v["model_a"].nunique(), v["scenario"].nunique()
    point = (f"**{len(v)} of the {n_models * n_scenarios} model–scenario pairs have a value in both** "
             f"({fmt.count(n_models, 'model')} of both releases, {fmt.count(n_scenarios, 'shared scenario')}). The "
             f"median absolute difference is **{v['change'].abs().median():.3f}**.")
    talk = [f"{int((v['change'].abs() >= 0.01).sum())} pairs differ by 0.01 or more, the largest "
            f"{TEXT(big['model_a'])} on {TEXT(big['scenario'])} ({big['value_a']:.3f} → {big['value_b']:.3f}).",
            f"In {runs} of the {len(v)} pairs HELM averaged a different number of runs (seeds × sub-tasks) in the two "
            "releases."]
    return View(point=point, visual=chart, talk=talk, claims=["releases_not_same_measurement"],
                notes=[_scope(ctx)],
                read="Each point is one model on one scenario: its value in classic (across) and in Lite (up); on the "
                     "dotted line the two agree.")


def same_model_details(ctx: Ctx, view: View, event) -> None:
    v = _mt()["values"]
    if v.empty:
        return
    components.table(v[["model_a", "scenario", "metric_a", "value_a", "n_runs_a", "value_b", "n_runs_b", "change"]]
                     .sort_values("change", key=abs, ascending=False).head(12),
                     labels={"model_a": "model", "metric_a": "metric", "value_a": "classic", "n_runs_a": "runs",
                             "value_b": "Lite", "n_runs_b": "runs (Lite)"},
                     formats={"runs": "{:.0f}", "runs (Lite)": "{:.0f}", "change": "{:+.3f}"})
    st.caption("The 12 largest differences; the chart's data table has all pairs. Runs = how many runs HELM averaged "
               "in the cell (its hover text's n).")


DECK = slides.Deck("releases", [
    Slide("timeline", "Timeline", view=timeline_view, details=timeline_details),
    Slide("orbit", "Metric orbit", view=orbit_view),
    Slide("turnover", "Model turnover", view=turnover_view, details=turnover_details),
    Slide("saturation", "Saturation", view=saturation_view, details=saturation_details),
    Slide("same_model", "Same model", view=same_model_view, details=same_model_details),
])

if __name__ == "__main__":
    from ui import layout

    layout.render(DECK)
