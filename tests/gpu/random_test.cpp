// GPU: random spinor fields, Haar/weak gauge starts and random gauge transformations drawn on the
// CUDA backend are bitwise equal to the CPU ones (random.h promises bit-identity).
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "gluon/qcd/gauge_field.h"
#include "gluon/qcd/gauge_start.h"
#include "gluon/qcd/gauge_transform.h"
#include "gluon/qcd/random_fields.h"
#include "gluon/qcd/spinor_field.h"
#include "gluon/runtime/exec.h"
#include "gluon/runtime/memory.h"
#include "test_support.h"

using namespace gluon;
using namespace gluon::qcd;

namespace {

std::vector<unsigned char> host_bytes(const runtime::Buffer& b) {
  std::vector<unsigned char> h(b.bytes());
  runtime::copy_bytes(h.data(), runtime::MemSpace::host, b.data(), b.space(), b.bytes());
  return h;
}

SpinorFieldParams spinor_params(const Geometry& g, Precision p, FieldOrder o, runtime::MemSpace m) {
  SpinorFieldParams prm;
  prm.geometry = g;
  prm.precision = p;
  prm.order = o;
  prm.space = m;
  prm.pad = o == FieldOrder::blocked ? 8 : 0;
  return prm;
}

GaugeFieldParams gauge_params(const Geometry& g, Precision p, Reconstruct r, FieldOrder o,
                              runtime::MemSpace m) {
  GaugeFieldParams prm;
  prm.geometry = g;
  prm.precision = p;
  prm.reconstruct = r;
  prm.order = o;
  prm.space = m;
  prm.pad = o == FieldOrder::blocked ? 8 : 0;
  return prm;
}

}  // namespace

TEST(GpuRandom, SpinorNoiseIsBitwiseEqualToTheCpu) {
  GLUON_REQUIRE_GPU();
  const auto gpu = runtime::cuda_exec();
  const auto cpu = runtime::cpu_exec();
  const Geometry g({8, 8, 8, 16});
  using Fill = void (*)(SpinorField&, std::uint64_t, std::uint32_t, const runtime::Exec&);
  for (Fill fill : {Fill{&fill_gaussian}, Fill{&fill_uniform}, Fill{&fill_z2}})
    for (Precision p : {Precision::double_, Precision::single, Precision::half})
      for (FieldOrder o : {FieldOrder::site_major, FieldOrder::blocked}) {
        SCOPED_TRACE(to_string(p));
        SpinorField h(spinor_params(g, p, o, runtime::MemSpace::host));
        SpinorField d(spinor_params(g, p, o, runtime::MemSpace::device));
        fill(h, 2024, 7, cpu);
        fill(d, 2024, 7, gpu);
        const auto hb = host_bytes(h.buffer()), db = host_bytes(d.buffer());
        ASSERT_EQ(hb.size(), db.size());
        // compare the body (the blocked pad is never written)
        std::int64_t diff = 0;
        for (std::int64_t s = 0; s < h.layout().sites; ++s)
          for (int r = 0; r < 24; ++r) {
            const auto off = h.layout().offset(s, 0, r) * bytes_per_real(p);
            diff += std::memcmp(&hb[off], &db[off], bytes_per_real(p)) != 0;
          }
        EXPECT_EQ(diff, 0);
        if (p == Precision::half) {
          const auto hn = host_bytes(h.norm_buffer()), dn = host_bytes(d.norm_buffer());
          EXPECT_EQ(std::memcmp(hn.data(), dn.data(), sizeof(float) * h.layout().sites), 0);
        }
      }
}

TEST(GpuRandom, HotAndWeakStartsAreBitwiseEqualToTheCpu) {
  GLUON_REQUIRE_GPU();
  const auto gpu = runtime::cuda_exec();
  const auto cpu = runtime::cpu_exec();
  const Geometry g({8, 8, 8, 8});
  for (Precision p : {Precision::double_, Precision::single, Precision::half})
    for (Reconstruct r : {Reconstruct::r18, Reconstruct::r12})
      for (int start = 0; start < 2; ++start) {
        SCOPED_TRACE(to_string(p) + " " + to_string(r) + (start ? " weak" : " hot"));
        const FieldOrder o = FieldOrder::site_major;
        GaugeField h(gauge_params(g, p, r, o, runtime::MemSpace::host));
        GaugeField d(gauge_params(g, p, r, o, runtime::MemSpace::device));
        if (start == 0) {
          set_hot(h, 99, cpu);
          set_hot(d, 99, gpu);
        } else {
          set_weak(h, 99, 0.2, cpu);
          set_weak(d, 99, 0.2, gpu);
        }
        const auto hb = host_bytes(h.buffer()), db = host_bytes(d.buffer());
        ASSERT_EQ(hb.size(), db.size());
        EXPECT_EQ(std::memcmp(hb.data(), db.data(), hb.size()), 0);
      }
}

TEST(GpuRandom, RandomGaugeTransformIsBitwiseEqualToTheCpu) {
  GLUON_REQUIRE_GPU();
  const Geometry g({8, 8, 4, 8});
  const GaugeTransform h = random_gauge_transform(g, 5, runtime::cpu_exec());
  const GaugeTransform d = random_gauge_transform(g, 5, runtime::cuda_exec());
  EXPECT_EQ(d.space(), runtime::MemSpace::device);
  const auto hb = host_bytes(h.buffer()), db = host_bytes(d.buffer());
  EXPECT_EQ(std::memcmp(hb.data(), db.data(), hb.size()), 0);
}
