// The halo path of the Dirac operators in one process: GLUON_HALO_FORCE_CUT treats dimensions as
// cut, so faces are packed, "sent" to this rank itself, and read back as ghosts (no_overlap) or
// added by the exterior kernels (overlap). Every variant must equal the uncut operator.
#include <gtest/gtest.h>

#include <cstdlib>

#include "dirac_test_helpers.h"
#include "gluon/qcd/dirac/clover.h"
#include "gluon/qcd/dirac/staggered.h"
#include "gluon/qcd/dirac/halo.h"
#include "gluon/qcd/dirac/wilson.h"

using namespace gluon;
using namespace gluon::qcd;
using namespace gluon::test::dirac;

namespace {

struct ForceCut {
  explicit ForceCut(const char* cuts) { setenv("GLUON_HALO_FORCE_CUT", cuts, 1); }
  ~ForceCut() { unsetenv("GLUON_HALO_FORCE_CUT"); }
};

struct PolicyGuard {
  explicit PolicyGuard(HaloPolicy p) { set_default_halo_policy(p); }
  ~PolicyGuard() { set_default_halo_policy(HaloPolicy::auto_); }
};

// The Wilson/clover forms, kind 0 the hop, 1 xpay, 2 A^-1 D, 3 x + a A^-1 D, 4 A x + a D (A: c),
// on in into a copy of x (in x's storage); canonical.
SpinorField wilson_apply(const WilsonDslash& d, const CloverTerm& c, const SpinorField& in, const SpinorField& x,
                         int kind, int parity, bool dag) {
  SpinorField out = converted(x, x.params(), cpu);
  switch (kind) {
    case 0: d.dslash(out, in, parity, dag); break;
    case 1: d.dslash_xpay(out, in, parity, dag, x, -0.37); break;
    case 2: d.dslash_clover(out, in, parity, dag, c.field(true), nullptr, 1.0); break;
    case 3: d.dslash_clover(out, in, parity, dag, c.field(false), &x, 0.21); break;
    case 4: d.dslash_clover_on_x(out, in, parity, dag, c.field(false), x, -0.5); break;
  }
  return as_canonical(out);
}

}  // namespace

TEST(DiracHalo, PolicyNames) {
  EXPECT_EQ(halo_policy_from_name("overlap"), HaloPolicy::overlap);
  EXPECT_EQ(halo_policy_from_name("no-overlap"), HaloPolicy::no_overlap);
  EXPECT_EQ(halo_policy_from_name("auto"), HaloPolicy::auto_);
  EXPECT_THROW(halo_policy_from_name("sometimes"), InputError);
}

TEST(DiracHalo, WilsonAndCloverWithSelfExchangedFacesEqualTheUncutOperator) {
  const Geometry g({4, 4, 6, 8});
  const GaugeField u = hot_field(g, 31);
  const SpinorField in = gaussian(g, 32), x = gaussian(g, 33);
  const std::array<double, 4> bc{1.0, -1.0, 1.0, -1.0};
  const CloverTerm clov(u, 0.12, 1.3, Precision::double_, cpu);
  for (Precision p : {Precision::double_, Precision::single, Precision::half}) {
    SpinorFieldParams sp;
    sp.geometry = g;
    sp.precision = p;
    const SpinorField fin = converted(in, sp, cpu), fx = converted(x, sp, cpu);
    const CloverTerm c(u, 0.12, 1.3, p, cpu);
    const WilsonDslash plain(u, bc, p, Reconstruct::r12, cpu);
    ASSERT_FALSE(plain.split());
    // want[kind][parity][dagger]
    auto apply = [&](const WilsonDslash& d, int kind, int parity, bool dag) {
      return wilson_apply(d, c, fin, fx, kind, parity, dag);
    };
    for (const char* cuts : {"1,1,1,1", "0,0,0,1", "1,0,1,0"})
      for (HaloPolicy pol : {HaloPolicy::no_overlap, HaloPolicy::overlap}) {
        if (p != Precision::double_ && cuts[0] != '1') continue;  // keeps the test short
        ForceCut fc(cuts);
        PolicyGuard pg(pol);
        const WilsonDslash cut(u, bc, p, Reconstruct::r12, cpu);
        ASSERT_TRUE(cut.split());
        for (int kind = 0; kind < 5; ++kind)
          for (int parity : {0, 1})
            for (bool dag : {false, true}) {
              const SpinorField want = apply(plain, kind, parity, dag);
              const SpinorField got = apply(cut, kind, parity, dag);
              EXPECT_LT(rel_diff(got, want), p == Precision::double_ ? 1e-14 : tolerance(p))
                  << to_string(p) << " cuts " << cuts << " " << to_string(pol) << " kind " << kind
                  << " parity " << parity << " dagger " << dag;
            }
        EXPECT_EQ(cut.halo_stats().policy_used, pol);
        EXPECT_GT(cut.halo_stats().bytes_sent, 0);
      }
  }
}

TEST(DiracHalo, AutoPolicyTriesBothAndKeepsOne) {
  const Geometry g({4, 4, 4, 4});
  const GaugeField u = hot_field(g, 41);
  const SpinorField in = gaussian(g, 42);
  ForceCut fc("0,0,0,1");
  PolicyGuard pg(HaloPolicy::auto_);
  const WilsonDslash d(u, {1, 1, 1, -1}, Precision::double_, Reconstruct::r18, cpu);
  const WilsonDslash ref_op(u, {1, 1, 1, -1}, Precision::double_, Reconstruct::r18, cpu);
  SpinorField out = canonical_full(g);
  bool seen[2] = {false, false};
  for (int i = 0; i < 8; ++i) {
    d.dslash(out, in, i % 2, false);
    seen[d.halo_stats().policy_used == HaloPolicy::overlap] = true;
  }
  EXPECT_TRUE(seen[0] && seen[1]);
  EXPECT_EQ(d.halo_stats().calls, 8);
}

namespace {
SpinorField staggered_gaussian(const Geometry& g, std::uint64_t seed, Precision p) {
  SpinorFieldParams sp;
  sp.geometry = g;
  sp.nspin = 1;
  SpinorField f(sp);
  fill_gaussian(f, seed, 0, cpu);
  sp.precision = p;
  return converted(f, sp, cpu);
}
double rel_diff_cv(const SpinorField& a, const SpinorField& b) {
  double num = 0, den = 0;
  for (std::int64_t s = 0; s < a.params().sites(); ++s)
    for (int c = 0; c < 3; ++c) {
      num += norm2(a.color_vector(s).c[c] - b.color_vector(s).c[c]);
      den += norm2(b.color_vector(s).c[c]);
    }
  return std::sqrt(num / den);
}
// Fat and long links for improved staggered: hot SU(3) fields scaled, so that they are not
// unitary and their entries pass 1 (fat), and the long ones are c W (r12 takes them).
struct ImprovedLinks {
  GaugeField fat, lng;
};
ImprovedLinks improved_links(const Geometry& g, std::uint64_t seed) {
  ImprovedLinks l{hot_field(g, seed), hot_field(g, seed + 1)};
  for (std::int64_t s = 0; s < g.volume(); ++s)
    for (int mu = 0; mu < 4; ++mu) {
      l.fat.link(s, mu) = 1.7 * l.fat.link(s, mu);
      l.lng.link(s, mu) = 0.3 * l.lng.link(s, mu);
    }
  return l;
}
// The hop (kind 0) or its xpay form (1) of d on in, into a copy of x; canonical.
SpinorField staggered_apply(const StaggeredDirac& d, const SpinorField& in, const SpinorField& x, int kind, int parity,
                            bool dag) {
  SpinorField out = converted(x, x.params(), cpu);
  if (kind == 0) d.dslash(out, in, parity, dag);
  else d.dslash_xpay(out, in, parity, dag, x, 0.4, -0.8);
  return as_canonical(out);
}
}  // namespace

TEST(DiracHalo, StaggeredNaiveAndImprovedWithSelfExchangedFacesEqualTheUncutOperator) {
  const Geometry g({4, 6, 4, 8});
  const GaugeField u = hot_field(g, 51);
  const ImprovedLinks links = improved_links(g, 52);
  const GaugeField &fat = links.fat, &lng = links.lng;
  for (Precision p : {Precision::double_, Precision::single, Precision::half})
    for (bool improved : {false, true}) {
      DiracParams dp;
      dp.type = improved ? DiracType::improved_staggered : DiracType::staggered;
      dp.mass = 0.1;
      dp.boundary = {1, -1, 1, -1};
      dp.even_odd = false;
      dp.precision = p;
      dp.reconstruct = improved ? Reconstruct::r18 : Reconstruct::r12;
      auto make = [&]() {
        return improved ? StaggeredDirac(dp, fat, lng, cpu) : StaggeredDirac(dp, u, cpu);
      };
      const StaggeredDirac plain = make();
      const SpinorField in = staggered_gaussian(g, 54, p), x = staggered_gaussian(g, 55, p);
      auto apply = [&](const StaggeredDirac& d, int kind, int parity, bool dag) {
        return staggered_apply(d, in, x, kind, parity, dag);
      };
      for (const char* cuts : {"1,1,1,1", "0,0,0,1", "0,1,1,0"})
        for (HaloPolicy pol : {HaloPolicy::no_overlap, HaloPolicy::overlap}) {
          if (p != Precision::double_ && cuts[0] != '1') continue;
          ForceCut fc(cuts);
          PolicyGuard pg(pol);
          const StaggeredDirac cut = make();
          ASSERT_TRUE(cut.split());
          for (int kind = 0; kind < 2; ++kind)
            for (int parity : {0, 1})
              for (bool dag : {false, true}) {
                const double e = rel_diff_cv(apply(cut, kind, parity, dag), apply(plain, kind, parity, dag));
                EXPECT_LT(e, p == Precision::double_ ? 1e-14 : p == Precision::single ? 1e-6 : 1e-3)
                    << to_string(p) << (improved ? " improved" : " naive") << " cuts " << cuts << " "
                    << to_string(pol) << " kind " << kind << " parity " << parity << " dagger " << dag;
              }
          // The full-lattice operator (both parities) goes through the halo per parity.
          const SpinorField full_in = staggered_gaussian(g, 56, p);
          SpinorField o1 = converted(x, x.params(), cpu), o2 = converted(x, x.params(), cpu);
          plain.M(o1, full_in);
          cut.M(o2, full_in);
          EXPECT_LT(rel_diff_cv(as_canonical(o2), as_canonical(o1)), p == Precision::double_ ? 1e-14 : 1e-3);
        }
    }
}

TEST(DiracHalo, ImprovedStaggeredNeedsFourSitesAcrossACut) {
  const Geometry g({4, 4, 2, 4});
  GaugeField fat = hot_field(g, 61), lng = hot_field(g, 62);
  DiracParams dp;
  dp.type = DiracType::improved_staggered;
  dp.mass = 0.1;
  dp.even_odd = false;
  ForceCut fc("0,0,1,0");
  EXPECT_THROW(StaggeredDirac(dp, fat, lng, cpu), InputError);
}

// The vector CPU kernels on a cut lattice (what several ranks run): they take the interior, every
// hop across a cut skipped (phase 0 for Wilson/clover, sign 0 for staggered), and the scalar
// exterior kernels add the ghosts' hops; under the no-overlap policy too, whose body becomes that
// interior and the exterior kernels. Lattices with whole tiles (X/2 = 8, single and half with
// tile pairs where those are on) and half tiles (X/2 = 4), cuts through x (inside a tile row) and
// through y, z, t; every result equals the uncut operator and every body took the vector kernel.
TEST(DiracHalo, VectorKernelsRunTheInteriorOfACutLattice) {
  const std::array<double, 4> bc{-1.0, 1.0, -1.0, -1.0};
  for (const Coords& dims : {Coords{16, 4, 4, 8}, Coords{8, 4, 6, 8}}) {
    const Geometry g(dims);
    const GaugeField u = hot_field(g, 71);
    const SpinorField in = gaussian(g, 72), x = gaussian(g, 73);
    for (Precision p : {Precision::double_, Precision::single, Precision::half})
      for (Reconstruct r : {Reconstruct::r12, Reconstruct::r8}) {
        SpinorFieldParams sp;
        sp.geometry = g;
        sp.precision = p;
        const WilsonDslash plain(u, bc, p, r, cpu);
        // Without AVX2 or AVX-512 both run the one-site kernel: still equal, no vector launch.
        const int vector_calls = plain.vectorised() ? 1 : 0;
        sp.order = plain.order();
        const SpinorField fin = converted(in, sp, cpu), fx = converted(x, sp, cpu);
        const CloverTerm c(u, 0.12, 1.3, p, cpu, plain.order());
        auto apply = [&](const WilsonDslash& d, int kind, int parity, bool dag) {
          return wilson_apply(d, c, fin, fx, kind, parity, dag);
        };
        for (const char* cuts : {"1,1,1,1", "1,0,0,0", "0,1,0,1"})
          for (HaloPolicy pol : {HaloPolicy::no_overlap, HaloPolicy::overlap}) {
            ForceCut fc(cuts);
            PolicyGuard pg(pol);
            const WilsonDslash cut(u, bc, p, r, cpu);
            ASSERT_TRUE(cut.split());
            ASSERT_EQ(cut.vectorised(), plain.vectorised());
            const std::string what = g.to_string() + " " + to_string(p) + " " + to_string(r) + " cuts " + cuts +
                                     " " + to_string(pol);
            for (int kind = 0; kind < 5; ++kind)
              for (int parity : {0, 1})
                for (bool dag : {false, true}) {
                  const std::int64_t before = cut.vector_launches();
                  const SpinorField got = apply(cut, kind, parity, dag);
                  EXPECT_EQ(cut.vector_launches() - before, vector_calls) << what << " kind " << kind;
                  EXPECT_LT(rel_diff(got, apply(plain, kind, parity, dag)),
                            p == Precision::double_ ? 1e-14 : tolerance(p))
                      << what << " kind " << kind << " parity " << parity << " dagger " << dag;
                }
          }
      }
  }
}

TEST(DiracHalo, StaggeredVectorKernelsRunTheInteriorOfACutLattice) {
  for (const Coords& dims : {Coords{16, 4, 4, 8}, Coords{8, 4, 6, 8}}) {
    const Geometry g(dims);
    const GaugeField u = hot_field(g, 81);
    const ImprovedLinks links = improved_links(g, 82);
    const GaugeField &fat = links.fat, &lng = links.lng;
    for (Precision p : {Precision::double_, Precision::single, Precision::half})
      for (int kind_op : {0, 1, 2}) {  // naive r12, naive r8, improved (fat r18, long r12)
        const bool improved = kind_op == 2;
        DiracParams dp;
        dp.type = improved ? DiracType::improved_staggered : DiracType::staggered;
        dp.mass = 0.1;
        dp.boundary = {-1, 1, 1, -1};
        dp.even_odd = false;
        dp.precision = p;
        dp.reconstruct = kind_op == 1 ? Reconstruct::r8 : improved ? Reconstruct::r18 : Reconstruct::r12;
        if (improved) dp.long_reconstruct = Reconstruct::r12;
        auto make = [&]() { return improved ? StaggeredDirac(dp, fat, lng, cpu) : StaggeredDirac(dp, u, cpu); };
        const StaggeredDirac plain = make();
        // Without AVX2 or AVX-512 both run the one-site kernel: still equal, no vector launch.
        const int vector_calls = plain.vectorised() ? 1 : 0;
        const SpinorField in = converted(staggered_gaussian(g, 84, p), plain.vector_params(), cpu);
        const SpinorField x = converted(staggered_gaussian(g, 85, p), plain.vector_params(), cpu);
        auto apply = [&](const StaggeredDirac& d, int kind, int parity, bool dag) {
          return staggered_apply(d, in, x, kind, parity, dag);
        };
        for (const char* cuts : {"1,1,1,1", "1,0,0,0", "0,0,1,1"})
          for (HaloPolicy pol : {HaloPolicy::no_overlap, HaloPolicy::overlap}) {
            ForceCut fc(cuts);
            PolicyGuard pg(pol);
            const StaggeredDirac cut = make();
            ASSERT_TRUE(cut.split());
            const std::string what = g.to_string() + " " + to_string(p) + " op " + std::to_string(kind_op) +
                                     " cuts " + cuts + " " + to_string(pol);
            for (int kind = 0; kind < 2; ++kind)
              for (int parity : {0, 1})
                for (bool dag : {false, true}) {
                  const std::int64_t before = cut.vector_launches();
                  const SpinorField got = apply(cut, kind, parity, dag);
                  EXPECT_EQ(cut.vector_launches() - before, vector_calls) << what << " kind " << kind;
                  const double e = rel_diff_cv(got, apply(plain, kind, parity, dag));
                  EXPECT_LT(e, p == Precision::double_ ? 1e-14 : p == Precision::single ? 1e-6 : 1e-3)
                      << what << " kind " << kind << " parity " << parity << " dagger " << dag;
                }
          }
        if (plain.order() == FieldOrder::tiled)
          EXPECT_GT(plain.vector_launches(), 0) << g.to_string() << " " << to_string(p) << " op " << kind_op;
      }
  }
}
