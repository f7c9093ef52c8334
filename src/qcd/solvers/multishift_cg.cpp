// Multi-shift CG with per-shift tolerances and per-shift refinement (multishift_cg.h).
// Mixed precision: the shifts iterate in the sloppy precision; whenever the base (smallest)
// shift's iterated residual has dropped by delta below its largest value since the last update,
// every shift's sloppy solution is folded into its outer-precision x and the base residual is
// replaced by the true b - (A + sigma_min) x_min (a reliable update, as QUDA's multi-shift CG
// does for the base shift); the others stay zeta_i times it. The final per-shift true residuals
// and refinements then start from solutions accumulated in the outer precision. Between updates
// the base shift's sloppy solution is also folded in every kBaseFlushIterations iterations: summed
// in the sloppy precision over a whole update interval (hundreds of iterations in single), its
// rounding reached the true residual at the next update and cost the base 11% more iterations
// (666 against 600 at 32^4, staggered, epsilon 0.6, double-single: 5% less time on an H200,
// bench/results/2026-11-28-multishift-flush/), for a 1.5-vector pass every 16 iterations. The
// other shifts' sloppy solutions gain nothing from it: their accuracy is the sloppy Krylov
// recurrence's (about eps kappa_i; the same without any reliable update), hence the refinements.
#include "gluon/qcd/solvers/multishift_cg.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>

#include "gluon/qcd/blas.h"
#include "gluon/qcd/solvers/cg.h"
#include "gluon/runtime/error.h"
#include "gluon/runtime/scalar_slots.h"
#include "gluon/runtime/timer.h"
#include "../cg_coefficients.h"
#include "solver_support.h"

namespace gluon::qcd {

namespace {
using solvers::detail::sci;
constexpr int kBaseFlushIterations = 16;
}  // namespace

MultiShiftResult multishift_cg(const DiracOperator& op, std::vector<SpinorField>& x, const SpinorField& b,
                               const std::vector<double>& shifts, const std::vector<double>& tols_in,
                               const SolverParams& p, const DiracOperator* sloppy) {
  using solvers::detail::Failure;
  using solvers::detail::Form;
  using solvers::detail::LinearOp;
  using solvers::detail::Monitor;
  const char* name = "multishift_cg";
  const std::size_t n = shifts.size();
  if (n == 0) throw InputError(std::string(name) + ": shifts: expected at least one shift, found none");
  std::vector<double> tols = tols_in.empty() ? std::vector<double>(n, p.tol) : tols_in;
  if (tols.size() != n)
    throw InputError(std::string(name) + ": tolerances: expected one per shift (" + std::to_string(n) +
                     ") or none, found " + std::to_string(tols.size()));
  for (std::size_t i = 0; i < n; ++i) {
    if (!(tols[i] > 0.0))
      throw InputError(std::string(name) + ": tolerance of shift " + std::to_string(i) +
                       ": expected > 0, found " + sci(tols[i]));
    if (!std::isfinite(shifts[i]))
      throw InputError(std::string(name) + ": shift " + std::to_string(i) + " is not finite");
  }
  const SpinorFieldParams vp = op.vector_params();
  x.resize(n);
  for (auto& xi : x) {
    const auto& q = xi.params();
    if (!(q.geometry == vp.geometry) || q.nspin != vp.nspin || q.subset != vp.subset ||
        q.precision != vp.precision || q.space != vp.space || q.sites() == 0)
      xi = SpinorField(vp);
  }
  solvers::detail::check_vectors(name, op, x[0], b);
  solvers::detail::check_sloppy(name, op, sloppy);

  MultiShiftResult out;
  SolverResult& res = out.total;
  res.precision = solvers::detail::precision_name(op, sloppy);
  out.true_residual.assign(n, 0.0);
  out.shift_iterations.assign(n, 0);
  out.refine_iterations.assign(n, 0);
  out.refine_seconds.assign(n, 0.0);
  Monitor m(name, p, res);
  std::string failure;
  try {
    const runtime::Exec& ex = op.exec();
    const bool mixed = sloppy != nullptr;
    const DiracOperator& so = mixed ? *sloppy : op;
    const runtime::Exec& exs = so.exec();
    const std::size_t base = static_cast<std::size_t>(std::min_element(shifts.begin(), shifts.end()) - shifts.begin());
    const LinearOp As = solvers::detail::make_op(so, Form::normal, shifts[base]);
    const SpinorFieldParams sp = so.vector_params();
    const double nrs = static_cast<double>(sp.sites()) * sp.reals_per_site();
    const double delta = mixed ? reliable_delta(p, sp.precision, SolverType::cg) : 0.0;
    res.reliable_delta = delta;

    const double b2 = blas::norm2(b, ex);
    m.finite("|b|^2", b2);
    if (b2 == 0.0) {
      for (auto& xi : x) blas::zero(xi, ex);
    } else {
      std::vector<SpinorField> xs_store, P;
      std::vector<SpinorField*> X(n);
      for (std::size_t i = 0; i < n; ++i) {
        if (mixed) xs_store.emplace_back(sp);
        P.emplace_back(sp);
      }
      for (std::size_t i = 0; i < n; ++i) X[i] = mixed ? &xs_store[i] : &x[i];
      // The residual r lives in rbuf[work]. Windowed (SolverParams::multishift_window = W > 1),
      // each iteration's base step (p = r + beta p, blas::multishift_base_step) also copies r into
      // a free buffer, which becomes the working residual, and the iterated residual stays behind
      // as one of the window's (win, oldest first): W + 1 buffers. The solution updates of every
      // shift, and the other shifts' p updates, are only recorded, as coefficients of their p_i at
      // the window's start (the base's saved in p_start by the window's first step) and of the
      // window's residuals (pend), and applied by one blas::multishift_window pass when W
      // iterations are recorded, before a reliable update or a fold of the base's solution, and
      // at the end. That pass reads and writes each x_i and p_i once a window instead of once an
      // iteration: with 8 shifts, 33 vectors an iteration became 4 + 40 / W. On a failure the
      // recorded updates of the window are not applied.
      const int W = n > 1 ? p.multishift_window : 1;
      const bool windowed = W > 1;
      std::vector<SpinorField> rbuf;
      for (int j = 0; j < (windowed ? W + 1 : 1); ++j) rbuf.emplace_back(sp);
      int work = 0;
      SpinorField* r = &rbuf[0];
      SpinorField Ap(sp);
      blas::copy(*r, b, exs);
      double r2 = blas::norm2(*r, exs);
      for (std::size_t i = 0; i < n; ++i) {
        blas::zero(*X[i], exs);
        if (mixed) blas::zero(x[i], ex);
        blas::copy(P[i], *r, exs);
      }
      std::vector<int> win;
      std::vector<blas::ShiftWindow> pend(n);
      std::vector<bool> recorded(n, false);
      std::optional<SpinorField> p_start;  // windowed: the base's p at the window's start
      if (windowed) p_start.emplace(sp);
      std::vector<bool> active(n, true);
      auto flush_window = [&](bool more) {
        if (win.empty()) return;
        std::vector<const SpinorField*> rs;
        for (int j : win) rs.push_back(&rbuf[static_cast<std::size_t>(j)]);
        std::vector<blas::ShiftWindow> ws;
        for (std::size_t i = 0; i < n; ++i) {
          if (!recorded[i]) continue;
          blas::ShiftWindow w = pend[i];
          w.x = X[i];
          w.p = i == base ? &*p_start : &P[i];
          w.update_p = more && active[i] && i != base;
          ws.push_back(w);
          pend[i] = blas::ShiftWindow{};
          recorded[i] = false;
        }
        blas::multishift_window(rs, ws, exs);
        win.clear();
      };
      // Mixed: x_i += the sloppy X_i (then zeroed), for the shifts updated since the last flush.
      SpinorField outer(vp);
      std::vector<bool> dirty(n, false);
      auto flush = [&] {
        flush_window(true);
        if (!mixed) return;  // X_i is x_i itself
        for (std::size_t i = 0; i < n; ++i) {
          if (!dirty[i]) continue;
          blas::accumulate(x[i], *X[i], ex);
          dirty[i] = false;
        }
      };
      const LinearOp Abase = solvers::detail::make_op(op, Form::normal, shifts[base]);
      double rmax = std::sqrt(r2);
      std::vector<double> zeta(n, 1.0), zeta_old(n, 1.0);
      double alpha_old = 1.0, beta_old = 0.0;
      std::vector<blas::ShiftUpdate> updates;
      // The base system's step as CG takes it (LinearOp::apply_residual): p^dagger A p, alpha and
      // r -= alpha A p with |r|^2 stay on the device, folded into the operator's last kernel
      // where it has the fold (A = M or B^+ B, no shift), and the host waits once an iteration,
      // for p^dagger A p and the new |r|^2 that the shifts' coefficients need. Slots 0 and 1: |r|^2
      // now and next, alternating; 2: p^dagger A p; 3: its scratch.
      runtime::ScalarSlots slots(exs, 4);
      int cur = 0;
      slots.set(cur, r2);
      const blas::Slot pAp_slot{&slots, 2};
      while (std::any_of(active.begin(), active.end(), [](bool a) { return a; }) && !m.out_of_iterations()) {
        As.apply_residual(Ap, P[base], *r, blas::Slot{&slots, cur}, pAp_slot, blas::Slot{&slots, 1 - cur});
        slots.record();
        // Windowed, the base step (its beta read from the slots) is queued before the host waits
        // for them: it runs during the host's round trip, which left the GPU idle 7-9 us an
        // iteration (bench/results/2026-11-28-multishift-window/, profile). What follows the wait
        // (the shifts' coefficients, the window's flush, a reliable update) came after it before.
        int next = 0;
        if (windowed) {
          while (next == work || std::find(win.begin(), win.end(), next) != win.end()) ++next;
          blas::multishift_base_step(blas::Slot{&slots, cur}, blas::Slot{&slots, 1 - cur}, *r, P[base],
                                     rbuf[static_cast<std::size_t>(next)], win.empty() ? &*p_start : nullptr, exs);
        }
        slots.wait();
        const double pAp = slots.host(2), r2_new = slots.host(1 - cur);
        m.finite("p^dagger (A + sigma) p", pAp);
        if (pAp <= 0.0)
          throw Failure{"breakdown: p^dagger (A + sigma_min) p = " + sci(pAp) +
                        " <= 0 (the smallest shifted operator is not positive definite)"};
        const double alpha = blas::detail::cg_alpha(r2, pAp);  // the one the device applied
        m.finite("alpha", alpha);
        cur = 1 - cur;
        m.finite("|r|^2", r2_new);
        const double beta = r2_new / r2;
        updates.clear();
        int stepped = 0;  // shifts updated by this iteration
        for (std::size_t i = 0; i < n; ++i) {
          if (i != base && !active[i]) continue;
          double zn = 1.0, ai = alpha, bi = beta;
          if (i != base) {
            const double ds = shifts[i] - shifts[base];
            const double den = alpha * beta_old * (zeta_old[i] - zeta[i]) +
                               zeta_old[i] * alpha_old * (1.0 + ds * alpha);
            zn = zeta[i] * zeta_old[i] * alpha_old / den;
            m.finite("zeta", zn);
            ai = alpha * zn / zeta[i];
            bi = beta * (zn / zeta[i]) * (zn / zeta[i]);
          }
          if (!windowed) {
            updates.push_back({X[i], &P[i], ai, bi, zn});
          } else {
            // x_i += ai p_i, then p_i = zn r + bi p_i, with p_i = cp p_i(start) + sum_j dp_j r_j
            // and r the window's residual j = win.size(); the base's p_i(start) is p_start.
            blas::ShiftWindow& w = pend[i];
            const std::size_t k = win.size();
            w.cx += ai * w.cp;
            for (std::size_t j = 0; j < k; ++j) w.dx[j] += ai * w.dp[j];
            w.cp *= bi;
            for (std::size_t j = 0; j < k; ++j) w.dp[j] *= bi;
            w.dp[k] = zn;
            recorded[i] = true;
          }
          ++stepped;
          dirty[i] = true;
          zeta_old[i] = zeta[i];
          zeta[i] = zn;
        }
        if (windowed) {
          win.push_back(work);
          work = next;
          r = &rbuf[static_cast<std::size_t>(work)];
        } else {
          blas::multishift_update(*r, updates, exs);
        }
        alpha_old = alpha;
        beta_old = beta;
        r2 = r2_new;
        m.iteration(r2, b2);
        m.flops(As.flops + nrs * (6.0 + 4.0 * static_cast<double>(stepped)));
        for (std::size_t i = 0; i < n; ++i)
          if (active[i] && zeta[i] * zeta[i] * r2 <= tols[i] * tols[i] * b2) {
            active[i] = false;
            out.shift_iterations[i] = res.iterations;
          }
        if (static_cast<int>(win.size()) == W) flush_window(true);
        if (mixed && res.iterations % kBaseFlushIterations == 0) {
          flush_window(true);
          blas::accumulate(x[base], *X[base], ex);
          dirty[base] = false;
        }
        rmax = std::max(rmax, std::sqrt(r2));
        const bool more = std::any_of(active.begin(), active.end(), [](bool a) { return a; });
        if (mixed && more && std::sqrt(r2) < delta * rmax) {  // reliable update of the base shift
          flush();
          Abase.apply(outer, x[base]);
          // outer = b - (A + sigma_min) x_min, and r = outer in the sloppy precision
          const double t2 = blas::xmy_norm2_copy(b, outer, *r, ex);
          m.flops(Abase.flops + 3.0 * nrs);
          m.finite("true |r|^2", t2);
          ++res.reliable_updates;
          r2 = t2;
          slots.set(cur, r2);
          rmax = std::sqrt(t2);
        }
      }
      for (std::size_t i = 0; i < n; ++i)
        if (active[i]) out.shift_iterations[i] = res.iterations;
      // True residual per shift in the outer precision; refine those above their tolerance, one
      // by one or together (SolverParams::multishift_together).
      flush_window(false);
      flush();
      const bool together = p.multishift_together == 1 ||
                            (p.multishift_together == -1 && exs.on_device() && so.shifted_multi_width() > 1 &&
                             !solvers::detail::multishift_together_env_off());
      // t = b - (A + sigma_i) x_i; sets the shift's true residual and returns |t|^2.
      auto check = [&](std::size_t i, SpinorField& t) {
        const LinearOp Ai = solvers::detail::make_op(op, Form::normal, shifts[i]);
        Ai.apply(t, x[i]);
        const double t2 = blas::xmy_norm2(b, t, ex);
        m.flops(Ai.flops + 3.0 * nrs);
        m.finite("true |r|^2", t2);
        ++res.reliable_updates;
        out.true_residual[i] = std::sqrt(t2 / b2);
        return t2;
      };
      // No iterations left for shift i: the solve fails (the first such shift is named).
      auto out_of_iterations = [&](std::size_t i) {
        if (p.max_iter - res.iterations > 0) return false;
        if (failure.empty())
          failure = "no convergence within max_iter = " + std::to_string(p.max_iter) + " iterations (shift " +
                    std::to_string(i) + ": true relative residual " + sci(out.true_residual[i]) + " > tol " +
                    sci(tols[i]) + ")";
        return true;
      };
      auto refine_params = [&](std::size_t i) {
        SolverParams q = p;
        q.tol = tols[i];
        q.max_iter = p.max_iter - res.iterations;
        q.use_initial_guess = true;
        q.throw_on_failure = false;
        return q;
      };
      // A refinement's result into the solve's (its iterations, history, updates, flops, residual).
      auto absorb = [&](std::size_t i, const SolverResult& rr) {
        res.iterations += rr.iterations;
        res.history.insert(res.history.end(), rr.history.begin(), rr.history.end());
        res.reliable_updates += rr.reliable_updates;
        res.lookaheads += rr.lookaheads;
        res.lookaheads_void += rr.lookaheads_void;
        res.flops += rr.flops;
        out.refine_iterations[i] = rr.iterations;
        out.refine_seconds[i] = rr.seconds;
        out.true_residual[i] = rr.true_residual;
        if (!rr.converged && failure.empty())
          failure = "refinement of shift " + std::to_string(i) + " (sigma " + sci(shifts[i]) + ") failed: " + rr.failure;
      };
      out.refined_together = together;
      runtime::Timer refine_timer;
      refine_timer.start();
      if (!together) {
        SpinorField tmp(vp);
        for (std::size_t i = 0; i < n; ++i) {
          const double t2 = check(i, tmp);
          if (out.true_residual[i] <= tols[i] || out_of_iterations(i)) continue;
          // tmp = b - (A + sigma_i) x_i, as the refinement's first step would form it again
          absorb(i, solvers::detail::cg_shifted_from(op, shifts[i], x[i], b, {&tmp, t2}, refine_params(i), sloppy));
        }
      } else {
        std::vector<SpinorField> resid;  // b - (A + sigma_i) x_i of the shifts to refine
        std::vector<solvers::detail::StartResidual> starts;
        std::vector<std::size_t> refine;
        std::vector<double> rs, rt;
        std::vector<SpinorField*> rx;
        resid.reserve(n);  // starts point into it
        for (std::size_t i = 0; i < n; ++i) {
          if (resid.size() == refine.size()) resid.emplace_back(vp);
          const double t2 = check(i, resid.back());
          if (out.true_residual[i] <= tols[i]) continue;
          starts.push_back({&resid.back(), t2});
          refine.push_back(i);
          rs.push_back(shifts[i]);
          rt.push_back(tols[i]);
          rx.push_back(&x[i]);
        }
        if (!refine.empty() && !out_of_iterations(refine.front())) {
          const std::vector<SolverResult> rr =
              solvers::detail::cg_shifted_together(op, rs, rx, b, starts, rt, refine_params(refine.front()), sloppy);
          for (std::size_t k = 0; k < refine.size(); ++k) absorb(refine[k], rr[k]);
        }
      }
      runtime::synchronize(exs);
      refine_timer.stop();
      out.refine_wall_seconds = refine_timer.elapsed_s();
      res.true_residual = *std::max_element(out.true_residual.begin(), out.true_residual.end());
    }
  } catch (const Failure& f) {
    failure = f.reason;
  }
  m.finish(failure);
  out.converged = res.converged;
  return out;
}

}  // namespace gluon::qcd
