"""The README's local links and images point at files that exist (the gallery included)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
LOCAL = sorted({m for m in re.findall(r"\]\(([^)#\s]+)\)", README) if "://" not in m})


def test_the_readme_has_local_links():
    assert any(p.startswith("docs/screenshots/") for p in LOCAL), LOCAL


@pytest.mark.parametrize("target", LOCAL)
def test_local_link_exists(target):
    assert (ROOT / target).exists(), f"README links to {target}, which does not exist"


def test_gallery_matches_the_screenshot_script():
    from scripts.screenshots import GALLERY

    shown = {Path(p).name for p in LOCAL if p.startswith("docs/screenshots/")}
    assert shown == set(GALLERY)
