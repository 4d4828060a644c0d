"""A page with one ui.components.table of hostile text, served by test_tables_browser.py."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from ui import components  # noqa: E402

HOSTILE = [
    "![pixel](http://127.0.0.9:9/pixel.png) <img src=http://127.0.0.9:9/x.png> [link](http://127.0.0.9:9/)",
    "*stars* _under_score_ `code` ~~gone~~ $x^2$ :red[red] :smile: &amp; a\\b",
    "# heading",
    "1. listed",
    "- bullet",
    "> quote",
    "line one\nline two",
    "www.example.invalid mail@example.invalid https://example.invalid/a_b",
]
components.table({"text": HOSTILE, "score": [0.12345, None, 1, 2, 3, 4, 5, 6]},
                 labels={"text": "text_with *markup*"}, highlight=[i == 1 for i in range(len(HOSTILE))])
components.table({"source": ["stanford-crfm/helm"], "link": ["https://github.com/stanford-crfm/helm"]},
                 links=("link",))
