"""Open every page with garbage values for every known query key and with unknown keys:
a notice, never an exception."""
from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from tests.fuzz_config import SEEDS
from ui import nav

from .helpers import open_page

ROOT = Path(__file__).resolve().parents[2]
PAGES = nav.available_pages()
GARBAGE = ["", "-1", "999999", "nan", "inf", "<script>alert(1)</script>", "%00", "a,b,,c", "🙂" * 20,
           "../../etc/passwd", "1e309", "true", "null", "{}", "x" * 500]


def known_keys() -> list[str]:
    """Every query key the code declares (state.allow("key", ...)) or binds (key="..." with bind=...)."""
    keys = set()
    for path in [ROOT / "Home.py", *(ROOT / "ui").glob("*.py"), *(ROOT / "pages").glob("*.py")]:
        text = path.read_text()
        keys |= set(re.findall(r'allow\(\s*["\']([A-Za-z0-9_]+)["\']', text))
        keys |= set(re.findall(r'PARAM\s*=\s*["\']([A-Za-z0-9_]+)["\']', text))
    return sorted(keys)


def test_known_keys_found():
    keys = known_keys()
    assert {"cohort", "access", "present"} <= set(keys)


@pytest.mark.parametrize("seed", range(SEEDS))
@pytest.mark.parametrize("spec", PAGES, ids=[p.url_path or "home" for p in PAGES])
def test_garbage_query_values(spec, seed):
    rng = random.Random(seed * 7919 + len(spec.url_path))
    query = {k: rng.choice(GARBAGE) for k in known_keys()}
    query["definitely_unknown_key"] = "1"
    at = open_page(spec.file, query=query)
    assert "definitely_unknown_key" not in at.query_params
    if spec.url_path == "":  # AppTest shows toasts of the first page only
        toasts = " ".join(str(t.value) for t in at.toast)
        assert "unknown link parameter" in toasts


@pytest.mark.parametrize("spec", PAGES, ids=[p.url_path or "home" for p in PAGES])
def test_each_key_alone(spec):
    rng = random.Random(len(spec.file))
    for key in known_keys():
        open_page(spec.file, query={key: rng.choice(GARBAGE)})
