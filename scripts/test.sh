#!/usr/bin/env bash
# The project's one test command: installs what the tests need, then runs the whole suite
# (unit tests, AppTest page tests, browser tests in Debian's Chromium). Extra arguments go to pytest.
#   bash scripts/test.sh            the whole suite, on 3 workers (pytest-xdist, --dist loadgroup: two groups of
#                                   browser tests, each on one worker against that worker's shared server, the
#                                   load test and the own-server modules on the third, the rest spread over all)
#   bash scripts/test.sh fast       the inner loop: unit + AppTest tests, no browser (-m "not browser")
#   HELM_TEST_WORKERS=1 bash scripts/test.sh ...   one process (or pass -n yourself); 0 also means no xdist
set -euo pipefail
cd "$(dirname "$0")/.."
PY="${PYTHON:-python3}"

FAST=0
if [ "${1:-}" = "fast" ]; then
  FAST=1
  shift
fi

"$PY" -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt

if [ "$FAST" = "0" ] && [ ! -x /usr/bin/chromium ]; then
  if [ "$(id -u)" = "0" ]; then
    echo "Installing Debian's chromium for the browser tests…"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null
  else
    echo "Debian's chromium is missing: run 'sudo apt-get install -y chromium chromium-driver' or run this script as root." >&2
    exit 1
  fi
fi

ARGS=()
# Three workers for the whole suite (the browser groups wait on pages as much as they compute); two for the
# inner loop, whose AppTests keep both cores busy on their own.
if [ "$FAST" = "1" ]; then WORKERS="${HELM_TEST_WORKERS:-2}"; else WORKERS="${HELM_TEST_WORKERS:-3}"; fi
own_workers=0
for a in "$@"; do
  case "$a" in -n|-n[0-9]*|--numprocesses|--numprocesses=*|no:xdist|-pno:xdist) own_workers=1 ;; esac
done
if [ "$own_workers" = "0" ] && [ "$WORKERS" -gt 1 ]; then
  ARGS+=(-n "$WORKERS" --dist loadgroup)
fi
if [ "$FAST" = "1" ]; then
  ARGS+=(-m "not browser")
fi

exec "$PY" -m pytest ${ARGS[@]+"${ARGS[@]}"} "$@"
