// make_dirac dispatch, names, and the default normal operator.
#include "gluon/qcd/dirac/dirac.h"

#include "dirac_factories.h"
#include "gluon/runtime/error.h"

namespace gluon::qcd {

std::string to_string(DiracType t) {
  switch (t) {
    case DiracType::wilson: return "wilson";
    case DiracType::clover: return "clover";
    case DiracType::staggered: return "staggered";
    case DiracType::improved_staggered: return "improved-staggered";
  }
  return "?";
}

DiracType parse_dirac_type(const std::string& s) {
  if (s == "wilson") return DiracType::wilson;
  if (s == "clover" || s == "wilson-clover") return DiracType::clover;
  if (s == "staggered" || s == "naive-staggered") return DiracType::staggered;
  if (s == "improved-staggered" || s == "improved_staggered" || s == "asqtad" || s == "hisq")
    return DiracType::improved_staggered;
  throw InputError("operator: expected wilson, clover, staggered or improved-staggered, found '" + s + "'");
}

void DiracOperator::MdagM(SpinorField& out, const SpinorField& in) const {
  // Kept between calls: a device allocation per application (cudaMalloc, and a cudaFree that
  // synchronises the device) cost more than a CG iteration's BLAS on a 32^4 lattice.
  if (!normal_tmp_) normal_tmp_ = std::make_unique<SpinorField>(vector_params());
  M(*normal_tmp_, in);
  Mdag(out, *normal_tmp_);
}

void DiracOperator::check_shifted_multi(std::span<SpinorField* const> out, std::span<const SpinorField* const> in,
                                        std::span<const double> shifts, std::span<const blas::Slot> pAp) {
  if (out.size() != in.size() || shifts.size() != in.size() || (!pAp.empty() && pAp.size() != in.size()))
    throw InputError("normal_shifted_multi: expected as many outputs, shifts and (if any) dot slots as inputs (" +
                     std::to_string(in.size()) + "), found " + std::to_string(out.size()) + ", " +
                     std::to_string(shifts.size()) + " and " + std::to_string(pAp.size()));
  for (const SpinorField* o : out)
    for (const SpinorField* i : in)
      if (o->data() == i->data())
        throw InputError("normal_shifted_multi: an output is also an input (the hops read neighbours it overwrites)");
}

void DiracOperator::normal_shifted_multi(std::span<SpinorField* const> out, std::span<const SpinorField* const> in,
                                         std::span<const double> shifts, std::span<const blas::Slot> pAp) const {
  check_shifted_multi(out, in, shifts, pAp);
  for (std::size_t j = 0; j < in.size(); ++j) {
    if (hermitian_positive()) M(*out[j], *in[j]);
    else MdagM(*out[j], *in[j]);
    if (shifts[j] != 0.0) blas::axpy(shifts[j], *in[j], *out[j], exec_);
    if (!pAp.empty()) blas::re_dot(*in[j], *out[j], pAp[j], exec_);
  }
}

void DiracOperator::M_dot(SpinorField& out, const SpinorField& in, blas::Slot pAp) const {
  M(out, in);
  blas::re_dot(in, out, pAp, exec_);
}

void DiracOperator::M_cg_residual(SpinorField& Ap, const SpinorField& p, SpinorField& r, blas::Slot r2,
                                  blas::Slot pAp, blas::Slot r2_new, double shift) const {
  DiracOperator::M_cg_begin(Ap, p, pAp, shift);
  DiracOperator::M_cg_end(Ap, p, r, r2, pAp, r2_new, shift);
}

void DiracOperator::M_cg_begin(SpinorField& Ap, const SpinorField& p, blas::Slot pAp, double shift) const {
  if (shift == 0.0) {
    M_dot(Ap, p, pAp);
  } else {
    M(Ap, p);
    blas::axpy(shift, p, Ap, exec_);
    blas::re_dot(p, Ap, pAp, exec_);
  }
}

void DiracOperator::M_cg_end(SpinorField& Ap, const SpinorField&, SpinorField& r, blas::Slot r2, blas::Slot pAp,
                             blas::Slot r2_new, double) const {
  blas::cg_residual(r2, pAp, Ap, r, r2_new, exec_);
}

void DiracOperator::normal_cg_residual(SpinorField& Ap, SpinorField& mid, const SpinorField& p, SpinorField& r,
                                       blas::Slot r2, blas::Slot pAp, blas::Slot r2_new, bool mdag_first,
                                       double shift) const {
  // Refused here too, though this sequence would not race, so that the contract does not depend
  // on whether an operator folds the step into its kernels (wilson.cpp).
  if (r.data() == p.data() || r.data() == mid.data() || mid.data() == p.data())
    throw InputError("normal_cg_residual: p, mid and r must be three different fields");
  if (mdag_first) Mdag(mid, p);
  else M(mid, p);
  if (shift == 0.0) blas::re_dot(mid, mid, pAp, exec_);
  if (mdag_first) M(Ap, mid);
  else Mdag(Ap, mid);
  if (shift != 0.0) {
    blas::axpy(shift, p, Ap, exec_);
    blas::re_dot(p, Ap, pAp, exec_);
  }
  blas::cg_residual(r2, pAp, Ap, r, r2_new, exec_);
}

void DiracOperator::M_r0v(SpinorField& v, const SpinorField& p, const SpinorField& r0, blas::Slot rho,
                          blas::Slot r0v, blas::Slot alpha) const {
  M(v, p);
  blas::bicgstab_r0v(r0, v, rho, r0v, alpha, exec_);
}

void DiracOperator::M_ts(SpinorField& t, const SpinorField& s, const SpinorField& r0,
                         const blas::TsSlots& slots) const {
  M(t, s);
  blas::bicgstab_ts(t, s, r0, slots, exec_);
}

void DiracOperator::hop(SpinorField&, const SpinorField&) const {
  throw InputError("hop: this operator has no one-parity hopping term");
}

SpinorFieldParams DiracOperator::hop_params() const {
  SpinorFieldParams p = vector_params();
  p.subset = SiteSubset::odd;
  return p;
}

std::unique_ptr<DiracOperator> make_dirac(const DiracParams& p, const GaugeField& u, const runtime::Exec& ex) {
  switch (p.type) {
    case DiracType::wilson: return detail::make_wilson(p, u, ex);
    case DiracType::clover: return detail::make_clover(p, u, ex);
    case DiracType::staggered: return detail::make_staggered(p, u, ex);
    case DiracType::improved_staggered:
      throw InputError("improved staggered needs fat and long links: use make_improved_staggered");
  }
  throw InputError("make_dirac: unknown operator type");
}

std::unique_ptr<DiracOperator> make_improved_staggered(const DiracParams& p, const GaugeField& fat,
                                                       const GaugeField& longlinks, const runtime::Exec& ex) {
  return detail::make_improved_staggered_impl(p, fat, longlinks, ex);
}

}  // namespace gluon::qcd
