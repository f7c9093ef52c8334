// When the vector CPU staggered dslash runs, and its launch (staggered_simd.h).
#include "staggered_simd.h"

#include <vector>

namespace gluon::qcd::detail {

namespace {
bool tiled(const FieldLayout& l) { return l.order == FieldOrder::tiled && l.block == cpu_simd_lanes(); }
bool simd_reconstruct(Reconstruct r) { return r == Reconstruct::r18 || r == Reconstruct::r12; }
}  // namespace

bool staggered_simd_takes(Precision p) {
  return p == Precision::double_ || p == Precision::single || p == Precision::half;
}

bool staggered_simd_links(Reconstruct fat, std::optional<Reconstruct> longlinks) {
  if (!longlinks) return simd_reconstruct(fat) || fat == Reconstruct::r8;
  return fat == Reconstruct::r18 && simd_reconstruct(*longlinks);
}

bool try_staggered_simd(const StaggeredLaunch& L, Precision p) {
  if (L.ex->backend != runtime::Backend::cpu || L.op != StaggeredLaunch::body || !L.hopping) return false;
  // A cut lattice: only the interior (mode 2, every hop across a cut skipped: args.cut); the
  // exterior kernels add the ghosts' hops, after the body (so no fold).
  bool cut = false;
  for (int mu = 0; mu < 4; ++mu) cut = cut || L.view.cut[mu];
  if (cut && (L.view.mode != 2 || L.fold.kind != StaggeredFold::none)) return false;
  const Geometry& g = L.fat->geometry();
  if (!cpu_simd_available() || !cpu_simd_fits(g) || !staggered_simd_takes(p)) return false;
  // x-rows of X/2 = 4 mod 8 sites (cpu_simd_fits): half-tile tasks, built for x86-64-v3.
  const bool narrow = (g.local_dims()[0] / 2) % cpu_simd_lanes() != 0;
  const std::optional<Reconstruct> lr =
      L.longlinks ? std::optional<Reconstruct>(L.longlinks->params().reconstruct) : std::nullopt;
  if (!staggered_simd_links(L.fat->params().reconstruct, lr)) return false;
  if (!L.fat_back || (L.longlinks && !L.long_back)) return false;
  if (!tiled(L.fat->layout()) || (L.longlinks && !tiled(L.longlinks->layout()))) return false;
  if (!tiled(L.out->layout()) || !tiled(L.in->layout()) || (L.x && !tiled(L.x->layout()))) return false;
  const std::int64_t half = L.indexer.half;
  // One parity, or both (the full-lattice operator: one launch over all sites).
  int p0 = 0, p1 = 1;
  if (L.count == half && (L.first == 0 || L.first == half)) p0 = p1 = static_cast<int>(L.first / half);
  else if (!(L.first == 0 && L.count == 2 * half)) return false;
  if (cut && p0 != p1) return false;  // (the exterior kernels take one parity)
  // (The improved kernel runs in two passes and its dot reads x in the second: x must not be out.)
  const bool dot = L.fold.kind == StaggeredFold::dot;
  if (L.fold.kind != StaggeredFold::none && !dot) return false;  // CG's folds: the scalar kernel
  if (dot && (p0 != p1 || L.x->data() == L.out->data())) return false;

  StaggeredSimdArgs a;
  a.fat = L.fat->data();
  a.lng = L.longlinks ? L.longlinks->data() : nullptr;
  a.fat_back = L.fat_back->data();
  a.long_back = L.longlinks ? L.long_back->data() : nullptr;
  a.out = L.out->data();
  a.in = L.in->data();
  a.x = L.x ? L.x->data() : nullptr;
  if (p == Precision::half) {
    a.out_norm = L.out->norms();
    a.in_norm = L.in->norms();
    a.x_norm = L.x ? L.x->norms() : nullptr;
  }
  a.fat_nreals = stored_reals(L.fat->params().reconstruct);
  a.long_nreals = L.longlinks ? stored_reals(*lr) : 0;
  for (int mu = 0; mu < 4; ++mu) {
    a.dims[mu] = L.indexer.dims[mu];
    a.origin_parity[mu] = L.origin_parity[mu];
    a.antiperiodic[mu] = L.antiperiodic[mu];
    a.cut[mu] = L.view.cut[mu];
  }
  a.half = half;
  a.out_shift = L.out_base;
  a.in_shift = L.in_base;
  a.x_shift = L.x_base;
  a.c_fat = L.c_fat;
  a.c_long = L.c_long;
  a.beta = L.beta;
  // The bytes of one parity: 8 (16) links, in, out and x per output site.
  const double es = p == Precision::double_ ? 8 : p == Precision::single ? 4 : 2;
  const double reals = 8.0 * a.fat_nreals + 8.0 * a.long_nreals + 6.0 * (L.x ? 3 : 2);
  a.stream_out = cpu_simd_stream_stores(static_cast<double>(half) * reals * es, false);
  // Unset GLUON_CPU_PREFETCH: every stream for the naive kernel in double and single with r18/r12
  // links, whose link streams the hardware prefetchers do not run far enough ahead of (ahead
  // there: 0.92-1.05 of all, the processes disagreeing); only the input row at t + d otherwise
  // (improved staggered 1.02-1.25, half r12 1.09-1.11, r8 single 1.10-1.14;
  // bench/results/2026-11-27-cpu-link-prefetch, trips 5-7).
  const bool naive_wide = !L.longlinks && p != Precision::half && a.fat_nreals >= 12;
  a.prefetch = static_cast<int>(cpu_simd_prefetch(naive_wide ? CpuPrefetch::all : CpuPrefetch::ahead));
  // Half-tile tasks pair in single (8 floats a vector, where 4 fill only an SSE register), as the
  // Wilson kernels' do (wilson_simd.cpp), by default except naive r18. Inside one process on the
  // 16-core Xeon host (bench/results/2026-12-07-cpu-narrow-pairs, 24^3 x 48 and 40^3 x 48):
  // naive r8 1.51-1.62x, r12 1.04-1.05x, improved 1.03-1.10x, naive r18 0.94-1.08x; on the 2-core
  // Zen 5 VM at 24^3 x 48 naive r8 1.77x, r12 1.05x, r18 0.90x and improved 0.85-0.89x.
  const bool naive_r18 = !L.longlinks && a.fat_nreals == 18;
  a.tile_pairs = narrow && p == Precision::single && cpu_simd_tile_pairs(!naive_r18);
  std::vector<double> partials;
  if (dot) {
    // Chunks of unpaired tasks: a launch that pairs them fills only the first of them; the rest stay 0.
    const std::int64_t tasks = half / kStaggeredLanes(narrow);
    partials.assign(static_cast<std::size_t>((tasks + kStaggeredDotChunk - 1) / kStaggeredDotChunk), 0.0);
    a.dot_partials = partials.data();
  }
  const bool v4 = cpu_simd_isa() == CpuSimdIsa::avx512;
  auto* const kernel = narrow ? (p == Precision::double_  ? avx2::staggered_simd_double_narrow
                                 : p == Precision::single ? avx2::staggered_simd_single_narrow
                                                          : avx2::staggered_simd_half_narrow)
                       : p == Precision::double_ ? (v4 ? avx512::staggered_simd_double : avx2::staggered_simd_double)
                       : p == Precision::single ? (!v4                  ? avx2::staggered_simd_single
                                                   : a.fat_nreals == 8 ? avx512::staggered_simd_single_r8
                                                                       : avx512::staggered_simd_single)
                                                : (v4 ? avx512::staggered_simd_half : avx2::staggered_simd_half);
  for (int parity = p0; parity <= p1; ++parity) {
    a.parity = parity;
    const bool ran = kernel(a);
    if (!ran) return false;  // (only before the first launch: the arguments are the same for both)
  }
  if (dot) {
    double sum = 0.0;
    for (double v : partials) sum += v;  // in chunk order: independent of the thread count
    *L.fold.host = sum;
    *L.fold.device = sum;
  }
  return true;
}

}  // namespace gluon::qcd::detail
