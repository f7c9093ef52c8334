#!/usr/bin/env bash
# Trip 3 (the same warm machine): one profiled Wilson CGNR double-half solve per binary.
for b in new base; do GLUON_PROFILE=1 GLUON_TUNE_CACHE=$OUT/tc-$b.json build-cuda/ab/gluon-$b bench solver --operator wilson --solver cgnr --precision double --sloppy-precision half --recon 12 --tol 1e-10 --lattice 32,32,32,32 --kappa 0.12 > $OUT/profile-wilson-half-$b.txt 2>&1; done
