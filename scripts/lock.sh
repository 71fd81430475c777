#!/usr/bin/env bash
# Refresh requirements/test.lock, the pins scripts/test.sh installs the test environment with.
#
#   bash scripts/lock.sh                       in line with pyproject.toml and requirements/test.in again; a pin
#                                              that still satisfies them stays as it is
#   bash scripts/lock.sh --upgrade-package X   X (and what it needs) moves to its newest release
#   bash scripts/lock.sh --upgrade             every package moves to the newest release the ranges admit
#
# uv resolves for every Python from 3.10 and every platform at once (--universal), so one lock serves Linux, macOS
# and Windows; a package that needs another release on some Python gets one line per release, with a marker.
# The lock holds torch's CUDA libraries for Linux too: as constraints they install nothing unless pip asks for them,
# and the CPU build of torch asks for none.
set -euo pipefail
cd "$(dirname "$0")/.."
python -m pip install -q "uv>=0.9"
python -m uv pip compile pyproject.toml requirements/test.in --extra test --universal \
  --custom-compile-command "bash scripts/lock.sh" --output-file requirements/test.lock "$@"
