#!/usr/bin/env python3
"""Tile pairs on the Xeon host: the in-process A/B of trips 1 and 3 (GLUON_CPU_TILE_PAIRS=0,1),
per row the ratio pairs / one tile, and each process's default (its plain measurement) as a
fraction of the copy it measured; trip 2's processes (this tree against the base) as well."""
import glob, json, os, re, statistics

here = os.path.dirname(os.path.abspath(__file__))
rows = {}
for trip in ("trip1", "trip3"):
    for f in sorted(glob.glob(os.path.join(here, trip, "*.json"))):
        label = os.path.basename(f)[:-5]
        row = label.rsplit("-", 1)[0]
        d = json.load(open(f))
        r = {x["values"][0]: x for x in d["ab"]["runs"]}
        rows.setdefault(row, []).append((trip, r["1"]["gflops"] / r["0"]["gflops"], d["fraction_of_copy"],
                                         r["0"]["fraction_of_copy"], r["1"]["fraction_of_copy"]))
print("row    pairs/one tile (trip1 x2, trip3)   median | default's fraction of copy (per process)")
for row in sorted(rows):
    v = rows[row]
    ratios = [x[1] for x in v]
    print("%-6s %s   %.3f | %s" % (row, " ".join("%.3f" % x for x in ratios), statistics.median(ratios),
                                  " ".join("%.3f" % x[2] for x in v)))
print()
print("trip 2 (separate processes, interleaved): GFLOP/s and fraction of copy, new / base")
t2 = {}
for f in sorted(glob.glob(os.path.join(here, "trip2", "*.json"))):
    m = re.match(r"(\w+)-(new|base)-(\d)", os.path.basename(f)[:-5])
    d = json.load(open(f))
    t2.setdefault(m.group(1), {}).setdefault(m.group(2), []).append((d["gflops"], d["fraction_of_copy"]))
for row, d in t2.items():
    print("%-6s new %s  base %s  ratio of medians %.3f" % (
        row, " ".join("%.1f (%.3f)" % x for x in d["new"]), " ".join("%.1f (%.3f)" % x for x in d["base"]),
        statistics.median(x[0] for x in d["new"]) / statistics.median(x[0] for x in d["base"])))
