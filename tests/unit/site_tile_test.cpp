// The GPU stencils' thread -> site order (src/qcd/dirac/site_tile.h, a private header included
// here directly: it is plain host/device arithmetic on the public SiteIndexer). Every tile that
// fits maps the threads of one parity onto its sites one to one, and the default keeps the order
// the Wilson kernel had before tiles could be chosen.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "gluon/qcd/geometry.h"
#include "../../src/qcd/dirac/site_tile.h"

using namespace gluon;
using namespace gluon::qcd;
using gluon::qcd::detail::SiteTile;

namespace {

// The order of WilsonDslashKernel::tiled_site up to 2026-11-28 (each half x-row, then the low
// bits of y, z, t, then y/2, z/2, t/2), written out again.
int rows_site(const SiteIndexer& idx, int parity, int i, int* c) {
  const unsigned hx = static_cast<unsigned>(idx.dims[0]) >> 1;
  const unsigned hy = static_cast<unsigned>(idx.dims[1]) >> 1, hz = static_cast<unsigned>(idx.dims[2]) >> 1;
  const unsigned r = static_cast<unsigned>(i) / hx;
  const unsigned xh = static_cast<unsigned>(i) - r * hx;
  const unsigned q = r >> 3, qy = q / hy, qz = qy / hz;
  c[1] = static_cast<int>(2 * (q - qy * hy) + (r & 1));
  c[2] = static_cast<int>(2 * (qy - qz * hz) + ((r >> 1) & 1));
  c[3] = static_cast<int>(2 * qz + ((r >> 2) & 1));
  c[0] = static_cast<int>(2 * xh) + ((parity + c[1] + c[2] + c[3]) & 1);
  return static_cast<int>(idx.eo_index(c));
}

std::string name(const Coords& d, const int t[4]) {
  return std::to_string(d[0]) + "x" + std::to_string(d[1]) + "x" + std::to_string(d[2]) + "x" + std::to_string(d[3]) +
         " tile " + std::to_string(t[0]) + "x" + std::to_string(t[1]) + "x" + std::to_string(t[2]) + "x" +
         std::to_string(t[3]);
}

}  // namespace

TEST(SiteTile, EveryFittingTileMapsTheThreadsOntoTheParitysSitesOneToOne) {
  const std::vector<Coords> boxes = {{8, 8, 8, 8}, {8, 6, 8, 12}, {12, 4, 4, 8}, {16, 4, 4, 8}, {24, 8, 4, 6}, {2, 2, 2, 2}};
  const std::vector<std::vector<int>> tiles = {{2, 1, 1, 1}, {2, 2, 2, 2}, {4, 4, 4, 4}, {8, 4, 4, 2}, {8, 4, 4, 4},
                                               {4, 2, 4, 2}, {16, 4, 2, 2}, {12, 4, 4, 8}, {6, 2, 1, 2}};
  int checked = 0;
  for (const Coords& d : boxes) {
    const SiteIndexer idx = Geometry(d).indexer();
    for (const auto& tv : tiles) {
      const int t[4] = {tv[0], tv[1], tv[2], tv[3]};
      if (!SiteTile::fits(idx.dims, t)) continue;
      ++checked;
      const SiteTile tile = SiteTile::of(idx.dims, t);
      for (int p = 0; p < 2; ++p) {
        std::set<int> seen;
        for (int i = 0; i < static_cast<int>(idx.half); ++i) {
          int c[4], lex;
          const int eo = tile.site(i, p, idx, c, lex);
          ASSERT_EQ(idx.parity_of(c), p) << name(d, t) << " thread " << i;
          ASSERT_EQ(lex, static_cast<int>(idx.lex(c))) << name(d, t) << " thread " << i;
          ASSERT_EQ(eo, static_cast<int>(idx.eo_index(c))) << name(d, t) << " thread " << i;
          for (int mu = 0; mu < 4; ++mu) ASSERT_TRUE(c[mu] >= 0 && c[mu] < idx.dims[mu]) << name(d, t);
          seen.insert(eo);
        }
        EXPECT_EQ(seen.size(), static_cast<std::size_t>(idx.half)) << name(d, t) << " parity " << p;
        EXPECT_EQ(*seen.begin(), p * idx.half) << name(d, t);
        EXPECT_EQ(*seen.rbegin(), (p + 1) * idx.half - 1) << name(d, t);
      }
    }
  }
  EXPECT_GT(checked, 20);
}

TEST(SiteTile, RowsIsTheEarlierOrder) {
  for (const Coords& d : {Coords{8, 8, 8, 8}, Coords{12, 4, 4, 8}, Coords{8, 6, 8, 12}, Coords{32, 32, 32, 32}}) {
    const SiteIndexer idx = Geometry(d).indexer();
    const SiteTile tile = SiteTile::rows(idx.dims);
    for (int p = 0; p < 2; ++p)
      for (int i = 0; i < static_cast<int>(idx.half); ++i) {
        int a[4], b[4], lex;
        ASSERT_EQ(tile.site(i, p, idx, a, lex), rows_site(idx, p, i, b)) << "thread " << i;
      }
  }
}

// What a tile is for: the 128 threads of a block cover one 4^4 box (one parity of it).
TEST(SiteTile, ABlockOfThreadsCoversOneTile) {
  const SiteIndexer idx = Geometry({16, 8, 8, 8}).indexer();
  const int t[4] = {4, 4, 4, 4};
  ASSERT_TRUE(SiteTile::fits(idx.dims, t));
  const SiteTile tile = SiteTile::of(idx.dims, t);
  for (int block = 0; block < static_cast<int>(idx.half) / 128; ++block) {
    int lo[4] = {1 << 20, 1 << 20, 1 << 20, 1 << 20}, hi[4] = {-1, -1, -1, -1};
    for (int i = 128 * block; i < 128 * (block + 1); ++i) {
      int c[4], lex;
      tile.site(i, 1, idx, c, lex);
      for (int mu = 0; mu < 4; ++mu) lo[mu] = std::min(lo[mu], c[mu]), hi[mu] = std::max(hi[mu], c[mu]);
    }
    for (int mu = 0; mu < 4; ++mu) {
      EXPECT_EQ(hi[mu] - lo[mu], 3) << "block " << block << " direction " << mu;
      EXPECT_EQ(lo[mu] % 4, 0) << "block " << block << " direction " << mu;
    }
  }
}

TEST(SiteTile, FitsRefusesTilesThatDoNotDivideOrAreNotPowersOfTwo) {
  const int dims[4] = {12, 8, 6, 8};
  const int ok[4] = {6, 4, 2, 8}, odd_x[4] = {3, 4, 2, 8}, x_not_dividing[4] = {8, 4, 2, 8}, y_not_pow2[4] = {6, 6, 2, 8},
            z_not_dividing[4] = {6, 4, 4, 8}, zero[4] = {6, 0, 2, 8};
  EXPECT_TRUE(SiteTile::fits(dims, ok));
  EXPECT_FALSE(SiteTile::fits(dims, odd_x));
  EXPECT_FALSE(SiteTile::fits(dims, x_not_dividing));
  EXPECT_FALSE(SiteTile::fits(dims, y_not_pow2));
  EXPECT_FALSE(SiteTile::fits(dims, z_not_dividing));
  EXPECT_FALSE(SiteTile::fits(dims, zero));
}
