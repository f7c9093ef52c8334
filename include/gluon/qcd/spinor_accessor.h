#pragma once
// Typed, GLUON_HD read/write access to a SpinorField's storage, for kernels.
//
//   SpinorAccessor<Store, nspin>  Store = double | float | int16_t (half); nspin = 4 (Dirac,
//                                 value Spinor<real>) or 1 (staggered, value ColorVector<real>);
//                                 real is double for double storage and float otherwise.
//                                 load(s) / store(s, v) at site s of the field (the index within
//                                 the parity for even/odd fields). Half precision keeps one float
//                                 norm per site, norm = max |real component|, and stores each
//                                 component as round_to_half(x * (32767 / norm)) (no clamp: |x|
//                                 <= norm); a zero site stores norm 0, a site with a NaN norm NaN.
//                                 load_unscaled(s, scale[, factor]): the stored values without
//                                 the per-site factor, which comes back in `scale` (norm / 32767
//                                 for half, 1 otherwise; times the constant `factor`): a linear
//                                 kernel applies it once to a smaller intermediate (the staggered
//                                 hop: to U v). load_raw(s, scale[, factor]): half only, the
//                                 stored integers as int (the Wilson hop projects them exactly).
//                                 Real r of a site is (spin * 3 + colour) * 2 + (0 re, 1 im), the
//                                 order of the canonical Spinor<double> in memory.
//                                 BlockedOnDevice: device code assumes the blocked order, the only
//                                 one a stencil kernel then compiles (field_layout.h).
//                                 load_chiral(s, h) / store_chiral(s, h, v): spins 2h, 2h + 1 of
//                                 a Dirac spinor in double or single storage (ChiralHalf): the
//                                 part of a site one of two threads sharing it owns (not half
//                                 storage: its norm spans the whole site).
//   spinor_real(v, r)             real r of a Spinor or ColorVector (reference), GLUON_HD
//   dispatch_spinor(field, f)     calls f(accessor) with the accessor matching the field's
//                                 run-time precision and nspin.
//
// Like GaugeAccessor, a trivially copyable view (pointers + layout), valid where the memory is.
#include <cstdint>
#include <type_traits>
#include <utility>

#include "gluon/qcd/field_layout.h"
#include "gluon/qcd/gauge_accessor.h"
#include "gluon/qcd/precision.h"
#include "gluon/qcd/spinor.h"
#include "gluon/qcd/spinor_field.h"
#include "gluon/runtime/error.h"

namespace gluon::qcd {

template <class T> GLUON_HD_INLINE T& spinor_real(Spinor<T>& v, int r) {
  Complex<T>& z = v.s[r / 6].c[(r % 6) / 2];
  return (r & 1) ? z.im : z.re;
}
template <class T> GLUON_HD_INLINE const T& spinor_real(const Spinor<T>& v, int r) {
  const Complex<T>& z = v.s[r / 6].c[(r % 6) / 2];
  return (r & 1) ? z.im : z.re;
}
template <class T> GLUON_HD_INLINE T& spinor_real(ColorVector<T>& v, int r) {
  return (r & 1) ? v.c[r / 2].im : v.c[r / 2].re;
}
template <class T> GLUON_HD_INLINE const T& spinor_real(const ColorVector<T>& v, int r) {
  return (r & 1) ? v.c[r / 2].im : v.c[r / 2].re;
}

// Spins 2h, 2h + 1 of a Dirac spinor: one chirality in the DeGrand-Rossi basis (gamma5 = +1 for
// h = 0, -1 for h = 1), so also what one of the clover term's two 6x6 blocks acts on.
template <class T>
struct ChiralHalf {
  ColorVector<T> s[2];
};

template <class T, int nspin>
using spinor_value_t = std::conditional_t<nspin == 4, Spinor<T>, ColorVector<T>>;

template <class Store, int nspin, bool BlockedOnDevice = false>
struct SpinorAccessor {
  static_assert(nspin == 4 || nspin == 1, "nspin is 4 (Dirac) or 1 (staggered)");
  using store_type = Store;
  using real = typename compute_of<Store>::type;
  using value_type = spinor_value_t<real, nspin>;
  static constexpr int spins = nspin;
  static constexpr int nreals = 6 * nspin;
  static constexpr bool blocked_on_device = BlockedOnDevice;

  Store* data;
  float* norm;  // per-site norms (half only; nullptr otherwise)
  FieldLayout layout;

  // The value is built element by element from the decoded reals, never default-constructed
  // first: Complex<T> zero-initialises, and GCC kept that 192-byte memset of every loaded Spinor
  // (one per hop of the CPU dslash) although each element is overwritten.
  GLUON_HD_INLINE value_type load(std::int64_t s) const {
    float scale = 1.0f;
    if constexpr (is_half_store<Store>) scale = norm[s];
    return build(s, [scale](Store x) { return RealCodec<Store>::decode(x, scale); });
  }
  // `factor` (a constant: another field's missing factor, GaugeAccessor::unscaled_factor) is
  // folded into `scale` at no cost.
  GLUON_HD_INLINE value_type load_unscaled(std::int64_t s, real& scale, float factor = 1.0f) const {
    if constexpr (is_half_store<Store>) {
      scale = norm[s] * (factor / kHalfMax);
      return build(s, [](Store x) { return static_cast<float>(x); });
    } else {
      scale = real(factor);
      return load(s);
    }
  }

  // Half only: the stored integers themselves, widened to int (scale as in load_unscaled). A
  // linear map with integer coefficients (the Wilson spin projection: sums of two components,
  // times i^k) is exact on them, so a kernel can convert its 12 results instead of 24 inputs:
  // int -> float conversion (I2F) runs at a quarter of the FP32 rate on sm_90.
  GLUON_HD_INLINE spinor_value_t<int, nspin> load_raw(std::int64_t s, real& scale, float factor = 1.0f) const {
    static_assert(is_half_store<Store>, "load_raw: only half storage holds integers");
    scale = norm[s] * (factor / kHalfMax);
    return build_as<int>(s, [](Store x) { return static_cast<int>(x); });
  }

  // Stores v (of any real type; converted to the storage precision).
  template <class T> GLUON_HD_INLINE void store(std::int64_t s, const Spinor<T>& v) const {
    static_assert(nspin == 4, "a Dirac spinor needs a nspin = 4 accessor");
    store_value(s, v);
  }
  template <class T> GLUON_HD_INLINE void store(std::int64_t s, const ColorVector<T>& v) const {
    static_assert(nspin == 1, "a colour vector needs a nspin = 1 accessor");
    store_value(s, v);
  }
  // Spins 2h, 2h + 1 (h = 0 or 1, a run-time value) of site s: reals [12 h, 12 h + 12), whole
  // blocks of the blocked order in double and single storage. Device code assumes that order.
  GLUON_HD_INLINE ChiralHalf<real> load_chiral(std::int64_t s, int h) const {
    static_assert(nspin == 4 && !is_half_store<Store>, "load_chiral: Dirac spinors in double or single storage");
#if defined(__CUDA_ARCH__)
    static_assert(BlockedOnDevice, "load_chiral: device code reads the blocked order only");
#endif
    Store raw[12];
    load_reals_span<Store, nreals, 12>(data, layout, s, 0, 12 * h, raw);
    ChiralHalf<real> v;
    for (int sp = 0; sp < 2; ++sp)
      for (int c = 0; c < 3; ++c) v.s[sp].c[c] = Complex<real>(raw[6 * sp + 2 * c], raw[6 * sp + 2 * c + 1]);
    return v;
  }
  template <bool Streaming = false, class T>
  GLUON_HD_INLINE void store_chiral(std::int64_t s, int h, const ChiralHalf<T>& v) const {
    static_assert(nspin == 4 && !is_half_store<Store>, "store_chiral: Dirac spinors in double or single storage");
#if defined(__CUDA_ARCH__)
    static_assert(BlockedOnDevice, "store_chiral: device code writes the blocked order only");
#endif
    Store raw[12];
    for (int sp = 0; sp < 2; ++sp)
      for (int c = 0; c < 3; ++c) {
        raw[6 * sp + 2 * c] = static_cast<Store>(v.s[sp].c[c].re);
        raw[6 * sp + 2 * c + 1] = static_cast<Store>(v.s[sp].c[c].im);
      }
    store_reals_span<Store, nreals, 12, Streaming>(data, layout, s, 0, 12 * h, raw);
  }
  // store() with the streaming hint on the device (st.global.cs, field_layout.h): for a kernel's
  // output that later kernels read from DRAM anyway. The same values as store().
  template <class T> GLUON_HD_INLINE void store_streaming(std::int64_t s, const Spinor<T>& v) const {
    static_assert(nspin == 4, "a Spinor into a colour-vector field");
    store_value<Spinor<T>, true>(s, v);
  }

 private:
  template <class Decode>
  GLUON_HD_INLINE value_type build(std::int64_t s, Decode decode) const {
    return build_as<real>(s, decode);
  }
  template <class T, class Decode>
  GLUON_HD_INLINE spinor_value_t<T, nspin> build_as(std::int64_t s, Decode decode) const {
    Store raw[nreals];
    load_reals<Store, nreals, BlockedOnDevice>(data, layout, s, 0, raw);
    auto z = [&](int k) {  // complex number k = spin * 3 + colour
      return Complex<T>(decode(raw[2 * k]), decode(raw[2 * k + 1]));
    };
    if constexpr (nspin == 4) {
      return Spinor<T>{{ColorVector<T>{{z(0), z(1), z(2)}}, ColorVector<T>{{z(3), z(4), z(5)}},
                        ColorVector<T>{{z(6), z(7), z(8)}}, ColorVector<T>{{z(9), z(10), z(11)}}}};
    } else {
      return ColorVector<T>{{z(0), z(1), z(2)}};
    }
  }

  template <class V, bool Streaming = false> GLUON_HD_INLINE void store_value(std::int64_t s, const V& v) const {
    if constexpr (is_half_store<Store>) {
      float mx = 0.0f;
      GLUON_UNROLL
      for (int r = 0; r < nreals; ++r) {
        const float a = std::fabs(static_cast<float>(spinor_real(v, r)));
#if defined(__CUDA_ARCH__)
        asm("max.NaN.f32 %0, %1, %2;" : "=f"(mx) : "f"(mx), "f"(a));  // one FMNMX, NaN kept
#else
        mx = (a > mx || a != a) ? a : mx;
#endif
      }
      // |x| <= mx, so x * (32767 / mx) rounds into [-32767, 32767]: no clamp needed. A site
      // below 1e-30 (where 32767 / mx would overflow) is stored as zero. A NaN component makes
      // the norm NaN, so the whole site reads back NaN and a solver's finiteness checks see it
      // (an int16 cannot hold it; the maximum used to skip it and store a finite site).
      if (mx < 1e-30f) mx = 0.0f;
#if defined(__CUDA_ARCH__)
      if constexpr (Streaming) __stcs(norm + s, mx);
      else norm[s] = mx;
#else
      norm[s] = mx;
#endif
      const float k = mx > 0.0f ? kHalfMax / mx : 0.0f;
      Store raw[nreals];
      GLUON_UNROLL
      for (int r = 0; r < nreals; ++r) raw[r] = round_to_half(static_cast<float>(spinor_real(v, r)) * k);
      store_reals<Store, nreals, BlockedOnDevice, Streaming>(data, layout, s, 0, raw);
    } else {
      Store raw[nreals];
      GLUON_UNROLL
      for (int r = 0; r < nreals; ++r) raw[r] = static_cast<Store>(spinor_real(v, r));
      store_reals<Store, nreals, BlockedOnDevice, Streaming>(data, layout, s, 0, raw);
    }
  }
};

template <class Store, int nspin, bool BlockedOnDevice = false>
SpinorAccessor<Store, nspin, BlockedOnDevice> make_spinor_accessor(SpinorField& f) {
  return {static_cast<Store*>(f.data()), f.norms(), f.layout()};
}

// f(accessor) for the field's precision x nspin.
template <class F>
decltype(auto) dispatch_spinor(SpinorField& field, F&& f) {
  const auto& p = field.params();
  auto by_spin = [&](auto store_tag) -> decltype(auto) {
    using Store = decltype(store_tag);
    if (p.nspin == 4) return f(make_spinor_accessor<Store, 4>(field));
    if (p.nspin == 1) return f(make_spinor_accessor<Store, 1>(field));
    throw InputError("dispatch_spinor: nspin must be 4 or 1, found " + std::to_string(p.nspin));
  };
  switch (p.precision) {
    case Precision::double_: return by_spin(double{});
    case Precision::single: return by_spin(float{});
    case Precision::half: return by_spin(std::int16_t{});
  }
  throw Error("dispatch_spinor: unknown precision");
}

template <class F>
decltype(auto) dispatch_spinor(const SpinorField& field, F&& f) {
  return dispatch_spinor(const_cast<SpinorField&>(field), std::forward<F>(f));
}

}  // namespace gluon::qcd
