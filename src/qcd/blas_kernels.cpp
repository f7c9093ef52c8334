// BLAS-1 on spinor fields (qcd/blas.h): operand validation, precision dispatch, and the
// double-precision instantiation of the kernels (single and half live in their own files so that
// nvcc compiles the three in parallel). The functors are in blas_kernels.h.
#include <functional>
#include <initializer_list>
#include <string>
#include <utility>

#include "blas_kernels.h"
#include "gluon/comm/environment.h"
#include "gluon/qcd/blas.h"
#include "gluon/qcd/field_convert.h"
#include "gluon/runtime/error.h"
#include "ops_support.h"

namespace gluon::qcd::blas {

namespace detail {

Sums run_double(Op op, const Args& args, const runtime::Exec& ex) {
  return run_store<double>(op, args, ex);
}

const char* subset_name(SiteSubset s) {
  return s == SiteSubset::full ? "full" : s == SiteSubset::even ? "even" : "odd";
}

void check_operands(const char* kernel, std::initializer_list<Operand> ops, const runtime::Exec& ex,
                    bool same_precision) {
  const Operand& first = *ops.begin();
  const SpinorFieldParams& p0 = first.second->params();
  for (const Operand& o : ops) {
    const SpinorFieldParams& p = o.second->params();
    const std::string where = std::string("blas::") + kernel + ": operand " + o.first;
    if (o.second != first.second) {
      if (same_precision && p.precision != p0.precision)
        throw InputError(where + ": precision: expected " + to_string(p0.precision) + " (that of " +
                         first.first + "), found " + to_string(p.precision));
      if (p.nspin != p0.nspin)
        throw InputError(where + ": nspin: expected " + std::to_string(p0.nspin) + " (that of " +
                         first.first + "), found " + std::to_string(p.nspin));
      if (p.subset != p0.subset)
        throw InputError(where + ": site subset: expected " + subset_name(p0.subset) + " (that of " +
                         first.first + "), found " + subset_name(p.subset));
      if (!(p.geometry == p0.geometry))
        throw InputError(where + ": geometry: expected " + p0.geometry.to_string() + " (that of " +
                         first.first + "), found " + p.geometry.to_string());
    }
    if (p.sites() > 0 && o.second->data() == nullptr)
      throw InputError(where + ": the field is not allocated (" + p.describe() + ")");
    qcd::detail::require_memory_for(p.space, p.device, ex, where);
  }
}

namespace {

// Checks the operands (check_operands); fills args.f, nspin, sites.
void prepare(const char* kernel, std::initializer_list<Operand> ops, Args& args, const runtime::Exec& ex) {
  check_operands(kernel, ops, ex, true);
  int k = 0;
  for (const Operand& o : ops) args.f[k++] = const_cast<SpinorField*>(o.second);
  const SpinorFieldParams& p0 = ops.begin()->second->params();
  args.nspin = p0.nspin;
  args.sites = p0.sites();
}

int reductions(Op op) {
  switch (op) {
    case Op::norm2: case Op::re_dot: case Op::axpy_norm2: case Op::caxpy_norm2: case Op::xmy_norm2:
    case Op::cg_update: case Op::cg_residual: case Op::bicgstab_s: case Op::bicgstab_step:
    case Op::bicgstab_step_slots:
      return 1;
    case Op::cdot: case Op::cdot_norm2: case Op::bicgstab_r0v:
      return 3;
    case Op::bicgstab_ts:
      return kTsSums;
    default:
      return 0;
  }
}
Sums run_local(Op op, const Args& args, const runtime::Exec& ex) {
  if (args.sites == 0 && args.out_host == nullptr) return Sums{};  // a queued reduction still writes its zero
  switch (args.f[0]->params().precision) {
    case Precision::double_: return run_double(op, args, ex);
    case Precision::single: return run_single(op, args, ex);
    case Precision::half: return run_half(op, args, ex);
  }
  throw Error("blas: unknown precision");
}

// On a lattice split over ranks, reductions are summed over the world (the process grid spans
// it), so every rank's solver sees the same numbers and takes the same decisions.
// Recomputes, from the world's sums, what a queued reduction's finish() derived from this rank's.
using Refinish = std::function<void(const Sums&)>;

Sums run(Op op, const char* kernel, std::initializer_list<Operand> ops, Args args, const runtime::Exec& ex,
         runtime::ScalarSlots* async_slots = nullptr, int async_first = 0, const Refinish& refinish = {}) {
  prepare(kernel, ops, args, ex);
  Sums r = run_local(op, args, ex);
  const int nred = reductions(op);
  const Coords& grid = args.f[0]->geometry().grid();
  if (nred == 0 || grid[0] * grid[1] * grid[2] * grid[3] == 1) return r;
  if (async_slots == nullptr) {
    comm::world().allreduce_sum(r.v, nred);
    return r;
  }
  // A queued reduction on a split lattice: wait for this rank's sums, add them over the world,
  // and put the totals back where the next kernels read them.
  runtime::ScalarSlots& slots = *async_slots;
  slots.record();
  slots.wait();
  for (int i = 0; i < nred; ++i) r.v[i] = slots.host(async_first + i);
  comm::world().allreduce_sum(r.v, nred);
  for (int i = 0; i < nred; ++i) slots.set(async_first + i, r.v[i]);
  if (refinish) refinish(r);
  return r;
}

Args coeffs(complexd a = {}, complexd b = {}) {
  Args r;
  r.a = a;
  r.b = b;
  return r;
}

}  // namespace
}  // namespace detail

using detail::Op;
using detail::coeffs;
using detail::run;

void zero(SpinorField& x, const runtime::Exec& ex) { run(Op::zero, "zero", {{"x", &x}}, coeffs(), ex); }

void copy(SpinorField& dst, const SpinorField& src, const runtime::Exec& ex) {
  if (&dst == &src) return;
  convert(src, dst, ex);
}

void scale(double a, SpinorField& x, const runtime::Exec& ex) {
  run(Op::scale, "scale", {{"x", &x}}, coeffs(a), ex);
}

void axpy(double a, const SpinorField& x, SpinorField& y, const runtime::Exec& ex) {
  run(Op::axpy, "axpy", {{"x", &x}, {"y", &y}}, coeffs(a), ex);
}

void xpay(const SpinorField& x, double a, SpinorField& y, const runtime::Exec& ex) {
  run(Op::xpay, "xpay", {{"x", &x}, {"y", &y}}, coeffs(a), ex);
}

void axpby(double a, const SpinorField& x, double b, SpinorField& y, const runtime::Exec& ex) {
  run(Op::axpby, "axpby", {{"x", &x}, {"y", &y}}, coeffs(a, b), ex);
}

void caxpy(complexd a, const SpinorField& x, SpinorField& y, const runtime::Exec& ex) {
  run(Op::caxpy, "caxpy", {{"x", &x}, {"y", &y}}, coeffs(a), ex);
}

void caxpby(complexd a, const SpinorField& x, complexd b, SpinorField& y, const runtime::Exec& ex) {
  run(Op::caxpby, "caxpby", {{"x", &x}, {"y", &y}}, coeffs(a, b), ex);
}

double norm2(const SpinorField& x, const runtime::Exec& ex) {
  return run(Op::norm2, "norm2", {{"x", &x}}, coeffs(), ex).v[0];
}

complexd cdot(const SpinorField& x, const SpinorField& y, const runtime::Exec& ex) {
  const auto r = run(Op::cdot, "cdot", {{"x", &x}, {"y", &y}}, coeffs(), ex);
  return {r.v[0], r.v[1]};
}

double re_dot(const SpinorField& x, const SpinorField& y, const runtime::Exec& ex) {
  return run(Op::re_dot, "re_dot", {{"x", &x}, {"y", &y}}, coeffs(), ex).v[0];
}

double axpy_norm2(double a, const SpinorField& x, SpinorField& y, const runtime::Exec& ex) {
  return run(Op::axpy_norm2, "axpy_norm2", {{"x", &x}, {"y", &y}}, coeffs(a), ex).v[0];
}

double caxpy_norm2(complexd a, const SpinorField& x, SpinorField& y, const runtime::Exec& ex) {
  return run(Op::caxpy_norm2, "caxpy_norm2", {{"x", &x}, {"y", &y}}, coeffs(a), ex).v[0];
}

double xmy_norm2(const SpinorField& x, SpinorField& y, const runtime::Exec& ex) {
  return run(Op::xmy_norm2, "xmy_norm2", {{"x", &x}, {"y", &y}}, coeffs(), ex).v[0];
}

double cg_update(double a, const SpinorField& p, const SpinorField& Ap, SpinorField& x, SpinorField& r,
                 const runtime::Exec& ex) {
  return run(Op::cg_update, "cg_update", {{"p", &p}, {"Ap", &Ap}, {"x", &x}, {"r", &r}}, coeffs(a), ex)
      .v[0];
}

void axpy_zpbx(double a, SpinorField& p, SpinorField& x, const SpinorField& r, double b,
               const runtime::Exec& ex) {
  run(Op::axpy_zpbx, "axpy_zpbx", {{"p", &p}, {"x", &x}, {"r", &r}}, coeffs(a, b), ex);
}

DotNorm cdot_norm2(const SpinorField& x, const SpinorField& y, const runtime::Exec& ex) {
  const auto r = run(Op::cdot_norm2, "cdot_norm2", {{"x", &x}, {"y", &y}}, coeffs(), ex);
  return {{r.v[0], r.v[1]}, r.v[2]};
}

double bicgstab_step(complexd alpha, complexd omega, complexd beta, SpinorField& p, SpinorField& s,
                     const SpinorField& t, const SpinorField& v, SpinorField& x, const runtime::Exec& ex) {
  detail::Args args = coeffs(alpha, omega);
  args.c = beta;
  return run(Op::bicgstab_step, "bicgstab_step", {{"p", &p}, {"s", &s}, {"t", &t}, {"v", &v}, {"x", &x}}, args, ex)
      .v[0];
}

double* slot_address(const std::string& who, const char* name, Slot s, const runtime::Exec& ex, bool mirror,
                     int count) {
  const std::string where = who + ": slot " + name;
  if (s.slots == nullptr) throw InputError(where + ": no ScalarSlots given");
  const runtime::Exec& se = s.slots->exec();
  if (se.backend != ex.backend || (ex.backend == runtime::Backend::cuda && (se.device != ex.device || se.stream != ex.stream)))
    throw InputError(where + ": expected slots made for the call's backend, device and stream (" +
                     runtime::to_string(ex.backend) + " device " + std::to_string(ex.device) + "), found slots of " +
                     runtime::to_string(se.backend) + " device " + std::to_string(se.device) +
                     (se.stream != ex.stream ? " on another stream" : ""));
  if (s.index < 0 || s.index + count > s.slots->size())
    throw InputError(where + ": index " + std::to_string(s.index) + " (" + std::to_string(count) +
                     " values) outside the " + std::to_string(s.slots->size()) + " slots");
  return mirror ? s.slots->mirror(s.index) : s.slots->device(s.index);
}

namespace {
double* slot_ptr(const char* kernel, const char* name, Slot s, const runtime::Exec& ex, bool mirror, int count = 1) {
  return slot_address(std::string("blas::") + kernel, name, s, ex, mirror, count);
}
// A queued reduction's output: `count` slots from `out`, named `name` in errors.
void set_out(detail::Args& args, const char* kernel, const char* name, Slot out, int count, const runtime::Exec& ex) {
  args.out_host = slot_ptr(kernel, name, out, ex, true, count);
  args.out_device = slot_ptr(kernel, name, out, ex, false, count);
}
// A {Re, Im} pair the kernel reads.
const double* pair_in(const char* kernel, const char* name, Slot s, const runtime::Exec& ex) {
  return slot_ptr(kernel, name, s, ex, false, 2);
}
// A {Re, Im} pair a reduction's finish() writes, slot and mirror: its output i (Args::fin_out).
void pair_out(detail::Args& args, const char* kernel, const char* name, Slot s, const runtime::Exec& ex, int i = 0) {
  args.fin_out[i] = slot_ptr(kernel, name, s, ex, false, 2);
  args.fin_mirror[i] = slot_ptr(kernel, name, s, ex, true, 2);
}
}  // namespace

void re_dot(const SpinorField& x, const SpinorField& y, Slot out, const runtime::Exec& ex) {
  detail::Args args = coeffs();
  set_out(args, "re_dot", "out", out, 1, ex);
  run(Op::re_dot, "re_dot", {{"x", &x}, {"y", &y}}, args, ex, out.slots, out.index);
}

void cg_residual(Slot r2, Slot pAp, const SpinorField& Ap, SpinorField& r, Slot r2_new, const runtime::Exec& ex) {
  detail::Args args = coeffs();
  args.in[0] = slot_ptr("cg_residual", "r2", r2, ex, false);
  args.in[1] = slot_ptr("cg_residual", "pAp", pAp, ex, false);
  set_out(args, "cg_residual", "r2_new", r2_new, 1, ex);
  run(Op::cg_residual, "cg_residual", {{"Ap", &Ap}, {"r", &r}}, args, ex, r2_new.slots, r2_new.index);
}

void cg_step(Slot r2, Slot pAp, Slot r2_new, SpinorField& p, SpinorField& x, const SpinorField& r,
             const runtime::Exec& ex) {
  detail::Args args = coeffs();
  args.in[0] = slot_ptr("cg_step", "r2", r2, ex, false);
  args.in[1] = slot_ptr("cg_step", "pAp", pAp, ex, false);
  args.in[2] = slot_ptr("cg_step", "r2_new", r2_new, ex, false);
  run(Op::cg_step, "cg_step", {{"p", &p}, {"p", &p}, {"r", &r}, {"x", &x}}, args, ex);
}

namespace {
// Each term's vector is set and matches `first` as a BLAS operand; none is one of `distinct`
// (the vectors the call writes).
void check_terms(const char* kernel, const std::vector<AxpyTerm>& terms, const detail::Operand& first,
                 std::initializer_list<const SpinorField*> distinct, const runtime::Exec& ex) {
  for (std::size_t i = 0; i < terms.size(); ++i) {
    const std::string vi = "v[" + std::to_string(i) + "]";
    const std::string where = std::string("blas::") + kernel + ": term " + vi;
    if (terms[i].v == nullptr) throw InputError(where + ": no vector given");
    for (const SpinorField* d : distinct)
      if (terms[i].v == d) throw InputError(where + ": a term's vector must not be one the call writes");
    detail::Args check;
    detail::prepare(kernel, {first, {vi.c_str(), terms[i].v}}, check, ex);
  }
}
}  // namespace

void cg_step_batched(Slot r2, Slot pAp, Slot r2_new, const SpinorField& p, SpinorField& p_next,
                     const SpinorField& r, SpinorField* x, const std::vector<AxpyTerm>& terms,
                     const runtime::Exec& ex) {
  const char* k = "cg_step_batched";
  if (x == nullptr && !terms.empty())
    throw InputError("blas::cg_step_batched: terms given without x to add them to");
  if (static_cast<int>(terms.size()) > kMaxAxpyTerms - 1)
    throw InputError("blas::cg_step_batched: at most " + std::to_string(kMaxAxpyTerms - 1) + " terms, found " +
                     std::to_string(terms.size()));
  if (x != nullptr && (x == &p_next || x == &p || x == &r))
    throw InputError("blas::cg_step_batched: x must be a vector of its own (not p, p_next or r)");
  if (&p_next == &r) throw InputError("blas::cg_step_batched: p_next must not be r");
  check_terms(k, terms, {"p", &p}, {&p_next, x}, ex);
  detail::Args args = coeffs();
  args.in[0] = slot_ptr(k, "r2", r2, ex, false);
  args.in[1] = slot_ptr(k, "pAp", pAp, ex, false);
  args.in[2] = slot_ptr(k, "r2_new", r2_new, ex, false);
  args.terms = &terms;
  if (x != nullptr)
    run(Op::cg_step, k, {{"p", &p}, {"p_next", &p_next}, {"r", &r}, {"x", x}}, args, ex);
  else
    run(Op::cg_step, k, {{"p", &p}, {"p_next", &p_next}, {"r", &r}}, args, ex);
}

void axpy_sum(const std::vector<AxpyTerm>& terms, SpinorField& x, const runtime::Exec& ex) {
  if (terms.empty()) return;
  check_terms("axpy_sum", terms, {"x", &x}, {&x}, ex);
  detail::Args args = coeffs();
  args.terms = &terms;
  run(Op::axpy_sum, "axpy_sum", {{"x", &x}}, args, ex);
}

namespace {
// {Re, Im} of a slot pair as the host sees it (after the wait of the split-lattice path).
struct HostPair {
  double v[2];
  explicit HostPair(Slot s) : v{s.slots->host(s.index), s.slots->host(s.index + 1)} {}
};
// Runs finisher `fin` (its output redirected to z) on the world's sums and sets the slot pair.
template <class Fin>
detail::Refinish refinish_into(Slot out, Fin fin, detail::PairOut Fin::*target) {
  return [out, fin, target](const detail::Sums& world) mutable {
    double z[2];
    fin.*target = detail::PairOut{z, z};
    fin.finish(qcd::detail::DoubleSums<3>{{world.v[0], world.v[1], world.v[2]}});
    out.slots->set(out.index, z[0]);
    out.slots->set(out.index + 1, z[1]);
  };
}
// The ts finisher run again on the world's sums (a split lattice): omega, rho_next and beta.
detail::Refinish ts_refinish(const TsSlots& sl) {
  return [sl](const detail::Sums& world) {
    const HostPair rh(sl.rho), al(sl.alpha);
    double w[2], rn[2], be[2];
    qcd::detail::DoubleSums<detail::kTsSums> sums;
    for (int i = 0; i < detail::kTsSums; ++i) sums.v[i] = world.v[i];
    detail::OmegaFinish{{w, w}, rh.v, al.v, {rn, rn}, {be, be}}.finish(sums);
    for (auto [slot, z] : {std::pair{sl.omega, w}, std::pair{sl.rho_next, rn}, std::pair{sl.beta, be}}) {
      slot.slots->set(slot.index, z[0]);
      slot.slots->set(slot.index + 1, z[1]);
    }
  };
}
}  // namespace

void bicgstab_r0v(const SpinorField& r0, const SpinorField& v, Slot rho, Slot r0v, Slot alpha,
                  const runtime::Exec& ex) {
  detail::Args args = coeffs();
  args.in[0] = pair_in("bicgstab_r0v", "rho", rho, ex);
  pair_out(args, "bicgstab_r0v", "alpha", alpha, ex);
  set_out(args, "bicgstab_r0v", "r0v", r0v, 3, ex);
  auto refinish = [rho, alpha](const detail::Sums& world) {
    const HostPair rh(rho);
    refinish_into(alpha, detail::AlphaFinish{rh.v, {}}, &detail::AlphaFinish::alpha)(world);
  };
  run(Op::bicgstab_r0v, "bicgstab_r0v", {{"r0", &r0}, {"v", &v}}, args, ex, r0v.slots, r0v.index, refinish);
}

void bicgstab_s(Slot alpha, const SpinorField& v, SpinorField& r, Slot s2, const runtime::Exec& ex) {
  detail::Args args = coeffs();
  args.in[0] = pair_in("bicgstab_s", "alpha", alpha, ex);
  set_out(args, "bicgstab_s", "s2", s2, 1, ex);
  run(Op::bicgstab_s, "bicgstab_s", {{"v", &v}, {"r", &r}}, args, ex, s2.slots, s2.index);
}

void bicgstab_ts(const SpinorField& t, const SpinorField& s, const SpinorField& r0, const TsSlots& sl,
                 const runtime::Exec& ex) {
  const char* k = "bicgstab_ts";
  detail::Args args = coeffs();
  args.in[0] = pair_in(k, "rho", sl.rho, ex);
  args.in[1] = pair_in(k, "alpha", sl.alpha, ex);
  pair_out(args, k, "omega", sl.omega, ex);
  pair_out(args, k, "rho_next", sl.rho_next, ex, 1);
  pair_out(args, k, "beta", sl.beta, ex, 2);
  set_out(args, k, "ts", sl.ts, detail::kTsSums, ex);
  run(Op::bicgstab_ts, k, {{"t", &t}, {"s", &s}, {"r0", &r0}}, args, ex, sl.ts.slots, sl.ts.index,
      ts_refinish(sl));
}

void bicgstab_step(Slot alpha, Slot omega, Slot beta, SpinorField& p, SpinorField& s, const SpinorField& t,
                   const SpinorField& v, SpinorField& x, Slot r2, const runtime::Exec& ex) {
  const char* k = "bicgstab_step";
  detail::Args args = coeffs();
  args.in[0] = pair_in(k, "alpha", alpha, ex);
  args.in[1] = pair_in(k, "omega", omega, ex);
  args.in[2] = pair_in(k, "beta", beta, ex);
  set_out(args, k, "r2", r2, 1, ex);
  run(Op::bicgstab_step_slots, k, {{"p", &p}, {"s", &s}, {"t", &t}, {"v", &v}, {"x", &x}}, args, ex, r2.slots,
      r2.index);
}

void multishift_update(const SpinorField& r, const std::vector<ShiftUpdate>& shifts,
                       const runtime::Exec& ex) {
  if (shifts.empty()) return;
  detail::Args args = coeffs();
  args.shifts = &shifts;
  // Validate every shift's vectors against r (prepare takes a fixed list, so check in pairs).
  for (std::size_t i = 0; i < shifts.size(); ++i) {
    if (shifts[i].x == nullptr || shifts[i].p == nullptr)
      throw InputError("blas::multishift_update: shift " + std::to_string(i) + ": x and p must be set");
    detail::Args check;
    const std::string xi = "x[" + std::to_string(i) + "]", pi = "p[" + std::to_string(i) + "]";
    detail::prepare("multishift_update", {{"r", &r}, {xi.c_str(), shifts[i].x}, {pi.c_str(), shifts[i].p}},
                    check, ex);
  }
  run(Op::multishift, "multishift_update", {{"r", &r}}, args, ex);
}

void multishift_base_step(Slot r2, Slot r2_new, const SpinorField& r, SpinorField& p, SpinorField& r_copy,
                          SpinorField* p_save, const runtime::Exec& ex) {
  const char* k = "multishift_base_step";
  const SpinorField* distinct[] = {&r, &p, &r_copy, p_save};
  for (int i = 0; i < 4; ++i)
    for (int j = i + 1; j < 4; ++j)
      if (distinct[i] != nullptr && distinct[i] == distinct[j])
        throw InputError("blas::multishift_base_step: r, p, r_copy and p_save must be four fields");
  detail::Args args = coeffs();
  args.in[0] = slot_ptr(k, "r2", r2, ex, false);
  args.in[1] = args.in[0];  // (no alpha: the step reads beta = r2_new / r2 only)
  args.in[2] = slot_ptr(k, "r2_new", r2_new, ex, false);
  if (p_save == nullptr)
    run(Op::multishift_base, k, {{"r", &r}, {"p", &p}, {"r_copy", &r_copy}}, args, ex);
  else
    run(Op::multishift_base, k, {{"r", &r}, {"p", &p}, {"r_copy", &r_copy}, {"p_save", p_save}}, args, ex);
}

void multishift_window(const std::vector<const SpinorField*>& r, const std::vector<ShiftWindow>& shifts,
                       const runtime::Exec& ex) {
  const char* k = "multishift_window";
  if (shifts.empty()) return;
  if (r.empty() || r.size() > static_cast<std::size_t>(kMaxShiftWindow))
    throw InputError(std::string("blas::multishift_window: residuals: expected 1 to ") +
                     std::to_string(kMaxShiftWindow) + ", found " + std::to_string(r.size()));
  detail::Args args = coeffs();
  args.windows = &shifts;
  args.window_residuals = static_cast<int>(r.size());
  for (std::size_t j = 0; j < r.size(); ++j) {
    const std::string rj = "r[" + std::to_string(j) + "]";
    if (r[j] == nullptr) throw InputError("blas::multishift_window: " + rj + " must be set");
    detail::check_operands(k, {{"r[0]", r[0]}, {rj.c_str(), r[j]}}, ex, true);
    args.f[j] = const_cast<SpinorField*>(r[j]);
  }
  for (std::size_t i = 0; i < shifts.size(); ++i) {
    if (shifts[i].x == nullptr || shifts[i].p == nullptr)
      throw InputError("blas::multishift_window: shift " + std::to_string(i) + ": x and p must be set");
    const std::string xi = "x[" + std::to_string(i) + "]", pi = "p[" + std::to_string(i) + "]";
    detail::check_operands(k, {{"r[0]", r[0]}, {xi.c_str(), shifts[i].x}, {pi.c_str(), shifts[i].p}}, ex, true);
  }
  args.nspin = r[0]->params().nspin;
  args.sites = r[0]->params().sites();
  detail::run_local(Op::multishift_window, args, ex);
}

}  // namespace gluon::qcd::blas
