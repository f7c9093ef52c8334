// The vectorised CPU Wilson dslash (tiled order, src/qcd/dirac/wilson_simd.h): every form it takes
// (plain and xpay, the clover epilogues, dagger, boundary phases in every direction, r18 and r12,
// double and single, full and parity-subset fields, one and two tiles per x-row) against the
// plain double reference (half too: int16 with per-site norms, computed in single), and that it
// really ran (the operator's vector_launches count); the
// Wilson and clover operators built on it;
// lattices, precisions and field orders it cannot take run the scalar kernel with the same
// results. On a CPU without AVX2 the vector path is off: the fallback tests still run.
#include <gtest/gtest.h>
#include <omp.h>

#include <array>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "gluon/qcd/dirac/clover.h"
#include "gluon/qcd/dirac/dirac.h"
#include "gluon/qcd/dirac/reference_wilson.h"
#include "gluon/qcd/dirac/wilson.h"
#include "gluon/qcd/field_convert.h"
#include "gluon/qcd/gauge_start.h"
#include "gluon/qcd/random_fields.h"
#include "gluon/runtime/error.h"
#include "dirac_test_helpers.h"
#include "test_support.h"

using namespace gluon;
using namespace gluon::qcd;
using namespace gluon::test::dirac;

namespace {

struct Case {
  Coords dims;
  Precision p;
};
// W = 8 sites a vector; X/2 = W puts one tile in each x-row (every tile wraps in x), X/2 = 2W
// two (the lane shift reads the neighbouring tile and its norms). Single and half take two tiles
// a task (GLUON_CPU_TILE_PAIRS) where T is a multiple of 4: T = 4 pairs t = 0, 1 with 2, 3, so
// one tile of a pair wraps in t where the other does not; T = 2 cannot pair. X/2 = 4 and 12
// (4 mod 8) run half-tile tasks: one a row (each wraps in x), or three, where tiles straddle
// two rows of opposite x parity.
const Case kFits[] = {{{16, 4, 4, 6}, Precision::double_}, {{32, 4, 2, 4}, Precision::double_},
                      {{16, 6, 4, 4}, Precision::single},  {{32, 2, 4, 2}, Precision::single},
                      {{32, 2, 2, 4}, Precision::single},  {{16, 4, 6, 4}, Precision::half},
                      {{32, 2, 2, 4}, Precision::half},    {{8, 4, 2, 4}, Precision::double_},
                      {{24, 2, 2, 4}, Precision::double_}, {{8, 2, 4, 4}, Precision::single},
                      {{24, 2, 4, 2}, Precision::single},  {{8, 4, 2, 2}, Precision::half},
                      {{24, 2, 2, 4}, Precision::half}};

const Reconstruct kRecons[] = {Reconstruct::r18, Reconstruct::r12, Reconstruct::r8};

// Half stores each site to 1/32767 of its largest component: errors of 3-4e-5 a dslash, so 3e-4
// (tolerance()'s 1e-2 for half would let a wrong norm lane or phase through).
double simd_tolerance(Precision p) { return p == Precision::half ? 3e-4 : tolerance(p); }

// Phases that differ in every direction, so a phase applied on the wrong lane or direction shows.
const std::array<double, 4> kPhases[] = {{-1.0, 0.5, -0.75, -1.0}, {1.0, 1.0, 1.0, -1.0}};

SpinorFieldParams tiled_params(const Geometry& g, Precision p, SiteSubset subset = SiteSubset::full) {
  SpinorFieldParams sp;
  sp.geometry = g;
  sp.precision = p;
  sp.order = FieldOrder::tiled;
  sp.subset = subset;
  return sp;
}

// The reference Wilson operator (kappa and mass unset: the tests here compare its hop) with
// boundary phases bc.
reference::ReferenceWilson wilson_reference(const GaugeField& u, const std::array<double, 4>& bc) {
  DiracParams rp;
  rp.type = DiracType::wilson;
  rp.boundary = bc;
  return reference::ReferenceWilson(rp, u);
}

// want = x + a d (canonical fields of one subset)
SpinorField xpay(const SpinorField& x, double a, const SpinorField& d) {
  SpinorField r = converted(x, x.params(), cpu);
  for (std::int64_t s = 0; s < r.params().sites(); ++s)
    for (int sp = 0; sp < 4; ++sp)
      for (int c = 0; c < 3; ++c) r.site(s).s[sp].c[c] += a * d.site(s).s[sp].c[c];
  return r;
}

// M and M^dagger of the operator make_dirac builds for dp, on tiled vectors, against the
// reference. False (nothing compared) when the operator did not choose the tiled order (no vector
// path on this CPU).
bool operator_matches_reference(const DiracParams& dp, const GaugeField& u, const SpinorField& in,
                                const std::string& what) {
  const Geometry& g = in.geometry();
  const reference::ReferenceWilson ref(dp, u);
  const auto op = make_dirac(dp, u, cpu);
  if (op->vector_params().order != FieldOrder::tiled) return false;
  const SpinorField fin = in_storage(in, op->vector_params());
  SpinorField out(op->vector_params());
  for (bool dag : {false, true}) {
    SpinorField want = canonical_full(g);
    ref.M(want, in, dag);
    if (dag) op->Mdag(out, fin);
    else op->M(out, fin);
    EXPECT_LT(rel_diff_to_ref(out, want), simd_tolerance(dp.precision)) << what << " dagger " << dag;
  }
  return true;
}

}  // namespace

TEST(WilsonSimd, EveryFormMatchesTheReference) {
  for (const Case& k : kFits) {
    const Geometry g(k.dims);
    const GaugeField u = hot_field(g, 101);
    const SpinorField in = gaussian(g, 102), x = gaussian(g, 103);
    for (const auto& bc : kPhases)
      for (Reconstruct r : kRecons) {
        const reference::ReferenceWilson ref = wilson_reference(u, bc);
        const WilsonDslash d(u, bc, k.p, r, cpu);
        if (!d.vectorised()) GTEST_SKIP() << "no vector path on this CPU (AVX2 or AVX-512 needed)";
        ASSERT_EQ(d.order(), FieldOrder::tiled);
        const std::string what = g.to_string() + " " + to_string(k.p) + " " + to_string(r);
        const SpinorField fin = converted(in, tiled_params(g, k.p), cpu);
        const SpinorField fx = converted(x, tiled_params(g, k.p), cpu);
        for (bool dag : {false, true}) {
          SpinorField want = canonical_full(g);
          ref.hop(want, in, dag);
          const std::int64_t before = d.vector_launches();
          // full fields: both parities, plain and xpay
          SpinorField out(tiled_params(g, k.p)), outx(tiled_params(g, k.p));
          for (int parity : {0, 1}) {
            d.dslash(out, fin, parity, dag);
            d.dslash_xpay(outx, fin, parity, dag, fx, -0.37);
          }
          EXPECT_LT(rel_diff(as_canonical(out), want), simd_tolerance(k.p)) << what << " dagger " << dag;
          EXPECT_LT(rel_diff(as_canonical(outx), xpay(x, -0.37, want)), simd_tolerance(k.p))
              << what << " xpay dagger " << dag;
          // parity-subset fields
          for (int parity : {0, 1}) {
            const SiteSubset sub_in = parity == 0 ? SiteSubset::odd : SiteSubset::even;
            const SiteSubset sub_out = parity == 0 ? SiteSubset::even : SiteSubset::odd;
            const SpinorField in_sub =
                converted(reference::restrict_parity(in, 1 - parity), tiled_params(g, k.p, sub_in), cpu);
            const SpinorField x_sub =
                converted(reference::restrict_parity(x, parity), tiled_params(g, k.p, sub_out), cpu);
            SpinorField o(tiled_params(g, k.p, sub_out));
            d.dslash_xpay(o, in_sub, parity, dag, x_sub, 1.5);
            const SpinorField want_p = reference::restrict_parity(want, parity);
            EXPECT_LT(rel_diff(as_canonical(o), xpay(reference::restrict_parity(x, parity), 1.5, want_p)),
                      simd_tolerance(k.p))
                << what << " subset parity " << parity << " dagger " << dag;
          }
          EXPECT_EQ(d.vector_launches() - before, 6) << what << ": not every call took the vector path";
        }
      }
  }
}

TEST(WilsonSimd, OperatorOnTiledVectorsMatchesTheReference) {
  for (const Case& k : kFits) {
    const Geometry g(k.dims);
    const GaugeField u = hot_field(g, 111);
    const SpinorField in = gaussian(g, 112);
    for (bool eo : {false, true})
      for (Reconstruct r : kRecons) {
        DiracParams dp;
        dp.type = DiracType::wilson;
        dp.kappa = 0.124;
        dp.precision = k.p;
        dp.reconstruct = r;
        dp.even_odd = eo;
        const std::string what = g.to_string() + " " + to_string(k.p) + " " + to_string(r) + " eo " + (eo ? "1" : "0");
        if (!operator_matches_reference(dp, u, in, what)) GTEST_SKIP() << "no vector path on this CPU";
      }
  }
}

TEST(WilsonSimd, CloverEpiloguesMatchTheReference) {
  for (const Case& k : kFits) {
    const Geometry g(k.dims);
    const GaugeField u = hot_field(g, 141);
    const SpinorField in = gaussian(g, 142), x = gaussian(g, 143);
    const std::array<double, 4>& bc = kPhases[0];
    DiracParams rp;
    rp.type = DiracType::clover;
    rp.kappa = 0.115;
    rp.csw = 1.2;
    rp.boundary = bc;
    const reference::ReferenceWilson ref(rp, u);
    const CloverTerm a(u, rp.kappa, rp.csw, k.p, cpu, FieldOrder::tiled);
    const SpinorField fin = converted(in, tiled_params(g, k.p), cpu), fx = converted(x, tiled_params(g, k.p), cpu);
    SpinorField ax = canonical_full(g);
    ref.clover(ax, x, false);
    for (Reconstruct r : kRecons) {
      const WilsonDslash w(u, bc, k.p, r, cpu);
      if (!w.vectorised()) GTEST_SKIP() << "no vector path on this CPU (AVX2 or AVX-512 needed)";
      const std::string what = g.to_string() + " " + to_string(k.p) + " " + to_string(r);
      for (bool dag : {false, true}) {
        SpinorField d = canonical_full(g), ad = canonical_full(g);
        ref.hop(d, in, dag);
        ref.clover(ad, d, true);  // A^-1 D in
        const std::int64_t before = w.vector_launches();
        SpinorField o1(tiled_params(g, k.p)), o2(tiled_params(g, k.p)), o3(tiled_params(g, k.p));
        for (int parity : {0, 1}) {
          w.dslash_clover(o1, fin, parity, dag, a.field(true), nullptr, 1.0);   // A^-1 D in
          w.dslash_clover(o2, fin, parity, dag, a.field(true), &fx, 0.5);       // x + 0.5 A^-1 D in
          w.dslash_clover_on_x(o3, fin, parity, dag, a.field(false), fx, -0.25);  // A x - 0.25 D in
        }
        EXPECT_EQ(w.vector_launches() - before, 6) << what << ": not every call took the vector path";
        EXPECT_LT(rel_diff(as_canonical(o1), ad), simd_tolerance(k.p)) << what << " clover dagger " << dag;
        EXPECT_LT(rel_diff(as_canonical(o2), xpay(x, 0.5, ad)), simd_tolerance(k.p)) << what << " clover xpay dagger " << dag;
        EXPECT_LT(rel_diff(as_canonical(o3), xpay(ax, -0.25, d)), simd_tolerance(k.p)) << what << " clover on x dagger " << dag;
      }
    }
  }
}

TEST(WilsonSimd, CloverOperatorOnTiledVectorsMatchesTheReference) {
  for (const Case& k : kFits) {
    const Geometry g(k.dims);
    const GaugeField u = hot_field(g, 151);
    const SpinorField in = gaussian(g, 152);
    for (int v = 0; v < 3; ++v) {  // full, even-odd asymmetric, even-odd symmetric
      DiracParams dp;
      dp.type = DiracType::clover;
      dp.kappa = 0.115;
      dp.csw = 1.2;
      dp.precision = k.p;
      dp.reconstruct = v == 1 ? Reconstruct::r12 : (v == 2 ? Reconstruct::r8 : Reconstruct::r18);
      dp.even_odd = v > 0;
      dp.clover_pc = v == 2 ? CloverPreconditioning::symmetric : CloverPreconditioning::asymmetric;
      const std::string what = g.to_string() + " " + to_string(k.p) + " variant " + std::to_string(v);
      if (!operator_matches_reference(dp, u, in, what)) GTEST_SKIP() << "no vector path on this CPU";
    }
  }
}

TEST(WilsonSimd, LatticesItCannotTakeFallBackToTheScalarKernel) {
  // X/2 = 6 and 10 are no multiples of 4 (half a tile).
  struct Fallback {
    Case k;
    Reconstruct r;
  };
  const Fallback cases[] = {{{{12, 4, 4, 4}, Precision::double_}, Reconstruct::r12},
                            {{{20, 4, 2, 4}, Precision::single}, Reconstruct::r12},
                            {{{12, 4, 4, 4}, Precision::half}, Reconstruct::r18},
                            {{{12, 4, 4, 4}, Precision::single}, Reconstruct::r8}};
  const std::array<double, 4> bc{-1.0, 0.5, -0.75, -1.0};
  for (const auto& [k, r] : cases) {
    const Geometry g(k.dims);
    const GaugeField u = hot_field(g, 121);
    const SpinorField in = gaussian(g, 122);
    const reference::ReferenceWilson ref = wilson_reference(u, bc);
    const WilsonDslash d(u, bc, k.p, r, cpu);
    EXPECT_FALSE(d.vectorised()) << g.to_string() << " " << to_string(k.p) << " " << to_string(r);
    EXPECT_EQ(d.order(), FieldOrder::site_major);
    SpinorFieldParams sp;
    sp.geometry = g;
    sp.precision = k.p;
    const SpinorField fin = converted(in, sp, cpu);
    for (bool dag : {false, true}) {
      SpinorField want = canonical_full(g), out(sp);
      ref.hop(want, in, dag);
      d.dslash(out, fin, 0, dag);
      d.dslash(out, fin, 1, dag);
      EXPECT_LT(rel_diff(as_canonical(out), want), tolerance(k.p)) << g.to_string() << " " << to_string(k.p);
    }
    EXPECT_EQ(d.vector_launches(), 0);
  }
}

TEST(WilsonSimd, OtherFieldOrdersUseTheScalarKernelOnTiledLinks) {
  // A vector-capable operator given site_major or blocked vectors reads its tiled links through
  // the scalar kernel (FieldLayout::offset), with the same result.
  const Geometry g({16, 4, 4, 4});
  const GaugeField u = hot_field(g, 131);
  const SpinorField in = gaussian(g, 132);
  const std::array<double, 4> bc{-1.0, 0.5, -0.75, -1.0};
  const reference::ReferenceWilson ref = wilson_reference(u, bc);
  SpinorField want = canonical_full(g);
  ref.hop(want, in, true);
  for (Reconstruct r : kRecons) {
    const WilsonDslash d(u, bc, Precision::double_, r, cpu, FieldOrder::tiled);
    for (FieldOrder order : {FieldOrder::site_major, FieldOrder::blocked}) {
      SpinorFieldParams sp;
      sp.geometry = g;
      sp.order = order;
      const SpinorField fin = converted(in, sp, cpu);
      SpinorField out(sp);
      d.dslash(out, fin, 0, true);
      d.dslash(out, fin, 1, true);
      EXPECT_LT(rel_diff(as_canonical(out), want), 1e-13) << to_string(r) << " order " << static_cast<int>(order);
    }
    EXPECT_EQ(d.vector_launches(), 0);
  }
}

TEST(WilsonSimd, R8TilesMixingDegenerateAndPivotedLinksMatchTheReference) {
  // r8 keeps links whose row 0 is a pure phase (here diagonal phase matrices) in a second
  // encoding, and pivots the others site by site (column k, row order b): the tiles here mix
  // both encodings and every pivot across their lanes.
  const Geometry g({16, 4, 4, 4});
  GaugeField u = hot_field(g, 161);
  std::int64_t degenerate = 0;
  for (std::int64_t s = 0; s < g.volume(); ++s)
    for (int mu = 0; mu < 4; ++mu)
      if ((s * 7 + mu * 3) % 5 == 0) {
        const double a = 0.37 * static_cast<double>(s % 17) - 2.9, b = 1.1 - 0.23 * mu;
        SU3d m{};
        m.e[0][0] = Complex<double>(std::cos(a), std::sin(a));
        m.e[1][1] = Complex<double>(std::cos(b), std::sin(b));
        m.e[2][2] = Complex<double>(std::cos(a + b), -std::sin(a + b));
        u.link(s, mu) = m;
        ++degenerate;
      }
  ASSERT_GT(degenerate, g.volume() / 2);
  const SpinorField in = gaussian(g, 162);
  const std::array<double, 4>& bc = kPhases[0];
  const reference::ReferenceWilson ref = wilson_reference(u, bc);
  for (Precision p : {Precision::double_, Precision::single, Precision::half}) {
    const WilsonDslash d(u, bc, p, Reconstruct::r8, cpu);
    if (!d.vectorised()) GTEST_SKIP() << "no vector path on this CPU (AVX2 or AVX-512 needed)";
    const SpinorField fin = converted(in, tiled_params(g, p), cpu);
    for (bool dag : {false, true}) {
      SpinorField want = canonical_full(g), out(tiled_params(g, p));
      ref.hop(want, in, dag);
      d.dslash(out, fin, 0, dag);
      d.dslash(out, fin, 1, dag);
      EXPECT_LT(rel_diff(as_canonical(out), want), simd_tolerance(p)) << to_string(p) << " dagger " << dag;
    }
    EXPECT_EQ(d.vector_launches(), 4);
  }
}

TEST(WilsonSimd, SingleR8HopIsAsAccurateAsR12) {
  // The single-precision r8 rebuild (cpu_simd_r8.h) takes its sines, cosines, square roots and
  // reciprocal from short series and hardware estimates refined by a Newton step. Its hop must
  // stay at the rounding of the single r12 hop (which rebuilds nothing transcendental), not at the
  // 1e-5 that the other tests allow: an estimate left unrefined, or a series cut one term short,
  // puts it several times above.
  const Geometry g({16, 4, 4, 8});
  const GaugeField u = hot_field(g, 171);
  const SpinorField in = gaussian(g, 172);
  const std::array<double, 4>& bc = kPhases[0];
  const reference::ReferenceWilson ref = wilson_reference(u, bc);
  const SpinorField fin = converted(in, tiled_params(g, Precision::single), cpu);
  for (bool dag : {false, true}) {
    SpinorField want = canonical_full(g);
    ref.hop(want, in, dag);
    double err[2] = {0, 0};
    for (int i = 0; i < 2; ++i) {
      const WilsonDslash d(u, bc, Precision::single, i == 0 ? Reconstruct::r12 : Reconstruct::r8, cpu);
      if (!d.vectorised()) GTEST_SKIP() << "no vector path on this CPU (AVX2 or AVX-512 needed)";
      SpinorField out(tiled_params(g, Precision::single));
      d.dslash(out, fin, 0, dag);
      d.dslash(out, fin, 1, dag);
      err[i] = rel_diff(as_canonical(out), want);
    }
    EXPECT_GT(err[0], 0.0);
    EXPECT_LT(err[1], 2.5 * err[0]) << "r12 " << err[0] << ", r8 " << err[1] << ", dagger " << dag;
  }
}

// Which build of the vector kernels runs (dirac.h's cpu_vector_isa()): on an x86-64-v3 CPU the
// vector path is on, so the tests above run rather than skip there; the best build the CPU takes
// is the default, and GLUON_CPU_SIMD=avx2 (this executable's _avx2 ctest run) or =0 override it.
TEST(CpuVectorIsa, TheBestBuildThisCpuRunsUnlessTheEnvironmentSaysOtherwise) {
  const std::string isa = cpu_vector_isa();
  const char* env = std::getenv("GLUON_CPU_SIMD");
  const std::string e = env ? env : "";
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
  __builtin_cpu_init();
  const bool v3 = __builtin_cpu_supports("x86-64-v3");
  const bool avx512 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
                      __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl") &&
                      __builtin_cpu_supports("avx512cd");
  if (e == "0" || !v3) EXPECT_EQ(isa, "none");
  else if (e == "avx2" || !avx512) EXPECT_EQ(isa, "avx2");
  else EXPECT_EQ(isa, "avx512");
#else
  EXPECT_EQ(isa, "none") << "the vector kernels are x86-64 only";
#endif
}

// Half precision stores a site with a NaN component with a NaN norm, so that the whole site reads
// back NaN (docs/conventions.md, Precisions). Through the vector kernel (either build) a NaN in
// one input site makes exactly the output sites that hop from it NaN, and no other.
TEST(WilsonSimd, HalfCarriesANanToTheSitesThatHopFromItAndNoOther) {
  const Geometry g({32, 4, 4, 4});
  const SiteIndexer idx = g.indexer();
  const GaugeField u = hot_field(g, 111);
  SpinorField in = gaussian(g, 112);
  const std::int64_t bad = idx.half + 13;  // an odd site
  in.site(bad).s[2].c[1].im = std::nan("");
  std::vector<bool> hit(static_cast<std::size_t>(idx.volume), false);
  for (int mu = 0; mu < 4; ++mu)
    for (int d : {-1, 1}) hit[static_cast<std::size_t>(idx.neighbour(bad, mu, d))] = true;
  const WilsonDslash w(u, kPhases[0], Precision::half, Reconstruct::r12, cpu);
  if (!w.vectorised()) GTEST_SKIP() << "no vector path on this CPU (AVX2 or AVX-512 needed)";
  SpinorField out(tiled_params(g, Precision::half));
  w.dslash(out, converted(in, tiled_params(g, Precision::half), cpu), 0, false);
  const SpinorField got = as_canonical(out);
  int nan_sites = 0;
  for (std::int64_t s = 0; s < idx.half; ++s) {  // the even (output) sites
    int nans = 0;
    for (int sp = 0; sp < 4; ++sp)
      for (int c = 0; c < 3; ++c)
        nans += std::isnan(got.site(s).s[sp].c[c].re) + std::isnan(got.site(s).s[sp].c[c].im);
    EXPECT_EQ(nans, hit[static_cast<std::size_t>(s)] ? 24 : 0) << "output site " << s;
    nan_sites += nans == 24;
  }
  EXPECT_EQ(nan_sites, 8);
  EXPECT_EQ(w.vector_launches(), 1);
}

namespace {
// a and b hold the same bytes (and, in half, the same norms).
using test::ScopedEnv;  // (the ctest runs of this executable set GLUON_CPU_TILE_PAIRS for every test)

bool same_bytes(SpinorField& a, SpinorField& b) {
  if (a.buffer().bytes() != b.buffer().bytes() || a.norm_buffer().bytes() != b.norm_buffer().bytes()) return false;
  return std::memcmp(a.data(), b.data(), a.buffer().bytes()) == 0 &&
         (a.norm_buffer().bytes() == 0 || std::memcmp(a.norms(), b.norms(), a.norm_buffer().bytes()) == 0);
}
}  // namespace

// Output written with non-temporal stores (GLUON_CPU_STREAM_STORES=1; by default only above the
// last-level cache, cpu_simd.h) holds the same bytes as with plain stores, in every precision and
// epilogue; and so does every prefetch choice of GLUON_CPU_PREFETCH, _DISTANCE and _LEVEL (hints,
// which must not change a bit), and two tiles a task or one (GLUON_CPU_TILE_PAIRS: the same
// operations on each lane; with the AVX-512 build, where pairs run by default, bit for bit), where
// a value it does not know is an error naming it.
TEST(WilsonSimd, StreamedStoresEveryPrefetchChoiceAndTilePairsWriteWhatTheDefaultWrites) {
  const std::pair<const char*, const char*> modes[] = {{"GLUON_CPU_STREAM_STORES", "0"},
                                                       {"GLUON_CPU_STREAM_STORES", "1"},
                                                       {"GLUON_CPU_PREFETCH", "all"},
                                                       {"GLUON_CPU_PREFETCH", "spinors"},
                                                       {"GLUON_CPU_PREFETCH", "none"},
                                                       {"GLUON_CPU_PREFETCH_DISTANCE", "7"},
                                                       {"GLUON_CPU_PREFETCH_LEVEL", "l2"},
                                                       {"GLUON_CPU_TILE_PAIRS", "0"},
                                                       {"GLUON_CPU_TILE_PAIRS", "1"}};
  for (const Case& k : kFits) {
    const Geometry g(k.dims);
    const GaugeField u = hot_field(g, 151);
    const SpinorField fin = converted(gaussian(g, 152), tiled_params(g, k.p), cpu);
    const SpinorField fx = converted(gaussian(g, 153), tiled_params(g, k.p), cpu);
    const CloverTerm a(u, 0.115, 1.2, k.p, cpu, FieldOrder::tiled);
    for (Reconstruct r : {Reconstruct::r12, Reconstruct::r8}) {
      const WilsonDslash w(u, kPhases[0], k.p, r, cpu);
      if (!w.vectorised()) GTEST_SKIP() << "no vector path on this CPU (AVX2 or AVX-512 needed)";
      std::vector<std::vector<SpinorField>> outs;
      for (const auto& [var, value] : modes) {
        const ScopedEnv env(var, value);
        auto& o = outs.emplace_back();
        for (int f = 0; f < 4; ++f) o.emplace_back(tiled_params(g, k.p));
        for (int parity : {0, 1}) {
          w.dslash(o[0], fin, parity, true);
          w.dslash_xpay(o[1], fin, parity, false, fx, -0.37);
          w.dslash_clover(o[2], fin, parity, false, a.field(true), &fx, 0.5);
          w.dslash_clover_on_x(o[3], fin, parity, true, a.field(false), fx, -0.25);
        }
      }
      // Tile pairs with the AVX2 build (two registers a vector; for tests only) agree to within
      // the kernel's rounding, not bit for bit: GCC 12's build of the half r12 kernel rounds some
      // outputs differently there (GCC 13's matched bit for bit; the cause was not looked into).
      // The same for half-tile pairs (X/2 = 4 mod 8), which only the AVX2 build has.
      const bool pairs_bitwise = std::string(cpu_vector_isa()) != "avx2" && (k.dims[0] / 2) % 8 == 0;
      for (std::size_t m = 1; m < outs.size(); ++m)
        for (int f = 0; f < 4; ++f) {
          const std::string what = g.to_string() + " " + to_string(k.p) + " " + to_string(r) + " form " +
                                   std::to_string(f) + " with " + modes[m].first + "=" + modes[m].second;
          if (pairs_bitwise || std::string(modes[m].first) != "GLUON_CPU_TILE_PAIRS")
            EXPECT_TRUE(same_bytes(outs[0][f], outs[m][f])) << what;
          else
            EXPECT_LT(rel_diff(as_canonical(outs[m][f]), as_canonical(outs[0][f])), simd_tolerance(k.p) / 10) << what;
        }
      const std::pair<const char*, const char*> unknown[] = {
          {"GLUON_CPU_PREFETCH", "GLUON_CPU_PREFETCH: expected all, spinors, ahead or none, found 'links'"},
          {"GLUON_CPU_STREAM_STORES", "GLUON_CPU_STREAM_STORES: expected 0, 1 or auto, found 'links'"},
          {"GLUON_CPU_TILE_PAIRS", "GLUON_CPU_TILE_PAIRS: expected 0, 1 or auto, found 'links'"},
          {"GLUON_CPU_PREFETCH_DISTANCE", "GLUON_CPU_PREFETCH_DISTANCE: expected tiles ahead, 1 to 64, found 'links'"},
          {"GLUON_CPU_PREFETCH_LEVEL", "GLUON_CPU_PREFETCH_LEVEL: expected l1 or l2, found 'links'"}};
      for (const char* d : {"0", "65"}) {  // out of range
        const ScopedEnv env("GLUON_CPU_PREFETCH_DISTANCE", d);
        SpinorField o(tiled_params(g, k.p));
        EXPECT_THROW(w.dslash(o, fin, 0, false), InputError) << "GLUON_CPU_PREFETCH_DISTANCE=" << d;
      }
      for (const auto& [var, message] : unknown) {
        const ScopedEnv env(var, "links");
        SpinorField o(tiled_params(g, k.p));
        try {
          w.dslash(o, fin, 0, false);
          ADD_FAILURE() << var << "=links was accepted";
        } catch (const InputError& e) {
          EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << e.what();
        }
      }
    }
  }
}

// The sweep in blocks of y-rows (GLUON_CPU_BLOCK_ROWS, wilson_simd_impl.h's SweepOrder) visits
// every output site once: any block size, on thread counts whose ranges of rows begin and end
// inside a (y, z) plane, writes the bytes that the whole sweep (0) writes, in the hop and the xpay
// form; a value it does not take is an error naming it.
TEST(WilsonSimd, EveryBlockSizeOfTheSweepWritesWhatTheWholeSweepWrites) {
  const int saved = omp_get_max_threads();
  struct Restore {
    int n;
    ~Restore() { omp_set_num_threads(n); }
  } restore{saved};
  for (const Case& k : kFits) {
    const Geometry g(k.dims);
    const GaugeField u = hot_field(g, 161);
    const SpinorField fin = converted(gaussian(g, 162), tiled_params(g, k.p), cpu);
    const SpinorField fx = converted(gaussian(g, 163), tiled_params(g, k.p), cpu);
    const WilsonDslash w(u, kPhases[1], k.p, Reconstruct::r12, cpu);
    if (!w.vectorised()) GTEST_SKIP() << "no vector path on this CPU (AVX2 or AVX-512 needed)";
    for (int threads : {1, 2, 3, 5}) {
      omp_set_num_threads(threads);
      std::vector<std::array<SpinorField, 2>> outs;
      for (const char* rows : {"0", "1", "2", "3", "5", "auto"}) {
        const ScopedEnv env("GLUON_CPU_BLOCK_ROWS", rows);
        auto& o = outs.emplace_back(std::array<SpinorField, 2>{SpinorField(tiled_params(g, k.p)),
                                                               SpinorField(tiled_params(g, k.p))});
        for (int parity : {0, 1}) {
          w.dslash(o[0], fin, parity, false);
          w.dslash_xpay(o[1], fin, parity, true, fx, 0.41);
        }
        if (outs.size() > 1)
          for (int f = 0; f < 2; ++f)
            EXPECT_TRUE(same_bytes(outs[0][f], o[f]))
                << g.to_string() << " " << to_string(k.p) << " form " << f << ", " << threads
                << " threads, GLUON_CPU_BLOCK_ROWS=" << rows;
      }
    }
    omp_set_num_threads(saved);
    for (const char* bad : {"-1", "65537", "rows", "3x"}) {
      const ScopedEnv env("GLUON_CPU_BLOCK_ROWS", bad);
      SpinorField o(tiled_params(g, k.p));
      try {
        w.dslash(o, fin, 0, false);
        ADD_FAILURE() << "GLUON_CPU_BLOCK_ROWS=" << bad << " was accepted";
      } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find(std::string("GLUON_CPU_BLOCK_ROWS: expected auto or y-rows a block, 0 (no "
                                                         "blocks) to 65536, found '") +
                                             bad + "'"),
                  std::string::npos)
            << e.what();
      }
    }
  }
}
