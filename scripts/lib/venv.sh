# The project's Python environment, sourced by every scripts/ launcher and by scripts/test:
# .venv at the repository root, made on first use and holding the pack (pyproject.toml: the
# packages ycsbpack and ycsb_analysis and their console scripts) installed editable. It is
# reinstalled when pyproject.toml changes (the stamp holds the hash of the pyproject.toml it was
# installed from, and its extras); a change of the code itself needs nothing (editable).
#
#   . "$(dirname "$(readlink -f "$0")")/lib/venv.sh"; ensure_venv [EXTRA,...]; exec "$VENV/bin/<command>"

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
VENV=$ROOT/.venv
VENV_STAMP=$VENV/.pack-installed

# _venv_lacks EXTRAS: true when .venv lacks this pyproject.toml's install or one of EXTRAS
# (comma-separated); sets have (the stamp's hash), extras (its extras) and want (today's hash).
_venv_lacks() {
  local e lacking=''
  want=$(sha256sum < "$ROOT/pyproject.toml" | cut -d' ' -f1)
  have='' extras=''
  if [ -x "$VENV/bin/python" ]; then read -r have extras < "$VENV_STAMP" 2>/dev/null || true; fi
  [ "$have" = "$want" ] || lacking=install
  for e in ${1//,/ }; do
    [[ ",$extras," == *",$e,"* ]] || lacking+=" $e"
  done
  [ -n "$lacking" ]
}

# ensure_venv [EXTRA,...]: .venv holds the pack of this pyproject.toml with these extras
# (its optional-dependencies: fleet, docs, test) and the extras installed before.
ensure_venv() {
  local wanted=${1:-} want have extras e
  _venv_lacks "$wanted" || return 0
  mkdir -p "$VENV"
  (
    flock 9  # one install at a time: the tests start several scripts at once
    _venv_lacks "$wanted" || exit 0
    if [ ! -x "$VENV/bin/python" ]; then
      echo "creating .venv (first run only; needs PyPI)..." >&2
      python3 -m venv "$VENV" && "$VENV/bin/pip" install -q --upgrade pip || exit 1
    fi
    if [ -e "$VENV/.analysis-pyproject.sha256" ]; then
      # a venv of the time the analysis was a distribution of its own: this one replaces it
      "$VENV/bin/pip" uninstall -q -y ycsb-analysis && rm "$VENV/.analysis-pyproject.sha256"
    fi
    for e in ${wanted//,/ }; do
      [[ ",$extras," == *",$e,"* ]] || extras=${extras:+$extras,}$e
    done
    echo "installing the pack into .venv${extras:+ with [$extras]} (pyproject.toml new or" \
         "changed)..." >&2
    "$VENV/bin/pip" install -q -e "$ROOT${extras:+[$extras]}" || exit 1
    echo "$want $extras" > "$VENV_STAMP"
  ) 9> "$VENV/.install.lock" || {
    echo "ERROR could not install the pack into $VENV (pip's messages above); by hand:" \
         "python3 -m venv .venv && .venv/bin/pip install -e '.${wanted:+[$wanted]}'" >&2
    exit 1
  }
}
