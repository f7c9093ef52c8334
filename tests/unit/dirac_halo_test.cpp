// The halo path of the Dirac operators in one process: GLUON_HALO_FORCE_CUT treats dimensions as
// cut, so faces are packed, "sent" to this rank itself, and read back as ghosts (no_overlap) or
// added by the exterior kernels (overlap). Every variant must equal the uncut operator.
#include <gtest/gtest.h>

#include <cstdlib>

#include "dirac_test_helpers.h"
#include "gluon/qcd/dirac/clover.h"
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
      SpinorField out(sp);
      convert(fx, out, cpu);
      switch (kind) {
        case 0: d.dslash(out, fin, parity, dag); break;
        case 1: d.dslash_xpay(out, fin, parity, dag, fx, -0.37); break;
        case 2: d.dslash_clover(out, fin, parity, dag, c.field(true), nullptr, 1.0); break;
        case 3: d.dslash_clover(out, fin, parity, dag, c.field(false), &fx, 0.21); break;
        case 4: d.dslash_clover_on_x(out, fin, parity, dag, c.field(false), fx, -0.5); break;
      }
      return as_canonical(out);
    };
    for (const char* cuts : {"1,1,1,1", "0,0,0,1", "1,0,1,0"})
      for (HaloPolicy pol : {HaloPolicy::no_overlap, HaloPolicy::overlap}) {
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
