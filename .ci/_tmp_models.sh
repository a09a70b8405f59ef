#!/usr/bin/env bash
# CI entry point: on a clean clone with ../shared beside it, install what the tests need beyond
# pip, run exactly the test command from README.md, then the legs that check evalfw as users
# get it. Each leg's cost (wall and CPU seconds) is printed at the end.
#
#   models    the model plugins' virtualenv, built with the README's install line
#   tests     the README's test command: every test on this Python (3.11)
#   release   sdist -> wheel -> a brand-new virtualenv: every kernel compiled, and the same
#             numbers as the editable install; a build without a C compiler warns, installs,
#             says so when computing, and gives the same numbers
#   no-kernels  the non-slow suite with the kernels hidden (EVALFW_NO_KERNELS=1) and a
#             third-party plugin installed
#   py3.12    Python 3.12: the differential tests against sacreBLEU and NLTK and the non-slow
#             tests of the numeric core (metrics, compat, tokenizers, analysis)
#   numpy1.26 numpy 1.26: the same tests as py3.12
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

costs=()
cpu=0
cpu_seconds() {  # sets $cpu: user + sys of this shell's finished children, in whole seconds
  times > "$work/times"  # not in a $(...) subshell, whose `times` would not count them
  cpu=$(awk 'NR == 2 { split($1, u, /[ms]/); split($2, s, /[ms]/);
                       printf "%d", u[1] * 60 + u[2] + s[1] * 60 + s[2] }' "$work/times")
}
started=$SECONDS
cpu_seconds
cpu_started=$cpu
leg_wall=0
leg_cpu=0
begin() {
  echo ".ci/run: == $1" >&2
  leg_wall=$SECONDS
  cpu_seconds
  leg_cpu=$cpu
}
finish() {
  cpu_seconds
  costs+=("$(printf '%-10s %5d s wall %6d s CPU' "$1" $((SECONDS - leg_wall)) \
             $((cpu - leg_cpu)))")
}
in_ci() { [ "${CI:-}" = "true" ]; }
# The model plugins' tests (tests/plugins/test_model_plugins.py runs them) need torch,
# unbabel-comet and sentence-transformers, whose pins (numpy<2, transformers<5, ...) the
# plugin packages declare themselves: they get their own virtualenv, built with exactly the
# line README.md documents for installing both plugins (torch is the CPU build on local disk;
# about 1.4 GB), then pytest and Dask for the tests. The virtualenv is kept in the user's
# cache, named by a hash of that line and the packages' pyproject.toml files, so a later run on
# the same machine (a fresh clone included) runs the same line in it again, which only
# reinstalls the editable packages of this checkout; a changed line or pin builds a new one.
begin models
# the README's line that installs both plugins in one environment
mapfile -t model_lines < <(grep -E "^pip install -e \. -e plugins/evalfw-comet -e 'plugins/evalfw-embed" \
                           README.md | sed 's/ *#.*$//')
if [ "${#model_lines[@]}" -ne 1 ]; then
  echo ".ci/run: error: README.md must document the line that installs both model plugins" \
       "(pip install -e . -e plugins/evalfw-comet -e 'plugins/evalfw-embed[minilm]' ...)" >&2
  exit 2
fi
models_want="$( { printf '%s\n' "${model_lines[@]}"; cat pyproject.toml \
                  plugins/evalfw-comet/pyproject.toml plugins/evalfw-embed/pyproject.toml; } \
                | sha256sum | cut -c1-16)"
models_cache="${XDG_CACHE_HOME:-$HOME/.cache}/evalfw-ci"
models_venv="$models_cache/venv-models-$models_want"
export EVALFW_MODELS_VENV="$models_venv"  # where the test looks for it
if [ ! -f "$models_venv/.built" ]; then
  echo ".ci/run: building $models_venv for the model plugins' tests" >&2
  rm -rf "$models_venv"
  mkdir -p "$models_cache"
  find "$models_cache" -maxdepth 1 -name 'venv-models-*' -exec rm -rf {} +  # older pins
  python3 -m venv "$models_venv"
fi
echo ".ci/run: ${model_lines[0]}" >&2
if PATH="$models_venv/bin:$PATH" VIRTUAL_ENV="$models_venv" \
     timeout 1800 bash -c "${model_lines[0]} -q" \
   && timeout 900 "$models_venv/bin/pip" install -q pytest 'dask[distributed]'; then
  touch "$models_venv/.built"
else  # the test that runs the plugins' tests fails in CI, saying the venv is missing
  echo ".ci/run: could not build $models_venv; the model plugins' tests cannot run" >&2
  rm -rf "$models_venv"
fi
finish models
printf "  %s\n" "${costs[@]}"
PATH=$EVALFW_MODELS_VENV/bin:$PATH python -m pytest -q -p no:cacheprovider -p no:warnings plugins/evalfw-comet/tests plugins/evalfw-embed/tests 2>&1 | tail -2
