"""Shared fixtures and helpers for the helm_core.helm_output tests (one test file per module of the package)."""
from __future__ import annotations

import io
import json
import shutil
import stat
import zipfile
from pathlib import Path

import pytest

from helm_core import helm_output as ho

FIX = Path(__file__).resolve().parents[1] / "fixtures" / "helm_output"
SUITE = FIX / "runs" / "demo"
GROUPS = FIX / "groups"
MMLU = "mmlu:subject=philosophy,method=multiple_choice_joint,model=eleutherai_gpt-j-6b"
BOOLQ = "boolq:model=eleutherai_pythia-1b-v0,data_augmentation=canonical"
GSM = "gsm:model=local_tiny-model"


def zip_folder(folder: Path, prefix: str = "demo/") -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for p in sorted(folder.rglob("*")):
            if p.is_file():
                z.write(p, prefix + p.relative_to(folder).as_posix())
    return buf.getvalue()


def zip_members(members: list[tuple[str, bytes]], symlink: str | None = None) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in members:
            z.writestr(name, data)
        if symlink:
            info = zipfile.ZipInfo(symlink)
            info.external_attr = (stat.S_IFLNK | 0o777) << 16
            z.writestr(info, "../../etc/passwd")
    return buf.getvalue()


@pytest.fixture
def suite(tmp_path) -> Path:
    dst = tmp_path / "demo"
    shutil.copytree(SUITE, dst)
    return dst


@pytest.fixture(scope="module")
def runs_output():
    return ho.read_helm_output(SUITE)


@pytest.fixture(scope="module")
def tables_output():
    return ho.read_helm_output(GROUPS)


def cell(release, model, scenario, group, metric=None):
    r = release.results
    sel = r[(r["model"] == model) & (r["scenario"] == scenario) & (r["metric_group"] == group)]
    if metric is not None:
        sel = sel[sel["metric"] == metric]
    assert len(sel) == 1, sel
    return sel.iloc[0]


def _write(p: Path, text) -> Path:
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_bytes(text if isinstance(text, bytes) else text.encode())
    return p


def _mutate_json(path: Path, fn) -> None:
    obj = json.loads(path.read_text())
    fn(obj)
    path.write_text(json.dumps(obj))


def _zip_of(name: str, data: bytes) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr(name, data)
    return buf.getvalue()
