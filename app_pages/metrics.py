"""Metric Orbit: the seven metric groups, per-model profiles, and how closely each metric tracks accuracy."""
from __future__ import annotations

import streamlit as st

from helm_core import metrics, taxonomy
from helm_core.data import CORE_GROUPS, GROUP_LABELS
from ui import cache, charts, charts_coverage, components, presenter, state
from ui.charts import fmt_value

group_overview = cache.on_release(metrics.group_overview)
profiles = cache.on_release(metrics.profiles)
default_profile_models = cache.on_release(metrics.default_profile_models)
accuracy_correlations = cache.on_release(metrics.accuracy_correlations)
pair_values = cache.on_release(metrics.pair_values)
correlation_spec = cache.on_release(charts_coverage.correlation_spec)

CONF_COLOR = {"verified": "green", "quoted": "blue", "unverified": "orange"}
GROUP_ORDER = [GROUP_LABELS[g] for g in CORE_GROUPS]
OTHER_ORDER = [GROUP_LABELS[g] for g in metrics.OTHER_GROUPS]
DEFAULT_PAIR = "HellaSwag|calibration"
PROFILE_TIP = ("A win rate is the share of other models of the cohort a model beats in that group, averaged over "
               "the group's columns; 1 = best on every column, for every group.")

components.page_header("metrics")
rel = cache.active_release()
models = cache.active_models()
# A later release (Lite, Capabilities) measures fewer groups: say which, link to classic, and profile those only.
RELEASE_GAPS = components.release_gap(CORE_GROUPS, "metrics")
if not rel.is_classic and not RELEASE_GAPS:  # a loaded suite: profile the groups it has values for
    _have = taxonomy.groups_with_values(rel)
    RELEASE_GAPS = [g for g in CORE_GROUPS if g not in _have]
PROFILE_ORDER = [GROUP_LABELS[g] for g in CORE_GROUPS if g not in RELEASE_GAPS]
SCHEMA_NAME = ("HELM's schema" if rel.is_classic else "its published tables" if rel.is_later
               else "its own tables" if rel.meta.get("loaded_from") == "groups" else "its runs")
scenarios = rel.taxonomy.scenario_names
options = list(models)
allowed = set(options)


def _ready() -> bool:
    return components.has_models(models, "the metrics")


def _profile_models(label: str = f"Models to compare (up to {metrics.MAX_PROFILE_MODELS})",
                    tip: str = PROFILE_TIP) -> list[str]:
    """The profile's models, shared by the profile and the scatter that stars them (one key, so one choice)."""
    default = [m for m in default_profile_models(models) if m in allowed]
    state.allow("models", options, multi=True)
    chosen = st.multiselect(label, options=options, default=default, max_selections=metrics.MAX_PROFILE_MODELS,
                            key="models", bind="query-params", help=tip)
    return [m for m in chosen if m in allowed][: metrics.MAX_PROFILE_MODELS]


def _profile() -> None:
    main_slot = presenter.main_slot()
    if not _ready():
        return
    st.subheader("Per-model profile across the seven win rates" if not RELEASE_GAPS else
                 f"Per-model profile across the {len(PROFILE_ORDER)} win rates {rel.name} has")
    if not PROFILE_ORDER:
        st.info(f"{rel.name} has no value in any of the seven metric groups, so there is no profile to draw.")
        return
    chosen = _profile_models()
    if not chosen:
        st.info("Pick one or more models to see their profile.")
        return
    prof, kind = profiles(models, tuple(chosen))
    if kind == "published":
        st.caption(f"Win rates shown: **published** by HELM for all {len(models)} models of {rel.name}.")
    else:
        st.caption(f"Win rates shown: **recomputed** among the {len(models)} models of the sidebar's cohort (HELM's "
                   "published values hold for the full model set only). Strongly contaminated cells are left out.")
    prof = prof[prof["group_label"].isin(PROFILE_ORDER)]
    gaps = prof[prof["win_rate"].isna()]
    table = prof.pivot(index="model", columns="group_label", values="win_rate").reindex(index=chosen,
                                                                                      columns=PROFILE_ORDER)
    alt = f"Radar chart of win rates across the {len(PROFILE_ORDER)} metric groups: " + "; ".join(
        f"{m}: " + ", ".join(f"{g} {fmt_value(table.loc[m, g], 2)}" for g in PROFILE_ORDER)
        for m in chosen) + "."
    # A radar needs three axes to enclose anything: with one or two groups the profile is drawn as bars.
    radar = len(PROFILE_ORDER) >= 3
    if not radar:
        alt = alt.replace("Radar chart", "Bar chart", 1)
    with presenter.into(main_slot):
        fig = (charts_coverage.profile_radar(prof, PROFILE_ORDER) if radar
               else charts_coverage.profile_bars(prof, PROFILE_ORDER))
        components.chart(fig, key="metrics_profile", alt=alt,
                         data=table.reset_index(), data_name=f"win_rates_{kind}", main=True)
    if not gaps.empty:
        st.caption("No value (a gap in the line): " + "; ".join(
            f"{components.text(r.model)} · {r.group_label}" for r in gaps.itertuples()) + ".")


def _groups() -> None:
    if not _ready():
        return
    st.subheader("The seven metric groups")
    ov = group_overview(models)
    absent = ov[ov["n_data"] == 0]
    if not absent.empty:
        st.info("This dataset and cohort hold no value for: " + ", ".join(absent["group_label"])
                + ". Those groups are described but cannot be profiled or correlated.")
    cols = st.columns(2)
    for i, r in enumerate(ov.itertuples()):
        with cols[i % 2].container(border=True):
            st.markdown(f"**{r.group_label}** :gray-badge[{r.direction}]")
            st.markdown(f"*What it measures{' in HELM classic' if not rel.is_classic else ''}.* "
                        f"{components.text(r.definition)}")
            if r.own_definition:  # the suite's own schema.json says what its columns measure
                st.markdown(f"*In {components.text(rel.name)}.* {components.text(r.own_definition)}")
            st.markdown(f"*How HELM {'classic ' if not rel.is_classic else ''}computes it.* "
                        f"{components.text(r.how_computed)}")
            st.caption(f":{CONF_COLOR.get(r.confidence, 'gray')}-badge[{r.confidence}] Source: "
                       f"{components.text(r.source)}")
            metric_label = "HELM metric(s)" if rel.is_classic else f"Its column(s) in {rel.name}"
            st.caption(f"{components.text(metric_label)}: {components.text(r.metrics) or 'none in this dataset'}. "
                       f"Carried by {r.n_schema} of {len(scenarios)} scenarios in "
                       f"{SCHEMA_NAME} and has values in "
                       f"{r.n_data} for this cohort.")
            if r.n_data < len(scenarios) and r.n_data:
                carried = set(r.data_scenarios.split("; "))
                st.caption("No value: " + ", ".join(components.text(s) for s in scenarios if s not in carried) + ".")
    groups_box = components.lazy_expander("The seven groups as a table", key="metrics_groups_table")
    if groups_box is not None:
        with groups_box:
            st.dataframe(ov, hide_index=True, width="stretch")
            components.download(ov, "metric_groups", key="metrics_groups_csv")
    components.claim("fairness_vs_bias", compact=True)


def _accuracy() -> None:
    if not _ready():
        return
    st.subheader("Does each metric track accuracy?")
    st.markdown(
        "For each scenario and metric group: the Spearman rank correlation, across the cohort's models, between "
        "accuracy and that metric. Shown as **agreement**: the sign is flipped for lower-is-better metrics (ECE, "
        "bias, toxicity, runtime), so **+1** means the more accurate models are also the better ones on that "
        "metric, **0** means accuracy says nothing about it, and **−1** means the more accurate models are worse "
        f"on it. Fewer than {metrics.MIN_MODELS} models with both values: no number. Strongly contaminated cells "
        "are left out."
    )
    bias_metrics = list(metrics.BIAS_METRICS)
    state.allow("bias_metric", bias_metrics)
    bias_metric = st.selectbox("Bias metric for the Bias column", options=bias_metrics, key="bias_metric",
                               bind="query-params",
                               help="The bias group has four metrics; the paper's plots use gender representation.")
    bias_metric = bias_metric if bias_metric in bias_metrics else metrics.DEFAULT_BIAS_METRIC
    corr = accuracy_correlations(models, bias_metric)
    summary = metrics.correlation_summary(corr)
    n_ok = int(corr["agreement"].notna().sum())
    alt = (f"Grid of {len(scenarios)} scenarios by {len(OTHER_ORDER)} metric groups with the agreement of each "
           f"with accuracy ({n_ok} cells have a value). Median agreement: " + "; ".join(
               f"{r.group_label} {fmt_value(r.median_agreement, 2)}" for r in summary.itertuples()) + ".")
    event = components.chart(
        charts.figure(correlation_spec(models, bias_metric)), key="metrics_corr", alt=alt,
        data=corr, data_name="accuracy_rank_correlation", on_select="rerun", selection_mode="points",
    )
    corr_left, corr_right = st.columns([1, 1], gap="large")
    with corr_left:
        st.markdown("**Agreement with accuracy, across scenarios**")
        components.table(summary.drop(columns=["metric_group"]),
                         labels={"group_label": "metric group", "median_agreement": "median",
                                 "min_agreement": "lowest", "max_agreement": "highest",
                                 "weakest_scenario": "lowest on"},
                         formats={c: "{:+.2f}" for c in ("median", "lowest", "highest")})
    with corr_right:
        components.claim("lite_drops_perturbations", compact=True)
        components.claim("robustness_tracks_accuracy", compact=True)
        components.claim("harms_low_core", compact=True)
    _pair(event, corr, bias_metric)


def _pair(event, corr, bias_metric: str) -> None:
    """The scatter for one pair, under the grid: a click on a grid cell picks it."""
    pair_tokens = [f"{s}|{g}" for s in scenarios for g in metrics.OTHER_GROUPS]
    components.pick_by_click(event, pair_tokens, key="pair")

    state.allow("pair", pair_tokens)
    default_idx = pair_tokens.index(DEFAULT_PAIR) if DEFAULT_PAIR in pair_tokens else 0
    c1, c2 = st.columns([1, 1])
    with c1:
        token = st.selectbox("Scenario and metric for the scatter (click a cell above, or pick here)",
                             options=pair_tokens, index=default_idx, key="pair", bind="query-params")
    with c2:
        chosen = _profile_models(
            f"Models to star in the scatter (up to {metrics.MAX_PROFILE_MODELS})",
            tip="The models of the per-model profile, starred here: one choice for both sections.")
    if not token:
        return
    scenario, group = token.split("|")
    pv = pair_values(scenario, group, models, bias_metric)
    row = corr[(corr["scenario"] == scenario) & (corr["metric_group"] == group)].iloc[0]
    if pv.empty:
        st.info(f"No model of the cohort has both accuracy and {GROUP_LABELS[group]} on "
                f"{components.text(scenario)}: {row['status']}.")
        return
    metric_name = pv["metric"].iloc[0]
    acc_name = pv["accuracy_metric"].iloc[0]
    lib = row["lower_is_better"]
    rho_text = (f"Spearman ρ = {row['rho']:+.2f} over {int(row['n'])} models (agreement {row['agreement']:+.2f})"
                if row["status"] == "ok" else f"no correlation: {row['status']}")
    st.markdown(f"**{components.text(scenario)}: accuracy ({components.text(acc_name)}) against "
                f"{GROUP_LABELS[group]} ({components.text(metric_name)})**. {rho_text}.")
    fig = charts_coverage.pair_scatter(pv, f"accuracy ({acc_name})", metric_name,
                                       None if lib is None else bool(lib), highlight=chosen)
    components.chart(
        fig, key="metrics_pair",
        alt=(f"Scatter of {len(pv)} models on {scenario}: accuracy against {metric_name}; {rho_text}."),
        data=pv, data_name=f"pair_{scenario}_{group}".replace("/", "-").replace(" ", "_"),
    )


components.sections("metrics_section", {
    "Profile": _profile,
    "Seven groups": _groups,
    "Track accuracy": _accuracy,
}, keep=["models", "bias_metric", "pair"])
components.onward("metrics")
