"""Bounds for the fuzzers. CI uses the defaults; a longer run is one flag away:
HELM_FUZZ_STEPS=400 HELM_FUZZ_SEEDS=5 bash scripts/test.sh tests/app/test_fuzz.py"""
from __future__ import annotations

import os

STEPS = int(os.environ.get("HELM_FUZZ_STEPS", "20"))
SEEDS = int(os.environ.get("HELM_FUZZ_SEEDS", "1"))
