// The halo path of the Dirac operators on one GPU: GLUON_HALO_FORCE_CUT treats dimensions as cut,
// so faces are packed, moved to this rank itself and read back as ghosts (no overlap) or added
// by the exterior kernels (overlap). With GLUON_HALO_TRANSPORT=ipc the faces take the CUDA IPC
// path of a multi-GPU node (packed on the comm stream beside the interior kernel, copied by a
// copy engine, two ghost slots used in turn); otherwise the communicator's. Every variant must
// equal the uncut operator on the same GPU, call after call (the slots alternate).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <string>

#include "gluon/qcd/dirac/dirac.h"
#include "gluon/qcd/dirac/halo.h"
#include "gluon/qcd/field_convert.h"
#include "gluon/qcd/gauge_start.h"
#include "gluon/qcd/random_fields.h"
#include "canonical_spinor.h"
#include "test_support.h"

using namespace gluon;
using namespace gluon::qcd;

namespace {

const runtime::Exec cpu = runtime::cpu_exec();

using Env = test::ScopedEnv;
struct PolicyGuard {
  explicit PolicyGuard(HaloPolicy p) { set_default_halo_policy(p); }
  ~PolicyGuard() { set_default_halo_policy(HaloPolicy::auto_); }
};

double rel_diff(const SpinorField& a, const SpinorField& b) {
  const auto* x = static_cast<const double*>(a.data());
  const auto* y = static_cast<const double*>(b.data());
  const std::int64_t n = a.params().sites() * a.params().nspin * 6;
  double num = 0, den = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    num += (x[i] - y[i]) * (x[i] - y[i]);
    den += y[i] * y[i];
  }
  return std::sqrt(num / den);
}

}  // namespace

TEST(DiracHaloGpu, SelfExchangedFacesEqualTheUncutOperatorForEveryTransport) {
  GLUON_REQUIRE_GPU();
  const runtime::Exec gpu = runtime::cuda_exec();
  const Geometry g({8, 6, 8, 12});
  GaugeField u = GaugeField::canonical(g);
  set_hot(u, 61, cpu);
  GaugeField lng = GaugeField::canonical(g);
  set_hot(lng, 62, cpu);
  for (DiracType t : {DiracType::clover, DiracType::wilson, DiracType::improved_staggered})
    for (Precision p : {Precision::double_, Precision::single}) {
      DiracParams dp;
      dp.type = t;
      dp.kappa = 0.115;
      dp.csw = 1.3;
      dp.mass = 0.1;
      dp.boundary = {1, -1, 1, -1};
      dp.even_odd = true;
      dp.precision = p;
      dp.reconstruct = t == DiracType::improved_staggered ? Reconstruct::r18 : Reconstruct::r12;
      auto make = [&] {
        return t == DiracType::improved_staggered ? make_improved_staggered(dp, u, lng, gpu) : make_dirac(dp, u, gpu);
      };
      const auto plain = make();
      ASSERT_FALSE(plain->split());
      SpinorFieldParams cp = plain->vector_params();
      cp.precision = Precision::double_;
      cp.order = FieldOrder::site_major;
      cp.space = runtime::MemSpace::host;
      cp.pad = 0;
      SpinorField src(cp);
      fill_gaussian(src, 63, 0, cpu);
      const SpinorField in = converted(src, plain->vector_params(), gpu);
      SpinorField want(plain->vector_params()), wantd(plain->vector_params());
      plain->M(want, in);
      plain->Mdag(wantd, in);
      const SpinorField want_c = test::canonical_copy(want, gpu), wantd_c = test::canonical_copy(wantd, gpu);
      const double tol = p == Precision::double_ ? 1e-13 : 1e-6;
      // "nccl": anything but IPC (in one process the single communicator, staged through the host).
      for (const char* transport : {"ipc", "nccl"})
        for (const char* cuts : {"0,0,0,1", "1,1,1,1"})
          for (HaloPolicy pol : {HaloPolicy::no_overlap, HaloPolicy::overlap}) {
            Env tr("GLUON_HALO_TRANSPORT", transport), fc("GLUON_HALO_FORCE_CUT", cuts);
            PolicyGuard pg(pol);
            const auto op = make();
            ASSERT_TRUE(op->split());
            const std::string how = to_string(t) + " " + to_string(p) + " " + transport + " cuts " + cuts + " " +
                                    to_string(pol);
            if (std::string(transport) == "ipc") EXPECT_EQ(op->halo_stats().transport, "cuda-ipc") << how;
            SpinorField out(op->vector_params());
            for (int call = 0; call < 3; ++call) {  // M and Mdag: 2 dslashes each, so both slots and back
              op->M(out, in);
              EXPECT_LT(rel_diff(test::canonical_copy(out, gpu), want_c), tol) << how << " M, call " << call;
              op->Mdag(out, in);
              EXPECT_LT(rel_diff(test::canonical_copy(out, gpu), wantd_c), tol) << how << " Mdag, call " << call;
            }
            EXPECT_EQ(op->halo_stats().policy_used, pol) << how;
          }
    }
}
