#!/usr/bin/env bash
# The README's test command: create .venv, install the package with its test extras, run every test.
set -euo pipefail
cd "$(dirname "$0")/.."
# The HTML report's test drives the distribution's Chromium through Playwright (whose own browser
# download is not used). Install it where apt works; without it that one test is skipped, saying why.
if ! command -v chromium >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; } >/dev/null 2>&1 \
        || echo "scripts/test.sh: could not install chromium; the browser test will be skipped" >&2
fi
python3 -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q -e '.[test]'
.venv/bin/python -m pytest -q -n auto "$@"
