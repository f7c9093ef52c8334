// The ring-distributed G4 on however many CPU ranks mpirun gave (1, 2 or 4 in CI): equal to the
// single-device accumulation to the paper's criterion (L1 and L2 relative error < 5e-7) in both
// precisions, with and without sub-rings, with several rings; the slice files; the 1/S memory
// share; collective refusals of bad ring sizes, of a G4 over the memory limit and of ranks given
// different options; with one CUDA device per rank, the GPU ring (NCCL) against the CPU.
#include <gtest/gtest.h>

#include <complex>
#include <filesystem>
#include <fstream>
#include <vector>

#include "gluon/comm/environment.h"
#include "gluon/g4/reference.h"
#include "gluon/g4/ring.h"
#include "gluon/runtime/error.h"
#include "gluon/runtime/exec.h"
#include "test_support.h"

using namespace gluon;
using namespace gluon::g4;
using C = std::complex<double>;

namespace {

Params params_all_channels() {
  Params p;
  p.bands = 1;
  p.cluster = parse_cluster("2x2");
  p.frequencies = 2;
  p.transfers = 5;  // Q over the cluster and nu = 1
  p.channels = parse_channels("all");
  return p;
}

// Runs the ring, gathers, and checks it against the single-device accumulation on rank 0; the
// verdict is shared so that every rank reports the same.
void expect_matches_single_device(const Params& p, RingOptions o) {
  auto& w = comm::world();
  const Layout L(p);
  o.gather = true;
  const RingResult r = run_ring(w, L, o);
  EXPECT_EQ(r.memory.g4_bytes_total, std::size_t(L.entries_total()) * complex_bytes(o.precision));
  const int S = o.ring_size == 0 ? w.size() : o.ring_size;
  EXPECT_EQ(r.ring_size, S);
  EXPECT_LE(r.memory.g4_bytes_per_rank, r.memory.g4_bytes_total / S + complex_bytes(o.precision));
  double e[2] = {1, 1};
  if (w.rank() == 0) {
    const auto ref = single_device_g4(L, o.precision, runtime::cpu_exec(), o.seed, w.size(), o.measurements);
    const auto re = relative_errors(r.full, ref);
    e[0] = re.l1;
    e[1] = re.l2;
  }
  w.broadcast(e, sizeof e, 0);
  EXPECT_LT(e[0], 5e-7) << "L1, ring size " << S << ", rings " << o.rings << ", " << to_string(o.precision);
  EXPECT_LT(e[1], 5e-7) << "L2, ring size " << S << ", rings " << o.rings << ", " << to_string(o.precision);
  if (o.precision == Precision::double_) {
    EXPECT_LT(e[0], 1e-13);
  }
}

}  // namespace

TEST(G4Ring, WholeWorldRingMatchesSingleDeviceInBothPrecisions) {
  for (Precision prec : {Precision::double_, Precision::single}) {
    RingOptions o;
    o.precision = prec;
    o.measurements = 2;
    o.seed = 17;
    expect_matches_single_device(params_all_channels(), o);
  }
}

TEST(G4Ring, SubRingsOfTwoAndOfOneMatchSingleDevice) {
  auto& w = comm::world();
  for (int s : {1, 2}) {
    if (w.size() % s != 0) continue;
    for (Precision prec : {Precision::double_, Precision::single}) {
      RingOptions o;
      o.ring_size = s;
      o.precision = prec;
      o.measurements = 2;
      o.seed = 5;
      expect_matches_single_device(params_all_channels(), o);
    }
  }
}

TEST(G4Ring, SeveralRingsWithUnevenMeasurementsMatchSingleDevice) {
  Params p = params_all_channels();
  p.channels = {Channel::pp, Channel::ph_magnetic};
  for (Precision prec : {Precision::double_, Precision::single}) {
    RingOptions o;
    o.rings = 3;
    o.measurements = 4;  // rings 0 and 1 take two, ring 2 one... (m % 3)
    o.precision = prec;
    o.seed = 23;
    expect_matches_single_device(p, o);
  }
}

TEST(G4Ring, DistributedDoubleEqualsThePlainLoopReference) {
  auto& w = comm::world();
  Params p = params_all_channels();
  p.bands = 2;
  p.cluster = parse_cluster("2");
  p.transfers = 3;
  RingOptions o;
  o.measurements = 1;
  o.gather = true;
  o.seed = 3;
  const RingResult r = run_ring(w, Layout(p), o);
  double e = 1;
  if (w.rank() == 0) {
    std::vector<std::uint64_t> ids;
    for (int rank = 0; rank < w.size(); ++rank) ids.push_back(measurement_id(rank, 0));
    e = relative_errors(r.full, reference_g4(p, o.seed, ids)).l1;
  }
  w.broadcast(&e, sizeof e, 0);
  EXPECT_LT(e, 1e-13);
}

TEST(G4Ring, SliceFilesHoldEachRanksShareOfTheGatheredG4) {
  auto& w = comm::world();
  const Params p = params_all_channels();
  const Layout L(p);
  std::string dir = w.rank() == 0 ? test::scratch_dir() : std::string();
  std::size_t len = dir.size();
  w.broadcast(&len, sizeof len, 0);
  dir.resize(len);
  w.broadcast(dir.data(), len, 0);
  RingOptions o;
  o.measurements = 1;
  o.gather = true;
  o.output_dir = dir;
  const RingResult r = run_ring(w, L, o);
  EXPECT_EQ(r.files.size(), 1u);  // one sub-ring: every rank writes its slice
  if (w.rank() == 0) {
    std::vector<C> joined;
    for (int q = 0; q < w.size(); ++q) {
      const std::string path = dir + "/g4-slice-" + std::to_string(q) + "-of-" + std::to_string(w.size()) + ".bin";
      std::ifstream f(path, std::ios::binary);
      ASSERT_TRUE(f) << path;
      char magic[8];
      f.read(magic, 8);
      EXPECT_EQ(std::string(magic), "GLUONG4");
      std::uint32_t version, cb;
      std::uint64_t total, begin, count;
      f.read(reinterpret_cast<char*>(&version), 4);
      f.read(reinterpret_cast<char*>(&cb), 4);
      f.read(reinterpret_cast<char*>(&total), 8);
      f.read(reinterpret_cast<char*>(&begin), 8);
      f.read(reinterpret_cast<char*>(&count), 8);
      EXPECT_EQ(version, 1u);
      EXPECT_EQ(cb, 16u);
      EXPECT_EQ(total, std::uint64_t(L.entries_total()));
      EXPECT_EQ(begin, std::uint64_t(slice_of(L.entries_total(), q, w.size()).begin));
      // header: 8 + 4 + 4 + 3*8 + 6*4 + 4*4 + 2*4 = 88 bytes
      f.seekg(88);
      std::vector<C> v(count);
      f.read(reinterpret_cast<char*>(v.data()), static_cast<std::streamsize>(count * sizeof(C)));
      ASSERT_TRUE(f) << path;
      joined.insert(joined.end(), v.begin(), v.end());
      f.get();
      EXPECT_TRUE(f.eof()) << "trailing bytes in " << path;
    }
    ASSERT_EQ(joined.size(), r.full.size());
    for (std::size_t i = 0; i < joined.size(); ++i) ASSERT_EQ(joined[i], r.full[i]) << i;
  }
  w.barrier();
}

TEST(G4Ring, BadRingSizeAndMemoryLimitAreRefusedOnEveryRank) {
  auto& w = comm::world();
  const Layout L(params_all_channels());
  RingOptions o;
  o.ring_size = w.size() + 1;
  EXPECT_THROW(run_ring(w, L, o), InputError);
  o.ring_size = 0;
  o.rings = 0;
  EXPECT_THROW(run_ring(w, L, o), InputError);
  o.rings = 1;
  // A limit between the per-rank share on this world and the whole G4 plus buffers.
  const auto m = memory_report(L, o, w.size());
  o.memory_limit = m.g4_bytes_per_rank + m.ring_buffer_bytes;
  if (w.size() > 1) {
    RingOptions alone = o;
    alone.ring_size = 1;
    EXPECT_THROW(run_ring(w, L, alone), InputError);
  }
  const RingResult r = run_ring(w, L, o);
  EXPECT_EQ(r.memory.g4_bytes_total, m.g4_bytes_total);
  w.barrier();
}

TEST(G4Ring, RanksWithDifferentOptionsAreRefusedOnEveryRank) {
  auto& w = comm::world();
  if (w.size() == 1) GTEST_SKIP() << "needs two ranks";
  const Layout L(params_all_channels());
  RingOptions o;
  o.measurements = w.rank() == 1 ? 3 : 2;
  EXPECT_THROW(run_ring(w, L, o), InputError);
  w.barrier();
}

TEST(G4Ring, GpuRingMatchesTheCpuSingleDeviceAccumulation) {
  auto& w = comm::world();
  // Every rank decides alike: NCCL needs one GPU per rank on a node.
  const bool gpu_ok = runtime::cuda_available() && w.local_size() <= runtime::cuda_device_count();
  if (w.any(!gpu_ok)) GTEST_SKIP() << "needs one CUDA device per rank on the node";
  const Layout L(params_all_channels());
  for (Precision prec : {Precision::double_, Precision::single}) {
    RingOptions o;
    o.exec = runtime::cuda_exec(w.local_rank());
    o.precision = prec;
    o.measurements = 3;
    o.rings = 2;
    o.gather = true;
    o.seed = 41;
    const RingResult r = run_ring(w, L, o);
    double e[2] = {1, 1};
    if (w.rank() == 0) {
      const auto ref = single_device_g4(L, prec, runtime::cpu_exec(), o.seed, w.size(), o.measurements);
      const auto re = relative_errors(r.full, ref);
      e[0] = re.l1;
      e[1] = re.l2;
    }
    w.broadcast(e, sizeof e, 0);
    EXPECT_LT(e[0], 5e-7) << to_string(prec) << " via " << r.transport;
    EXPECT_LT(e[1], 5e-7) << to_string(prec) << " via " << r.transport;
  }
}

TEST(G4Ring, ChecksumDoesNotDependOnTheRingShape) {
  auto& w = comm::world();
  const Layout L(params_all_channels());
  RingOptions o;
  o.measurements = 3;
  const double whole = run_ring(w, L, o).checksum;
  o.ring_size = 1;
  o.rings = 2;
  const double split = run_ring(w, L, o).checksum;
  EXPECT_NEAR(whole, split, 1e-9 * (1 + std::abs(whole)));
  EXPECT_NE(whole, 0.0);
}
