// The two-particle accumulation on one device: the sizes and index arithmetic of the layout, the
// synthetic G, every channel's update kernel against the plain loops of reference.cpp (both
// precisions), one entry worked out by hand, slices, the memory check. (`gluon g4` end to end:
// g4_cli_test.cpp.)
#include <gtest/gtest.h>

#include <complex>
#include <vector>

#include "gluon/g4/accumulate.h"
#include "gluon/g4/layout.h"
#include "gluon/g4/reference.h"
#include "gluon/g4/ring.h"
#include "gluon/runtime/error.h"
#include "gluon/runtime/exec.h"
#include "gluon/runtime/memory.h"

using namespace gluon;
using namespace gluon::g4;
using C = std::complex<double>;

namespace {

Params small_params(const std::string& cluster, int bands, int freq, int transfers,
                    std::vector<Channel> channels) {
  Params p;
  p.bands = bands;
  p.cluster = parse_cluster(cluster);
  p.frequencies = freq;
  p.transfers = transfers;
  p.channels = std::move(channels);
  return p;
}

// The kernels' accumulation of measurements `ids`, on the CPU, converted to double.
std::vector<C> kernel_g4(const Layout& L, Precision prec, std::uint64_t seed,
                         const std::vector<std::uint64_t>& ids) {
  const auto ex = runtime::cpu_exec();
  const std::int64_t n = L.entries_total();
  std::vector<C> out(static_cast<std::size_t>(n));
  if (prec == Precision::double_) {
    std::vector<C> g(static_cast<std::size_t>(2 * L.g_elements_per_spin()));
    for (auto id : ids) {
      generate_g(ex, L, prec, g.data(), seed, id);
      accumulate(ex, L, prec, g.data(), out.data(), 0, 0, n);
    }
  } else {
    std::vector<std::complex<float>> g(static_cast<std::size_t>(2 * L.g_elements_per_spin()));
    std::vector<std::complex<float>> g4(static_cast<std::size_t>(n));
    for (auto id : ids) {
      generate_g(ex, L, prec, g.data(), seed, id);
      accumulate(ex, L, prec, g.data(), g4.data(), 0, 0, n);
    }
    for (std::int64_t i = 0; i < n; ++i) out[i] = C(g4[i].real(), g4[i].imag());
  }
  return out;
}

}  // namespace

TEST(G4Layout, SizesFollowDcaConventions) {
  const Layout L(small_params("3x2", 2, 3, 13, {Channel::pp, Channel::ph_charge}));
  const auto& v = L.view();
  EXPECT_EQ(v.nc, 6);
  EXPECT_EQ(v.nw, 6);
  EXPECT_EQ(L.max_transfer_frequency(), 2);  // q_12 = (Q 0, nu 2)
  EXPECT_EQ(v.nwg, 2 * (3 + 2));
  EXPECT_EQ(L.g_side(), 2 * 6 * 10);
  // n_b^4 N_c^2 (2F)^2 N_q per channel
  EXPECT_EQ(L.entries_per_channel(), 16LL * 36 * 36 * 13);
  EXPECT_EQ(L.entries_total(), 2 * L.entries_per_channel());
  EXPECT_EQ(v.q_momentum(7), 1);
  EXPECT_EQ(v.q_frequency(7), 1);
}

TEST(G4Layout, MomentumArithmeticIsTheGroupZLxTimesZLy) {
  const Layout L(small_params("3x2", 1, 1, 1, {Channel::pp}));
  const auto& v = L.view();
  for (int a = 0; a < 6; ++a)
    for (int b = 0; b < 6; ++b) {
      const int ax = a % 3, ay = a / 3, bx = b % 3, by = b / 3;
      EXPECT_EQ(v.k_add(a, b), (ax + bx) % 3 + 3 * ((ay + by) % 2));
      EXPECT_EQ(v.k_sub(a, b), (ax - bx + 3) % 3 + 3 * ((ay - by + 2) % 2));
      EXPECT_EQ(v.k_add(v.k_sub(a, b), b), a);
    }
}

TEST(G4Layout, BadInputIsRejectedNamingTheFlag) {
  auto msg = [](auto f) {
    try {
      f();
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(msg([] { parse_cluster("4y4"); }).find("--cluster"), std::string::npos);
  EXPECT_NE(msg([] { parse_cluster("0"); }).find("--cluster"), std::string::npos);
  EXPECT_NE(msg([] { parse_channels("pp,xx"); }).find("'xx'"), std::string::npos);
  EXPECT_NE(msg([] { parse_channels("pp,pp"); }).find("twice"), std::string::npos);
  EXPECT_NE(msg([] { precision_from_name("half"); }).find("--precision"), std::string::npos);
  EXPECT_NE(msg([] { Layout(small_params("4", 0, 2, 1, {Channel::pp})); }).find("--bands"), std::string::npos);
  EXPECT_NE(msg([] { Layout(small_params("4", 1, 0, 1, {Channel::pp})); }).find("--frequencies"),
            std::string::npos);
  EXPECT_NE(msg([] { Layout(small_params("4", 1, 2, 0, {Channel::pp})); }).find("--transfers"),
            std::string::npos);
  EXPECT_EQ(parse_channels("all").size(), 4u);
}

TEST(G4Layout, SlicesAreContiguousBalancedAndCoverEverything) {
  for (std::int64_t n : {0LL, 1LL, 7LL, 100LL, 1001LL})
    for (int p = 1; p <= 5; ++p) {
      std::int64_t next = 0, lo = n, hi = 0;
      for (int r = 0; r < p; ++r) {
        const Slice s = slice_of(n, r, p);
        EXPECT_EQ(s.begin, next);
        next = s.end;
        lo = std::min(lo, s.size());
        hi = std::max(hi, s.size());
      }
      EXPECT_EQ(next, n);
      EXPECT_LE(hi - lo, 1);
    }
}

TEST(G4Generate, KernelWritesTheCounterBasedValuesAndSingleIsTheRoundedDouble) {
  const Layout L(small_params("2", 1, 2, 3, {Channel::pp}));
  const auto ex = runtime::cpu_exec();
  const std::int64_t n = L.g_elements_per_spin();
  std::vector<C> gd(2 * n);
  std::vector<std::complex<float>> gf(2 * n);
  generate_g(ex, L, Precision::double_, gd.data(), 9, measurement_id(1, 2));
  generate_g(ex, L, Precision::single, gf.data(), 9, measurement_id(1, 2));
  double re, im;
  for (int s = 0; s < 2; ++s)
    for (std::int64_t e = 0; e < n; ++e) {
      g_value(9, measurement_id(1, 2), s, e, &re, &im);
      EXPECT_EQ(gd[s * n + e], C(re, im));
      EXPECT_EQ(gf[s * n + e], std::complex<float>(float(re), float(im)));
      EXPECT_LT(std::abs(re), 1.0);
    }
  // Different measurements, spins and seeds differ.
  std::vector<C> other(2 * n);
  generate_g(ex, L, Precision::double_, other.data(), 9, measurement_id(2, 1));
  EXPECT_NE(other[0], gd[0]);
  EXPECT_NE(gd[0], gd[n]);
  EXPECT_NE(measurement_id(0, 1), measurement_id(1, 0));
}

TEST(G4Accumulate, OneParticleParticleEntryByHand) {
  // n_b = 1, one site, F = 1 (n in {-1, 0}), q = (0, nu 0). Entry (q, k1 = n -1, k2 = n 0):
  // 1/2 sum_s G_s(q-k2, q-k1) G_-s(k2, k1); q-k2 has n = -1 - 0 = -1, q-k1 has n = 0;
  // rows/cols of G: n + F_G = n + 1, element (row, col) at col * 2 + row.
  const Layout L(small_params("1", 1, 1, 1, {Channel::pp}));
  const auto g4 = kernel_g4(L, Precision::double_, 5, {measurement_id(0, 0)});
  auto G = [](int s, int row, int col) {
    double re, im;
    g_value(5, measurement_id(0, 0), s, col * 2 + row, &re, &im);
    return C(re, im);
  };
  const C expect = 0.5 * (G(0, 0, 1) * G(1, 1, 0) + G(1, 0, 1) * G(0, 1, 0));
  EXPECT_NEAR(std::abs(g4[0 * 2 + 1] - expect), 0.0, 1e-15);
}

class G4AccumulateChannels : public ::testing::TestWithParam<std::tuple<std::string, int, int, int>> {};

TEST_P(G4AccumulateChannels, KernelEqualsPlainLoopReferenceInBothPrecisions) {
  const auto [cluster, bands, freq, transfers] = GetParam();
  const Params p = small_params(cluster, bands, freq, transfers,
                                {Channel::pp, Channel::ph_transverse, Channel::ph_charge, Channel::ph_magnetic});
  const Layout L(p);
  const std::vector<std::uint64_t> ids = {measurement_id(0, 0), measurement_id(3, 1)};
  const auto ref = reference_g4(p, 11, ids);
  const std::int64_t per = L.entries_per_channel();
  for (Precision prec : {Precision::double_, Precision::single}) {
    const auto got = kernel_g4(L, prec, 11, ids);
    for (int ch = 0; ch < 4; ++ch) {
      const std::span<const C> a(got.data() + ch * per, per), r(ref.data() + ch * per, per);
      const auto e = relative_errors(a, r);
      const double tol = prec == Precision::double_ ? 1e-14 : 2e-6;
      EXPECT_LT(e.l1, tol) << to_string(static_cast<Channel>(ch)) << " " << to_string(prec);
      EXPECT_LT(e.l2, tol) << to_string(static_cast<Channel>(ch)) << " " << to_string(prec);
      double norm = 0;
      for (const C& z : r) norm += std::abs(z);
      EXPECT_GT(norm, 0.1 * per);  // not trivially zero
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Sizes, G4AccumulateChannels,
                         ::testing::Values(std::make_tuple("2x2", 2, 2, 6),   // nu up to 1, 2-D
                                           std::make_tuple("3", 1, 2, 7),     // nu up to 2, 1-D
                                           std::make_tuple("3x2", 1, 1, 6)),  // Q over all momenta
                         [](const auto& info) {
                           std::string c = std::get<0>(info.param);
                           for (char& ch : c)
                             if (ch == 'x') ch = '_';
                           return "c" + c + "_b" + std::to_string(std::get<1>(info.param)) + "_q" +
                                  std::to_string(std::get<3>(info.param));
                         });

TEST(G4Accumulate, ChannelsAreDistinct) {
  // Charge and magnetic differ only in the sign of the mixed-spin disconnected products; the
  // transverse channel has no disconnected part: the three must not coincide.
  const Params p = small_params("2", 1, 1, 1, {Channel::ph_transverse, Channel::ph_charge, Channel::ph_magnetic});
  const Layout L(p);
  const auto g = kernel_g4(L, Precision::double_, 3, {measurement_id(0, 0)});
  const std::int64_t per = L.entries_per_channel();
  EXPECT_NE(g[per], g[2 * per]);
  EXPECT_NE(g[0], g[per]);
}

TEST(G4Accumulate, PartialRangesAtAnOffsetEqualTheWholeAccumulation) {
  const Params p = small_params("2x2", 1, 2, 5, {Channel::pp, Channel::ph_magnetic});
  const Layout L(p);
  const auto ex = runtime::cpu_exec();
  const std::int64_t n = L.entries_total();
  std::vector<C> g(2 * L.g_elements_per_spin());
  generate_g(ex, L, Precision::double_, g.data(), 2, 77);
  std::vector<C> whole(n);
  accumulate(ex, L, Precision::double_, g.data(), whole.data(), 0, 0, n);
  // A slice crossing the channel boundary, updated in three pieces.
  const std::int64_t b = L.entries_per_channel() - 37, e = L.entries_per_channel() + 91;
  std::vector<C> part(e - b);
  accumulate(ex, L, Precision::double_, g.data(), part.data(), b, b, b + 10);
  accumulate(ex, L, Precision::double_, g.data(), part.data(), b, b + 10, e - 5);
  accumulate(ex, L, Precision::double_, g.data(), part.data(), b, e - 5, e);
  for (std::int64_t i = b; i < e; ++i) EXPECT_EQ(part[i - b], whole[i]) << i;
  EXPECT_THROW(accumulate(ex, L, Precision::double_, g.data(), part.data(), b, b - 1, e), InputError);
  EXPECT_THROW(accumulate(ex, L, Precision::double_, g.data(), part.data(), 0, 0, n + 1), InputError);
}

TEST(G4Memory, PerRankShareAndTheLimit) {
  const Layout L(small_params("4x4", 1, 8, 32, {Channel::pp}));
  RingOptions o;
  o.rings = 2;
  const auto m1 = memory_report(L, o, 1), m2 = memory_report(L, o, 2);
  EXPECT_EQ(m1.g4_bytes_total, std::size_t(256 * 256 * 32) * 16);
  EXPECT_EQ(m1.g4_bytes_per_rank, m1.g4_bytes_total);
  EXPECT_EQ(m2.g4_bytes_per_rank * 2, m2.g4_bytes_total);
  EXPECT_EQ(m2.ring_buffer_bytes, 6 * m2.g_bytes);  // three G buffers per ring
  EXPECT_EQ(m1.ring_buffer_bytes, 2 * m1.g_bytes);  // a ring of one: one buffer per ring
  EXPECT_EQ(m2.g_bytes, std::size_t(2 * 288 * 288) * 16);  // side 16 sites * 2(F + W), W = 1
  o.memory_limit = m2.g4_bytes_per_rank + m2.ring_buffer_bytes;
  EXPECT_NO_THROW(memory_report(L, o, 2));
  try {
    memory_report(L, o, 1);
    ADD_FAILURE() << "a G4 that does not fit was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("--memory-limit"), std::string::npos) << e.what();
  }
}

TEST(G4Accumulate, GpuKernelsEqualTheCpuKernels) {
  if (!runtime::cuda_available()) GTEST_SKIP() << "no CUDA device (CPU-only build or no GPU): GPU kernels not run";
  const Params p = small_params("2x2", 2, 2, 6, parse_channels("all"));
  const Layout L(p);
  const auto gpu = runtime::cuda_exec(0);
  const std::int64_t n = L.entries_total();
  const std::vector<std::uint64_t> ids = {measurement_id(0, 0), measurement_id(1, 3)};
  for (Precision prec : {Precision::double_, Precision::single}) {
    const std::size_t cb = complex_bytes(prec);
    runtime::Buffer g(runtime::MemSpace::device, std::size_t(2 * L.g_elements_per_spin()) * cb, "G", 0);
    runtime::Buffer g4(runtime::MemSpace::device, std::size_t(n) * cb, "G4", 0);
    runtime::fill_bytes(g4, 0);
    for (auto id : ids) {
      generate_g(gpu, L, prec, g.data(), 11, id);
      accumulate(gpu, L, prec, g.data(), g4.data(), 0, 0, n);
    }
    runtime::synchronize(gpu);
    std::vector<C> got(static_cast<std::size_t>(n));
    if (prec == Precision::double_) {
      runtime::copy_bytes(got.data(), runtime::MemSpace::host, g4.data(), runtime::MemSpace::device, g4.bytes());
    } else {
      std::vector<std::complex<float>> f(static_cast<std::size_t>(n));
      runtime::copy_bytes(f.data(), runtime::MemSpace::host, g4.data(), runtime::MemSpace::device, g4.bytes());
      for (std::int64_t i = 0; i < n; ++i) got[i] = C(f[i].real(), f[i].imag());
    }
    const auto cpu = kernel_g4(L, prec, 11, ids);
    const auto e = relative_errors(got, cpu);
    const double tol = prec == Precision::double_ ? 1e-14 : 1e-6;
    EXPECT_LT(e.l1, tol) << to_string(prec);
    EXPECT_LT(e.l2, tol) << to_string(prec);
  }
}
