// When the vector CPU Wilson dslash runs, and its launch (wilson_simd.h).
#include "wilson_simd.h"

#include <omp.h>

#include "gluon/qcd/field_layout.h"

namespace gluon::qcd::detail {

namespace {
bool tiled(const FieldLayout& l, int w) { return l.order == FieldOrder::tiled && l.block == w; }
}  // namespace

bool try_wilson_simd(const DslashCall& call) {
  if (call.ex.backend != runtime::Backend::cpu || call.op != DslashCall::body) return false;
  // A cut lattice: only the interior (mode 2, every hop across a cut skipped); the exterior
  // kernels add the ghosts' hops.
  bool cut = false;
  for (int mu = 0; mu < 4; ++mu) cut = cut || call.view.cut[mu];
  if (cut && call.view.mode != 2) return false;
  const auto& gp = call.u->params();
  const int w = cpu_simd_lanes();
  if (!cpu_simd_available() || !cpu_simd_fits(call.u->geometry())) return false;
  if (!tiled(call.u->layout(), w) || !tiled(call.out->layout(), w) || !tiled(call.in->layout(), w)) return false;
  if (call.x && !tiled(call.x->layout(), w)) return false;
  if (call.fuse != kFusePlain && !(call.c && tiled(call.c->layout(), w))) return false;
  if (!call.u_back || !tiled(call.u_back->layout(), w)) return false;

  WilsonSimdArgs a;
  a.u = call.u->data();
  a.u_back = call.u_back->data();
  a.out = call.out->data();
  a.in = call.in->data();
  a.x = call.x ? call.x->data() : nullptr;
  a.clover = call.fuse != kFusePlain ? call.c->data() : nullptr;
  if (gp.precision == Precision::half) {
    a.out_norm = call.out->norms();
    a.in_norm = call.in->norms();
    a.x_norm = call.x ? call.x->norms() : nullptr;
    a.clover_norm = call.fuse != kFusePlain ? call.c->norms() : nullptr;
  }
  a.fuse = call.fuse;
  a.nreals = stored_reals(gp.reconstruct);
  const SiteIndexer idx = call.u->geometry().indexer();
  for (int mu = 0; mu < 4; ++mu) {
    a.dims[mu] = idx.dims[mu];
    // A hop that wraps around a cut dimension reaches the other end of this rank's block, not its
    // neighbour rank: phase 0 skips it (the links and spinors it reads are this rank's, finite).
    a.phase_f[mu] = call.view.cut[mu] ? 0.0 : call.view.phase_fwd[mu];
    a.phase_b[mu] = call.view.cut[mu] ? 0.0 : call.view.phase_bwd[mu];
  }
  a.parity = call.parity;
  a.half = idx.half;
  a.out_shift = parity_shift(*call.out, call.parity);
  a.in_shift = parity_shift(*call.in, 1 - call.parity);
  a.x_shift = call.x ? parity_shift(*call.x, call.parity) : 0;
  a.a = call.a;
  a.dagger = call.dagger;
  // The bytes of one call: 8 links, in, out, x and the clover blocks per output site.
  const double es = gp.precision == Precision::double_ ? 8 : gp.precision == Precision::single ? 4 : 2;
  const double reals = 8.0 * a.nreals + 24.0 * (call.x ? 3 : 2) + (a.clover ? 72.0 : 0.0);
  a.stream_out = cpu_simd_stream_stores(static_cast<double>(idx.half) * reals * es, true);
  a.prefetch = static_cast<int>(cpu_simd_prefetch(CpuPrefetch::ahead));
  a.prefetch_distance = cpu_simd_prefetch_distance(a.prefetch_distance);
  a.prefetch_l2 = cpu_simd_prefetch_l2();
  // Two tiles a task (single and half): by default wherever they measured faster, inside one
  // process on the Xeon host at 48^4 (bench/results/2026-11-27-cpu-tile-pairs, three processes a
  // row): half and clover 0.99-1.32x (row medians 1.00-1.26), Wilson single r18 1.02-1.09x
  // (median 1.07); Wilson single with r12 and r8 links read 0.90-0.99x and keep one tile. The
  // xpay forms follow their hop's choice (only the hop was timed).
  // Half-tile tasks (X/2 = 4 mod 8, the x86-64-v3 build) pair in single, where 4 floats alone
  // fill only an SSE register: 1.25-1.34x (Wilson r12) and 1.41x (clover) as fast in one process
  // on the 2-core Zen 5 VM at 24^3 x 48; half read 0.76-0.87x (its int16 loads of 4 sites each
  // joined) and keeps single half tiles (docs/bench.md).
  const bool half_tiles = (a.dims[0] / 2) % w != 0;
  // Whole-tile pairs are 16 floats: one register with AVX-512 only (with AVX2 two, which
  // GLUON_CPU_TILE_PAIRS=1 runs for the tests); half-tile pairs are 8, one AVX register.
  const bool pairs_by_default =
      half_tiles ? gp.precision == Precision::single
                 : cpu_simd_isa() == CpuSimdIsa::avx512 &&
                       (gp.precision == Precision::half || call.fuse != kFusePlain || gp.reconstruct == Reconstruct::r18);
  a.tile_pairs = cpu_simd_tile_pairs(pairs_by_default) && gp.precision != Precision::double_;
  // Blocks of the sweep sized by the L2 (cpu_simd.h; every stream a row moves, a tile pair's two
  // rows) in double and single, whose hops wait on memory, where the fields are more than twice
  // the L3. Inside one process on the Xeon host (300 MiB L3) at 48^4 they made the double and
  // single r12 rows 1.03-1.13x as fast (Wilson double 1.09-1.13x), and Wilson double r12 at
  // 32x40x40x48 1.05-1.07x; there single r12 (1.5 times the L3) read 0.93-0.96x, and at 32^4
  // 0.95-1.01x. Half, which its instructions hold, read 0.98-1.01x at 48^4 and keeps the whole
  // sweep (bench/results/2026-11-28-cpu-sweep-blocks).
  const bool pairs_run = a.tile_pairs && a.dims[3] % 4 == 0;
  const int l2_rows = gp.precision == Precision::half
                          ? 0
                          : cpu_simd_l2_block_rows(a.dims, reals * es * (pairs_run ? 2 : 1), omp_get_max_threads());
  a.block_rows = cpu_simd_block_rows(l2_rows);
  const bool v4 = cpu_simd_isa() == CpuSimdIsa::avx512;
  if (half_tiles) {
    // x-rows of X/2 = 4 mod 8 sites (cpu_simd_fits): half-tile tasks, built for
    // x86-64-v3 (the AVX-512 build's double kernel takes whole tiles).
    switch (gp.precision) {
      case Precision::double_: return avx2::wilson_simd_double(a);
      case Precision::single: return avx2::wilson_simd_single_narrow(a);
      case Precision::half: return avx2::wilson_simd_half_narrow(a);
    }
    return false;
  }
  switch (gp.precision) {
    case Precision::double_:
      if (!v4) return avx2::wilson_simd_double(a);
      return a.nreals == 8 ? avx512::wilson_simd_double_r8(a) : avx512::wilson_simd_double(a);
    case Precision::single:
      if (call.fuse != kFusePlain) return v4 ? avx512::wilson_simd_single_clover(a) : avx2::wilson_simd_single_clover(a);
      return v4 ? avx512::wilson_simd_single(a) : avx2::wilson_simd_single(a);
    case Precision::half:
      if (call.fuse != kFusePlain) return v4 ? avx512::wilson_simd_half_clover(a) : avx2::wilson_simd_half_clover(a);
      return v4 ? avx512::wilson_simd_half(a) : avx2::wilson_simd_half(a);
  }
  return false;
}

}  // namespace gluon::qcd::detail
