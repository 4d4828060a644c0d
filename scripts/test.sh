#!/usr/bin/env bash
# The project's one test command: installs what the tests need, then runs the whole suite (unit tests, AppTest page
# tests, browser tests in Debian's Chromium) in two phases. Extra arguments go to pytest (both phases).
#   bash scripts/test.sh            phase 1: everything but the timing tests, on 3 workers (pytest-xdist,
#                                   --dist loadgroup: the browser tests in five groups (GROUPS), each on one
#                                   worker against that worker's shared server; the unit and AppTest tests fill
#                                   the workers; tests/conftest.py GROUPS);
#                                   phase 2: the tests whose verdict is a time under load (marked `alone`: the load
#                                   test, the live episode), one process, nothing beside them
#   bash scripts/test.sh fast       the inner loop: unit + AppTest tests, no browser (-m "not browser")
#   HELM_TEST_WORKERS=1 bash scripts/test.sh ...   phase 1 on one process (or pass -n yourself)
# The exit status is non-zero when any test of either phase failed.
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
# Three workers for phase 1 (the browser groups wait on pages as much as they compute); two for the inner loop,
# whose AppTests keep both cores busy on their own.
if [ "$FAST" = "1" ]; then WORKERS="${HELM_TEST_WORKERS:-2}"; else WORKERS="${HELM_TEST_WORKERS:-3}"; fi
own_workers=0
for a in "$@"; do
  case "$a" in -n|-n[0-9]*|--numprocesses|--numprocesses=*|no:xdist|-pno:xdist) own_workers=1 ;; esac
done
if [ "$own_workers" = "0" ] && [ "$WORKERS" -gt 1 ]; then
  ARGS+=(-n "$WORKERS" --dist loadgroup --no-loadscope-reorder)
fi

if [ "$FAST" = "1" ]; then
  exec "$PY" -m pytest ${ARGS[@]+"${ARGS[@]}"} -m "not browser" "$@"
fi

# pytest exits 5 when a phase selects no test (e.g. arguments naming one file): not a failure.
run_phase() {
  local code=0
  "$PY" -m pytest "$@" || code=$?
  if [ "$code" = "5" ]; then code=0; fi
  return "$code"
}

# Phase 2 runs on one process: the arguments, less any worker count.
ALONE_ARGS=()
skip=0
for a in "$@"; do
  if [ "$skip" = "1" ]; then skip=0; continue; fi
  case "$a" in
    -n|--numprocesses|--dist) skip=1 ;;
    -n[0-9]*|--numprocesses=*|--dist=*|no:xdist|-pno:xdist) ;;
    *) ALONE_ARGS+=("$a") ;;
  esac
done

status=0
start=$(date +%s)
echo "== phase 1: every test but the timing tests, ${WORKERS} worker(s)"
run_phase ${ARGS[@]+"${ARGS[@]}"} -m "not alone" "$@" || status=$?
mid=$(date +%s)
echo "== phase 2: the timing tests (load test, live episode), alone"
# With no arguments it collects only the two timing modules (tests/conftest.py ALONE_MODULES), not the whole suite.
if [ "$#" = "0" ]; then ALONE_ARGS=(tests/e2e/test_concurrent.py tests/e2e/test_showtime_browser.py); fi
run_phase -p no:xdist -m alone ${ALONE_ARGS[@]+"${ALONE_ARGS[@]}"} || { code=$?; [ "$status" != "0" ] || status=$code; }
end=$(date +%s)
echo "== phase 1 $((mid - start)) s, phase 2 $((end - mid)) s, in all $((end - start)) s"
exit "$status"
