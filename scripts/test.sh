#!/usr/bin/env bash
# Install everything the tests need and run the whole suite (the README's second command; .ci/run calls it).
#
#   bash scripts/test.sh [PYTEST ARGS…]            the locked environment: requirements/test.lock as constraints
#   bash scripts/test.sh --latest [PYTEST ARGS…]   the newest releases the same ranges admit, to meet an upstream
#                                                  change on purpose (torch and DeepSpeed stay at requirements/test.in's
#                                                  pins: the CPU build on disk, and the release dsref describes)
#
#   - Python: a CPU build of PyTorch 2.13.0 and DeepSpeed 0.19.8 (the schema is compared with them), dsref[test],
#     playwright (requirements/test.in)
#   - node packages for the editor-schema test (VS Code's JSON language service), the VS Code extension and the
#     playground's editor, from their package-lock.json files
#   - Debian's Chromium and CJK fonts for the site test (scripts/install_test_deps.sh, only when missing)
#
# Then scripts/lowest_pydantic.sh: the fast tier on the lowest pydantic pyproject.toml admits, and `dsref check`'s
# output over ../shared/corpus/real byte-identical to the locked pydantic's.
#
# `python -m pytest -m "not slow"` is the fast tier, once this has installed everything (CONTRIBUTING says when).
set -euo pipefail
cd "$(dirname "$0")/.."

mode=locked
if [ "${1:-}" = "--latest" ]; then
  mode=latest
  shift
fi
lock=requirements/test.lock

command -v node >/dev/null && command -v npm >/dev/null || { echo "scripts/test.sh: tests need node >= 20 and npm" >&2; exit 1; }
[ -f "$lock" ] || { echo "scripts/test.sh: $lock is missing; write it with: bash scripts/lock.sh" >&2; exit 1; }

if [ "$mode" = locked ]; then
  # torch first, on its own: DeepSpeed's build looks for an installed torch
  python -m pip install -c "$lock" torch==2.13.0
  if ! python -m pip install -c "$lock" -e ".[test]" -r requirements/test.in; then
    echo "scripts/test.sh: the locked environment does not install; if pyproject.toml or requirements/test.in" \
      "changed, refresh the lock: bash scripts/lock.sh" >&2
    exit 1
  fi
  npm ci --prefix tests/editor --no-audit --no-fund
  npm ci --prefix editors/vscode --no-audit --no-fund
  npm ci --prefix playground --no-audit --no-fund --ignore-scripts  # the playground's editor (tests/functional/test_playground.py)
else
  python -m pip install torch==2.13.0
  python -m pip install --upgrade --upgrade-strategy eager -e ".[test]" -r requirements/test.in
  # the newest releases package.json's ranges admit, without writing them into package-lock.json
  npm install --prefix tests/editor --no-audit --no-fund --no-save --no-package-lock
  npm install --prefix editors/vscode --no-audit --no-fund --no-save --no-package-lock
  npm install --prefix playground --no-audit --no-fund --no-save --no-package-lock --ignore-scripts
fi
bash scripts/install_test_deps.sh

export DSREF_TEST_ENV="$mode"  # tests/functional/test_environment.py compares the installed packages with the lock when locked
# every core (pytest-xdist); a test file's tests stay on one worker, so its module fixtures (the site build, the
# wheel, the served playground) are built once. DSREF_TEST_WORKERS=0 runs them in this process, one after another.
python -m pytest -n "${DSREF_TEST_WORKERS:-auto}" --dist loadfile "$@"
# the fast tier again on the lowest pydantic pyproject.toml admits, and the same check output over the corpus
# (about 2 minutes more on 2 cores; DSREF_SKIP_LOWEST=1 leaves it out while iterating locally)
if [ "${DSREF_SKIP_LOWEST:-}" != 1 ]; then
  bash scripts/lowest_pydantic.sh -q
fi
