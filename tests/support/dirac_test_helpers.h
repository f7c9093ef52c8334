#pragma once
// Helpers shared by the Wilson and clover operator tests: canonical random fields, storage
// conversions, relative differences and inner products on canonical Dirac fields.
#include <cmath>
#include <cstdint>

#include "gluon/qcd/dirac/reference_wilson.h"
#include "gluon/qcd/field_convert.h"
#include "gluon/qcd/gauge_start.h"
#include "gluon/qcd/random_fields.h"
#include "gluon/qcd/spinor_field.h"
#include "gluon/runtime/exec.h"
#include "canonical_spinor.h"

namespace gluon::test::dirac {

using namespace gluon::qcd;

inline const runtime::Exec cpu = runtime::cpu_exec();

inline double tolerance(Precision p) {
  return p == Precision::double_ ? 1e-13 : p == Precision::single ? 1e-5 : 1e-2;
}

inline GaugeField hot_field(const Geometry& g, std::uint64_t seed) {
  GaugeField u = GaugeField::canonical(g);
  set_hot(u, seed, cpu);
  return u;
}

inline SpinorField canonical_full(const Geometry& g) {
  SpinorFieldParams p;
  p.geometry = g;
  return SpinorField(p);
}

inline SpinorField gaussian(const Geometry& g, std::uint64_t seed) {
  SpinorField f = canonical_full(g);
  fill_gaussian(f, seed, 0, cpu);
  return f;
}

// canonical_copy on the CPU (these tests' fields live on the host).
inline SpinorField as_canonical(const SpinorField& f) { return canonical_copy(f, cpu); }

// A canonical full field in the storage of `params` (full or even subset).
inline SpinorField in_storage(const SpinorField& full, const SpinorFieldParams& params) {
  if (params.subset == SiteSubset::full) return converted(full, params, cpu);
  return converted(reference::restrict_parity(full, params.subset == SiteSubset::even ? 0 : 1), params, cpu);
}

// |a - b| / |b| over all sites (both canonical, same subset).
inline double rel_diff(const SpinorField& a, const SpinorField& b) {
  double num = 0, den = 0;
  const std::int64_t n = a.params().sites();
  for (std::int64_t s = 0; s < n; ++s)
    for (int sp = 0; sp < 4; ++sp)
      for (int c = 0; c < 3; ++c) {
        num += norm2(a.site(s).s[sp].c[c] - b.site(s).s[sp].c[c]);
        den += norm2(b.site(s).s[sp].c[c]);
      }
  return std::sqrt(num / den);
}

// Compares an operator output (any storage, full or even) with a canonical full reference.
inline double rel_diff_to_ref(const SpinorField& out, const SpinorField& ref_full) {
  const SpinorField c = as_canonical(out);
  if (c.params().subset == SiteSubset::full) return rel_diff(c, ref_full);
  return rel_diff(c, reference::restrict_parity(ref_full, 0));
}

inline complexd dot(const SpinorField& a, const SpinorField& b) {  // <a, b>, canonical
  complexd r(0, 0);
  for (std::int64_t s = 0; s < a.params().sites(); ++s)
    for (int sp = 0; sp < 4; ++sp)
      for (int c = 0; c < 3; ++c) r += conj_mul(a.site(s).s[sp].c[c], b.site(s).s[sp].c[c]);
  return r;
}

}  // namespace gluon::test::dirac
