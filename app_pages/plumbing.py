"""HELM As Evaluation Plumbing: the same exam for every model, and what HELM publishes."""
from __future__ import annotations

import streamlit as st

from helm_core import fmt, summary, taxonomy
from ui import cache, charts, components, nav, presenter
from ui import real_runs as bundled

headline_counts = cache.on_release(summary.headline_counts)
exam_matrix = cache.on_release(summary.exam_matrix)
blank_sentence = cache.on_release(summary.blank_sentence)

components.page_header("")
rel = cache.active_release()
models = cache.active_models()

if not components.has_models(models, "the exam"):
    components.onward("")
    st.stop()

def headline() -> None:
    counts = headline_counts(models)
    c = st.columns(5)
    c[0].metric("Models", f"{counts['models']:,}")
    c[1].metric("Organizations", f"{counts['organizations']:,}")
    # "Core scenarios" only where they are classic's core scenarios; any other release counts its own.
    c[2].metric("Core scenarios" if rel.is_classic else "Scenarios", f"{counts['scenarios']:,}",
                help=components.text(f"{rel.name} has {taxonomy.scenarios_phrase(rel)}."))
    groups = counts["metric_groups_measured"]
    c[3].metric("Metric groups", summary.metric_groups_text(groups, counts["metric_groups"]),
                help="The seven classic metric groups with at least one value for these models: "
                     + taxonomy.groups_phrase(taxonomy.groups_with_values(rel, models)) + ".")
    c[4].metric("Accuracy measured", fmt.ratio(counts["accuracy_measured"], counts["accuracy_cells"]),
                help=components.text(summary.coverage_help(counts, taxonomy.schema_name(rel))))
    books = summary.bookkeeping_metrics(rel)
    st.caption(components.text(
        f"Computed from {rel.name}: {fmt.count(counts['metric_values'], 'metric value')} and "
        f"{fmt.count(counts['metric_blank'], 'blank')} are kept side by side, because a blank says what HELM "
        f"could not measure."
        + (f" Apart from them, HELM's \"General information\" bookkeeping columns ({', '.join(books)}) hold "
           f"{fmt.count(counts['bookkeeping_values'], 'value')} and {fmt.count(counts['bookkeeping_blank'], 'blank')}."
           if books else "")
    ))


def exam_chart(compact: bool) -> None:
    if not compact:
        st.subheader("The same exam for every model")
        n_scen = len(rel.taxonomy.scenario_names)
        st.markdown(
            f"Each row is a model, each column one of the {n_scen} scenarios of {components.text(rel.name)}. "
            "A dot means HELM has the scenario's "
            "main accuracy metric for that model; a thin × means it does not. The columns are the same for everyone: "
            "same prompts, same in-context examples, same metrics."
        )
    exam = exam_matrix(models)
    order = [m for m in rel.model_names if m in set(models)]
    # Presenter mode: scenarios on rows, models on columns, so the whole exam fits one screen.
    fig = charts.exam_dot_matrix(exam, order, rel.taxonomy.scenario_names, transpose=compact,
                                 height=presenter.chart_height(470) if compact else None)
    n_blank = int((~exam["measured"]).sum())
    components.chart(
        fig, key="plumbing_exam",
        alt=(f"Dot matrix of {len(order)} models by {len(rel.taxonomy.scenario_names)} scenarios: "
             f"{int(exam['measured'].sum())} measured cells and {n_blank} blank ones."),
        data=exam[["model", "scenario", "metric", "value", "measured"]], data_name="same_exam",
    )
    sentence = blank_sentence(models)
    if sentence:
        st.caption(components.text(sentence))


if presenter.is_on():
    exam_chart(compact=True)
    headline()
else:
    headline()
    exam_chart(compact=False)

st.subheader("What HELM publishes for every run")
left, right = st.columns(2)
with left:
    st.markdown(
        "- **The request**: the exact prompt sent to the model, with its instructions, in-context examples "
        "and decoding parameters (`display_requests.json`).\n"
        "- **The completion**: what the model returned, and the answer it was mapped to (`display_predictions.json`).\n"
        "- **Per-instance statistics**: every metric for every test instance and seed (`per_instance_stats.json`).\n"
        "- **The blanks**: cells with no value stay in the tables, with the reason (\"No matching runs\")."
    )
with right:
    components.claim("headline_release")
    components.claim("headline_models", compact=True)
bundled.example_card()  # one genuine prompt → completion from the bundled HELM runs, linked to all 9 models

st.subheader("Where to go next")
later = not cache.active_release().is_classic
for spec in nav.available_pages()[1:]:
    st.page_link(spec.file, label=f"{nav.title(spec, later)}: {nav.takeaway(spec, later)}", icon=spec.icon)
