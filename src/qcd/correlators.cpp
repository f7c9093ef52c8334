// Meson contractions on the host: O(V * 12^2) work per propagator, negligible next to the solves.
#include "gluon/qcd/correlators.h"

#include "gluon/comm/environment.h"
#include "gluon/qcd/gamma.h"
#include "gluon/runtime/error.h"

namespace gluon::qcd {

namespace {
// Time slices are summed over the ranks of a split lattice, in rank order (reproducible).
void sum_over_ranks(const Geometry& g, std::vector<double>& c) {
  const Coords& grid = g.grid();
  if (grid[0] * grid[1] * grid[2] * grid[3] > 1)
    comm::world().allreduce_sum(c.data(), c.size(), comm::Order::reproducible);
}
}  // namespace

namespace {

using C = Complex<double>;

// S[a][b]: sink (spin, colour) a = 3 s + c, source b, at one site.
struct SiteProp {
  C s[12][12];
};

void load_site(const std::vector<SpinorField>& cols, std::int64_t site, SiteProp& out) {
  for (int b = 0; b < 12; ++b) {
    const Spinor<double>& psi = cols[static_cast<std::size_t>(b)].site(site);
    for (int sp = 0; sp < 4; ++sp)
      for (int c = 0; c < 3; ++c) out.s[sp * 3 + c][b] = psi.s[sp].c[c];
  }
}

}  // namespace

Correlators meson_correlators(const std::vector<SpinorField>& columns, int t0) {
  if (columns.empty()) throw InputError("meson_correlators: no propagator columns");
  const Geometry& g = columns[0].geometry();
  const int nspin = columns[0].params().nspin;
  const std::size_t want = nspin == 4 ? 12 : 3;
  if (columns.size() != want)
    throw InputError("meson_correlators: expected " + std::to_string(want) + " columns, found " +
                     std::to_string(columns.size()));
  for (const auto& c : columns)
    if (!(c.geometry() == g) || !c.params().canonical() || c.params().subset != SiteSubset::full ||
        c.params().nspin != nspin)
      throw InputError("meson_correlators: columns must be canonical full-lattice fields of one geometry, got " +
                       c.params().describe());
  const int T = g.global_dims()[3];
  Correlators out;
  out.t0 = t0;
  out.pion.assign(static_cast<std::size_t>(T), 0.0);
  if (nspin == 1) {
    for (std::int64_t s = 0; s < g.volume(); ++s) {
      const int t = g.local_to_global(g.coords(s))[3];
      double sum = 0;
      for (const auto& col : columns) {
        const ColorVector<double>& v = col.color_vector(s);
        for (int c = 0; c < 3; ++c) sum += norm2(v.c[c]);
      }
      out.pion[static_cast<std::size_t>(((t - t0) % T + T) % T)] += sum;
    }
    sum_over_ranks(g, out.pion);
    return out;
  }
  out.rho.assign(static_cast<std::size_t>(T), 0.0);
  // Dense gammas for the contraction.
  Matrix4 gk[3] = {gamma_matrix(0), gamma_matrix(1), gamma_matrix(2)};
  const Matrix4 g5 = gamma_matrix(kGamma5);
  SiteProp S;
  for (std::int64_t s = 0; s < g.volume(); ++s) {
    const int t = g.local_to_global(g.coords(s))[3];
    load_site(columns, s, S);
    double pion = 0;
    for (int a = 0; a < 12; ++a)
      for (int b = 0; b < 12; ++b) pion += norm2(S.s[a][b]);
    // rho: Re tr[g_k S g_k g5 S^+ g5] = sum over spins/colours. With g5 diagonal (+-1), the
    // matrix B = g5 S^+ g5 has entries B[a][b] = e5(a) conj(S[b][a]) e5(b).
    double rho = 0;
    for (int k = 0; k < 3; ++k) {
      // tr[G S G B] = sum G[i][j] S[j][l] G[l][m] B[m][i] (spin indices with colour carried).
      C tr{};
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) {
          const C gij = gk[k].e[i][j];
          if (gij.re == 0 && gij.im == 0) continue;
          for (int l = 0; l < 4; ++l)
            for (int m = 0; m < 4; ++m) {
              const C glm = gk[k].e[l][m];
              if (glm.re == 0 && glm.im == 0) continue;
              const double e5 = g5.e[m][m].re * g5.e[i][i].re;
              C sum{};
              for (int c1 = 0; c1 < 3; ++c1)
                for (int c2 = 0; c2 < 3; ++c2)
                  sum += S.s[j * 3 + c1][l * 3 + c2] * conj(S.s[i * 3 + c1][m * 3 + c2]);
              tr += gij * glm * sum * e5;
            }
        }
      rho += tr.re;
    }
    // Wick: <O(x) O(0)^+> = -tr[G S(x,0) Gbar S(0,x)] with Gbar = g4 G^+ g4 and
    // S(0,x) = g5 S(x,0)^+ g5. For G = g_k, Gbar = -g_k: the signs cancel, C = +tr[g_k S g_k g5 S^+ g5].
    out.pion[static_cast<std::size_t>(((t - t0) % T + T) % T)] += pion;
    out.rho[static_cast<std::size_t>(((t - t0) % T + T) % T)] += rho / 3.0;
  }
  sum_over_ranks(g, out.pion);
  sum_over_ranks(g, out.rho);
  return out;
}

}  // namespace gluon::qcd
