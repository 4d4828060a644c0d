"""scripts/export_deck.py on a machine whose server runs on the user's own HELM output (HELM_OUTPUT): it must not
write the bundled classic deck as if it were that suite."""
from __future__ import annotations

from pathlib import Path

from scripts import export_deck

SUITE = Path(__file__).resolve().parents[1] / "fixtures" / "helm_output" / "runs" / "demo"


def test_with_helm_output_set_it_refuses_to_pass_off_a_bundled_deck(monkeypatch, tmp_path, capsys):
    monkeypatch.setenv("HELM_OUTPUT", str(SUITE))
    out = tmp_path / "deck.html"
    assert export_deck.main([str(out)]) == 2
    assert not out.exists()
    err = capsys.readouterr().err
    assert "HELM_OUTPUT is set" in err and str(SUITE) in err and "--release" in err
