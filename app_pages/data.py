"""Bring Your Own HELM Output: upload a zip (or, locally, a server path), see what was loaded and what was left
out, switch back.

Not a story page: its one slide is off the presenter route (`on_route=False`). The point says which data every page
shows; the cards count it; the controls take an upload or a path; the details list what the suite holds, the
values left out at load (by name) and the run folders left out, and switch datasets. Everything a visitor loads or
types is shown as text (helm_core.escape), never run, unpickled or rendered as HTML.
"""
from __future__ import annotations

import pandas as pd
import streamlit as st

from helm_core import fmt, helm_output, summary, taxonomy, validity
from helm_core.data import CORE_GROUPS, GROUP_LABELS, DataError
from ui import cache, components, datasets, slides
from ui.slides import Card, Ctx, Slide, Table, View

FLASH = "_data_flash"
DONE = "_data_upload_done"
ERROR = "_data_upload_error"
PATH_ERROR = "_data_path_error"
TEXT = components.text
READ = ("The table: per scenario, how many of the dataset's models have a value, and how many of the seven classic "
        "metric groups (the 2022 paper's) have one.")
INTRO = ("Run HELM on your own models (`helm-run`, then optionally `helm-summarize`), zip the suite folder and "
         "upload it here. Every page of this app then works on your results: choose the dataset in the sidebar.")


# ----------------------------------------------------------------------------- what is loaded (no widgets)


def _summary(ctx: Ctx) -> dict | None:
    out = cache.active_output()
    return helm_output.summary(out) if out is not None else None


def _lines(info: dict, release) -> list[str]:
    """What the suite holds beside HELM classic's core grid, one sentence each (plain text)."""
    lines = []
    if info["core_scenarios"]:
        lines.append("Core scenarios loaded: " + ", ".join(info["core_scenarios"]) + ".")
    if info["extra_scenarios"]:
        lines.append("Other scenarios, kept as extra columns: " + ", ".join(info["extra_scenarios"]) + "."
                     + (" Every page draws them after the core ones." if info["core_scenarios"] else
                        " None of them is one of classic's 16 core scenarios, so every page draws the suite's own."))
    if info["missing_core_scenarios"] and info["core_scenarios"]:
        lines.append(f"Missing {len(info['missing_core_scenarios'])} of the 16 core scenarios: "
                     + ", ".join(info["missing_core_scenarios"]) + ".")
    if info["missing_core_groups"]:
        lines.append("Core metric groups with no value at all: "
                     + ", ".join(GROUP_LABELS.get(g, g) for g in info["missing_core_groups"])
                     + ". Pages that need them say so.")
    lines.append(f"Grid cells (the suite's {fmt.count(len(info['grid_scenarios']), 'scenario')} × the seven "
                 f"metric groups, as the Grid page draws them): {info['grid_cells_measured']:,} measured, "
                 f"{info['grid_cells'] - info['grid_cells_measured']:,} blank, of {info['grid_cells']:,}.")
    heads = summary.headline_counts(release)  # the home page's count, on every model of the suite
    lines.append(f"Model × scenario cells with the scenario's main accuracy metric: {heads['accuracy_measured']:,} of "
                 f"{heads['accuracy_cells']:,} ({fmt.ratio(heads['accuracy_measured'], heads['accuracy_cells'])}), "
                 "the home page's \"Accuracy measured\".")
    return lines


def _scenarios(release, runs) -> Table:
    """The dataset scenario by scenario (helm_core.summary.scenario_table), without the columns that say nothing
    here (a kind every scenario shares, runs on a release that has none)."""
    t = summary.scenario_table(release, runs)
    drop = [c for c, useless in (("kind", t["kind"].nunique() <= 1), ("runs", runs is None)) if useless]
    return Table(t.drop(columns=drop), key="data_scenarios", data_name="dataset_scenarios")


def data_view(ctx: Ctx) -> View:
    info = _summary(ctx)
    if info is None:
        rel = ctx.rel
        return View(point=f"Now showing: {TEXT(rel.name)} (bundled), {fmt.count(len(rel.models), 'model')} on "
                          f"{fmt.count(len(rel.taxonomy.scenario_names), 'scenario')}. Upload your own HELM output "
                          "below to see every page on it.",
                    visual=_scenarios(rel, None), read=READ)
    out = cache.active_output()
    rel = out.release
    rejected = validity.rejected(rel)
    dups = rel.meta.get("duplicates") or []
    left = []
    if len(rejected):
        left.append(fmt.count(len(rejected), "value") + " left out")
    if dups:
        left.append(fmt.count(len(dups), "duplicate run folder"))
    point = (f"Now showing: {TEXT(info['release'])}, {fmt.count(info['models'], 'model')} and "
             f"{fmt.count(info['runs'], 'run')}" + (f" ({', '.join(left)})." if left else "."))
    measured = info["metric_groups_measured"]
    cards = [
        Card("Models", f"{info['models']:,}"),
        Card("Scenarios", f"{info['scenarios']:,}",
             f"{len(info['core_scenarios'])} of classic's 16 core scenarios and "
             f"{fmt.count(len(info['extra_scenarios']), 'other')}."),
        # The same count and wording as the home page's headline: the seven classic groups with a value.
        Card("Metric groups", summary.metric_groups_text(len(measured)),
             f"The seven classic metric groups with at least one value: {taxonomy.groups_phrase(measured)}"
             + (", plus general information (# eval, # train, tokens)."
                if "general_information" in info["metric_groups"] else ".")),
        Card("Runs", f"{info['runs']:,}", f"{info['runs_with_instances']:,} with per-instance files."),
        Card("Instances", f"{info['instances']:,}",
             "Distinct evaluation instances summed over runs (each may have several seeds and perturbations)."),
    ]
    source = ("HELM's leaderboard tables (groups/*.json)" if info["loaded_from"] == "groups"
              else "the runs' stats.json, aggregated as HELM's summarize step does")
    talk = [TEXT(line) for line in _lines(info, rel)]
    read = READ + " " + TEXT(f"Results from {source}: {info['values']:,} values and {info['blanks']:,} blank cells. "
                f"{info['confidences']:,} per-instance probabilities for the calibration page.")
    # The loader's notes, but for the left-out values and duplicate runs, which the details list with their tables.
    told = {validity.rejected_sentence(rejected), *(helm_output.duplicate_sentence(d) for d in dups)}
    notes = [TEXT(n) for n in info["notes"] if n not in told]
    return View(point=point, visual=_scenarios(rel, out.runs if len(out.runs) else None), cards=cards, talk=talk,
                read=read, notes=notes)


# ----------------------------------------------------------------------------- the upload (widgets)


def _load_upload(upload) -> None:
    st.session_state[DONE] = upload.file_id
    st.session_state.pop(ERROR, None)
    problem = None
    try:
        helm_output.check_upload_size(upload.name, upload.size, datasets.UPLOAD_LIMIT_BYTES)  # before reading
        with st.spinner("Reading your HELM output…"):
            key = datasets.load_upload(upload.name, upload.getvalue())
    except DataError as exc:
        problem = str(exc)
    else:
        datasets.use_dataset(key)
        st.session_state[FLASH] = f"Loaded {upload.name}: every page now shows {datasets.dataset_label(key)}."
        st.rerun()
    st.session_state[ERROR] = (upload.file_id, problem)


def _server_path() -> None:
    if not datasets.server_paths_allowed():
        st.caption(
            "Running the app on your own machine? Start it with `streamlit run Home.py -- --helm-output PATH` "
            "(or set HELM_OUTPUT=PATH) to load a folder directly, or set HELM_EXPLORER_LOCAL=1 to type paths here.")
        return
    st.markdown("**Or load from a path on this machine**")
    configured = datasets.configured_output_path()
    if configured:
        st.caption("Started with a HELM output path (`--helm-output` or HELM_OUTPUT):")
        st.code(configured, language=None)
    with st.form("data_path_form", border=False):
        path = st.text_input("Folder, groups .json or .zip on the server", key="data_path",
                             placeholder="benchmark_output/runs/my-suite")
        submitted = st.form_submit_button("Load from path", icon=":material/folder_open:")
    if submitted and path.strip():
        shown = path.strip()[:200]
        try:
            with st.spinner("Reading your HELM output…"):
                key = datasets.load_server_path(path.strip())
        except DataError as exc:
            st.session_state[PATH_ERROR] = str(exc)
        except OSError as exc:
            st.session_state[PATH_ERROR] = f"{shown}: cannot be read ({exc.strerror or exc})"
        else:
            st.session_state.pop(PATH_ERROR, None)
            datasets.use_dataset(key)
            st.session_state[FLASH] = f"Loaded {shown}: every page now shows {datasets.dataset_label(key)}."
            st.rerun()
    if st.session_state.get(PATH_ERROR):
        st.error(TEXT(f"Could not load that path. {st.session_state[PATH_ERROR]}. The app keeps showing "
                      f"{datasets.dataset_label(cache.active_release_key())}."), icon=":material/error:")


def upload_controls(ctx: Ctx) -> None:
    """The upload (and, locally, a server path), with what to upload under it (beside the table on desktop)."""
    flash = st.session_state.pop(FLASH, None)
    if flash:
        st.success(TEXT(flash), icon=":material/check_circle:")
    st.markdown("**Upload a zip of HELM output**")
    st.caption(INTRO)
    # No `type=` filter: Streamlit would raise on a file with another extension sent past the browser's check; the
    # loader itself says what it expected instead.
    upload = st.file_uploader(
        "HELM output (.zip, or one groups .json file)", key="data_upload", max_upload_size=datasets.UPLOAD_LIMIT_MB,
        help="Private to this browser session: other visitors never see it, nothing is written to disk, "
             "and it is gone when the session ends.")
    if upload is not None and st.session_state.get(DONE) != upload.file_id:
        _load_upload(upload)
    err = st.session_state.get(ERROR)
    if upload is not None and err and err[0] == upload.file_id and err[1]:
        st.error(TEXT(f"Could not load this upload. {err[1]}. The app keeps showing "
                      f"{datasets.dataset_label(cache.active_release_key())}."), icon=":material/error:")
    with st.expander("What to upload", icon=":material/help:"):
        st.code(
            "benchmark_output/runs/<suite>/\n"
            "  <run_name>/run_spec.json, stats.json            (required per run)\n"
            "  <run_name>/scenario_state.json,                 (prompts, completions,\n"
            "             per_instance_stats.json               log-probabilities)\n"
            "  <run_name>/display_predictions.json, ...        (after helm-summarize)\n"
            "  groups/core_scenarios.json, ...                 (after helm-summarize)",
            language=None,
        )
        st.caption(
            "HELM's quick start (crfm-helm on PyPI): `helm-run --run-entries mmlu:subject=philosophy,"
            "model=openai/gpt2 --suite my-suite --max-eval-instances 10`, then `helm-summarize --suite my-suite`. "
            "Zip `benchmark_output/runs/my-suite`. A zip of `groups/*.json` leaderboard tables works too.")
    st.caption(
        f"Limits: {datasets.UPLOAD_LIMIT_MB} MB per upload; {helm_output.DEFAULT_MAX_BYTES / 1e6:,.0f} MB and "
        f"{helm_output.DEFAULT_MAX_FILES:,} files unpacked. Archives with absolute paths, '..' or links are "
        "refused, and so is an archive that stores a file twice.")
    _server_path()
    return None


# ----------------------------------------------------------------------------- below: what was loaded, in full


def _bundled_details(ctx: Ctx) -> None:
    loaded = cache.session_dataset_keys()
    bundled = ctx.rel
    if loaded:
        st.info("You loaded HELM output in this session. Switch to it here or with the sidebar's Dataset choice.",
                icon=":material/swap_horiz:")
        for i, k in enumerate(loaded, start=1):
            st.text(datasets.dataset_label(k))
            if st.button(f"Show loaded dataset {i}", key=f"data_use_{k}", icon=":material/swap_horiz:"):
                datasets.use_dataset(k)
                st.rerun()
        return
    st.markdown(
        f"The bundled release is {TEXT(bundled.name)}'s leaderboard "
        f"({len(bundled.models):,} models, {len(bundled.taxonomy.scenario_names)} scenarios; the sidebar's "
        "Release chooses another). It holds the leaderboard tables only, not the per-run files, so the "
        "*Prompts & Completions* page needs output you load here.")


def _left_out(rel) -> None:
    """The values HELM could not have produced (left out at load, by name) and the run folders left out."""
    rejected = validity.rejected(rel)
    if len(rejected):
        st.markdown(TEXT(validity.rejected_sentence(rejected)))
        with st.expander(f"Values left out ({len(rejected):,})", icon=":material/block:"):
            shown = rejected.assign(value=rejected["value"].map(validity.value_text))
            st.dataframe(shown, hide_index=True, width="stretch")
            components.download(shown, "values_left_out", key="data_rejected_csv")
    dups = rel.meta.get("duplicates") or []
    for d in dups:
        st.markdown(TEXT(helm_output.duplicate_sentence(d)))
    if dups:
        with st.expander(f"Run folders left out ({sum(len(d['left_out']) for d in dups):,})",
                         icon=":material/folder_copy:"):
            st.dataframe(helm_output.duplicates_table(dups), hide_index=True, width="stretch")


def loaded_details(ctx: Ctx, view: View, event) -> None:
    out = cache.active_output()
    if out is None:
        _bundled_details(ctx)
        return
    st.divider()
    info = helm_output.summary(out)
    gaps = helm_output.core_gaps(out.release)
    shown = gaps[gaps["scenario"].isin(info["core_scenarios"])]
    if not shown.empty:
        table = shown.pivot(index="scenario", columns="metric_group", values="status").reindex(
            index=info["core_scenarios"], columns=list(CORE_GROUPS))
        table = table.rename(columns=lambda g: GROUP_LABELS.get(g, g)).fillna("not in schema")
        st.caption("Your suite's core scenarios against HELM classic's schema (measured, blank, or not in schema):")
        st.dataframe(table, width="stretch")
    _left_out(out.release)
    with st.expander(f"Models ({info['models']:,})"):
        m = out.release.models[["model", "helm_id", "organization", "access", "params", "release_date"]].copy()
        m["access"] = m["access"].replace("", "unknown")
        st.dataframe(m, hide_index=True, width="stretch")
        if (out.release.models["access"] == "").any():
            st.caption("Models with unknown access are shown when the sidebar's Access filter keeps all three levels.")
    if info["runs"]:
        with st.expander(f"Runs ({info['runs']:,})"):
            cols = ["run", "model", "scenario", "method", "n_instances", "seeds", "perturbations", "instance_files"]
            st.dataframe(pd.DataFrame(out.runs[cols]), hide_index=True, width="stretch")
        st.page_link("app_pages/runs.py", label="Read the prompts and completions of these runs",
                     icon=":material/article:")
    b = st.columns(2)
    bundled_name = cache.RELEASES[cache.release_choice()]  # the sidebar's Release: classic unless chosen
    if b[0].button(f"Back to the bundled {bundled_name}", icon=":material/undo:", key="data_back"):
        datasets.use_dataset(cache.BUNDLED_KEY)
        st.session_state[FLASH] = f"Every page shows the bundled {bundled_name} again."
        st.rerun()
    if b[1].button("Forget this dataset", icon=":material/delete:", key="data_forget",
                   help="Remove it from this session (it was never stored anywhere else)."):
        datasets.forget_dataset(cache.active_release_key())
        st.session_state[FLASH] = f"Removed from this session; every page shows the bundled {bundled_name}."
        st.rerun()


DECK = slides.Deck("data", [
    # Off the presenter route: loading data is not part of the story.
    Slide("data", "Bring Your Own HELM Output", view=data_view, controls=upload_controls, details=loaded_details,
          on_route=False, controls_beside=True),
])

if __name__ == "__main__":
    from ui import layout

    layout.render(DECK)
