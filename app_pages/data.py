"""Bring Your Own HELM Output: upload a zip (or, locally, a server path), see what was loaded, switch back."""
from __future__ import annotations

import pandas as pd
import streamlit as st

from helm_core import fmt, helm_output, summary, taxonomy
from helm_core.data import CORE_GROUPS, GROUP_LABELS, DataError
from ui import cache, components

FLASH = "_data_flash"
DONE = "_data_upload_done"
ERROR = "_data_upload_error"
PATH_ERROR = "_data_path_error"

components.page_header("data")
st.markdown(
    "Run HELM on your own models (`helm-run`, then optionally `helm-summarize`), zip the suite folder and "
    "upload it here. Every page of this app then works on your results: choose the dataset in the sidebar."
)

flash = st.session_state.pop(FLASH, None)
if flash:
    st.success(components.text(flash), icon=":material/check_circle:")

left, right = st.columns([3, 2])
with right:
    st.markdown("**What to upload**")
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
        "HELM's quick start (crfm-helm on PyPI): `helm-run --run-entries mmlu:subject=philosophy,model=openai/gpt2 "
        "--suite my-suite --max-eval-instances 10`, then `helm-summarize --suite my-suite`. Zip "
        "`benchmark_output/runs/my-suite`. A zip of `groups/*.json` leaderboard tables works too."
    )
    st.caption(
        f"Limits: {cache.UPLOAD_LIMIT_MB} MB per upload; {helm_output.DEFAULT_MAX_BYTES / 1e6:,.0f} MB and "
        f"{helm_output.DEFAULT_MAX_FILES:,} files unpacked. Archives with absolute paths, '..' or links are refused."
    )

with left:
    st.markdown("**Upload a zip of HELM output**")
    # No `type=` filter: Streamlit would raise on a file with another extension sent past the browser's
    # check; the loader itself says what it expected instead.
    upload = st.file_uploader(
        "HELM output (.zip, or one groups .json file)", key="data_upload", max_upload_size=cache.UPLOAD_LIMIT_MB,
        help="Private to this browser session: other visitors never see it, nothing is written to disk, "
             "and it is gone when the session ends.",
    )
    if upload is not None and st.session_state.get(DONE) != upload.file_id:
        st.session_state[DONE] = upload.file_id
        st.session_state.pop(ERROR, None)
        problem = None
        try:
            helm_output.check_upload_size(upload.name, upload.size, cache.UPLOAD_LIMIT_BYTES)  # before reading
            with st.spinner("Reading your HELM output…"):
                key = cache.load_upload(upload.name, upload.getvalue())
        except DataError as exc:
            problem = str(exc)
        else:
            cache.use_dataset(key)
            st.session_state[FLASH] = f"Loaded {upload.name}: every page now shows {cache.dataset_label(key)}."
            st.rerun()
        st.session_state[ERROR] = (upload.file_id, problem)
    err = st.session_state.get(ERROR)
    if upload is not None and err and err[0] == upload.file_id and err[1]:
        st.error(components.text(
            f"Could not load this upload. {err[1]}. The app keeps showing "
            f"{cache.dataset_label(cache.active_release_key())}."
        ), icon=":material/error:")

    if cache.server_paths_allowed():
        st.markdown("**Or load from a path on this machine**")
        configured = cache.configured_output_path()
        if configured:
            st.caption("Started with a HELM output path (`--helm-output` or HELM_OUTPUT):")
            st.code(configured, language=None)
        with st.form("data_path_form", border=False):
            path = st.text_input("Folder, groups .json or .zip on the server", key="data_path",
                                 placeholder="benchmark_output/runs/my-suite")
            submitted = st.form_submit_button("Load from path", icon=":material/folder_open:")
        if submitted and path.strip():
            try:
                with st.spinner("Reading your HELM output…"):
                    key = cache.load_server_path(path.strip())
            except DataError as exc:
                st.session_state[PATH_ERROR] = str(exc)
            except OSError as exc:
                st.session_state[PATH_ERROR] = f"{path.strip()[:200]}: cannot be read ({exc.strerror or exc})"
            else:
                st.session_state.pop(PATH_ERROR, None)
                cache.use_dataset(key)
                st.session_state[FLASH] = f"Loaded {path.strip()[:200]}: every page now shows {cache.dataset_label(key)}."
                st.rerun()
        if st.session_state.get(PATH_ERROR):
            st.error(components.text(f"Could not load that path. {st.session_state[PATH_ERROR]}. The app keeps "
                                     f"showing {cache.dataset_label(cache.active_release_key())}."),
                     icon=":material/error:")
    else:
        st.caption(
            "Running the app on your own machine? Start it with `streamlit run Home.py -- --helm-output PATH` "
            "(or set HELM_OUTPUT=PATH) to load a folder directly, or set HELM_EXPLORER_LOCAL=1 to type paths here."
        )

st.divider()
active_key = cache.active_release_key()
out = cache.active_output()
loaded = cache.session_dataset_keys()

if out is None:
    bundled = cache.active_release()
    st.subheader(f"Now showing: {components.text(bundled.name)} (bundled)")
    if loaded:
        st.info("You loaded HELM output in this session. Switch to it here or with the sidebar's Dataset choice.",
                icon=":material/swap_horiz:")
        for i, k in enumerate(loaded, start=1):
            st.text(cache.dataset_label(k))
            if st.button(f"Show loaded dataset {i}", key=f"data_use_{k}", icon=":material/swap_horiz:"):
                cache.use_dataset(k)
                st.rerun()
    else:
        st.markdown(
            f"The bundled release is HELM's {components.text(bundled.name)} leaderboard "
            f"({len(bundled.models):,} models, {len(bundled.taxonomy.scenario_names)} scenarios; the sidebar's "
            "Release chooses another). It holds the leaderboard tables only, not the per-run files, so the "
            "*Prompts & Completions* page needs output you load here."
        )
else:
    info = helm_output.summary(out)
    st.subheader("Now showing: " + components.text(info["release"]))
    c = st.columns(5)
    c[0].metric("Models", f"{info['models']:,}")
    c[1].metric("Scenarios", f"{info['scenarios']:,}",
                help=f"{len(info['core_scenarios'])} of classic's 16 core scenarios and "
                     f"{fmt.count(len(info['extra_scenarios']), 'other')}.")
    # The same count and wording as the home page's headline: the seven classic groups with a value.
    measured_groups = info["metric_groups_measured"]
    c[2].metric("Metric groups", summary.metric_groups_text(len(measured_groups)),
                help=f"The seven classic metric groups with at least one value: "
                     f"{taxonomy.groups_phrase(measured_groups)}"
                     + (", plus general information (# eval, # train, tokens)."
                        if "general_information" in info["metric_groups"] else "."))
    c[3].metric("Runs", f"{info['runs']:,}", help=f"{info['runs_with_instances']:,} with per-instance files.")
    c[4].metric("Instances", f"{info['instances']:,}",
                help="Distinct evaluation instances summed over runs (each may have several seeds and perturbations).")
    source = ("HELM's leaderboard tables (groups/*.json)" if info["loaded_from"] == "groups"
              else "the runs' stats.json, aggregated as HELM's summarize step does")
    st.caption(components.text(
        f"Results from {source}: {info['values']:,} values and {info['blanks']:,} blank cells. "
        f"{info['confidences']:,} per-instance probabilities for the calibration page."
    ))

    st.markdown("**What your suite holds, beside HELM classic's core grid**")
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
    heads = summary.headline_counts(out.release)  # the home page's count, on every model of the suite
    lines.append(f"Model × scenario cells with the scenario's main accuracy metric: {heads['accuracy_measured']:,} of "
                 f"{heads['accuracy_cells']:,} ({fmt.ratio(heads['accuracy_measured'], heads['accuracy_cells'])}), "
                 "the home page's \"Accuracy measured\".")
    for line in lines:
        st.markdown("- " + components.text(line))
    gaps = helm_output.core_gaps(out.release)
    shown = gaps[gaps["scenario"].isin(info["core_scenarios"])]
    if not shown.empty:
        table = shown.pivot(index="scenario", columns="metric_group", values="status").reindex(
            index=info["core_scenarios"], columns=list(CORE_GROUPS))
        table = table.rename(columns=lambda g: GROUP_LABELS.get(g, g)).fillna("not in schema")
        st.caption("Your suite's core scenarios against HELM classic's schema (measured, blank, or not in schema):")
        st.dataframe(table, width="stretch")
    for note in info["notes"]:
        st.caption(components.text(note))

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
        st.page_link("app_pages/runs.py", label="Read the prompts and completions of these runs", icon=":material/article:")

    b = st.columns(2)
    bundled_name = cache.RELEASES[cache.release_choice()]  # the sidebar's Release: classic unless chosen
    if b[0].button(f"Back to the bundled {bundled_name}", icon=":material/undo:", key="data_back"):
        cache.use_dataset(cache.BUNDLED_KEY)
        st.session_state[FLASH] = f"Every page shows the bundled {bundled_name} again."
        st.rerun()
    if b[1].button("Forget this dataset", icon=":material/delete:", key="data_forget",
                   help="Remove it from this session (it was never stored anywhere else)."):
        cache.forget_dataset(active_key)
        st.session_state[FLASH] = f"Removed from this session; every page shows the bundled {bundled_name}."
        st.rerun()

components.onward("data")
