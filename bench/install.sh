#!/usr/bin/env bash
# A fresh project's install of validate-workflow beside two other dev tools, on the same machine and a warm npm cache
# of its own per tool (the first install fills it, the next three are timed), so the network does not decide.
#   bench/install.sh                      # the tarball `npm pack` makes here, markdownlint-cli2, @commitlint/cli
#   bench/install.sh <label> <spec> ...   # any specs: a tarball, a git URL, name@version
# Prints per run: seconds, the size of node_modules, how many packages the lockfile lists, and npm's warning lines.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ $# -eq 0 ]; then
  (cd "$here" && npm pack --pack-destination "$work" --loglevel=error >/dev/null)
  set -- validate-workflow "$work"/validate-workflow-*.tgz markdownlint-cli2 markdownlint-cli2@0.22.1 commitlint @commitlint/cli@20.5.3
fi
while [ $# -ge 2 ]; do
  label=$1 spec=$2
  shift 2
  cache="$work/cache-$label"
  fill="$work/fill-$label"
  mkdir -p "$fill" && (cd "$fill" && npm init -y >/dev/null && npm i -D "$spec" --cache "$cache" --no-audit --no-fund --loglevel=error >/dev/null)
  for run in 1 2 3; do
    dir="$work/$label-$run"
    mkdir -p "$dir" && cd "$dir" && npm init -y >/dev/null
    start=$(date +%s.%N)
    out=$(npm i -D "$spec" --cache "$cache" --prefer-offline --no-audit --no-fund 2>&1)
    end=$(date +%s.%N)
    packages=$(node -e 'console.log(Object.keys(require("./package-lock.json").packages).length - 1)')
    printf '%s run %s: %.1f s, node_modules %s KB, %s packages, %s warning lines\n' "$label" "$run" \
      "$(echo "$end - $start" | bc)" "$(du -sk node_modules | cut -f1)" "$packages" "$(echo "$out" | grep -ci warn || true)"
    cd "$work"
  done
done
