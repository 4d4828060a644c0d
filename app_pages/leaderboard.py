"""HELM's Leaderboard: the tables of a suite's groups/*.json as HELM shows them, each cell linked to the runs behind
it (Prompts & Completions, filtered to that model and scenario).

One slide (one step on the presenter route): the open table's ranking column (HELM's own aggregate, e.g. its mean
win rate, else the table's first column with a number) as bars, with the point computed from the table. Below it,
for desktop use: the group-file choice, one lazy tab per table of the chosen file (HELM's column names and
descriptions, '–' where HELM has no value), and the runs behind a cell (click a cell, or pick it).

A release without groups files (the bundled ones) says so and how to load them, and shows its tidy values rebuilt
per metric group in the same form, labelled as rebuilt. Names, titles and descriptions from the files are shown as
text (helm_core.escape), never as Markdown or HTML.
"""
from __future__ import annotations

import functools
import re
from pathlib import PurePosixPath

import streamlit as st

from helm_core import fmt, leaderboard, validity
from helm_core.data import DataError
from ui import cache, charts_leaderboard, components, slides, state
from ui.slides import Chart, Ctx, Link, Slide, View

RUNS_PAGE = "app_pages/runs.py"
TEXT = components.text
rebuilt_tables = cache.on_release(leaderboard.rebuilt_tables)


# ----------------------------------------------------------------------------- the tables and the open one


def _tables(ctx: Ctx) -> tuple[list[leaderboard.Table], bool, str | None]:
    """(tables, read from HELM's files, error): the loaded output's groups/*.json tables when it has them, else
    the release's values rebuilt per metric group for the context's models."""
    out = cache.active_output()
    if out is not None and out.table_files:
        try:
            return out.leaderboard(), True, None
        except DataError as exc:
            return [], True, str(exc)
    return rebuilt_tables(tuple(ctx.models)), False, None


def _groups(tables: list[leaderboard.Table]) -> list[str]:
    return list(dict.fromkeys(t.group for t in tables))


def tab_key(gi: int) -> str:
    """The query key of the open tab of the gi-th group file: one per group, so a tab title of one group is never
    checked against another group's tabs."""
    return "lb_table" if gi == 0 else f"lb_table_{gi}"


def column_key(gi: int, ti: int) -> str:
    """The query key of the column picker under table ti of group gi: one per table, so a column picked under one
    table (and kept in the link) is never offered to another."""
    return f"lb_column_{ti}" if gi == 0 else f"lb_column_{gi}_{ti}"


def _all_keys(tables: list[leaderboard.Table]) -> list[str]:
    keys = []
    for gi, g in enumerate(_groups(tables)):
        keys.append(tab_key(gi))
        keys += [column_key(gi, ti) for ti in range(sum(t.group == g for t in tables))]
    return keys


def tab_labels(chosen: list[leaderboard.Table]) -> list[str]:
    """The tabs' labels: each table's title (non-empty and unique within its file, helm_core.leaderboard
    `table_titles`), escaped, since a tab label is Markdown (the URL's `lb_table` holds the label as drawn)."""
    return [TEXT(t.title) for t in chosen]


def _open(ctx: Ctx, tables: list[leaderboard.Table]) -> tuple[int, list[leaderboard.Table], int]:
    """(group index, the group's tables, index of the open table) for the context's state."""
    groups = _groups(tables)
    group = ctx.get("lb_group", groups[0], groups)
    gi = groups.index(group)
    chosen = [t for t in tables if t.group == group]
    labels = tab_labels(chosen)
    return gi, chosen, labels.index(ctx.get(tab_key(gi), labels[0], labels))


# ----------------------------------------------------------------------------- the slide


def lb_controls(ctx: Ctx) -> dict | None:
    """The group-file choice (a suite's groups files), and the open table for the view: the tab's value, or on a
    link's first run (before the tabs are drawn) the link's."""
    tables, _, error = _tables(ctx)
    if error or not tables:
        return None
    state.keep(["lb_group", "lb_model", *_all_keys(tables)])
    groups = _groups(tables)
    if len(groups) > 1:
        state.allow("lb_group", groups)
        st.selectbox(f"Group file ({len(groups)})", groups, key="lb_group", bind="query-params",
                     on_change=state.write_back, args=("lb_group",),
                     help="helm-summarize writes one file per run group: core_scenarios (every scenario of the "
                          "schema's main list) and one per scenario.")
    gi, chosen, _ = _open(ctx, tables)
    key = tab_key(gi)
    labels = tab_labels(chosen)
    opened = st.session_state.get(key)
    if opened not in labels:
        opened = st.query_params.get(key)
    return {"lb_group": groups[gi], key: opened} if opened in labels else {"lb_group": groups[gi]}


def _top_phrase(h: leaderboard.Headline, table: leaderboard.Table) -> str:
    """'HELM's Mean win rate puts **A** first of 2 models (1.000)', or the table's shape when it has no number."""
    if h.column is None:
        return (f"{fmt.count(h.n_models, 'model')} × {fmt.count(h.n_columns, 'column')}, and not one number to rank "
                "them by")
    top = h.top
    value = charts_leaderboard.shown_value(float(h.ranking["value"].iloc[0]), h.column)
    who = fmt.names([f"**{TEXT(m)}**" for m in top], 3)
    ranked = len(h.ranking)
    if ranked == 1:
        return f"{who} alone has a value for {TEXT(h.column)} ({value})"
    among = f"of {fmt.count(ranked, 'model')}" + ("" if ranked == h.n_models else " with a value")
    tie = f"tied at {value}" if len(top) > 1 else value
    if h.aggregate:
        name = ("HELM's published " + h.column.replace(" (published)", "").lower() if table.rebuilt
                else f"HELM's {TEXT(h.column)}")
        return f"{name} puts {who} first {among} ({tie})"
    if h.lower_is_better is None:
        return f"{who} {fmt.verb_form(len(top), 'has')} the highest {TEXT(h.column)} {among} ({tie})"
    better = "lower" if h.lower_is_better else "higher"
    return f"{who} {fmt.verb_form(len(top), 'leads')} on {TEXT(h.column)} ({better} is better) {among} ({tie})"


def file_name(t: leaderboard.Table, suffix: str = "") -> str:
    """A download's file name for a table: letters, digits, '.', '-' and '_' only (titles hold '/', ':' ...)."""
    return re.sub(r"[^\w.-]+", "_", f"helm_{t.group}_{t.name or t.title}{suffix}").strip("_")[:120]


def _missing_cells(t: leaderboard.Table) -> int:
    return int(t.cells["value"].isna().sum() - (t.cells["text"] != "").sum())


def lb_view(ctx: Ctx) -> View:
    tables, from_files, error = _tables(ctx)
    rel = ctx.rel
    if error:
        return View(point="HELM's leaderboard tables of this dataset could not be read.",
                    empty=TEXT(f"Could not read the leaderboard tables: {error}"), empty_kind="warning")
    notes, links = [], []
    if not from_files:
        notes.append(TEXT(
            f"HELM's leaderboard tables are the groups/*.json files that helm-summarize writes next to a suite's "
            f"runs (benchmark_output/runs/<suite>/groups/). {rel.name} is bundled as tidy values, without those "
            "files. To see HELM's own tables here, load a suite that has them (a zip of the suite folder, or a "
            "single groups .json file) on the Bring Your Own HELM Output page, or start the app with "
            "`-- --helm-output PATH`."))
        links.append(Link("Load your own HELM output", "data", icon=":material/upload_file:"))
    if not tables:
        what = ("The groups files hold no table." if from_files else
                f"{rel.name} has no value for the sidebar's models, so there is no table to rebuild.")
        return View(point=TEXT(what), empty=TEXT(what), empty_kind="info" if from_files else "warning",
                    notes=notes, links=links)
    groups = _groups(tables)
    gi, chosen, ti = _open(ctx, tables)
    t = chosen[ti]
    h = leaderboard.headline(t)
    if from_files:
        where = f"**{TEXT(PurePosixPath(t.file).name)}**, {fmt.count(len(chosen), 'table')}"
        notes.insert(0, TEXT(f"HELM's own tables from {t.file} of {rel.name}: {fmt.count(len(chosen), 'table')}, "
                             "as helm-summarize wrote them."))
    else:
        where = f"**Rebuilt** from {TEXT(rel.name)}'s values (no groups files)"
        published = [c.label for c in t.columns if c.label in (leaderboard.PUBLISHED_WIN_RATE,
                                                               leaderboard.PUBLISHED_SCORE)]
        notes.append(TEXT(
            f"These tables: {rel.name}'s values for the sidebar's models, rebuilt per metric group in the same form "
            "(rebuilt from the tidy data, not HELM's files: no column descriptions, no runs behind the cells"
            + (f"; the {published[0].replace(' (published)', '').lower()} column is HELM's published one, over "
               "every model of the release)." if published else "; no published aggregate column).")))
    point = f"{where}: in {TEXT(t.title)}, {_top_phrase(h, t)}."
    n_missing = _missing_cells(t)
    talk = [TEXT(f"{t.title}: {fmt.count(h.n_models, 'row')} × {fmt.count(h.n_columns, 'column')}"
                 + (f", {fmt.count(n_missing, 'cell')} without a value (–)." if n_missing else "."))]
    if len(h.ranking):
        talk.append(TEXT("By " + h.column + ": " + " · ".join(
            f"{r.rank}. {r.model} {charts_leaderboard.shown_value(r.value, h.column)}"
            for r in h.ranking.head(3).itertuples()) + "."))
    if len(chosen) > 1:
        talk.append(TEXT(f"Its tables: {fmt.names([c.title for c in chosen])}."))
    if from_files and len(groups) > 1:
        talk.append(TEXT(f"{fmt.count(len(groups), 'groups file')} in this suite: {fmt.names(groups, 4)}."))
    rejected = validity.rejected_sentence(validity.frame(t.rejected))
    if rejected:
        notes.append(TEXT(rejected))
    if h.column is None:
        return View(point=point, talk=talk, notes=notes, links=links,
                    empty=TEXT(f"{t.title} holds no number to chart; its cells are in the table below."))
    mode = "presenter" if ctx.presenter else ctx.mode
    shown = min(len(h.ranking), charts_leaderboard.TOP_N.get(mode, 15))
    fig = charts_leaderboard.ranking_bars(h.ranking, h.column, h.lower_is_better, mode=mode)
    alt = (f"Bar chart of {h.column} in {t.title}, the first {shown} of {len(h.ranking)} models, best first: "
           + "; ".join(f"{r.model} {charts_leaderboard.shown_value(r.value, h.column)}"
                       for r in h.ranking.head(shown).itertuples()) + ".")
    data = h.ranking.rename(columns={"value": h.column})
    # A short ranking keeps its own height on stage: two bars stretched over the screen read as a wall.
    chart = Chart(fig, key=f"lb_ranking_{gi}_{ti}", alt=alt, data=data, fit=shown >= 6,
                  data_name=file_name(t, "_ranking"))
    read = (f"Bars: the first {shown} of {fmt.count(len(h.ranking), 'model')} by {h.column}, "
            + ("HELM's own aggregate column" if h.aggregate else "the table's first column with a number")
            + "; the model ranked first is drawn darker. The full tables are below, one tab per table; click a cell for the "
              "runs behind it.")
    return View(point=point, visual=chart, talk=talk, notes=notes, links=links, read=TEXT(read))


# ----------------------------------------------------------------------------- below the slide: HELM's tables


def _pick_cell(df_key: str, models: list[str], labels: list[str], col_key: str) -> None:
    """on_select of a table: a clicked cell sets the model and column pickers below it."""
    sel = st.session_state.get(df_key)
    cells = (sel or {}).get("selection", {}).get("cells", []) if sel else []
    if not cells:
        return
    row, column = cells[0][0], cells[0][1]
    if 0 <= int(row) < len(models):
        st.session_state["lb_model"] = models[int(row)]
    if column in labels:
        st.session_state[col_key] = column


def _numeric_format(values) -> str | None:
    """Three decimals as HELM's pages print them, unless that would print a nonzero value as 0 (runtimes of
    microseconds): then three significant digits."""
    v = values.dropna().abs()
    v = v[v > 0]
    if v.empty or float(v.min()) >= 0.0005:
        return "%.3f"
    return "%.3g"


def cell_detail(ctx: Ctx, t: leaderboard.Table, col_key: str) -> None:
    """The runs behind one cell: pick a model and a column (or click a cell in the table)."""
    models = t.models
    labels = [c.label for c in t.columns]
    if not models or not labels:
        return
    st.markdown("**The runs behind a cell** · click a cell in the table, or pick it here")
    c = st.columns(2)
    state.allow("lb_model", lambda v: len(v) <= 200)
    state.allow(col_key, lambda v: len(v) <= 200)
    for key, opts in (("lb_model", models), (col_key, labels)):
        if st.session_state.get(key) not in opts:
            st.session_state.pop(key, None)
    model = c[0].selectbox(TEXT(t.first), models, key="lb_model", bind="query-params")
    # By default the first column with runs behind it (a win-rate column has none).
    with_runs = set(t.cells.loc[t.cells["run_spec_names"].map(len) > 0, "column"])
    first = next((i for i, label in enumerate(labels) if label in with_runs), 0)
    column = c[1].selectbox("Column", labels, index=first, key=col_key, bind="query-params")
    cell = t.cell(models.index(model), column)
    # HELM's own number as it wrote it; a time at its scale (1.94e-05 s reads 19.4 µs).
    value = cell["text"] or (leaderboard.MISSING if fmt.missing(cell["value"]) else
                             fmt.seconds(cell["value"]) if fmt.is_time(column) else f"{cell['value']:g}")
    desc = cell["description"]
    st.caption(TEXT(f"{model} · {column}: {value}" + (f" ({desc})" if desc else "")
                    + (f" · contamination: {cell['contamination']}" if cell["contamination"] else "")))
    names = cell["run_spec_names"]
    if t.rebuilt:
        st.caption("A rebuilt table knows no runs: HELM lists the runs behind each cell only in its groups files.")
        return
    if not names:
        st.caption("HELM lists no run behind this cell" + (" (no matching runs)." if fmt.missing(cell["value"])
                                                           else "."))
        return
    out = cache.active_output()
    runs = out.runs if out is not None else None
    q = leaderboard.runs_link(runs, names)
    if q is None:
        st.caption(TEXT(
            f"HELM lists {fmt.count(len(names), 'run')} behind this cell ({fmt.names(list(names), 3)}); "
            "the loaded output holds no run folder of that name, so there are no prompts to open "
            "(load the suite folder with its runs, not only groups/)."))
        return
    found = leaderboard.cell_runs(runs, names)
    what = f"{found['model'].iloc[0]} on {found['scenario'].iloc[0]}"
    st.page_link(RUNS_PAGE, label=TEXT(f"Open the {fmt.count(len(found), 'run')} behind this cell in Prompts & "
                                       f"Completions ({what})"), icon=":material/article:", query_params=q)
    if len(found) < len(names):
        st.caption(f"{fmt.count(len(names) - len(found), 'run')} that HELM lists here "
                   f"{fmt.plural(len(names) - len(found), 'is')} not in the loaded output.")


def show_table(ctx: Ctx, t: leaderboard.Table, gi: int, ti: int) -> None:
    df = t.wide()
    config = {t.first: st.column_config.TextColumn(t.first, pinned=True)}
    for col in t.columns:
        # Tooltips render Markdown: HELM's descriptions come from the files, so they are escaped.
        helptext = TEXT(leaderboard.column_help(col)) or None
        if df[col.label].dtype == float:
            config[col.label] = st.column_config.NumberColumn(col.label, help=helptext,
                                                              format=_numeric_format(df[col.label]))
        else:
            config[col.label] = st.column_config.TextColumn(col.label, help=helptext)
    n_missing = _missing_cells(t)
    st.caption(TEXT(
        f"{t.title}: {fmt.count(len(df), 'row')} × {fmt.count(len(t.columns), 'column')}"
        + (f", {fmt.count(n_missing, 'cell')} without a value (–)" if n_missing else "")
        + (". Click a column header to sort; hover it for HELM's description." if not t.rebuilt else
           ". Click a column header to sort.")))
    df_key = f"lb_df_{gi}_{ti}"
    col_key = column_key(gi, ti)
    st.dataframe(df, hide_index=True, width="stretch", column_config=config, placeholder=leaderboard.MISSING,
                 key=df_key, selection_mode="single-cell",
                 on_select=functools.partial(_pick_cell, df_key, t.models, [c.label for c in t.columns], col_key))
    flagged = t.cells[t.cells["contamination"] != ""]
    if len(flagged):
        st.caption(TEXT(
            f"HELM flags {fmt.count(len(flagged), 'cell')} as contaminated (the model may have seen that test "
            f"data): " + fmt.names([f"{m} · {c}" for m, c in zip(flagged["model"], flagged["column"])], 4) + "."))
    rejected = validity.rejected_sentence(validity.frame(t.rejected))
    if rejected:
        st.caption(TEXT(rejected))
    components.download(df, file_name(t), key=f"{df_key}_csv")
    cell_detail(ctx, t, col_key)


def lb_details(ctx: Ctx, view: View, event) -> None:
    """HELM's tables of the chosen groups file, one lazy tab each (only the open one is built; its title in the
    URL as `lb_table`, `lb_table_<group>`)."""
    tables, _, error = _tables(ctx)
    if error or not tables:
        return
    gi, chosen, _ = _open(ctx, tables)
    labels = tab_labels(chosen)
    key = tab_key(gi)
    state.allow(key, labels)
    tabs = st.tabs(labels, key=key, on_change="rerun", bind="query-params")
    opened = next((i for i, tab in enumerate(tabs) if tab.open), 0)
    with tabs[opened]:
        show_table(ctx, chosen[opened], gi, opened)


DECK = slides.Deck("leaderboard", [
    Slide("leaderboard", "HELM's Leaderboard", view=lb_view, controls=lb_controls, details=lb_details),
], keep=["lb_group", "lb_model", "lb_table"])

if __name__ == "__main__":
    from ui import layout

    layout.render(DECK)
