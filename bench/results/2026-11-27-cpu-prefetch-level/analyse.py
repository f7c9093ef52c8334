"""Prefetch distance and level on the Xeon host (trip 1), and compute against memory (trips 2, 3).
Run from this folder: python3 analyse.py"""
import glob
import json
import os
import statistics


def load(p):
    with open(p) as f:
        return json.load(f)


print("trip 1: each setting's GFLOP/s over the default's (ahead/2/l1), inside one process, 48^4")
rows = {}
for p in sorted(glob.glob("trip1/*.json")):
    d = load(p)
    runs = d["ab"]["runs"]
    base = runs[0]["gflops"]
    row = os.path.basename(p).rsplit("-", 1)[0]
    for r in runs[1:]:
        rows.setdefault(row, {}).setdefault("/".join(r["values"]), []).append(r["gflops"] / base)
settings = list(next(iter(rows.values())).keys())
print("row   " + "  ".join("%-13s" % s for s in settings))
allr = {s: [] for s in settings}
for row, by in rows.items():
    print("%-5s " % row + "  ".join("%-13s" % " ".join("%.3f" % x for x in by[s]) for s in settings))
    for s in settings:
        allr[s] += by[s]
print("median " + "  ".join("%-13s" % ("%.3f" % statistics.median(allr[s])) for s in settings))
print()
print("trip 2: Wilson r12, 16 threads: fields in L3 (16^3 x 32) against 48^4 (GFLOP/s, fraction of copy)")
for prec in ("wh12", "ws12", "wd12"):
    small = [load(p) for p in sorted(glob.glob("trip2/%s-16x16x16x32-*.json" % prec))]
    big = [load(p) for p in sorted(glob.glob("trip2/%s-48x48x48x48-*.json" % prec))]
    s = statistics.median(d["gflops"] for d in small)
    b = statistics.median(d["gflops"] for d in big)
    print("%s  in L3 %s  48^4 %s  48^4 / in L3 %.2f" % (
        prec, " ".join("%.1f (%.3f)" % (d["gflops"], d["fraction_of_copy"]) for d in small),
        " ".join("%.1f (%.3f)" % (d["gflops"], d["fraction_of_copy"]) for d in big), b / s))
print()
print("trip 3: 16^3 x 32 (in L3), GFLOP/s per thread")
for prec in ("wh12", "ws12"):
    line = []
    for th in (1, 2, 4, 8, 16):
        d = load("trip3/%s-t%d.json" % (prec, th))
        line.append("%d: %.1f" % (th, d["gflops"] / th))
    print(prec, "  ".join(line))
