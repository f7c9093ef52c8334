#!/usr/bin/env python3
"""Summary and SVG plots of bench/scale-gpu.sh's runs (issue 7; docs/parallel.md).

    python3 scripts/plot-scaling.py OUT [--no-svg] [--summary FILE]

Reads OUT/*.json by the names bench/scale-gpu.sh gives them:

    strong-<lattice>-<precision>-k<K>-g<grid>-<policy>.json   gluon bench dslash (K=1: policy none)
    weak-<local lattice>-<precision>-k<K>-g<grid>-<policy>.json
    solve-<lattice>-k<K>-g<grid>.json                          gluon solve
    g4-k<K>-s<ring size>.json                                  gluon g4
    hpl-k<K>-<P>x<Q>.json                                      gluon hpl --json

and writes OUT/summary.txt (also printed: for every curve the speed-up over one GPU and the
efficiency, and the --model numbers of every split dslash) and one SVG per curve family:
strong-<lattice>.svg, weak-<local>.svg (weak-32^4.svg for 32,32,32,32), solve.svg, g4-ring.svg,
hpl.svg. Each SVG has two panels over the number of GPUs (log2 axis): the aggregate rate with the
ideal line (K times the one-GPU rate) and the speed-up with the ideal line y = K.

Definitions (K = GPUs, index 1 = the one-GPU run of the same curve):
  strong dslash  speed-up = t_1 / t_K (time per one-parity dslash), efficiency = speed-up / K
  weak dslash    efficiency = t_1 / t_K (K times the work in the same time is ideal);
                 scaled speed-up = K t_1 / t_K
  solve          speed-up = solver_seconds_1 / solver_seconds_K (the same 12 solves)
  g4 ring        rate = K x measurements per rank / ring_s (measurements accumulated per second
                 into the whole G4); speed-up = rate_K / rate_1
  hpl            the same N^2 per GPU: speed-up = GFLOP/s_K / GFLOP/s_1, efficiency = speed-up / K
Python standard library only.
"""
import glob
import json
import math
import os
import re
import sys
from xml.sax.saxutils import escape

LAT = r"\d+x\d+x\d+x\d+"
RE_STRONG = re.compile(rf"^strong-(?P<lat>{LAT})-(?P<prec>[a-z]+)-k(?P<k>\d+)-g(?P<grid>{LAT})-(?P<pol>[a-z-]+)\.json$")
RE_WEAK = re.compile(rf"^weak-(?P<lat>{LAT})-(?P<prec>[a-z]+)-k(?P<k>\d+)-g(?P<grid>{LAT})-(?P<pol>[a-z-]+)\.json$")
RE_SOLVE = re.compile(rf"^solve-(?P<lat>{LAT})-k(?P<k>\d+)-g(?P<grid>{LAT})\.json$")
RE_G4 = re.compile(r"^g4-k(?P<k>\d+)-s(?P<s>\d+)\.json$")
RE_HPL = re.compile(r"^hpl-k(?P<k>\d+)-(?P<p>\d+)x(?P<q>\d+)\.json$")


def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def grid_of(text):
    return [int(v) for v in text.split("x")]


def cut_label(grid):
    dims = [d for d, n in zip("xyzt", grid) if n > 1]
    return ",".join(dims) if dims else "none"


def fmt_grid(grid):
    return "x".join(str(v) for v in grid)


def fx(v, w=7):
    """A speed-up as text, or '-'."""
    return f"{v:{w - 1}.2f}x" if v is not None else "-".rjust(w)


def fpct(v, w=6):
    """A fraction as a percentage, or '-'."""
    return f"{100 * v:{w - 1}.1f}%" if v is not None else "-".rjust(w)


def rate_text(v, w):
    """A rate: no decimals from 100 on, one below (CPU dry runs)."""
    return f"{v:{w}.0f}" if v >= 100 else f"{v:{w}.1f}"


def lattice_label(text):
    v = text.split("x")
    if len(set(v)) == 1:
        return f"{v[0]}^4"
    if v[0] == v[1] == v[2]:
        return f"{v[0]}^3x{v[3]}"
    return text


# ----------------------------------------------------------------------------------------------
# Reading the runs

def read_runs(out):
    runs = {"strong": [], "weak": [], "solve": [], "g4": [], "hpl": []}
    for path in sorted(glob.glob(os.path.join(out, "*.json"))):
        name = os.path.basename(path)
        for kind, rx in (("strong", RE_STRONG), ("weak", RE_WEAK), ("solve", RE_SOLVE), ("g4", RE_G4),
                         ("hpl", RE_HPL)):
            m = rx.match(name)
            if not m:
                continue
            j = load(path)
            if j is None:
                print(f"warning: {name}: not JSON, skipped", file=sys.stderr)
                break
            r = dict(m.groupdict())
            r["k"] = int(r["k"])
            r["name"] = name[:-5]
            r["json"] = j
            if "grid" in r:
                r["grid"] = grid_of(r["grid"])
            runs[kind].append(r)
            break
    return runs


def read_status(out):
    """runs.tsv: name -> (gpus, seconds, status)."""
    st = {}
    try:
        with open(os.path.join(out, "runs.tsv")) as f:
            next(f, None)
            for line in f:
                p = line.rstrip("\n").split("\t")
                if len(p) >= 4:
                    st[p[0]] = (p[1], p[2], p[3])
    except OSError:
        pass
    return st


# A curve: label, style and points [(K, rate, speed-up, row text)], plus the reference rate.
class Curve:
    def __init__(self, label, style=None):
        self.label = label
        self.style = style or {}
        self.points = []  # (k, rate, speedup)

    def add(self, k, rate, speedup):
        self.points.append((k, rate, speedup))
        self.points.sort()


# ----------------------------------------------------------------------------------------------
# Summaries

def dslash_row(r, ref, weak=False):
    j = r["json"]
    k = r["k"]
    t = j["dslash_ms"]
    t1 = ref["json"]["dslash_ms"] if ref else None
    if weak:
        eff = t1 / t if t1 else None
        sp = k * eff if eff is not None else None
    else:
        sp = t1 / t if t1 else None
        eff = sp / k if sp is not None else None
    s = (f"    {k:>2}  {fmt_grid(r['grid']):<8} {cut_label(r['grid']):<6} {j.get('halo_policy', '-'):<10} "
         f"{t:9.4f} {rate_text(j['gflops'], 9)} {rate_text(j.get('per_rank_gflops', j['gflops']), 8)} "
         f"{fx(sp, 8)} {fpct(eff)}")
    if "exchange_ms" in j:
        m = j.get("model", {})
        s += (f"  {j['exchange_ms']:7.4f} {100 * j['hidden_fraction']:5.0f}%"
              f"  {m.get('face_bytes_per_dslash', 0) / 1e6:15.3g} {m.get('interior_us', 0):12.1f}"
              f" {m.get('needed_gbs', 0):12.3g} {m.get('measured_exchange_gbs', 0):14.3g} {m.get('slides_wilson_gbs', 0):22.3g}")
    return s, sp, eff


def dslash_head(sp_label="speed-up"):
    return ("    " + f"{'K':>2}  {'grid':<8} {'cut':<6} {'policy':<10} {'ms/dslash':>9} {'GFLOP/s':>9} {'per-GPU':>8} "
            f"{sp_label:>8} {'eff':>6}  {'exch ms':>7} {'hidden':>5}  {'model: faces MB':>15} {'interior us':>12} "
            f"{'needed GB/s':>12} {'exchange GB/s':>14} {'slides 0.364MF/L GB/s':>22}")


def strong_summary(runs, lines, figures):
    by_lat = {}
    for r in runs["strong"]:
        by_lat.setdefault(r["lat"], []).append(r)
    for lat in sorted(by_lat, key=lambda s: [int(v) for v in s.split("x")]):
        rs = by_lat[lat]
        curves = []
        precs = sorted({r["prec"] for r in rs}, key=lambda p: ("single", "double", "half").index(p) if p in ("single", "double", "half") else 9)
        refs = {}
        for prec in precs:
            ref = next((r for r in rs if r["prec"] == prec and r["k"] == 1), None)
            refs[prec] = ref
            lines.append(f"strong scaling: clover dslash recon 12, {lattice_label(lat)} ({lat}), {prec}")
            if ref:
                lines.append(f"  1 GPU: {ref['json']['dslash_ms']:.4f} ms per dslash, {ref['json']['gflops']:.0f} GFLOP/s "
                             f"({ref['json'].get('device', '?')})")
            else:
                lines.append("  1 GPU: no result (speed-ups not available)")
            keys = sorted({(cut_label(r["grid"]), r["pol"]) for r in rs if r["prec"] == prec and r["k"] > 1},
                          key=lambda c: (len(c[0]), c[0], c[1] != "overlap", c[1]))
            for cut, pol in keys:
                lines.append(f"  curve: cut {cut}, --halo {pol}")
                lines.append(dslash_head())
                c = Curve(f"{prec} cut {cut} {pol}", {"prec": prec, "cut": cut, "pol": pol})
                if ref:
                    row, _, _ = dslash_row(ref, ref)
                    lines.append(row)
                    c.add(1, ref["json"]["gflops"], 1.0)
                for r in sorted((r for r in rs if r["prec"] == prec and r["k"] > 1 and cut_label(r["grid"]) == cut
                                 and r["pol"] == pol), key=lambda r: r["k"]):
                    row, sp, _ = dslash_row(r, ref)
                    lines.append(row)
                    c.add(r["k"], r["json"]["gflops"], sp)
                curves.append(c)
            best = best_of(rs, prec)
            if best and ref:
                lines.append("  best of all cuts and policies per K: " + ", ".join(
                    f"K={k} {ref['json']['dslash_ms'] / r['json']['dslash_ms']:.2f}x "
                    f"({100 * ref['json']['dslash_ms'] / r['json']['dslash_ms'] / k:.0f}%, {cut_label(r['grid'])} {r['pol']})"
                    for k, r in best))
            lines.append("")
        ideals = [(f"ideal {p}", refs[p]["json"]["gflops"]) for p in precs if refs.get(p)]
        figures.append((f"strong-{lat}.svg",
                        f"Strong scaling, clover dslash (recon 12), {lattice_label(lat)}",
                        "aggregate GFLOP/s", curves, ideals, "speed-up t1/tK"))


def best_of(rs, prec):
    out = {}
    for r in rs:
        if r["prec"] != prec or r["k"] < 2:
            continue
        if r["k"] not in out or r["json"]["dslash_ms"] < out[r["k"]]["json"]["dslash_ms"]:
            out[r["k"]] = r
    return sorted(out.items())


def weak_summary(runs, lines, figures):
    by_lat = {}
    for r in runs["weak"]:
        by_lat.setdefault((r["lat"], r["prec"]), []).append(r)
    for (lat, prec), rs in sorted(by_lat.items()):
        ref = next((r for r in rs if r["k"] == 1), None)
        lines.append(f"weak scaling: clover dslash recon 12, {prec}, {lattice_label(lat)} ({lat}) per GPU, "
                     f"efficiency = t1/tK, scaled speed-up = K t1/tK")
        if ref:
            lines.append(f"  1 GPU: {ref['json']['dslash_ms']:.4f} ms per dslash, {ref['json']['gflops']:.0f} GFLOP/s")
        else:
            lines.append("  1 GPU: no result (efficiencies not available)")
        curves = []
        for cut in sorted({cut_label(r["grid"]) for r in rs if r["k"] > 1}, key=lambda c: (len(c), c)):
            pol = sorted({r["pol"] for r in rs if r["k"] > 1 and cut_label(r["grid"]) == cut})
            lines.append(f"  curve: cut {cut} (global lattice grown along {cut}), --halo {'/'.join(pol)}")
            lines.append(dslash_head("scaled"))
            c = Curve(f"cut {cut}", {"prec": prec, "cut": cut, "pol": pol[0] if pol else "auto"})
            if ref:
                lines.append(dslash_row(ref, ref, weak=True)[0])
                c.add(1, ref["json"]["gflops"], 1.0)
            for r in sorted((r for r in rs if r["k"] > 1 and cut_label(r["grid"]) == cut), key=lambda r: r["k"]):
                row, sp, _ = dslash_row(r, ref, weak=True)
                lat_g = "x".join(str(v) for v in r["json"].get("lattice", []))
                lines.append(row + f"   (global {lat_g})")
                c.add(r["k"], r["json"]["gflops"], sp)
            curves.append(c)
        lines.append("")
        ideals = [("ideal", ref["json"]["gflops"])] if ref else []
        name = f"weak-{lattice_label(lat)}.svg" if lattice_label(lat).endswith("^4") else f"weak-{lat}.svg"
        if prec != "single":
            name = name[:-4] + f"-{prec}.svg"
        figures.append((name, f"Weak scaling, clover dslash {prec} (recon 12), {lattice_label(lat)} per GPU",
                        "aggregate GFLOP/s", curves, ideals, "scaled speed-up K t1/tK"))


def solve_summary(runs, lines, figures):
    by_lat = {}
    for r in runs["solve"]:
        by_lat.setdefault(r["lat"], []).append(r)
    for lat, rs in sorted(by_lat.items()):
        rs.sort(key=lambda r: r["k"])
        ref = next((r for r in rs if r["k"] == 1), None)
        lines.append(f"strong scaling: mixed double-single clover solve, {lattice_label(lat)} ({lat}), "
                     f"{len(ref['json'].get('columns', [])) if ref else '?'} columns")
        lines.append("     K  grid     cut    policy     iterations  solver s  speed-up   eff   s/iteration  speed-up/it"
                     "  GFLOP/s all ranks  per rank    max rel pion diff vs 1 GPU")
        c = Curve("cut " + (cut_label(rs[-1]["grid"]) if rs else "t"), {"pol": "auto"})
        for r in rs:
            j = r["json"]
            t, it = j["solver_seconds"], j["iterations"]
            sp = ref["json"]["solver_seconds"] / t if ref else None
            spi = (ref["json"]["solver_seconds"] / ref["json"]["iterations"]) / (t / it) if ref and it else None
            diff = "-"
            if ref and r is not ref:
                try:
                    a, b = j["correlators"]["pion"], ref["json"]["correlators"]["pion"]
                    diff = f"{max(abs(x - y) / abs(y) for x, y in zip(a, b) if y != 0):.1e}"
                except (KeyError, TypeError, ValueError):
                    pass
            lines.append(f"    {r['k']:>2}  {fmt_grid(r['grid']):<8} {cut_label(r['grid']):<6} {j.get('halo_policy', '-'):<10} "
                         f"{it:10d} {t:9.3f} {fx(sp, 9)} "
                         f"{fpct(sp / r['k'] if sp else None)} {1e3 * t / it if it else 0:10.3f} ms "
                         f"{fx(spi, 11)}  {j['gflops']:17.0f} {j.get('gflops_per_rank', j['gflops'] / r['k']):9.0f}   {diff}")
            if sp:
                c.add(r["k"], 1.0 / t, sp)
        lines.append("  (gluon solve's gflops: every rank's flops over the slowest rank's solver time)")
        lines.append("")
        ideals = [("ideal", 1.0 / ref["json"]["solver_seconds"])] if ref else []
        name = "solve.svg" if len(by_lat) == 1 else f"solve-{lat}.svg"
        figures.append((name, f"Strong scaling, mixed-precision clover solve, {lattice_label(lat)}",
                        "solves per second (1 / solver s)", [c], ideals, "speed-up"))


def g4_summary(runs, lines, figures):
    rs = sorted(runs["g4"], key=lambda r: (r["k"], -int(r["s"])))
    if not rs:
        return
    ref = next((r for r in rs if r["k"] == 1), None)

    def rate(r):
        j = r["json"]
        return j["ranks"] * j["measurements_per_rank"] / j["ring_s"] if j["ring_s"] > 0 else 0.0

    j0 = rs[0]["json"]
    lines.append(f"G4 ring: cluster {j0['cluster']}, 2F = {2 * j0['frequencies']}, N_q = {j0['transfers']}, "
                 f"{','.join(j0['channels'])}, {j0['precision']}, {j0['measurements_per_rank']} measurements per rank; "
                 f"G4 {j0['g4_bytes_total'] / 2**30:.2f} GiB")
    lines.append("  rate = ranks x measurements per rank / ring_s; speed-up = rate_K / rate_1; efficiency = speed-up / K")
    lines.append("     K  ring  sub-rings  G4/rank GiB   ring s   meas/s  speed-up   eff  hidden  ring GB/s  transfers GB/s"
                 "  peer GB/s  update GB/s")
    curves = {}
    for r in rs:
        j = r["json"]
        s = int(r["s"])
        rt = rate(r)
        sp = rt / rate(ref) if ref and rate(ref) > 0 else None
        peer = j.get("peer_bandwidth_gbs")
        lines.append(f"    {r['k']:>2}  {s:>4}  {j['subrings']:>9}  {j['g4_bytes_per_rank'] / 2**30:11.3f} {j['ring_s']:8.4f} "
                     f"{rt:8.1f} {fx(sp, 9)} {fpct(sp / r['k'] if sp else None)} "
                     f"{100 * j['hidden_fraction']:5.0f}%  {j['ring_bandwidth_gbs']:9.1f} {j['transfer_bandwidth_gbs']:15.1f}"
                     f"  {(format(peer, '9.1f') if peer else '        -')}  {j['update_gbs']:11.0f}")
        if r["k"] == 1:
            continue
        labels = ["ring of all K"] if s == r["k"] else []
        if s < r["k"] or any(int(o["s"]) == s and o["k"] > s for o in rs):
            labels.append(f"sub-rings of {s}")  # a ring of S is also one sub-ring of S
        for label in labels:
            curves.setdefault(label, Curve(label, {"pol": "overlap" if label.startswith("ring") else "no-overlap"}))
            curves[label].add(r["k"], rt, sp)
    for c in curves.values():
        if ref:
            c.add(1, rate(ref), 1.0)
    lines.append("")
    ideals = [("ideal", rate(ref))] if ref else []
    figures.append(("g4-ring.svg", f"G4 ring accumulation, {j0['cluster']}, N_q = {j0['transfers']}, {j0['precision']}",
                    "measurements per second", list(curves.values()), ideals, "speed-up"))


def hpl_summary(runs, lines, figures):
    rs = sorted(runs["hpl"], key=lambda r: (r["k"], int(r["p"])))
    if not rs:
        return

    def first(r):
        rr = r["json"].get("runs") or [{}]
        return rr[0]

    ref = next((r for r in rs if r["k"] == 1), None)
    g1 = first(ref).get("gflops") if ref and first(ref).get("passed") else None
    lines.append("Linpack (gluon hpl): the same N^2 per GPU (N = NH sqrt(K)); speed-up = GFLOP/s_K / GFLOP/s_1")
    lines.append("     K  P x Q        N    NB     time s      GFLOP/s   per GPU  speed-up   eff  resident  residual check")
    curves = {}
    for r in rs:
        f = first(r)
        g = f.get("gflops", 0.0)
        sp = g / g1 if g1 and f.get("passed") else None
        res = f.get("resident")
        lines.append(f"    {r['k']:>2}  {r['p']} x {r['q']}  {f.get('n', 0):>8} {f.get('nb', 0):>5} {f.get('time_s', 0):10.2f} "
                     f"{g:12.1f} {g / r['k']:9.1f} {fx(sp, 9)} {fpct(sp / r['k'] if sp else None)}  "
                     f"{'-' if res is None else ('yes' if res else 'no'):>8}  {'PASSED' if f.get('passed') else 'FAILED'}")
        if sp and r["k"] > 1:
            p = int(r["p"])
            c = curves.setdefault(p, Curve(f"P = {p} (grids {p} x Q)", {"pol": "overlap" if p == 1 else "no-overlap"}))
            c.add(r["k"], g, sp)
    for c in curves.values():
        c.add(1, g1, 1.0)
    lines.append(f"  engine: {rs[0]['json'].get('engine', '?')}")
    lines.append("")
    figures.append(("hpl.svg", "Linpack, same N^2 per GPU (N = NH sqrt(K))", "aggregate GFLOP/s",
                    [curves[p] for p in sorted(curves)], [("ideal", g1)] if g1 else [], "speed-up"))


# ----------------------------------------------------------------------------------------------
# SVG

PALETTE = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#bcbd22",
           "#7f7f7f"]
DASH = {"overlap": "", "none": "", "auto": "", "no-overlap": "7,4"}


def nice_max(v):
    if v <= 0:
        return 1.0, 0.2
    e = 10 ** math.floor(math.log10(v / 5))
    for m in (1, 2, 2.5, 5, 10):
        step = m * e
        if v / step <= 6:
            return step * math.ceil(v * 1.05 / step), step
    return v, v / 5


def tick_text(v):
    if v == 0:
        return "0"
    if abs(v) >= 1000:
        return f"{v:,.0f}"
    if abs(v) >= 10:
        return f"{v:.0f}"
    return f"{v:g}"


def panel(x0, y0, w, h, title, ylabel, series, ideal, xs):
    """series: [(label, color, dash, [(x, y)])]; ideal: [(label, [(x, y)])]. Returns SVG text."""
    o = []
    ymax_data = max([y for _, _, _, pts in series for _, y in pts] + [y for _, pts in ideal for _, y in pts] + [0])
    ymax, step = nice_max(ymax_data)
    kmin, kmax = min(xs), max(xs)
    lo, hi = math.log2(kmin), math.log2(kmax)
    if hi - lo < 1e-9:
        lo, hi = lo - 0.5, hi + 0.5

    def X(k):
        return x0 + (math.log2(k) - lo) / (hi - lo) * w

    def Y(v):
        return y0 + h - v / ymax * h

    o.append(f'<text x="{x0 + w / 2:.1f}" y="{y0 - 10:.1f}" text-anchor="middle" font-size="13" font-weight="bold">'
             f'{escape(title)}</text>')
    o.append(f'<rect x="{x0}" y="{y0}" width="{w}" height="{h}" fill="none" stroke="#444"/>')
    v = 0.0
    while v <= ymax + 1e-9 * ymax:
        y = Y(v)
        o.append(f'<line x1="{x0}" y1="{y:.1f}" x2="{x0 + w}" y2="{y:.1f}" stroke="#ddd"/>')
        o.append(f'<text x="{x0 - 6}" y="{y + 4:.1f}" text-anchor="end" font-size="11">{tick_text(v)}</text>')
        v += step
    for k in xs:
        x = X(k)
        o.append(f'<line x1="{x:.1f}" y1="{y0}" x2="{x:.1f}" y2="{y0 + h}" stroke="#eee"/>')
        o.append(f'<text x="{x:.1f}" y="{y0 + h + 16}" text-anchor="middle" font-size="11">{k}</text>')
    o.append(f'<text x="{x0 + w / 2:.1f}" y="{y0 + h + 34}" text-anchor="middle" font-size="12">GPUs</text>')
    o.append(f'<text x="{x0 - 52:.1f}" y="{y0 + h / 2:.1f}" text-anchor="middle" font-size="12" '
             f'transform="rotate(-90 {x0 - 52:.1f} {y0 + h / 2:.1f})">{escape(ylabel)}</text>')
    for label, pts in ideal:
        d = " ".join(f"{X(k):.1f},{Y(y):.1f}" for k, y in pts)
        o.append(f'<polyline points="{d}" fill="none" stroke="#999" stroke-width="1.5" stroke-dasharray="3,3">'
                 f'<title>{escape(label)}</title></polyline>')
        k, y = pts[-1]
        o.append(f'<text x="{X(k) - 4:.1f}" y="{Y(y) - 5:.1f}" text-anchor="end" font-size="10" fill="#777">'
                 f'{escape(label)}</text>')
    for label, color, dash, pts in series:
        if not pts:
            continue
        d = " ".join(f"{X(k):.1f},{Y(y):.1f}" for k, y in pts)
        da = f' stroke-dasharray="{dash}"' if dash else ""
        o.append(f'<polyline points="{d}" fill="none" stroke="{color}" stroke-width="2"{da}/>')
        for k, y in pts:
            o.append(f'<circle cx="{X(k):.1f}" cy="{Y(y):.1f}" r="3.5" fill="{color}">'
                     f'<title>{escape(label)}: K={k}, {y:.4g}</title></circle>')
    return "\n".join(o)


def write_svg(path, title, ylabel, curves, ideals, splabel):
    curves = [c for c in curves if c.points]
    if not curves:
        return False
    xs = sorted({k for c in curves for k, _, _ in c.points})
    xs = sorted(set(xs) | {2 ** i for i in range(1, 8) if xs[0] < 2 ** i < xs[-1]})  # every power of 2 between
    colors = {}
    series_rate, series_sp = [], []
    for i, c in enumerate(curves):
        key = (c.style.get("prec"), c.style.get("cut"), c.label if "cut" not in c.style else None)
        if key not in colors:
            colors[key] = PALETTE[len(colors) % len(PALETTE)]
        color = colors[key]
        dash = DASH.get(c.style.get("pol", ""), "")
        series_rate.append((c.label, color, dash, [(k, r) for k, r, _ in c.points]))
        series_sp.append((c.label, color, dash, [(k, s) for k, _, s in c.points if s is not None]))
    ideal_rate = [(label, [(k, k * r1) for k in xs]) for label, r1 in ideals if r1]
    ideal_sp = [("ideal", [(k, float(k)) for k in xs])]
    pw, ph, ml, mt = 380, 260, 80, 60
    legend_rows = len(curves) + 1
    width = ml + pw + ml + pw + 30
    height = mt + ph + 60 + 18 * ((legend_rows + 1) // 2) + 20
    o = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
         f'viewBox="0 0 {width} {height}" font-family="Helvetica, Arial, sans-serif">',
         f'<rect width="{width}" height="{height}" fill="white"/>',
         f'<text x="{width / 2:.0f}" y="24" text-anchor="middle" font-size="15" font-weight="bold">{escape(title)}</text>',
         panel(ml, mt, pw, ph, ylabel, ylabel, series_rate, ideal_rate, xs),
         panel(2 * ml + pw, mt, pw, ph, splabel, splabel, series_sp, ideal_sp, xs)]
    ly = mt + ph + 60
    items = [(c.label, s[1], s[2]) for c, s in zip(curves, series_rate)] + [("ideal", "#999", "3,3")]
    rows = (len(items) + 1) // 2
    for i, (label, color, dash) in enumerate(items):  # column-major: the first half on the left
        x = ml + (i // rows) * (pw + ml)
        y = ly + 18 * (i % rows)
        da = f' stroke-dasharray="{dash}"' if dash else ""
        o.append(f'<line x1="{x}" y1="{y - 4}" x2="{x + 28}" y2="{y - 4}" stroke="{color}" stroke-width="2"{da}/>')
        o.append(f'<text x="{x + 34}" y="{y}" font-size="11">{escape(label)}</text>')
    o.append("</svg>")
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write("\n".join(o) + "\n")
    os.replace(tmp, path)
    return True


# ----------------------------------------------------------------------------------------------

def main(argv):
    args = [a for a in argv[1:] if not a.startswith("--")]
    svg = "--no-svg" not in argv
    if len(args) != 1 or not os.path.isdir(args[0]):
        print(__doc__.strip().split("\n\n")[1], file=sys.stderr)
        return 2
    out = args[0]
    summary_path = os.path.join(out, "summary.txt")
    if "--summary" in argv:
        i = argv.index("--summary")
        if i + 1 < len(argv):
            summary_path = argv[i + 1]
    runs = read_runs(out)
    lines, figures = [], []
    status = read_status(out)
    dev = next((r["json"].get("device") for r in runs["strong"] + runs["weak"] if r["json"].get("device")), None)
    lines.append(f"bench/scale-gpu.sh results in {os.path.abspath(out)}" + (f", device {dev}" if dev else ""))
    lines.append("")
    strong_summary(runs, lines, figures)
    weak_summary(runs, lines, figures)
    solve_summary(runs, lines, figures)
    g4_summary(runs, lines, figures)
    hpl_summary(runs, lines, figures)
    bad = [(n, s) for n, s in status.items() if s[2] != "ok"]
    if status:
        total = sum(int(s[1]) for s in status.values() if s[1].isdigit())
        lines.append(f"runs: {len(status)} ({len(status) - len(bad)} ok), {total} s of run time in all (runs.tsv)")
        for n, s in bad:
            lines.append(f"  {n}: {s[2]}")
    if svg:
        written = []
        for name, title, ylabel, curves, ideals, splabel in figures:
            if write_svg(os.path.join(out, name), title, ylabel, curves, ideals, splabel):
                written.append(name)
        lines.append("plots: " + (", ".join(written) if written else "none (no curve has a point)"))
    text = "\n".join(lines) + "\n"
    tmp = summary_path + ".tmp"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, summary_path)
    sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
