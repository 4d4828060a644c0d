"""16 × 7 Core Grid: the paper's claim, HELM's schema and what the v0.4.0 tables hold, cell by cell.
On a later release (Lite, Capabilities) the grid is that release's scenarios × the seven classic groups, with the
release's published tables in place of the schema and no paper view.

Slides: the grid (hover a cell, click it for its detail), where the views differ, why each blank cell is blank."""
from __future__ import annotations

import streamlit as st

from helm_core import fmt, grid, participation, taxonomy
from helm_core.data import CORE_GROUPS, GROUP_LABELS
from ui import cache, charts, charts_coverage, components, slides, state
from ui.slides import Card, Chart, Ctx, Slide, Table, View

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
# What each kind of blank is: short for the slide's point, with its reason for the talking points.
KIND_PHRASES = {
    "summarization": ("summarization", "calibration, robustness and fairness of CNN/DailyMail and XSUM"),
    "multiple-choice": ("bias/toxicity", "multiple-choice answers are letters, with no text to score for bias or "
                                         "toxicity"),
    "ranking": ("MS MARCO calibration", "MS MARCO is scored by ranking, so it has no calibration"),
    "schema lists it, data empty": ("empty in the data", "the schema lists them, but no model of this cohort has a "
                                                         "value"),
}
TEXT = components.text


def badge(confidence: str) -> str:
    return f":{CONF_COLOR.get(confidence, 'gray')}-badge[{confidence}]"


def _shape(ctx: Ctx) -> tuple[tuple[str, ...], list[str], int]:
    views = grid.views_for(ctx.rel)
    scenarios = list(grid.grid_scenarios(ctx.rel))
    return views, scenarios, len(scenarios) * len(CORE_GROUPS)


def _captions(ctx: Ctx) -> dict[str, str]:
    if not grid.own_grid(ctx.rel):
        return VIEW_CAPTIONS
    return {**VIEW_CAPTIONS, "schema": (f"the metric groups {ctx.rel.name}'s published tables hold per scenario"
                                        if ctx.rel.is_later else
                                        "the metric-group columns your suite holds per scenario")}


def _view_of(ctx: Ctx) -> str:
    views = grid.views_for(ctx.rel)
    return ctx.get("view", views[0], views)


def view_picker(ctx: Ctx) -> None:
    """The view picker, shared by the grid and the blank-cell slides (one key, so one choice)."""
    views = grid.views_for(ctx.rel)
    state.allow("view", views)
    if st.session_state.get("view") not in (None, *views):  # e.g. "paper", then a later release chosen
        st.session_state["view"] = views[0]
    captions = _captions(ctx)
    st.radio("View", options=list(views), captions=[captions[v] for v in views], horizontal=True,
             key="view", bind="query-params",
             help=("schema = the metric groups the release's published tables hold (no schema file of this "
                   "release is bundled); data = the results tables. The paper's claim is about classic only."
                   if ctx.rel.is_later else
                   "schema = the metric-group columns your suite's tables (or runs) hold per scenario; data = "
                   "which of them have a value. The paper's claim is about classic only."
                   if grid.own_grid(ctx.rel) else
                   "paper = the paper's claim; schema = HELM's own schema_classic.yaml; data = the results tables."))


def _no_models(ctx: Ctx) -> View | None:
    if ctx.models:
        return None
    return View(point="No model matches the sidebar's cohort and access filter.",
                empty="No model matches the sidebar's cohort and access filter. Widen the filter to see the grid.",
                empty_kind="warning")


def _kinds(gaps) -> list[tuple[int, str, str]]:
    """(count, short name, reason) per kind of blank, most first."""
    kinds = gaps.groupby("kind", sort=False).size().sort_values(ascending=False)
    return [(int(n), *KIND_PHRASES.get(k, (TEXT(k), TEXT(k)))) for k, n in kinds.items()]


def _blank_phrase(gaps) -> str:
    """'8 bias/toxicity and 6 summarization', from the blank cells' kinds."""
    return fmt.names([f"{n} {short}" for n, short, _ in _kinds(gaps)])


# ----------------------------------------------------------------------------- slide 1: the grid


def grid_view(ctx: Ctx) -> View:
    empty = _no_models(ctx)
    if empty is not None:
        return empty
    rel, models = ctx.rel, ctx.models
    views, scenarios, n_cells = _shape(ctx)
    own = grid.own_grid(rel)
    view = _view_of(ctx)
    cells = grid_cells(view, models)
    n_meas = int(cells["measured"].sum())
    n_blank = n_cells - n_meas
    label = grid.view_label(rel, view)
    gaps = grid_gaps(view, models)
    why = _blank_phrase(gaps)
    point = (f"**{TEXT(label)}**: {n_meas} of {n_cells} cells measured, {n_blank} blank"
             + (f" ({why})." if why and n_blank else "."))
    counts = blank_counts(models)
    schema_label = grid.view_label(rel, "schema")
    cards = []
    if not own:
        cards.append(Card("Blank cells · paper claim", f"{counts['paper']}",
                          f"{112 - counts['paper']} of 112 measured ({(112 - counts['paper']) / 112:.1%})."))
    cards.append(Card(f"Blank cells · {schema_label}", f"{counts['schema']}",
                      f"{n_cells - counts['schema']} of {n_cells} listed "
                      f"({(n_cells - counts['schema']) / n_cells:.1%})."))
    cards.append(Card(f"Blank cells · {rel.name} data", f"{counts['data']}",
                      f"{n_cells - counts['data']} of {n_cells} cells have a value for at least one of the "
                      f"{len(models):,} models in the sidebar's cohort."))
    talk = [f"{n} {short}: {reason}." for n, short, reason in _kinds(gaps)] + [
            "Blank cells per view: " + " · ".join(f"{grid.view_label(rel, v)} {counts[v]}" for v in views) + "."]
    notes = ["Blank cells are signal: each one says what HELM could not, or did not, measure."]
    missing_groups = groups_without_values(models)
    missing_scen = scenarios_without_values(models)
    if own:
        has = [g for g in CORE_GROUPS if g not in missing_groups]
        line = f"**{TEXT(rel.name)}: {len(scenarios)} scenarios × the seven classic metric groups = {n_cells} cells.** "
        line += (f"This cohort has values for {taxonomy.groups_phrase(has)}; none for "
                 f"{taxonomy.groups_phrase(missing_groups)}: those columns are blank for every scenario."
                 if missing_groups else "This cohort has values in every one of the seven groups.")
        notes.append(line)
        core, other = grid.grid_row_kinds(rel)
        if other:
            notes.append(TEXT(
                (f"Rows: {fmt.count(len(core), 'core scenario')} of classic's 16 first ({fmt.names(core)}), then "
                 if core else "Rows: ")
                + f"{fmt.count(len(other), 'scenario')} of the suite's own, not among classic's 16 core scenarios "
                  f"({fmt.names(other)}; marked \"other\" in the grid)."))
        notes.append(f"The paper's 98 of 112 counts classic's 16 core scenarios; {TEXT(rel.name)} has "
                     f"{TEXT(taxonomy.scenarios_phrase(rel))}, so there is no paper view here.")
    elif missing_groups or missing_scen:
        parts = []
        if missing_groups:
            parts.append("metric group(s) " + ", ".join(GROUP_LABELS[g] for g in missing_groups))
        if missing_scen:
            parts.append("core scenario(s) " + ", ".join(TEXT(s) for s in missing_scen))
        notes.append("This dataset and cohort hold no value for " + "; ".join(parts) + ": the data view shows them "
                     "blank.")
    blanks_text = "; ".join(f"{r.scenario} {r.group_label}" for r in cells[~cells["measured"]].itertuples())
    chart = Chart(
        grid_spec(view, models), key="grid_cells", select=True,
        alt=(f"{len(scenarios)} by 7 grid of {rel.name} scenarios and metric groups, {label} view: "
             f"{n_meas} cells measured and {n_blank} blank. Blank: {blanks_text}."),
        data=cells.drop(columns=["token"]), data_name=f"core_grid_{view}")
    claims = [] if own else ["grid_98_of_112", "grid_blanks_summarization", "grid_blanks_harms",
                             "grid_msmarco_calibration"]
    links = ([slides.Link("The same grid for HELM classic v0.4.0", "grid", {"release": "classic"},
                          ":material/history:")] if ctx.rel.is_later else [])
    return View(point=point, visual=chart, cards=cards, talk=talk, notes=notes, claims=claims, links=links,
                read="Hover a cell for its metrics, coverage and best model; click it (or pick it below) for every "
                     "model's value.")


def grid_details(ctx: Ctx, view: View, event) -> None:
    """The clicked (or picked) cell: its metrics, views, best model and every model's value."""
    if not ctx.models:
        return
    rel, models = ctx.rel, ctx.models
    tokens = grid.cell_tokens(rel)
    views = grid.views_for(rel)
    current = _view_of(ctx)
    cells = grid_cells(current, models)
    st.subheader("Cell detail")
    components.pick_by_click(event, tokens, key="cell")
    state.allow("cell", tokens)
    token = st.selectbox("Cell (scenario|metric group)", options=tokens, index=None, key="cell", bind="query-params",
                         placeholder="Click a cell in the grid, or pick one here",
                         help="The selected cell is kept in the link, so a prepared URL opens on it.")
    if token is None:
        st.caption("No cell selected yet.")
        return
    scenario, group = grid.parse_cell_token(token, rel)
    row = cells[cells["token"] == token].iloc[0]
    d = cell_detail(scenario, group, models)
    st.markdown(f"#### {TEXT(scenario)} × {GROUP_LABELS[group]}")
    views_line = []
    for v in views:
        vc = grid_cells(v, models)
        m = bool(vc.loc[vc["token"] == token, "measured"].iloc[0])
        views_line.append(f"{v}: {'measured' if m else 'blank'}")
    st.markdown(
        f"HELM metric(s): {TEXT(row['metrics'])}  \n"
        f"Models with a value: **{int(row['models_with_value'])} of {int(row['cohort_size'])}** in the cohort  \n"
        f"Views: {' · '.join(views_line)}"
    )
    if not row["measured"]:
        st.markdown(f"{badge(row['confidence'])} **Blank in the {current} view.** {TEXT(row['reason'])}")
        st.caption(f"Source: {TEXT(row['source'])}")
    elif int(row["models_with_value"]) == 0:
        st.markdown(f"**Counted as measured in the {current} view, but no model of the cohort has a value.**")
        why = grid.design_reason(scenario, group)
        if why is not None:
            st.markdown(f"{badge(why.confidence)} HELM's schema leaves it blank: {TEXT(why.reason)}")
        if scenario in grid.MS_MARCO and group == "calibration":
            components.claim("grid_msmarco_calibration", compact=True)
    elif row["differs"]:
        st.caption(f"Note: {TEXT(row['differs'])}.")
    if not d.best.empty:
        best_lines = []
        for b in d.best.itertuples():
            tie = f" (tied with {b.n_tied - 1} more)" if b.n_tied > 1 else ""
            direction = "lower is better" if b.lower_is_better else "higher is better"
            best_lines.append(f"- {TEXT(b.metric)} ({direction}): **{TEXT(b.model)}** "
                              f"{grid.format_value(group, b.value)}{tie}")
        st.markdown("Best in the cohort:\n" + "\n".join(best_lines))
        st.caption("Values HELM flags as strongly contaminated (☠, a model trained on that dataset) are left out "
                   "of the best, as in HELM's win rates; they stay in the table, marked.")
    if d.values.empty:
        st.info(f"No model of the cohort has a value for {TEXT(scenario)} × {GROUP_LABELS[group]}.")
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
            st.caption(f"Sorted by {TEXT(first)}, {order}.")
    if d.missing:
        with st.expander(f"{fmt.count(len(d.missing), 'model')} of the cohort without a value"):
            st.text("\n".join(d.missing))


# ----------------------------------------------------------------------------- slide 2: where the views differ


def differences_view(ctx: Ctx) -> View:
    empty = _no_models(ctx)
    if empty is not None:
        return empty
    own = grid.own_grid(ctx.rel)
    diff = grid_differences(ctx.models)
    schema_label = grid.view_label(ctx.rel, "schema")
    if diff.empty:
        return View(point=f"The {'release’s tables and its data' if own else 'three views'} agree on every cell for "
                          "this cohort.",
                    empty="No cell differs between the views.")
    paper_not_schema = diff[diff["paper"] & ~diff["schema"]]
    schema_not_data = diff[diff["schema"] & (diff["data_models"] == 0)]
    lines = []
    if not paper_not_schema.empty:
        lines.append(f"**The paper counts, the schema leaves blank** ({len(paper_not_schema)}): "
                     + ", ".join(f"{TEXT(r.scenario)} {r.group_label}" for r in paper_not_schema.itertuples()) + ".")
    if not schema_not_data.empty:
        lister = f"Listed in {TEXT(schema_label)}" if own else "The schema lists"
        lines.append(f"**{lister}, the data holds no value for this cohort** ({len(schema_not_data)}): "
                     + ", ".join(f"{TEXT(r.scenario)} {r.group_label}" for r in schema_not_data.itertuples()) + ".")
    other = diff[~diff.index.isin(paper_not_schema.index) & ~diff.index.isin(schema_not_data.index)]
    if not other.empty:
        lines.append(f"**Other differences** ({len(other)}): "
                     + ", ".join(f"{TEXT(r.scenario)} {r.group_label} ({r.difference})" for r in other.itertuples())
                     + ".")
    yes_no = {True: "yes", False: "no"}.get
    shown = diff.drop(columns=["metric_group", "paper"] if own else ["metric_group"])
    table = Table(shown, key="grid_diff",
                  labels={"group_label": "metric group", "paper": "paper counts it", "schema": "schema lists it",
                          "data_models": "models with a value"},
                  formats={"paper counts it": yes_no, "schema lists it": yes_no}, data_name="core_grid_differences")
    what = "the release's tables and its data" if own else "the paper, the schema and the data"
    point = f"{fmt.count(len(diff), 'cell')} of the grid {fmt.plural(len(diff), 'is', 'are')} counted differently by {what}."
    return View(point=point, visual=table, talk=lines,
                notes=["The paper's view is its claim; the schema is HELM's own schema_classic.yaml; the data is the "
                       f"results tables of {TEXT(ctx.rel.name)} for the sidebar's cohort."] if not own else [])


# ----------------------------------------------------------------------------- slide 3: why each blank is blank


def blanks_view(ctx: Ctx) -> View:
    empty = _no_models(ctx)
    if empty is not None:
        return empty
    view = _view_of(ctx)
    gaps = grid_gaps(view, ctx.models)
    if gaps.empty:
        return View(point=f"No blank cell in the {view} view.", empty="No blank cell in this view.")
    kinds = gaps.groupby(["kind", "confidence"], sort=False).size()
    talk = [" · ".join(f"{TEXT(k)}: {n} {badge(conf)}" for (k, conf), n in kinds.items())]
    verified = int((gaps["confidence"] == "verified").sum())
    point = (f"Why each blank cell is blank ({view} view): {fmt.count(len(gaps), 'blank cell')}, "
             f"{verified} with a reason read in HELM's code or schema.")
    return View(point=point, visual=Table(gaps.drop(columns=["metric_group"]), key="grid_gaps",
                                          labels={"group_label": "metric group"}, data_name=f"core_grid_gaps_{view}"),
                talk=talk,
                notes=["Confidence: verified = read in HELM's code or schema; unverified = our inference, no source "
                       "says why; computed = only that the data holds no value."])


def grid_ask(ctx: Ctx) -> list:
    """Guess how many cells of the open view are blank (the slide's own count)."""
    if _no_models(ctx) is not None:
        return []
    _, _, n_cells = _shape(ctx)
    view = _view_of(ctx)
    n_blank = n_cells - int(grid_cells(view, ctx.models)["measured"].sum())
    label = grid.view_label(ctx.rel, view)
    q = participation.number_question(
        f"grid.blank.{ctx.rel.name}.{view}", f"{label}: of its {n_cells} cells, how many are blank?", n_blank,
        lo=0, hi=n_cells, note=f"computed from {ctx.rel.name}, {label}, {fmt.count(len(ctx.models), 'model')}",
        page="grid", slide="grid")
    return [q] if q else []


DECK = slides.Deck("grid", [
    Slide("grid", "Grid", view=grid_view, controls=view_picker, details=grid_details, ask=grid_ask),
    Slide("differences", "Where views differ", view=differences_view),
    Slide("blanks", "Why blank", view=blanks_view, controls=view_picker),
], keep=["view", "cell"])

if __name__ == "__main__":
    from ui import layout

    layout.render(DECK)
