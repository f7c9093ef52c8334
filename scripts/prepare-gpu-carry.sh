#!/usr/bin/env bash
# Prepares .deps/ (git-ignored) for a trip to the GPU machine, which has no package registry and
# no toml++, and does not see ../shared: toml++ headers from Debian's package, and a copy of the
# shipped gauge files. Then run bench/run-gpu.sh there with .deps carried along.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p .deps
if [[ ! -f .deps/tomlpp/usr/include/toml++/toml.h ]]; then
  tmp=$(mktemp -d)
  (cd "$tmp" && apt-get download libtomlplusplus-dev)
  dpkg -x "$tmp"/libtomlplusplus-dev_*.deb .deps/tomlpp
  rm -rf "$tmp"
fi
if [[ -d ../shared/testdata/gauge ]]; then
  mkdir -p .deps/testdata
  cp -r ../shared/testdata/gauge .deps/testdata/
fi
du -sh .deps
