"""The HELM output browser of the Runs page: any suite's runs, filtered by outcome and metric, one instance at a time
with its prompt and completion as text, and two runs compared (app_pages/runs.py declares the page's slides)."""
from __future__ import annotations

import json
import math

import pandas as pd
import streamlit as st

from helm_core import fmt as hfmt
from helm_core import helm_output, real_runs
from ui import cache, components, state
from ui import real_runs as bundled

ALL = "all"
ORIGINAL = "original"
BUNDLED = (bundled.SAFETY, bundled.BABI)
OUTCOMES = {"all": None, "correct": 1.0, "incorrect": 0.0, "not graded": "nan"}
NO_METRIC = "(none)"
NO_COMPARE = "(none)"
NOT_A_CHOICE = "(not one of the choices)"


def split(runs: pd.DataFrame, col: str) -> list[str]:
    """The distinct values of a comma-joined column of the runs table (seeds, perturbations)."""
    return sorted({p for v in runs[col] for p in str(v).split(",") if p}, key=lambda x: (len(x), x))


def outcome_filters(shown: pd.DataFrame) -> pd.DataFrame:
    """The correct / incorrect and split filters of the instance browser."""
    c = st.columns(2)
    state.allow("runs_outcome", OUTCOMES)
    outcome = c[0].segmented_control("Outcome", list(OUTCOMES), default="all", required=True, key="runs_outcome",
                                     bind="query-params", help="HELM's per-instance exact_match (or its quasi "
                                     "variant); 'not graded': the run scores instances otherwise (XSTest's judges).") or "all"
    splits = ["all", *sorted({x for x in shown["split"] if x})]
    state.allow("runs_split", lambda v: len(v) <= 40)
    split = c[1].selectbox("Split", splits, key="runs_split", bind="query-params")
    return real_runs.filter_outcome(shown, OUTCOMES[outcome], None if split == "all" else split)


def fmt(stat: str, value: float) -> str:
    if math.isnan(value):
        return "–"
    if stat in ("num_instances", "num_train_instances"):
        return f"{value:,.0f}" if float(value).is_integer() else f"{value:,.1f}"
    if stat in ("num_prompt_tokens", "num_output_tokens"):
        return f"{value:,.1f}"
    if "runtime" in stat:
        return hfmt.seconds(value)
    return f"{value:.3f}"


def metric_filter(shown: pd.DataFrame, everything: pd.DataFrame) -> pd.DataFrame:
    """Filter the instances `shown` by any per-instance metric of the run (HELM's per_instance_stats.json): pick
    the metric, then a range of its values (the slider spans the run's `everything`, so other filters do not
    move it)."""
    names = real_runs.instance_metrics(everything)
    if not names:
        return shown
    c = st.columns([1, 2])
    state.allow("runs_metric", [NO_METRIC, *names])
    if st.session_state.get("runs_metric") not in (NO_METRIC, *names):
        st.session_state.pop("runs_metric", None)
    name = c[0].selectbox("Filter by a per-instance metric", [NO_METRIC, *names], key="runs_metric",
                          bind="query-params", help="Any statistic of this run's per_instance_stats.json: keep the "
                          "instances whose value lies in the chosen range.")
    if name == NO_METRIC:
        return shown
    values = real_runs.metric_values(everything, name).dropna()
    lo, hi = float(values.min()), float(values.max())
    if lo == hi:
        c[1].caption(components.text(f"Every instance shown with {name} has the value {lo:g}."))
        return real_runs.filter_metric(shown, name)
    rng = c[1].slider(f"{name} between", min_value=lo, max_value=hi, value=(lo, hi),
                      key=f"runs_metric_range_{name}", format="%.4g")
    out = real_runs.filter_metric(shown, name, rng[0], rng[1])
    n = int(real_runs.metric_values(shown, name).notna().sum())
    c[1].caption(f"{hfmt.count(len(out), 'instance')} of {n:,} with this metric in range.")
    return out


def headline_sentence(head: pd.DataFrame) -> str:
    """How many of the headline statistics looked for (helm_output.run_headline) the run's stats.json holds, and
    which it lacks."""
    wanted = list(head.attrs.get("wanted", head["label"]))
    have = set(head["label"])
    missing = [w for w in wanted if w not in have]
    if not have:
        return (f"This run's stats.json holds none of the {hfmt.count(len(wanted), 'headline statistic')} looked for "
                f"({components.text(hfmt.names(wanted))}).")
    return (f"This run's stats.json holds {len(have)} of the {hfmt.count(len(wanted), 'headline statistic')} looked "
            "for" + (f"; not in it: {components.text(hfmt.names(missing))}." if missing else "."))


def static_table(df: pd.DataFrame) -> None:
    """A run file's small table as st.table, its text cells escaped (st.table renders Markdown in cells). Not
    st.dataframe: every data grid numbers its cells from glide-cell-0-0, so two grids on one page repeat the ids
    of focusable cells (axe duplicate-id-active), and a short table needs no grid."""
    text = [c for c in df.columns if pd.api.types.is_object_dtype(df[c]) or pd.api.types.is_string_dtype(df[c])]
    st.table(df.assign(**{c: df[c].map(lambda v: components.text(v) if isinstance(v, str) else v) for c in text}),
             hide_index=True)


def adapter_table(spec: str) -> None:
    """The run's adapter settings HELM users read first, from its run_spec.json."""
    details = real_runs.adapter_details(spec)
    if details.empty:
        st.caption("This run's run_spec.json has no adapter settings.")
        return
    static_table(details[["setting", "value"]])
    st.caption("Values as in run_spec.json.")


def compare_runs(runs: pd.DataFrame, row: pd.Series, src: str) -> None:
    """Two runs side by side: this run and another of the same source, aligned by HELM's instance id."""
    run = str(row["run"])
    others = runs[(runs["run"] != run) & runs["has_instances"] & (runs["source"] == src)]
    if others.empty:
        return
    # Same scenario and model first (e.g. joint vs separate), then same scenario, then the rest.
    rank = (others["scenario"] != row["scenario"]).astype(int) * 2 + (others["model"] != row["model"]).astype(int)
    others = others.assign(_r=rank.to_numpy()).sort_values(["_r", "run"], kind="stable")
    opts = [NO_COMPARE, *others["run"].tolist()]
    state.allow("runs_compare", set(runs["run"]) | {NO_COMPARE})
    if st.session_state.get("runs_compare") not in opts:
        st.session_state.pop("runs_compare", None)
    st.markdown("**Two runs side by side**")
    other = st.selectbox("Compare with another run, aligned by instance id", opts, key="runs_compare",
                         bind="query-params", help="Runs of the same scenario and model come first: e.g. the same "
                                                   "model's multiple_choice_joint and multiple_choice_separate runs.")
    if other == NO_COMPARE:
        return
    orow = runs[runs["run"] == other].iloc[0]
    source = src if src in BUNDLED else None
    with st.spinner("Reading both runs' instance files…"):
        a = cache.run_instances(run, source)
        b = cache.run_instances(other, source)
    names = [n for n in real_runs.instance_metrics(a) if n in set(real_runs.instance_metrics(b))]
    stat = next((n for n in ("max_prob", "logprob") if n in names), None)
    aligned = real_runs.align_runs(a, b, stat)
    counts = real_runs.alignment_counts(aligned)
    diff = real_runs.adapter_differences(row["adapter_spec"], orow["adapter_spec"])
    st.caption(components.text(
        f"A: {row['model']} · {row['scenario']} · {row['method'] or 'method unknown'}   vs   "
        f"B: {orow['model']} · {orow['scenario']} · {orow['method'] or 'method unknown'}"))
    if aligned.empty:
        st.info("The two runs share no instance id (original instances, first trial).", icon=":material/info:")
        return
    c = st.columns(4)
    c[0].metric("Shared instances", f"{counts['n']:,}")
    c[1].metric("Both correct", f"{counts['both']:,}", help=f"of {counts['graded']:,} graded in both runs")
    c[2].metric("Only A correct", f"{counts['only_a']:,}")
    c[3].metric("Only B correct", f"{counts['only_b']:,}")
    st.caption(f"Same answer (after HELM's normalisation) on {counts['agree']:,} of {counts['n']:,}; both wrong on "
               f"{counts['neither']:,}. Each run's original instances, first trial.")
    if not diff.empty:
        st.markdown("Adapter settings that differ")
        static_table(diff[["setting", "a", "b"]].rename(columns={"a": "A", "b": "B"}))
    show = aligned.assign(correct_a=aligned["correct_a"].map(verdict), correct_b=aligned["correct_b"].map(verdict))
    cfg = {"input": st.column_config.TextColumn("input", width="medium"),
           "answer_a": "A answer", "correct_a": "A", "answer_b": "B answer", "correct_b": "B",
           "agree": st.column_config.CheckboxColumn("same answer")}
    if stat:
        cfg[f"{stat}_a"] = st.column_config.NumberColumn(f"A {stat}", format="%.3f")
        cfg[f"{stat}_b"] = st.column_config.NumberColumn(f"B {stat}", format="%.3f")
    st.dataframe(show, hide_index=True, width="stretch", column_config=cfg, placeholder="–")


def browse(outs: dict, *, cohort: bool) -> None:
    """The instance browser over the run folders of `outs` (source key -> HelmOutput): pick a run, then its
    instances. `cohort`: limit the runs to the sidebar's cohort (the active release's models)."""
    frames = [o.runs.assign(source=k) for k, o in outs.items()]
    all_runs = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()
    runs = all_runs
    if cohort:
        models = set(cache.active_models())
        runs = runs[runs["model"].isin(models)]
    if runs.empty:
        st.info("No run of the loaded dataset belongs to a model in the sidebar's cohort and access filter. "
                "Widen the filter to see the runs.", icon=":material/filter_alt_off:")
        return
    st.markdown("**Pick a run**")
    f = st.columns(4)
    # In the URL, so a leaderboard cell can open its runs (model and scenario as the runs table names them).
    scen_opts = [ALL, *sorted(runs["scenario"].unique())]
    model_opts = [ALL, *sorted(runs["model"].unique())]
    state.allow("runs_scenario", scen_opts)
    state.allow("runs_model", model_opts)
    for key, opts in (("runs_scenario", scen_opts), ("runs_model", model_opts)):
        if st.session_state.get(key) not in opts:
            st.session_state.pop(key, None)
    scen = f[0].selectbox("Scenario", scen_opts, key="runs_scenario", bind="query-params")
    model = f[1].selectbox("Model", model_opts, key="runs_model", bind="query-params")
    seed_opts = [ALL, *split(runs, "seeds")]
    seed = f[2].selectbox("Seed (in-context examples)", seed_opts, key="runs_seed",
                          help="HELM's train_trial_index: each seed samples its own in-context examples.")
    pert_opts = [ALL, ORIGINAL, *split(runs, "perturbations")]
    pert = f[3].selectbox("Perturbation", pert_opts, key="runs_perturbation",
                          help="'original' = unperturbed instances; others are HELM's robustness / fairness perturbations.")

    sel = runs
    if scen != ALL:
        sel = sel[sel["scenario"] == scen]
    if model != ALL:
        sel = sel[sel["model"] == model]
    if seed != ALL:
        sel = sel[sel["seeds"].map(lambda v: seed in str(v).split(","))]
    if pert not in (ALL, ORIGINAL):
        sel = sel[sel["perturbations"].map(lambda v: pert in str(v).split(","))]
    if sel.empty:
        st.info("No run matches these filters.", icon=":material/filter_alt_off:")
        return

    run_ids = sel["run"].tolist()
    # Validated against every run of the dataset: a run the filters hide is not a bad link.
    state.allow("run", set(all_runs["run"]))
    run = st.selectbox(f"Run ({len(run_ids):,} match)", run_ids, key="run", bind="query-params")
    row = sel[sel["run"] == run].iloc[0]

    st.caption(components.text(
        f"{row['model']} · {row['scenario']} · method {row['method'] or 'unknown'} · "
        f"{int(row['n_instances']):,} instances · files: {row['instance_files'] or 'stats only'}"
    ))

    src = str(row["source"])
    out = outs[src]
    head = helm_output.run_headline(out, run)
    left, right = st.columns([3, 2])
    with left:
        if head.empty:
            st.info(headline_sentence(head), icon=":material/info:")
        else:
            cols = st.columns(min(len(head), 4))
            for i, h in enumerate(head.itertuples(index=False)):
                cols[i % len(cols)].metric(h.label, fmt(h.stat, h.value),
                                           help=f"stats.json: {h.stat}, split {h.split}, count {h.count:g}")
            st.caption(headline_sentence(head))
            if head.attrs.get("copies_left_out"):
                st.caption("No perturbation was run, so the robustness and fairness rows of stats.json are copies "
                           "of the plain metric (HELM's worst case over no perturbation) and are not shown here.")
    with right:
        st.markdown("**Run spec** (run_spec.json adapter)")
        adapter_table(row["adapter_spec"])
    # Lazy: a closed plain expander still ships the table, and the browser loaded its data-grid code every time.
    stats_box = components.lazy_expander("All of this run's stats.json", key="runs_stats_table")
    if stats_box is not None:
        with stats_box:
            static_table(out.run_stats[out.run_stats["run"] == run].drop(columns="run"))

    if not bool(row["has_instances"]):
        st.info("This run folder has no per-instance files (scenario_state.json or display_predictions.json), so "
                "there are no prompts or completions to show.", icon=":material/info:")
        return

    compare_runs(sel if len(sel) > 1 else runs, row, src)
    with st.spinner("Reading this run's instance files…"):
        cache.run_instances(run, src if src in BUNDLED else None)
    st.subheader("Instances")
    q = st.text_input("Search in input, prompt, completion and references", key="runs_search",
                      placeholder="a word or phrase (case-insensitive)")
    seed_v = int(seed) if seed != ALL else None
    pert_v = None if pert == ALL else ("" if pert == ORIGINAL else pert)
    shown = cache.filtered_instances(run, seed_v, pert_v, q.strip()[:200], src if src in BUNDLED else None)
    shown = metric_filter(outcome_filters(shown), cache.run_instances(run, src if src in BUNDLED else None))
    if shown.empty:
        st.info("No instance of this run matches the seed, perturbation, search and filters.",
                icon=":material/search_off:")
        return

    n = len(shown)
    # Any page number is a fair link; one past the end (after a filter change) falls back to the first.
    state.allow("instance", lambda v: v.isdigit() and 1 <= int(v) <= 10_000_000)
    page = st.pagination(n, key="instance", bind="query-params", max_visible_pages=7)
    i = min(max(int(page), 1), n) - 1
    x = shown.iloc[i]
    st.caption(components.text(
        f"Instance {i + 1:,} of {n:,} · id {x['instance_id']} · split {x['split'] or '–'} · seed {x['train_trial_index']} · "
        f"perturbation {x['perturbation'] or 'none (original)'}"
        + (f" · chose option {int(x['reference_index']) + 1} of {len(x['references'])}"
           if str(x["method"]).startswith("multiple_choice_separate") and not pd.isna(x["reference_index"])
           else f" · reference {int(x['reference_index'])} ({x['request_mode']})" if not pd.isna(x["reference_index"])
           else "")
    ))

    left, right = st.columns([3, 2])
    with left:
        st.markdown("**Input**")
        if x["input"]:
            st.code(x["input"], language=None, wrap_lines=True)
        else:
            st.caption("The run's files hold no input text for this instance.")
        st.markdown(f"**Prompt as sent** ({len(x['prompt']):,} characters)")
        if x["prompt"]:
            st.code(x["prompt"], language=None, wrap_lines=True, height=320 if x["prompt"].count("\n") > 14 else "content")
        else:
            st.caption("The run's files hold no prompt for this instance (display_requests.json is missing)."
                       + (" " + components.text(bundled.source(src).note) if src in BUNDLED else ""))
        comps = list(x["completions"]) if isinstance(x["completions"], list) else []
        st.markdown("**Completion**" + (f" (first of {len(comps)})" if len(comps) > 1 else ""))
        st.code(x["completion"] if x["completion"] != "" else "(empty completion)", language=None, wrap_lines=True)
        if len(comps) > 1:
            with st.expander(f"All {len(comps)} completions"):
                for c in comps:
                    st.code(c, language=None, wrap_lines=True)
        if x["mapped_output"]:
            st.text("Maps to the choice: " + x["mapped_output"])
    with right:
        c = st.columns(2)
        correct = x["correct"]
        c[0].metric("Correct", "–" if pd.isna(correct) else ("yes ✓" if correct >= 1 else "no ✗"),
                    help="HELM's per-instance exact_match when present; otherwise whether the (mapped) completion "
                         "equals a correct reference.")
        prob = x["prob"]
        c[1].metric("P(chosen answer)", "–" if pd.isna(prob) else f"{prob:.1%}", help=helm_output.describe_prob(x))
        if not pd.isna(x["prob_normalised"]):
            st.caption(f"Normalised over the answer letters in the top log-probabilities: {x['prob_normalised']:.1%}.")
        if pd.isna(prob):
            st.caption(helm_output.describe_prob(x))
        refs = x["references"] if isinstance(x["references"], list) else []
        st.markdown(f"**References** ({len(refs)})")
        if refs:
            table = {"choice": [r["label"] for r in refs],
                     "correct": ["✓ correct" if r["correct"] else "" for r in refs],
                     "reference": [r["text"] for r in refs]}
            if any("chosen" in r for r in refs):  # multiple_choice_separate_*: one request per option
                table["chosen"] = ["◀ chosen" if r.get("chosen") else "" for r in refs]
                table["log-prob"] = [r.get("logprob") for r in refs]
                table["tokens"] = [r.get("tokens") for r in refs]
            refs_df = pd.DataFrame(table)
            if "log-prob" in refs_df:
                refs_df["log-prob"] = refs_df["log-prob"].map(lambda v: "–" if pd.isna(v) else f"{v:.3f}")
            static_table(refs_df)
            if "log-prob" in refs_df:
                st.caption("log-prob: the sum of the log-probabilities of the option's tokens in its own request.")
            if x.get("choice_source"):
                st.caption(components.text(f"Chosen option: {x['choice_source']}. Scored as HELM does for "
                                           f"{x['method']}: each option's log-probability per token, highest wins."
                                           if x["method"].endswith("original") else
                                           f"Chosen option: {x['choice_source']}."))
        else:
            st.caption("The run's files hold no references for this instance.")
        st.markdown("**Per-instance stats**")
        stats = x["stats"] if isinstance(x["stats"], dict) else {}
        if stats:
            static_table(helm_output.instance_stats_table(stats))
        else:
            st.caption("No per-instance stats for this instance (per_instance_stats.json is missing).")

    with st.expander("The run's configuration (run_spec.json adapter_spec)"):
        st.text(f"run {row['run_name']}\nmodel {row['model_id']}\nseeds {row['seeds'] or '–'}\n"
                f"perturbations {row['perturbations'] or 'none'}")
        st.code(row["adapter_spec"], language="json", wrap_lines=True)


def verdict(correct: float) -> str:
    return "–" if pd.isna(correct) else ("✓ correct" if correct >= 1 else "✗ incorrect")


def label(inputs: dict, iid: str) -> str:
    text = " ".join(str(inputs.get(iid, "")).split())
    return f"{iid} · {text[:70]}" + ("…" if len(text) > 70 else "")
