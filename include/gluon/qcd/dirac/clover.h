#pragma once
// The clover term of the Wilson-clover operator (conventions: dirac.h, DESIGN.md), built from
// the gauge field, and its inverse.
//
//   A = 1 - kappa c_sw sum_{mu<nu} sigma_munu F_munu,  sigma_munu = (i/2)[g_mu, g_nu],
//   F_munu = (Q_munu - Q_munu^+) / (8i),  Q_munu(x) = the four plaquette leaves at x in the
//   (mu, nu) plane, each starting with the link along +-mu (no trace subtraction).
//
//   CloverTerm(u, kappa, csw, precision, ex)   computes A per site in double (both 6x6 chiral
//                         blocks, clover_field.h) and A^-1 block by block by Cholesky
//                         (A = L L^+, A^-1 = L^-+ L^-1) in double, and stores both in `precision`
//                         (blocked order on CUDA, site_major on CPU unless `order` names one,
//                         memory of ex). A block that
//                         is not positive definite (kappa c_sw too large for the field) is a
//                         NumericalError naming how many sites failed.
//     field(inverse)      the CloverField of A or A^-1 (for WilsonDslash::dslash_clover*)
//     apply(out, in, parity, inverse)   out_p = A_pp in_p (or A^-1); out/in parity-p subset or
//                         full fields in the term's precision (out may be in: site-local)
//   clover_apply(out, in, c, parity, ex)   the same for any CloverField
#include <cstdint>
#include <optional>

#include "gluon/qcd/dirac/clover_field.h"
#include "gluon/qcd/gauge_field.h"
#include "gluon/qcd/precision.h"
#include "gluon/qcd/spinor_field.h"
#include "gluon/runtime/exec.h"

namespace gluon::qcd {

void clover_apply(SpinorField& out, const SpinorField& in, const CloverField& c, int parity,
                  const runtime::Exec& ex);

class CloverTerm {
 public:
  CloverTerm(const GaugeField& u, double kappa, double csw, Precision p, const runtime::Exec& ex,
             std::optional<FieldOrder> order = {});

  const CloverField& field(bool inverse) const { return inverse ? inverse_ : clover_; }
  void apply(SpinorField& out, const SpinorField& in, int parity, bool inverse) const {
    clover_apply(out, in, field(inverse), parity, exec_);
  }
  double kappa() const { return kappa_; }
  double csw() const { return csw_; }

 private:
  void build_split(const GaugeField& u, Precision p, const runtime::Exec& ex,
                   std::optional<FieldOrder> order);
  void check_positive(std::int64_t failed, std::int64_t volume) const;
  CloverField clover_, inverse_;
  double kappa_, csw_;
  runtime::Exec exec_;
};

}  // namespace gluon::qcd
