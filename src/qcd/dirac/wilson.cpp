// WilsonDslash (wilson.h), the Wilson and clover DiracOperator (dirac.h) and make_wilson.
// Kernels: wilson_dslash_*_kernels.cpp, clover_kernels.cpp.
#include "gluon/qcd/dirac/wilson.h"

#include <cmath>
#include <cstdlib>
#include <optional>
#include <string>

#include "../bicgstab_coefficients.h"
#include "../ops_support.h"
#include "dirac_factories.h"
#include "gluon/qcd/blas.h"
#include "gluon/qcd/dirac/clover.h"
#include "gluon/qcd/dirac/dirac.h"
#include "gluon/qcd/field_convert.h"
#include "gluon/runtime/env.h"
#include "gluon/runtime/error.h"
#include "wilson_internal.h"
#include "wilson_simd.h"

namespace gluon::qcd {

namespace {

// Blocked on CUDA; on the CPU tiled where the vector kernel runs (wilson_simd.h), else site_major.
// The vector kernel reads every precision and link compression.
FieldOrder order_for(const runtime::Exec& ex, const Geometry& g) {
  if (ex.on_device()) return FieldOrder::blocked;
  return detail::cpu_simd_available() && detail::cpu_simd_fits(g) ? FieldOrder::tiled : FieldOrder::site_major;
}

const char* subset_name(SiteSubset s) {
  return s == SiteSubset::full ? "full" : s == SiteSubset::even ? "even" : "odd";
}

// parity: the sites the field must cover (its subset or full).
void check_spinor(const SpinorField& f, const WilsonDslash& d, const std::string& what, int parity) {
  const auto& p = f.params();
  if (f.data() == nullptr) throw InputError(what + ": the field is not allocated");
  if (p.nspin != 4)
    throw InputError(what + ": expected a Dirac field (nspin 4), found nspin " + std::to_string(p.nspin));
  if (!(p.geometry == d.geometry()))
    throw InputError(what + ": the field is on " + p.geometry.to_string() + ", the operator on " +
                     d.geometry().to_string());
  if (p.precision != d.precision())
    throw InputError(what + ": expected " + to_string(d.precision()) + " precision (the operator's), found " +
                     to_string(p.precision));
  const SiteSubset want = parity == 0 ? SiteSubset::even : SiteSubset::odd;
  if (p.subset != SiteSubset::full && p.subset != want)
    throw InputError(what + ": expected a full or " + subset_name(want) + " field, found " +
                     subset_name(p.subset));
  detail::require_memory_for(p.space, p.device, d.exec(), what);
}

void check_parity(int parity) {
  if (parity != 0 && parity != 1)
    throw InputError("wilson dslash: parity must be 0 (even) or 1 (odd), found " + std::to_string(parity));
}

}  // namespace

double dslash_flops_per_site(DslashKind kind) {
  switch (kind) {
    case DslashKind::plain: return 1320.0;
    case DslashKind::xpay: return 1368.0;
    case DslashKind::clover: return 1824.0;
    case DslashKind::clover_xpay:
    case DslashKind::clover_on_x: return 1872.0;
  }
  return 0.0;
}

double dslash_bytes(Precision p, Reconstruct r, std::int64_t half_volume, DslashKind kind) {
  const double b = bytes_per_real(p);
  const double norm = p == Precision::half ? 4.0 : 0.0;
  double site = (24.0 * b + norm) * 2.0 + 8.0 * stored_reals(r) * b;  // in, out, links
  if (kind == DslashKind::xpay || kind == DslashKind::clover_xpay || kind == DslashKind::clover_on_x)
    site += 24.0 * b + norm;
  if (kind == DslashKind::clover || kind == DslashKind::clover_xpay || kind == DslashKind::clover_on_x)
    site += 72.0 * b + 2.0 * norm;
  return site * static_cast<double>(half_volume);
}

WilsonDslash::WilsonDslash(const GaugeField& u, const std::array<double, 4>& boundary, Precision p,
                           Reconstruct r, const runtime::Exec& ex, std::optional<FieldOrder> order)
    : boundary_(boundary), exec_(ex) {
  for (int mu = 0; mu < 4; ++mu)
    if (!std::isfinite(boundary[mu]))
      throw InputError("wilson dslash: boundary phase of direction " + std::to_string(mu) + " is not finite");
  GaugeFieldParams gp;
  gp.geometry = u.geometry();
  gp.precision = p;
  gp.reconstruct = r;
  gp.order = order ? *order : order_for(ex, u.geometry());
  gp.space = runtime::memspace_for(ex);
  gp.device = ex.device;
  links_ = converted(u, gp, ex);
  const int real_bytes = p == Precision::double_ ? 8 : 4;  // ghosts in the compute precision
  halo_ = std::make_shared<detail::SpinorHalo>(u.geometry(), boundary, ex, real_bytes, 12, 12,
                                               "wilson dslash " + to_string(p));
  if (vectorised()) back_ = detail::backward_links(links_, 1);
}

bool WilsonDslash::split() const { return halo_->active(); }
bool WilsonDslash::vectorised() const {  // tiled, and tiled is what order_for picks
  return order() == FieldOrder::tiled && order_for(exec_, geometry()) == FieldOrder::tiled;
}
HaloStats WilsonDslash::halo_stats() const { return halo_->stats(); }

namespace {
void launch_by_precision(Precision p, const detail::DslashCall& call) {
  switch (p) {
    case Precision::double_: detail::launch_wilson_dslash_double(call); break;
    case Precision::single: detail::launch_wilson_dslash_single(call); break;
    case Precision::half: detail::launch_wilson_dslash_half(call); break;
  }
}

// launch(call) in this operator's precision: the vector kernel where it takes the call (counted
// in *vector_calls), else the scalar one. On a cut lattice the vector kernel runs only the
// interior (view.mode 2); a body that reads the ghosts inline (mode 1, the no-overlap policy,
// which runs once the ghosts have arrived) becomes that interior and the scalar exterior
// kernels of the cut dimensions, as the overlap policy does.
auto launcher(Precision prec, std::int64_t* vector_calls) {
  return [prec, vector_calls](const detail::DslashCall& c) {
    if (c.fold.kind != detail::DslashFold::none || c.op != detail::DslashCall::body) {  // (the vector kernel has no fold)
      launch_by_precision(prec, c);
      return;
    }
    detail::DslashCall interior = c;
    if (interior.view.mode == 1) interior.view.mode = 2;
    if (!detail::try_wilson_simd(interior)) {
      launch_by_precision(prec, c);
      return;
    }
    ++*vector_calls;
    if (c.view.mode == 1)
      detail::launch_exteriors(interior, [prec](const detail::DslashCall& e) { launch_by_precision(prec, e); });
  };
}
}  // namespace

void WilsonDslash::halo_exchange_only(const SpinorField& in, int parity, bool dagger) const {
  if (!halo_->active()) return;
  check_parity(parity);
  check_spinor(in, *this, "wilson halo (in)", 1 - parity);
  detail::DslashCall call;
  call.u = &links_;
  call.in = &in;
  call.out = const_cast<SpinorField*>(&in);  // not written by the pack
  call.parity = parity;
  call.dagger = dagger;
  call.ex = exec_;
  halo_->exchange_only(detail::make_halo_ops(call, launcher(precision(), &vector_launches_)));
}

void WilsonDslash::run(SpinorField& out, const SpinorField& in, int parity, bool dagger,
                       const SpinorField* x, const CloverField* c, double a, int fuse,
                       const detail::DslashFold* fold) const {
  check_parity(parity);
  check_spinor(out, *this, "wilson dslash (out)", parity);
  check_spinor(in, *this, "wilson dslash (in)", 1 - parity);
  if (x) check_spinor(*x, *this, "wilson dslash (x)", parity);
  if (in.data() == out.data() && out.params().subset != SiteSubset::full)
    throw InputError("wilson dslash: out and in are the same field");
  if (c) {
    const auto& cp = c->params();
    if (cp.precision != precision() || !(cp.geometry == geometry()))
      throw InputError("wilson dslash: the clover field (" + cp.describe() + ", " + cp.geometry.to_string() +
                       ") does not match the operator (" + to_string(precision()) + ", " +
                       geometry().to_string() + ")");
    detail::require_memory_for(cp.space, cp.device, exec_, "wilson dslash (clover)");
  }
  detail::DslashCall call;
  call.u = &links_;
  call.u_back = back_.data() ? &back_ : nullptr;
  call.out = &out;
  call.in = &in;
  call.x = x;
  call.c = c;
  call.parity = parity;
  call.dagger = dagger;
  call.a = a;
  call.fuse = fuse;
  call.ex = exec_;
  if (fold && fold->kind != detail::DslashFold::none) {
    // The exterior kernels of a split lattice add to out after the body summed it; the callers
    // (WilsonFamily) fall back to M and the BLAS reduction there.
    if (split()) throw Error("wilson dslash: a folded reduction on a split lattice");
    if (!x || out.data() == x->data()) throw Error("wilson dslash: a folded reduction needs an x other than out");
    if (fold->kind == detail::DslashFold::r0v) {
      if (!fold->w) throw Error("wilson dslash: the r0v fold needs r0");
      check_spinor(*fold->w, *this, "wilson dslash (r0)", parity);
    }
    call.fold = *fold;
  }
  halo_->run(call, launcher(precision(), &vector_launches_));
}

void WilsonDslash::dslash(SpinorField& out, const SpinorField& in, int parity, bool dagger) const {
  run(out, in, parity, dagger, nullptr, nullptr, 1.0, detail::kFusePlain);
}
void WilsonDslash::dslash_xpay(SpinorField& out, const SpinorField& in, int parity, bool dagger,
                               const SpinorField& x, double a, const detail::DslashFold* fold) const {
  run(out, in, parity, dagger, &x, nullptr, a, detail::kFusePlain, fold);
}
void WilsonDslash::dslash_clover(SpinorField& out, const SpinorField& in, int parity, bool dagger,
                                 const CloverField& c, const SpinorField* x, double a,
                                 const detail::DslashFold* fold) const {
  run(out, in, parity, dagger, x, &c, x ? a : 1.0, detail::kFuseClover, fold);
}
void WilsonDslash::dslash_clover_on_x(SpinorField& out, const SpinorField& in, int parity, bool dagger,
                                      const CloverField& c, const SpinorField& x, double a,
                                      const detail::DslashFold* fold) const {
  run(out, in, parity, dagger, &x, &c, a, detail::kFuseCloverOnX, fold);
}

namespace detail {

// Measured on an H200 at 32^4, each fold timed with occupancy floors as the plain kernels are:
// the fold is faster than the BLAS passes it replaces (two cdot_norm2 in BiCGstab, CG's residual
// update) in double and single, Wilson and clover (clover CGNR in double 5% and the clover
// double-single solves 2.5-5% faster, bench/results/2026-11-26-fold-floors-h200/). In half it
// measured even (-2% to +1% a solve), so half keeps the plain kernels and the BLAS passes, and its
// folds are not built.
bool dslash_fold_pays(Precision p) {
  static const bool off = runtime::env_switched_off("GLUON_WILSON_FOLD");  // never fold (A/B runs)
  return !off && p != Precision::half;
}

int wilson_site_threads() {
  const char* e = std::getenv("GLUON_GPU_SITE_THREADS");  // read at each launch (tests, bench --ab-env)
  if (!e || !*e || std::string(e) == "auto") return 0;
  if (std::string(e) == "1") return 1;
  if (std::string(e) == "2") return 2;
  if (std::string(e) == "tail") return 3;
  throw InputError("GLUON_GPU_SITE_THREADS: expected 1, 2, tail or auto, found '" + std::string(e) + "'");
}

int wilson_tail_sites_per_sm() {
  const char* e = std::getenv("GLUON_GPU_TAIL_SITES_PER_SM");  // read at each launch
  if (!e || !*e) return kWilsonTailSitesPerSm;
  char* end = nullptr;
  const long v = std::strtol(e, &end, 10);
  if (*end || v < 2 || v > 65536)
    throw InputError("GLUON_GPU_TAIL_SITES_PER_SM: expected an integer from 2 to 65536, found '" + std::string(e) + "'");
  return static_cast<int>(v);
}

namespace {

bool same_storage(const SpinorFieldParams& a, const SpinorFieldParams& b) {
  return a.geometry == b.geometry && a.nspin == b.nspin && a.subset == b.subset &&
         a.precision == b.precision && a.order == b.order && a.space == b.space &&
         a.device == b.device && a.pad == b.pad;
}

// Wilson (no clover term) and Wilson-clover, full or even-odd preconditioned.
//   full:      M = A - kappa D (A = 1 for Wilson); per parity p: out_p = A in_p - kappa D_{p,1-p} in
//   Wilson eo: M_ee = 1 - kappa^2 D_eo D_oe
//   clover eo asymmetric: M_ee = A_ee - kappa^2 D_eo A_oo^-1 D_oe
//   clover eo symmetric:  M_ee = 1 - kappa^2 A_ee^-1 D_eo A_oo^-1 D_oe
// Mdag: the same with D^dagger = g5 D g5 (dagger kernels) and the factors in reverse order.
class WilsonFamily final : public DiracOperator {
 public:
  WilsonFamily(const DiracParams& p, const GaugeField& u, const runtime::Exec& ex, bool clover)
      : DiracOperator(p, ex), hop_(u, p.boundary, p.precision, p.reconstruct, ex) {
    if (!std::isfinite(p.kappa) || p.kappa == 0.0)
      throw InputError("wilson operator: kappa must be finite and non-zero, found " + std::to_string(p.kappa));
    params_.type = clover ? DiracType::clover : DiracType::wilson;
    if (clover) {
      if (!std::isfinite(p.csw)) throw InputError("clover operator: c_sw is not finite");
      clover_.emplace(u, p.kappa, p.csw, p.precision, ex, hop_.order());  // tiled with the vectors
    }
  }

  SpinorFieldParams vector_params() const override {
    SpinorFieldParams v = full_params();
    if (params_.even_odd) v.subset = SiteSubset::even;
    return v;
  }
  SpinorFieldParams full_params() const override {
    SpinorFieldParams v;
    v.geometry = hop_.geometry();
    v.nspin = 4;
    v.subset = SiteSubset::full;
    v.precision = params_.precision;
    v.order = hop_.order();
    v.space = runtime::memspace_for(exec_);
    v.device = exec_.device;
    return v;
  }

  void M(SpinorField& out, const SpinorField& in) const override { apply(out, in, false); }

  // BiCGstab's reductions in M's last kernel, where it reads `in` at every output site anyway
  // (even-odd, one rank, not the CPU vector kernel): <r0, v> costs one more vector read, and so do
  // <t, s>, |t|^2, <r0, s> and <r0, t> together.
  void M_r0v(SpinorField& v, const SpinorField& p, const SpinorField& r0, blas::Slot rho, blas::Slot r0v,
             blas::Slot alpha) const override {
    if (!folds()) return DiracOperator::M_r0v(v, p, r0, rho, r0v, alpha);
    check_vector(r0, "M_r0v (r0)");
    detail::DslashFold f = fold_into("wilson M_r0v", "r0v", r0v, "alpha", alpha);
    f.kind = detail::DslashFold::r0v;
    f.w = &r0;
    f.rho = blas::slot_address("wilson M_r0v", "rho", rho, exec_, false, 2);
    apply(v, p, false, &f);
  }
  void M_ts(SpinorField& t, const SpinorField& s, const SpinorField& r0, const blas::TsSlots& sl) const override {
    if (!folds()) return DiracOperator::M_ts(t, s, r0, sl);
    const char* who = "wilson M_ts";
    check_vector(r0, "M_ts (r0)");
    detail::DslashFold f = fold_into(who, "ts", sl.ts, "omega", sl.omega, blas::detail::kTsSums);
    f.kind = detail::DslashFold::ts;
    f.w = &r0;
    f.rho = blas::slot_address(who, "rho", sl.rho, exec_, false, 2);
    f.alpha = blas::slot_address(who, "alpha", sl.alpha, exec_, false, 2);
    f.rho_next = blas::slot_address(who, "rho_next", sl.rho_next, exec_, false, 2);
    f.rho_next_mirror = blas::slot_address(who, "rho_next", sl.rho_next, exec_, true, 2);
    f.beta = blas::slot_address(who, "beta", sl.beta, exec_, false, 2);
    f.beta_mirror = blas::slot_address(who, "beta", sl.beta, exec_, true, 2);
    apply(t, s, false, &f);
  }
  void Mdag(SpinorField& out, const SpinorField& in) const override { apply(out, in, true); }
  // CGNR/CGNE's step: |B p|^2 (+ shift |p|^2) in B's last kernel, r's update in B^dagger's
  // (same conditions as the BiCGstab folds); with a shift that kernel reads p as the fold's w.
  void normal_cg_residual(SpinorField& Ap, SpinorField& mid, const SpinorField& p, SpinorField& r, blas::Slot r2,
                          blas::Slot pAp, blas::Slot r2_new, bool mdag_first, double shift) const override {
    if (!folds()) return DiracOperator::normal_cg_residual(Ap, mid, p, r, r2, pAp, r2_new, mdag_first, shift);
    const char* who = "wilson normal_cg_residual";
    if (r.data() == p.data() || r.data() == mid.data() || mid.data() == p.data())
      throw InputError(std::string(who) + ": p, mid and r must be three different fields");
    check_vector(r, std::string(who) + " (r)");
    detail::DslashFold norm;
    norm.kind = detail::DslashFold::cg;
    norm.sums = blas::slot_address(who, "pAp", pAp, exec_, false, 2);
    norm.sums_mirror = blas::slot_address(who, "pAp", pAp, exec_, true, 2);
    detail::DslashFold update;
    update.kind = detail::DslashFold::cg;
    update.cg_update = true;
    update.sums = blas::slot_address(who, "r2_new", r2_new, exec_, false);
    update.sums_mirror = blas::slot_address(who, "r2_new", r2_new, exec_, true);
    update.r2 = blas::slot_address(who, "r2", r2, exec_, false);
    update.pAp = norm.sums;
    norm.shift = update.shift = shift;
    if (shift != 0.0) update.w = &p;
    apply(mid, p, mdag_first, &norm);    // mid = B p; |mid|^2 + shift |p|^2
    apply(r, mid, !mdag_first, &update);  // r -= alpha (B^dagger mid + shift p); |r|^2
  }
  void M_full(SpinorField& out, const SpinorField& in) const override {
    check_field(out, full_params(), "M_full (out)");
    check_field(in, full_params(), "M_full (in)");
    if (out.data() == in.data()) throw InputError("M_full: out and in are the same field");
    unpreconditioned(out, in, false);
  }

  void prepare(SpinorField& b_pc, const SpinorField& b_full) const override {
    check_vector(b_pc, "prepare (b_pc)");
    if (!params_.even_odd) {
      convert(b_full, b_pc, exec_);
      return;
    }
    const SpinorField* bf = &b_full;
    SpinorField conv;
    if (!same_storage(b_full.params(), full_params())) {
      conv = converted(b_full, full_params(), exec_);
      bf = &conv;
    }
    const double k = params_.kappa;
    if (!clover_) {
      hop_.dslash_xpay(b_pc, *bf, 0, false, *bf, k);  // b_e + kappa D_eo b_o
      return;
    }
    SpinorField& t = tmp(1);
    clover_->apply(t, *bf, 1, true);                 // A_oo^-1 b_o
    hop_.dslash_xpay(b_pc, t, 0, false, *bf, k);     // b_e + kappa D_eo A_oo^-1 b_o
    if (params_.clover_pc == CloverPreconditioning::symmetric) clover_->apply(b_pc, b_pc, 0, true);
  }

  void reconstruct(SpinorField& x_full, const SpinorField& x_pc, const SpinorField& b_full) const override {
    check_vector(x_pc, "reconstruct (x_pc)");
    if (!params_.even_odd) {
      convert(x_pc, x_full, exec_);
      return;
    }
    const SpinorField* bf = &b_full;
    SpinorField bconv;
    if (!same_storage(b_full.params(), full_params())) {
      bconv = converted(b_full, full_params(), exec_);
      bf = &bconv;
    }
    const bool direct = same_storage(x_full.params(), full_params());
    SpinorField xtmp;
    if (!direct) xtmp = SpinorField(full_params());
    SpinorField& xf = direct ? x_full : xtmp;
    if (xf.data() == bf->data()) throw InputError("reconstruct: x_full and b_full are the same field");
    launch_spinor_parity_copy(xf, x_pc, 0, exec_);
    const double k = params_.kappa;
    if (!clover_) {
      hop_.dslash_xpay(xf, x_pc, 1, false, *bf, k);  // x_o = b_o + kappa D_oe x_e
    } else {
      SpinorField& t = tmp(1);
      hop_.dslash_xpay(t, x_pc, 1, false, *bf, k);  // b_o + kappa D_oe x_e
      clover_->apply(xf, t, 1, true);               // x_o = A_oo^-1 (...)
    }
    if (!direct) convert(xf, x_full, exec_);
  }

  double flops_M() const override {
    const double half = static_cast<double>(hop_.geometry().half_volume());
    if (!params_.even_odd)
      return 2.0 * half * dslash_flops_per_site(clover_ ? DslashKind::clover_on_x : DslashKind::xpay);
    if (!clover_) return half * (dslash_flops_per_site(DslashKind::plain) + dslash_flops_per_site(DslashKind::xpay));
    return half * (dslash_flops_per_site(DslashKind::clover) + dslash_flops_per_site(DslashKind::clover_xpay));
  }

  void hop(SpinorField& out, const SpinorField& in) const override {
    if (!params_.even_odd)
      throw InputError("hop: the one-parity hop of an even-odd operator, but this Wilson/clover operator is "
                       "not even-odd preconditioned");
    check_vector(in, "hop (in)");
    check_field(out, hop_params(), "hop (out)");
    if (clover_) hop_.dslash_clover(out, in, 1, false, clover_->field(true), nullptr, 1.0);
    else hop_.dslash(out, in, 1, false);
  }
  double hop_flops() const override {
    return static_cast<double>(hop_.geometry().half_volume()) *
           dslash_flops_per_site(clover_ ? DslashKind::clover : DslashKind::plain);
  }

  const WilsonDslash& hopping() const { return hop_; }
  bool split() const override { return hop_.split(); }
  HaloStats halo_stats() const override { return hop_.halo_stats(); }
  void halo_exchange_only(const SpinorField& in) const override { hop_.halo_exchange_only(in, 1, false); }

 private:
  // f must have want's subset, 4 spins and geometry (vector_params() for M, full_params() for M_full).
  static void check_field(const SpinorField& f, const SpinorFieldParams& want, const std::string& what) {
    if (f.params().subset != want.subset || f.params().nspin != 4 || !(f.geometry() == want.geometry))
      throw InputError(what + ": expected a " + want.describe() + " field on " + want.geometry.to_string() +
                       ", found " + f.params().describe() + " on " + f.geometry().to_string());
  }
  void check_vector(const SpinorField& f, const std::string& what) const { check_field(f, vector_params(), what); }

  bool folds() const {
    return detail::dslash_fold_pays(params_.precision) && params_.even_odd && !hop_.split() &&
           !hop_.vectorised();
  }
  detail::DslashFold fold_into(const char* who, const char* sums_name, blas::Slot sums, const char* coef_name,
                               blas::Slot coef, int nsums = 3) const {
    detail::DslashFold f;
    f.sums = blas::slot_address(who, sums_name, sums, exec_, false, nsums);
    f.sums_mirror = blas::slot_address(who, sums_name, sums, exec_, true, nsums);
    f.coef = blas::slot_address(who, coef_name, coef, exec_, false, 2);
    f.coef_mirror = blas::slot_address(who, coef_name, coef, exec_, true, 2);
    return f;
  }

  SpinorField& tmp(int parity) const {
    std::optional<SpinorField>& t = parity == 0 ? tmp_e_ : tmp_o_;
    if (!t) {
      SpinorFieldParams p = full_params();
      p.subset = parity == 0 ? SiteSubset::even : SiteSubset::odd;
      t.emplace(p);
    }
    return *t;
  }

  // out_p = A in_p - kappa D_{p,1-p} in on both parities of full fields (A = 1 for Wilson).
  void unpreconditioned(SpinorField& out, const SpinorField& in, bool dag) const {
    const double k = params_.kappa;
    for (int p = 0; p < 2; ++p) {
      if (clover_) hop_.dslash_clover_on_x(out, in, p, dag, clover_->field(false), in, -k);
      else hop_.dslash_xpay(out, in, p, dag, in, -k);
    }
  }

  // fold (even-odd): a reduction in the last kernel, whose x is `in` in every form and either
  // dagger.
  void apply(SpinorField& out, const SpinorField& in, bool dag, const detail::DslashFold* fold = nullptr) const {
    check_vector(out, dag ? "Mdag (out)" : "M (out)");
    check_vector(in, dag ? "Mdag (in)" : "M (in)");
    if (out.data() == in.data()) throw InputError(std::string(dag ? "Mdag" : "M") + ": out and in are the same field");
    const double k = params_.kappa;
    if (!params_.even_odd) return unpreconditioned(out, in, dag);
    SpinorField& to = tmp(1);
    if (!clover_) {
      hop_.dslash(to, in, 1, dag);
      hop_.dslash_xpay(out, to, 0, dag, in, -k * k, fold);
      return;
    }
    const CloverField& ainv = clover_->field(true);
    if (params_.clover_pc == CloverPreconditioning::asymmetric) {
      hop_.dslash_clover(to, in, 1, dag, ainv, nullptr, 1.0);
      hop_.dslash_clover_on_x(out, to, 0, dag, clover_->field(false), in, -k * k, fold);
    } else if (!dag) {
      hop_.dslash_clover(to, in, 1, false, ainv, nullptr, 1.0);
      hop_.dslash_clover(out, to, 0, false, ainv, &in, -k * k, fold);
    } else {
      SpinorField& te = tmp(0);
      clover_->apply(te, in, 0, true);
      hop_.dslash_clover(to, te, 1, true, ainv, nullptr, 1.0);
      hop_.dslash_xpay(out, to, 0, true, in, -k * k, fold);
    }
  }

  WilsonDslash hop_;
  std::optional<CloverTerm> clover_;
  mutable std::optional<SpinorField> tmp_e_, tmp_o_;
};

}  // namespace

std::unique_ptr<DiracOperator> make_wilson_family(const DiracParams& p, const GaugeField& u,
                                                  const runtime::Exec& ex, bool clover) {
  return std::make_unique<WilsonFamily>(p, u, ex, clover);
}

std::unique_ptr<DiracOperator> make_wilson(const DiracParams& p, const GaugeField& u, const runtime::Exec& ex) {
  return make_wilson_family(p, u, ex, false);
}

}  // namespace detail

}  // namespace gluon::qcd
