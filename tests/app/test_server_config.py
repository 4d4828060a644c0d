"""The project's .streamlit/config.toml as Streamlit reads it (AppTest and `streamlit run` read the same file)."""
from __future__ import annotations

import tomllib
from pathlib import Path

from streamlit import config

ROOT = Path(__file__).resolve().parents[2]


def test_no_full_garbage_collection_after_every_run():
    """The full collection after each run delayed a run's last messages by ~0.1 s (see the file's comment); an
    option name Streamlit does not know would be ignored, so ask Streamlit itself."""
    assert tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text())["runner"]["postScriptGC"] is False
    assert config.get_option("runner.postScriptGC") is False
