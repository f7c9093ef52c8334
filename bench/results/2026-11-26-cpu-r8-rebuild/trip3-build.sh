#!/usr/bin/env bash
# Call 3a (a fresh machine: trip1's binaries were gone): rebuild the new and nopair binaries of
# trip1.sh for trip3.sh.
set -u
R=/tmp/r8t3b; rm -rf $R; mkdir -p $R
S=$SECONDS
( cmake --preset cpu -DGLUON_CCACHE=OFF > $R/configure.log 2>&1 &&
  cmake --build build --target gluon -j16 > $R/build1.log 2>&1 && cp build/bin/gluon /tmp/gluon-new &&
  patch -p1 < .deps/r8-nopair.patch > $R/patch.log 2>&1 &&
  cmake --build build --target gluon -j16 > $R/build2.log 2>&1 && cp build/bin/gluon /tmp/gluon-nopair &&
  patch -R -p1 < .deps/r8-nopair.patch >> $R/patch.log 2>&1 ) || { echo BUILD FAILED; tail -30 $R/*.log; exit 1; }
echo "built at $((SECONDS - S)) s"
