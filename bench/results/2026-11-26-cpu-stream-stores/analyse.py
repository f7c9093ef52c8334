#!/usr/bin/env python3
"""Tables of trip1-4 (run from this folder): per case, the median over runs of GFLOP/s and of the
fraction of the copy (the non-temporal copy of the same process, copy_gbs) and of the plain copy
(kernel_copy_gbs, the reference before this change); plain stores against non-temporal ones."""
import glob, json, statistics as st, collections

runs = collections.defaultdict(list)  # (case, stores) -> [json]
for f in glob.glob('trip*/**/*.json', recursive=True):
    d = json.load(open(f))
    if d.get('benchmark') != 'dslash' or d['host'].get('cpu_vector_isa') != 'avx512' or 'avx2' in f:
        continue  # copies, and trip5's AVX2-forced runs
    case = f"{d['operator']}-{d['precision']}-r{d['recon']}"
    # trip1/2 and trip5 name the store kind; trip3/4 ran the default of that tree, which
    # streamed above the last-level cache, as at 48^4 (plain stores became the default after)
    stores = 'plain' if 'plain' in f else 'stream'
    runs[(case, stores)].append(d)

def med(xs):
    return st.median(xs) if xs else float('nan')

print(f"{'case':32s} {'stores':6s} {'n':>2s} {'GFLOP/s':>8s} {'of nt copy':>10s} {'of plain copy':>13s} {'nt copy':>8s} {'plain copy':>10s}")
for (case, stores) in sorted(runs):
    r = runs[(case, stores)]
    g = med([d['gflops'] for d in r])
    f = med([d['fraction_of_copy'] for d in r])
    fp = med([d['effective_gbs'] / d['copy']['kernel_copy_gbs'] for d in r])
    c = med([d['copy']['copy_gbs'] for d in r])
    cp = med([d['copy']['kernel_copy_gbs'] for d in r])
    print(f"{case:32s} {stores:6s} {len(r):2d} {g:8.1f} {f:10.3f} {fp:13.3f} {c:8.1f} {cp:10.1f}")
