// Plain-loop reference of the two-particle accumulation: nested loops over bands, momenta
// (kx, ky) and Matsubara indices, std::complex arithmetic, straight from docs/g4.md.
#include "gluon/g4/reference.h"

#include <cmath>

#include "gluon/g4/accumulate.h"
#include "gluon/runtime/error.h"

namespace gluon::g4 {

namespace {

using C = std::complex<double>;

struct Mom {
  int x, y;
};

struct RefG {
  int nb, lx, ly, fg;  // fg = F_G
  long ng;
  std::vector<C> g[2];
  // G_s[(b, K, n), (b2, K2, n2)], momenta as (kx, ky) taken modulo the cluster, n Matsubara.
  C operator()(int s, int b, Mom k, int n, int b2, Mom k2, int n2) const {
    auto wrap = [](int a, int l) { return ((a % l) + l) % l; };
    auto row = [&](int bb, Mom kk, int nn) {
      if (nn < -fg || nn >= fg) throw Error("reference: Matsubara index outside G's window");
      const long kidx = wrap(kk.x, lx) + static_cast<long>(lx) * wrap(kk.y, ly);
      return (bb * static_cast<long>(lx * ly) + kidx) * 2 * fg + (nn + fg);
    };
    return g[s][row(b2, k2, n2) * ng + row(b, k, n)];
  }
};

}  // namespace

std::vector<C> reference_g4(const Params& params, std::uint64_t seed,
                            const std::vector<std::uint64_t>& ids) {
  params.validate();
  const int nb = params.bands, lx = params.cluster.lx, ly = params.cluster.ly, nc = lx * ly;
  const int F = params.frequencies, nq = params.transfers;
  const int W = (nq - 1) / nc;
  RefG G{nb, lx, ly, F + W, static_cast<long>(nb) * nc * 2 * (F + W), {}};
  const long n1 = static_cast<long>(nb) * nb * nc * 2 * F;
  const long per = n1 * n1 * nq;
  std::vector<C> out(per * params.channels.size());
  for (std::uint64_t id : ids) {
    for (int s = 0; s < 2; ++s) {
      G.g[s].resize(G.ng * G.ng);
      for (long e = 0; e < G.ng * G.ng; ++e) {
        double re, im;
        g_value(seed, id, s, e, &re, &im);
        G.g[s][e] = C(re, im);
      }
    }
    for (std::size_t slot = 0; slot < params.channels.size(); ++slot) {
      const Channel ch = params.channels[slot];
      long e = static_cast<long>(slot) * per;
      for (int j = 0; j < nq; ++j) {
        const Mom Q{(j % nc) % lx, (j % nc) / lx};
        const int nu = j / nc;
        for (int b1 = 0; b1 < nb; ++b1)
          for (int b2 = 0; b2 < nb; ++b2)
            for (int ky1 = 0; ky1 < ly; ++ky1)
              for (int kx1 = 0; kx1 < lx; ++kx1)
                for (int n1i = -F; n1i < F; ++n1i)
                  for (int b3 = 0; b3 < nb; ++b3)
                    for (int b4 = 0; b4 < nb; ++b4)
                      for (int ky2 = 0; ky2 < ly; ++ky2)
                        for (int kx2 = 0; kx2 < lx; ++kx2)
                          for (int n2i = -F; n2i < F; ++n2i, ++e) {
                            const Mom k1{kx1, ky1}, k2{kx2, ky2};
                            const Mom qk1{Q.x - k1.x, Q.y - k1.y}, qk2{Q.x - k2.x, Q.y - k2.y};
                            const Mom k1q{k1.x + Q.x, k1.y + Q.y}, k2q{k2.x + Q.x, k2.y + Q.y};
                            C v = 0;
                            switch (ch) {
                              case Channel::pp:
                                // (omega_nu - omega_n) is fermionic index nu - 1 - n
                                for (int s = 0; s < 2; ++s)
                                  v += 0.5 * G(s, b1, qk2, nu - 1 - n2i, b2, qk1, nu - 1 - n1i) *
                                       G(1 - s, b3, k2, n2i, b4, k1, n1i);
                                break;
                              case Channel::ph_transverse:
                                for (int s = 0; s < 2; ++s)
                                  v -= 0.5 * G(s, b1, k2, n2i, b2, k1, n1i) *
                                       G(1 - s, b3, k1q, n1i + nu, b4, k2q, n2i + nu);
                                break;
                              case Channel::ph_charge:
                              case Channel::ph_magnetic:
                                for (int s1 = 0; s1 < 2; ++s1)
                                  for (int s2 = 0; s2 < 2; ++s2) {
                                    const double sign =
                                        ch == Channel::ph_magnetic && s1 != s2 ? -1.0 : 1.0;
                                    v += 0.5 * sign * G(s1, b1, k1q, n1i + nu, b2, k1, n1i) *
                                         G(s2, b3, k2, n2i, b4, k2q, n2i + nu);
                                    if (s1 == s2)
                                      v -= 0.5 * G(s1, b1, k2, n2i, b2, k1, n1i) *
                                           G(s2, b3, k1q, n1i + nu, b4, k2q, n2i + nu);
                                  }
                                break;
                            }
                            out[e] += v;
                          }
      }
    }
  }
  return out;
}

RelativeErrors relative_errors(std::span<const C> a, std::span<const C> ref) {
  if (a.size() != ref.size())
    throw InputError("relative_errors: sizes differ: " + std::to_string(a.size()) + " and " +
                     std::to_string(ref.size()));
  double d1 = 0, r1 = 0, d2 = 0, r2 = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const double d = std::abs(a[i] - ref[i]), r = std::abs(ref[i]);
    d1 += d;
    r1 += r;
    d2 += d * d;
    r2 += r * r;
  }
  RelativeErrors e;
  e.l1 = r1 > 0 ? d1 / r1 : d1;
  e.l2 = r2 > 0 ? std::sqrt(d2 / r2) : std::sqrt(d2);
  return e;
}

}  // namespace gluon::g4
