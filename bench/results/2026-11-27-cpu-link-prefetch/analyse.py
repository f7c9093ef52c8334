#!/usr/bin/env python3
"""In-process A/B ratios of every trip (trip*/<label>.json): per process, each setting's GFLOP/s
over the first setting's; per row, the ratios over its processes. Writes summary.txt."""
import glob
import json
import os
import statistics

here = os.path.dirname(os.path.abspath(__file__))
lines = []
for trip in sorted(glob.glob(os.path.join(here, "trip[0-9]"))):
    lines.append(f"== {os.path.basename(trip)}")
    rows = {}
    for f in sorted(glob.glob(os.path.join(trip, "*.json"))):
        try:
            d = json.load(open(f))
        except json.JSONDecodeError:
            continue
        if "ab" not in d:
            continue
        label = os.path.basename(f)[:-5]
        runs = d["ab"]["runs"]
        names = d["ab"].get("variables", [d["ab"].get("variable", "")])
        vals = ["/".join(r["values"]) if "values" in r else r["value"] for r in runs]
        base = runs[0]["gflops"]
        row = (label.rsplit("-", 1)[0] if label[-1].isdigit() else label) + " " + ",".join(vals)
        rows.setdefault(row, []).append([r["gflops"] / base for r in runs])
        lines.append(f"{label:14s} {','.join(names)}: " + "  ".join(
            f"{v} {r['gflops']:6.1f} ({r['fraction_of_copy']:.3f})" for v, r in zip(vals, runs)) +
            f"   plain {d['gflops']:6.1f} ({d['fraction_of_copy']:.3f}), copy {d['copy_gbs']:.1f} GB/s")
    lines.append("-- ratio to the first setting, per row (each process):")
    for row, rs in rows.items():
        k = len(rs[0])
        per = ["/".join(f"{r[i]:.3f}" for r in rs) for i in range(1, k)]
        lines.append(f"{row:32s} " + "  ".join(per))
open(os.path.join(here, "summary.txt"), "w").write("\n".join(lines) + "\n")
print("\n".join(lines))
