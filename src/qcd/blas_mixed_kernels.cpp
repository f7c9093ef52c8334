// BLAS-1 across precisions (qcd/blas.h, "Across precisions"): the two passes of a reliable
// update that touch the outer-precision and the sloppy vectors together, each one kernel where it
// was a conversion (which waits for the device), a BLAS call and a zero fill before.
//
// Instantiated for an outer precision of double or single with any sloppy precision, on the
// accessors the BLAS kernels use (blocked order on the GPU, blas_kernels.h). Any other combination
// (a half outer precision, a non-blocked field on the GPU) takes the unfused sequence.
#include <cstdint>
#include <string>

#include "blas_kernels.h"
#include "gluon/comm/environment.h"
#include "gluon/qcd/blas.h"
#include "gluon/qcd/spinor_accessor.h"
#include "gluon/runtime/error.h"
#include "gluon/runtime/parallel.h"
#include "ops_support.h"

namespace gluon::qcd::blas {

namespace {

// x += xs; xs = 0.
template <class X, class Xs>
struct AccumulateZeroK {
  X x;
  Xs xs;
  GLUON_HD void operator()(std::int64_t s) const {
    auto v = x.load(s);
    const auto w = xs.load(s);
    GLUON_UNROLL_FULL
    for (int r = 0; r < X::nreals; ++r) spinor_real(v, r) += static_cast<typename X::real>(spinor_real(w, r));
    x.store(s, v);
    xs.store(s, typename Xs::value_type{});
  }
};

// r = b - r; rs = r; the site's |r|^2 (of r as computed, before either store rounds it).
template <class R, class Rs>
struct XmyNorm2CopyK {
  R b, r;
  Rs rs;
  GLUON_HD qcd::detail::DoubleSums<1> operator()(std::int64_t s) const {
    const auto vb = b.load(s);
    auto v = r.load(s);
    double n = 0.0;
    GLUON_UNROLL_FULL
    for (int k = 0; k < R::nreals; ++k) {
      auto& e = spinor_real(v, k);
      e = spinor_real(vb, k) - e;
      n += static_cast<double>(e) * static_cast<double>(e);
    }
    r.store(s, v);
    rs.store(s, v);
    return {{n}};
  }
};

template <class Store, int nspin, bool Blocked>
SpinorAccessor<Store, nspin, Blocked> accessor(const SpinorField& f) {
  return make_spinor_accessor<Store, nspin, Blocked>(const_cast<SpinorField&>(f));
}

// f(outer store tag, sloppy store tag, nspin constant, blocked constant) for the instantiated
// combinations; false when there is none (the caller then runs the unfused sequence).
template <class F>
bool dispatch_pair(const SpinorField& outer, const SpinorField& sloppy, const runtime::Exec& ex, F&& f) {
  const Precision po = outer.params().precision, ps = sloppy.params().precision;
  if (po == Precision::half) return false;
  const bool blocked =
      outer.layout().order == FieldOrder::blocked && sloppy.layout().order == FieldOrder::blocked;
  auto by_layout = [&](auto o, auto s, auto spins) {
#if GLUON_HAVE_CUDA
    if (ex.on_device()) {
      if (!blocked) return false;
      f(o, s, spins, std::true_type{});
      return true;
    }
#endif
    (void)blocked;
    (void)ex;
    f(o, s, spins, std::false_type{});
    return true;
  };
  auto by_spin = [&](auto o, auto s) {
    if (outer.params().nspin == 4) return by_layout(o, s, std::integral_constant<int, 4>{});
    return by_layout(o, s, std::integral_constant<int, 1>{});
  };
  auto by_sloppy = [&](auto o) {
    switch (ps) {
      case Precision::double_: return by_spin(o, double{});
      case Precision::single: return by_spin(o, float{});
      case Precision::half: return by_spin(o, std::int16_t{});
    }
    return false;
  };
  return po == Precision::double_ ? by_sloppy(double{}) : by_sloppy(float{});
}

// check_operands (blas_kernels.h) across precisions, and the sloppy operand (the last) is none of
// the others: it is overwritten whole.
void check(const char* kernel, std::initializer_list<detail::Operand> ops, const runtime::Exec& ex) {
  detail::check_operands(kernel, ops, ex, false);
  const detail::Operand& last = *(ops.end() - 1);
  for (const detail::Operand& o : ops)
    if (o.first != last.first && o.second == last.second)
      throw InputError(std::string("blas::") + kernel + ": operands " + o.first + " and " + last.first +
                       " must be different fields");
}

bool split(const SpinorField& f) {
  const Coords& g = f.geometry().grid();
  return g[0] * g[1] * g[2] * g[3] > 1;
}

}  // namespace

void accumulate(SpinorField& x, SpinorField& xs, const runtime::Exec& ex) {
  check("accumulate", {{"x", &x}, {"xs", &xs}}, ex);
  const std::int64_t n = x.params().sites();
  if (n == 0) return;
  const bool fused = dispatch_pair(x, xs, ex, [&](auto o, auto s, auto spins, auto blocked) {
    using O = decltype(o);
    using S = decltype(s);
    constexpr int ns = decltype(spins)::value;
    constexpr bool b = decltype(blocked)::value;
    runtime::parallel_for(ex, "blas_accumulate", n,
                          AccumulateZeroK<SpinorAccessor<O, ns, b>, SpinorAccessor<S, ns, b>>{
                              accessor<O, ns, b>(x), accessor<S, ns, b>(xs)});
  });
  if (fused) return;
  SpinorField tmp(x.params());
  copy(tmp, xs, ex);
  axpy(1.0, tmp, x, ex);
  zero(xs, ex);
}

double xmy_norm2_copy(const SpinorField& b, SpinorField& r, SpinorField& rs, const runtime::Exec& ex) {
  detail::check_operands("xmy_norm2_copy", {{"b", &b}, {"r", &r}}, ex, true);
  check("xmy_norm2_copy", {{"b", &b}, {"r", &r}, {"rs", &rs}}, ex);
  const std::int64_t n = r.params().sites();
  double r2 = 0.0;
  const bool fused = dispatch_pair(r, rs, ex, [&](auto o, auto s, auto spins, auto blocked) {
    using O = decltype(o);
    using S = decltype(s);
    constexpr int ns = decltype(spins)::value;
    constexpr bool bl = decltype(blocked)::value;
    using K = XmyNorm2CopyK<SpinorAccessor<O, ns, bl>, SpinorAccessor<S, ns, bl>>;
    r2 = runtime::parallel_reduce<qcd::detail::DoubleSums<1>>(
             ex, "blas_xmy_norm2_copy", n, K{accessor<O, ns, bl>(b), accessor<O, ns, bl>(r), accessor<S, ns, bl>(rs)})
             .v[0];
  });
  if (!fused) {
    r2 = xmy_norm2(b, r, ex);  // summed over the world already
    copy(rs, r, ex);
    return r2;
  }
  if (split(r)) comm::world().allreduce_sum(&r2, 1);
  return r2;
}

}  // namespace gluon::qcd::blas
