#!/usr/bin/env bash
# Installs the Debian packages that gluon builds with (DESIGN.md, "Dependencies"), only those
# missing. Safe to run repeatedly; does nothing when everything is present.
set -euo pipefail

packages=(cmake ninja-build g++ make git
          libcli11-dev libtomlplusplus-dev nlohmann-json3-dev libfmt-dev
          libgtest-dev googletest libopenmpi-dev openmpi-bin libopenblas-dev
          libmpfr-dev libgmp-dev ccache
          python3-numpy)  # tests/crosscheck: correlators recomputed from docs/conventions.md

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if ((${#missing[@]} == 0)); then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
sudo=""
if [[ $(id -u) -ne 0 ]]; then
  command -v sudo >/dev/null || { echo "install-deps: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
  sudo="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
if $sudo apt-get update -qq && $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"; then
  exit 0
fi
# Offline machines (the GPU machine has no package registry) may still have the libraries from
# other sources, or carry them (toml++ in .deps/): let CMake say precisely what is missing.
echo "install-deps: WARNING: could not install ${missing[*]}; continuing, CMake will report what it cannot find" >&2
