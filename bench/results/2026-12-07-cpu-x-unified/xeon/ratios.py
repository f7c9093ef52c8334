# Per-row, per-round ratios of the A/B trips' summary lines (bench/cpu-ab-binaries.sh's ab_rounds):
# the mean GFLOP/s of the one-body x hops (GLUON_EXP_X=2) over the mean of HEAD's kernels (0) in
# the same process, and (trip 1) of the o = 0 branch for every task (1) over 0.
#   python3 bench/results/2026-12-07-cpu-x-unified/xeon/ratios.py
import collections
import glob
import os
import re
import statistics

rows = collections.defaultdict(list)
for f in sorted(glob.glob(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'trip*-summary.txt'))):
    for line in open(f):
        m = re.match(r'(\w+)-(\d+)\s', line)
        if not m:
            continue
        by = collections.defaultdict(list)
        for value, gflops in re.findall(r'(\d)\s+([\d.]+) \(', line.split('|')[1]):
            by[value].append(float(gflops))
        base = statistics.mean(by['0'])
        rows[m.group(1)].append((statistics.mean(by['2']) / base, statistics.mean(by['1']) / base if '1' in by else None))
for row, l in rows.items():
    r2 = [a for a, _ in l]
    r1 = [b for _, b in l if b]
    print('%-5s %d rounds, one x body / HEAD: %s, median %.3f%s' %
          (row, len(r2), ' '.join('%.3f' % r for r in r2), statistics.median(r2),
           ('; o = 0 only / HEAD: ' + ' '.join('%.3f' % r for r in r1)) if r1 else ''))
