#!/usr/bin/env bash
# The README's test command: create .venv, install the package with its test extras, run the tests.
#   bash scripts/test.sh [PYTEST ARGS...]           every test (what CI runs)
#   bash scripts/test.sh --quick [PYTEST ARGS...]   the quick loop: -m "not slow and not fuzz"
# The install is redone when pyproject.toml is newer than the last one (a fresh clone: always).
set -euo pipefail
cd "$(dirname "$0")/.."
quick=0
if [ "${1:-}" = "--quick" ]; then
    quick=1
    shift
fi
# The HTML report's browser tests (slow) drive the distribution's Chromium through Playwright (whose own
# browser download is not used). Install it where apt works; without it those tests are skipped, saying why.
if [ "$quick" = 0 ] && ! command -v chromium >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1 \
        && [ "$(id -u)" = 0 ]; then
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; } >/dev/null 2>&1 \
        || echo "scripts/test.sh: could not install chromium; the browser tests will be skipped" >&2
fi
stamp=.venv/.iri-lint-test-install
if [ ! -e "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
    python3 -m venv .venv
    .venv/bin/python -m pip install -q --upgrade pip
    .venv/bin/python -m pip install -q -e '.[test]'
    touch "$stamp"
fi
# worksteal: a worker that runs out takes tests queued on the other, so the few long tests (the stdlib
# oracles, pre-commit) do not leave one core idle at the end of the run
if [ "$quick" = 1 ]; then
    exec .venv/bin/python -m pytest -q -n auto --dist worksteal -m "not slow and not fuzz" "$@"
fi
exec .venv/bin/python -m pytest -q -n auto --dist worksteal "$@"
