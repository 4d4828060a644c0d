"""Bench only: `python -m bench.audience --gate N` starts the app's server with this folder on PYTHONPATH, so every
page run goes through ui.run_gate.slot(), which is what the one-line change `with run_gate.slot(): pg.run()` in
Home.py does; the bench measures it before Home.py takes it. Home.py stays the main script (page paths resolve
as in the app)."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from streamlit.navigation.page import StreamlitPage  # noqa: E402

from ui import run_gate  # noqa: E402

_run = StreamlitPage.run


def _gated_run(self):
    with run_gate.slot():
        return _run(self)


StreamlitPage.run = _gated_run
