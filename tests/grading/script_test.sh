# What the harness's script tests share, sourced first: the repository root
# (their first argument), a scratch folder `work` removed at exit, and
# failures counted into the exit status.
#   source "$(dirname "$0")/script_test.sh"; ...; fail "what"; ...; finish "what passed"
root=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { printf 'FAIL %s\n' "$*"; failures=$((failures + 1)); }
# The end of a test: "ok <what>" where nothing failed, and the exit status.
finish() {
  [ $failures -eq 0 ] && echo "ok   $1"
  exit $((failures > 0))
}
