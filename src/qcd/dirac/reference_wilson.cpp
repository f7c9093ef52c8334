// Plain reference of the Wilson / clover operators (reference_wilson.h). Host loops only.
#include "gluon/qcd/dirac/reference_wilson.h"

#include <cmath>
#include <utility>

#include "gluon/qcd/field_convert.h"
#include "gluon/qcd/gamma.h"
#include "gluon/runtime/error.h"

namespace gluon::qcd::reference {

namespace {

void require_canonical_full(const SpinorField& f, const char* what) {
  const auto& p = f.params();
  if (!p.canonical() || p.nspin != 4 || p.subset != SiteSubset::full)
    throw InputError(std::string("reference wilson ") + what +
                     ": expected a canonical full Dirac field (double site_major host), found " + p.describe());
}

// v += m * w (m a dense spin matrix acting on spin, colour untouched)
void add_spin(Spinor<double>& v, const Matrix4& m, const Spinor<double>& w) {
  for (int a = 0; a < 4; ++a)
    for (int b = 0; b < 4; ++b) {
      const complexd f = m.e[a][b];
      if (f.re == 0.0 && f.im == 0.0) continue;
      for (int c = 0; c < 3; ++c) v.s[a].c[c] += f * w.s[b].c[c];
    }
}

void zero(SpinorField& f) {
  for (std::int64_t s = 0; s < f.geometry().volume(); ++s)
    for (int a = 0; a < 4; ++a)
      for (int c = 0; c < 3; ++c) f.site(s).s[a].c[c] = complexd(0.0, 0.0);
}

void zero_parity(SpinorField& f, int parity) {
  const std::int64_t h = f.geometry().half_volume();
  for (std::int64_t s = parity * h; s < (parity + 1) * h; ++s)
    for (int a = 0; a < 4; ++a)
      for (int c = 0; c < 3; ++c) f.site(s).s[a].c[c] = complexd(0.0, 0.0);
}

// out = x + a * y on all sites
void axpy_into(SpinorField& out, const SpinorField& x, double a, const SpinorField& y) {
  for (std::int64_t s = 0; s < out.geometry().volume(); ++s)
    for (int sp = 0; sp < 4; ++sp)
      for (int c = 0; c < 3; ++c) out.site(s).s[sp].c[c] = x.site(s).s[sp].c[c] + a * y.site(s).s[sp].c[c];
}

SiteMatrix12 invert12(const SiteMatrix12& m) {
  SiteMatrix12 a = m, inv{};
  for (int i = 0; i < 12; ++i) inv.e[i][i] = complexd(1.0);
  for (int col = 0; col < 12; ++col) {
    int piv = col;
    for (int r = col + 1; r < 12; ++r)
      if (norm2(a.e[r][col]) > norm2(a.e[piv][col])) piv = r;
    if (norm2(a.e[piv][col]) == 0.0) throw NumericalError("reference clover: singular clover matrix");
    std::swap(a.e[piv], a.e[col]);
    std::swap(inv.e[piv], inv.e[col]);
    const complexd d = complexd(1.0) / a.e[col][col];
    for (int j = 0; j < 12; ++j) {
      a.e[col][j] = a.e[col][j] * d;
      inv.e[col][j] = inv.e[col][j] * d;
    }
    for (int r = 0; r < 12; ++r) {
      if (r == col) continue;
      const complexd f = a.e[r][col];
      for (int j = 0; j < 12; ++j) {
        a.e[r][j] -= f * a.e[col][j];
        inv.e[r][j] -= f * inv.e[col][j];
      }
    }
  }
  return inv;
}

}  // namespace

ReferenceWilson::ReferenceWilson(const DiracParams& p, const GaugeField& u) : p_(p) {
  if (p.type != DiracType::wilson && p.type != DiracType::clover)
    throw InputError("reference wilson: operator must be wilson or clover, found " + to_string(p.type));
  GaugeFieldParams gp;
  gp.geometry = u.geometry();
  u_ = converted(u, gp, runtime::cpu_exec());
  const Geometry& g = u_.geometry();
  const std::int64_t V = g.volume();
  a_.assign(static_cast<std::size_t>(V), SiteMatrix12{});
  for (auto& m : a_)
    for (int i = 0; i < 12; ++i) m.e[i][i] = complexd(1.0);
  if (p.type == DiracType::clover) {
    auto nb = [&](std::int64_t s, int mu, int d) {
      Coords x = g.coords(s);
      x[mu] = (x[mu] + d + g.local_dims()[mu]) % g.local_dims()[mu];
      return g.eo_index(x);
    };
    for (std::int64_t s = 0; s < V; ++s) {
      for (int mu = 0; mu < 4; ++mu)
        for (int nu = mu + 1; nu < 4; ++nu) {
          const auto U = [&](std::int64_t site, int d) -> const SU3d& { return u_.link(site, d); };
          const std::int64_t xm = nb(s, mu, -1), xn = nb(s, nu, -1);
          // leaves: (+mu,+nu), (+nu,-mu), (-mu,-nu), (-nu,+mu)
          SU3d q = U(s, mu) * U(nb(s, mu, 1), nu) * adj(U(nb(s, nu, 1), mu)) * adj(U(s, nu));
          q += U(s, nu) * adj(U(nb(nb(s, nu, 1), mu, -1), mu)) * adj(U(xm, nu)) * U(xm, mu);
          q += adj(U(xm, mu)) * adj(U(nb(xm, nu, -1), nu)) * U(nb(xm, nu, -1), mu) * U(xn, nu);
          q += adj(U(xn, nu)) * U(xn, mu) * U(nb(xn, mu, 1), nu) * adj(U(s, mu));
          const SU3d qd = adj(q);
          const Matrix4 sg = sigma_matrix(mu, nu);
          const complexd over8i = complexd(1.0) / complexd(0.0, 8.0);
          for (int a = 0; a < 4; ++a)
            for (int b = 0; b < 4; ++b)
              for (int i = 0; i < 3; ++i)
                for (int j = 0; j < 3; ++j) {
                  const complexd f = over8i * (q.e[i][j] - qd.e[i][j]);
                  a_[s].e[a * 3 + i][b * 3 + j] -= (p.kappa * p.csw) * (sg.e[a][b] * f);
                }
        }
    }
  }
  ainv_.resize(a_.size());
  for (std::size_t s = 0; s < a_.size(); ++s) ainv_[s] = invert12(a_[s]);
}

SpinorField ReferenceWilson::make_full() const {
  SpinorFieldParams sp;
  sp.geometry = u_.geometry();
  return SpinorField(sp);
}

const SiteMatrix12& ReferenceWilson::site_clover(std::int64_t s, bool inverse) const {
  return inverse ? ainv_.at(static_cast<std::size_t>(s)) : a_.at(static_cast<std::size_t>(s));
}

void ReferenceWilson::hop(SpinorField& out, const SpinorField& in, bool dagger) const {
  require_canonical_full(out, "hop (out)");
  require_canonical_full(in, "hop (in)");
  const Geometry& g = u_.geometry();
  const Coords L = g.local_dims();
  Matrix4 minus[4], plus[4];
  for (int mu = 0; mu < 4; ++mu) {
    minus[mu] = Matrix4::identity() - gamma_matrix(mu);
    plus[mu] = Matrix4::identity() + gamma_matrix(mu);
  }
  for (std::int64_t s = 0; s < g.volume(); ++s) {
    const Coords x = g.coords(s);
    Spinor<double> acc{};
    for (int mu = 0; mu < 4; ++mu) {
      Coords f = x, b = x;
      f[mu] = (x[mu] + 1) % L[mu];
      b[mu] = (x[mu] + L[mu] - 1) % L[mu];
      const double pf = x[mu] == L[mu] - 1 ? p_.boundary[mu] : 1.0;
      const double pb = x[mu] == 0 ? p_.boundary[mu] : 1.0;
      const std::int64_t sf = g.eo_index(f), sb = g.eo_index(b);
      Spinor<double> wf = u_.link(s, mu) * in.site(sf);
      Spinor<double> wb;
      for (int a = 0; a < 4; ++a) wb.s[a] = adj_mul(u_.link(sb, mu), in.site(sb).s[a]);
      for (int a = 0; a < 4; ++a)
        for (int c = 0; c < 3; ++c) {
          wf.s[a].c[c] *= pf;
          wb.s[a].c[c] *= pb;
        }
      add_spin(acc, dagger ? plus[mu] : minus[mu], wf);
      add_spin(acc, dagger ? minus[mu] : plus[mu], wb);
    }
    out.site(s) = acc;
  }
}

void ReferenceWilson::clover(SpinorField& out, const SpinorField& in, bool inverse) const {
  require_canonical_full(out, "clover (out)");
  require_canonical_full(in, "clover (in)");
  for (std::int64_t s = 0; s < u_.geometry().volume(); ++s) {
    const SiteMatrix12& m = site_clover(s, inverse);
    const Spinor<double> v = in.site(s);
    Spinor<double> r{};
    for (int i = 0; i < 12; ++i)
      for (int j = 0; j < 12; ++j) r.s[i / 3].c[i % 3] += m.e[i][j] * v.s[j / 3].c[j % 3];
    out.site(s) = r;
  }
}

void ReferenceWilson::M_full(SpinorField& out, const SpinorField& in, bool dagger) const {
  SpinorField d = make_full(), a = make_full();
  hop(d, in, dagger);
  clover(a, in, false);  // A is Hermitian: the same for M^dagger
  axpy_into(out, a, -p_.kappa, d);
}

void ReferenceWilson::M(SpinorField& out, const SpinorField& in, bool dagger) const {
  if (!p_.even_odd) {
    M_full(out, in, dagger);
    return;
  }
  require_canonical_full(in, "M (in)");
  const double k2 = p_.kappa * p_.kappa;
  SpinorField xe = make_full(), t1 = make_full(), t2 = make_full(), t3 = make_full();
  for (std::int64_t s = 0; s < in.geometry().volume(); ++s) xe.site(s) = in.site(s);
  zero_parity(xe, 1);
  const bool clov = p_.type == DiracType::clover;
  const bool sym = clov && p_.clover_pc == CloverPreconditioning::symmetric;
  // The reference applies D on full fields; with x_e zero on odd sites, D x_e lives on odd sites
  // (D_oe x_e), and D of an odd-only field lives on even sites.
  if (!clov) {
    hop(t1, xe, dagger);
    hop(t2, t1, dagger);
    axpy_into(out, xe, -k2, t2);
  } else if (!sym) {
    hop(t1, xe, dagger);
    clover(t2, t1, true);
    hop(t1, t2, dagger);
    clover(t3, xe, false);
    axpy_into(out, t3, -k2, t1);
  } else if (!dagger) {
    hop(t1, xe, false);
    clover(t2, t1, true);
    hop(t1, t2, false);
    clover(t3, t1, true);
    axpy_into(out, xe, -k2, t3);
  } else {
    clover(t1, xe, true);
    hop(t2, t1, true);
    clover(t3, t2, true);
    hop(t1, t3, true);
    axpy_into(out, xe, -k2, t1);
  }
  zero_parity(out, 1);
}

void ReferenceWilson::prepare(SpinorField& b_pc, const SpinorField& b) const {
  require_canonical_full(b, "prepare (b)");
  SpinorField bo = make_full(), t1 = make_full(), t2 = make_full();
  for (std::int64_t s = 0; s < b.geometry().volume(); ++s) bo.site(s) = b.site(s);
  zero_parity(bo, 0);
  clover(t1, bo, true);  // A_oo^-1 b_o (identity for Wilson)
  hop(t2, t1, false);    // D_eo (...) on even sites
  SpinorField be = make_full();
  for (std::int64_t s = 0; s < b.geometry().volume(); ++s) be.site(s) = b.site(s);
  zero_parity(be, 1);
  axpy_into(t1, be, p_.kappa, t2);
  if (p_.type == DiracType::clover && p_.clover_pc == CloverPreconditioning::symmetric) clover(b_pc, t1, true);
  else axpy_into(b_pc, t1, 0.0, t1);
  zero_parity(b_pc, 1);
}

SpinorField restrict_parity(const SpinorField& full, int parity) {
  require_canonical_full(full, "restrict_parity");
  SpinorFieldParams p = full.params();
  p.subset = parity == 0 ? SiteSubset::even : SiteSubset::odd;
  SpinorField r(p);
  const std::int64_t h = full.geometry().half_volume();
  for (std::int64_t i = 0; i < h; ++i) r.site(i) = full.site(parity * h + i);
  return r;
}

SpinorField extend_parity(const SpinorField& sub) {
  const auto& sp = sub.params();
  if (!sp.canonical() || sp.nspin != 4 || sp.subset == SiteSubset::full)
    throw InputError("extend_parity: expected a canonical even or odd Dirac field, found " + sp.describe());
  SpinorFieldParams p = sp;
  p.subset = SiteSubset::full;
  SpinorField r(p);
  zero(r);
  const int parity = sp.subset == SiteSubset::even ? 0 : 1;
  const std::int64_t h = sub.geometry().half_volume();
  for (std::int64_t i = 0; i < h; ++i) r.site(parity * h + i) = sub.site(i);
  return r;
}

}  // namespace gluon::qcd::reference
