#pragma once
// Typed, GLUON_HD read/write access to a GaugeField's storage, for kernels.
//
//   GaugeAccessor<Store, R>   Store = double | float | int16_t (half); R = r18 | r12 | r8.
//                             load(s, mu) -> Matrix3<real>, store(s, mu, m); load_link(s, mu)
//                             -> what U * h / adj_mul(U, h) take (Matrix3, or PivotedLink for
//                             r8); real is double for
//                             double storage and float otherwise. r12/r8 links are rebuilt
//                             (reconstruct.h); storing into them assumes m is in SU(3).
//                             load_real/store_real give the raw stored reals (decoded with the
//                             slot's half scale), for conversions that keep the compression.
//                             BlockedOnDevice: device code assumes the blocked order, the only one
//                             a stencil kernel then compiles (field_layout.h).
//   RealCodec<Store>          stored <-> computed real, with a scale for half storage
//   dispatch_gauge(field, f)  calls f(accessor) with the accessor matching the field's run-time
//                             precision and compression, so a kernel is written once as a template.
//
// The accessor is a trivially copyable view (pointer + layout): capture it by value in kernels.
// It does not own memory, and it is only valid where the field's memory is (host or device).
#include <cstdint>
#include <type_traits>
#include <utility>

#include "gluon/qcd/field_layout.h"
#include "gluon/qcd/gauge_field.h"
#include "gluon/qcd/precision.h"
#include "gluon/qcd/reconstruct.h"
#include "gluon/qcd/su3.h"
#include "gluon/runtime/error.h"

namespace gluon::qcd {

template <class Store> struct compute_of { using type = float; };
template <> struct compute_of<double> { using type = double; };

// Converts between stored and computed reals. Half values are int16 / 32767 * scale: scale 1 for
// link entries (|u_ij| <= 1), the r8 angle slots' range for those (half_scale<R>(r)), a per-site
// norm for spinors. Float and double ignore the scale.
template <class Store> struct RealCodec {
  template <class T> GLUON_HD_INLINE static Store encode(T x, float /*scale*/ = 1.0f) {
    return static_cast<Store>(x);
  }
  GLUON_HD_INLINE static typename compute_of<Store>::type decode(Store x, float /*scale*/ = 1.0f) {
    return x;
  }
};
template <> struct RealCodec<std::int16_t> {
  template <class T> GLUON_HD_INLINE static std::int16_t encode(T x, float scale = 1.0f) {
    return to_half(static_cast<float>(x), 1.0f / scale);
  }
  GLUON_HD_INLINE static float decode(std::int16_t x, float scale = 1.0f) { return from_half(x, scale); }
};

template <class Store> inline constexpr bool is_half_store = std::is_same_v<Store, std::int16_t>;

// A half r12 link times 32767 as GaugeAccessor::load_link_unscaled builds it: rows 0 and 1 are
// the stored integers, row 2 (their conjugate cross product) is 32767 times too large still. The
// products scale the one colour component that row touches (U h: component 2 of the result;
// U^+ h: component 2 of h): 2 multiplies a product, where scaling the row took 6.
template <class T>
struct HalfR12Link {
  Matrix3<T> m;
};
template <class T>
GLUON_HD_INLINE ColorVector<T> operator*(const HalfR12Link<T>& u, const ColorVector<T>& h) {
  ColorVector<T> r = u.m * h;
  r.c[2] *= T(1.0f / kHalfMax);
  return r;
}
template <class T>
GLUON_HD_INLINE ColorVector<T> adj_mul(const HalfR12Link<T>& u, const ColorVector<T>& h) {
  ColorVector<T> g = h;
  g.c[2] *= T(1.0f / kHalfMax);
  return adj_mul(u.m, g);
}

template <class Store, Reconstruct R, bool BlockedOnDevice = false>
struct GaugeAccessor {
  using store_type = Store;
  using real = typename compute_of<Store>::type;
  using matrix = Matrix3<real>;
  static constexpr Reconstruct recon = R;
  static constexpr int nreals = stored_reals(R);

  Store* data;
  FieldLayout layout;

  // Stored real r of link (s, mu), decoded (half: times the slot's scale).
  GLUON_HD_INLINE real load_real(std::int64_t s, int mu, int r) const {
    return RealCodec<Store>::decode(data[layout.offset(s, mu, r)], half_scale<R>(r));
  }
  template <class T> GLUON_HD_INLINE void store_real(std::int64_t s, int mu, int r, T x) const {
    data[layout.offset(s, mu, r)] = RealCodec<Store>::encode(x, half_scale<R>(r));
  }

  GLUON_HD_INLINE matrix load(std::int64_t s, int mu) const {
    real v[nreals];
    decode(s, mu, v);
    return Recon<R>::template unpack<real>(v);
  }
  // The link in the form a stencil multiplies colour vectors by (U * h, adj_mul(U, h)): the
  // matrix, or for r8 the pivoted matrix with its pivots (PivotedLink), which is cheaper to
  // apply than to undo.
  GLUON_HD_INLINE auto load_link(std::int64_t s, int mu) const {
    real v[nreals];
    decode(s, mu, v);
    if constexpr (R == Reconstruct::r8) return Recon<R>::template unpack_pivoted<real>(v);
    else return Recon<R>::template unpack<real>(v);
  }
  // The constant factor load_link_unscaled's link lacks: 1/32767 for half r18/r12, 1 otherwise.
  static constexpr float unscaled_factor = is_half_store<Store> && R != Reconstruct::r8 ? 1.0f / kHalfMax : 1.0f;
  // As load_link, but with the factors a stencil can apply to its hop's scalar instead of to
  // each product (3 to 6 reals) or each link entry (12 or 18) left out: half r18/r12 links come
  // back times 32767 (the stored integers, converted without each entry's 1/32767; r12 as a
  // HalfR12Link, whose rebuilt row is scaled in the product), unscaled_factor to be folded into
  // the neighbour's own factor; r8 links as a FactoredLink (W's rows 1 and 2 not formed; in
  // double a SignlessPivotedLink), their sign to be applied by with_link_sign. r18/r12 in double
  // and single: load_link's matrix.
  // (Tried: converting each int16 as the int32 holding it in its top half, so that ptxas emits
  // full-rate I2FP instead of quarter-rate I2F, the 2^16 folded into the factor: the shifts cost
  // more issue slots than the I2F did, half Wilson -5%, clover -3%; H200, trip 6 of
  // bench/results/2026-11-24-half-projection-h200.)
  GLUON_HD_INLINE auto load_link_unscaled(std::int64_t s, int mu) const {
    if constexpr (is_half_store<Store> && R != Reconstruct::r8) {
      Store raw[nreals];
      load_reals<Store, nreals, BlockedOnDevice, BlockedOnDevice>(data, layout, s, mu, raw);
      real v[nreals];
      GLUON_UNROLL
      for (int r = 0; r < nreals; ++r) v[r] = static_cast<real>(raw[r]);
      if constexpr (R == Reconstruct::r12) return HalfR12Link<real>{Recon<R>::template unpack<real>(v)};
      else return Recon<R>::template unpack<real>(v);
    } else if constexpr (R == Reconstruct::r8) {
      real v[nreals];
      decode(s, mu, v);
      // In double the factored form's extra products cost more than the cofactors it skips
      // (Wilson double r8 7.6% slower on an H200; single 2.6% and half 3.9% faster;
      // bench/results/2026-11-27-r8-factored/).
      if constexpr (std::is_same_v<real, double>)
        return SignlessPivotedLink<real>{Recon<R>::template unpack_pivoted<real>(v)};
      else
        return Recon<R>::template unpack_factored<real>(v);
    } else {
      return load_link(s, mu);
    }
  }
  GLUON_HD_INLINE void decode(std::int64_t s, int mu, real* v) const {
    Store raw[nreals];
    // A stencil (BlockedOnDevice) reads each link once per application: evict-first.
    load_reals<Store, nreals, BlockedOnDevice, BlockedOnDevice>(data, layout, s, mu, raw);
    GLUON_UNROLL
    for (int r = 0; r < nreals; ++r) v[r] = RealCodec<Store>::decode(raw[r], half_scale<R>(r));
  }
  GLUON_HD_INLINE void store(std::int64_t s, int mu, const matrix& m) const {
    real v[nreals];
    if constexpr (R == Reconstruct::r8 && is_half_store<Store>)
      Recon<R>::template pack<real>(m, v, real(kR8HalfThreshold));
    else
      Recon<R>::template pack<real>(m, v);
    Store raw[nreals];
    GLUON_UNROLL
    for (int r = 0; r < nreals; ++r) raw[r] = RealCodec<Store>::encode(v[r], half_scale<R>(r));
    store_reals<Store, nreals, BlockedOnDevice>(data, layout, s, mu, raw);
  }
};

template <class Store, Reconstruct R, bool BlockedOnDevice = false>
GaugeAccessor<Store, R, BlockedOnDevice> make_accessor(GaugeField& u) {
  return {static_cast<Store*>(u.data()), u.layout()};
}

// f(accessor) for the field's precision x reconstruct. The accessor is non-const; kernels that
// only read simply do not call store().
template <class F>
decltype(auto) dispatch_gauge(GaugeField& u, F&& f) {
  const auto& p = u.params();
  auto by_recon = [&](auto store_tag) -> decltype(auto) {
    using Store = decltype(store_tag);
    switch (p.reconstruct) {
      case Reconstruct::r18: return f(make_accessor<Store, Reconstruct::r18>(u));
      case Reconstruct::r12: return f(make_accessor<Store, Reconstruct::r12>(u));
      case Reconstruct::r8: return f(make_accessor<Store, Reconstruct::r8>(u));
    }
    throw Error("dispatch_gauge: unknown reconstruct");
  };
  switch (p.precision) {
    case Precision::double_: return by_recon(double{});
    case Precision::single: return by_recon(float{});
    case Precision::half: return by_recon(std::int16_t{});
  }
  throw Error("dispatch_gauge: unknown precision");
}

template <class F>
decltype(auto) dispatch_gauge(const GaugeField& u, F&& f) {
  return dispatch_gauge(const_cast<GaugeField&>(u), std::forward<F>(f));
}

}  // namespace gluon::qcd
