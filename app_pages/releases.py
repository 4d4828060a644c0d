"""Moving Targets: HELM classic v0.4.0, Lite v1.13.0 and Capabilities v1.15.0 side by side, from the bundled
releases (data/ and data/releases/): the releases as a timeline, the metric orbit collapsing to accuracy and
efficiency, model turnover, saturation of the shared scenarios, and the same model in two releases.
Every number is computed from the bundled tables (helm_core.releases); every "why" is a claim with its source."""
from __future__ import annotations

import streamlit as st

from helm_core.data import CORE_GROUPS, GROUP_LABELS
from ui import cache, charts_releases, components, presenter

components.page_header("releases")
rel = cache.active_release()
mt = cache.moving_targets()
names: dict[str, str] = mt["names"]
summary = mt["summary"]
by_id = summary.set_index("release")
CLASSIC, LITE, CAPS = (names[k] for k in ("classic", "lite", "capabilities"))



def _scope() -> None:
    st.caption(f"This page compares the three bundled releases ({components.text(', '.join(names.values()))}) "
               f"whichever one the sidebar shows (now {components.text(rel.name)}); the sidebar's cohort and access "
               "filter do not apply here.")


if not presenter.is_on():  # presenter mode: the main chart comes first, the scope note after the sections
    _scope()


def _groups(key: str) -> str:
    return ", ".join(GROUP_LABELS[g].lower() for g in by_id.loc[key, "groups"]) or "none"


def _timeline() -> None:
    main_slot = presenter.main_slot()
    st.subheader("Three releases, as HELM published them")
    with presenter.into(main_slot):
        components.chart(
            charts_releases.timeline_bars(summary), key="releases_timeline", main=True,
            alt="Per release: " + "; ".join(
                f"{r.name}: {r.models} models, {r.scenarios} scenarios, {r.groups_measured} of 7 metric groups"
                for r in summary.itertuples()) + ".",
            data=summary.assign(groups=summary["groups"].map(", ".join)), data_name="releases_summary",
        )
    lines = [
        f"- **{components.text(r.name)}**: {r.models:,} models, {r.scenarios} scenarios, "
        f"{r.groups_measured} of the 7 classic metric groups measured ({_groups(r.release)}); "
        f"{r.grid_cells_measured} of its {r.grid_cells} scenario × group cells hold a value ({r.grid_coverage:.0%}). "
        f"Newest model released {r.newest_model_date or 'on an unknown date'}."
        for r in summary.itertuples()
    ]
    st.markdown("\n".join(lines))
    st.caption("Order: classic, then its successors. The newest model's release date (HELM's model metadata) is a "
               "lower bound for when each leaderboard was last updated; the bundled files carry no publication date.")
    components.table(summary.drop(columns=["release"]).assign(groups=summary["groups"].map(", ".join)),
                     labels={"name": "release", "groups_measured": "groups of 7", "grid_cells": "grid cells",
                             "grid_cells_measured": "cells with a value", "grid_coverage": "share",
                             "core_group_share": "share of the 7 groups", "newest_model_date": "newest model"},
                     formats={"share": "{:.0%}", "share of the 7 groups": "{:.0%}"})


def _orbit() -> None:
    st.subheader("The metric orbit collapses to accuracy and efficiency")
    presence = mt["presence"]
    labels = {g: GROUP_LABELS[g] for g in CORE_GROUPS}
    components.chart(
        charts_releases.group_presence_grid(presence, names, labels), key="releases_orbit",
        alt="Metric groups with values per release: " + "; ".join(
            f"{names[r]}: {_groups(r)}" for r in presence.index) + ".",
        data=presence.reset_index().replace({True: "measured", False: "blank"}), data_name="releases_metric_groups",
    )
    gone = [GROUP_LABELS[g].lower() for g in CORE_GROUPS
            if presence.loc["classic", g] and not presence.drop(index="classic")[g].any()]
    st.markdown(
        f"{components.text(CLASSIC)} has values in {by_id.loc['classic', 'groups_measured']} of the seven groups; "
        f"{components.text(LITE)} in {by_id.loc['lite', 'groups_measured']} and {components.text(CAPS)} in "
        f"{by_id.loc['capabilities', 'groups_measured']}. Gone from both successors' tables: "
        f"**{', '.join(gone) or 'none'}**.")
    eff = mt["efficiency_metrics"]
    st.markdown("Efficiency is not the same column either: " + "; ".join(
        f"{components.text(names[k])} reports *{components.text(', '.join(v) or 'none')}*" for k, v in eff.items()) + ".")
    st.markdown("**Why the groups went** (the data cannot say; these are HELM's own statements):")
    components.claim("lite_drops_perturbations", compact=True)
    components.claim("lite_successor", compact=True)


def _turnover() -> None:
    st.subheader("The field of models turned over")
    rows = []
    for (a, b), t in mt["turnover"].items():
        rows.append({"from": names[a], "to": names[b], "models before": t["models_a"], "models after": t["models_b"],
                     "in both": t["kept"], "dropped": t["dropped"], "new": t["added"]})
    t = mt["turnover"][("classic", "lite")]
    kept = mt["shared_models"][("classic", "lite")]
    st.markdown(
        f"**{t['kept']} of the {t['models_a']} {components.text(CLASSIC)} models are still on "
        f"{components.text(LITE)}** ({t['kept'] / t['models_a']:.0%}); the other {t['dropped']} are not, and "
        f"{t['added']} of Lite's {t['models_b']} models are new. "
        f"{components.text(CAPS)} shares {mt['turnover'][('lite', 'capabilities')]['kept']} models with Lite and "
        f"{mt['turnover'][('classic', 'capabilities')]['kept']} with classic.")
    components.table(rows)
    st.markdown(f"**The {len(kept)} models in both {components.text(CLASSIC)} and {components.text(LITE)}**, "
                "matched by HELM id (display names differ between releases):")
    components.table(kept.rename(columns={"helm_id": "HELM id", "model_a": f"name in {CLASSIC}",
                                          "model_b": f"name in {LITE}"}))
    components.download(kept, "models_in_classic_and_lite", key="releases_kept_csv")
    st.caption("Matched by the HELM model id in each release's models table (data/releases/model_matches.csv lists "
               "every id shared by two or more releases), never by name.")


def _saturation() -> None:
    st.subheader("Shared scenarios: the best score in each release")
    shared = mt["shared_scenarios"]
    best = mt["best"]
    if best.empty:
        st.info("The bundled releases share no scenario, so there is nothing to compare.")
        return
    components.chart(
        charts_releases.saturation_dumbbell(best, ["classic", "lite"]), key="releases_saturation",
        alt="Best score per release on the shared scenarios: " + "; ".join(
            f"{r.scenario} {r.name} {r.best:.3f} ({r.model})" for r in best.itertuples()) + ".",
        data=best, data_name="best_score_per_release",
    )
    wide = best.pivot(index="scenario", columns="release", values="best").reindex(shared[("classic", "lite")])
    lines = [f"- **{components.text(s)}**: best {wide.loc[s, 'classic']:.3f} in classic, "
             f"{wide.loc[s, 'lite']:.3f} in Lite ({wide.loc[s, 'lite'] - wide.loc[s, 'classic']:+.3f})"
             for s in wide.index]
    st.markdown(f"{len(wide)} scenarios appear, under the same HELM name, in both {components.text(CLASSIC)} and "
                f"{components.text(LITE)}:\n" + "\n".join(lines))
    caps_shared = len(shared[("classic", "capabilities")]) + len(shared[("lite", "capabilities")])
    if caps_shared == 0:
        st.markdown(f"{components.text(CAPS)} shares no scenario name with either: its five are all new.")
    st.caption("Best and median over every model of each release with a value (cells HELM flags ☠ left out). "
               "The fields differ (different models), so a higher best says the leaderboard's top moved, not that "
               "any one model improved.")
    components.claim("releases_not_same_measurement", compact=True)


def _same_model() -> None:
    st.subheader("The same model on the same scenario, in two releases")
    v = mt["values"]
    if v.empty:
        st.info("No model has a value on a shared scenario in both releases.")
        return
    components.claim("releases_not_same_measurement")
    components.chart(
        charts_releases.same_model_scatter(v, CLASSIC, LITE), key="releases_same_model",
        alt=(f"{len(v)} model-scenario pairs, value in {CLASSIC} against {LITE}; largest change "
             f"{v.loc[v['change'].abs().idxmax(), 'model_a']} on {v.loc[v['change'].abs().idxmax(), 'scenario']} "
             f"({v['change'].abs().max():.3f})."),
        data=v, data_name="same_model_classic_lite",
    )
    big = v.loc[v["change"].abs().idxmax()]
    runs = (v["n_runs_a"] != v["n_runs_b"]).sum()
    st.markdown(
        f"**{v['model_a'].nunique()} models × {v['scenario'].nunique()} scenarios = {len(v)} pairs** with a value in "
        f"both. The median absolute difference is **{v['change'].abs().median():.3f}**; "
        f"{int((v['change'].abs() >= 0.01).sum())} pairs differ by 0.01 or more, the largest "
        f"{components.text(big['model_a'])} on {components.text(big['scenario'])} "
        f"({big['value_a']:.3f} → {big['value_b']:.3f}). In {runs} of the {len(v)} pairs HELM averaged a different "
        f"number of runs (seeds × sub-tasks) in the two releases.")
    components.table(v[["model_a", "scenario", "metric_a", "value_a", "n_runs_a", "value_b", "n_runs_b", "change"]]
                     .sort_values("change", key=abs, ascending=False).head(12),
                     labels={"model_a": "model", "metric_a": "metric", "value_a": "classic", "n_runs_a": "runs",
                             "value_b": "Lite", "n_runs_b": "runs (Lite)"},
                     formats={"runs": "{:.0f}", "runs (Lite)": "{:.0f}", "change": "{:+.3f}"})
    st.caption("The 12 largest differences; the chart's data table has all pairs. Runs = how many runs HELM averaged "
               "in the cell (its hover text's n).")


components.sections("releases_section", {
    "Timeline": _timeline,
    "Metric orbit": _orbit,
    "Model turnover": _turnover,
    "Saturation": _saturation,
    "Same model": _same_model,
})
if presenter.is_on():
    _scope()
components.onward("releases")
