"""Reading a user's own HELM output (`helm-run` / `helm-summarize`) into the project's `Release` shape.

Accepted inputs (`load_helm_output(path)` / `read_helm_output(path)` / `read_helm_zip(data, name)`):

(a) a `groups/<group>.json` file, or a folder of them: HELM's leaderboard tables (a list of tables with
    header cells carrying `value`, `lower_is_better`, `metadata{metric, run_group, perturbation}` and rows
    of cells with `value`, `description`, `markdown`);
(b) a suite folder `runs/<suite>/` of run folders (`run_spec.json`, `stats.json`, and for the instance
    browser `scenario_state.json`, `per_instance_stats.json`, or `display_predictions.json` /
    `display_requests.json` / `instances.json`), or any folder above it (`benchmark_output/`);
(c) a `.zip` archive holding either.

Where both leaderboard tables and run folders are present, the results come from the tables (what HELM
itself shows); the run folders still feed the instance browser and the per-instance confidences.

Reading is lazy (archive.py): a folder is walked once for names and sizes, an archive's central directory is
checked once; the results and the run index come from `run_spec.json` + `stats.json` (+ `groups/*.json`,
`schema.json`), one file at a time; a run's instance files are read when `HelmOutput.instances(run)` /
`confidences(run)` asks for them (at load too when the instance files total at most EAGER_INSTANCE_BYTES, for
exact counts and the calibration page's confidences). No cap on a folder's total size; DEFAULT_MAX_RUNS run
folders; every JSON file within MAX_JSON_BYTES / MAX_JSON_CONTAINERS. The loaded state is the Release, the run
index and the stats table; the source keeps names and sizes (a folder) or the uploaded archive's bytes.

The package mirrors HELM's formats: archive.py (safe folder / zip access, JSON limits), fields.py (typed
access, clean names), stats.py (stats.json, Stat.merge), schema.py (schema.json, metric catalogue, models),
runs.py (run folders into results, the runs and stats tables), groups.py (groups/*.json tables),
instances.py (scenario_state.json / per_instance_stats.json / display files), output.py (HelmOutput, readers,
summaries).

Mapping run folders to results (what HELM's `summarize.py` does for a group table):
- a run belongs to the run groups in `run_spec.groups`; a group that is one of the 16 core scenarios maps
  to that scenario (with the schema's `main_name` / `main_split` from data/scenarios.csv); other groups are
  kept as *extra* scenarios, with `main_name`/`main_split` from the suite's `schema.json` when it is there,
  otherwise guessed (first of exact_match, quasi_exact_match, f1_score, rouge_2, RR@10, NDCG@10 present;
  split test, else valid) and the guess is recorded in `meta["notes"]`;
- a cell is the `Stat.merge` of the matching stat over all runs of that (model, scenario): the mean is
  sum / count, `n_runs` the merged count, `run_min` / `run_max` the merged min / max (as HELM's hover text
  "min=…, mean=…, max=…, sum=… (n)");
- accuracy = the main metric on the main split without perturbation; robustness / fairness = the same
  metric among the stats whose perturbation name is "robustness" / "fairness" (computed on the worst case);
  calibration = `ece_10_bin`, efficiency = `inference_denoised_runtime`, toxicity = `toxic_frac`, bias =
  the four `bias_metric:…` stats, general information = `num_instances` … `num_train_trials`,
  summarization metrics for CNN/DM and XSUM; only the metric groups the schema gives a scenario are kept.

Probabilities (`load_instances`, column `prob`), exactly:
- the run has log-probabilities only if some completion or token log-probability is below 0 (HELM's own
  rule: it skips calibration when every logprob is 0, as local models without logprobs report);
- generation runs: `prob = exp(logprob)` of the completion with the highest logprob, i.e. the
  probability of the whole generated text (HELM's per-instance `max_prob`);
- `multiple_choice_joint`: the chosen letter is the completion text stripped; `prob = exp(logprob)` of
  the first completion token whose stripped text is that letter (falling back to the whole completion's
  logprob when no token matches, e.g. the model wrote something that is not a letter);
  `prob_normalised = exp(lp[chosen]) / Σ_letters exp(lp[letter])` over the answer letters of
  `output_mapping` found in that token's `top_logprobs` (older HELM versions store them; a letter that is
  not among the top-k is left out of the sum, so the value is an upper bound); NaN without top_logprobs;
- `multiple_choice_separate_*` (one request per answer option, and per option a calibration request for
  *_calibrated): one row per instance, not per request; each reference carries its `logprob` (its answer
  tokens in its own request) and `tokens`, and `chosen`; the chosen option (`reference_index`) is HELM's
  per-instance `predicted_index` stat, else recomputed as HELM's metric does (argmax of logprob / tokens,
  or original − calibration logprob), as `choice_source` says; `prob` is the per-instance `max_prob` stat
  HELM computed (a softmax over the options' scores), when logprobs exist;
- without `scenario_state.json` (display files only), `prob` is the per-instance `max_prob` stat when
  the per-instance `logprob` stats show real log-probabilities;
`correct` is HELM's per-instance `exact_match` (as its calibration uses), or, without per-instance
stats, whether the (mapped) prediction, or the chosen option, is a correct reference (whitespace stripped).

Values HELM could not have produced (an `Infinity`, an EM of 1e308 or -3.5, a negative runtime or parameter
count, a confidence outside [0, 1]) are checked by `helm_core.validity` where they are read: each is left out
(no value) and recorded in `release.meta["rejected_values"]` (source, model, scenario, metric, value, reason),
with a note. Two run folders of one run name: one is kept (the groups tables' suite first, else folder order)
and the others named in the notes and `meta["duplicates"]`; an archive member stored twice is refused.
A run's own seeds: `meta["run_trials"]` (num_train_trials per model and scenario) and, when its instance files
are read at load, `meta["trial_values"]` (the main metric per train trial, from per_instance_stats.json).

Every problem a person can fix raises `helm_core.data.DataError` naming the file and the problem.
Archives are read in memory (no temporary files): every member path is checked (no absolute paths, no
"..", no links) and the declared sizes and file count are checked against the limits before anything is
read; a member that unpacks to more than its declared size is refused.
"""
from __future__ import annotations

from ..data import RESULT_COLUMNS, DataError
from .archive import (DEFAULT_MAX_BYTES, DEFAULT_MAX_FILES, DEFAULT_MAX_RUNS, DEFAULT_MAX_UPLOAD_BYTES,
                      MAX_JSON_BYTES, MAX_JSON_CONTAINERS, RUN_FILES)
from .fields import clean_name
from .instances import (INSTANCE_COLUMNS, describe_prob, filter_instances, instance_confidences,
                        instance_stats_table, load_instances, search_instances)
from .output import (DUPLICATE_COLUMNS, EAGER_INSTANCE_BYTES, HelmOutput, check_upload_size, core_gaps,
                     duplicate_sentence, duplicates_table, load_helm_output, read_helm_output, read_helm_upload,
                     read_helm_zip, run_headline, summary)
from .runs import RUN_COLUMNS, STAT_COLUMNS
from .schema import GROUP_STATS, KNOWN_GROUPS, METRICS, core_scenarios

__all__ = [
    "DEFAULT_MAX_BYTES", "DEFAULT_MAX_FILES", "DEFAULT_MAX_RUNS", "DEFAULT_MAX_UPLOAD_BYTES", "DUPLICATE_COLUMNS",
    "DataError", "duplicate_sentence", "duplicates_table",
    "EAGER_INSTANCE_BYTES", "GROUP_STATS", "HelmOutput",
    "INSTANCE_COLUMNS", "KNOWN_GROUPS", "MAX_JSON_BYTES", "MAX_JSON_CONTAINERS", "METRICS", "RESULT_COLUMNS",
    "RUN_COLUMNS", "RUN_FILES", "STAT_COLUMNS", "check_upload_size", "clean_name", "core_gaps", "core_scenarios",
    "describe_prob", "filter_instances", "instance_confidences", "instance_stats_table", "load_helm_output",
    "load_instances", "read_helm_output", "read_helm_upload", "read_helm_zip", "run_headline", "search_instances",
    "summary",
]
