#!/usr/bin/env bash
# The CPU copy reference against its buffer size on the GPU machine's Xeon host: gluon bench copy
# at 64, 256, 1024 and 4096 MiB a buffer, three rounds, 16 threads (OUT=<dir>; the binary
# carried xz-compressed in build-ab/, see ../2026-11-28-cpu-divby/trip.sh).
set -u
B=/tmp/ab; mkdir -p $B; [ -x $B/gluon-base ] || { xz -dc build-ab/gluon-base.xz > $B/gluon-base; chmod +x $B/gluon-base; }
export OMP_NUM_THREADS=16
getconf -a | grep -i CACHE | head -12
cat /sys/devices/system/cpu/cpu0/cache/index3/size 2>/dev/null
for k in 1 2 3; do
  for mib in 64 256 1024 4096; do
    $B/gluon-base bench copy --backend cpu --size-mib $mib --iterations 20 --json > $OUT/copy-$mib-$k.json 2>/dev/null
    python3 -c "
import json; d=json.load(open('$OUT/copy-$mib-$k.json')); print('$mib MiB round $k: nt %.1f kernel %.1f copy %.1f' % (d.get('nontemporal_copy_gbs',0), d.get('kernel_copy_gbs',0), d['copy_gbs']))"
  done
done
