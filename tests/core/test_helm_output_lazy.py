"""helm_core.helm_output at scale, lazily: a synthetic suite of 30 runs (bench.synth_suite, from the genuine HELM
runs in tests/fixtures/helm_run_examples) loads from run_spec.json + stats.json alone; a run's instance files are
read when that run is opened, and only that run's; the same inside a zip; progress is reported per run folder."""
from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pandas as pd
import pytest

from bench.synth_suite import make_suite
from helm_core import helm_output as ho
from helm_core.helm_output import archive
from tests.core.helm_output_helpers import SUITE

EXAMPLES = Path(__file__).resolve().parents[1] / "fixtures" / "helm_run_examples"
INSTANCE_FILES = {"scenario_state.json", "per_instance_stats.json", "display_predictions.json",
                  "display_requests.json", "instances.json", "scenario.json"}


@pytest.fixture(scope="module")
def synth(tmp_path_factory) -> Path:
    return make_suite(tmp_path_factory.mktemp("synth") / "suite", 10, 20_000)


@pytest.fixture
def reads(monkeypatch) -> list[str]:
    """Every file a Source reads, by path relative to the input."""
    seen: list[str] = []
    orig = archive.Source.read

    def spy(self, rel):
        seen.append(rel)
        return orig(self, rel)

    monkeypatch.setattr(archive.Source, "read", spy)
    return seen


def _names(paths) -> set[str]:
    return {p.rpartition("/")[2] for p in paths}


def test_synthetic_suite_shape(synth):
    runs = sorted(p.name for p in synth.iterdir())
    assert len(runs) == 30
    assert all((synth / r / "scenario_state.json").stat().st_size >= 20_000 for r in runs)


def test_large_suite_loads_from_run_spec_and_stats_only(synth, reads):
    calls = []
    out = ho.read_helm_output(synth, eager_instance_bytes=0, progress=lambda d, t: calls.append((d, t)))
    assert out.lazy and len(out.runs) == 30 and len(out.release.models) == 10
    assert _names(reads) == {"run_spec.json", "stats.json"}  # not one instance file
    assert len(reads) == 60  # each file once
    assert calls[-1] == (30, 30) and [d for d, _ in calls] == sorted(d for d, _ in calls)
    assert any("read only when a run is opened" in n for n in out.release.meta["notes"])
    assert out.release.meta["instance_confidences"].empty
    # The loaded state names each run's folder and files; it holds no file's bytes.
    assert all(isinstance(v, tuple) and isinstance(v[0], str) for v in out.files.values())
    # Opening one run reads that run's files, and no other run's.
    reads.clear()
    run = out.runs["run"].iloc[4]
    inst = out.instances(run)
    folder = out.files[run][0]
    assert not inst.empty and reads and all(r.startswith(folder + "/") for r in reads)
    assert "scenario_state.json" in _names(reads)


def test_lazy_and_eager_give_the_same_results_and_counts_on_genuine_runs():
    eager = ho.read_helm_output(EXAMPLES)
    lazy = ho.read_helm_output(EXAMPLES, eager_instance_bytes=0)
    assert not eager.lazy and lazy.lazy
    pd.testing.assert_frame_equal(eager.release.results, lazy.release.results)
    pd.testing.assert_frame_equal(eager.run_stats, lazy.run_stats)
    cols = ["run", "n_instances", "n_predictions", "seeds", "has_instances", "instance_files"]
    # HELM's num_instances stat agrees with the instance files of the genuine runs.
    pd.testing.assert_frame_equal(eager.runs[cols], lazy.runs[cols])
    for run in eager.runs["run"]:
        pd.testing.assert_frame_equal(eager.instances(run), lazy.instances(run))


def test_confidences_of_one_run_on_demand_equal_the_eager_ones():
    eager = ho.read_helm_output(SUITE)
    lazy = ho.read_helm_output(SUITE, eager_instance_bytes=0)
    conf = eager.release.meta["instance_confidences"]
    assert not conf.empty
    for run, part in conf.groupby("run", sort=False):
        pd.testing.assert_frame_equal(lazy.confidences(run).reset_index(drop=True), part.reset_index(drop=True))


def _zip(folder: Path) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for p in sorted(folder.rglob("*")):
            if p.is_file():
                z.write(p, "suite/" + p.relative_to(folder).as_posix())
    return buf.getvalue()


def test_zip_members_are_unpacked_on_demand(synth, monkeypatch):
    unpacked: list[str] = []
    orig = archive._ZipSource._read_raw

    def spy(self, rel):
        unpacked.append(rel)
        return orig(self, rel)

    monkeypatch.setattr(archive._ZipSource, "_read_raw", spy)
    out = ho.read_helm_zip(_zip(synth), "synth.zip", eager_instance_bytes=0)
    assert len(out.runs) == 30 and _names(unpacked) == {"run_spec.json", "stats.json"}
    unpacked.clear()
    run = out.runs["run"].iloc[0]
    assert len(out.instances(run)) > 0
    assert unpacked and all(r.startswith("suite/" + out.files[run][0].split("/", 1)[1] + "/") for r in unpacked)


def test_an_instance_file_over_the_per_file_limit_is_refused_when_opened(synth, monkeypatch):
    out = ho.read_helm_output(synth, eager_instance_bytes=0)
    monkeypatch.setattr(archive, "MAX_JSON_BYTES", 10_000)  # under the 20 kB scenario_state.json files
    run = out.runs["run"].iloc[0]
    folder = out.files[run][0]
    with pytest.raises(ho.DataError, match=rf"{folder}/\w+\.json: [\d.]+ MB of JSON is over the per-file limit"):
        out.instances(run)
