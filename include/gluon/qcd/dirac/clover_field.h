#pragma once
// Storage of the clover term A = 1 - kappa c_sw sum_{mu<nu} sigma_munu F_munu (or its inverse):
// per site two Hermitian 6x6 chiral blocks. In the DeGrand-Rossi basis g5 = diag(1,1,-1,-1) is
// already chiral, and sigma_munu commutes with g5, so A is block diagonal: block 0 acts on spins
// {0, 1}, block 1 on spins {2, 3}. Inside a block, row/column k = (spin - 2 block) * 3 + colour.
//
//   CloverBlock<T>       one Hermitian 6x6 block: 6 real diagonal entries d[i] and the 15 complex
//                        entries below the diagonal off[tri(i, j)] (i > j, tri = i(i-1)/2 + j, so
//                        row order (1,0),(2,0),(2,1),(3,0),...); at(i, j) any entry; apply(v, out)
//                        out = H v on 6 complex numbers (252 flops). Stored reals: [0, 6) the
//                        diagonal, 6 + 2 tri(i, j) + (0 re, 1 im) the off-diagonal entries.
//   apply_clover_block(A_b, b, psi, r)   block b applied to spins 2b, 2b+1 of a Dirac spinor
//                        into r's (252 flops), GLUON_HD; a kernel that applies block 0 before it
//                        loads block 1 never holds both blocks' 72 reals at once
//   CloverFieldParams    geometry, precision, order, memory space, device, pad
//   CloverField          owns the storage: nobj = 2 blocks of 36 reals per site (FieldLayout),
//                        all sites of the lattice in even-odd order; half precision keeps one
//                        float norm per (site, block) = max |stored real| beside int16 entries
//   CloverAccessor<Store>  GLUON_HD load(s, b) -> CloverBlock<real>, store(s, b, block); real is
//                        double for double storage, float otherwise; dispatch_clover(c, f)
#include <cmath>
#include <cstdint>
#include <string>
#include <type_traits>

#include "gluon/qcd/complex.h"
#include "gluon/qcd/field_layout.h"
#include "gluon/qcd/gauge_accessor.h"
#include "gluon/qcd/geometry.h"
#include "gluon/qcd/precision.h"
#include "gluon/qcd/spinor.h"
#include "gluon/runtime/error.h"
#include "gluon/runtime/memory.h"

namespace gluon::qcd {

inline constexpr int kCloverBlockReals = 36;

template <class T>
struct CloverBlock {
  T d[6];
  Complex<T> off[15];

  GLUON_HD_INLINE static constexpr int tri(int i, int j) { return i * (i - 1) / 2 + j; }
  GLUON_HD_INLINE Complex<T> at(int i, int j) const {
    if (i == j) return Complex<T>(d[i]);
    return i > j ? off[tri(i, j)] : conj(off[tri(j, i)]);
  }
  GLUON_HD_INLINE T real_at(int r) const {
    if (r < 6) return d[r];
    const Complex<T>& z = off[(r - 6) >> 1];
    return (r & 1) ? z.im : z.re;
  }
  GLUON_HD_INLINE void set_real(int r, T v) {
    if (r < 6) {
      d[r] = v;
      return;
    }
    Complex<T>& z = off[(r - 6) >> 1];
    if (r & 1) z.im = v;
    else z.re = v;
  }
  // out = H v
  GLUON_HD_INLINE void apply(const Complex<T>* v, Complex<T>* out) const {
    for (int i = 0; i < 6; ++i) out[i] = d[i] * v[i];
    for (int i = 1; i < 6; ++i)
      for (int j = 0; j < i; ++j) {
        const Complex<T>& h = off[tri(i, j)];
        out[i] += h * v[j];
        out[j] += conj_mul(h, v[i]);
      }
  }
};

// r's spins 2b, 2b+1 = A_b times psi's spins 2b, 2b+1 (block 0 acts on spins 0, 1, block 1 on 2, 3).
template <class T>
GLUON_HD_INLINE void apply_clover_block(const CloverBlock<T>& a, int b, const Spinor<T>& psi, Spinor<T>& r) {
  Complex<T> v[6], o[6];
  for (int c = 0; c < 3; ++c) {
    v[c] = psi.s[2 * b].c[c];
    v[3 + c] = psi.s[2 * b + 1].c[c];
  }
  a.apply(v, o);
  for (int c = 0; c < 3; ++c) {
    r.s[2 * b].c[c] = o[c];
    r.s[2 * b + 1].c[c] = o[3 + c];
  }
}

struct CloverFieldParams {
  Geometry geometry;
  Precision precision = Precision::double_;
  FieldOrder order = FieldOrder::site_major;
  runtime::MemSpace space = runtime::MemSpace::host;
  int device = 0;
  std::int64_t pad = 0;
  std::string describe() const;  // "double site_major host"
};

class CloverField {
 public:
  CloverField() = default;
  // Allocates (contents unspecified until a build writes them).
  explicit CloverField(const CloverFieldParams& params);

  const CloverFieldParams& params() const { return params_; }
  const Geometry& geometry() const { return params_.geometry; }
  const FieldLayout& layout() const { return layout_; }
  void* data() { return data_.data(); }
  const void* data() const { return data_.data(); }
  float* norms() { return static_cast<float*>(norm_.data()); }
  const float* norms() const { return static_cast<const float*>(norm_.data()); }
  std::size_t bytes() const { return data_.bytes() + norm_.bytes(); }

 private:
  CloverFieldParams params_;
  FieldLayout layout_;
  runtime::Buffer data_, norm_;
};

template <class Store, bool BlockedOnDevice = false>
struct CloverAccessor {
  using store_type = Store;
  using real = typename compute_of<Store>::type;
  using block_type = CloverBlock<real>;

  Store* data;
  float* norm;  // [2 s + b] (half only)
  FieldLayout layout;

  GLUON_HD_INLINE block_type load(std::int64_t s, int b) const {
    float scale = 1.0f;
    if constexpr (is_half_store<Store>) scale = norm[2 * s + b];
    return build(s, b, [scale](Store x) { return RealCodec<Store>::decode(x, scale); });
  }
  // The block without its factor (half: the stored integers, scale = norm / 32767; otherwise the
  // block and scale = 1): a kernel scales the 12 reals of A v, not the 36 of A.
  GLUON_HD_INLINE block_type load_unscaled(std::int64_t s, int b, real& scale) const {
    if constexpr (is_half_store<Store>) {
      scale = norm[2 * s + b] * (1.0f / kHalfMax);
      return build(s, b, [](Store x) { return static_cast<real>(x); });
    } else {
      scale = real(1);
      return load(s, b);
    }
  }
  template <class T> GLUON_HD_INLINE void store(std::int64_t s, int b, const CloverBlock<T>& v) const {
    if constexpr (is_half_store<Store>) {
      float mx = 0.0f;
      for (int r = 0; r < kCloverBlockReals; ++r) {
        const float a = std::fabs(static_cast<float>(v.real_at(r)));
        mx = a > mx ? a : mx;
      }
      norm[2 * s + b] = mx;
      const float inv = mx > 0.0f ? 1.0f / mx : 0.0f;
      Store raw[kCloverBlockReals];
      for (int r = 0; r < kCloverBlockReals; ++r) raw[r] = to_half(static_cast<float>(v.real_at(r)), inv);
      store_reals<Store, kCloverBlockReals, BlockedOnDevice>(data, layout, s, b, raw);
    } else {
      Store raw[kCloverBlockReals];
      for (int r = 0; r < kCloverBlockReals; ++r) raw[r] = static_cast<Store>(v.real_at(r));
      store_reals<Store, kCloverBlockReals, BlockedOnDevice>(data, layout, s, b, raw);
    }
  }

 private:
  template <class Decode>
  GLUON_HD_INLINE block_type build(std::int64_t s, int b, Decode decode) const {
    block_type v;
    Store raw[kCloverBlockReals];
    load_reals<Store, kCloverBlockReals, BlockedOnDevice, BlockedOnDevice>(data, layout, s, b, raw);  // whole 16-byte blocks on the GPU
    for (int r = 0; r < kCloverBlockReals; ++r) v.set_real(r, decode(raw[r]));
    return v;
  }
};

template <class Store, bool BlockedOnDevice = false>
CloverAccessor<Store, BlockedOnDevice> make_clover_accessor(CloverField& c) {
  return {static_cast<Store*>(c.data()), c.norms(), c.layout()};
}

template <class F>
decltype(auto) dispatch_clover(CloverField& c, F&& f) {
  switch (c.params().precision) {
    case Precision::double_: return f(make_clover_accessor<double>(c));
    case Precision::single: return f(make_clover_accessor<float>(c));
    case Precision::half: return f(make_clover_accessor<std::int16_t>(c));
  }
  throw Error("dispatch_clover: unknown precision");
}
template <class F>
decltype(auto) dispatch_clover(const CloverField& c, F&& f) {
  return dispatch_clover(const_cast<CloverField&>(c), std::forward<F>(f));
}

}  // namespace gluon::qcd
