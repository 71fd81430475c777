#!/usr/bin/env bash
# Install everything the tests need and run the whole suite (the README's second command; .ci/run calls it).
#   - Python: a CPU build of PyTorch 2.13.0 and DeepSpeed 0.19.8 (the schema is compared with them), dsref[test]
#   - node packages for the editor-schema test (VS Code's JSON language service) and the VS Code extension
#   - Debian's Chromium and CJK fonts, and playwright, for the site test
set -euo pipefail
cd "$(dirname "$0")/.."
command -v node >/dev/null && command -v npm >/dev/null || { echo "scripts/test.sh: tests need node >= 20 and npm" >&2; exit 1; }
python -m pip install torch==2.13.0
python -m pip install -e ".[test]" deepspeed==0.19.8
npm ci --prefix tests/editor --no-audit --no-fund
npm ci --prefix editors/vscode --no-audit --no-fund
bash scripts/install_test_deps.sh
python -m pytest "$@"
