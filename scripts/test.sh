#!/usr/bin/env bash
# The project's one test command: installs what the tests need, then runs the whole suite
# (unit tests, AppTest page tests, browser tests in Debian's Chromium). Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
PY="${PYTHON:-python3}"

"$PY" -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt

if [ ! -x /usr/bin/chromium ]; then
  if [ "$(id -u)" = "0" ]; then
    echo "Installing Debian's chromium for the browser tests…"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null
  else
    echo "Debian's chromium is missing: run 'sudo apt-get install -y chromium chromium-driver' or run this script as root." >&2
    exit 1
  fi
fi

exec "$PY" -m pytest "$@"
