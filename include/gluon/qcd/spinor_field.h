#pragma once
// Fermion fields: Dirac spinors (4 spins x 3 colours) or staggered colour vectors (1 x 3), on all
// sites or on one parity, in any precision, layout and memory space. Half precision stores one
// float norm per site (max |real component|) beside the 16-bit components.
//
// The canonical spinor field (double, site_major, host) gives direct access through site(s).
// Site index s is the even-odd index for SiteSubset::full and the index within the parity
// (eo - parity * V/2) for even/odd fields.
#include <cstdint>
#include <string>

#include "gluon/qcd/field_layout.h"
#include "gluon/qcd/geometry.h"
#include "gluon/qcd/precision.h"
#include "gluon/qcd/spinor.h"
#include "gluon/runtime/memory.h"

namespace gluon::qcd {

enum class SiteSubset { full, even, odd };

struct SpinorFieldParams {
  Geometry geometry;
  int nspin = 4;  // 4 (Wilson/clover) or 1 (staggered)
  SiteSubset subset = SiteSubset::full;
  Precision precision = Precision::double_;
  FieldOrder order = FieldOrder::site_major;
  runtime::MemSpace space = runtime::MemSpace::host;
  int device = 0;
  std::int64_t pad = 0;

  std::int64_t sites() const {
    return subset == SiteSubset::full ? geometry.volume() : geometry.half_volume();
  }
  int reals_per_site() const { return nspin * 6; }
  bool canonical() const {
    return precision == Precision::double_ && order == FieldOrder::site_major &&
           space == runtime::MemSpace::host;
  }
  std::string describe() const;
};

class SpinorField {
 public:
  SpinorField() = default;
  explicit SpinorField(const SpinorFieldParams& params);

  const SpinorFieldParams& params() const { return params_; }
  const Geometry& geometry() const { return params_.geometry; }
  const FieldLayout& layout() const { return layout_; }
  void* data() { return data_.data(); }
  const void* data() const { return data_.data(); }
  // Per-site norms (half precision only; nullptr otherwise).
  float* norms() { return static_cast<float*>(norm_.data()); }
  const float* norms() const { return static_cast<const float*>(norm_.data()); }
  runtime::Buffer& buffer() { return data_; }
  runtime::Buffer& norm_buffer() { return norm_; }

  // Canonical Dirac fields (nspin 4) only: the spinor at site s.
  Spinor<double>& site(std::int64_t s);
  const Spinor<double>& site(std::int64_t s) const;
  // Canonical staggered fields (nspin 1) only.
  ColorVector<double>& color_vector(std::int64_t s);
  const ColorVector<double>& color_vector(std::int64_t s) const;

 private:
  void require_canonical(int nspin, const char* what) const;
  SpinorFieldParams params_;
  FieldLayout layout_;
  runtime::Buffer data_, norm_;
};

}  // namespace gluon::qcd
