# Sourced by scripts/dist and scripts/dist-test: every CPython this machine
# has, one a line, oldest first: python3.N on PATH, else pyenv's newest 3.N.
# Prints nothing for a version it cannot find or whose venv module is missing.
find_pythons() {
  local minor found
  for minor in 8 9 10 11 12 13 14 15; do
    found=
    if command -v "python3.$minor" >/dev/null && "python3.$minor" -c 'import sys' 2>/dev/null; then
      found=$(command -v "python3.$minor")
    else
      found=$(ls -d "${PYENV_ROOT:-$HOME/.pyenv}"/versions/3."$minor".*/bin/python3."$minor" 2>/dev/null | sort -V | tail -1)
    fi
    [[ -n $found ]] && "$found" -c 'import venv' 2>/dev/null && echo "$found"
  done
  return 0
}
