// Gauge files read and written through the ranks of every process grid of 1, 2 or 4 ranks: each
// file other codes wrote reads with its documented plaquette and the same links as the
// single-process reader; distributed writes read back bit-exactly on one process and vice versa,
// in every format; bad set-ups and damaged files fail on every rank. Propagators written from
// the ranks are the one-process file byte for byte.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "gluon/comm/environment.h"
#include "gluon/comm/process_grid.h"
#include "gluon/io/gauge_io.h"
#include "gluon/io/propagator_io.h"
#include "gluon/qcd/distribute.h"
#include "gluon/qcd/field_convert.h"
#include "gluon/qcd/gauge_start.h"
#include "gluon/qcd/observables.h"
#include "gluon/qcd/random_fields.h"
#include "gluon/runtime/error.h"
#include "test_support.h"

using namespace gluon;
using namespace gluon::io;
using namespace gluon::qcd;

namespace {

const runtime::Exec cpu = runtime::cpu_exec();

// The grids of this run's rank count that divide `lattice` into even local extents.
std::vector<comm::Grid4> grids(const Coords& lattice) {
  std::vector<comm::Grid4> all;
  switch (comm::world().size()) {
    case 1: all = {{1, 1, 1, 1}}; break;
    case 2: all = {{1, 1, 1, 2}, {2, 1, 1, 1}, {1, 1, 2, 1}, {1, 2, 1, 1}}; break;
    case 4: all = {{1, 1, 2, 2}, {2, 2, 1, 1}, {1, 1, 1, 4}, {2, 1, 1, 2}}; break;
    default: all = {comm::choose_grid(lattice, comm::world().size())};
  }
  std::vector<comm::Grid4> ok;
  for (const auto& g : all) {
    try {
      comm::check_grid(lattice, g);
      ok.push_back(g);
    } catch (const InputError&) {
    }
  }
  return ok;
}

std::string name(const comm::Grid4& g) { return comm::ProcessGrid(g, 0).to_string(); }

bool same_links(const GaugeField& a, const GaugeField& b) {
  return a.bytes() == b.bytes() && std::memcmp(a.data(), b.data(), a.bytes()) == 0;
}

// A directory every rank sees (named by rank 0's pid), emptied first.
std::string shared_dir(const std::string& test) {
  auto& world = comm::world();
  long long pid = ::getpid();
  world.broadcast(&pid, sizeof pid, 0);
  const auto dir = std::filesystem::temp_directory_path() / ("gluon-mpi-" + test + "-" + std::to_string(pid));
  if (world.rank() == 0) {
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
  }
  world.barrier();
  return dir.string();
}

struct Sample {
  const char* file;
  Coords dims;
  double plaquette;
};
// ../shared/testdata/gauge/README.md
const Sample kSamples[] = {
    {"lat.sample.l4444", {4, 4, 4, 4}, 0.5948502},        {"lat.sample.l4444.ildg", {4, 4, 4, 4}, 0.5948502},
    {"lat.sample.l4444.scidac", {4, 4, 4, 4}, 0.5948502}, {"lat.sample.l4448", {4, 4, 4, 8}, 0.5690557},
    {"lat.sample.l8888", {8, 8, 8, 8}, 0.5935602},        {"lat.sample.l8888.nersc", {8, 8, 8, 8}, 0.5935602},
    {"t_nersc.cfg", {4, 4, 4, 4}, 0.0382423},             {"weak_field.lime", {4, 4, 4, 8}, 0.9948041},
};

struct Format {
  GaugeWriteOptions opts;
  const char* what;
};
std::vector<Format> formats() {
  std::vector<Format> f;
  auto add = [&](GaugeFormat fmt, int bits, bool two_rows, bool big, const char* what) {
    GaugeWriteOptions o;
    o.format = fmt;
    o.precision_bits = bits;
    o.nersc_two_rows = two_rows;
    o.big_endian = big;
    f.push_back({o, what});
  };
  add(GaugeFormat::nersc, 64, false, true, "NERSC 3x3 IEEE64BIG");
  add(GaugeFormat::nersc, 32, true, false, "NERSC two rows IEEE32LITTLE");
  add(GaugeFormat::milc, 32, false, false, "MILC little-endian");
  add(GaugeFormat::milc, 32, false, true, "MILC big-endian");
  add(GaugeFormat::ildg, 64, false, true, "ILDG 64-bit");
  add(GaugeFormat::scidac, 32, false, true, "SciDAC 32-bit");
  return f;
}

}  // namespace

TEST(DistributedGaugeFiles, EveryTestFileReadsWithItsPlaquetteOnEveryGrid) {
  auto& world = comm::world();
  for (const Sample& s : kSamples) {
    const std::string path = test::gauge_file(s.file);
    GaugeFileInfo whole_info;
    const GaugeField whole = read_gauge(path, {}, &whole_info);
    ASSERT_EQ(whole.geometry().global_dims(), s.dims) << s.file;
    for (const auto& g : grids(s.dims)) {
      const Geometry local = make_geometry(s.dims, g, world.rank());
      GaugeFileInfo info;
      const GaugeField u = read_gauge_distributed(path, local, world, {}, &info);
      EXPECT_TRUE(same_links(u, scatter_gauge(whole, local))) << s.file << " grid " << name(g);
      EXPECT_NEAR(plaquette(u, cpu).total, s.plaquette, 6e-7) << s.file << " grid " << name(g);
      EXPECT_EQ(info.format, whole_info.format) << s.file;
      EXPECT_EQ(info.format_detail, whole_info.format_detail) << s.file;
      EXPECT_EQ(info.header, whole_info.header) << s.file;
      ASSERT_EQ(info.checks_passed.size(), whole_info.checks_passed.size()) << s.file;
      for (std::size_t k = 0; k < info.checks_passed.size(); ++k)  // the check's name and stated value
        EXPECT_EQ(info.checks_passed[k].substr(0, 24), whole_info.checks_passed[k].substr(0, 24)) << s.file;
      EXPECT_NEAR(info.max_unitarity_deviation, whole_info.max_unitarity_deviation, 1e-15) << s.file;
    }
  }
}

TEST(DistributedGaugeFiles, DistributedWritesReadBackOnOneProcessAndViceVersa) {
  auto& world = comm::world();
  const std::string dir = shared_dir("io-roundtrip");
  const Coords dims{4, 4, 4, 8};
  GaugeField whole = GaugeField::canonical(Geometry(dims));
  set_hot(whole, 4242, cpu);
  for (const Format& f : formats()) {
    // The reference: the single-process writer and reader.
    const std::string ref = dir + "/ref";
    if (world.rank() == 0) write_gauge(ref, whole, f.opts);
    world.barrier();
    GaugeFileInfo ref_info;
    const GaugeField expect = read_gauge(ref, {}, &ref_info);
    for (const auto& g : grids(dims)) {
      const Geometry local = make_geometry(dims, g, world.rank());
      const std::string path = dir + "/dist";
      write_gauge_distributed(path, scatter_gauge(whole, local), f.opts, world);
      EXPECT_FALSE(std::filesystem::exists(path + ".tmp." + std::to_string(::getpid()))) << f.what;
      GaugeFileInfo info;
      const GaugeField back = read_gauge(path, {}, &info);  // verifies checksums, plaquette, trace
      EXPECT_TRUE(same_links(back, expect)) << f.what << " grid " << name(g);
      EXPECT_EQ(info.checks_passed.size(), ref_info.checks_passed.size()) << f.what;
      // ... and the single-process file read through the ranks.
      const GaugeField mine = read_gauge_distributed(ref, local, world, {}, &info);
      EXPECT_TRUE(same_links(mine, scatter_gauge(expect, local))) << f.what << " grid " << name(g);
      EXPECT_EQ(info.checks_passed.size(), ref_info.checks_passed.size()) << f.what;
      world.barrier();  // everyone has read `path` before the next grid rewrites it
    }
  }
  world.barrier();
  if (world.rank() == 0) std::filesystem::remove_all(dir);
}

TEST(DistributedGaugeFiles, BadSetUpsAndDamagedFilesFailOnEveryRank) {
  auto& world = comm::world();
  const std::string dir = shared_dir("io-errors");
  const Coords dims{4, 4, 4, 8};
  GaugeField whole = GaugeField::canonical(Geometry(dims));
  set_weak(whole, 9, 0.2, cpu);
  const std::string path = dir + "/cfg", bad = dir + "/bad";
  if (world.rank() == 0) {
    GaugeWriteOptions o;
    write_gauge(path, whole, o);
    // Flip one byte of the last site's links: the checksum no longer matches.
    std::string bytes;
    {
      std::ifstream in(path, std::ios::binary);
      bytes.assign(std::istreambuf_iterator<char>(in), {});
    }
    bytes[bytes.size() - 3] ^= 0x10;
    std::ofstream(bad, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  }
  world.barrier();
  const comm::Grid4 g = grids(dims).front();
  const Geometry local = make_geometry(dims, g, world.rank());
  try {
    read_gauge_distributed(bad, local, world);
    ADD_FAILURE() << "no FileFormatError for a damaged file";
  } catch (const FileFormatError& e) {
    EXPECT_NE(std::string(e.what()).find("CHECKSUM"), std::string::npos) << e.what();
  }
  EXPECT_THROW(read_gauge_distributed(dir + "/missing", local, world), IoError);
  // A lattice that is not the file's.
  EXPECT_THROW(read_gauge_distributed(path, make_geometry(Coords{4, 4, 8, 8}, g, world.rank()), world),
               InputError);
  // A grid that is not this communicator's.
  const Geometry wrong = world.size() == 1 ? Geometry(dims, Coords{1, 1, 1, 2}, Coords{0, 0, 0, 0})
                                           : Geometry(dims);
  EXPECT_THROW(read_gauge_distributed(path, wrong, world), InputError);
  GaugeWriteOptions o;
  o.precision_bits = 16;
  EXPECT_THROW(write_gauge_distributed(dir + "/x", scatter_gauge(whole, local), o, world), InputError);
  // Writing into a directory that does not exist: an IoError on every rank, nothing left behind.
  EXPECT_THROW(write_gauge_distributed(dir + "/no/such/dir/x", scatter_gauge(whole, local), {}, world), IoError);
  world.barrier();
  if (world.rank() == 0) std::filesystem::remove_all(dir);
}

// A device field written through the ranks (skipped without a CUDA device).
TEST(DistributedGaugeFiles, DeviceFieldsAreWrittenLikeHostFields) {
  if (!runtime::cuda_available()) GTEST_SKIP() << "no CUDA device (CPU-only build or no GPU): not run";
  auto& world = comm::world();
  const runtime::Exec gpu = runtime::cuda_exec(world.local_rank() % runtime::cuda_device_count());
  const std::string dir = shared_dir("io-device");
  const Coords dims{4, 4, 4, 8};
  GaugeField whole = GaugeField::canonical(Geometry(dims));
  set_hot(whole, 99, cpu);
  for (const auto& g : grids(dims)) {
    const Geometry local = make_geometry(dims, g, world.rank());
    GaugeFieldParams p;
    p.geometry = local;
    p.order = FieldOrder::blocked;
    p.space = runtime::MemSpace::device;
    p.device = gpu.device;
    const GaugeField d = converted(scatter_gauge(whole, local), p, gpu);
    write_gauge_distributed(dir + "/cfg", d, GaugeWriteOptions{}, world);
    EXPECT_TRUE(same_links(read_gauge(dir + "/cfg"), whole)) << "grid " << name(g);
    world.barrier();
  }
  if (world.rank() == 0) std::filesystem::remove_all(dir);
}

// A propagator's columns written from every grid of this run (each rank its block; the Gaussian
// fields are keyed by the global site, so the blocks are the whole field's) give the file one
// process writes from the whole lattice, byte for byte, and read back.
TEST(DistributedPropagatorFiles, SplitWritesAreTheOneProcessFileByteForByte) {
  auto& world = comm::world();
  const std::string dir = shared_dir("prop");
  const Coords lattice{4, 4, 4, 8};
  const auto columns = [](const Geometry& g, int nspin) {
    std::vector<SpinorField> cols;
    SpinorFieldParams p;
    p.geometry = g;
    p.nspin = nspin;
    for (int b = 0; b < (nspin == 4 ? 12 : 3); ++b) {
      cols.emplace_back(p);
      fill_gaussian(cols.back(), 31, static_cast<std::uint32_t>(b), cpu);
    }
    return cols;
  };
  const auto slurp = [](const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  };
  for (int nspin : {4, 1})
    for (int bits : {64, 32}) {
      const std::string tag = std::to_string(nspin) + "-" + std::to_string(bits);
      const std::string one = dir + "/one-" + tag + ".lime";
      if (world.rank() == 0) write_propagator(one, columns(Geometry(lattice), nspin), "<gluon/>", bits);
      world.barrier();
      for (const auto& grid : grids(lattice)) {
        SCOPED_TRACE(tag + " grid " + name(grid));
        const Geometry g = make_geometry(lattice, grid, world.rank());
        const std::string split = dir + "/split-" + tag + "-" + name(grid) + ".lime";
        write_propagator(split, columns(g, nspin), "<gluon/>", bits, world);
        if (world.rank() == 0) {
          EXPECT_TRUE(slurp(split) == slurp(one)) << split << " differs from " << one;
          EXPECT_EQ(read_propagator(split).size(), nspin == 4 ? 12u : 3u);
        }
        world.barrier();
      }
    }
  // A communicator that is not the grid's: refused on every rank.
  if (world.size() > 1) {
    const auto self = comm::make_single_communicator();
    const Geometry g = make_geometry(lattice, grids(lattice).front(), world.rank());
    EXPECT_THROW(write_propagator(dir + "/bad.lime", columns(g, 4), "<gluon/>", 64, *self), InputError);
  }
}
