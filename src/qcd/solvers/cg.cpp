// CG, CGNR, CGNE and shifted CG (cg.h) on top of the CG core of solver.cpp.
#include "gluon/qcd/solvers/cg.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "gluon/qcd/blas.h"
#include "gluon/runtime/error.h"
#include "gluon/runtime/scalar_slots.h"
#include "solver_support.h"

namespace gluon::qcd {

namespace {

using solvers::detail::Failure;
using solvers::detail::Form;
using solvers::detail::LinearOp;
using solvers::detail::Monitor;

using solvers::detail::sci;

std::string max_iter_reason(const SolverParams& p, double rel) {
  return "no convergence within max_iter = " + std::to_string(p.max_iter) +
         " iterations (true relative residual " + sci(rel) + " > tol " + sci(p.tol) + ")";
}

SolverResult run_cg(const char* name, const DiracOperator& op, double shift, SpinorField& x,
                    const SpinorField& b, const SolverParams& p, const DiracOperator* sloppy,
                    const solvers::detail::StartResidual* start = nullptr) {
  solvers::detail::check_vectors(name, op, x, b);
  solvers::detail::check_sloppy(name, op, sloppy);
  SolverResult res;
  res.precision = solvers::detail::precision_name(op, sloppy);
  Monitor m(name, p, res);
  std::string failure;
  try {
    if (!p.use_initial_guess) blas::zero(x, op.exec());
    const LinearOp A = solvers::detail::make_op(op, Form::normal, shift);
    const LinearOp As = sloppy ? solvers::detail::make_op(*sloppy, Form::normal, shift) : A;
    if (!solvers::detail::cg_core(A, As, sloppy != nullptr, x, b, p.tol, m, start))
      failure = max_iter_reason(p, res.true_residual);
  } catch (const Failure& f) {
    failure = f.reason;
  }
  m.finish(failure);
  return res;
}

// |b - M x|^2 with M the operator itself, in the outer precision.
double m_residual2(const DiracOperator& op, const SpinorField& x, const SpinorField& b, SpinorField& tmp,
                   Monitor& m) {
  op.M(tmp, x);
  const double r2 = blas::xmy_norm2(b, tmp, op.exec());
  m.flops(op.flops_M() + 3.0 * tmp.params().sites() * tmp.params().reals_per_site());
  m.finite("|b - M x|^2", r2);
  return r2;
}

}  // namespace

SolverResult cg(const DiracOperator& op, SpinorField& x, const SpinorField& b, const SolverParams& params,
                const DiracOperator* sloppy) {
  return run_cg("cg", op, 0.0, x, b, params, sloppy);
}

SolverResult cg_shifted(const DiracOperator& op, double shift, SpinorField& x, const SpinorField& b,
                        const SolverParams& params, const DiracOperator* sloppy) {
  return run_cg("cg (shifted)", op, shift, x, b, params, sloppy);
}

namespace solvers::detail {
SolverResult cg_shifted_from(const DiracOperator& op, double shift, SpinorField& x, const SpinorField& b,
                             const StartResidual& start, const SolverParams& params, const DiracOperator* sloppy) {
  if (!params.use_initial_guess)
    throw InputError("cg_shifted_from: the start residual is that of the given x (use_initial_guess)");
  check_vectors("cg (shifted)", op, *start.r, b);
  return run_cg("cg (shifted)", op, shift, x, b, params, sloppy, &start);
}

std::vector<SolverResult> cg_shifted_together(const DiracOperator& op, std::span<const double> shifts,
                                              std::span<SpinorField* const> x, const SpinorField& b,
                                              std::span<const StartResidual> starts, std::span<const double> tols,
                                              const SolverParams& params, const DiracOperator* sloppy) {
  const char* name = "cg (shifted)";
  const std::size_t n = shifts.size();
  if (x.size() != n || starts.size() != n || tols.size() != n)
    throw InputError("cg_shifted_together: expected one solution, start residual and tolerance per shift (" +
                     std::to_string(n) + "), found " + std::to_string(x.size()) + ", " +
                     std::to_string(starts.size()) + " and " + std::to_string(tols.size()));
  if (!params.use_initial_guess)
    throw InputError("cg_shifted_together: the start residuals are those of the given x (use_initial_guess)");
  check_sloppy(name, op, sloppy);
  for (std::size_t j = 0; j < n; ++j) {
    check_vectors(name, op, *x[j], b);
    check_vectors(name, op, *starts[j].r, b);
  }
  const bool mixed = sloppy != nullptr;
  const DiracOperator& so = mixed ? *sloppy : op;
  const runtime::Exec& exs = so.exec();
  // One solve's state; heap-allocated, as its Monitor and ReliableSolution keep references into it.
  struct Solve {
    std::size_t slot0 = 0;  // its slots: |r|^2 now and next (alternating), p^dagger A p, scratch
    double shift = 0.0;
    SolverParams q;
    SolverResult res;
    std::optional<Monitor> m;
    LinearOp A, As;
    std::optional<ReliableSolution> sol;
    std::optional<SpinorField> P, Ap;
    std::optional<CgProgress> g;
    double r2 = 0.0;
    bool active = false;
    std::string failure;
  };
  std::vector<std::unique_ptr<Solve>> solves;
  runtime::ScalarSlots slots(exs, static_cast<int>(4 * n));
  int cur = 0;
  auto fail = [](Solve& s, const Failure& f) {
    s.failure = f.reason;
    s.active = false;
    try {
      s.sol->flush();
    } catch (...) {
    }
  };
  for (std::size_t j = 0; j < n; ++j) {
    auto s = std::make_unique<Solve>();
    s->slot0 = 4 * j;
    s->shift = shifts[j];
    s->q = params;
    s->q.tol = tols[j];
    s->res.precision = precision_name(op, sloppy);
    s->m.emplace(name, s->q, s->res);
    s->A = make_op(op, Form::normal, shifts[j]);
    s->As = mixed ? make_op(*sloppy, Form::normal, shifts[j]) : s->A;
    try {
      s->sol.emplace(s->A, s->As, mixed, *x[j], b, tols[j], *s->m, SolverType::cg, &starts[j]);
      if (!s->sol->done()) {
        s->r2 = s->sol->r2;
        s->g.emplace(s->r2);
        s->P.emplace(s->As.params);
        s->Ap.emplace(s->As.params);
        blas::copy(*s->P, s->sol->R(), exs);
        slots.set(static_cast<int>(s->slot0) + cur, s->r2);
        s->active = true;
      }
    } catch (const Failure& f) {
      s->failure = f.reason;
    }
    solves.push_back(std::move(s));
  }
  const double nrs = static_cast<double>(so.vector_params().sites()) * so.vector_params().reals_per_site();
  std::vector<Solve*> step;
  std::vector<SpinorField*> outs;
  std::vector<const SpinorField*> ins;
  std::vector<double> sh;
  std::vector<blas::Slot> pap;
  int used = 0;  // iterations of all solves together
  while (true) {
    step.clear();
    for (auto& s : solves) {
      if (!s->active) continue;
      if (used + static_cast<int>(step.size()) >= params.max_iter) {
        s->active = false;
        try {
          if (s->sol->true_r2() > s->sol->stop2) s->failure = max_iter_reason(s->q, s->res.true_residual);
        } catch (const Failure& f) {
          fail(*s, f);
        }
        continue;
      }
      step.push_back(s.get());
    }
    if (step.empty()) break;
    used += static_cast<int>(step.size());
    auto slot = [&](const Solve* s, int i) { return blas::Slot{&slots, static_cast<int>(s->slot0) + i}; };
    if (step.size() == 1) {
      // One solve left: its operator step alone, with the operator's fused residual update.
      Solve* s = step.front();
      s->As.apply_residual(*s->Ap, *s->P, s->sol->R(), slot(s, cur), slot(s, 2), slot(s, 1 - cur));
    } else {
      outs.clear();
      ins.clear();
      sh.clear();
      pap.clear();
      for (Solve* s : step) {
        outs.push_back(&*s->Ap);
        ins.push_back(&*s->P);
        sh.push_back(s->shift);
        pap.push_back(slot(s, 2));
      }
      so.normal_shifted_multi(outs, ins, sh, pap);  // A p + shift p, and p^dagger (A + shift) p, each
      for (Solve* s : step)
        blas::cg_residual(slot(s, cur), slot(s, 2), *s->Ap, s->sol->R(), slot(s, 1 - cur), exs);  // R -= alpha A p
    }
    for (Solve* s : step)  // X += alpha p; p = R + beta p
      blas::cg_step_batched(slot(s, cur), slot(s, 2), slot(s, 1 - cur), *s->P, *s->P, s->sol->R(), &s->sol->X(), {}, exs);
    slots.record();
    slots.wait();
    cur = 1 - cur;
    for (Solve* s : step) {
      const int k = static_cast<int>(s->slot0);
      Monitor& m = *s->m;
      try {
        const double pAp = slots.host(k + 2);
        m.finite("p^dagger A p", pAp);
        if (pAp <= 0.0)
          throw Failure{"breakdown: p^dagger A p = " + sci(pAp) +
                        " <= 0 (the operator is not Hermitian positive definite)"};
        s->g->r2_prev = s->r2;
        s->r2 = slots.host(k + cur);
        m.finite("|r|^2", s->r2);
        m.iteration(s->r2, s->sol->b2);
        m.flops(s->As.flops + 10 * nrs);
        if (!s->g->check_due(s->r2, s->sol->stop2, mixed, s->sol->delta)) continue;
        if (cg_true_residual(*s->sol, s->sol->R(), *s->P, *s->g, s->r2, m, exs)) {
          s->active = false;
          continue;
        }
        slots.set(k + cur, s->r2);
      } catch (const Failure& f) {
        fail(*s, f);
      }
    }
  }
  std::vector<SolverResult> out;
  for (auto& s : solves) {
    s->m->finish(s->failure);
    out.push_back(std::move(s->res));
  }
  return out;
}

}  // namespace solvers::detail

SolverResult cgnr(const DiracOperator& op, SpinorField& x, const SpinorField& b, const SolverParams& p,
                  const DiracOperator* sloppy) {
  const char* name = "cgnr";
  solvers::detail::check_vectors(name, op, x, b);
  solvers::detail::check_sloppy(name, op, sloppy);
  SolverResult res;
  res.precision = solvers::detail::precision_name(op, sloppy);
  Monitor m(name, p, res);
  std::string failure;
  try {
    const runtime::Exec& ex = op.exec();
    if (!p.use_initial_guess) blas::zero(x, ex);
    LinearOp A = solvers::detail::make_op(op, Form::mdagm);
    const LinearOp As = sloppy ? solvers::detail::make_op(*sloppy, Form::mdagm) : A;
    const double b2 = blas::norm2(b, ex);
    m.finite("|b|^2", b2);
    if (b2 == 0.0) {
      blas::zero(x, ex);
      res.true_residual = 0.0;
    } else {
      SpinorField rhs(op.vector_params()), tmp(op.vector_params());
      op.Mdag(rhs, b);
      m.flops(op.flops_M());
      // The true residual of the normal equations as M^+ (b - M x), not M^+ b - M^+ M x: M x and
      // b - M x in the outer precision, which is what the solution's accuracy needs, and M^+ in
      // the precision of the residual it restarts (the sloppy one in a mixed solve, whose
      // iterations apply M^+ in that precision anyway). A reliable update then costs one
      // application of M in the outer precision instead of two, and |b - M x|^2 comes with it:
      // the last one serves as the check below (x is not changed after cg_core's last check).
      // (Called only by cg_core below, while these locals live; tmp serves as M x.)
      double last_m_r2 = -1.0;
      SpinorField mx_sloppy = sloppy ? SpinorField(sloppy->vector_params()) : SpinorField();
      A.normal_residual = [&](const SpinorField& xx, SpinorField& out, bool in_sloppy) {
        solvers::detail::NormalResidual n;
        op.M(tmp, xx);
        if (in_sloppy) {
          n.m_r2 = blas::xmy_norm2_copy(b, tmp, mx_sloppy, ex);  // tmp = b - M x, also in the sloppy
          sloppy->Mdag(out, mx_sloppy);
          n.r2 = blas::norm2(out, sloppy->exec());
        } else {
          n.m_r2 = blas::xmy_norm2(b, tmp, ex);
          op.Mdag(out, tmp);
          n.r2 = blas::norm2(out, ex);
        }
        last_m_r2 = n.m_r2;
        return n;
      };
      double tol_n = p.tol;
      while (true) {
        last_m_r2 = -1.0;
        solvers::detail::cg_core(A, As, sloppy != nullptr, x, rhs, tol_n, m);
        double mr2 = last_m_r2;
        if (mr2 < 0.0) mr2 = m_residual2(op, x, b, tmp, m);  // cg_core returned without a check (x = 0)
        m.finite("|b - M x|^2", mr2);
        const double rel = std::sqrt(mr2 / b2);
        res.true_residual = rel;
        if (rel <= p.tol) break;
        if (m.out_of_iterations()) {
          failure = max_iter_reason(p, rel);
          break;
        }
        // The normal equations converged but M's residual did not: tighten and continue from x.
        tol_n *= std::clamp(0.5 * p.tol / rel, 1e-3, 0.5);
        ++res.restarts;
        if (tol_n < 1e-16) {
          failure = "the normal-equation residual reached " + sci(tol_n) +
                    " but |b - M x| / |b| = " + sci(rel) + " is still above tol (precision limit)";
          break;
        }
      }
    }
  } catch (const Failure& f) {
    failure = f.reason;
  }
  m.finish(failure);
  return res;
}

SolverResult cgne(const DiracOperator& op, SpinorField& x, const SpinorField& b, const SolverParams& p,
                  const DiracOperator* sloppy) {
  const char* name = "cgne";
  solvers::detail::check_vectors(name, op, x, b);
  solvers::detail::check_sloppy(name, op, sloppy);
  SolverResult res;
  res.precision = solvers::detail::precision_name(op, sloppy);
  Monitor m(name, p, res);
  std::string failure;
  try {
    const runtime::Exec& ex = op.exec();
    const LinearOp A = solvers::detail::make_op(op, Form::mmdag);
    const LinearOp As = sloppy ? solvers::detail::make_op(*sloppy, Form::mmdag) : A;
    SpinorField y(op.vector_params());
    blas::zero(y, ex);
    bool met = false;
    try {
      met = solvers::detail::cg_core(A, As, sloppy != nullptr, y, b, p.tol, m);
    } catch (const Failure&) {
      op.Mdag(x, y);  // the last iterate
      throw;
    }
    // cg_core's last check was b - M (M^+ y) in the outer precision, y unchanged since: it is
    // already |b - M x| for the x formed here, by the same operations (res.true_residual).
    op.Mdag(x, y);
    m.flops(op.flops_M());
    if (!met) failure = max_iter_reason(p, res.true_residual);
  } catch (const Failure& f) {
    failure = f.reason;
  }
  m.finish(failure);
  return res;
}

}  // namespace gluon::qcd
