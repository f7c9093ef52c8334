// Field layouts: site_major and blocked offsets are bijections onto [0, size) for every precision x
// (reconstruct | nspin); blocked uses 16-byte blocks where they tile the object (float r12 ->
// float4, double -> double2, half Dirac spinor -> short8, float r18 -> float2, ...), each block
// contiguous and consecutive sites' blocks adjacent (coalesced); pads leave gaps but no overlap;
// tiled puts real r of 8 consecutive sites (one vector) together; field containers
// allocate layout.size() reals.
#include <gtest/gtest.h>

#include <vector>

#include "gluon/qcd/field_layout.h"
#include "gluon/qcd/gauge_field.h"
#include "gluon/qcd/spinor_field.h"
#include "gluon/runtime/error.h"

using namespace gluon;
using namespace gluon::qcd;

namespace {

struct Case {
  int nobj, nreals, bytes, block_bytes;
};

// Expected block width in bytes for every storage form.
const std::vector<Case> kCases = {
    // gauge: 4 objects, r18 / r12 / r8
    {4, 18, 8, 16}, {4, 12, 8, 16}, {4, 8, 8, 16},  // double2
    {4, 18, 4, 8},  {4, 12, 4, 16}, {4, 8, 4, 16},  // float2, float4, float4
    {4, 18, 2, 4},  {4, 12, 2, 8},  {4, 8, 2, 16},  // short2, short4, short8
    // spinors: Dirac 24 reals, staggered 6
    {1, 24, 8, 16}, {1, 24, 4, 16}, {1, 24, 2, 16},  // double2, float4, short8
    {1, 6, 8, 16},  {1, 6, 4, 8},   {1, 6, 2, 4},    // double2, float2, short2
};

void check_bijection(const FieldLayout& l, bool expect_onto) {
  std::vector<int> hits(static_cast<std::size_t>(l.size()), 0);
  for (std::int64_t s = 0; s < l.sites; ++s)
    for (int o = 0; o < l.nobj; ++o)
      for (int r = 0; r < l.nreals; ++r) {
        const auto off = l.offset(s, o, r);
        ASSERT_GE(off, 0);
        ASSERT_LT(off, l.size());
        ++hits[static_cast<std::size_t>(off)];
      }
  std::int64_t used = 0;
  for (int h : hits) {
    ASSERT_LE(h, 1);
    used += h;
  }
  EXPECT_EQ(used, l.sites * l.nobj * l.nreals);
  if (expect_onto) EXPECT_EQ(used, l.size());
}

}  // namespace

TEST(FieldLayout, SiteMajorIsArrayOfStructures) {
  const FieldLayout l = make_layout(FieldOrder::site_major, 10, 5, 4, 12, 4);
  EXPECT_EQ(l.block, 12);
  EXPECT_EQ(l.stride, 10);  // pad is ignored
  EXPECT_EQ(l.offset(3, 2, 7), (3 * 4 + 2) * 12 + 7);
  check_bijection(l, true);
}

TEST(FieldLayout, BlockedOffsetsAreBijectionsWithCoalescedBlocks) {
  for (const Case& c : kCases) {
    SCOPED_TRACE(::testing::Message() << "nobj " << c.nobj << " nreals " << c.nreals << " bytes " << c.bytes);
    const std::int64_t sites = 24;
    const FieldLayout l = make_layout(FieldOrder::blocked, sites, 0, c.nobj, c.nreals, c.bytes);
    EXPECT_EQ(l.block * c.bytes, c.block_bytes);
    EXPECT_EQ(l.nreals % l.block, 0);
    check_bijection(l, true);
    for (std::int64_t s = 0; s + 1 < sites; ++s)
      for (int o = 0; o < c.nobj; ++o)
        for (int b = 0; b < l.nblocks(); ++b) {
          const auto first = l.offset(s, o, b * l.block);
          for (int j = 1; j < l.block; ++j) ASSERT_EQ(l.offset(s, o, b * l.block + j), first + j);
          // the same block of the next site follows directly: a warp's loads are contiguous
          ASSERT_EQ(l.offset(s + 1, o, b * l.block), first + l.block);
          // and its address is aligned to the block width
          ASSERT_EQ((first * c.bytes) % c.block_bytes, 0);
        }
    // With a pad: no overlaps, size grows by the pad, blocks still adjacent across sites.
    const FieldLayout p = make_layout(FieldOrder::blocked, sites, 5, c.nobj, c.nreals, c.bytes);
    EXPECT_EQ(p.stride, sites + 5);
    EXPECT_EQ(p.size(), (sites + 5) * c.nobj * c.nreals);
    check_bijection(p, false);
  }
}

// Device code indexes the blocks of a blocked field in 32 bits (load_blocks): make_layout
// refuses 2^32 blocks or more, and the device's compile-time block is make_layout's block.
TEST(FieldLayout, BlockedFieldsStayWithin32BitBlockIndices) {
  const std::int64_t sites = std::int64_t{1} << 28;  // x 4 links x 9 double2 blocks = 2^32 + 2^31
  try {
    (void)make_layout(FieldOrder::blocked, sites, 0, 4, 18, 8);
    FAIL() << "a blocked layout of 9 * 2^30 blocks was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("2^32"), std::string::npos) << e.what();
  }
  EXPECT_NO_THROW((void)make_layout(FieldOrder::blocked, sites / 4, 0, 4, 18, 4));  // 9 * 2^28 float2
  EXPECT_NO_THROW((void)make_layout(FieldOrder::site_major, sites, 0, 4, 18, 8));    // no block index
  for (const Case& c : kCases)
    EXPECT_EQ(make_layout(FieldOrder::blocked, 8, 0, c.nobj, c.nreals, c.bytes).block,
              blocked_block_reals(c.nreals, c.bytes));
  EXPECT_EQ((blocked_block<double, 24>()), 2);
  EXPECT_EQ((blocked_block<float, 18>()), 2);
  EXPECT_EQ((blocked_block<std::int16_t, 12>()), 4);
  EXPECT_EQ((blocked_block<std::int16_t, 6>()), 2);
}

TEST(FieldLayout, TiledHoldsEachRealOfATileInOneVector) {
  for (const Case& c : kCases) {
    SCOPED_TRACE(::testing::Message() << "nobj " << c.nobj << " nreals " << c.nreals << " bytes " << c.bytes);
    const int w = kTiledSites;  // 8 sites in every precision
    const std::int64_t sites = 3 * w;
    const FieldLayout l = make_layout(FieldOrder::tiled, sites, 7, c.nobj, c.nreals, c.bytes);
    EXPECT_EQ(l.block, w);
    EXPECT_EQ(l.size(), sites * c.nobj * c.nreals);  // the pad is ignored
    check_bijection(l, true);
    for (std::int64_t s = 0; s < sites; ++s)
      for (int o = 0; o < c.nobj; ++o)
        for (int r = 0; r < c.nreals; ++r)
          ASSERT_EQ(l.offset(s, o, r), ((s / w) * c.nobj * c.nreals + o * c.nreals + r) * w + s % w);
    // load_reals / store_reals (the strided site-at-a-time path) agree with offset()
    if (c.bytes == 8) {
      std::vector<double> data(static_cast<std::size_t>(l.size()));
      for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<double>(i);
      const int obj = c.nobj - 1;
      if (c.nreals == 18) {
        double v[18];
        load_reals<double, 18>(data.data(), l, w + 3, obj, v);
        for (int r = 0; r < 18; ++r) EXPECT_EQ(v[r], static_cast<double>(l.offset(w + 3, obj, r)));
        for (int r = 0; r < 18; ++r) v[r] = -1.0 - r;
        store_reals<double, 18>(data.data(), l, 2 * w + 1, obj, v);
        for (int r = 0; r < 18; ++r) EXPECT_EQ(data[static_cast<std::size_t>(l.offset(2 * w + 1, obj, r))], -1.0 - r);
      }
    }
  }
  EXPECT_THROW(make_layout(FieldOrder::tiled, 12, 0, 1, 24, 8), InputError);  // 12 sites, W = 8
  EXPECT_STREQ(to_string(FieldOrder::tiled), "tiled");
}

TEST(FieldLayout, ContainersAllocateTheLayout) {
  const Geometry g({4, 4, 4, 4});
  for (Precision prec : {Precision::double_, Precision::single, Precision::half})
    for (Reconstruct r : {Reconstruct::r18, Reconstruct::r12, Reconstruct::r8}) {
      GaugeFieldParams p;
      p.geometry = g;
      p.precision = prec;
      p.reconstruct = r;
      p.order = FieldOrder::blocked;
      p.pad = 8;
      GaugeField u(p);
      EXPECT_EQ(u.layout().nreals, stored_reals(r));
      EXPECT_EQ(u.layout().nobj, 4);
      EXPECT_EQ(u.bytes(), static_cast<std::size_t>(u.layout().size()) * bytes_per_real(prec));
      EXPECT_EQ(u.layout().stride, g.volume() + 8);
    }
  SpinorFieldParams sp;
  sp.geometry = g;
  sp.subset = SiteSubset::odd;
  sp.precision = Precision::half;
  sp.order = FieldOrder::blocked;
  SpinorField psi(sp);
  EXPECT_EQ(psi.layout().sites, g.half_volume());
  EXPECT_EQ(psi.layout().block, 8);
  EXPECT_NE(psi.norms(), nullptr);
  sp.precision = Precision::single;
  SpinorField chi(sp);
  EXPECT_EQ(chi.norms(), nullptr);
  sp.nspin = 2;
  EXPECT_THROW(SpinorField{sp}, InputError);
}

// Device code does not read the tiled order (its paths are host-only: field_layout.h), so no
// field in device memory may be tiled; the error names the field and the order.
TEST(FieldLayout, TiledIsRefusedForDeviceMemory) {
  SpinorFieldParams sp;
  sp.geometry = Geometry({4, 4, 4, 4});
  sp.order = FieldOrder::tiled;
  sp.space = runtime::MemSpace::device;
  try {
    SpinorField f(sp);
    FAIL() << "a tiled spinor field in device memory was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("spinor field"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("tiled"), std::string::npos) << e.what();
  }
  GaugeFieldParams gp;
  gp.geometry = sp.geometry;
  gp.order = FieldOrder::tiled;
  gp.space = runtime::MemSpace::device;
  EXPECT_THROW(GaugeField g(gp), InputError);
  sp.space = runtime::MemSpace::host;
  EXPECT_NO_THROW(SpinorField f(sp));
}
