"""16 × 7 Core Grid: the paper's claim, HELM's schema and what the v0.4.0 tables hold, cell by cell.
On a later release (Lite, Capabilities) the grid is that release's scenarios × the seven classic groups, with the
release's published tables in place of the schema and no paper view."""
from __future__ import annotations

import streamlit as st

from helm_core import fmt, grid, taxonomy
from helm_core.data import CORE_GROUPS, GROUP_LABELS
from ui import cache, charts, charts_coverage, components, presenter, state

grid_cells = cache.on_release(grid.grid_cells)
blank_counts = cache.on_release(grid.blank_counts)
grid_gaps = cache.on_release(grid.grid_gaps)
grid_differences = cache.on_release(grid.grid_differences)
cell_detail = cache.on_release(grid.cell_detail)
groups_without_values = cache.on_release(grid.groups_without_values)
scenarios_without_values = cache.on_release(grid.scenarios_without_values)
grid_spec = cache.on_release(charts_coverage.grid_spec)

CONF_COLOR = {"verified": "green", "quoted": "blue", "unverified": "orange", "computed": "gray"}
VIEW_CAPTIONS = {
    "paper": "98 of 112 measured, as the paper states",
    "schema": "the metric groups HELM's schema lists per scenario",
    "data": "how many models of your cohort have a value",
}
GROUP_ORDER = [GROUP_LABELS[g] for g in CORE_GROUPS]


def badge(confidence: str) -> str:
    return f":{CONF_COLOR.get(confidence, 'gray')}-badge[{confidence}]"


components.page_header("grid")
rel = cache.active_release()
models = cache.active_models()
LATER = rel.is_later
OWN = grid.own_grid(rel)  # every release but classic: its own scenarios as rows, no paper view
VIEWS = grid.views_for(rel)
TOKENS = grid.cell_tokens(rel)
SCENARIOS = grid.grid_scenarios(rel)
N_CELLS = len(SCENARIOS) * len(CORE_GROUPS)
SCHEMA_LABEL = grid.view_label(rel, "schema")
if OWN:
    VIEW_CAPTIONS = {**VIEW_CAPTIONS, "schema": (f"the metric groups {rel.name}'s published tables hold per scenario"
                                                 if LATER else "the metric-group columns your suite holds per "
                                                 "scenario")}


def _ready() -> bool:
    return components.has_models(models, "the grid")


def _view() -> str:
    """The view picker, shared by the grid and the blank-cell sections (one key, so one choice)."""
    state.allow("view", VIEWS)
    if st.session_state.get("view") not in (None, *VIEWS):  # e.g. "paper", then a later release chosen
        st.session_state["view"] = VIEWS[0]
    view = st.radio("View", options=list(VIEWS), captions=[VIEW_CAPTIONS[v] for v in VIEWS], horizontal=True,
                    key="view", bind="query-params",
                    help=("schema = the metric groups the release's published tables hold (no schema file of this "
                          "release is bundled); data = the results tables. The paper's claim is about classic only."
                          if LATER else
                          "schema = the metric-group columns your suite's tables (or runs) hold per scenario; data = "
                          "which of them have a value. The paper's claim is about classic only."
                          if OWN else
                          "paper = the paper's claim; schema = HELM's own schema_classic.yaml; data = the results "
                          "tables."))
    return view if view in VIEWS else VIEWS[0]


def _grid() -> None:
    main_slot = presenter.main_slot()
    if not _ready():
        return
    # ------------------------------------------------------------ blank counts
    counts = blank_counts(models)
    c = st.columns(len(VIEWS))
    if not OWN:
        c[0].metric("Blank cells · paper claim", f"{counts['paper']}", help=f"{112 - counts['paper']} of 112 measured "
                    f"({(112 - counts['paper']) / 112:.1%}).", border=True)
    c[-2].metric(f"Blank cells · {SCHEMA_LABEL}", f"{counts['schema']}",
                 help=f"{N_CELLS - counts['schema']} of {N_CELLS} listed "
                      f"({(N_CELLS - counts['schema']) / N_CELLS:.1%}).", border=True)
    c[-1].metric(f"Blank cells · {rel.name} data", f"{counts['data']}",
                 help=f"{N_CELLS - counts['data']} of {N_CELLS} cells have a value for at least one of the "
                      f"{len(models):,} models in the sidebar's cohort.", border=True)
    st.caption("Blank cells are signal: each one says what HELM could not, or did not, measure.")

    missing_groups = groups_without_values(models)
    missing_scen = scenarios_without_values(models)
    if OWN:
        has = [g for g in CORE_GROUPS if g not in missing_groups]
        line = (f"**{components.text(rel.name)}: {len(SCENARIOS)} scenarios × the seven classic metric groups = "
                f"{N_CELLS} cells.** ")
        if missing_groups:
            line += (f"This cohort has values for {taxonomy.groups_phrase(has)}; none for "
                     f"{taxonomy.groups_phrase(missing_groups)}: those columns are blank for every scenario.")
        else:
            line += "This cohort has values in every one of the seven groups."
        st.markdown(line)
        core, other = grid.grid_row_kinds(rel)
        if other:
            st.markdown(components.text(
                (f"Rows: {fmt.count(len(core), 'core scenario')} of classic's 16 first ({fmt.names(core)}), then "
                 if core else "Rows: ")
                + f"{fmt.count(len(other), 'scenario')} of the suite's own, not among classic's 16 core scenarios "
                  f"({fmt.names(other)}; marked \"other\" in the grid)."))
        if LATER:
            st.page_link("app_pages/grid.py", label="The same grid for HELM classic v0.4.0",
                         query_params={"release": "classic"}, icon=":material/history:")
    elif missing_groups or missing_scen:
        parts = []
        if missing_groups:
            parts.append("metric group(s) " + ", ".join(GROUP_LABELS[g] for g in missing_groups))
        if missing_scen:
            parts.append("core scenario(s) " + ", ".join(components.text(s) for s in missing_scen))
        st.info("This dataset and cohort hold no value for " + "; ".join(parts) + ": the data view shows them blank.")

    # ------------------------------------------------------------ the view and the grid
    view = _view()
    cells = grid_cells(view, models)
    n_meas = int(cells["measured"].sum())

    # Presenter mode: the grid goes full width into the slot under the tab bar; the claims follow below.
    left, right = (main_slot, st.container()) if main_slot is not None else st.columns([3, 2], gap="large")
    with left:
        intro = st if main_slot is None else right  # presenter mode: the chart first, this line under it
        view_label = grid.view_label(rel, view)
        intro.markdown(f"**{components.text(view_label)}**: {n_meas} of {N_CELLS} cells measured, "
                       f"{N_CELLS - n_meas} blank. "
                       "Hover a cell for its metrics, coverage and best model; click it (or pick it below) for every "
                       "model's value.")
        fig = charts.figure(grid_spec(view, models))
        blanks_text = "; ".join(f"{r.scenario} {r.group_label}" for r in cells[~cells["measured"]].itertuples())
        event = components.chart(
            fig, key="grid_cells",
            alt=(f"{len(SCENARIOS)} by 7 grid of {rel.name} scenarios and metric groups, {view_label} view: "
                 f"{n_meas} cells measured and {N_CELLS - n_meas} blank. Blank: {blanks_text}."),
            data=cells.drop(columns=["token"]), data_name=f"core_grid_{view}",
            on_select="rerun", selection_mode="points", main=True,
        )

    with right:
        if OWN:
            st.markdown("**The paper's count is about classic**")
            st.markdown(f"The paper's 98 of 112 counts classic's 16 core scenarios; {components.text(rel.name)} "
                        f"has {components.text(taxonomy.scenarios_phrase(rel))}, so there is no paper view here.")
        else:
            _paper_claims()

    _cell_detail(view, cells, event)


def _paper_claims() -> None:
    """The paper's count and its gaps, beside the classic grid."""
    st.markdown("**The paper's count**")
    components.claim("grid_98_of_112", compact=True)
    st.markdown("**6 summarization gaps**")
    components.claim("grid_blanks_summarization", compact=True)
    st.markdown("**8 bias and toxicity gaps**")
    components.claim("grid_blanks_harms", compact=True)
    st.markdown("**Where the schema differs: MS MARCO calibration**")
    components.claim("grid_msmarco_calibration", compact=True)


def _cell_detail(view: str, cells, event) -> None:
    """The clicked (or picked) cell: its metrics, views, best model and every model's value."""
    st.subheader("Cell detail")
    components.pick_by_click(event, TOKENS, key="cell")

    state.allow("cell", TOKENS)
    token = st.selectbox("Cell (scenario|metric group)", options=TOKENS, index=None, key="cell", bind="query-params",
                         placeholder="Click a cell in the grid, or pick one here",
                         help="The selected cell is kept in the link, so a prepared URL opens on it.")
    if token is None:
        st.caption("No cell selected yet.")
        return
    scenario, group = grid.parse_cell_token(token, rel)
    row = cells[cells["token"] == token].iloc[0]
    d = cell_detail(scenario, group, models)
    st.markdown(f"#### {components.text(scenario)} × {GROUP_LABELS[group]}")
    views_line = []
    for v in VIEWS:
        vc = grid_cells(v, models)
        m = bool(vc.loc[vc["token"] == token, "measured"].iloc[0])
        views_line.append(f"{v}: {'measured' if m else 'blank'}")
    st.markdown(
        f"HELM metric(s): {components.text(row['metrics'])}  \n"
        f"Models with a value: **{int(row['models_with_value'])} of {int(row['cohort_size'])}** in the cohort  \n"
        f"Views: {' · '.join(views_line)}"
    )
    if not row["measured"]:
        st.markdown(f"{badge(row['confidence'])} **Blank in the {view} view.** {components.text(row['reason'])}")
        st.caption(f"Source: {components.text(row['source'])}")
    elif int(row["models_with_value"]) == 0:
        st.markdown(f"**Counted as measured in the {view} view, but no model of the cohort has a value.**")
        why = grid.design_reason(scenario, group)
        if why is not None:
            st.markdown(f"{badge(why.confidence)} HELM's schema leaves it blank: {components.text(why.reason)}")
        if scenario in grid.MS_MARCO and group == "calibration":
            components.claim("grid_msmarco_calibration", compact=True)
    elif row["differs"]:
        st.caption(f"Note: {components.text(row['differs'])}.")
    if not d.best.empty:
        best_lines = []
        for b in d.best.itertuples():
            tie = f" (tied with {b.n_tied - 1} more)" if b.n_tied > 1 else ""
            direction = "lower is better" if b.lower_is_better else "higher is better"
            best_lines.append(f"- {components.text(b.metric)} ({direction}): **{components.text(b.model)}** "
                              f"{grid.format_value(group, b.value)}{tie}")
        st.markdown("Best in the cohort:\n" + "\n".join(best_lines))
        st.caption("Values HELM flags as strongly contaminated (☠, a model trained on that dataset) are left out "
                   "of the best, as in HELM's win rates; they stay in the table, marked.")
    if d.values.empty:
        st.info(f"No model of the cohort has a value for {scenario} × {GROUP_LABELS[group]}.")
    else:
        st.dataframe(d.values, hide_index=True, width="stretch",
                     column_config={m: st.column_config.NumberColumn(m, format="%.3g" if group == "efficiency"
                                                                      else "%.3f") for m in d.metrics})
        components.download(d.values, f"cell_{scenario}_{group}".replace("/", "-").replace(" ", "_"),
                            key="grid_cell_csv")
        if d.metrics:
            first = d.metrics[0]
            direction = d.directions.get(first)
            order = "lowest first" if direction else ("highest first" if direction is False else "as listed")
            st.caption(f"Sorted by {first}, {order}.")
    if d.missing:
        with st.expander(f"{fmt.count(len(d.missing), 'model')} of the cohort without a value"):
            st.text("\n".join(d.missing))


def _differences() -> None:
    if not _ready():
        return
    st.subheader("Where the views disagree" if OWN else "Where the three views disagree")
    diff = grid_differences(models)
    if diff.empty:
        st.markdown(f"The {'release’s tables and its data' if OWN else 'three views'} agree on every cell for "
                    "this cohort.")
    else:
        paper_not_schema = diff[diff["paper"] & ~diff["schema"]]
        schema_not_data = diff[diff["schema"] & (diff["data_models"] == 0)]
        lines = []
        if not paper_not_schema.empty:
            lines.append(f"- **The paper counts, the schema leaves blank** ({len(paper_not_schema)}): "
                         + ", ".join(f"{components.text(r.scenario)} {r.group_label}"
                                     for r in paper_not_schema.itertuples()) + ".")
        if not schema_not_data.empty:
            lister = f"Listed in {components.text(SCHEMA_LABEL)}" if OWN else "The schema lists"
            lines.append(f"- **{lister}, the data holds no value for this cohort** ({len(schema_not_data)}): "
                         + ", ".join(f"{components.text(r.scenario)} {r.group_label}"
                                     for r in schema_not_data.itertuples()) + ".")
        other = diff[~diff.index.isin(paper_not_schema.index) & ~diff.index.isin(schema_not_data.index)]
        if not other.empty:
            lines.append(f"- **Other differences** ({len(other)}): "
                         + ", ".join(f"{components.text(r.scenario)} {r.group_label} ({r.difference})"
                                     for r in other.itertuples()) + ".")
        st.markdown("\n".join(lines))
        with st.expander(f"All {len(diff)} cells where the views differ"):
            yes_no = {True: "yes", False: "no"}.get
            # no paper view outside classic: its column would only repeat the schema's
            shown = diff.drop(columns=["metric_group", "paper"] if OWN else ["metric_group"])
            components.table(shown,
                             labels={"group_label": "metric group", "paper": "paper counts it",
                                     "schema": "schema lists it", "data_models": "models with a value"},
                             formats={"paper counts it": yes_no, "schema lists it": yes_no})
            components.download(diff, "core_grid_differences", key="grid_diff_csv")


def _blanks() -> None:
    if not _ready():
        return
    heading = st.container()  # the heading names the view, which is picked right under it
    view = _view()
    heading.subheader(f"Why each blank cell is blank ({view} view)")
    gaps = grid_gaps(view, models)
    if gaps.empty:
        st.markdown("No blank cell in this view.")
    else:
        kinds = gaps.groupby(["kind", "confidence"], sort=False).size()
        st.markdown(" · ".join(f"{components.text(k)}: {n} {badge(conf)}" for (k, conf), n in kinds.items()))
        components.table(gaps.drop(columns=["metric_group"]), labels={"group_label": "metric group"})
        components.download(gaps, f"core_grid_gaps_{view}", key="grid_gaps_csv")
        st.caption("Confidence: verified = read in HELM's code or schema; unverified = our inference, no source says "
                   "why; computed = only that the data holds no value.")


components.sections("grid_section", {
    "Grid": _grid,
    "Where views differ": _differences,
    "Why blank": _blanks,
}, keep=["view", "cell"])
components.onward("grid")
