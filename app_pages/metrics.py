"""Metric Orbit: the seven metric groups, per-model profiles, and how closely each metric tracks accuracy.

Slides: the profile (chosen models' win rates across the groups the release measures), the seven groups (one compact
table: what each measures in the loaded release, its direction, how many cells have a value) and whether each group
tracks accuracy (an agreement grid; a click picks the scatter under it). A later release (Lite, Capabilities)
measures fewer groups: each slide says which, and links to classic."""
from __future__ import annotations

import pandas as pd
import streamlit as st

from helm_core import fmt, metrics, taxonomy
from helm_core.data import CORE_GROUPS, GROUP_LABELS
from ui import cache, charts, charts_metrics, components, slides, state
from ui.charts import fmt_value
from ui.slides import Chart, Ctx, Slide, Table, View

group_overview = cache.on_release(metrics.group_overview)
profiles = cache.on_release(metrics.profiles)
default_profile_models = cache.on_release(metrics.default_profile_models)
accuracy_correlations = cache.on_release(metrics.accuracy_correlations)
pair_values = cache.on_release(metrics.pair_values)
groups_with_values = cache.on_release(taxonomy.groups_with_values)
correlation_spec = cache.on_release(charts_metrics.correlation_spec)

CONF_COLOR = {"verified": "green", "quoted": "blue", "unverified": "orange"}
DEFAULT_PAIR = "HellaSwag|calibration"
PROFILE_TIP = ("A win rate is the share of other models of the cohort a model beats in that group, averaged over "
               "the group's columns; 1 = best on every column, for every group.")
TEXT = components.text
NO_MODEL = "No model matches the sidebar's cohort and access filter. Widen the filter to see the metrics."


def _no_models(ctx: Ctx) -> View | None:
    return None if ctx.models else View(point="No model matches the sidebar's cohort and access filter.",
                                        empty=NO_MODEL, empty_kind="warning")


def _measured(ctx: Ctx) -> list[str]:
    """The groups this release has values for (classic: all seven; a later release or a loaded suite: its own)."""
    if ctx.rel.is_classic:
        return list(CORE_GROUPS)
    have = set(groups_with_values())
    return [g for g in CORE_GROUPS if g in have]


def _gap_note(ctx: Ctx) -> tuple[list[str], list[slides.Link]]:
    """On a release that lacks some of the seven groups: a note naming them and a link to the same page on classic."""
    missing = [g for g in CORE_GROUPS if g not in _measured(ctx)]
    if not missing or ctx.rel.is_classic:
        return [], []
    kept = taxonomy.groups_phrase(_measured(ctx))
    names = taxonomy.groups_phrase(missing)
    source = "published tables" if ctx.rel.is_later else "data"
    notes = [f"**{TEXT(ctx.rel.name)} has no {names} cells.** Its {source} report {kept} only, so this view shows "
             "those."]
    links = [slides.Link("Metric Orbit on HELM classic v0.4.0", "metrics", {"release": "classic"},
                         ":material/history:")] if ctx.rel.is_later else []
    return notes, links


def _profile_default(ctx: Ctx) -> list[str]:
    allowed = set(ctx.models)
    return [m for m in default_profile_models(ctx.models) if m in allowed]


def _profile_chosen(ctx: Ctx) -> list[str]:
    allowed = set(ctx.models)
    got = ctx.get("models", _profile_default(ctx), lambda v: isinstance(v, (list, tuple)))
    return [m for m in got if m in allowed][: metrics.MAX_PROFILE_MODELS]


def profile_picker(ctx: Ctx, label: str = f"Models to compare (up to {metrics.MAX_PROFILE_MODELS})",
                   tip: str = PROFILE_TIP) -> list[str]:
    """The profile's models, shared by the profile and the scatter that stars them (one key, so one choice)."""
    options = list(ctx.models)
    state.allow("models", options, multi=True)
    chosen = st.multiselect(label, options=options, default=_profile_default(ctx),
                            max_selections=metrics.MAX_PROFILE_MODELS, key="models", bind="query-params", help=tip)
    allowed = set(options)
    return [m for m in chosen if m in allowed][: metrics.MAX_PROFILE_MODELS]


# ----------------------------------------------------------------------------- slide 1: the profile


def profile_controls(ctx: Ctx) -> None:
    if ctx.models and _measured(ctx):
        profile_picker(ctx)


def _profile_point(prof: pd.DataFrame, order: list[str], n: int) -> str:
    """Computed: whether the accuracy leader among the chosen models leads the other groups too."""
    leaders = metrics.group_leaders(prof).set_index("group_label")
    acc = GROUP_LABELS["accuracy"]
    if n == 1:
        p = prof.dropna(subset=["win_rate"]).sort_values("win_rate")
        if p.empty:
            return "**This model has no win rate in any group shown.**"
        lo, hi = p.iloc[0], p.iloc[-1]
        return (f"**{TEXT(hi['model'])}'s win rates run from {lo['win_rate']:.2f} ({lo['group_label']}) to "
                f"{hi['win_rate']:.2f} ({hi['group_label']})** across {fmt.count(len(p), 'group')}.")
    if acc not in leaders.index:
        return f"**Win rates of {n} models across {fmt.count(len(order), 'group')}.**"
    top = leaders.loc[acc, "model"]
    others = [g for g in order if g != acc and g in leaders.index]
    not_led = [g.lower() for g in others if leaders.loc[g, "model"] != top]
    head = f"**{TEXT(top)} leads these {n} models on accuracy ({leaders.loc[acc, 'win_rate']:.2f})"
    if not others:
        return head + ".**"
    if not not_led:
        return head + " and in every other group shown.**"
    return head + f" but not on {fmt.names(not_led)}.**"


def profile_view(ctx: Ctx) -> View:
    empty = _no_models(ctx)
    if empty is not None:
        return empty
    rel, models = ctx.rel, ctx.models
    order = [GROUP_LABELS[g] for g in _measured(ctx)]
    notes, links = _gap_note(ctx)
    if not order:
        msg = f"{TEXT(rel.name)} has no value in any of the seven metric groups, so there is no profile to draw."
        return View(point=msg, empty=msg, notes=notes, links=links)
    chosen = _profile_chosen(ctx)
    if not chosen:
        return View(point="Pick one or more models to see their profile.",
                    empty="Pick one or more models to see their profile.", notes=notes, links=links)
    prof, kind = profiles(models, tuple(chosen))
    prof = prof[prof["group_label"].isin(order)]
    table = prof.pivot(index="model", columns="group_label", values="win_rate").reindex(index=chosen, columns=order)
    radar = len(order) >= 3  # a radar needs three axes to enclose anything: one or two groups are drawn as bars
    fig = (charts_metrics.profile_radar(prof, order, mode=ctx.mode) if radar
           else charts_metrics.profile_bars(prof, order, mode=ctx.mode))
    alt = (f"{'Radar' if radar else 'Bar'} chart of win rates across the {len(order)} metric groups: " + "; ".join(
        f"{m}: " + ", ".join(f"{g} {fmt_value(table.loc[m, g], 2)}" for g in order) for m in chosen) + ".")
    if kind == "published":
        notes.insert(0, f"Win rates shown: **published** by HELM for all {len(models)} models of {TEXT(rel.name)}.")
    else:
        notes.insert(0, f"Win rates shown: **recomputed** among the {len(models)} models of the sidebar's cohort "
                        "(HELM's published values hold for the full model set only). Strongly contaminated cells are "
                        "left out.")
    gaps = prof[prof["win_rate"].isna()]
    if not gaps.empty:
        notes.append("No value (a gap in the line): " + "; ".join(
            f"{TEXT(r.model)} · {r.group_label}" for r in gaps.itertuples()) + ".")
    leaders = metrics.group_leaders(prof)
    talk = ["Highest win rate per group: " + " · ".join(
        f"{r.group_label} {TEXT(r.model)} ({r.win_rate:.2f})" for r in leaders.itertuples()) + "."]
    return View(point=_profile_point(prof, order, len(chosen)), visual=Chart(
        fig, key="metrics_profile", alt=alt, data=table.reset_index(), data_name=f"win_rates_{kind}"),
        talk=talk, notes=notes, links=links, read=PROFILE_TIP)


# ----------------------------------------------------------------------------- slide 2: the seven groups


def groups_view(ctx: Ctx) -> View:
    empty = _no_models(ctx)
    if empty is not None:
        return empty
    rel = ctx.rel
    n_scen = len(rel.taxonomy.scenario_names)
    ov = group_overview(ctx.models)
    if rel.is_classic or rel.is_later:  # the release's own definitions (data/releases/*/metric_groups.csv)
        measures = ov["definition"].map(metrics.short_definition)
    else:  # a loaded suite: its schema's own words for its columns, else HELM classic's definition, said so
        measures = [metrics.short_definition(r.own_definition) if r.own_definition
                    else f"{metrics.short_definition(r.definition)} (HELM classic)" for r in ov.itertuples()]
    shown = pd.DataFrame({
        "group": ov["group_label"],
        "what it measures" + (f" in {rel.name}" if rel.is_later else ""): measures,
        "direction": ov["direction"],
        "scenarios with a value": [f"{r.n_data} of {n_scen}" for r in ov.itertuples()],
        "model × scenario cells with a value": [f"{r.n_cells:,} of {r.cells:,}" for r in ov.itertuples()],
    })
    have = ov[ov["n_data"] > 0]
    if len(have) == len(ov):
        fewest = ov[ov["n_data"] == ov["n_data"].min()]
        point = (f"**All 7 groups have values for this cohort in {TEXT(rel.name)}**; the sparsest, "
                 f"{fmt.names(list(fewest['group_label']))}, on {int(fewest['n_data'].iloc[0])} of {n_scen} "
                 "scenarios.")
    else:
        point = (f"**{TEXT(rel.name)} has values in {len(have)} of the 7 groups** "
                 f"({fmt.names(list(have['group_label']))}); the other {len(ov) - len(have)} are not measured here.")
    notes, links = _gap_note(ctx)
    absent = ov[ov["n_data"] == 0]
    if not absent.empty and not rel.is_later:
        notes.append("This dataset and cohort hold no value for: " + ", ".join(absent["group_label"])
                     + ". Those groups are described but cannot be profiled or correlated.")
    schema = ("HELM's schema" if rel.is_classic else "its published tables" if rel.is_later
              else "its own tables" if rel.meta.get("loaded_from") == "groups" else "its runs")
    directions = [(d, [g for g, dd in zip(have["group_label"], have["direction"]) if dd == d])
                  for d in dict.fromkeys(have["direction"])]
    talk = ["Each group has its direction: " + "; ".join(f"{d} for {fmt.names(gs)}" for d, gs in directions) + ".",
            f"Scenarios that carry each group in {schema}: " + ", ".join(
                f"{r.group_label} {r.n_schema}" for r in ov.itertuples()) + f" (of {n_scen})."]
    table = Table(shown, key="metrics_groups", data_name="metric_groups_shown")
    read = ("“What it measures” is the first clause of the group's definition in "
            f"{TEXT(rel.name)}; each group's full definition, how HELM computes it and its source are below.")
    return View(point=point, visual=table, talk=talk, notes=notes, links=links, claims=["fairness_vs_bias"], read=read)


def groups_details(ctx: Ctx, view: View, event) -> None:
    """Each group in full: its definition in the loaded release, how HELM classic computes it, source, metrics."""
    if not ctx.models:
        return
    rel = ctx.rel
    scenarios = rel.taxonomy.scenario_names
    ov = group_overview(ctx.models)
    schema = ("HELM's schema" if rel.is_classic else "its published tables" if rel.is_later
              else "its own tables" if rel.meta.get("loaded_from") == "groups" else "its runs")
    cols = st.columns(1 if ctx.phone else 2)
    for i, r in enumerate(ov.itertuples()):
        with cols[i % len(cols)].container(border=True):
            st.markdown(f"**{r.group_label}** :gray-badge[{r.direction}]")
            # Whose words: the release's own definitions (classic, Lite, Capabilities); classic's for a loaded suite.
            where = "" if rel.is_classic else f" in {TEXT(rel.name)}" if rel.is_later else " in HELM classic"
            st.markdown(f"*What it measures{where}.* {TEXT(r.definition)}")
            if r.own_definition:  # the suite's own schema.json says what its columns measure
                st.markdown(f"*Its columns in {TEXT(rel.name)}.* {TEXT(r.own_definition)}")
            st.markdown(f"*How HELM {'classic ' if not rel.is_classic else ''}computes it.* {TEXT(r.how_computed)}")
            st.caption(f":{CONF_COLOR.get(r.confidence, 'gray')}-badge[{r.confidence}] Source: {TEXT(r.source)}")
            metric_label = "HELM metric(s)" if rel.is_classic else f"Its column(s) in {rel.name}"
            st.caption(f"{TEXT(metric_label)}: {TEXT(r.metrics) or 'none in this dataset'}. Carried by {r.n_schema} "
                       f"of {len(scenarios)} scenarios in {schema} and has values in {r.n_data} for this cohort.")
            if r.n_data < len(scenarios) and r.n_data:
                carried = set(r.data_scenarios.split("; "))
                st.caption("No value: " + ", ".join(TEXT(s) for s in scenarios if s not in carried) + ".")
    box = components.lazy_expander("The seven groups as a table", key="metrics_groups_table")
    if box is not None:
        with box:
            st.dataframe(ov, hide_index=True, width="stretch")
            components.download(ov, "metric_groups", key="metrics_groups_csv")


# ----------------------------------------------------------------------------- slide 3: does it track accuracy?


def _bias_metric(ctx: Ctx) -> str:
    return ctx.get("bias_metric", metrics.DEFAULT_BIAS_METRIC, metrics.BIAS_METRICS)


def _corr_groups(ctx: Ctx) -> tuple[str, ...]:
    measured = set(_measured(ctx))
    return tuple(g for g in metrics.OTHER_GROUPS if g in measured)


def track_controls(ctx: Ctx) -> None:
    if not ctx.models or "bias" not in _corr_groups(ctx):  # no bias column to choose a metric for
        return
    bias_metrics = list(metrics.BIAS_METRICS)
    state.allow("bias_metric", bias_metrics)
    st.selectbox("Bias metric for the Bias column", options=bias_metrics, key="bias_metric", bind="query-params",
                 help="The bias group has four metrics; the paper's plots use gender representation.")


def _track_point(summary: pd.DataFrame, n_scen: int) -> str:
    tracks, not_tracks = metrics.tracking(summary)

    def med(df: pd.DataFrame) -> str:
        vals = sorted(float(v) for v in df["median_agreement"])
        return f"{vals[0]:+.2f}" if len(vals) == 1 else f"{vals[0]:+.2f} to {vals[-1]:+.2f}"

    def labels(df: pd.DataFrame) -> str:
        return fmt.names(list(df["group_label"]))

    if tracks.empty and not_tracks.empty:
        return "**No group has enough models with both values for a correlation.**"
    if not_tracks.empty:
        return f"**{labels(tracks)} {'tracks' if len(tracks) == 1 else 'track'} accuracy** (median agreement {med(tracks)})."
    if tracks.empty:
        if len(not_tracks) == 1:
            r = not_tracks.iloc[0]
            return (f"**{r['group_label']} does not track accuracy**: median agreement {r['median_agreement']:+.2f} "
                    f"over {r['scenarios']} of {n_scen} scenarios.")
        return f"**None of the {len(not_tracks)} groups tracks accuracy** (median agreements {med(not_tracks)})."
    return (f"**{labels(tracks)} {'tracks' if len(tracks) == 1 else 'track'} accuracy (median agreement "
            f"{med(tracks)}); {labels(not_tracks)} {'does' if len(not_tracks) == 1 else 'do'} not** "
            f"(medians {med(not_tracks)}).")


def track_view(ctx: Ctx) -> View:
    empty = _no_models(ctx)
    if empty is not None:
        return empty
    rel, models = ctx.rel, ctx.models
    groups = _corr_groups(ctx)
    notes, links = _gap_note(ctx)
    claims = (["lite_drops_perturbations", "robustness_tracks_accuracy", "harms_low_core"] if rel.is_classic
              else ["lite_drops_perturbations"])
    if not groups:
        msg = f"{TEXT(rel.name)} has no metric group besides accuracy to compare with it."
        return View(point=msg, empty=msg, notes=notes, links=links, claims=claims)
    bias_metric = _bias_metric(ctx)
    corr = accuracy_correlations(models, bias_metric)
    corr = corr[corr["metric_group"].isin(groups)]
    summary = metrics.correlation_summary(corr)
    summary = summary[summary["metric_group"].isin(groups)]
    scenarios = rel.taxonomy.scenario_names
    n_ok = int(corr["agreement"].notna().sum())
    alt = (f"Grid of {len(scenarios)} scenarios by {len(groups)} metric groups with the agreement of each "
           f"with accuracy ({n_ok} cells have a value). Median agreement: " + "; ".join(
               f"{r.group_label} {fmt_value(r.median_agreement, 2)}" for r in summary.itertuples()) + ".")
    chart = Chart(correlation_spec(models, bias_metric, groups, ctx.mode), key="metrics_corr", alt=alt,
                  data=corr, data_name="accuracy_rank_correlation", select=True)
    talk = [f"{r.group_label}: median {r.median_agreement:+.2f} over {r.scenarios} "
            f"{'scenario' if r.scenarios == 1 else 'scenarios'}"
            + (f", lowest on {TEXT(r.weakest_scenario)} ({r.min_agreement:+.2f})" if r.scenarios else "")
            for r in summary.itertuples() if r.scenarios][:4]
    read = ("For each scenario and metric group: the Spearman rank correlation, across the cohort's models, between "
            "accuracy and that metric. Shown as **agreement**: the sign is flipped for lower-is-better metrics (ECE, "
            "bias, toxicity, runtime), so **+1** means the more accurate models are also the better ones on that "
            "metric, **0** means accuracy says nothing about it, and **−1** means the more accurate models are worse "
            f"on it. Fewer than {metrics.MIN_MODELS} models with both values: no number. Strongly contaminated cells "
            "are left out. Click a cell for its scatter below.")
    return View(point=_track_point(summary, len(scenarios)), visual=chart, talk=talk, notes=notes, links=links,
                claims=claims, read=read)


def track_details(ctx: Ctx, view: View, event) -> None:
    """The agreement summary, then the scatter for one pair: a click on a grid cell picks it."""
    groups = _corr_groups(ctx)
    if not ctx.models or not groups:
        return
    models, scenarios = ctx.models, ctx.rel.taxonomy.scenario_names
    bias_metric = _bias_metric(ctx)
    corr = accuracy_correlations(models, bias_metric)
    summary = metrics.correlation_summary(corr)
    summary = summary[summary["metric_group"].isin(groups)]
    st.markdown("**Agreement with accuracy, across scenarios**")
    components.table(summary.drop(columns=["metric_group"]),
                     labels={"group_label": "metric group", "median_agreement": "median",
                             "min_agreement": "lowest", "max_agreement": "highest", "weakest_scenario": "lowest on"},
                     formats={c: "{:+.2f}" for c in ("median", "lowest", "highest")})
    pair_tokens = [f"{s}|{g}" for s in scenarios for g in groups]
    components.pick_by_click(event, pair_tokens, key="pair")
    state.allow("pair", pair_tokens)
    default_idx = pair_tokens.index(DEFAULT_PAIR) if DEFAULT_PAIR in pair_tokens else 0
    cols = st.columns(1 if ctx.phone else 2)
    c1, c2 = cols[0], cols[-1]  # one column on a phone
    with c1:
        token = st.selectbox("Scenario and metric for the scatter (click a cell above, or pick here)",
                             options=pair_tokens, index=default_idx, key="pair", bind="query-params")
    with c2:
        chosen = profile_picker(ctx, f"Models to star in the scatter (up to {metrics.MAX_PROFILE_MODELS})",
                                tip="The models of the per-model profile, starred here: one choice for both sections.")
    if not token:
        return
    scenario, _, group = token.rpartition("|")  # a scenario's name may hold "|" itself
    pv = pair_values(scenario, group, models, bias_metric)
    row = corr[(corr["scenario"] == scenario) & (corr["metric_group"] == group)].iloc[0]
    if pv.empty:
        st.info(f"No model of the cohort has both accuracy and {GROUP_LABELS[group]} on {TEXT(scenario)}: "
                f"{row['status']}.")
        return
    metric_name = pv["metric"].iloc[0]
    acc_name = pv["accuracy_metric"].iloc[0]
    lib = row["lower_is_better"]
    rho_text = (f"Spearman ρ = {row['rho']:+.2f} over {int(row['n'])} models (agreement {row['agreement']:+.2f})"
                if row["status"] == "ok" else f"no correlation: {row['status']}")
    st.markdown(f"**{TEXT(scenario)}: accuracy ({TEXT(acc_name)}) against {GROUP_LABELS[group]} "
                f"({TEXT(metric_name)})**. {rho_text}.")
    fig = charts_metrics.pair_scatter(pv, f"accuracy ({acc_name})", metric_name,
                                       None if lib is None else bool(lib), highlight=chosen)
    components.chart(
        fig, key="metrics_pair",
        alt=f"Scatter of {len(pv)} models on {scenario}: accuracy against {metric_name}; {rho_text}.",
        data=pv, data_name=f"pair_{scenario}_{group}".replace("/", "-").replace(" ", "_"))


DECK = slides.Deck("metrics", [
    Slide("profile", "Profile", view=profile_view, controls=profile_controls),
    Slide("groups", "Seven groups", view=groups_view, details=groups_details),
    Slide("track", "Track accuracy", view=track_view, controls=track_controls, details=track_details),
], keep=["models", "bias_metric", "pair"])

if __name__ == "__main__":
    from ui import layout

    layout.render(DECK)
