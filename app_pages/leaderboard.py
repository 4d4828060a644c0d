"""HELM's Leaderboard: the tables of a suite's groups/*.json as HELM shows them, one tab per table, each cell
linked to the runs behind it (Prompts & Completions, filtered to that model and scenario).

A release without groups files (the bundled ones) says so and how to load them, and shows its tidy values
rebuilt per metric group in the same form, labelled as rebuilt. Names, titles and descriptions from the files
are shown as text (escaped), never as markdown or HTML.
"""
from __future__ import annotations

import functools

import streamlit as st

from helm_core import fmt, leaderboard
from helm_core.data import DataError
from ui import cache, components, state

RUNS_PAGE = "app_pages/runs.py"

components.page_header("leaderboard")
rel = cache.active_release()
out = cache.active_output()


def _pick_cell(df_key: str, models: list[str]) -> None:
    """on_select of a table: a clicked cell sets the model and column pickers below it."""
    sel = st.session_state.get(df_key)
    cells = (sel or {}).get("selection", {}).get("cells", []) if sel else []
    if not cells:
        return
    row, column = cells[0][0], cells[0][1]
    if 0 <= int(row) < len(models):
        st.session_state["lb_model"] = models[int(row)]
    if column in st.session_state.get("_lb_columns", ()):
        st.session_state["lb_column"] = column


def _new_group() -> None:
    """on_change of the group choice: the picked cell belongs to the old group's tables, so it goes (each
    group keeps its own open tab, see `tab_key`)."""
    for key in ("lb_model", "lb_column"):
        st.session_state.pop(key, None)  # the bound widgets then fall back to their defaults, URL included


def tab_key(i: int) -> str:
    """The query key of the open tab of the i-th group file: one per group, so a tab title of one group is
    never checked against another group's tabs."""
    return "lb_table" if i == 0 else f"lb_table_{i}"


def _numeric_format(values) -> str | None:
    """Three decimals as HELM's pages print them, unless that would print a nonzero value as 0 (runtimes of
    microseconds): then three significant digits."""
    v = values.dropna().abs()
    v = v[v > 0]
    if v.empty or float(v.min()) >= 0.0005:
        return "%.3f"
    return "%.3g"


def cell_detail(t: leaderboard.Table) -> None:
    """The runs behind one cell: pick a model and a column (or click a cell in the table)."""
    models = t.models
    labels = [c.label for c in t.columns]
    st.session_state["_lb_columns"] = tuple(labels)
    if not models or not labels:
        return
    st.markdown("**The runs behind a cell** · click a cell in the table, or pick it here")
    c = st.columns(2)
    state.allow("lb_model", lambda v: len(v) <= 200)
    state.allow("lb_column", lambda v: len(v) <= 200)
    for key, opts in (("lb_model", models), ("lb_column", labels)):
        if st.session_state.get(key) not in opts:
            st.session_state.pop(key, None)
    model = c[0].selectbox(t.first, models, key="lb_model", bind="query-params")
    # By default the first column with runs behind it (a win-rate column has none).
    with_runs = set(t.cells.loc[t.cells["run_spec_names"].map(len) > 0, "column"])
    first = next((i for i, label in enumerate(labels) if label in with_runs), 0)
    column = c[1].selectbox("Column", labels, index=first, key="lb_column", bind="query-params")
    cell = t.cell(models.index(model), column)
    # HELM's own number as it wrote it; a time at its scale (1.94e-05 s reads 19.4 µs).
    value = cell["text"] or (leaderboard.MISSING if fmt.missing(cell["value"]) else
                             fmt.seconds(cell["value"]) if fmt.is_time(column) else f"{cell['value']:g}")
    desc = cell["description"]
    st.caption(components.text(f"{model} · {column}: {value}" + (f" ({desc})" if desc else "")
                               + (f" · contamination: {cell['contamination']}" if cell["contamination"] else "")))
    names = cell["run_spec_names"]
    if t.rebuilt:
        st.caption("A rebuilt table knows no runs: HELM lists the runs behind each cell only in its groups files.")
        return
    if not names:
        st.caption("HELM lists no run behind this cell" + (" (no matching runs)." if fmt.missing(cell["value"])
                                                           else "."))
        return
    runs = out.runs if out is not None else None
    q = leaderboard.runs_link(runs, names)
    found = leaderboard.cell_runs(runs, names) if runs is not None else None
    if q is None:
        st.caption(components.text(
            f"HELM lists {fmt.count(len(names), 'run')} behind this cell ({fmt.names(list(names), 3)}); "
            "the loaded output holds no run folder of that name, so there are no prompts to open "
            "(load the suite folder with its runs, not only groups/)."))
        return
    what = f"{found['model'].iloc[0]} on {found['scenario'].iloc[0]}"
    st.page_link(RUNS_PAGE, label=f"Open the {fmt.count(len(found), 'run')} behind this cell in Prompts & "
                 f"Completions ({what})", icon=":material/article:", query_params=q)
    if len(found) < len(names):
        st.caption(f"{fmt.count(len(names) - len(found), 'run')} that HELM lists here "
                   f"{fmt.plural(len(names) - len(found), 'is')} not in the loaded output.")


def show_table(t: leaderboard.Table) -> None:
    df = t.wide()
    config = {t.first: st.column_config.TextColumn(t.first, pinned=True)}
    for col in t.columns:
        # Tooltips render Markdown: HELM's descriptions come from the files, so they are escaped.
        helptext = components.text(leaderboard.column_help(col)) or None
        if df[col.label].dtype == float:
            config[col.label] = st.column_config.NumberColumn(col.label, help=helptext,
                                                              format=_numeric_format(df[col.label]))
        else:
            config[col.label] = st.column_config.TextColumn(col.label, help=helptext)
    n_missing = int(t.cells["value"].isna().sum() - (t.cells["text"] != "").sum())
    st.caption(components.text(
        f"{t.title}: {fmt.count(len(df), 'row')} × {fmt.count(len(t.columns), 'column')}"
        + (f", {fmt.count(n_missing, 'cell')} without a value (–)" if n_missing else "")
        + (". Click a column header to sort; hover it for HELM's description." if not t.rebuilt else
           ". Click a column header to sort.")))
    df_key = f"lb_df_{t.group}_{t.name or t.title}"
    st.dataframe(df, hide_index=True, width="stretch", column_config=config, placeholder=leaderboard.MISSING,
                 key=df_key, on_select=functools.partial(_pick_cell, df_key, t.models), selection_mode="single-cell")
    flagged = t.cells[t.cells["contamination"] != ""]
    if len(flagged):
        st.caption(components.text(
            f"HELM flags {fmt.count(len(flagged), 'cell')} as contaminated (the model may have seen that test "
            f"data): " + fmt.names([f"{m} · {c}" for m, c in zip(flagged["model"], flagged["column"])], 4) + "."))
    components.download(df, f"helm_{t.group}_{t.name or t.title}", key=f"{df_key}_csv")
    cell_detail(t)


def main() -> None:
    try:
        tables, from_files = cache.leaderboard_tables()
    except DataError as exc:
        st.error(components.text(f"Could not read the leaderboard tables: {exc}"), icon=":material/error:")
        return
    if not from_files:
        st.info(components.text(
            f"HELM's leaderboard tables are the groups/*.json files that helm-summarize writes next to a suite's "
            f"runs (benchmark_output/runs/<suite>/groups/). {rel.name} is bundled as tidy values, without those "
            "files. To see HELM's own tables here, load a suite that has them (a zip of the suite folder, or a "
            "single groups .json file) on the Bring Your Own HELM Output page, or start the app with "
            "`-- --helm-output PATH`."), icon=":material/info:")
        st.page_link("app_pages/data.py", label="Load your own HELM output", icon=":material/upload_file:")
        if not tables:
            return
        published = any(c.label == leaderboard.PUBLISHED_WIN_RATE for t in tables for c in t.columns)
        st.markdown(components.text(
            f"Below: {rel.name}'s values for the sidebar's models, rebuilt per metric group in the same form "
            "(rebuilt from the tidy data, not HELM's files: no column descriptions, no runs behind the cells"
            + ("; the win-rate column is HELM's published one, over every model of the release)." if published
               else "; no win-rate column).")))
    if not tables:
        st.info("The groups files hold no table.", icon=":material/info:")
        return
    groups = list(dict.fromkeys(t.group for t in tables))
    group = groups[0]
    if len(groups) > 1:
        state.allow("lb_group", groups)
        group = st.selectbox(f"Group file ({len(groups)})", groups, key="lb_group", bind="query-params",
                             on_change=_new_group,
                             help="helm-summarize writes one file per run group: core_scenarios (every scenario "
                                  "of the schema's main list) and one per scenario.") or groups[0]
    chosen = [t for t in tables if t.group == group]
    if from_files:
        st.caption(components.text(f"HELM's own tables from {chosen[0].file} of {rel.name}: "
                                   f"{fmt.count(len(chosen), 'table')}, as helm-summarize wrote them."))
    seen: set[str] = set()
    builders = {}
    for t in chosen:
        label, n = t.title, 2
        while label in seen:
            label, n = f"{t.title} ({n})", n + 1
        seen.add(label)
        builders[label] = functools.partial(show_table, t)
    keys = [tab_key(i) for i in range(len(groups))]
    components.sections(keys[groups.index(group)], builders, keep=["lb_model", "lb_column", *keys])


main()
components.onward("leaderboard")
