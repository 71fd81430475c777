#!/usr/bin/env bash
# The fast tier on the lowest pydantic pyproject.toml admits, and `dsref check`'s output over the shared corpus
# byte for byte the same as with the locked pydantic (scripts/test.sh runs it after the suite; .ci/run through it).
#
#   bash scripts/lowest_pydantic.sh [PYTEST ARGS…]      run from the environment scripts/test.sh installed
#
# dsref's answers come from the installed pydantic-core (check/validate/checktree.py rebuilds each validator from
# the models when it is not the release that wrote the check tree), so a user on the oldest release we admit must
# get the same findings. A second environment, $DSREF_LOWEST_VENV (default .venv-lowest), holds only that pydantic
# and its pydantic-core; everything else comes from the running environment, behind them on sys.path (a .pth
# file), so that it costs seconds to make, not a second install of torch and DeepSpeed.
set -euo pipefail
cd "$(dirname "$0")/.."

lowest_venv="${DSREF_LOWEST_VENV:-.venv-lowest}"
corpus="${DSREF_CORPUS:-../shared/corpus/real}"
out="${DSREF_LOWEST_OUT:-$lowest_venv/outputs}"

# pydantic>=2.7,<3 -> pydantic==2.7.* (the newest patch release of the lowest minor release)
spec=$(python - <<'EOF'
import re, tomllib
deps = tomllib.load(open("pyproject.toml", "rb"))["project"]["dependencies"]
line = next(d for d in deps if re.match(r"pydantic\s*[<>=~!]", d))
low = re.search(r">=\s*(\d+)\.(\d+)", line)
print(f"pydantic=={low[1]}.{low[2]}.*")
EOF
)

python -m venv --clear "$lowest_venv"
"$lowest_venv/bin/python" -m pip install --quiet --disable-pip-version-check "$spec"
here=$(python -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
there=$("$lowest_venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
# after the lowest venv's own packages: the running environment's, with its .pth files (dsref installed editable)
echo "import site; site.addsitedir('$here')" >"$there/zz_running_environment.pth"
"$lowest_venv/bin/python" - <<'EOF'
import pydantic, pydantic_core
print(f"lowest pydantic: {pydantic.VERSION}, pydantic-core {pydantic_core.__version__}")
EOF

# The fast tier, less what holds files written with the locked tools (CONTRIBUTING, "Generated files"): the
# generated files (the check tree stores the locked pydantic-core's schemas), the editor schemas (pydantic 2.7
# writes some bounds and constants otherwise: known, not yet made independent of the release) and the linters.
deselect=(
  --deselect tests/unit/generator/test_generated.py
  --deselect tests/unit/site/test_docs.py::test_no_stale_generated_page_is_left
  --deselect tests/unit/editor/test_jsonschema.py::test_committed_schemas_are_current
  --deselect tests/unit/editor/test_jsonschema.py::test_cli_prints_the_committed_schema
  --deselect tests/unit/editor/test_jsonschema.py::test_cli_writes_a_file
  --deselect tests/unit/test_imports.py
  --deselect tests/unit/test_layers.py::test_every_contract_is_kept
)
DSREF_TEST_ENV=lowest "$lowest_venv/bin/python" -m pytest -m "not slow" -p no:cacheprovider \
  -n "${DSREF_TEST_WORKERS:-auto}" --dist loadfile "${deselect[@]}" "$@"

mkdir -p "$out"
# both readings at once (one per core)
python scripts/corpus_output.py --corpus "$corpus" >"$out/locked.txt" &
locked=$!
"$lowest_venv/bin/python" scripts/corpus_output.py --corpus "$corpus" >"$out/lowest.txt"
wait "$locked"
if ! cmp -s "$out/locked.txt" "$out/lowest.txt"; then
  echo "scripts/lowest_pydantic.sh: dsref check says otherwise with $spec:" >&2
  diff "$out/locked.txt" "$out/lowest.txt" | head -40 >&2
  exit 1
fi
echo "dsref check over $corpus: the same $(wc -c <"$out/locked.txt") bytes with the locked pydantic and $spec"
