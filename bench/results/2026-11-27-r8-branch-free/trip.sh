#!/usr/bin/env bash
# The branch-free r8 rebuild (branch-free.patch, against 5fc56da) against that commit, in the same
# call: ../2026-11-27-r8-factored/trip1.sh with this folder's patch (STAGE=build, then
# STAGE=base and STAGE=bench; ROWS and BASE_FILES as there).
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
PATCH=$HERE/branch-free.patch exec bash "$HERE/../2026-11-27-r8-factored/trip1.sh"
