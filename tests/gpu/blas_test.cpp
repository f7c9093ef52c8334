// BLAS-1 kernels on the GPU: the same operations on device fields (blocked layout, cuda_exec) and
// on host fields (CPU), compared to rounding (FMA contraction and the reduction order differ, so
// not bitwise), for double, single and half.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "gluon/qcd/blas.h"
#include "gluon/qcd/field_convert.h"
#include "gluon/qcd/random_fields.h"
#include "gluon/runtime/exec.h"
#include "test_support.h"

using namespace gluon;
using namespace gluon::qcd;

namespace {
const Geometry kGeom({8, 8, 8, 8});

SpinorFieldParams params(Precision p, runtime::MemSpace space) {
  SpinorFieldParams q;
  q.geometry = kGeom;
  q.precision = p;
  q.order = space == runtime::MemSpace::device ? FieldOrder::blocked : FieldOrder::site_major;
  q.space = space;
  return q;
}

double tol(Precision p) { return p == Precision::double_ ? 1e-13 : p == Precision::single ? 1e-5 : 1e-3; }

double rel_diff(const SpinorField& a, const SpinorField& b) {
  SpinorFieldParams c;
  c.geometry = kGeom;
  c.nspin = a.params().nspin;
  const auto cpu = runtime::cpu_exec();
  SpinorField ac = converted(a, c, cpu), bc = converted(b, c, cpu);
  const double nb = std::sqrt(blas::norm2(bc, cpu));
  blas::axpy(-1.0, ac, bc, cpu);
  return std::sqrt(blas::norm2(bc, cpu)) / nb;
}
// `count` Gaussian fields (seeds first, first + 1, ...) in precision prec, each as a host copy in
// h and a device copy in d holding the same stored values.
void host_device_pairs(Precision prec, int count, std::uint64_t first, std::vector<SpinorField>& h,
                       std::vector<SpinorField>& d) {
  const auto cpu = runtime::cpu_exec();
  SpinorFieldParams c;
  c.geometry = kGeom;
  for (int k = 0; k < count; ++k) {
    SpinorField f(c);
    fill_gaussian(f, first + k, 0, cpu);
    h.push_back(converted(f, params(prec, runtime::MemSpace::host), cpu));
    d.push_back(converted(f, params(prec, runtime::MemSpace::device), runtime::cuda_exec()));
  }
}
}  // namespace

TEST(BlasGpu, KernelsMatchCpu) {
  GLUON_REQUIRE_GPU();
  const auto cpu = runtime::cpu_exec();
  const auto gpu = runtime::cuda_exec();
  for (Precision prec : {Precision::double_, Precision::single, Precision::half}) {
    SCOPED_TRACE(to_string(prec));
    std::vector<SpinorField> h, d;
    host_device_pairs(prec, 6, 70, h, d);
    const double t = tol(prec);
    auto near = [&](double a, double b) { EXPECT_NEAR(a, b, t * std::fabs(b) + 1e-300); };
    near(blas::norm2(d[0], gpu), blas::norm2(h[0], cpu));
    const complexd dg = blas::cdot(d[0], d[1], gpu), dc = blas::cdot(h[0], h[1], cpu);
    EXPECT_NEAR(dg.re, dc.re, t * blas::norm2(h[0], cpu));
    EXPECT_NEAR(dg.im, dc.im, t * blas::norm2(h[0], cpu));
    near(blas::axpy_norm2(0.3, d[0], d[1], gpu), blas::axpy_norm2(0.3, h[0], h[1], cpu));
    EXPECT_LT(rel_diff(d[1], h[1]), t);
    near(blas::cg_update(0.2, d[0], d[1], d[2], d[3], gpu), blas::cg_update(0.2, h[0], h[1], h[2], h[3], cpu));
    EXPECT_LT(rel_diff(d[2], h[2]), t);
    EXPECT_LT(rel_diff(d[3], h[3]), t);
    blas::axpy_zpbx(0.4, d[0], d[2], d[3], -0.6, gpu);
    blas::axpy_zpbx(0.4, h[0], h[2], h[3], -0.6, cpu);
    EXPECT_LT(rel_diff(d[0], h[0]), t);
    EXPECT_LT(rel_diff(d[2], h[2]), t);
    near(blas::bicgstab_step({0.3, 0.2}, {0.7, 0.1}, {0.5, -0.4}, d[0], d[1], d[2], d[4], d[3], gpu),
         blas::bicgstab_step({0.3, 0.2}, {0.7, 0.1}, {0.5, -0.4}, h[0], h[1], h[2], h[4], h[3], cpu));
    EXPECT_LT(rel_diff(d[0], h[0]), t);
    EXPECT_LT(rel_diff(d[1], h[1]), t);
    EXPECT_LT(rel_diff(d[3], h[3]), t);
    std::vector<blas::ShiftUpdate> ug_s, uc_s;
    for (int i = 0; i < 2; ++i) {
      ug_s.push_back({&d[2 + i], &d[4 + i], 0.1 + i, 0.2, 0.5});
      uc_s.push_back({&h[2 + i], &h[4 + i], 0.1 + i, 0.2, 0.5});
    }
    blas::multishift_update(d[0], ug_s, gpu);
    blas::multishift_update(h[0], uc_s, cpu);
    for (int k = 2; k < 6; ++k) EXPECT_LT(rel_diff(d[k], h[k]), t) << k;
    blas::zero(d[5], gpu);
    EXPECT_EQ(blas::norm2(d[5], gpu), 0.0);
    // copy across precision on the device
    SpinorField dd(params(Precision::double_, runtime::MemSpace::device));
    blas::copy(dd, d[1], gpu);
    near(blas::norm2(dd, gpu), blas::norm2(h[1], cpu));
  }
}

// Multi-shift CG's windowed update on the GPU (the kernel the solver runs by default), with the
// most residuals one window takes and more shifts than one launch, for 4-spin and staggered
// fields; and the windowed base step (p saved, p = r + beta p, r copied).
TEST(BlasGpu, MultishiftWindowMatchesCpu) {
  GLUON_REQUIRE_GPU();
  const auto cpu = runtime::cpu_exec();
  const auto gpu = runtime::cuda_exec();
  for (int nspin : {4, 1}) {
    for (Precision prec : {Precision::double_, Precision::single, Precision::half}) {
      SCOPED_TRACE(to_string(prec) + " nspin " + std::to_string(nspin));
      const int m = blas::kMaxShiftWindow, n = 10;
      std::vector<SpinorField> h, d;
      SpinorFieldParams c;
      c.geometry = kGeom;
      c.nspin = nspin;
      for (int k = 0; k < m + 2 * n + 2; ++k) {
        SpinorField f(c);
        fill_gaussian(f, 400 + k, 0, cpu);
        SpinorFieldParams ph = params(prec, runtime::MemSpace::host), pd = params(prec, runtime::MemSpace::device);
        ph.nspin = pd.nspin = nspin;
        h.push_back(converted(f, ph, cpu));
        d.push_back(converted(f, pd, gpu));
      }
      std::vector<const SpinorField*> rh, rd;
      for (int j = 0; j < m; ++j) {
        rh.push_back(&h[j]);
        rd.push_back(&d[j]);
      }
      std::vector<blas::ShiftWindow> wh(n), wd(n);
      for (int i = 0; i < n; ++i) {
        blas::ShiftWindow w;
        w.cx = 0.2 + 0.1 * i;
        w.cp = 0.8 - 0.03 * i;
        for (int j = 0; j < m; ++j) {
          w.dx[j] = 0.05 * (j + 1) - 0.01 * i;
          w.dp[j] = 0.5 / (1 + i + j);
        }
        w.update_p = i != 3;
        wh[i] = wd[i] = w;
        wh[i].x = &h[m + i];
        wh[i].p = &h[m + n + i];
        wd[i].x = &d[m + i];
        wd[i].p = &d[m + n + i];
      }
      blas::multishift_window(rd, wd, gpu);
      blas::multishift_window(rh, wh, cpu);
      const double t = tol(prec);
      for (int k = m; k < m + 2 * n; ++k) EXPECT_LT(rel_diff(d[k], h[k]), t) << k;
      // r = m + 2n, p = m + 2n + 1, r_copy = m, p_save = m + 1
      const int rr = m + 2 * n, pp = rr + 1;
      runtime::ScalarSlots bd(gpu, 2), bh(cpu, 2);  // beta = 0.6 / 1.0 from the slots
      for (runtime::ScalarSlots* b : {&bd, &bh}) {
        b->set(0, 1.0);
        b->set(1, 0.6);
      }
      blas::multishift_base_step({&bd, 0}, {&bd, 1}, d[rr], d[pp], d[m], &d[m + 1], gpu);
      blas::multishift_base_step({&bh, 0}, {&bh, 1}, h[rr], h[pp], h[m], &h[m + 1], cpu);
      EXPECT_LT(rel_diff(d[m], h[rr]), t);
      EXPECT_LT(rel_diff(d[m + 1], h[m + 1]), t);
      EXPECT_LT(rel_diff(d[pp], h[pp]), t);
    }
  }
}

// The device-resident CG kernels on the GPU: the slots written by queued reductions feed the next
// kernels without a host round trip, and match the CPU.
TEST(BlasGpu, CgSlotKernelsMatchCpu) {
  GLUON_REQUIRE_GPU();
  const auto cpu = runtime::cpu_exec();
  const auto gpu = runtime::cuda_exec();
  for (Precision prec : {Precision::double_, Precision::single, Precision::half}) {
    SCOPED_TRACE(to_string(prec));
    std::vector<SpinorField> h, d;
    host_device_pairs(prec, 4, 90, h, d);
    runtime::ScalarSlots sd(gpu, 3), sh(cpu, 3);
    const double r2 = blas::norm2(h[3], cpu);
    sd.set(0, r2);
    sh.set(0, r2);
    // p = 0, Ap = 1, x = 2, r = 3: the whole iteration queued, one wait.
    blas::re_dot(d[0], d[1], {&sd, 1}, gpu);
    blas::cg_residual({&sd, 0}, {&sd, 1}, d[1], d[3], {&sd, 2}, gpu);
    blas::cg_step({&sd, 0}, {&sd, 1}, {&sd, 2}, d[0], d[2], d[3], gpu);
    sd.record();
    sd.wait();
    blas::re_dot(h[0], h[1], {&sh, 1}, cpu);
    blas::cg_residual({&sh, 0}, {&sh, 1}, h[1], h[3], {&sh, 2}, cpu);
    blas::cg_step({&sh, 0}, {&sh, 1}, {&sh, 2}, h[0], h[2], h[3], cpu);
    const double t = tol(prec);
    for (int i = 1; i < 3; ++i) EXPECT_NEAR(sd.host(i), sh.host(i), t * std::fabs(sh.host(i)) * 10) << i;
    for (int k = 0; k < 4; ++k) EXPECT_LT(rel_diff(d[k], h[k]), 10 * t) << k;
  }
}

// CG's batched solution update on the GPU (the kernel the solvers run by default): p_next only,
// then x with the most terms one pass takes, then axpy_sum over more terms than that.
TEST(BlasGpu, BatchedCgStepAndAxpySumMatchCpu) {
  GLUON_REQUIRE_GPU();
  const auto cpu = runtime::cpu_exec();
  const auto gpu = runtime::cuda_exec();
  for (Precision prec : {Precision::double_, Precision::single, Precision::half}) {
    SCOPED_TRACE(to_string(prec));
    const int nv = blas::kMaxAxpyTerms + 2;
    std::vector<SpinorField> h, d;
    host_device_pairs(prec, 4 + nv, 130, h, d);  // p, p_next, r, x, then the terms' vectors
    runtime::ScalarSlots sd(gpu, 3), sh(cpu, 3);
    for (int i = 0; i < 3; ++i) {
      const double v[3] = {3.5, 1.75, 0.6};
      sd.set(i, v[i]);
      sh.set(i, v[i]);
    }
    std::vector<blas::AxpyTerm> td, th, all_d, all_h;
    for (int t = 0; t < nv; ++t) {
      const double a = 0.3 - 0.17 * t;
      if (t < blas::kMaxAxpyTerms - 1) {
        td.push_back({&d[4 + t], a});
        th.push_back({&h[4 + t], a});
      }
      all_d.push_back({&d[4 + t], -a});
      all_h.push_back({&h[4 + t], -a});
    }
    blas::cg_step_batched({&sd, 0}, {&sd, 1}, {&sd, 2}, d[0], d[1], d[2], nullptr, {}, gpu);
    blas::cg_step_batched({&sh, 0}, {&sh, 1}, {&sh, 2}, h[0], h[1], h[2], nullptr, {}, cpu);
    blas::cg_step_batched({&sd, 0}, {&sd, 1}, {&sd, 2}, d[1], d[0], d[2], &d[3], td, gpu);
    blas::cg_step_batched({&sh, 0}, {&sh, 1}, {&sh, 2}, h[1], h[0], h[2], &h[3], th, cpu);
    blas::axpy_sum(all_d, d[2], gpu);
    blas::axpy_sum(all_h, h[2], cpu);
    const double t = tol(prec);
    for (int k = 0; k < 4; ++k) EXPECT_LT(rel_diff(d[k], h[k]), 10 * t) << k;
  }
}

// BiCGstab's slot kernels on the GPU, queued as the solver queues them (one wait), against the CPU.
TEST(BlasGpu, BicgstabSlotKernelsMatchCpu) {
  GLUON_REQUIRE_GPU();
  const auto cpu = runtime::cpu_exec();
  const auto gpu = runtime::cuda_exec();
  for (Precision prec : {Precision::double_, Precision::single, Precision::half}) {
    SCOPED_TRACE(to_string(prec));
    std::vector<SpinorField> h, d;
    host_device_pairs(prec, 6, 110, h, d);  // r0, p, v, r, t, x
    runtime::ScalarSlots sd(gpu, 24), sh(cpu, 24);
    // 0-1 rho, 2-4 r0v, 5-6 alpha, 7 s2, 8-14 ts, 15-16 omega, 17 r2, 18-19 rho_next, 20-21 beta
    for (runtime::ScalarSlots* sl : {&sd, &sh}) {
      sl->set(0, 0.7);
      sl->set(1, -0.2);
    }
    auto iteration = [](std::vector<SpinorField>& f, runtime::ScalarSlots& s, const runtime::Exec& ex) {
      blas::bicgstab_r0v(f[0], f[2], {&s, 0}, {&s, 2}, {&s, 5}, ex);
      blas::bicgstab_s({&s, 5}, f[2], f[3], {&s, 7}, ex);
      blas::bicgstab_ts(f[4], f[3], f[0], {{&s, 0}, {&s, 5}, {&s, 8}, {&s, 15}, {&s, 18}, {&s, 20}}, ex);
      blas::bicgstab_step({&s, 5}, {&s, 15}, {&s, 20}, f[1], f[3], f[4], f[2], f[5], {&s, 17}, ex);
      s.record();
      s.wait();
    };
    iteration(d, sd, gpu);
    iteration(h, sh, cpu);
    const double t = 10 * tol(prec);
    for (int i = 0; i < 22; ++i) EXPECT_NEAR(sd.host(i), sh.host(i), t * (std::fabs(sh.host(i)) + 1.0)) << i;
    for (int k = 0; k < 6; ++k) EXPECT_LT(rel_diff(d[k], h[k]), t) << k;
  }
}

// The reliable-update kernels across precisions (blas_mixed_kernels.cpp): every outer x sloppy
// pair on the device against the CPU; a half outer field takes the unfused sequence.
TEST(BlasGpu, AccumulateAndXmyNorm2CopyAcrossPrecisionsMatchCpu) {
  GLUON_REQUIRE_GPU();
  const auto cpu = runtime::cpu_exec();
  const auto gpu = runtime::cuda_exec();
  for (Precision po : {Precision::double_, Precision::single, Precision::half}) {
    for (Precision ps : {Precision::double_, Precision::single, Precision::half}) {
      SCOPED_TRACE(to_string(po) + " with sloppy " + to_string(ps));
      std::vector<SpinorField> ho, dO, hs, ds;
      host_device_pairs(po, 3, 90, ho, dO);
      host_device_pairs(ps, 2, 95, hs, ds);
      const double t = tol(po) + tol(ps);
      blas::accumulate(dO[0], ds[0], gpu);
      blas::accumulate(ho[0], hs[0], cpu);
      EXPECT_LT(rel_diff(dO[0], ho[0]), t);
      EXPECT_EQ(blas::norm2(ds[0], gpu), 0.0);
      const double ng = blas::xmy_norm2_copy(dO[1], dO[2], ds[1], gpu);
      const double nc = blas::xmy_norm2_copy(ho[1], ho[2], hs[1], cpu);
      EXPECT_NEAR(ng, nc, t * nc);
      EXPECT_LT(rel_diff(dO[2], ho[2]), t);
      EXPECT_LT(rel_diff(ds[1], hs[1]), t);
    }
  }
}
