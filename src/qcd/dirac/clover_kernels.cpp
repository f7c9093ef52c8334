// Clover-term kernels (clover.h): building A and A^-1 from the links (in double), applying a
// clover field on one parity, and copying one parity of a spinor field. Compiled by nvcc in
// CUDA builds.
#include <cmath>
#include <cstdint>

#include "gluon/qcd/dirac/clover_field.h"
#include "gluon/qcd/gamma.h"
#include "gluon/qcd/gauge_accessor.h"
#include "gluon/qcd/spinor_accessor.h"
#include "gluon/runtime/error.h"
#include "gluon/runtime/parallel.h"
#include "wilson_internal.h"

namespace gluon::qcd::detail {

namespace {

// The 2x2 chiral blocks of sigma_munu for the 6 planes (mu<nu) in order (01,02,03,12,13,23):
// s[plane][block][row][col], row/col = spin - 2 block.
struct SigmaBlocks {
  complexd s[6][2][2][2];
};

SigmaBlocks make_sigma_blocks() {
  SigmaBlocks sb{};
  int pl = 0;
  for (int mu = 0; mu < 4; ++mu)
    for (int nu = mu + 1; nu < 4; ++nu, ++pl) {
      const Matrix4 sg = sigma_matrix(mu, nu);
      for (int b = 0; b < 2; ++b)
        for (int i = 0; i < 2; ++i)
          for (int j = 0; j < 2; ++j) sb.s[pl][b][i][j] = sg.e[2 * b + i][2 * b + j];
      // sigma is block diagonal in the DeGrand-Rossi basis (it commutes with g5).
      for (int i = 0; i < 2; ++i)
        for (int j = 2; j < 4; ++j)
          if (norm2(sg.e[i][j]) != 0.0 || norm2(sg.e[j][i]) != 0.0)
            throw Error("clover: sigma_munu is not chirally block diagonal");
    }
  return sb;
}

template <class A, class Store>
struct CloverBuildKernel {
  A u;  // double r18
  SiteIndexer idx;
  CloverAccessor<Store> out, inv;
  double coef;  // kappa c_sw
  SigmaBlocks sig;
  int margin;   // > 0: the field is a halo-extended box; sites this close to its edge hold
                // wrapped (meaningless) leaves and are not counted as failures

  GLUON_HD SU3d link(std::int64_t s, int mu) const { return u.load(s, mu); }

  // Q_munu(x): the four leaves at x, counter-clockwise in the (mu, nu) plane.
  GLUON_HD SU3d clover_leaves(std::int64_t s, int mu, int nu) const {
    const std::int64_t xpm = idx.neighbour(s, mu, 1), xpn = idx.neighbour(s, nu, 1);
    const std::int64_t xmm = idx.neighbour(s, mu, -1), xmn = idx.neighbour(s, nu, -1);
    const std::int64_t xmm_pn = idx.neighbour(xmm, nu, 1), xmm_mn = idx.neighbour(xmm, nu, -1);
    const std::int64_t xmn_pm = idx.neighbour(xmn, mu, 1);
    SU3d q = link(s, mu) * link(xpm, nu) * adj(link(xpn, mu)) * adj(link(s, nu));
    q += link(s, nu) * adj(link(xmm_pn, mu)) * adj(link(xmm, nu)) * link(xmm, mu);
    q += adj(link(xmm, mu)) * adj(link(xmm_mn, nu)) * link(xmm_mn, mu) * link(xmn, nu);
    q += adj(link(xmn, nu)) * link(xmn, mu) * link(xmn_pm, nu) * adj(link(s, mu));
    return q;
  }

  GLUON_HD double operator()(std::int64_t s) const {
    complexd h[2][6][6];
    for (int b = 0; b < 2; ++b)
      for (int i = 0; i < 6; ++i)
        for (int j = 0; j < 6; ++j) h[b][i][j] = complexd(i == j ? 1.0 : 0.0, 0.0);
    int pl = 0;
    for (int mu = 0; mu < 4; ++mu)
      for (int nu = mu + 1; nu < 4; ++nu, ++pl) {
        const SU3d q = clover_leaves(s, mu, nu);
        // F = (Q - Q^+) / (8i) = -(i/8) (Q - Q^+)
        SU3d f;
        for (int a = 0; a < 3; ++a)
          for (int c = 0; c < 3; ++c) {
            const complexd d = q.e[a][c] - conj(q.e[c][a]);
            f.e[a][c] = complexd(d.im / 8.0, -d.re / 8.0);
          }
        for (int b = 0; b < 2; ++b)
          for (int si = 0; si < 2; ++si)
            for (int sj = 0; sj < 2; ++sj) {
              const complexd sg = sig.s[pl][b][si][sj];
              if (sg.re == 0.0 && sg.im == 0.0) continue;
              for (int a = 0; a < 3; ++a)
                for (int c = 0; c < 3; ++c) h[b][si * 3 + a][sj * 3 + c] -= coef * (sg * f.e[a][c]);
            }
      }
    double failed = 0.0;
    for (int b = 0; b < 2; ++b) {
      CloverBlock<double> blk;
      for (int i = 0; i < 6; ++i) {
        blk.d[i] = h[b][i][i].re;
        for (int j = 0; j < i; ++j) blk.off[CloverBlock<double>::tri(i, j)] = h[b][i][j];
      }
      out.store(s, b, blk);
      // Cholesky A = L L^+ (A Hermitian; only the lower triangle is read).
      complexd l[6][6];
      bool ok = true;
      for (int j = 0; j < 6; ++j) {
        double d = h[b][j][j].re;
        for (int k = 0; k < j; ++k) d -= norm2(l[j][k]);
        if (!(d > 0.0)) {
          ok = false;
          d = 1.0;
        }
        const double ljj = std::sqrt(d);
        l[j][j] = complexd(ljj, 0.0);
        for (int i = j + 1; i < 6; ++i) {
          complexd v = h[b][i][j];
          for (int k = 0; k < j; ++k) v -= l[i][k] * conj(l[j][k]);
          l[i][j] = v / ljj;
        }
      }
      // L^-1 (lower triangular), then A^-1 = L^-+ L^-1.
      complexd li[6][6];
      for (int i = 0; i < 6; ++i)
        for (int j = 0; j < 6; ++j) li[i][j] = complexd(0.0, 0.0);
      for (int i = 0; i < 6; ++i) {
        li[i][i] = complexd(1.0 / l[i][i].re, 0.0);
        for (int j = 0; j < i; ++j) {
          complexd v(0.0, 0.0);
          for (int k = j; k < i; ++k) v += l[i][k] * li[k][j];
          li[i][j] = -v / l[i][i].re;
        }
      }
      CloverBlock<double> ib;
      for (int i = 0; i < 6; ++i)
        for (int j = 0; j <= i; ++j) {
          complexd v(0.0, 0.0);
          for (int k = i; k < 6; ++k) v += conj_mul(li[k][i], li[k][j]);
          if (i == j) ib.d[i] = v.re;
          else ib.off[CloverBlock<double>::tri(i, j)] = v;
        }
      if (!ok) {
        failed = 1.0;
        const double nan = std::nan("");
        for (int r = 0; r < kCloverBlockReals; ++r) ib.set_real(r, nan);
      }
      inv.store(s, b, ib);
    }
    if (margin > 0) {
      int c[4];
      idx.coords(s, c);
      for (int mu = 0; mu < 4; ++mu)
        if (c[mu] < margin || c[mu] >= idx.dims[mu] - margin) return 0.0;
    }
    return failed;
  }
};

template <class Store>
struct CloverApplyKernel {
  SpinorAccessor<Store, 4, true> out, in;  // blocked on the device (launch_clover_apply checks)
  CloverAccessor<Store, true> c;
  std::int64_t site0, out_shift, in_shift;
  using real = typename SpinorAccessor<Store, 4, true>::real;
  // One chiral block at a time, as the dslash's clover_times: with both blocks loaded first (72
  // reals), the spinor and the result, the double kernel spilled 332 bytes (ptxas -v).
  GLUON_HD void operator()(std::int64_t i) const {
    const std::int64_t s = site0 + i;
    const Spinor<real> psi = in.load(s - in_shift);
    Spinor<real> r;
    GLUON_UNROLL_FULL
    for (int b = 0; b < 2; ++b) apply_clover_block(c.load(s, b), b, psi, r);
    out.store(s - out_shift, r);
  }
};

template <class Store>
struct ParityCopyKernel {
  SpinorAccessor<Store, 4> out, in;
  std::int64_t site0, out_shift, in_shift;
  GLUON_HD void operator()(std::int64_t i) const {
    const std::int64_t s = site0 + i;
    out.store(s - out_shift, in.load(s - in_shift));
  }
};

}  // namespace

std::int64_t launch_clover_build(const GaugeField& u, double kappa, double csw, CloverField& a,
                                 CloverField& ainv, const runtime::Exec& ex, int margin) {
  if (u.params().precision != Precision::double_ || u.params().reconstruct != Reconstruct::r18)
    throw Error("clover build: needs double r18 links, found " + u.params().describe());
  const SigmaBlocks sig = make_sigma_blocks();
  const auto uacc = make_accessor<double, Reconstruct::r18>(const_cast<GaugeField&>(u));
  const SiteIndexer idx = u.geometry().indexer();
  const double failed = dispatch_clover(a, [&](auto acc) {
    using Store = typename decltype(acc)::store_type;
    CloverBuildKernel<decltype(uacc), Store> k{uacc, idx, acc, make_clover_accessor<Store>(ainv),
                                               kappa * csw, sig, margin};
    return runtime::parallel_reduce<double>(ex, "clover_build", idx.volume, k);
  });
  return static_cast<std::int64_t>(failed);
}

template <class Store>
struct CloverRestrictKernel {
  CloverAccessor<double> src;
  CloverAccessor<Store> dst;
  const std::int64_t* map;
  GLUON_HD void operator()(std::int64_t s) const {
    for (int b = 0; b < 2; ++b) dst.store(s, b, src.load(map[s], b));
  }
};

void launch_clover_restrict(const CloverField& ext, const std::int64_t* map, CloverField& out,
                            const runtime::Exec& ex) {
  const auto src = make_clover_accessor<double>(const_cast<CloverField&>(ext));
  dispatch_clover(out, [&](auto dacc) {
    using Store = typename decltype(dacc)::store_type;
    CloverRestrictKernel<Store> k{src, dacc, map};
    runtime::parallel_for(ex, "clover_restrict", out.geometry().volume(), k);
  });
}

void launch_clover_apply(SpinorField& out, const SpinorField& in, const CloverField& c, int parity,
                         const runtime::Exec& ex) {
  const std::int64_t half = in.geometry().half_volume();
  if (ex.on_device()) {
    require_blocked(out.layout(), "clover apply: the output spinor");
    require_blocked(in.layout(), "clover apply: the input spinor");
    require_blocked(c.layout(), "clover apply: the clover field");
  }
  dispatch_clover(const_cast<CloverField&>(c), [&](auto any) {
    using Store = typename decltype(any)::store_type;
    CloverApplyKernel<Store> k{make_spinor_accessor<Store, 4, true>(out),
                               make_spinor_accessor<Store, 4, true>(const_cast<SpinorField&>(in)),
                               make_clover_accessor<Store, true>(const_cast<CloverField&>(c)), parity * half,
                               parity_shift(out, parity), parity_shift(in, parity)};
    runtime::parallel_for(ex, "clover_apply", half, k);
  });
}

void launch_spinor_parity_copy(SpinorField& out, const SpinorField& in, int parity,
                               const runtime::Exec& ex) {
  const std::int64_t half = in.geometry().half_volume();
  dispatch_spinor(out, [&](auto oacc) {
    using Store = typename decltype(oacc)::store_type;
    ParityCopyKernel<Store> k{make_spinor_accessor<Store, 4>(out),
                              make_spinor_accessor<Store, 4>(const_cast<SpinorField&>(in)),
                              parity * half, parity_shift(out, parity), parity_shift(in, parity)};
    runtime::parallel_for(ex, "spinor_parity_copy", half, k);
  });
}

}  // namespace gluon::qcd::detail
