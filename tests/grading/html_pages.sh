#!/usr/bin/env bash
# The pictures end to end: grade_html draws the per-submission pages and the
# class dashboard from the recorded results in fixtures/html, then
# html_check.cjs opens each in headless Chromium (offline) and keeps a
# screenshot. Without node, puppeteer-core or a working Chromium it skips
# (exit 77) with the reason, unless GRADING_BROWSER_TEST=required (.ci/run).
#   html_pages.sh GRADE_HTML FIXTURES_DIR OUT_DIR REPO_DIR
set -euo pipefail
tool="$1" fixtures="$2" out="$3" repo="$4"
modules="${GRADING_NODE_MODULES:-$repo/.ci/node_modules}"

skip() {
  if [[ "${GRADING_BROWSER_TEST:-}" == required ]]; then
    echo "FAIL: $* (GRADING_BROWSER_TEST=required)"
    exit 1
  fi
  echo "SKIP: $*"
  exit 77
}

# A browser that really starts: Ubuntu's chromium is only a wrapper for a snap.
chromium="${GRADING_CHROMIUM:-}"
if [[ -z "$chromium" ]]; then
  for name in chromium chromium-headless-shell chrome-headless-shell google-chrome-stable google-chrome \
    "$modules"/.browsers/chrome-headless-shell/*/*/chrome-headless-shell; do
    path="$(command -v "$name" 2>/dev/null || true)"
    if [[ -n "$path" ]] && "$path" --headless --no-sandbox --version >/dev/null 2>&1; then
      chromium="$path"
      break
    fi
  done
fi

# The inlined libraries are the pinned ones (vendor/VERSIONS).
bash "$repo/harness/grading/html/update-vendor.sh" --check
rm -rf "$out" && mkdir -p "$out"
# The pages are drawn whatever happens next: a generator failure fails here, browser or not.
charts=(--charts "$fixtures/charts.tsv")
"$tool" report --results "$fixtures/submission/results.json" "${charts[@]}" --out "$out/report.html"
cp -r "$fixtures/class" "$out/class"
"$tool" report --results "$out/class/s0001/results.json" "${charts[@]}" --out "$out/class/s0001/report.html"
"$tool" report --results "$out/class/s0002/results.json" --junit "$out/class/s0002/junit.xml" --prefix s0002. \
  "${charts[@]}" --out "$out/class/s0002/report.html"
"$tool" class "$out/class"
# A student's grade of planted bugs, recorded on an H200: its shrunk counterexamples drawn.
"$tool" report --results "$fixtures/planted/results.json" "${charts[@]}" --out "$out/planted.html"
ls -l "$out/report.html" "$out/planted.html" "$out/class/dashboard.html" "$out"/class/s000?/report.html

command -v node >/dev/null || skip "no node to drive the browser"
[[ -d "$modules/puppeteer-core" ]] || skip "no puppeteer-core under $modules (.ci/run installs it)"
[[ -n "$chromium" ]] || skip "no working Chromium (apt-get install chromium, or set GRADING_CHROMIUM)"
echo "browser: $chromium ($("$chromium" --headless --no-sandbox --version 2>/dev/null | head -1))"

mapfile -t names < <(cut -f2 "$fixtures/class/names.tsv")
node "$(dirname "$0")/html_check.cjs" "$modules" "$chromium" \
  --page "$out/report.html" --charts 9 --shot "$out/report.png" \
  --page "$out/class/dashboard.html" --charts 3 --shot "$out/dashboard.png" \
  --text "${names[0]}" --text "${names[1]}" --text "${names[2]}" \
  --page "$out/class/s0001/report.html" --charts 0 --text "${names[0]}" \
  --page "$out/class/s0002/report.html" --charts 6 --text "${names[1]}" \
  --page "$out/planted.html" --charts 9 --wrong 33 --shot "$out/planted.png" \
  --text "Smallest failing inputs" --text "38.walk/edge_components: the smallest failing input found"
