// The G4 update and the synthetic G generator: GLUON_HD functors launched through parallel_for
// (compiled by nvcc in CUDA builds). docs/g4.md states the formulas; tests/unit/g4_accumulate_test
// pins them against the plain loops of reference.cpp.
#include <cstdint>

#include "gluon/g4/accumulate.h"
#include "gluon/runtime/error.h"
#include "gluon/runtime/hd.h"
#include "gluon/runtime/parallel.h"

namespace gluon::g4 {

namespace {

template <class T>
struct Cx {
  T re, im;
};

GLUON_HD_INLINE std::uint64_t mix64(std::uint64_t z) {
  z += 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

GLUON_HD_INLINE std::uint64_t spin_key(std::uint64_t seed, std::uint64_t id, int spin) {
  return mix64(mix64(seed) ^ mix64(id * 2 + static_cast<std::uint64_t>(spin) + 0x5bd1e995ULL));
}

GLUON_HD_INLINE double unit_value(std::uint64_t key, std::uint64_t counter) {
  // Uniform in [-1, 1) with 53 random bits.
  return static_cast<double>(mix64(key + counter) >> 11) * (1.0 / 9007199254740992.0) * 2.0 - 1.0;
}

template <class T>
struct GenerateG {
  std::uint64_t key_up, key_dn;
  std::int64_t per_spin;
  Cx<T>* g;
  GLUON_HD void operator()(std::int64_t i) const {
    const bool dn = i >= per_spin;
    const std::int64_t e = dn ? i - per_spin : i;
    const std::uint64_t key = dn ? key_dn : key_up;
    const std::uint64_t c = 2 * static_cast<std::uint64_t>(e);
    g[i] = Cx<T>{static_cast<T>(unit_value(key, c)), static_cast<T>(unit_value(key, c + 1))};
  }
};

template <class T>
GLUON_HD_INLINE Cx<T> mul(Cx<T> a, Cx<T> b) {
  return Cx<T>{a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
}
template <class T>
GLUON_HD_INLINE Cx<T> add(Cx<T> a, Cx<T> b) {
  return Cx<T>{a.re + b.re, a.im + b.im};
}
template <class T>
GLUON_HD_INLINE Cx<T> sub(Cx<T> a, Cx<T> b) {
  return Cx<T>{a.re - b.re, a.im - b.im};
}

struct Point {
  int ba, bb, k, kx, ky, n;  // two bands, cluster momentum K = kx + lx ky, Matsubara index
};

// Momentum sums and differences on Z_lx x Z_ly from components (no divisions).
GLUON_HD_INLINE int wrap_add(int a, int b, int l) {
  const int s = a + b;
  return s >= l ? s - l : s;
}
GLUON_HD_INLINE int wrap_sub(int a, int b, int l) {
  const int s = a - b;
  return s < 0 ? s + l : s;
}

// i < n1 < 2^31 (Params::validate): 32-bit unsigned divisions, much cheaper on the GPU.
GLUON_HD_INLINE Point decode(const LayoutView& v, std::uint32_t i) {
  Point p;
  const std::uint32_t nw = static_cast<std::uint32_t>(v.nw), nc = static_cast<std::uint32_t>(v.nc),
                      nb = static_cast<std::uint32_t>(v.nb);
  std::uint32_t t = i / nw;
  const int w = static_cast<int>(i - t * nw);
  const std::uint32_t kb = t / nc;
  p.k = static_cast<int>(t - kb * nc);
  p.ky = p.k / v.lx;
  p.kx = p.k - p.ky * v.lx;
  const std::uint32_t ba = kb / nb;
  p.bb = static_cast<int>(kb - ba * nb);
  p.ba = static_cast<int>(ba);
  p.n = w - v.nw / 2;
  return p;
}

// One thread per G4 entry e of channel C in [from, from + count).
template <class T, Channel C>
struct UpdateG4 {
  LayoutView v;
  const Cx<T>* up;
  const Cx<T>* dn;
  Cx<T>* g4;                // entry slice_begin
  std::int64_t slice_begin;  // stacked index of g4[0]
  std::int64_t channel_begin;
  std::int64_t from;

  GLUON_HD Cx<T> at(const Cx<T>* g, int b, int k, int n, int b2, int k2, int n2) const {
    return g[v.g_element(v.g_index(b, k, n), v.g_index(b2, k2, n2))];
  }

  GLUON_HD void operator()(std::int64_t i) const {
    const std::int64_t e = from + i;
    const std::int64_t entry = e - channel_begin;
    // One 64-bit division (row = q n1 + i1), the rest in 32 bits.
    const std::int64_t row = entry / v.n1;
    const auto i2 = static_cast<std::uint32_t>(entry - row * v.n1);
    int q;
    std::uint32_t i1;
    const auto n1 = static_cast<std::uint32_t>(v.n1);
    if (row < (std::int64_t{1} << 32)) {
      const auto r32 = static_cast<std::uint32_t>(row);
      q = static_cast<int>(r32 / n1);
      i1 = r32 - static_cast<std::uint32_t>(q) * n1;
    } else {
      q = static_cast<int>(row / v.n1);
      i1 = static_cast<std::uint32_t>(row - static_cast<std::int64_t>(q) * v.n1);
    }
    const Point a = decode(v, i1), b = decode(v, i2);  // k1 with bands (b1, b2), k2 with (b3, b4)
    const int qn = q / v.nc, qk = q - qn * v.nc;  // q_momentum, q_frequency
    const int qy = qk / v.lx, qx = qk - qy * v.lx;
    const T half = static_cast<T>(0.5);
    Cx<T> val;
    if constexpr (C == Channel::pp) {
      // 1/2 sum_s G_s[(b1, q-k2), (b2, q-k1)] G_-s[(b3, k2), (b4, k1)]
      const int qk2 = wrap_sub(qx, b.kx, v.lx) + v.lx * wrap_sub(qy, b.ky, v.ly);
      const int qk1 = wrap_sub(qx, a.kx, v.lx) + v.lx * wrap_sub(qy, a.ky, v.ly);
      const int qn2 = qn - 1 - b.n, qn1 = qn - 1 - a.n;
      const Cx<T> au = at(up, a.ba, qk2, qn2, a.bb, qk1, qn1);
      const Cx<T> ad = at(dn, a.ba, qk2, qn2, a.bb, qk1, qn1);
      const Cx<T> bu = at(up, b.ba, b.k, b.n, b.bb, a.k, a.n);
      const Cx<T> bd = at(dn, b.ba, b.k, b.n, b.bb, a.k, a.n);
      val = add(mul(au, bd), mul(ad, bu));
      val = Cx<T>{half * val.re, half * val.im};
    } else {
      // C_s = G_s[(b1, k2), (b2, k1)], F_s = G_s[(b3, k1+q), (b4, k2+q)]
      const int k1q = wrap_add(a.kx, qx, v.lx) + v.lx * wrap_add(a.ky, qy, v.ly);
      const int k2q = wrap_add(b.kx, qx, v.lx) + v.lx * wrap_add(b.ky, qy, v.ly);
      const int n1q = a.n + qn, n2q = b.n + qn;
      const Cx<T> cu = at(up, a.ba, b.k, b.n, a.bb, a.k, a.n);
      const Cx<T> cd = at(dn, a.ba, b.k, b.n, a.bb, a.k, a.n);
      const Cx<T> fu = at(up, b.ba, k1q, n1q, b.bb, k2q, n2q);
      const Cx<T> fd = at(dn, b.ba, k1q, n1q, b.bb, k2q, n2q);
      if constexpr (C == Channel::ph_transverse) {
        // -1/2 sum_s C_s F_-s
        val = add(mul(cu, fd), mul(cd, fu));
        val = Cx<T>{-half * val.re, -half * val.im};
      } else {
        // D_s = G_s[(b1, k1+q), (b2, k1)], E_s = G_s[(b3, k2), (b4, k2+q)]
        const Cx<T> du = at(up, a.ba, k1q, n1q, a.bb, a.k, a.n);
        const Cx<T> dd = at(dn, a.ba, k1q, n1q, a.bb, a.k, a.n);
        const Cx<T> eu = at(up, b.ba, b.k, b.n, b.bb, k2q, n2q);
        const Cx<T> ed = at(dn, b.ba, b.k, b.n, b.bb, k2q, n2q);
        // charge: 1/2 (D_u + D_d)(E_u + E_d); magnetic: 1/2 (D_u - D_d)(E_u - E_d);
        // both minus 1/2 sum_s C_s F_s.
        const Cx<T> dis = C == Channel::ph_charge ? mul(add(du, dd), add(eu, ed))
                                                   : mul(sub(du, dd), sub(eu, ed));
        val = sub(dis, add(mul(cu, fu), mul(cd, fd)));
        val = Cx<T>{half * val.re, half * val.im};
      }
    }
    Cx<T>& out = g4[e - slice_begin];
    out.re += val.re;
    out.im += val.im;
  }
};

template <class T, Channel C>
void launch_update(const runtime::Exec& ex, const LayoutView& v, const void* g, void* g4,
                   std::int64_t slice_begin, std::int64_t channel_begin, std::int64_t from,
                   std::int64_t to) {
  const auto* up = static_cast<const Cx<T>*>(g);
  UpdateG4<T, C> f{v, up, up + v.ng * v.ng, static_cast<Cx<T>*>(g4), slice_begin, channel_begin, from};
  runtime::parallel_for(ex, "g4_update", to - from, f);
}

template <class T>
void dispatch_channel(const runtime::Exec& ex, Channel c, const LayoutView& v, const void* g,
                      void* g4, std::int64_t slice_begin, std::int64_t channel_begin,
                      std::int64_t from, std::int64_t to) {
  switch (c) {
    case Channel::pp:
      return launch_update<T, Channel::pp>(ex, v, g, g4, slice_begin, channel_begin, from, to);
    case Channel::ph_transverse:
      return launch_update<T, Channel::ph_transverse>(ex, v, g, g4, slice_begin, channel_begin,
                                                      from, to);
    case Channel::ph_charge:
      return launch_update<T, Channel::ph_charge>(ex, v, g, g4, slice_begin, channel_begin, from,
                                                  to);
    case Channel::ph_magnetic:
      return launch_update<T, Channel::ph_magnetic>(ex, v, g, g4, slice_begin, channel_begin,
                                                    from, to);
  }
}

}  // namespace

std::uint64_t measurement_id(int world_rank, int measurement) {
  return (static_cast<std::uint64_t>(world_rank) << 32) | static_cast<std::uint32_t>(measurement);
}

void g_value(std::uint64_t seed, std::uint64_t id, int spin, std::int64_t element, double* re,
             double* im) {
  const std::uint64_t key = spin_key(seed, id, spin);
  const std::uint64_t c = 2 * static_cast<std::uint64_t>(element);
  *re = unit_value(key, c);
  *im = unit_value(key, c + 1);
}

void generate_g(const runtime::Exec& ex, const Layout& layout, Precision p, void* g,
                std::uint64_t seed, std::uint64_t id) {
  const std::int64_t per_spin = layout.g_elements_per_spin();
  const std::uint64_t ku = spin_key(seed, id, 0), kd = spin_key(seed, id, 1);
  if (p == Precision::double_)
    runtime::parallel_for(ex, "g4_generate_g", 2 * per_spin,
                          GenerateG<double>{ku, kd, per_spin, static_cast<Cx<double>*>(g)});
  else
    runtime::parallel_for(ex, "g4_generate_g", 2 * per_spin,
                          GenerateG<float>{ku, kd, per_spin, static_cast<Cx<float>*>(g)});
}

void accumulate(const runtime::Exec& ex, const Layout& layout, Precision p, const void* g,
                void* g4, std::int64_t slice_begin, std::int64_t from, std::int64_t to) {
  const std::int64_t per = layout.entries_per_channel();
  if (from < slice_begin || to < from || to > layout.entries_total())
    throw InputError("g4 accumulate: entry range [" + std::to_string(from) + ", " +
                     std::to_string(to) + ") outside the held slice starting at " +
                     std::to_string(slice_begin));
  const auto& channels = layout.params().channels;
  for (std::size_t slot = 0; slot < channels.size(); ++slot) {
    const std::int64_t cb = static_cast<std::int64_t>(slot) * per, ce = cb + per;
    const std::int64_t a = from > cb ? from : cb, b = to < ce ? to : ce;
    if (a >= b) continue;
    if (p == Precision::double_)
      dispatch_channel<double>(ex, channels[slot], layout.view(), g, g4, slice_begin, cb, a, b);
    else
      dispatch_channel<float>(ex, channels[slot], layout.view(), g, g4, slice_begin, cb, a, b);
  }
}

double bytes_per_update(const Layout& layout, Precision p, std::int64_t from, std::int64_t to) {
  if (to <= from) return 0.0;
  const std::int64_t per = layout.entries_per_channel();
  const auto& channels = layout.params().channels;
  double total = 0;
  for (std::size_t slot = 0; slot < channels.size(); ++slot) {
    const std::int64_t cb = static_cast<std::int64_t>(slot) * per, ce = cb + per;
    const std::int64_t a = from > cb ? from : cb, b = to < ce ? to : ce;
    if (a >= b) continue;
    const int g_reads =
        channels[slot] == Channel::pp || channels[slot] == Channel::ph_transverse ? 4 : 8;
    total += static_cast<double>(b - a) * (2 + g_reads) * static_cast<double>(complex_bytes(p));
  }
  return total / static_cast<double>(to - from);
}

}  // namespace gluon::g4
