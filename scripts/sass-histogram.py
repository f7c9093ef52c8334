#!/usr/bin/env python3
"""Opcode histogram of the kernels in `cuobjdump -sass` output (stdin) whose demangled name
contains every pattern given on the command line; one table per kernel, most frequent first.
Static counts (each instruction of the code once, whether executed or not): enough to see which
conversions, branches or local-memory accesses a kernel's code holds and how they compare
between variants. Usage: cuobjdump -sass x.o | scripts/sass-histogram.py PATTERN..."""
import collections
import re
import subprocess
import sys

pats = sys.argv[1:]
funcs, cur = {}, None
for line in sys.stdin:
    m = re.match(r"\s*Function : (\S+)", line)
    if m:
        cur = m.group(1)
        funcs[cur] = collections.Counter()
        continue
    m = re.match(r"\s*/\*[0-9a-f]{4,}\*/\s+(?:@!?U?P\w+\s+)?([A-Z][A-Z0-9_.]*)", line)
    if m and cur:
        funcs[cur][m.group(1).split(".")[0]] += 1
names = list(funcs)
try:
    dem = subprocess.run(["c++filt"], input="\n".join(names), capture_output=True, text=True).stdout.split("\n")
except OSError:
    dem = names
for raw, d in zip(names, dem):
    if not all(p in d for p in pats):
        continue
    c = funcs[raw]
    print(f"== {d[:160]}  ({sum(c.values())} instructions)")
    print("   " + ", ".join(f"{k} {v}" for k, v in c.most_common(40)))
