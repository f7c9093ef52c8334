// HPL's LU: recursive panel factorisation (left/Crout/right), panel broadcast, row swaps,
// trailing update with look-ahead 0/1, backward solve and the residual check. docs/hpl.md.
#include "gluon/hpl/lu.h"

#include <cblas.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "gluon/runtime/error.h"
#include "gluon/runtime/progress.h"

namespace gluon::hpl {

std::vector<RowMove> panel_row_moves(const double* ipiv, long j, int jb) {
  std::map<long, long> content;  // row -> the original row it holds now
  auto at = [&](long r) -> long& {
    auto it = content.find(r);
    if (it == content.end()) it = content.emplace(r, r).first;
    return it->second;
  };
  for (int k = 0; k < jb; ++k) {
    const long a = j + k, b = static_cast<long>(ipiv[k]);
    if (a != b) std::swap(at(a), at(b));
  }
  std::vector<RowMove> moves;
  for (const auto& [r, from] : content)
    if (from != r) moves.push_back({r, from});
  return moves;
}

double hpl_flops(long n) {
  const double d = static_cast<double>(n);
  return 2.0 / 3.0 * d * d * d + 1.5 * d * d;
}

std::optional<HplGrid> make_grid(comm::Communicator& world, int p, int q, bool column_major) {
  if (p < 1 || q < 1) throw InputError("hpl: process grid P x Q must have P, Q >= 1");
  const int r = world.rank();
  const bool in = r < p * q;
  auto all = world.split(in ? 0 : 1, r);
  if (!in) return std::nullopt;
  HplGrid g;
  g.world = &world;
  g.p = p, g.q = q, g.column_major = column_major;
  g.myrow = column_major ? r % p : r / q;
  g.mycol = column_major ? r / p : r % q;
  g.row = all->split(g.myrow, g.mycol);  // the Q processes of my process row, ranked by column
  g.col = all->split(g.mycol, g.myrow);  // the P processes of my process column, ranked by row
  g.all = std::move(all);
  return g;
}

namespace {

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// The factored panel as every process of the row holds it: [ipiv (jb) | U11\L11 (jb x jb) | L2 (m2 x jb)].
struct PanelBuf {
  long j = 0;
  int jb = 0;
  long m2 = 0;
  double* data = nullptr;
  std::size_t size = 0;
  void shape(UpdateEngine& eng, int id, long j_, int jb_, long m2_) {
    j = j_, jb = jb_, m2 = m2_;
    size = static_cast<std::size_t>(jb + jb * jb + m2 * jb);
    data = eng.workspace(id, size);
  }
  double* ipiv() { return data; }
  double* ut() { return data + jb; }
  double* l2() { return data + jb + jb * jb; }
};

class Lu {
 public:
  Lu(const HplRunParams& prm, HplGrid& g, LocalMatrix& a, UpdateEngine& eng)
      : prm_(prm), g_(g), a_(a), eng_(eng), nb_(prm.nb), n_(prm.n), par_(eng.parallel_host_copies()) {}

  void factorize(const std::function<void(double)>& progress) {
    const long npan = (n_ + nb_ - 1) / nb_;
    PanelBuf cur, next;
    int cur_id = 0;
    bool have_cur = false;
    for (long t = 0; t < npan; ++t) {
      const long j = t * nb_;
      const int jb = static_cast<int>(std::min<long>(nb_, n_ - j));
      const int pcol = owner(j, nb_, g_.q);
      if (!have_cur) {
        cur.shape(eng_, cur_id, j, jb, a_.mp - lo(j + jb));
        if (g_.mycol == pcol) factor_panel(cur);
        panel_broadcast(*g_.row, cur.data, cur.size * sizeof(double), pcol, prm_.bcast, tag(t));
      }
      have_cur = false;
      const long first = j + jb;  // first trailing column; b is column n_
      if (prm_.depth >= 1 && t + 1 < npan) {
        const long nj = first;
        const int njb = static_cast<int>(std::min<long>(nb_, n_ - nj));
        const int npcol = owner(nj, nb_, g_.q);
        if (g_.mycol == npcol) {
          // The next panel's columns first; the rest of the update is started (on a GPU it runs
          // while the CPU factors and sends the next panel) and completed afterwards.
          update(cur, nj, nj + njb);
          update(cur, nj + njb, n_ + 1, true);
          next.shape(eng_, 1 - cur_id, nj, njb, a_.mp - lo(nj + njb));
          factor_panel(next);
          panel_broadcast(*g_.row, next.data, next.size * sizeof(double), npcol, prm_.bcast, tag(t + 1));
          eng_.gemm_end();
          std::swap(cur, next);
          cur_id = 1 - cur_id;
          have_cur = true;
        } else {
          update(cur, first, n_ + 1);
        }
      } else {
        update(cur, first, n_ + 1);
      }
      if (progress) progress(static_cast<double>(j + jb));
    }
  }

 private:
  static int tag(long t) { return static_cast<int>(16 * (t % 4096)); }
  // Local rows (or columns) with global index < g.
  long lo(long g) const { return numroc(g, nb_, g_.myrow, g_.p); }
  long lcol(long g) const { return numroc(g, nb_, g_.mycol, g_.q); }

  // ---------------- panel factorisation (the process column of the panel) ----------------
  struct PanelCtx {
    long j;
    int jb;
    double* pa;  // local column of the panel's first column
    long lda, m;
    double* ut;  // jb x jb, column-major
    double* ipiv;
    int curr;    // process row owning rows j..j+jb-1
    std::vector<double> send, recv;
    double& A(long i, long c) { return pa[i + c * lda]; }
    double& U(long l, long c) { return ut[l + c * jb]; }
  };

  void factor_panel(PanelBuf& out) {
    PanelCtx c;
    c.j = out.j;
    c.jb = out.jb;
    c.lda = a_.lda;
    c.m = a_.mp;
    c.pa = a_.col(to_local(out.j, nb_, g_.q));
    c.ut = out.ut();
    c.ipiv = out.ipiv();
    c.curr = owner(out.j, nb_, g_.p);
    std::fill(c.ut, c.ut + c.jb * c.jb, 0.0);
    rfact(c, 0, c.jb);
    // The top rows of the panel (on the current process row) take U11 and L11.
    if (g_.myrow == c.curr) {
      const long i0 = lo(c.j);
      for (int k = 0; k < c.jb; ++k)
        for (int col = 0; col < c.jb; ++col) c.A(i0 + k, col) = c.U(k, col);
    }
    // L2 into the broadcast buffer.
    const long i2 = lo(c.j + c.jb);
    for (int col = 0; col < c.jb; ++col)
      std::copy(&c.A(i2, col), &c.A(i2, col) + out.m2, out.l2() + col * out.m2);
  }

  void rfact(PanelCtx& c, int r0, int rw) {
    if (rw <= std::max(1, prm_.nbmin) || rw < prm_.ndiv) {
      leaf(c, r0, rw);
      return;
    }
    const int sub = std::max(1, (rw + prm_.ndiv - 1) / prm_.ndiv);
    const Fact rf = prm_.rfact;
    const int end = r0 + rw;
    for (int a = r0; a < end; a += sub) {
      const int w = std::min(sub, end - a);
      if (a > r0 && (rf == Fact::left || rf == Fact::crout)) {
        if (rf == Fact::left)
          cblas_dtrsm(CblasColMajor, CblasLeft, CblasLower, CblasNoTrans, CblasUnit, a - r0, w, 1.0, &c.U(r0, r0),
                      c.jb, &c.U(r0, a), c.jb);
        const long i0 = lo(c.j + a);
        if (c.m > i0)
          cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, c.m - i0, w, a - r0, -1.0, &c.A(i0, r0), c.lda,
                      &c.U(r0, a), c.jb, 1.0, &c.A(i0, a), c.lda);
      }
      rfact(c, a, w);
      if (a + w < end && (rf == Fact::right || rf == Fact::crout)) {
        if (rf == Fact::crout && a > r0)
          cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, w, end - a - w, a - r0, -1.0, &c.U(a, r0), c.jb,
                      &c.U(r0, a + w), c.jb, 1.0, &c.U(a, a + w), c.jb);
        cblas_dtrsm(CblasColMajor, CblasLeft, CblasLower, CblasNoTrans, CblasUnit, w, end - a - w, 1.0, &c.U(a, a),
                    c.jb, &c.U(a, a + w), c.jb);
        if (rf == Fact::right) {
          const long i1 = lo(c.j + a + w);
          if (c.m > i1)
            cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, c.m - i1, end - a - w, w, -1.0, &c.A(i1, a), c.lda,
                        &c.U(a, a + w), c.jb, 1.0, &c.A(i1, a + w), c.lda);
        }
      }
    }
  }

  void leaf(PanelCtx& c, int a, int w) {
    const Fact pf = prm_.pfact;
    for (int k = a; k < a + w; ++k) {
      const long i0 = lo(c.j + k);
      if (k > a && (pf == Fact::left || pf == Fact::crout)) {
        if (pf == Fact::left)
          for (int l = a; l < k; ++l) {
            double s = c.U(l, k);
            for (int m = a; m < l; ++m) s -= c.U(l, m) * c.U(m, k);
            c.U(l, k) = s;
          }
        if (c.m > i0)
          cblas_dgemv(CblasColMajor, CblasNoTrans, c.m - i0, k - a, -1.0, &c.A(i0, a), c.lda, &c.U(a, k), 1, 1.0,
                      &c.A(i0, k), 1);
      }
      pivot(c, k);
      if (pf == Fact::crout)
        for (int col = k + 1; col < a + w; ++col) {
          double s = c.U(k, col);
          for (int m = a; m < k; ++m) s -= c.U(k, m) * c.U(m, col);
          c.U(k, col) = s;
        }
      const long i1 = lo(c.j + k + 1);
      const double piv = c.U(k, k);
      if (c.m > i1) {
        if (piv != 0.0) {
          const double inv = 1.0 / piv;
          double* col = &c.A(i1, k);
          for (long i = 0; i < c.m - i1; ++i) col[i] *= inv;
        }
        if (pf == Fact::right && k + 1 < a + w)
          cblas_dger(CblasColMajor, c.m - i1, a + w - k - 1, -1.0, &c.A(i1, k), 1, &c.U(k, k + 1), c.jb,
                     &c.A(i1, k + 1), c.lda);
      }
    }
  }

  // Pivot search for panel column k over the process column, and the swap of the pivot row with
  // row j+k inside the panel. Afterwards U(k, :) holds the pivot row (every process).
  void pivot(PanelCtx& c, int k) {
    const int jb = c.jb;
    const long gk = c.j + k;
    const long i0 = lo(gk);
    const std::size_t rec = 3 + 2 * static_cast<std::size_t>(jb);
    c.send.assign(rec, 0.0);
    double best = -1.0;
    long bi = -1;
    for (long i = i0; i < c.m; ++i) {
      const double v = std::abs(c.A(i, k));
      if (v > best) best = v, bi = i;
    }
    c.send[0] = best;
    c.send[1] = bi >= 0 ? static_cast<double>(to_global(bi, nb_, g_.myrow, g_.p)) : -1.0;
    if (bi >= 0)
      for (int col = 0; col < jb; ++col) c.send[3 + col] = c.A(bi, col);
    const bool has_cur = g_.myrow == c.curr && i0 < c.m;
    c.send[2] = has_cur ? 1.0 : 0.0;
    if (has_cur)
      for (int col = 0; col < jb; ++col) c.send[3 + jb + col] = c.A(i0, col);
    const int np = g_.p;
    c.recv.resize(rec * np);
    g_.col->allgather(c.send.data(), rec * sizeof(double), c.recv.data());
    int who = -1, cur_who = -1;
    for (int r = 0; r < np; ++r) {
      const double* x = c.recv.data() + r * rec;
      if (x[2] != 0.0) cur_who = r;
      if (x[1] < 0) continue;
      if (who < 0 || x[0] > c.recv[who * rec] ||
          (x[0] == c.recv[who * rec] && x[1] < c.recv[who * rec + 1]))
        who = r;
    }
    if (cur_who < 0) throw Error("hpl: internal error: no process holds the current row of the panel");
    const double* currow = c.recv.data() + cur_who * rec + 3 + jb;
    long p = gk;
    const double* w = currow;
    if (who >= 0 && c.recv[who * rec] > 0.0) {
      p = static_cast<long>(c.recv[who * rec + 1]);
      w = c.recv.data() + who * rec + 3;
    }
    for (int col = 0; col < jb; ++col) c.U(k, col) = w[col];
    c.ipiv[k] = static_cast<double>(p);
    if (p != gk && owner(p, nb_, g_.p) == g_.myrow) {
      const long lp = to_local(p, nb_, g_.p);
      for (int col = 0; col < jb; ++col) c.A(lp, col) = currow[col];
    }
  }

  // ---------------- row swaps and trailing update of global columns [g0, g1) ----------------
  void update(PanelBuf& pb, long g0, long g1, bool started_only = false) {
    const long c0 = lcol(g0), c1 = lcol(g1);
    const long nc = c1 - c0;
    if (nc <= 0) return;
    const int jb = pb.jb;
    const long j = pb.j;
    // The permutation of the rows touched by the panel's swaps: content[r] = original row now at r.
    std::map<long, long> content;
    for (const RowMove& mv : panel_row_moves(pb.ipiv(), j, jb)) content.emplace(mv.dst, mv.src);
    auto at = [&](long r) -> long {
      const auto it = content.find(r);
      return it == content.end() ? r : it->second;
    };
    const int np = g_.p, me = g_.myrow, curr = owner(j, nb_, np);
    std::vector<long> src(jb);
    for (int k = 0; k < jb; ++k) src[k] = at(j + k);
    // U rows: each process contributes the source rows it owns.
    std::vector<std::vector<double>> blocks(np);
    std::vector<std::vector<int>> rows_of(np);
    for (int k = 0; k < jb; ++k) rows_of[owner(src[k], nb_, np)].push_back(k);
    for (int r = 0; r < np; ++r) blocks[r].resize(rows_of[r].size() * nc);
    // Blocks of rows are stored column by column (rows of one column contiguous): the loops run
    // down the columns of the local matrix, where the rows touched lie close together.
    auto pack_rows = [&](const std::vector<long>& grows, double* dst) {
      const long nr = static_cast<long>(grows.size());
      if (nr == 0) return;
      std::vector<long> li(grows.size());
      for (long s = 0; s < nr; ++s) li[s] = to_local(grows[s], nb_, np);
#pragma omp parallel for schedule(static) if (par_ && nc * nr > 65536)
      for (long cc = 0; cc < nc; ++cc) {
        const double* col = a_.col(c0 + cc);
        for (long s = 0; s < nr; ++s) dst[cc * nr + s] = col[li[s]];
      }
    };
    {
      std::vector<long> g;
      for (int k : rows_of[me]) g.push_back(src[k]);
      pack_rows(g, blocks[me].data());
    }
    // Displaced rows below the panel: position r >= j+jb gets original row content[r] (a top row, on curr).
    std::vector<std::vector<std::pair<long, long>>> moves(np);  // per destination process row
    for (const auto& [r, from] : content)
      if (r >= j + jb && from != r) moves[owner(r, nb_, np)].push_back({r, from});
    std::vector<std::vector<double>> out(np);
    std::vector<double> in;
    if (me == curr)
      for (int d = 0; d < np; ++d) {
        out[d].resize(moves[d].size() * nc);
        std::vector<long> g;
        for (const auto& mv : moves[d]) g.push_back(mv.second);
        pack_rows(g, out[d].data());
      }
    // Gather U on every process of the column.
    const bool binexch = prm_.swap == Swap::bin_exch || (prm_.swap == Swap::mix && nc <= prm_.swap_threshold);
    allgather_blocks(*g_.col, blocks, binexch, 7);
    // Spread the displaced rows from the current process row.
    if (np > 1) {
      std::vector<comm::Transfer> batch;
      if (me == curr) {
        for (int d = 0; d < np; ++d)
          if (d != curr && !out[d].empty()) batch.push_back(comm::Transfer::send(out[d].data(), out[d].size() * sizeof(double), d, 11));
      } else if (!moves[me].empty()) {
        in.resize(moves[me].size() * nc);
        batch.push_back(comm::Transfer::recv(in.data(), in.size() * sizeof(double), curr, 11));
      }
      if (!batch.empty()) g_.col->exchange(batch)->wait();
    }
    const double* mine = me == curr ? out[me].data() : in.data();
    {
      const long nr = static_cast<long>(moves[me].size());
      std::vector<long> li(moves[me].size());
      for (long s = 0; s < nr; ++s) li[s] = to_local(moves[me][s].first, nb_, np);
      if (nr > 0) {
#pragma omp parallel for schedule(static) if (par_ && nc * nr > 65536)
        for (long cc = 0; cc < nc; ++cc) {
          double* col = a_.col(c0 + cc);
          for (long s = 0; s < nr; ++s) col[li[s]] = mine[cc * nr + s];
        }
      }
    }
    // U (jb x nc, column-major), then U := L11^{-1} U.
    double* u = eng_.workspace(2, static_cast<std::size_t>(jb * nc));
    for (int r = 0; r < np; ++r) {
      const long nr = static_cast<long>(rows_of[r].size());
      if (nr == 0) continue;
      const double* x = blocks[r].data();
      const std::vector<int>& ks = rows_of[r];
#pragma omp parallel for schedule(static) if (par_ && nc * nr > 65536)
      for (long cc = 0; cc < nc; ++cc)
        for (long s = 0; s < nr; ++s) u[ks[s] + cc * jb] = x[cc * nr + s];
    }
    cblas_dtrsm(CblasColMajor, CblasLeft, CblasLower, CblasNoTrans, CblasUnit, jb, nc, 1.0, pb.ut(), jb, u, jb);
    if (me == curr) {
      const long i0 = lo(j);
#pragma omp parallel for schedule(static) if (par_ && nc * jb > 65536)
      for (long cc = 0; cc < nc; ++cc)
        for (int k = 0; k < jb; ++k) a_.at(i0 + k, c0 + cc) = u[k + cc * jb];
    }
    const long i2 = lo(j + jb);
    if (pb.m2 <= 0) return;
    if (started_only)
      eng_.gemm_begin(pb.m2, nc, jb, pb.l2(), pb.m2, u, jb, &a_.at(i2, c0), a_.lda);
    else
      eng_.gemm_minus(pb.m2, nc, jb, pb.l2(), pb.m2, u, jb, &a_.at(i2, c0), a_.lda);
  }

  const HplRunParams& prm_;
  HplGrid& g_;
  LocalMatrix& a_;
  UpdateEngine& eng_;
  long nb_, n_;
  bool par_;
};


}  // namespace

std::vector<double> backward_solve(const HplRunParams& prm, HplGrid& g, LocalMatrix& a) {
  const long n = prm.n, nb = prm.nb;
  std::vector<double> x(static_cast<std::size_t>(n), 0.0);
  std::vector<double> xl(static_cast<std::size_t>(std::max<long>(a.nq, 1)), 0.0);  // x at my local columns
  const int bcol = owner(n, nb, g.q);
  const long lb = to_local(n, nb, g.q);
  const long nloc = numroc(n, nb, g.mycol, g.q);  // my local columns of A (not b)
  std::vector<double> v;
  for (long kb = (n - 1) / nb; kb >= 0; --kb) {
    const long g0 = kb * nb;
    const int bs = static_cast<int>(std::min<long>(nb, n - g0));
    const int prow = owner(g0, nb, g.p), pcol = owner(g0, nb, g.q);
    v.assign(bs, 0.0);
    if (g.myrow == prow) {
      const long li0 = to_local(g0, nb, g.p);
      if (g.mycol == bcol)
        for (int i = 0; i < bs; ++i) v[i] = a.at(li0 + i, lb);
      const long lc0 = numroc(g0 + bs, nb, g.mycol, g.q);
      if (nloc > lc0)
        cblas_dgemv(CblasColMajor, CblasNoTrans, bs, nloc - lc0, -1.0, &a.at(li0, lc0), a.lda, xl.data() + lc0, 1,
                    1.0, v.data(), 1);
      g.row->allreduce_sum(v.data(), v.size());
      if (g.mycol == pcol)
        cblas_dtrsv(CblasColMajor, CblasUpper, CblasNoTrans, CblasNonUnit, bs, &a.at(li0, to_local(g0, nb, g.q)),
                    a.lda, v.data(), 1);
    }
    g.all->broadcast(v.data(), v.size() * sizeof(double), g.rank_of(prow, pcol));
    for (int i = 0; i < bs; ++i) x[g0 + i] = v[i];
    if (g.mycol == pcol) {
      const long lc = to_local(g0, nb, g.q);
      for (int i = 0; i < bs; ++i) xl[lc + i] = v[i];
    }
  }
  return x;
}


RunResult run_hpl(const HplRunParams& prm, HplGrid& g, const RunOptions& opt) {
  if (prm.n < 1 || prm.nb < 1)
    throw InputError("hpl: N and NB must be positive, found N=" + std::to_string(prm.n) + " NB=" + std::to_string(prm.nb));
  if (prm.p != g.p || prm.q != g.q) throw InputError("hpl: run parameters and grid disagree on P x Q");
  std::unique_ptr<UpdateEngine> own;
  UpdateEngine* eng = opt.engine;
  if (!eng) own = make_cpu_engine(), eng = own.get();

  // The GPU LU when the engine offers one on every grid rank; else the host LU.
  std::unique_ptr<DeviceLu> device = eng->device_lu(prm, g);
  double everywhere = device ? 1.0 : 0.0;
  g.all->allreduce_min(&everywhere, 1);
  if (everywhere == 0.0) device.reset();
  LocalMatrix a(prm.n, prm.nb, g.p, g.q, g.myrow, g.mycol, /*allocate=*/!device);
  if (device) {
    device->load(opt.seed);
  } else {
    a.generate(opt.seed);
  }
  struct Unregister {
    UpdateEngine* e;
    ~Unregister() { e->unregister_host(); }
  } unregister{eng};
  if (!device) eng->register_host(a.a.data(), a.a.size());

  const bool speaker = g.all->rank() == 0;
  const double total = hpl_flops(prm.n);
  Clock::time_point t0;
  double last_print = 0;
  auto progress = [&](double done_cols) {
    if (!speaker || opt.progress_interval_s <= 0) return;
    const double el = seconds_since(t0);
    if (el - last_print < opt.progress_interval_s || done_cols >= prm.n) return;
    last_print = el;
    const double rem = static_cast<double>(prm.n) - done_cols;
    const double done = 2.0 / 3.0 * (std::pow(static_cast<double>(prm.n), 3) - rem * rem * rem);
    char line[200];
    std::snprintf(line, sizeof line, "hpl: N=%ld %5.1f%% of the flops done, %.2f GFLOP/s so far, elapsed %s", prm.n,
                  100.0 * done / total, done / el * 1e-9, runtime::Progress::format_duration(el).c_str());
    if (opt.progress_sink)
      opt.progress_sink(line);
    else
      std::cerr << line << std::endl;
  };

  g.all->barrier();
  t0 = Clock::now();
  std::vector<double> x;
  if (device) {
    x = device->solve(progress);
  } else {
    Lu lu(prm, g, a, *eng);
    lu.factorize(progress);
    x = backward_solve(prm, g, a);
  }
  g.all->barrier();
  RunResult res;
  res.time_s = g.all->max(seconds_since(t0));
  res.gflops = total / res.time_s * 1e-9;
  eng->finish();

  res.placement = device ? device->placement() : "host";
  if (device) res.breakdown = device->breakdown();
  if (opt.corrupt_solution) x[0] += 1.0;
  // Check against a fresh copy of [A b], generated again one block of columns at a time.
  const long n = prm.n, nb = prm.nb;
  const long nloc = numroc(n, nb, g.mycol, g.q);
  std::vector<double> r(static_cast<std::size_t>(a.mp), 0.0), rowsum(static_cast<std::size_t>(a.mp), 0.0);
  std::vector<double> blk(static_cast<std::size_t>(a.lda * nb));
  double bmax = 0.0;
  for (long lj0 = 0; lj0 < a.nq; lj0 += nb) {
    const long w = std::min<long>(nb, a.nq - lj0);
    a.generate_columns(lj0, w, blk.data(), a.lda, opt.seed);
    for (long jj = 0; jj < w; ++jj) {
      const long lj = lj0 + jj;
      const double* c = blk.data() + jj * a.lda;
      if (lj >= nloc) {  // b
        for (long i = 0; i < a.mp; ++i) r[i] -= c[i], bmax = std::max(bmax, std::abs(c[i]));
        continue;
      }
      const double xj = x[to_global(lj, nb, g.mycol, g.q)];
      for (long i = 0; i < a.mp; ++i) r[i] += c[i] * xj, rowsum[i] += std::abs(c[i]);
    }
  }
  std::vector<double> both(r);
  both.insert(both.end(), rowsum.begin(), rowsum.end());
  g.row->allreduce_sum(both.data(), both.size());
  double rmax = 0, amax = 0;
  for (long i = 0; i < a.mp; ++i) rmax = std::max(rmax, std::abs(both[i])), amax = std::max(amax, both[a.mp + i]);
  double m3[3] = {rmax, amax, bmax};
  g.all->allreduce_max(m3, 3);
  double xmax = 0;
  for (double v : x) xmax = std::max(xmax, std::abs(v));
  const double eps = std::ldexp(1.0, -53);
  res.norm_r = m3[0], res.norm_a = m3[1], res.norm_b = m3[2], res.norm_x = xmax;
  res.resid = res.norm_r / (eps * (res.norm_a * res.norm_x + res.norm_b) * static_cast<double>(n));
  res.passed = std::isfinite(res.resid) && res.resid < prm.threshold;
  res.x = std::move(x);
  return res;
}

}  // namespace gluon::hpl
