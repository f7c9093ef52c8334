#pragma once
// Plain double-precision reference of the Wilson and Wilson-clover operators (conventions:
// dirac.h, DESIGN.md): straightforward host loops over canonical fields (double, site_major,
// host, full lattice), with dense 4x4 spin matrices (1 -+ g_mu) and dense 12x12 clover matrices,
// written to check the fast operators, not to be fast.
//
//   SiteMatrix12          dense complex 12x12, row/column = spin * 3 + colour
//   ReferenceWilson(p, u) p.type wilson or clover (kappa, csw, boundary, even_odd, clover_pc are
//                         used; precision/reconstruct ignored), u any storage (converted to
//                         canonical)
//     hop(out, in, dagger)        out = D in, or D^dagger in = sum_mu (1 + g_mu) U psi(x+mu)
//                                 + (1 - g_mu) U^+ psi(x-mu) (hops across the lattice boundary
//                                 in direction mu times boundary[mu])
//     clover(out, in, inverse)    out = A in or A^-1 in per site (identity for Wilson)
//     M_full(out, in, dagger)     M = A - kappa D (A = 1 for Wilson), or M^dagger
//     M(out, in, dagger)          the operator the params describe: M_full, or the even-odd one
//                                 acting on the even sites of full fields (the odd sites of `in`
//                                 are ignored, those of `out` set to zero):
//                                 Wilson 1 - k^2 D_eo D_oe, clover asymmetric
//                                 A_ee - k^2 D_eo A_oo^-1 D_oe, symmetric
//                                 1 - k^2 A_ee^-1 D_eo A_oo^-1 D_oe
//     prepare(b_pc, b)            the even-odd right-hand side on the even sites of a full field
//                                 (Wilson b_e + k D_eo b_o, clover asymmetric
//                                 b_e + k D_eo A_oo^-1 b_o, symmetric A_ee^-1 times that)
//     site_clover(s, inverse)     the dense A (or A^-1, by Gauss-Jordan) at site s
//   restrict_parity(full, parity) canonical parity subset field holding one parity of `full`
//   extend_parity(sub)            canonical full field: `sub` on its parity, zero elsewhere
#include <array>
#include <vector>

#include "gluon/qcd/complex.h"
#include "gluon/qcd/dirac/dirac.h"
#include "gluon/qcd/gauge_field.h"
#include "gluon/qcd/spinor_field.h"

namespace gluon::qcd::reference {

struct SiteMatrix12 {
  complexd e[12][12];
};

class ReferenceWilson {
 public:
  ReferenceWilson(const DiracParams& p, const GaugeField& u);

  void hop(SpinorField& out, const SpinorField& in, bool dagger) const;
  void clover(SpinorField& out, const SpinorField& in, bool inverse) const;
  void M_full(SpinorField& out, const SpinorField& in, bool dagger) const;
  void M(SpinorField& out, const SpinorField& in, bool dagger) const;
  void prepare(SpinorField& b_pc, const SpinorField& b) const;
  const SiteMatrix12& site_clover(std::int64_t s, bool inverse) const;
  const DiracParams& params() const { return p_; }

 private:
  SpinorField make_full() const;
  DiracParams p_;
  GaugeField u_;
  std::vector<SiteMatrix12> a_, ainv_;
};

SpinorField restrict_parity(const SpinorField& full, int parity);
SpinorField extend_parity(const SpinorField& sub);

}  // namespace gluon::qcd::reference
