"""helm_core.helm_output.archive / output: zips, folders and uploads, their limits, and a clear DataError
for every kind of bad input (abuse cases and seeded fuzz)."""
from __future__ import annotations

import json
import os
import shutil
import tempfile

import pandas as pd
import pytest

from helm_core import helm_output as ho
from helm_core.data import DataError
from tests.core.helm_output_helpers import (BOOLQ, FIX, GROUPS, MMLU, SUITE, _write, _zip_of, runs_output, suite,
                                            zip_folder, zip_members)


# ----------------------------------------------------------------------------- zips and folders


def test_zip_matches_folder(runs_output):
    data = zip_folder(SUITE)
    z = ho.read_helm_zip(data, "demo.zip")
    pd.testing.assert_frame_equal(z.release.results, runs_output.release.results)
    assert z.release.name == "Your HELM output (demo.zip)"
    assert z.digest == ho.read_helm_zip(data, "other-name.zip").digest  # content hash, not the name
    assert len(z.runs) == 3 and z.instances(MMLU).shape[0] == 6


def test_zip_path_on_disk(tmp_path):
    p = tmp_path / "suite.zip"
    p.write_bytes(zip_folder(SUITE))
    rel = ho.load_helm_output(p)
    assert rel.meta["kind"] == "uploaded" and len(rel.models) == 3


def test_no_temporary_files(monkeypatch):
    def refuse(*a, **k):
        raise AssertionError("the loader must not write temporary files")

    for name in ("mkstemp", "mkdtemp", "TemporaryDirectory", "NamedTemporaryFile", "TemporaryFile"):
        monkeypatch.setattr(tempfile, name, refuse)
    out = ho.read_helm_zip(zip_folder(SUITE), "demo.zip")
    assert len(out.runs) == 3


def test_helm_latest_link_is_skipped(tmp_path):
    runs = tmp_path / "runs"
    shutil.copytree(SUITE, runs / "demo")
    os.symlink("demo", runs / "latest")
    out = ho.read_helm_output(runs)
    assert len(out.runs) == 3  # not 6: the link is not followed
    assert any("latest" in n for n in out.release.meta["notes"])


ERROR_ZIPS = [
    ("traversal", [("../evil/stats.json", b"[]")], None, "outside the archive"),
    ("traversal_backslash", [("demo\\..\\..\\evil.json", b"[]")], None, "outside the archive"),
    ("absolute", [("/etc/stats.json", b"[]")], None, "absolute path"),
    ("drive_letter", [("C:/x/stats.json", b"[]")], None, "absolute path"),
    ("symlink", [("demo/run_spec.json", b"{}")], "demo/stats.json", "symbolic link"),
    ("no_files", [], None, "archive is empty"),
    ("unrelated_files", [("notes.txt", b"hello"), ("img/a.png", b"\x89PNG")], None, "no HELM output found"),
]


@pytest.mark.parametrize("case, members, link, message", ERROR_ZIPS, ids=[c[0] for c in ERROR_ZIPS])
def test_bad_archives(case, members, link, message):
    data = zip_members(members, symlink=link)
    with pytest.raises(DataError, match=message) as e:
        ho.read_helm_zip(data, f"{case}.zip")
    assert f"{case}.zip" in str(e.value)


def test_zip_bomb_like_archive_is_refused_before_reading():
    # 50 MB of zeros compresses to ~50 KB: the declared size is checked against the limit first.
    data = zip_members([("demo/stats.json", b"0" * 50_000_000)])
    assert len(data) < 1_000_000
    with pytest.raises(DataError, match="unpacks to 50.0 MB, over the limit of 10.0 MB"):
        ho.read_helm_zip(data, "bomb.zip", max_bytes=10_000_000)


def test_archive_with_too_many_files():
    data = zip_members([(f"demo/f{i}.txt", b"x") for i in range(30)])
    with pytest.raises(DataError, match="30 files, over the limit of 20"):
        ho.read_helm_zip(data, "many.zip", max_files=20)


def test_folder_has_no_total_size_cap_but_a_per_file_limit_and_a_run_cap(suite, monkeypatch):
    # A folder is not capped by its total size (max_bytes bounds archives only): it loads.
    assert len(ho.read_helm_output(suite, max_bytes=1000, max_files=5).runs) == 3
    # Each file read is checked against the per-file JSON limit, named, before it is read.
    monkeypatch.setattr(ho.archive, "MAX_JSON_BYTES", 2_000)
    big = (suite / MMLU / "stats.json").stat().st_size
    assert big > 2_000
    with pytest.raises(DataError, match=r"/stats\.json: [\d.]+ MB of JSON is over the per-file limit"):
        ho.read_helm_output(suite)
    monkeypatch.undo()
    # The number of run folders is capped (DEFAULT_MAX_RUNS), and the message says how to proceed.
    with pytest.raises(DataError, match="3 run folders, over the limit of 2 per dataset"):
        ho.read_helm_output(suite, max_runs=2)


def test_member_lying_about_its_size():
    spec = json.dumps({"name": "x", "adapter_spec": {"model": "m/x"}}).encode()
    data = bytearray(zip_members([("demo/run_spec.json", spec), ("demo/stats.json", b"[" + b" " * 5000 + b"]")]))
    # Shrink the declared size in the central directory: reading stops at the declared size and the
    # member is reported, instead of trusting more bytes than were declared.
    cd = data.rfind(b"PK\x01\x02")
    data[cd + 24: cd + 28] = (10).to_bytes(4, "little")
    with pytest.raises(DataError, match=r"liar\.zip: member 'demo/stats\.json' (cannot be read|unpacks to more)"):
        ho.read_helm_zip(bytes(data), "liar.zip")


def test_upload_over_the_limit():
    with pytest.raises(DataError, match=r"big\.zip: 0\.0 MB is over the upload limit"):
        ho.read_helm_zip(b"PK" + b"\0" * 2000, "big.zip", max_upload_bytes=1000)


@pytest.mark.parametrize("name, data, message", [
    ("empty.zip", b"", "file is empty"),
    ("random.zip", bytes(range(256)) * 8, "not a readable zip archive"),
    ("truncated.zip", zip_folder(SUITE)[:300], "not a readable zip archive"),
])
def test_not_a_zip(name, data, message):
    with pytest.raises(DataError, match=message) as e:
        ho.read_helm_zip(data, name)
    assert name in str(e.value)


@pytest.mark.parametrize("filename, content, message", [
    ("empty.json", b"", "file is empty"),
    ("random.zip", os.urandom(64) + b"not a zip", "not a readable zip archive"),
    ("notes.txt", b"hello", "expected a .zip archive, a groups .json file or a folder"),
])
def test_bad_single_files(tmp_path, filename, content, message):
    p = _write(tmp_path / filename, content)
    with pytest.raises(DataError, match=message):
        ho.read_helm_output(p)


def test_missing_path(tmp_path):
    with pytest.raises(DataError, match="no such file or folder"):
        ho.read_helm_output(tmp_path / "nope")


def test_empty_folder(tmp_path):
    (tmp_path / "empty").mkdir()
    with pytest.raises(DataError, match="empty: the folder is empty"):
        ho.read_helm_output(tmp_path / "empty")


def test_symlink_in_folder(suite, tmp_path):
    target = _write(tmp_path / "outside.json", "[]")
    os.symlink(target, suite / "escape.json")
    with pytest.raises(DataError, match="escape.json is a symbolic link"):
        ho.read_helm_output(suite)


def test_symlinked_folder_in_folder(suite, tmp_path):
    (tmp_path / "elsewhere").mkdir()
    os.symlink(tmp_path / "elsewhere", suite / "linked")
    with pytest.raises(DataError, match="linked is a symbolic link"):
        ho.read_helm_output(suite)


@pytest.mark.parametrize("file, message", [
    ("stats.json", "stats.json: file is missing"),
    ("run_spec.json", "run_spec.json: file is missing"),
])
def test_missing_required_file(suite, file, message):
    (suite / MMLU / file).unlink()
    with pytest.raises(DataError, match=message) as e:
        ho.read_helm_output(suite)
    assert MMLU in str(e.value)


@pytest.mark.parametrize("rel, message", [
    (f"{MMLU}/stats.json", "stats.json: malformed JSON"),
    (f"{MMLU}/run_spec.json", "run_spec.json: malformed JSON"),
    (f"{MMLU}/scenario_state.json", "scenario_state.json: malformed JSON"),
    (f"{BOOLQ}/per_instance_stats.json", "per_instance_stats.json: malformed JSON"),
    ("schema.json", "schema.json: malformed JSON"),
])
def test_malformed_json_in_runs(suite, rel, message):
    p = suite / rel
    p.write_text(p.read_text()[:-20] + "{{{")
    with pytest.raises(DataError, match=message):
        ho.read_helm_output(suite)


def test_malformed_groups_json(tmp_path):
    _write(tmp_path / "groups" / "core_scenarios.json", '[{"title": "Accuracy", "header": [')
    with pytest.raises(DataError, match=r"groups/core_scenarios\.json: malformed JSON \(.* line 1"):
        ho.read_helm_output(tmp_path)


def test_non_utf8_json(tmp_path):
    _write(tmp_path / "groups" / "x.json", b"\xff\xfe[]")
    with pytest.raises(DataError, match="not UTF-8"):
        ho.read_helm_output(tmp_path)


@pytest.mark.parametrize("name, data, message", [
    ("x.bin", b"hello", "x.bin: expected a .zip archive of HELM output or a groups .json file"),
    ("x.json", b"", "x.json: file is empty"),
    ("x.json", b"{oops", "x.json: malformed JSON"),
    ("x.json", b'{"a": 1}', "x.json: expected a list of tables"),
    ("x.zip", b"PK\x03\x04junk", "x.zip: not a readable zip archive"),
    ("big.json", b"[]" * 600, "big.json: 0.0 MB is over the upload limit"),
])
def test_bad_uploads(name, data, message):
    with pytest.raises(DataError, match=message):
        ho.read_helm_upload(data, name, max_upload_bytes=1000)


@pytest.mark.parametrize("name, data, message", [
    # Over the byte limit: refused before parsing.
    ("huge.json", b"[" + b" " * ho.MAX_JSON_BYTES + b"]", r"huge\.json: 32\.0 MB of JSON is over the per-file limit"),
    # Small in bytes, but millions of tiny objects (each a Python dict): refused before parsing.
    ("many.json", b"[" + b"{}," * ho.MAX_JSON_CONTAINERS + b"{}]", r"many\.json: up to 1,000,002 JSON objects"),
    ("lists.json", b"[" * (ho.MAX_JSON_CONTAINERS + 1), r"lists\.json: up to 1,000,001 JSON objects"),
    # The same limits apply to a file inside a zip, named by its path.
    ("demo.zip", _zip_of("groups/core_scenarios.json", b"[" + b"{}," * ho.MAX_JSON_CONTAINERS + b"{}]"),
     r"groups/core_scenarios\.json: up to 1,000,002 JSON objects"),
])
def test_json_over_the_parse_limits_is_refused_with_its_reason(name, data, message):
    with pytest.raises(DataError, match=message):
        ho.read_helm_upload(data, name)


def test_a_zipped_json_over_the_byte_limit_is_refused_before_it_is_unpacked(monkeypatch):
    # 40 MB of zeros compress to ~40 KB: the declared size is enough to refuse it.
    data = _zip_of("demo/run/stats.json", b"0" * 40_000_000)
    assert len(data) < 1_000_000
    calls = []
    monkeypatch.setattr(ho.archive, "_parse_json", lambda *a: calls.append(a))
    with pytest.raises(DataError, match=r"demo/run/stats\.json: 40\.0 MB of JSON is over the per-file limit"):
        ho.read_helm_upload(data, "bomb.zip")
    assert calls == []


@pytest.mark.parametrize("name, size, message", [
    ("x.zip", 201_000_000, r"x\.zip: 201\.0 MB is over the upload limit of 200\.0 MB"),
    ("x.json", 33_000_000, r"x\.json: 33\.0 MB of JSON is over the per-file limit of 32\.0 MB"),
    ("X.JSON", 33_000_000, r"X\.JSON: 33\.0 MB of JSON"),
    ("x.json", 32_000_000, None),
    ("x.zip", 200_000_000, None),
])
def test_check_upload_size_by_name_and_size_alone(name, size, message):
    if message is None:
        ho.check_upload_size(name, size)
    else:
        with pytest.raises(DataError, match=message):
            ho.check_upload_size(name, size)


def test_json_just_under_the_container_limit_is_parsed():
    data = b"[" + b"[]," * (ho.MAX_JSON_CONTAINERS - 2) + b"[]]"
    with pytest.raises(DataError, match="table 1: expected a table object"):  # parsed, then rejected as a table
        ho.read_helm_upload(data, "flat.json")


def test_upload_of_one_groups_file_and_of_a_zip_without_zip_name():
    one = ho.read_helm_upload((GROUPS / "core_scenarios.json").read_bytes(), "core_scenarios.json")
    assert set(one.release.taxonomy.scenario_names) == {"MMLU", "BoolQ", "NarrativeQA"}
    z = ho.read_helm_upload(zip_folder(SUITE), "suite-without-extension")
    assert len(z.runs) == 3


# ----------------------------------------------------------------------------- robustness (seeded fuzz)

VALUES = [None, "x", 1, -1.5, True, [], {}, [1], {"a": None}]


def _paths(obj, pre=()):
    yield pre
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from _paths(v, pre + (k,))
    elif isinstance(obj, list):
        for i, v in enumerate(obj[:3]):
            yield from _paths(v, pre + (i,))


def _set(obj, path, val):
    if not path:
        return val
    cur = obj
    for p in path[:-1]:
        cur = cur[p]
    cur[path[-1]] = val
    return obj


@pytest.mark.parametrize("seed", range(3))
def test_any_wrong_type_anywhere_gives_a_data_error_or_loads(tmp_path, seed):
    import random

    rng = random.Random(seed)
    files = sorted(FIX.rglob("*.json"))
    for it in range(40):
        root = tmp_path / f"h{it}"
        shutil.copytree(FIX, root)
        f = rng.choice(files)
        obj = json.loads(f.read_text())
        path = rng.choice(list(_paths(obj)))
        (root / f.relative_to(FIX)).write_text(json.dumps(_set(obj, path, rng.choice(VALUES))))
        try:
            out = ho.read_helm_output(root)
            for run in out.runs["run"]:
                out.instances(run)
                ho.run_headline(out, run)
            ho.summary(out)
        except DataError as exc:
            assert str(exc)  # a message, naming what was wrong
        shutil.rmtree(root)


def test_corrupted_archive_bytes_give_a_data_error_or_load():
    import random

    rng = random.Random(7)
    base = zip_folder(FIX, prefix="")
    outcomes = {"loaded": 0, "error": 0}
    for _ in range(300):
        b = bytearray(base)
        for _ in range(rng.randint(1, 20)):
            b[rng.randrange(len(b))] = rng.randrange(256)
        if rng.random() < 0.2:
            b = b[: rng.randrange(len(b))]
        try:
            out = ho.read_helm_upload(bytes(b), "f.zip")
            for run in out.runs["run"]:
                out.instances(run)
            outcomes["loaded"] += 1
        except DataError:
            outcomes["error"] += 1
    assert outcomes["error"] > 0 and sum(outcomes.values()) == 300
