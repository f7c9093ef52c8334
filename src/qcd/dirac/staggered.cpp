// Naive and improved staggered operators (staggered.h): link preparation, field checks, and the
// even-odd algebra on top of the hopping kernel (staggered_kernels.h).
#include "gluon/qcd/dirac/staggered.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>

#include "../ops_support.h"
#include "dirac_factories.h"
#include "gluon/qcd/field_convert.h"
#include "gluon/runtime/error.h"
#include "gluon/runtime/scalar_slots.h"
#include "gluon/comm/environment.h"
#include "staggered_dslash.h"
#include "staggered_simd.h"

namespace gluon::qcd {

namespace {

void check_common_params(const DiracParams& p, const Geometry& g, const char* who) {
  for (int mu = 0; mu < 4; ++mu)
    if (p.boundary[mu] != 1.0 && p.boundary[mu] != -1.0)
      throw InputError(std::string(who) + ": boundary phase in direction " + std::to_string(mu) +
                       " must be +1 (periodic) or -1 (antiperiodic), found " + std::to_string(p.boundary[mu]));
  if (p.even_odd && p.mass == 0.0)
    throw InputError(std::string(who) + ": even-odd preconditioning needs a non-zero mass (x_o = (b_o - "
                     "D_oe x_e) / m); use even_odd = false for m = 0");
  if (!std::isfinite(p.mass)) throw InputError(std::string(who) + ": the mass is not finite");
  (void)g;
}

// The largest value over the ranks of a split lattice (the link scales must agree: a face
// transported with one rank's links is scaled by its neighbour's constant).
double global_max(const Geometry& g, double v) {
  const Coords& grid = g.grid();
  return grid[0] * grid[1] * grid[2] * grid[3] == 1 ? v : comm::world().max(v);
}

GaugeFieldParams target_params(const Geometry& g, Precision prec, Reconstruct r, FieldOrder order,
                               const runtime::Exec& ex) {
  GaugeFieldParams q;
  q.geometry = g;
  q.precision = prec;
  q.reconstruct = r;
  q.order = order;
  q.space = runtime::memspace_for(ex);
  q.device = ex.device;
  return q;
}

GaugeField canonical_copy(const GaugeField& u, const runtime::Exec& ex) {
  GaugeFieldParams cp;
  cp.geometry = u.geometry();
  return converted(u, cp, ex);
}

// Smallest power of two >= the largest |real entry| (1 for a zero field).
double power_of_two_scale(const GaugeField& c) {
  const auto* v = static_cast<const double*>(c.data());
  double mx = 0.0;
  for (std::int64_t i = 0; i < c.layout().size(); ++i) {
    if (!std::isfinite(v[i])) throw InputError("staggered links: a link entry is not finite (NaN or Inf)");
    mx = std::fmax(mx, std::fabs(v[i]));
  }
  if (mx == 0.0) return 1.0;
  int e = 0;
  std::frexp(mx, &e);  // mx = f 2^e, f in [0.5, 1)
  return std::ldexp(1.0, e);
}

void scale_in_place(GaugeField& c, double factor) {
  auto* v = static_cast<double*>(c.data());
  for (std::int64_t i = 0; i < c.layout().size(); ++i) v[i] *= factor;
}

// L = c W with one real c and W in SU(3): c = cbrt(Re det L) of the first link, then every link
// is checked. Tolerance 1e-6 admits links that went through single precision.
double long_link_su3_scale(const GaugeField& c) {
  const Geometry& g = c.geometry();
  const Complex<double> d0 = det(c.link(0, 0));
  const double scale = std::cbrt(d0.re);
  if (!(std::fabs(scale) > 1e-12))
    throw InputError("improved staggered: long links stored r12 must be c W with W in SU(3); the link at "
                     "site 0, mu 0 has det " + std::to_string(d0.re) + " + " + std::to_string(d0.im) +
                     "i; use long_reconstruct 18");
  for (std::int64_t s = 0; s < g.volume(); ++s)
    for (int mu = 0; mu < 4; ++mu) {
      const SU3d w = (1.0 / scale) * c.link(s, mu);
      const double dev = unitarity_deviation(w);
      if (!(dev < 1e-6)) {
        const Coords x = g.coords(s);
        throw InputError("improved staggered: long links stored r12 must be c W with one real c for the "
                         "field (here c = " + std::to_string(scale) + " from the first link) and W in SU(3); "
                         "the link at (" + std::to_string(x[0]) + "," + std::to_string(x[1]) + "," +
                         std::to_string(x[2]) + "," + std::to_string(x[3]) + "), mu " + std::to_string(mu) +
                         " deviates by " + std::to_string(dev) + "; use long_reconstruct 18");
      }
    }
  return scale;
}

void check_vector(const SpinorField& f, const Geometry& g, Precision prec, const runtime::Exec& ex,
                  const char* what) {
  const auto& p = f.params();
  if (p.nspin != 1)
    throw InputError(std::string("staggered operator: ") + what + " must be a colour-vector field (nspin 1), found nspin " +
                     std::to_string(p.nspin));
  if (p.precision != prec)
    throw InputError(std::string("staggered operator: ") + what + " has precision " + to_string(p.precision) +
                     ", the operator " + to_string(prec));
  if (!(f.geometry() == g))
    throw InputError(std::string("staggered operator: ") + what + " is on " + f.geometry().to_string() +
                     ", the operator on " + g.to_string());
  if (f.data() == nullptr) throw InputError(std::string("staggered operator: ") + what + " is not allocated");
  if (ex.on_device()) require_blocked(f.layout(), (std::string("staggered operator (") + what + ")").c_str());
  detail::require_memory_for(p.space, p.device, ex, std::string("staggered operator (") + what + ")");
}

// Base such that eo index - base = site index of `f`, for sites of `parity`; InputError when f
// holds neither all sites nor that parity.
std::int64_t base_for(const SpinorField& f, int parity, std::int64_t half, const char* what) {
  const SiteSubset s = f.params().subset;
  if (s == SiteSubset::full) return 0;
  const SiteSubset want = parity == 0 ? SiteSubset::even : SiteSubset::odd;
  if (s != want)
    throw InputError(std::string("staggered operator: ") + what + " must hold the " +
                     (parity == 0 ? "even" : "odd") + " sites (or all sites), found the " +
                     (s == SiteSubset::even ? "even" : "odd") + " sites");
  return parity * half;
}

void copy_vector(SpinorField& dst, const SpinorField& src, const runtime::Exec& ex) {
  if (dst.data() == src.data()) return;
  convert(src, dst, ex);
}

void launch_staggered_scalar(Precision prec, const detail::StaggeredLaunch& L) {
  switch (prec) {
    case Precision::double_: return detail::launch_staggered_dslash_impl<double>(L);
    case Precision::single: return detail::launch_staggered_dslash_impl<float>(L);
    case Precision::half: return detail::launch_staggered_dslash_impl<std::int16_t>(L);
  }
  throw Error("staggered operator: unknown precision");
}

// The vector kernel where it takes the launch (counted in *vector_calls), else the scalar one.
// On a cut lattice the vector kernel runs only the interior (view.mode 2); a body that reads the
// ghosts inline (mode 1, the no-overlap policy, which runs once the ghosts have arrived) becomes
// that interior and the scalar exterior kernels of the cut dimensions, as the overlap policy does.
void launch_staggered(Precision prec, const detail::StaggeredLaunch& L, std::int64_t* vector_calls) {
  detail::StaggeredLaunch interior = L;
  const bool inline_ghosts = L.op == detail::StaggeredLaunch::body && L.view.mode == 1 &&
                             L.fold.kind == detail::StaggeredFold::none;
  if (inline_ghosts) interior.view.mode = 2;
  if (!detail::try_staggered_simd(interior, prec)) return launch_staggered_scalar(prec, L);
  ++*vector_calls;
  if (inline_ghosts)
    detail::launch_exteriors(interior, [prec](const detail::StaggeredLaunch& e) { launch_staggered_scalar(prec, e); });
}

void launch_staggered_multi(Precision prec, const detail::StaggeredMultiLaunch& m) {
  switch (prec) {
    case Precision::double_: return detail::launch_staggered_multi_impl<double>(m);
    case Precision::single: return detail::launch_staggered_multi_impl<float>(m);
    case Precision::half: return detail::launch_staggered_multi_impl<std::int16_t>(m);
  }
  throw Error("staggered operator: unknown precision");
}

auto launcher(Precision prec, std::int64_t* vector_calls) {
  return [prec, vector_calls](const detail::StaggeredLaunch& c) { launch_staggered(prec, c, vector_calls); };
}

// Blocked on CUDA; on the CPU tiled where the vector kernel runs (staggered_simd.h), else
// site_major.
FieldOrder order_for(const runtime::Exec& ex, const Geometry& g, Precision p, Reconstruct fat,
                     std::optional<Reconstruct> longlinks) {
  if (ex.on_device()) return FieldOrder::blocked;
  return detail::cpu_simd_available() && detail::cpu_simd_fits(g) && detail::staggered_simd_takes(p) &&
                 detail::staggered_simd_links(fat, longlinks)
             ? FieldOrder::tiled
             : FieldOrder::site_major;
}

}  // namespace

StaggeredDirac::StaggeredDirac(const DiracParams& p, const GaugeField& u, const runtime::Exec& ex)
    : StaggeredDirac(p, u, ex, order_for(ex, u.geometry(), p.precision, p.reconstruct, std::nullopt)) {}

StaggeredDirac::StaggeredDirac(const DiracParams& p, const GaugeField& u, const runtime::Exec& ex, FieldOrder order)
    : DiracOperator(p, ex) {
  if (p.type != DiracType::staggered)
    throw InputError("StaggeredDirac(u): the operator type must be staggered, found " + to_string(p.type) +
                     " (improved staggered takes fat and long links)");
  if (u.bytes() == 0) throw InputError("staggered operator: the gauge field is empty");
  check_common_params(p, u.geometry(), "staggered operator");
  improved_ = false;
  fat_ = converted(u, target_params(u.geometry(), p.precision, p.reconstruct, order, ex), ex);
  init_common(order);
}

StaggeredDirac::StaggeredDirac(const DiracParams& p, const GaugeField& fat, const GaugeField& longlinks,
                               const runtime::Exec& ex)
    : StaggeredDirac(p, fat, longlinks, ex,
                     order_for(ex, fat.geometry(), p.precision, Reconstruct::r18, p.long_reconstruct)) {}

StaggeredDirac::StaggeredDirac(const DiracParams& p, const GaugeField& fat, const GaugeField& longlinks,
                               const runtime::Exec& ex, FieldOrder order)
    : DiracOperator(p, ex) {
  if (p.type != DiracType::improved_staggered)
    throw InputError("StaggeredDirac(fat, long): the operator type must be improved-staggered, found " +
                     to_string(p.type));
  if (fat.bytes() == 0 || longlinks.bytes() == 0)
    throw InputError("improved staggered operator: the fat or the long link field is empty");
  if (!(fat.geometry() == longlinks.geometry()))
    throw InputError("improved staggered operator: fat links on " + fat.geometry().to_string() +
                     ", long links on " + longlinks.geometry().to_string());
  if (p.reconstruct != Reconstruct::r18)
    throw InputError("improved staggered operator: fat (smeared) links are not unitary, so they must be "
                     "stored with reconstruct 18, found reconstruct " + to_string(p.reconstruct));
  if (p.long_reconstruct == Reconstruct::r8)
    throw InputError("improved staggered operator: long links can be stored with reconstruct 18 or 12 "
                     "(c times SU(3)), found reconstruct 8");
  check_common_params(p, fat.geometry(), "improved staggered operator");
  improved_ = true;
  const Geometry& g = fat.geometry();

  GaugeField f = canonical_copy(fat, ex);
  fat_scale_ = global_max(g, power_of_two_scale(f));
  scale_in_place(f, 1.0 / fat_scale_);
  fat_ = converted(f, target_params(g, p.precision, Reconstruct::r18, order, ex), ex);

  GaugeField l = canonical_copy(longlinks, ex);
  if (p.long_reconstruct == Reconstruct::r12) {
    (void)power_of_two_scale(l);  // rejects NaN/Inf
    long_scale_ = global_max(g, long_link_su3_scale(l));
  } else {
    long_scale_ = global_max(g, power_of_two_scale(l));
  }
  scale_in_place(l, 1.0 / long_scale_);
  long_ = converted(l, target_params(g, p.precision, p.long_reconstruct, order, ex), ex);
  init_common(order);
}

void StaggeredDirac::init_common(FieldOrder order) {
  if (exec_.on_device() && order != FieldOrder::blocked)
    throw InputError(std::string("staggered operator on the GPU: the field order must be blocked (the kernels read "
                                 "no other), found ") + to_string(order));
  order_ = order;
  if (vectorised()) {
    fat_back_ = detail::backward_links(fat_, 1);
    if (improved_) long_back_ = detail::backward_links(long_, 3);
  }
  const Geometry& g = fat_.geometry();
  const int depth = improved_ ? 3 : 1;
  const int real_bytes = params_.precision == Precision::double_ ? 8 : 4;
  halo_ = std::make_shared<detail::SpinorHalo>(g, params_.boundary, exec_, real_bytes, 6 * depth,
                                               6 * (1 + (improved_ ? 3 : 0)),
                                               std::string(improved_ ? "improved " : "") +
                                                   "staggered dslash " + to_string(params_.precision));
  if (improved_ && halo_->active())
    for (int mu = 0; mu < 4; ++mu)
      if (halo_->cut_view().cut[mu] && g.local_dims()[mu] < 4)
        throw InputError("improved staggered operator: the Naik term reaches 3 sites, so a cut dimension "
                         "needs a local extent of at least 4; direction " + std::to_string(mu) +
                         " has " + std::to_string(g.local_dims()[mu]) + " (lattice " + g.to_string() +
                         " over grid " + std::to_string(g.grid()[0]) + "x" + std::to_string(g.grid()[1]) +
                         "x" + std::to_string(g.grid()[2]) + "x" + std::to_string(g.grid()[3]) + ")");
  runtime::synchronize(exec_);
}

SpinorFieldParams StaggeredDirac::full_params() const {
  SpinorFieldParams q;
  q.geometry = fat_.geometry();
  q.nspin = 1;
  q.subset = SiteSubset::full;
  q.precision = params_.precision;
  q.order = order_;
  q.space = runtime::memspace_for(exec_);
  q.device = exec_.device;
  return q;
}

SpinorFieldParams StaggeredDirac::vector_params() const {
  SpinorFieldParams q = full_params();
  if (params_.even_odd) q.subset = SiteSubset::even;
  return q;
}

SpinorField& StaggeredDirac::temporary(SiteSubset subset) const {
  if (tmp_.data() == nullptr || tmp_.params().subset != subset) {
    SpinorFieldParams q = full_params();
    q.subset = subset;
    tmp_ = SpinorField(q);
  }
  return tmp_;
}

detail::StaggeredLaunch StaggeredDirac::launch_of(SpinorField& out, const SpinorField& in, const SpinorField* x) const {
  const Geometry& g = fat_.geometry();
  const Precision prec = params_.precision;
  check_vector(out, g, prec, exec_, "output");
  check_vector(in, g, prec, exec_, "input");
  if (x) check_vector(*x, g, prec, exec_, "xpay input");
  if (out.data() == in.data())
    throw InputError("staggered operator: the output and the input are one field (the hops read "
                     "neighbours the output overwrites)");
  detail::StaggeredLaunch L;
  L.ex = &exec_;
  L.out = &out;
  L.in = &in;
  L.x = x;
  L.fat = &fat_;
  L.longlinks = improved_ ? &long_ : nullptr;
  L.fat_back = fat_back_.data() ? &fat_back_ : nullptr;
  L.long_back = long_back_.data() ? &long_back_ : nullptr;
  L.indexer = g.indexer();
  for (int mu = 0, s = 0; mu < 4; ++mu) {
    L.origin_parity[mu] = s & 1;
    s += g.origin()[mu];
    L.antiperiodic[mu] = params_.boundary[mu] < 0 ? 1 : 0;
  }
  return L;
}

void StaggeredDirac::apply(SpinorField& out, const SpinorField& in, int parity, bool dagger, const SpinorField* x,
                           double a, double b, const detail::StaggeredFold* fold) const {
  const Geometry& g = fat_.geometry();
  const Precision prec = params_.precision;
  const std::int64_t half = g.half_volume();
  detail::StaggeredLaunch L = launch_of(out, in, x);
  if (parity < 0) {
    for (const SpinorField* f : {static_cast<const SpinorField*>(&out), &in, x})
      if (f && f->params().subset != SiteSubset::full)
        throw InputError("staggered operator: the full-lattice operator needs full-lattice fields, found a "
                         "single-parity field");
    if (halo_->active() && b != 0.0) {  // faces are exchanged per parity
      apply(out, in, 0, dagger, x, a, b);
      apply(out, in, 1, dagger, x, a, b);
      return;
    }
    L.first = 0;
    L.count = g.volume();
  } else {
    if (parity > 1) throw InputError("staggered dslash: parity must be 0 (even) or 1 (odd), found " + std::to_string(parity));
    L.out_base = base_for(out, parity, half, "the output");
    if (b != 0.0) L.in_base = base_for(in, 1 - parity, half, "the input");  // b = 0: a copy of x
    if (x) L.x_base = base_for(*x, parity, half, "the xpay input");
    L.first = parity * half;
    L.count = half;
  }
  const double sb = dagger ? -b : b;
  L.c_fat = 0.5 * sb * fat_scale_;
  L.c_long = 0.5 * sb * long_scale_;
  L.beta = a;
  L.hopping = b != 0.0;
  if (!L.hopping && !x) throw InputError("staggered operator: nothing to compute (b = 0 and no xpay input)");
  if (fold && fold->kind != detail::StaggeredFold::none) {
    const bool wants_x = fold->kind != detail::StaggeredFold::cg_norms;
    if ((x != nullptr) != wants_x || parity < 0 || halo_->active() || !L.hopping)
      throw Error("staggered operator: a fused sum needs one parity, an unsplit lattice, the hops, and the xpay "
                  "input exactly when it reads it");
    L.fold = *fold;
    L.view = halo_->local_view();
    return launch_staggered(prec, L, &vector_launches_);
  }
  if (!L.hopping || parity < 0) {
    L.view = halo_->local_view();
    return launch_staggered(prec, L, &vector_launches_);
  }
  halo_->run(L, launcher(prec, &vector_launches_));
}

// A launch of the multi-vector kernel: vector j's fields checked as apply() checks them, and
// every vector's fields at the same offsets (base_for) as vector 0's.
bool StaggeredDirac::multi_kernel_runs() const { return params_.even_odd && !halo_->active() && !vectorised(); }
int StaggeredDirac::shifted_multi_width() const { return multi_kernel_runs() ? detail::kStaggeredMultiMax : 1; }

void StaggeredDirac::normal_shifted_multi(std::span<SpinorField* const> out, std::span<const SpinorField* const> in,
                                          std::span<const double> shifts, std::span<const blas::Slot> pAp) const {
  check_shifted_multi(out, in, shifts, pAp);
  if (!multi_kernel_runs()) return DiracOperator::normal_shifted_multi(out, in, shifts, pAp);
  const char* who = "staggered normal_shifted_multi";
  if (!pAp.empty() && !multi_sums_)
    multi_sums_ = std::make_shared<runtime::ScalarSlots>(exec_, detail::kStaggeredMultiMax);
  const std::int64_t half = fat_.geometry().half_volume();
  const double m2 = params_.mass * params_.mass;
  SpinorFieldParams tq = full_params();
  tq.subset = SiteSubset::odd;
  while (multi_tmp_.size() < static_cast<std::size_t>(detail::kStaggeredMultiMax)) multi_tmp_.emplace_back(tq);
  // One parity's launch of n vectors: o_j = (m^2 + sh_j) x_j + b D i_j on `parity` (x: all null or
  // all set; dots: the slots of Re <x_j, o_j>, or null).
  auto queue = [&](int n, int parity, SpinorField* const* o, const SpinorField* const* i, const SpinorField* const* x,
                   const double* sh, const blas::Slot* dots, double b) {
    detail::StaggeredMultiLaunch m;
    m.n = n;
    for (int j = 0; j < n; ++j) {
      detail::StaggeredLaunch L = launch_of(*o[j], *i[j], x[j]);
      L.out_base = base_for(*o[j], parity, half, "the output");
      L.in_base = base_for(*i[j], 1 - parity, half, "the input");
      if (x[j]) L.x_base = base_for(*x[j], parity, half, "the xpay input");
      if (j > 0 && (L.out_base != m.base.out_base || L.in_base != m.base.in_base || L.x_base != m.base.x_base))
        throw InputError("staggered normal_shifted_multi: the vectors must all hold the same sites");
      if (j == 0) m.base = L;
      m.out[j] = o[j];
      m.in[j] = i[j];
      m.x[j] = x[j];
      m.beta[j] = m2 + sh[j];
      if (dots) {
        m.dot_device[j] = blas::slot_address(who, "pAp", dots[j], exec_, false);
        m.dot_host[j] = blas::slot_address(who, "pAp", dots[j], exec_, true);
      }
    }
    m.base.first = parity * half;
    m.base.count = half;
    m.base.c_fat = 0.5 * b * fat_scale_;
    m.base.c_long = 0.5 * b * long_scale_;
    m.base.view = halo_->local_view();
    if (dots) {
      m.sums_device = multi_sums_->device(0);
      m.sums_host = multi_sums_->mirror(0);
    }
    launch_staggered_multi(params_.precision, m);
  };
  constexpr int kMax = detail::kStaggeredMultiMax;
  SpinorField* t[kMax];
  const SpinorField* tc[kMax];
  const SpinorField* none[kMax] = {};
  for (int j = 0; j < kMax; ++j) tc[j] = t[j] = &multi_tmp_[static_cast<std::size_t>(j)];
  for (std::size_t j0 = 0; j0 < in.size(); j0 += kMax) {
    const int n = static_cast<int>(std::min<std::size_t>(kMax, in.size() - j0));
    // t_j = D_oe in_j, then out_j = (m^2 + shift_j) in_j - D_eo t_j, as M (+ shift) on each
    queue(n, 1, t, &in[j0], none, &shifts[j0], nullptr, 1.0);
    queue(n, 0, &out[j0], tc, &in[j0], &shifts[j0], pAp.empty() ? nullptr : &pAp[j0], -1.0);
  }
}

bool StaggeredDirac::split() const { return halo_->active(); }
bool StaggeredDirac::vectorised() const {  // tiled, and tiled is what order_for picks
  const std::optional<Reconstruct> lr = improved_ ? std::optional<Reconstruct>(long_.params().reconstruct) : std::nullopt;
  return order_ == FieldOrder::tiled &&
         order_for(exec_, fat_.geometry(), params_.precision, fat_.params().reconstruct, lr) == FieldOrder::tiled;
}
HaloStats StaggeredDirac::halo_stats() const { return halo_->stats(); }

void StaggeredDirac::halo_exchange_only(const SpinorField& in, int parity) const {
  if (!halo_->active()) return;
  if (parity != 0 && parity != 1)
    throw InputError("staggered halo: parity must be 0 (even) or 1 (odd), found " + std::to_string(parity));
  check_vector(in, fat_.geometry(), params_.precision, exec_, "input");
  detail::StaggeredLaunch L;
  L.ex = &exec_;
  L.in = &in;
  L.out = const_cast<SpinorField*>(&in);  // not written by the pack
  L.fat = &fat_;
  L.longlinks = improved_ ? &long_ : nullptr;
  L.indexer = fat_.geometry().indexer();
  L.in_base = base_for(in, 1 - parity, fat_.geometry().half_volume(), "the input");
  L.first = parity * fat_.geometry().half_volume();
  L.count = fat_.geometry().half_volume();
  halo_->exchange_only(detail::make_halo_ops(L, launcher(params_.precision, &vector_launches_)));
}

void StaggeredDirac::dslash(SpinorField& out, const SpinorField& in, int parity, bool dagger) const {
  if (parity != 0 && parity != 1)
    throw InputError("staggered dslash: parity must be 0 (even) or 1 (odd), found " + std::to_string(parity));
  apply(out, in, parity, dagger, nullptr, 0.0, 1.0);
}

void StaggeredDirac::dslash_xpay(SpinorField& out, const SpinorField& in, int parity, bool dagger,
                                 const SpinorField& x, double a, double b) const {
  if (parity != 0 && parity != 1)
    throw InputError("staggered dslash: parity must be 0 (even) or 1 (odd), found " + std::to_string(parity));
  apply(out, in, parity, dagger, &x, a, b);
}

void StaggeredDirac::M(SpinorField& out, const SpinorField& in) const {
  if (out.data() == in.data()) throw InputError("staggered M: the output and the input are one field");
  const double m = params_.mass;
  if (params_.even_odd) {
    // out_e = m^2 in_e - D_eo (D_oe in_e)
    SpinorField& t = temporary(SiteSubset::odd);
    apply(t, in, 1, false, nullptr, 0.0, 1.0);
    apply(out, t, 0, false, &in, m * m, -1.0);
  } else {
    M_full(out, in);
  }
}

void StaggeredDirac::hop(SpinorField& out, const SpinorField& in) const {
  if (!params_.even_odd)
    throw InputError("staggered hop: the one-parity hop of an even-odd operator, but this one is not even-odd "
                     "preconditioned");
  if (in.params().subset != SiteSubset::even || out.params().subset != SiteSubset::odd)
    throw InputError("staggered hop: expected an even-site input and an odd-site output, found " +
                     in.params().describe() + " and " + out.params().describe());
  apply(out, in, 1, false, nullptr, 0.0, 1.0);
}

void StaggeredDirac::M_dot(SpinorField& out, const SpinorField& in, blas::Slot pAp) const {
  if (!params_.even_odd || halo_->active()) return DiracOperator::M_dot(out, in, pAp);
  shifted_dot(out, in, pAp, 0.0);
}

void StaggeredDirac::shifted_dot(SpinorField& out, const SpinorField& in, blas::Slot pAp, double shift) const {
  if (out.data() == in.data()) throw InputError("staggered M: the output and the input are one field");
  detail::StaggeredFold dot;
  dot.kind = detail::StaggeredFold::dot;
  dot.device = blas::slot_address("staggered M_dot", "pAp", pAp, exec_, false);
  dot.host = blas::slot_address("staggered M_dot", "pAp", pAp, exec_, true);
  const double m = params_.mass;
  SpinorField& t = temporary(SiteSubset::odd);
  apply(t, in, 1, false, nullptr, 0.0, 1.0);
  apply(out, t, 0, false, &in, m * m + shift, -1.0, &dot);
}

void StaggeredDirac::M_cg_residual(SpinorField& Ap, const SpinorField& p, SpinorField& r, blas::Slot r2,
                                   blas::Slot pAp, blas::Slot r2_new, double shift) const {
  if (cg_folds() && r.data() == p.data()) throw InputError("staggered M_cg_residual: r and p are one field");
  M_cg_begin(Ap, p, pAp, shift);
  M_cg_end(Ap, p, r, r2, pAp, r2_new, shift);
}

// The CPU vector kernel has M_dot folded but not CG's step: there the default is faster. In half
// precision the folds measured slower than the default (H200, 32^4, tol 1e-10: improved staggered
// double-half at 68-71% of the operator against 71-73%), so they are built for double and single
// only (staggered_kernels.h; bench/results/2026-11-25-cg-fold-h200/).
bool StaggeredDirac::cg_folds() const {
  return params_.even_odd && !halo_->active() && !vectorised() && params_.precision != Precision::half;
}

void StaggeredDirac::M_cg_begin(SpinorField& Ap, const SpinorField& p, blas::Slot pAp, double shift) const {
  if (!params_.even_odd || halo_->active()) return DiracOperator::M_cg_begin(Ap, p, pAp, shift);
  if (!cg_folds()) return shifted_dot(Ap, p, pAp, shift);  // A p = (m^2 + shift) p - D_eo D_oe p, with p^dagger A p
  const char* who = "staggered M_cg_begin";
  detail::StaggeredFold norms;
  norms.kind = detail::StaggeredFold::cg_norms;
  norms.device = blas::slot_address(who, "pAp", pAp, exec_, false, 2);
  norms.host = blas::slot_address(who, "pAp", pAp, exec_, true, 2);
  norms.m2 = params_.mass * params_.mass + shift;  // M + shift = (m^2 + shift) - D_eo D_oe
  apply(temporary(SiteSubset::odd), p, 1, false, nullptr, 0.0, 1.0, &norms);  // t = D_oe p; p^dagger A p
}

void StaggeredDirac::M_cg_end(SpinorField& Ap, const SpinorField& p, SpinorField& r, blas::Slot r2, blas::Slot pAp,
                              blas::Slot r2_new, double shift) const {
  if (!params_.even_odd || halo_->active()) return DiracOperator::M_cg_end(Ap, p, r, r2, pAp, r2_new, shift);
  if (!cg_folds()) return blas::cg_residual(r2, pAp, Ap, r, r2_new, exec_);
  const char* who = "staggered M_cg_end";
  if (r.data() == p.data()) throw InputError(std::string(who) + ": r and p are one field");
  const double m2 = params_.mass * params_.mass + shift;
  detail::StaggeredFold update;
  update.kind = detail::StaggeredFold::cg_residual;
  update.device = blas::slot_address(who, "r2_new", r2_new, exec_, false);
  update.host = blas::slot_address(who, "r2_new", r2_new, exec_, true);
  update.r2 = blas::slot_address(who, "r2", r2, exec_, false);
  update.pAp = blas::slot_address(who, "pAp", pAp, exec_, false, 2);
  // t = D_oe p from M_cg_begin: r -= alpha (m2 p - D_eo t); |r|^2
  apply(r, temporary(SiteSubset::odd), 0, false, &p, m2, -1.0, &update);
}

void StaggeredDirac::Mdag(SpinorField& out, const SpinorField& in) const {
  if (params_.even_odd) return M(out, in);  // Hermitian
  if (out.data() == in.data()) throw InputError("staggered Mdag: the output and the input are one field");
  apply(out, in, -1, false, &in, params_.mass, -1.0);
}

void StaggeredDirac::M_full(SpinorField& out, const SpinorField& in) const {
  if (out.params().subset != SiteSubset::full || in.params().subset != SiteSubset::full)
    throw InputError("staggered M_full: expected full-lattice fields, found " + out.params().describe() + " and " +
                     in.params().describe());
  if (out.data() == in.data()) throw InputError("staggered M_full: the output and the input are one field");
  apply(out, in, -1, false, &in, params_.mass, 1.0);  // m + D on all sites
}

void StaggeredDirac::prepare(SpinorField& b_pc, const SpinorField& b_full) const {
  if (b_full.params().subset != SiteSubset::full)
    throw InputError("staggered prepare: the source must be a full-lattice field");
  if (!params_.even_odd) return copy_vector(b_pc, b_full, exec_);
  // b_e' = m b_e - D_eo b_o
  apply(b_pc, b_full, 0, false, &b_full, params_.mass, -1.0);
}

void StaggeredDirac::reconstruct(SpinorField& x_full, const SpinorField& x_pc, const SpinorField& b_full) const {
  if (x_full.params().subset != SiteSubset::full || b_full.params().subset != SiteSubset::full)
    throw InputError("staggered reconstruct: the solution and the source must be full-lattice fields");
  if (!params_.even_odd) return copy_vector(x_full, x_pc, exec_);
  if (x_pc.params().subset != SiteSubset::even)
    throw InputError("staggered reconstruct: the preconditioned solution must hold the even sites");
  const double m = params_.mass;
  apply(x_full, x_pc, 0, false, &x_pc, 1.0, 0.0);          // x_e (a copy: no hops)
  apply(x_full, x_pc, 1, false, &b_full, 1.0 / m, -1.0 / m);  // x_o = (b_o - D_oe x_e) / m
}

double StaggeredDirac::dslash_flops(bool xpay) const {
  return static_cast<double>(fat_.geometry().half_volume()) * (flops_per_site() + (xpay ? 12.0 : 0.0));
}

double StaggeredDirac::flops_M() const {
  if (params_.even_odd) return dslash_flops(false) + dslash_flops(true);
  return 2.0 * dslash_flops(true);
}

double StaggeredDirac::dslash_bytes(bool xpay) const {
  const Geometry& g = fat_.geometry();
  const double w = bytes_per_real(params_.precision);
  const double norm = params_.precision == Precision::half ? 4.0 : 0.0;
  double link_reals = stored_reals(fat_.params().reconstruct);
  if (improved_) link_reals += stored_reals(long_.params().reconstruct);
  const double vectors = 2.0 + (xpay ? 1.0 : 0.0);
  return 4.0 * static_cast<double>(g.volume()) * link_reals * w +
         static_cast<double>(g.half_volume()) * vectors * (6.0 * w + norm);
}

namespace detail {

std::unique_ptr<DiracOperator> make_staggered(const DiracParams& p, const GaugeField& u, const runtime::Exec& ex) {
  return std::make_unique<StaggeredDirac>(p, u, ex);
}

std::unique_ptr<DiracOperator> make_improved_staggered_impl(const DiracParams& p, const GaugeField& fat,
                                                            const GaugeField& longlinks, const runtime::Exec& ex) {
  DiracParams q = p;
  q.type = DiracType::improved_staggered;
  return std::make_unique<StaggeredDirac>(q, fat, longlinks, ex);
}

}  // namespace detail

}  // namespace gluon::qcd
