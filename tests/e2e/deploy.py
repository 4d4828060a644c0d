"""Deploy readiness probes (tests/e2e/test_pages_browser.py's sweep uses them): what the project folder holds, and
which connections a server process has beyond this machine."""
from __future__ import annotations

import os
from pathlib import Path

from .conftest import ROOT

SKIP_DIRS = {".git", "__pycache__", ".pytest_cache", ".hypothesis", "screenshots", "bench"}


def tree_state() -> dict[str, float]:
    out = {}
    for dirpath, dirnames, filenames in os.walk(ROOT):
        dirnames[:] = [d for d in dirnames if d not in SKIP_DIRS]
        for f in filenames:
            p = Path(dirpath, f)
            out[str(p.relative_to(ROOT))] = p.stat().st_mtime
    return out


def remote_peers(pid: int) -> set[str]:
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
