#!/usr/bin/env bash
# Refreshes the chart libraries inlined into the HTML reports (html_report.h)
# from the npm registry: the pinned versions below, their minified browser
# builds and licences, into vendor/, with vendor/VERSIONS recording each
# file's version, registry integrity and sha256. Grading needs none of this:
# the files are committed, so a grading machine needs neither network nor npm.
#   update-vendor.sh           fetch the pinned versions (edit them here to upgrade)
#   update-vendor.sh --check   the committed files still match vendor/VERSIONS
set -euo pipefail
cd "$(dirname "$0")/vendor"

packages=("vega 6.4.0 build/vega.min.js" "vega-lite 6.5.0 build/vega-lite.min.js" "vega-embed 7.3.0 build/vega-embed.min.js")

if [[ "${1:-}" == "--check" ]]; then
  # VERSIONS lines: name version file integrity sha256
  while read -r _ _ file _ sha; do
    echo "$sha  $file"
  done < <(grep -v '^#' VERSIONS) | sha256sum --check --quiet
  exit
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
{
  echo "# name version file npm-integrity sha256 (written by ../update-vendor.sh; the sourceMappingURL comment is dropped)"
  for p in "${packages[@]}"; do
    read -r name version path <<<"$p"
    tarball="$(cd "$work" && npm pack --silent "$name@$version")"
    mkdir -p "$work/$name" && tar -xzf "$work/$tarball" -C "$work/$name"
    file="$(basename "$path")"
    # The map is not shipped: the comment would only make a browser's tools ask for it.
    grep -v '^//# sourceMappingURL=' "$work/$name/package/$path" | sed 's|//# sourceMappingURL=[^ ]*$||' >"$file"
    if grep -qi '</script' "$file"; then
      echo "update-vendor.sh: $file contains </script, which would end the inline script" >&2
      exit 1
    fi
    cp "$work/$name/package/LICENSE" "LICENSE.$name"
    echo "$name $version $file $(npm view "$name@$version" dist.integrity) $(sha256sum "$file" | cut -d' ' -f1)"
  done
} >VERSIONS.new
mv VERSIONS.new VERSIONS
cat VERSIONS
