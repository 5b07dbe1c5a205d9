# Where a grading run's time goes, three ways, for the GPU scripts (sourced):
# case by case (GRADING_TRACE, lab/scripts/trace-summary.sh), call by call
# (GRADING_CALL_TRACE, lab/scripts/call-summary.sh) and the GPU's slots over time
# (GRADING_SLOT_TRACE, lab/scripts/slot-timeline.sh).
#   traces_on DIR PREFIX   the three files DIR/PREFIX{trace,calls,slots}.tsv, unless already set
#   traces_clear           empties them
#   traces_print TOP       the three summaries (TOP rows where a summary ranks)
traces_on() {
  export GRADING_TRACE=${GRADING_TRACE:-$1/$2trace.tsv}
  export GRADING_CALL_TRACE=${GRADING_CALL_TRACE:-$1/$2calls.tsv}
  export GRADING_SLOT_TRACE=${GRADING_SLOT_TRACE:-$1/$2slots.tsv}
}

traces_clear() {
  : >"$GRADING_TRACE"
  : >"$GRADING_CALL_TRACE"
  : >"$GRADING_SLOT_TRACE"
}

traces_print() {
  local ci
  ci=$(dirname "${BASH_SOURCE[0]}")
  bash "$ci/trace-summary.sh" "$GRADING_TRACE" "$1"
  bash "$ci/call-summary.sh" "$GRADING_CALL_TRACE" "$1"
  bash "$ci/slot-timeline.sh" "$GRADING_SLOT_TRACE"
}
