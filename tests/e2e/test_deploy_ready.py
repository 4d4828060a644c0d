"""Deploy readiness, checked on a real server while a browser visits every page: the browser fetches nothing
but the app's own server, the server opens no connection beyond this machine, and nothing is written into
the project folder (Streamlit Community Cloud gives the app a read-mostly checkout)."""
from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import urlparse

from ui import nav

from .conftest import ROOT
from .helpers import assert_clean, open_url

SKIP_DIRS = {".git", "__pycache__", ".pytest_cache", ".hypothesis", "screenshots", "bench"}


def _tree_state() -> dict[str, float]:
    out = {}
    for dirpath, dirnames, filenames in os.walk(ROOT):
        dirnames[:] = [d for d in dirnames if d not in SKIP_DIRS]
        for f in filenames:
            p = Path(dirpath, f)
            out[str(p.relative_to(ROOT))] = p.stat().st_mtime
    return out


def _remote_peers(pid: int) -> set[str]:
    """Remote addresses of the process's TCP sockets that are not on this machine's loopback."""
    inodes = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(target[8:-1])
    peers = set()
    for table in ("tcp", "tcp6"):
        path = Path(f"/proc/{pid}/net/{table}")
        if not path.exists():
            continue
        for line in path.read_text().splitlines()[1:]:
            cols = line.split()
            remote, state, inode = cols[2], cols[3], cols[9]
            if inode not in inodes or state == "0A":  # 0A: listening
                continue
            host = remote.split(":")[0]
            loopback = (host.endswith("7F") if len(host) == 8  # IPv4, little-endian: 127.x.x.x
                        else host in ("00000000000000000000000001000000", "0000000000000000FFFF00000100007F")
                        or host.endswith("0100007F"))
            if not loopback and host.strip("0"):
                peers.add(remote)
    return peers


def test_visiting_every_page_stays_on_this_machine_and_writes_nothing_here(server_proc, page):
    before = _tree_state()
    requested: list[str] = []
    page.on("request", lambda r: requested.append(r.url))
    own = urlparse(server_proc.url).netloc
    peers: set[str] = set()
    for spec in nav.available_pages():
        open_url(page, f"{server_proc.url}/{spec.url_path}")
        assert_clean(page)
        peers |= _remote_peers(server_proc.pid)
    foreign = sorted({u for u in requested if urlparse(u).scheme in ("http", "https", "ws", "wss")
                      and urlparse(u).netloc != own})
    assert not foreign, f"the browser fetched from elsewhere: {foreign[:10]}"
    assert not peers, f"the server has connections beyond this machine: {sorted(peers)}"
    after = _tree_state()
    changed = sorted(k for k in after if before.get(k) != after[k])
    assert not changed, f"the app wrote into the project folder: {changed[:10]}"
