// Field conversions on the GPU: host canonical -> device (every precision x reconstruct, blocked
// and site_major) -> back to host, compared with the same conversion done on the CPU. Conversions
// that only cast or reorder reals (r18, r12 stores, precision and order changes, spinors) must
// match bitwise; those that rebuild links (r12/r8 loads, r8 packing with atan2/sqrt/sin/cos) may
// differ by rounding (FMA contraction and libm differ between nvcc and the host compiler).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>

#include "gluon/qcd/field_convert.h"
#include "gluon/qcd/gauge_start.h"
#include "gluon/qcd/random_fields.h"
#include "gluon/runtime/exec.h"
#include "test_support.h"

using namespace gluon;
using namespace gluon::qcd;

namespace {
const Geometry kGeom({8, 4, 4, 6});

GaugeFieldParams params(Precision p, Reconstruct r, FieldOrder o, runtime::MemSpace space,
                        std::int64_t pad = 0) {
  GaugeFieldParams q;
  q.geometry = kGeom;
  q.precision = p;
  q.reconstruct = r;
  q.order = o;
  q.space = space;
  q.pad = pad;
  return q;
}

// A canonical spinor field of kGeom (double, site_major, host) with Gaussian components.
SpinorField gaussian_spinor(std::uint64_t seed) {
  SpinorFieldParams p;
  p.geometry = kGeom;
  SpinorField f(p);
  fill_gaussian(f, seed, 0, runtime::cpu_exec());
  return f;
}

double max_diff_reals(const GaugeField& a, const GaugeField& b) {
  const auto* x = static_cast<const double*>(a.data());
  const auto* y = static_cast<const double*>(b.data());
  double m = 0;
  for (std::int64_t i = 0; i < a.layout().size(); ++i) m = std::fmax(m, std::fabs(x[i] - y[i]));
  return m;
}
}  // namespace

TEST(FieldConvertGpu, HostDeviceBlockedAndBackMatchesCpu) {
  GLUON_REQUIRE_GPU();
  const auto cpu = runtime::cpu_exec();
  const auto gpu = runtime::cuda_exec();
  GaugeField u = GaugeField::canonical(kGeom);
  set_hot(u, 99, cpu);
  for (Precision p : {Precision::double_, Precision::single, Precision::half})
    for (Reconstruct r : {Reconstruct::r18, Reconstruct::r12, Reconstruct::r8})
      for (FieldOrder o : {FieldOrder::site_major, FieldOrder::blocked}) {
        const std::int64_t pad = o == FieldOrder::blocked ? 4 : 0;
        SCOPED_TRACE(params(p, r, o, runtime::MemSpace::device).describe());
        // Device path: canonical host -> device form -> host form (same precision/compression).
        GaugeField dev = converted(u, params(p, r, o, runtime::MemSpace::device, pad), gpu);
        GaugeField from_dev = converted(dev, params(p, r, FieldOrder::site_major, runtime::MemSpace::host), gpu);
        // CPU path.
        GaugeField host = converted(u, params(p, r, o, runtime::MemSpace::host, pad), cpu);
        GaugeField from_host = converted(host, params(p, r, FieldOrder::site_major, runtime::MemSpace::host), cpu);
        const bool bitwise = r != Reconstruct::r8;  // r18/r12 stores copy or cast reals
        if (bitwise) {
          EXPECT_EQ(std::memcmp(from_dev.data(), from_host.data(), from_host.bytes()), 0);
        }
        // Back to canonical (unpacking on the device vs on the CPU).
        GaugeField back_dev = converted(dev, params(Precision::double_, Reconstruct::r18, FieldOrder::site_major,
                                                    runtime::MemSpace::host), gpu);
        GaugeField back_host = converted(host, params(Precision::double_, Reconstruct::r18,
                                                      FieldOrder::site_major, runtime::MemSpace::host), cpu);
        const double tol = p == Precision::double_ ? 1e-14 : p == Precision::single ? 2e-6 : 1e-3;
        if (r == Reconstruct::r18) {
          EXPECT_EQ(std::memcmp(back_dev.data(), back_host.data(), back_host.bytes()), 0);
        } else {
          EXPECT_LE(max_diff_reals(back_dev, back_host), tol);
        }
        EXPECT_LE(max_diff_reals(back_dev, u), tol);
      }
}

TEST(FieldConvertGpu, SpinorsHostDeviceAndBackMatchCpuBitwise) {
  GLUON_REQUIRE_GPU();
  const auto cpu = runtime::cpu_exec();
  const auto gpu = runtime::cuda_exec();
  for (int nspin : {4, 1}) {
    SpinorFieldParams p;
    p.geometry = kGeom;
    p.nspin = nspin;
    SpinorField src(p);
    fill_gaussian(src, 5, 0, cpu);
    for (Precision prec : {Precision::double_, Precision::single, Precision::half}) {
      SpinorFieldParams q = p;
      q.precision = prec;
      q.order = FieldOrder::blocked;
      q.pad = 4;
      q.space = runtime::MemSpace::device;
      SpinorField dev = converted(src, q, gpu);
      q.space = runtime::MemSpace::host;
      SpinorField host = converted(src, q, cpu);
      SpinorFieldParams sm = q;
      sm.order = FieldOrder::site_major;
      sm.pad = 0;
      SpinorField a = converted(dev, sm, gpu), b = converted(host, sm, cpu);
      const std::size_t bytes = static_cast<std::size_t>(a.layout().size()) * bytes_per_real(prec);
      EXPECT_EQ(std::memcmp(a.data(), b.data(), bytes), 0) << sm.describe();
      if (prec == Precision::half)
        EXPECT_EQ(std::memcmp(a.norms(), b.norms(), static_cast<std::size_t>(a.layout().sites) * sizeof(float)), 0);
    }
  }
}

// The tiled order is a host layout: a tiled host field crosses to the device and back through a
// site_major host copy (field_convert.h), holding what the host-only conversions hold, bit for bit
// (order changes only, in double and single). Until 2026-12-07 either direction threw, since the
// device temporary took the host field's order.
TEST(FieldConvertGpu, TiledHostFieldsCrossToTheDeviceAndBack) {
  GLUON_REQUIRE_GPU();
  const auto cpu = runtime::cpu_exec();
  const auto gpu = runtime::cuda_exec();
  const SpinorField src = gaussian_spinor(7);
  const SpinorFieldParams p = src.params();
  GaugeField u = GaugeField::canonical(kGeom);
  set_hot(u, 8, cpu);
  for (Precision prec : {Precision::double_, Precision::single}) {
    SCOPED_TRACE(to_string(prec));
    SpinorFieldParams tiled = p, dev = p, sm = p;
    tiled.precision = dev.precision = sm.precision = prec;
    tiled.order = FieldOrder::tiled;
    dev.order = FieldOrder::blocked;
    dev.space = runtime::MemSpace::device;
    const SpinorField t = converted(src, tiled, cpu);
    const SpinorField back = converted(converted(t, dev, gpu), tiled, gpu);
    const SpinorField a = converted(back, sm, cpu), b = converted(t, sm, cpu);
    EXPECT_EQ(std::memcmp(a.data(), b.data(), static_cast<std::size_t>(a.layout().size()) * bytes_per_real(prec)), 0);

    GaugeFieldParams gt = u.params(), gd = u.params(), gs = u.params();
    gt.precision = gd.precision = gs.precision = prec;
    gt.order = FieldOrder::tiled;
    gs.order = FieldOrder::site_major;
    gd.order = FieldOrder::blocked;
    gd.space = runtime::MemSpace::device;
    const GaugeField ut = converted(u, gt, cpu);
    const GaugeField ub = converted(converted(ut, gd, gpu), gt, gpu);
    const GaugeField ga = converted(ub, gs, cpu), gb = converted(ut, gs, cpu);
    EXPECT_EQ(std::memcmp(ga.data(), gb.data(), static_cast<std::size_t>(ga.layout().size()) * bytes_per_real(prec)), 0);
  }
}

// Half on the device: a NaN component makes its site's norm NaN (max.NaN), so the site reads back
// NaN everywhere, as on the host; the other sites are the host's bit for bit.
TEST(FieldConvertGpu, HalfSpinorWithNanReadsBackNan) {
  GLUON_REQUIRE_GPU();
  const auto cpu = runtime::cpu_exec();
  const auto gpu = runtime::cuda_exec();
  SpinorField src = gaussian_spinor(6);
  const SpinorFieldParams p = src.params();
  static_cast<double*>(src.data())[7 * 24 + 5] = std::nan("");
  SpinorFieldParams q = p;
  q.precision = Precision::half;
  q.order = FieldOrder::blocked;
  q.space = runtime::MemSpace::device;
  SpinorField dev = converted(src, q, gpu);
  SpinorField back = converted(dev, p, gpu);
  const double* b = static_cast<const double*>(back.data());
  for (int r = 0; r < 24; ++r) EXPECT_TRUE(std::isnan(b[7 * 24 + r])) << "real " << r;
  q.space = runtime::MemSpace::host;
  SpinorField host = converted(src, q, cpu);
  SpinorField hb = converted(host, p, cpu);
  const double* h = static_cast<const double*>(hb.data());
  for (std::int64_t i = 0; i < 24 * kGeom.volume(); ++i)
    if (i / 24 != 7) ASSERT_EQ(b[i], h[i]) << "real " << i;
}
