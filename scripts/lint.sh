#!/usr/bin/env bash
# The linters and the type checker over this checkout, as CI runs them (.ci/run, after the tests) and as
# .pre-commit-config.yaml runs them before a commit. They are not tests: `python -m pytest` leaves them out.
#
#   bash scripts/lint.sh
#
#   - ruff check and ruff format --check over dsref, tests and scripts ([tool.ruff] in pyproject.toml)
#   - mypy over the package ([tool.mypy])
#   - lint-imports: the layers of the package ([tool.importlinter]; CONTRIBUTING, Keep the layers)
#
# Each runs even when one before it failed, so one run names every problem; the status is 1 if any failed.
set -uo pipefail
cd "$(dirname "$0")/.."

failed=()
LINT_IMPORTS="import sys; from importlinter.cli import lint_imports_command; sys.exit(lint_imports_command())"
step() {
  echo "== $*"
  "$@" || failed+=("$1 ${2:-}")
}

step python -m ruff check dsref tests scripts
step python -m ruff format --check dsref tests scripts
step python -m mypy
# import-linter reads the package it imports: this checkout's, whatever else is installed
PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}" step python -c "$LINT_IMPORTS" --config pyproject.toml --no-cache

if [ "${#failed[@]}" -gt 0 ]; then
  echo "scripts/lint.sh: failed: ${failed[*]}" >&2
  exit 1
fi
echo "scripts/lint.sh: ruff, mypy and import-linter pass"
