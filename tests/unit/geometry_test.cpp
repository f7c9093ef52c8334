// Geometry: even-odd order, coordinates, neighbours, local/global mapping, bad extents.
#include <gtest/gtest.h>

#include <set>

#include "gluon/qcd/geometry.h"
#include "gluon/runtime/error.h"

using namespace gluon;
using namespace gluon::qcd;

TEST(Geometry, EvenOddIndexIsABijectionWithEvenSitesFirst) {
  Geometry g({4, 6, 2, 8});
  std::set<std::int64_t> seen;
  for (int t = 0; t < 8; ++t)
    for (int z = 0; z < 2; ++z)
      for (int y = 0; y < 6; ++y)
        for (int x = 0; x < 4; ++x) {
          const Coords c{x, y, z, t};
          const auto s = g.eo_index(c);
          EXPECT_EQ(s < g.half_volume(), (x + y + z + t) % 2 == 0);
          EXPECT_EQ(g.coords(s), c);
          seen.insert(s);
        }
  EXPECT_EQ(static_cast<std::int64_t>(seen.size()), g.volume());
  EXPECT_EQ(*seen.rbegin(), g.volume() - 1);
}

TEST(Geometry, NeighboursAtDistanceOneToThreeAreInverseAndPeriodic) {
  Geometry g({4, 4, 6, 8});
  for (int d = 1; d <= 3; ++d) {
    const auto table = g.neighbour_table(d);
    for (std::int64_t s = 0; s < g.volume(); ++s)
      for (int mu = 0; mu < 4; ++mu) {
        const auto fwd = table[(s * 4 + mu) * 2], bwd = table[(s * 4 + mu) * 2 + 1];
        EXPECT_EQ(g.indexer().neighbour(fwd, mu, -d), s);
        EXPECT_EQ(g.indexer().neighbour(bwd, mu, d), s);
        auto x = g.coords(s), y = g.coords(fwd);
        EXPECT_EQ(y[mu], (x[mu] + d) % g.local_dims()[mu]);
        // odd distances flip parity, even ones keep it
        EXPECT_EQ(g.indexer().parity_of_index(fwd) != g.indexer().parity_of_index(s), d % 2 == 1);
      }
  }
}

TEST(Geometry, LocalAndGlobalCoordinatesOnAProcessGrid) {
  Geometry g({8, 8, 8, 16}, {1, 2, 1, 4}, {0, 1, 0, 3});
  EXPECT_EQ(g.local_dims(), (Coords{8, 4, 8, 4}));
  EXPECT_EQ(g.origin(), (Coords{0, 4, 0, 12}));
  EXPECT_EQ(g.local_to_global({1, 2, 3, 1}), (Coords{1, 6, 3, 13}));
  Coords l;
  EXPECT_TRUE(g.global_to_local({1, 6, 3, 13}, l));
  EXPECT_EQ(l, (Coords{1, 2, 3, 1}));
  EXPECT_FALSE(g.global_to_local({1, 1, 3, 13}, l));
}

TEST(Geometry, RejectsOddOrNonDividingExtentsWithTheReason) {
  EXPECT_THROW(Geometry({4, 4, 5, 8}), InputError);
  try {
    Geometry({4, 4, 5, 8});
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("extent Z"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("found 5"), std::string::npos) << e.what();
  }
  EXPECT_THROW(Geometry({8, 8, 8, 8}, {1, 1, 3, 1}, {0, 0, 0, 0}), InputError);
  EXPECT_NO_THROW(Geometry({8, 8, 8, 12}, {1, 1, 1, 2}, {0, 0, 0, 1}));  // local T = 6
  EXPECT_THROW(Geometry({8, 8, 8, 12}, {1, 1, 1, 4}, {0, 0, 0, 0}), InputError);  // local T = 3
}

// Kernels index a rank's sites in 32 bits: a larger local box is refused with its volume and
// the way out; the same lattice split over ranks is accepted.
TEST(Geometry, RefusesALocalVolumeBeyond32BitSiteIndices) {
  const Coords big{256, 256, 256, 256};  // 2^32 sites
  try {
    Geometry g(big);
    FAIL() << "a local volume of 2^32 sites was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("4294967296"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("more ranks"), std::string::npos) << e.what();
  }
  EXPECT_NO_THROW(Geometry(big, {1, 1, 2, 2}, {0, 0, 0, 0}));  // 2^30 sites a rank
  // 2^64 sites: the 64-bit product wraps to 0, which must not pass.
  try {
    Geometry g({65536, 65536, 65536, 65536});
    FAIL() << "2^64 sites were accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("18446744073709551616"), std::string::npos) << e.what();
  }
  EXPECT_EQ(kMaxLocalVolume, 0x7fffffff);
}

TEST(Geometry, ParsesLatticeText) {
  EXPECT_EQ(parse_lattice("8,8,8,16"), (Coords{8, 8, 8, 16}));
  EXPECT_EQ(parse_lattice("4x4x4x8"), (Coords{4, 4, 4, 8}));
  EXPECT_EQ(parse_lattice("6"), (Coords{6, 6, 6, 6}));
  EXPECT_THROW(parse_lattice("8,8,8"), InputError);
  EXPECT_THROW(parse_lattice("8,a,8,8"), InputError);
}
