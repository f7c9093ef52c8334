#pragma once
// A gauge field: 4 links per site, in any precision, compression, layout and memory space.
//
// The canonical field (double, reconstruct-18, site_major, host) is what the file readers fill
// and writers take; link(s, mu) gives direct access to it. Any other combination is reached by
// convert() (qcd/field_convert.h), and read inside kernels through a GaugeAccessor
// (qcd/gauge_accessor.h). Sites are in even-odd order (geometry.h).
#include <cstdint>
#include <string>

#include "gluon/qcd/field_layout.h"
#include "gluon/qcd/geometry.h"
#include "gluon/qcd/precision.h"
#include "gluon/qcd/su3.h"
#include "gluon/runtime/memory.h"

namespace gluon::qcd {

struct GaugeFieldParams {
  Geometry geometry;
  Precision precision = Precision::double_;
  Reconstruct reconstruct = Reconstruct::r18;
  FieldOrder order = FieldOrder::site_major;
  runtime::MemSpace space = runtime::MemSpace::host;
  int device = 0;
  std::int64_t pad = 0;  // extra sites per block row (blocked order): room for ghost zones

  bool canonical() const {
    return precision == Precision::double_ && reconstruct == Reconstruct::r18 &&
           order == FieldOrder::site_major && space == runtime::MemSpace::host;
  }
  std::string describe() const;  // "double r18 site_major host"
};

class GaugeField {
 public:
  GaugeField() = default;
  // Allocates; the contents are unspecified until written (use set_unit() or a start).
  explicit GaugeField(const GaugeFieldParams& params);
  // A canonical field on this geometry.
  static GaugeField canonical(const Geometry& g);

  const GaugeFieldParams& params() const { return params_; }
  const Geometry& geometry() const { return params_.geometry; }
  const FieldLayout& layout() const { return layout_; }
  std::size_t bytes() const { return data_.bytes(); }
  void* data() { return data_.data(); }
  const void* data() const { return data_.data(); }
  runtime::Buffer& buffer() { return data_; }
  const runtime::Buffer& buffer() const { return data_; }

  // Canonical fields only (Error otherwise): the link U_mu(x) at even-odd site index s.
  SU3d& link(std::int64_t s, int mu);
  const SU3d& link(std::int64_t s, int mu) const;

 private:
  void require_canonical(const char* what) const;
  GaugeFieldParams params_;
  FieldLayout layout_;
  runtime::Buffer data_;
};

}  // namespace gluon::qcd
