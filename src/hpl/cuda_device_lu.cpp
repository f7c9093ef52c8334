// The device-resident LU for P = 1 (device_lu.h). Streams and events of one step t:
//
//   panel stream sp   (owner of panel t) waits `ready` (its columns are up to date), factors the
//                     panel in place, copies it into the broadcast buffer (Q > 1) and ipiv to the
//                     host; records `fact`. High priority: its small kernels slot in between the
//                     trailing DGEMM's blocks.
//   comm stream sc    (Q > 1) NCCL broadcast of [ipiv | panel] from the owner; the others copy
//                     ipiv to the host; records `bcast`. High priority too.
//   update stream su  waits for the panel, applies the row interchanges to the trailing columns,
//                     DTRSM of the U rows, then DGEMM: the next panel's columns first (records
//                     `ready`, and the host queues that panel's factorisation right away: the
//                     look-ahead), then the rest.
//
// The host reads ipiv (one small copy per step) to turn the interchanges into one permutation
// (panel_row_moves), so the trailing columns are permuted in one pass instead of jb swaps.
//
// Out of core (P = Q = 1, [A b] larger than the budget): [A b] lives in pinned host memory and
// the device holds a window of W columns (W a multiple of NB). For each window, left to right:
// copy it up; apply every earlier panel to it in order (its interchanges, DTRSM, DGEMM: the same
// operations, in the same order, as the right-looking LU applies to those columns), each
// panel's L streamed up on a copy stream sx while the previous panel's DGEMM runs; factor the
// window's own panels as in core. The window is a ring: once panel t's update is done its
// columns are final, so sx copies them down and the next window's columns up into the same
// slots while the later panels' DGEMMs run; only the first window's upload and the last
// window's b column wait in line. A crosses the link about 2 + N/(2W) times in all instead of
// once per panel, and the backward solve runs on the host (hpl::backward_solve).
// Broadcast buffers alternate between two, each reused only after the update and the broadcast
// of two steps back are done with it (events `ufree`, `cfree`).
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>

#include "device_lu.h"
#include "gluon/comm/backends.h"
#include "gluon/comm/environment.h"
#include "gluon/runtime/error.h"
#include "gluon/runtime/log.h"
#include "lu_kernels.h"

namespace gluon::hpl {

namespace {

void ck(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw DeviceError(std::string("hpl device LU: ") + what + ": " + cudaGetErrorString(e));
}
void ck(cublasStatus_t s, const char* what) {
  if (s != CUBLAS_STATUS_SUCCESS)
    throw DeviceError(std::string("hpl device LU: ") + what + ": cuBLAS status " + std::to_string(static_cast<int>(s)));
}

long round_up(long x, long m) { return (x + m - 1) / m * m; }

// Device memory kept free beside the matrix: cuBLAS workspaces, NCCL buffers, solve vectors.
constexpr std::size_t kSlack = std::size_t{256} << 20;

struct Shape {
  long n, nb, mp, nq, ld;
  int q, mycol;
  Shape(const HplRunParams& prm, const HplGrid& g)
      : n(prm.n), nb(prm.nb), mp(prm.n), nq(numroc(prm.n + 1, prm.nb, g.mycol, g.q)),
        ld(round_up(std::max<long>(1, prm.n), 32)), q(g.q), mycol(g.mycol) {}
  std::size_t bcast_doubles() const { return static_cast<std::size_t>(nb + mp * nb); }
};

class CudaLu final : public DeviceLu {
 public:
  // window = 0: resident (every local column on the device); > 0: out of core, Q = 1.
  CudaLu(const HplRunParams& prm, HplGrid& g, int device, long window)
      : prm_(prm), g_(g), s_(prm, g), device_(device), window_(window) {
    if (window_ > 0 && (s_.q != 1 || window_ % s_.nb != 0))
      throw Error("hpl device LU: internal error: out of core needs Q = 1 and a window of whole panels");
    cols_ = window_ > 0 ? std::min<long>(window_, s_.nq) : s_.nq;
    ck(cudaSetDevice(device_), "cudaSetDevice");
    int lo = 0, hi = 0;
    ck(cudaDeviceGetStreamPriorityRange(&lo, &hi), "cudaDeviceGetStreamPriorityRange");
    ck(cudaStreamCreateWithPriority(&su_, cudaStreamNonBlocking, lo), "cudaStreamCreate (update)");
    ck(cudaStreamCreateWithPriority(&sp_, cudaStreamNonBlocking, hi), "cudaStreamCreate (panel)");
    ck(cudaStreamCreateWithPriority(&sc_, cudaStreamNonBlocking, hi), "cudaStreamCreate (broadcast)");
    ck(cudaStreamCreateWithPriority(&sx_, cudaStreamNonBlocking, lo), "cudaStreamCreate (L up)");
    ck(cublasCreate(&hu_), "cublasCreate");
    ck(cublasCreate(&hp_), "cublasCreate");
    ck(cublasSetStream(hu_, su_), "cublasSetStream");
    ck(cublasSetStream(hp_, sp_), "cublasSetStream");
    for (cudaEvent_t* e : {&fact_, &bcast_, &ready_, &ufree_[0], &ufree_[1], &cfree_[0], &cfree_[1], &copied_[0],
                           &copied_[1], &lready_[0], &lready_[1], &lfree_[0], &lfree_[1], &up_, &ring_})
      ck(cudaEventCreateWithFlags(e, cudaEventDisableTiming), "cudaEventCreate");
    ck(cudaMalloc(reinterpret_cast<void**>(&a_), sizeof(double) * s_.ld * std::max<long>(1, cols_)),
       window_ > 0 ? "cudaMalloc (window of [A b])" : "cudaMalloc (local [A b])");
    if (window_ > 0)
      for (double*& b : lbuf_)
        ck(cudaMalloc(reinterpret_cast<void**>(&b), sizeof(double) * s_.mp * s_.nb), "cudaMalloc (L of a panel)");
    if (s_.q > 1)
      for (double*& b : bcast_buf_)
        ck(cudaMalloc(reinterpret_cast<void**>(&b), sizeof(double) * s_.bcast_doubles()), "cudaMalloc (panel buffer)");
    ck(cudaMalloc(reinterpret_cast<void**>(&ipiv_dev_), sizeof(double) * s_.nb), "cudaMalloc (ipiv)");
    ck(cudaMallocHost(reinterpret_cast<void**>(&ipiv_host_), sizeof(double) * s_.nb), "cudaMallocHost (ipiv)");
    for (int p = 0; p < 2; ++p) {
      ck(cudaMalloc(reinterpret_cast<void**>(&moves_dev_[p]), sizeof(long) * 4 * s_.nb), "cudaMalloc (row moves)");
      ck(cudaMallocHost(reinterpret_cast<void**>(&moves_host_[p]), sizeof(long) * 4 * s_.nb), "cudaMallocHost (row moves)");
    }
    scratch_ = kernels::make_pivot_scratch(s_.mp);
    leaf_ = std::clamp(prm.nbmin, 2, 128);
    ndiv_ = std::max(2, prm.ndiv);
  }

  ~CudaLu() override {
    cudaSetDevice(device_);
    cudaDeviceSynchronize();
    row_.reset();
    kernels::free_pivot_scratch(scratch_);
    for (int p = 0; p < 2; ++p) {
      if (moves_dev_[p]) cudaFree(moves_dev_[p]);
      if (moves_host_[p]) cudaFreeHost(moves_host_[p]);
      if (bcast_buf_[p]) cudaFree(bcast_buf_[p]);
      if (lbuf_[p]) cudaFree(lbuf_[p]);
    }
    if (registered_) cudaHostUnregister(host_->a.data());
    if (ipiv_dev_) cudaFree(ipiv_dev_);
    if (ipiv_host_) cudaFreeHost(ipiv_host_);
    if (a_) cudaFree(a_);
    for (cudaEvent_t e : {fact_, bcast_, ready_, ufree_[0], ufree_[1], cfree_[0], cfree_[1], copied_[0], copied_[1],
                          lready_[0], lready_[1], lfree_[0], lfree_[1], up_, ring_})
      if (e) cudaEventDestroy(e);
    if (hu_) cublasDestroy(hu_);
    if (hp_) cublasDestroy(hp_);
    for (cudaEvent_t e : pool_) cudaEventDestroy(e);
    for (cudaStream_t st : {su_, sp_, sc_, sx_})
      if (st) cudaStreamDestroy(st);
  }

  std::string placement() const override { return window_ > 0 ? "out-of-core" : "resident"; }

  void load(std::uint64_t seed) override {
    ck(cudaSetDevice(device_), "cudaSetDevice");
    if (window_ > 0) {  // [A b] in host memory, pinned so that the windows and L copy asynchronously
      host_ = std::make_unique<LocalMatrix>(prm_.n, prm_.nb, 1, 1, 0, 0);
      host_->generate(seed);
      registered_ = cudaHostRegister(host_->a.data(), sizeof(double) * host_->a.size(), cudaHostRegisterDefault) ==
                    cudaSuccess;
      if (!registered_) {
        cudaGetLastError();
        runtime::log::warn("hpl: could not pin the host matrix (cudaHostRegister); the out-of-core copies will not "
                           "overlap the updates");
      }
      return;
    }
    if (s_.q > 1 && !row_) row_ = comm::make_nccl_communicator(*g_.row, device_);
    // Columns generated on the host into two pinned staging buffers (about 256 MB each) and
    // copied up while the next block is generated.
    const LocalMatrix shape(prm_.n, prm_.nb, 1, s_.q, 0, s_.mycol, /*allocate=*/false);
    const long cols = std::clamp<long>((32L << 20) / std::max<long>(1, s_.mp), 1, std::max<long>(1, s_.nq));
    double* stage[2] = {nullptr, nullptr};
    cudaEvent_t done[2];
    for (int p = 0; p < 2; ++p) {
      ck(cudaMallocHost(reinterpret_cast<void**>(&stage[p]), sizeof(double) * s_.mp * cols), "cudaMallocHost (staging)");
      ck(cudaEventCreateWithFlags(&done[p], cudaEventDisableTiming), "cudaEventCreate");
    }
    int p = 0;
    for (long lj0 = 0; lj0 < s_.nq; lj0 += cols, p ^= 1) {
      const long w = std::min(cols, s_.nq - lj0);
      ck(cudaEventSynchronize(done[p]), "cudaEventSynchronize (staging)");
      shape.generate_columns(lj0, w, stage[p], s_.mp, seed);
      ck(cudaMemcpy2DAsync(a_ + lj0 * s_.ld, sizeof(double) * s_.ld, stage[p], sizeof(double) * s_.mp,
                           sizeof(double) * s_.mp, w, cudaMemcpyHostToDevice, su_),
         "cudaMemcpy2DAsync (matrix up)");
      ck(cudaEventRecord(done[p], su_), "cudaEventRecord");
    }
    ck(cudaStreamSynchronize(su_), "cudaStreamSynchronize (matrix up)");
    for (int q = 0; q < 2; ++q) {
      cudaFreeHost(stage[q]);
      cudaEventDestroy(done[q]);
    }
  }

  std::vector<double> solve(const std::function<void(double)>& progress) override {
    const auto t0 = std::chrono::steady_clock::now();
    std::vector<double> x = solve_all(progress);
    wall_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    collect();
    return x;
  }

  std::string breakdown() const override {
    const double g = seconds_[kGemm] + seconds_[kLeft];
    const double gflops = g > 0 ? (flops_[kGemm] + flops_[kLeft]) / g * 1e-12 : 0.0;
    const double busy = seconds_[kGemm] + seconds_[kRowsTrsm] + seconds_[kLeft] + seconds_[kCopy] + seconds_[kSolve];
    char copies[128] = "";
    if (window_ > 0)
      std::snprintf(copies, sizeof copies, " + window copies in line %.2f s (%.2f s more beside the DGEMM)",
                    seconds_[kCopy], seconds_[kRing]);
    char buf[400];
    std::snprintf(buf, sizeof buf,
                  "GPU LU (%s) %.2f s: update stream busy %.2f s = DGEMM %.2f s (%.1f TFLOP/s) + row moves and DTRSM "
                  "%.2f s%s + backward solve %.2f s; so %.2f s waiting (panels, host); panels %.2f s beside the DGEMM",
                  placement().c_str(), wall_, busy, g, gflops, seconds_[kRowsTrsm],
                  copies,
                  seconds_[kSolve], std::max(0.0, wall_ - busy), seconds_[kPanel]);
    return buf;
  }

 private:
  std::vector<double> solve_all(const std::function<void(double)>& progress) {
    ck(cudaSetDevice(device_), "cudaSetDevice");
    const long npan = (s_.n + s_.nb - 1) / s_.nb;
    if (window_ == 0) {
      col0_ = 0;
      panels(0, npan, progress);
      if (s_.q > 1) {
        ck(cudaEventRecord(bcast_, sc_), "cudaEventRecord");
        ck(cudaStreamWaitEvent(su_, bcast_), "cudaStreamWaitEvent");
      }
      ck(cudaStreamWaitEvent(su_, fact_), "cudaStreamWaitEvent");
      cudaEvent_t b = mark(su_);
      std::vector<double> x = backward_solve();
      span(kSolve, b, su_);
      return x;
    }
    ipiv_all_.assign(static_cast<std::size_t>(s_.n), 0.0);
    const long ldh = host_->lda;
    for (long w0 = 0; w0 < s_.nq; w0 += window_) {
      col0_ = w0;
      cols_ = std::min(window_, s_.nq - w0);
      if (w0 == 0) {
        cudaEvent_t b = mark(su_);
        ck(cudaMemcpy2DAsync(a_, sizeof(double) * s_.ld, host_->a.data(), sizeof(double) * ldh,
                             sizeof(double) * s_.mp, cols_, cudaMemcpyHostToDevice, su_),
           "cudaMemcpy2DAsync (window up)");
        span(kCopy, b, su_);
      } else {
        ck(cudaStreamWaitEvent(su_, ring_), "cudaStreamWaitEvent");  // the ring brought this window up
      }
      ck(cudaEventRecord(up_, su_), "cudaEventRecord");
      left_look(w0);
      const long t0 = w0 / s_.nb, t1 = std::min(npan, (w0 + cols_ + s_.nb - 1) / s_.nb);
      panels(t0, t1, progress);
      ck(cudaStreamWaitEvent(su_, fact_), "cudaStreamWaitEvent");
      // Columns no panel of this window covers (b, in the last window) go down in line.
      const long done = std::clamp<long>(s_.n - w0, 0, cols_);
      if (done < cols_) {
        cudaEvent_t b = mark(su_);
        ck(cudaMemcpy2DAsync(host_->a.data() + (w0 + done) * ldh, sizeof(double) * ldh, a_ + done * s_.ld,
                             sizeof(double) * s_.ld, sizeof(double) * s_.mp, cols_ - done, cudaMemcpyDeviceToHost, su_),
           "cudaMemcpy2DAsync (window down)");
        span(kCopy, b, su_);
      }
      ck(cudaStreamWaitEvent(su_, ring_), "cudaStreamWaitEvent");
      ck(cudaStreamSynchronize(su_), "cudaStreamSynchronize (window)");
      collect();
    }
    const auto h0 = std::chrono::steady_clock::now();
    std::vector<double> x = hpl::backward_solve(prm_, g_, *host_);
    seconds_[kSolve] += std::chrono::duration<double>(std::chrono::steady_clock::now() - h0).count();
    return x;
  }

  // Panels t_begin .. t_end-1 with their trailing updates over the columns held on the device.
  void panels(long t_begin, long t_end, const std::function<void(double)>& progress) {
    const long n = s_.n, nb = s_.nb;
    const bool lookahead = prm_.depth >= 1;
    long factored = -1;  // the panel this rank already factored ahead
    // The first panel waits for what su_ did before (the upload, the earlier panels of a window).
    ck(cudaEventRecord(ready_, su_), "cudaEventRecord");
    for (long t = t_begin; t < t_end; ++t) {
      const long j = t * nb;
      const int jb = static_cast<int>(std::min(nb, n - j));
      const long m = n - j;  // rows of the panel (P = 1: local rows are global rows)
      const int par = static_cast<int>(t & 1);
      const bool mine = s_.mycol == owner(j, nb, s_.q);
      if (mine && factored != t) factor(t);
      // The panel's L: the matrix itself on the owner, the broadcast buffer elsewhere.
      const double* l = a_ + j + loc(j) * s_.ld;
      long ldl = s_.ld;
      cudaEvent_t have = fact_;
      if (s_.q > 1) {
        double* buf = bcast_buf_[par];
        if (mine) {
          ck(cudaStreamWaitEvent(sc_, fact_), "cudaStreamWaitEvent");
        } else {
          ck(cudaStreamWaitEvent(sc_, ufree_[par]), "cudaStreamWaitEvent");
          l = buf + nb, ldl = m;
        }
        row_->device_broadcast(buf, sizeof(double) * (nb + m * jb), owner(j, nb, s_.q), sc_);
        if (!mine)
          ck(cudaMemcpyAsync(ipiv_host_, buf, sizeof(double) * jb, cudaMemcpyDeviceToHost, sc_), "ipiv down");
        ck(cudaEventRecord(cfree_[par], sc_), "cudaEventRecord");
        ck(cudaEventRecord(bcast_, sc_), "cudaEventRecord");
        if (!mine) have = bcast_;
      }
      ck(cudaEventSynchronize(have), "cudaEventSynchronize (panel)");
      ck(cudaStreamWaitEvent(su_, have), "cudaStreamWaitEvent");
      if (window_ > 0) std::copy(ipiv_host_, ipiv_host_ + jb, ipiv_all_.begin() + j);
      const std::vector<RowMove> moves = panel_row_moves(ipiv_host_, j, jb);

      // Trailing update of the columns held, [c0, cols_): global columns from j + jb on, b included.
      const long c0 = loc(j + jb), nc = cols_ - c0;
      const long m2 = m - jb;
      const bool next_mine = t + 1 < t_end && s_.mycol == owner(j + jb, nb, s_.q);
      if (nc > 0) {
        cudaEvent_t b = mark(su_);
        move_rows(moves, par, c0, nc);
        const double one = 1.0, minus = -1.0;
        double* u = a_ + j + c0 * s_.ld;
        ck(cublasDtrsm(hu_, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, CUBLAS_DIAG_UNIT, jb,
                       static_cast<int>(nc), &one, l, static_cast<int>(ldl), u, static_cast<int>(s_.ld)),
           "cublasDtrsm (U rows)");
        span(kRowsTrsm, b, su_);
        b = mark(su_);
        auto gemm = [&](long cfirst, long ncols) {
          if (m2 <= 0 || ncols <= 0) return;
          ck(cublasDgemm(hu_, CUBLAS_OP_N, CUBLAS_OP_N, static_cast<int>(m2), static_cast<int>(ncols), jb, &minus,
                         l + jb, static_cast<int>(ldl), a_ + j + cfirst * s_.ld, static_cast<int>(s_.ld), &one,
                         a_ + j + jb + cfirst * s_.ld, static_cast<int>(s_.ld)),
             "cublasDgemm (trailing update)");
        };
        if (lookahead && next_mine) {
          const long njb = std::min(nb, n - (j + jb));
          gemm(c0, njb);
          ck(cudaEventRecord(ready_, su_), "cudaEventRecord");
          // The owner of panel t+1 may have to wait for the others' broadcast buffers to free up
          // (factor() orders that); the panel runs beside the rest of this DGEMM.
          factor(t + 1);
          factored = t + 1;
          gemm(c0 + njb, nc - njb);
        } else {
          gemm(c0, nc);
          ck(cudaEventRecord(ready_, su_), "cudaEventRecord");
        }
        span(kGemm, b, su_, 2.0 * static_cast<double>(std::max<long>(m2, 0)) * static_cast<double>(nc) * jb);
      } else {
        ck(cudaEventRecord(ready_, su_), "cudaEventRecord");
      }
      ck(cudaEventRecord(ufree_[par], su_), "cudaEventRecord");
      if (window_ > 0) ring(j, jb, par);
      if (progress) progress(static_cast<double>(j + jb));
    }
    if (window_ > 0) ck(cudaEventRecord(ring_, sx_), "cudaEventRecord");
  }

  // Out of core: panel (j, jb)'s columns are final once its update is done (later steps touch
  // only columns right of it): sx_ copies them down, then the next window's columns in the same
  // slots up, beside the later DGEMMs.
  void ring(long j, int jb, int par) {
    const long ldh = host_->lda, slot = loc(j);
    ck(cudaStreamWaitEvent(sx_, ufree_[par]), "cudaStreamWaitEvent");
    cudaEvent_t b = mark(sx_);
    ck(cudaMemcpy2DAsync(host_->a.data() + j * ldh, sizeof(double) * ldh, a_ + slot * s_.ld, sizeof(double) * s_.ld,
                         sizeof(double) * s_.mp, jb, cudaMemcpyDeviceToHost, sx_),
       "cudaMemcpy2DAsync (panel down)");
    const long w1 = col0_ + window_;  // the next window's first column
    const long up = w1 < s_.nq ? std::min<long>(jb, std::min(window_, s_.nq - w1) - slot) : 0;
    if (up > 0)
      ck(cudaMemcpy2DAsync(a_ + slot * s_.ld, sizeof(double) * s_.ld, host_->a.data() + (w1 + slot) * ldh,
                           sizeof(double) * ldh, sizeof(double) * s_.mp, up, cudaMemcpyHostToDevice, sx_),
         "cudaMemcpy2DAsync (next window up)");
    span(kRing, b, sx_);
  }

  // Out of core: every panel left of the window (global columns before w0) applied to it in
  // order; panel p's L (rows j.., read from the host copy) goes up on sx_ into lbuf_[p % 2]
  // while the previous panel's DGEMM runs.
  void left_look(long w0) {
    const long ldh = host_->lda;
    // The host copy of earlier windows came down on sx_ itself (ring); up_ orders the L copies
    // after whatever su_ did before this window.
    ck(cudaStreamWaitEvent(sx_, up_), "cudaStreamWaitEvent");
    const double one = 1.0, minus = -1.0;
    for (long j = 0; j < w0; j += s_.nb) {
      const int jb = static_cast<int>(std::min(s_.nb, s_.n - j));
      const long m = s_.n - j;
      const int par = static_cast<int>((j / s_.nb) & 1);
      ck(cudaStreamWaitEvent(sx_, lfree_[par]), "cudaStreamWaitEvent");
      ck(cudaMemcpy2DAsync(lbuf_[par], sizeof(double) * m, host_->a.data() + j + j * ldh, sizeof(double) * ldh,
                           sizeof(double) * m, jb, cudaMemcpyHostToDevice, sx_),
         "cudaMemcpy2DAsync (L up)");
      ck(cudaEventRecord(lready_[par], sx_), "cudaEventRecord");
      ck(cudaStreamWaitEvent(su_, lready_[par]), "cudaStreamWaitEvent");
      cudaEvent_t b = mark(su_);
      move_rows(panel_row_moves(ipiv_all_.data() + j, j, jb), par, 0, cols_);
      ck(cublasDtrsm(hu_, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, CUBLAS_DIAG_UNIT, jb,
                     static_cast<int>(cols_), &one, lbuf_[par], static_cast<int>(m), a_ + j, static_cast<int>(s_.ld)),
         "cublasDtrsm (left-looking U rows)");
      if (m > jb)
        ck(cublasDgemm(hu_, CUBLAS_OP_N, CUBLAS_OP_N, static_cast<int>(m - jb), static_cast<int>(cols_), jb, &minus,
                       lbuf_[par] + jb, static_cast<int>(m), a_ + j, static_cast<int>(s_.ld), &one, a_ + j + jb,
                       static_cast<int>(s_.ld)),
           "cublasDgemm (left-looking update)");
      span(kLeft, b, su_, 2.0 * static_cast<double>(m - jb) * static_cast<double>(cols_) * jb);
      ck(cudaEventRecord(lfree_[par], su_), "cudaEventRecord");
    }
  }

  // Rows dst := old rows src over the held columns [c0, c0 + nc), on su_ (the lists go up
  // through pinned buffer `par`, reused once its previous copy is done).
  void move_rows(const std::vector<RowMove>& moves, int par, long c0, long nc) {
    if (moves.empty() || nc <= 0) return;
    ck(cudaEventSynchronize(copied_[par]), "cudaEventSynchronize (row moves)");
    long* h = moves_host_[par];
    const int cnt = static_cast<int>(moves.size());
    for (int i = 0; i < cnt; ++i) h[i] = moves[i].dst, h[cnt + i] = moves[i].src;
    ck(cudaMemcpyAsync(moves_dev_[par], h, sizeof(long) * 2 * cnt, cudaMemcpyHostToDevice, su_), "moves up");
    ck(cudaEventRecord(copied_[par], su_), "cudaEventRecord");
    kernels::apply_row_moves(a_ + c0 * s_.ld, s_.ld, nc, moves_dev_[par], moves_dev_[par] + cnt, cnt, su_);
  }

  long lcol(long g) const { return numroc(g, s_.nb, s_.mycol, s_.q); }
  long loc(long g) const { return lcol(g) - col0_; }  // index among the columns held on the device

  // Factors panel t (global columns [j, j+jb), all rows from j) in place on sp_; ipiv to the
  // host and, for Q > 1, [ipiv | panel] into the broadcast buffer. Records fact_.
  void factor(long t) {
    const long j = t * s_.nb;
    const int jb = static_cast<int>(std::min(s_.nb, s_.n - j));
    const long m = s_.n - j;
    const int par = static_cast<int>(t & 1);
    ck(cudaStreamWaitEvent(sp_, ready_), "cudaStreamWaitEvent");
    double* ipiv = ipiv_dev_;
    if (s_.q > 1) {
      ck(cudaStreamWaitEvent(sp_, ufree_[par]), "cudaStreamWaitEvent");
      ck(cudaStreamWaitEvent(sp_, cfree_[par]), "cudaStreamWaitEvent");
      ipiv = bcast_buf_[par];
    }
    double* p = a_ + j + loc(j) * s_.ld;
    cudaEvent_t b = mark(sp_);
    rfact(p, m, 0, jb, jb, j, ipiv);
    span(kPanel, b, sp_);
    if (s_.q > 1)
      ck(cudaMemcpy2DAsync(bcast_buf_[par] + s_.nb, sizeof(double) * m, p, sizeof(double) * s_.ld, sizeof(double) * m, jb,
                           cudaMemcpyDeviceToDevice, sp_),
         "panel into the broadcast buffer");
    ck(cudaMemcpyAsync(ipiv_host_, ipiv, sizeof(double) * jb, cudaMemcpyDeviceToHost, sp_), "ipiv down");
    ck(cudaEventRecord(fact_, sp_), "cudaEventRecord");
  }

  // Recursive right-looking factorisation of panel columns [c, c+w) (rows c.. of the m-row panel
  // p, leading dimension ld), split into ndiv parts down to leaves of at most leaf_ columns.
  void rfact(double* p, long m, int c, int w, int jb, long row0, double* ipiv) {
    const long ld = s_.ld;
    if (w <= leaf_) {
      kernels::pivot_search(p, ld, m, c, jb, row0, ipiv, scratch_, sp_);
      for (int k = c; k < c + w; ++k) kernels::eliminate(p, ld, m, k, c + w, jb, row0, ipiv, k + 1 < c + w, scratch_, sp_);
      return;
    }
    const int sub = std::max(1, (w + ndiv_ - 1) / ndiv_);
    const double one = 1.0, minus = -1.0;
    for (int a = c; a < c + w; a += sub) {
      const int ws = std::min(sub, c + w - a);
      rfact(p, m, a, ws, jb, row0, ipiv);
      const int rest = c + w - a - ws;
      if (rest <= 0) continue;
      double* u = p + a + (a + ws) * ld;
      ck(cublasDtrsm(hp_, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, CUBLAS_DIAG_UNIT, ws, rest, &one,
                     p + a + a * ld, static_cast<int>(ld), u, static_cast<int>(ld)),
         "cublasDtrsm (panel)");
      const long below = m - a - ws;
      if (below > 0)
        ck(cublasDgemm(hp_, CUBLAS_OP_N, CUBLAS_OP_N, static_cast<int>(below), rest, ws, &minus, p + a + ws + a * ld,
                       static_cast<int>(ld), u, static_cast<int>(ld), &one, p + a + ws + (a + ws) * ld,
                       static_cast<int>(ld)),
           "cublasDgemm (panel)");
    }
  }

  // U x = y block by block from the bottom (as the host's backward_solve): GEMV of my columns,
  // sum over the row, DTRSV on the diagonal block's owner, broadcast. x ends on every rank.
  std::vector<double> backward_solve() {
    const long n = s_.n, nb = s_.nb;
    const int bcol = owner(n, nb, s_.q);
    const long lb = to_local(n, nb, s_.q);
    const long nloc = numroc(n, nb, s_.mycol, s_.q);
    double *v = nullptr, *xl = nullptr, *xh = nullptr;
    ck(cudaMalloc(reinterpret_cast<void**>(&v), sizeof(double) * nb), "cudaMalloc (solve)");
    ck(cudaMalloc(reinterpret_cast<void**>(&xl), sizeof(double) * std::max<long>(1, s_.nq)), "cudaMalloc (solve)");
    ck(cudaMallocHost(reinterpret_cast<void**>(&xh), sizeof(double) * std::max<long>(1, n)), "cudaMallocHost (x)");
    struct Free {
      double *v, *xl, *xh;
      ~Free() {
        cudaFree(v);
        cudaFree(xl);
        cudaFreeHost(xh);
      }
    } release{v, xl, xh};
    ck(cudaMemsetAsync(xl, 0, sizeof(double) * std::max<long>(1, s_.nq), su_), "cudaMemsetAsync");
    const double one = 1.0, minus = -1.0;
    for (long kb = (n - 1) / nb; kb >= 0; --kb) {
      const long g0 = kb * nb;
      const int bs = static_cast<int>(std::min(nb, n - g0));
      const int pcol = owner(g0, nb, s_.q);
      if (s_.mycol == bcol)
        ck(cudaMemcpyAsync(v, a_ + g0 + lb * s_.ld, sizeof(double) * bs, cudaMemcpyDeviceToDevice, su_), "b block");
      else
        ck(cudaMemsetAsync(v, 0, sizeof(double) * bs, su_), "cudaMemsetAsync");
      const long lc0 = numroc(g0 + bs, nb, s_.mycol, s_.q);
      if (nloc > lc0)
        ck(cublasDgemv(hu_, CUBLAS_OP_N, bs, static_cast<int>(nloc - lc0), &minus, a_ + g0 + lc0 * s_.ld,
                       static_cast<int>(s_.ld), xl + lc0, 1, &one, v, 1),
           "cublasDgemv (backward solve)");
      if (s_.q > 1) row_->device_allreduce_sum(v, bs, su_);
      if (s_.mycol == pcol)
        ck(cublasDtrsv(hu_, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT, bs,
                       a_ + g0 + to_local(g0, nb, s_.q) * s_.ld, static_cast<int>(s_.ld), v, 1),
           "cublasDtrsv (backward solve)");
      if (s_.q > 1) row_->device_broadcast(v, sizeof(double) * bs, pcol, su_);
      if (s_.mycol == pcol)
        ck(cudaMemcpyAsync(xl + to_local(g0, nb, s_.q), v, sizeof(double) * bs, cudaMemcpyDeviceToDevice, su_), "x block");
      ck(cudaMemcpyAsync(xh + g0, v, sizeof(double) * bs, cudaMemcpyDeviceToHost, su_), "x down");
    }
    ck(cudaStreamSynchronize(su_), "cudaStreamSynchronize (backward solve)");
    return std::vector<double>(xh, xh + n);
  }

  const HplRunParams& prm_;
  HplGrid& g_;
  Shape s_;
  int device_;
  long window_ = 0;   // out of core: columns per window (0: resident)
  long cols_ = 0;     // columns held on the device now
  long col0_ = 0;     // local column index of the first one held
  int leaf_ = 16, ndiv_ = 2;
  double* a_ = nullptr;
  double* bcast_buf_[2] = {nullptr, nullptr};
  double* ipiv_dev_ = nullptr;
  double* ipiv_host_ = nullptr;
  long* moves_dev_[2] = {nullptr, nullptr};
  long* moves_host_[2] = {nullptr, nullptr};
  kernels::PivotScratch scratch_;
  cudaStream_t su_ = nullptr, sp_ = nullptr, sc_ = nullptr;
  cublasHandle_t hu_ = nullptr, hp_ = nullptr;
  cudaEvent_t fact_ = nullptr, bcast_ = nullptr, ready_ = nullptr;
  cudaEvent_t ufree_[2] = {nullptr, nullptr}, cfree_[2] = {nullptr, nullptr}, copied_[2] = {nullptr, nullptr};
  std::unique_ptr<comm::Communicator> row_;  // NCCL over the process row (Q > 1)
  // Timing: pairs of events around each kind of work, read after solve() (breakdown()).
  enum Phase { kGemm, kRowsTrsm, kPanel, kLeft, kCopy, kRing, kSolve, kPhases };
  struct Span {
    Phase phase;
    cudaEvent_t begin, end;
    double flops;
  };
  std::vector<Span> spans_;
  std::vector<cudaEvent_t> pool_;
  std::size_t pool_used_ = 0;
  double seconds_[kPhases] = {}, flops_[kPhases] = {};
  double wall_ = 0;
  cudaEvent_t mark(cudaStream_t st) {
    if (pool_used_ == pool_.size()) {
      cudaEvent_t e;
      ck(cudaEventCreate(&e), "cudaEventCreate (timing)");
      pool_.push_back(e);
    }
    cudaEvent_t e = pool_[pool_used_++];
    ck(cudaEventRecord(e, st), "cudaEventRecord (timing)");
    return e;
  }
  void span(Phase ph, cudaEvent_t b, cudaStream_t st, double flops = 0) { spans_.push_back({ph, b, mark(st), flops}); }
  // Sums the spans recorded so far (their events must be complete) and recycles the events.
  void collect() {
    for (const Span& x : spans_) {
      float ms = 0;
      // The last span (the backward solve's) ends with an event recorded after the stream was
      // synchronised: wait for it, or the read races the GPU ("device not ready").
      ck(cudaEventSynchronize(x.end), "cudaEventSynchronize (timing)");
      ck(cudaEventElapsedTime(&ms, x.begin, x.end), "cudaEventElapsedTime");
      seconds_[x.phase] += 1e-3 * ms;
      flops_[x.phase] += x.flops;
    }
    spans_.clear();
    pool_used_ = 0;
  }
  // Out of core: the host copy of [A b], every panel's ipiv, the two L buffers and their events.
  std::unique_ptr<LocalMatrix> host_;
  bool registered_ = false;
  std::vector<double> ipiv_all_;
  double* lbuf_[2] = {nullptr, nullptr};
  cudaStream_t sx_ = nullptr;
  cudaEvent_t lready_[2] = {nullptr, nullptr}, lfree_[2] = {nullptr, nullptr}, up_ = nullptr, ring_ = nullptr;
};

}  // namespace

std::size_t device_lu_bytes(const HplRunParams& prm, const HplGrid& g) {
  const Shape s(prm, g);
  std::size_t bytes = sizeof(double) * static_cast<std::size_t>(s.ld) * static_cast<std::size_t>(std::max<long>(1, s.nq));
  if (s.q > 1) bytes += 2 * sizeof(double) * s.bcast_doubles();
  return bytes + kSlack;
}

long out_of_core_window(const HplRunParams& prm, const HplGrid& g, std::size_t budget) {
  const Shape s(prm, g);
  const std::size_t fixed = 2 * sizeof(double) * static_cast<std::size_t>(s.mp * s.nb) + kSlack;  // two L buffers
  if (budget <= fixed) return 0;
  const long w = static_cast<long>((budget - fixed) / (sizeof(double) * static_cast<std::size_t>(s.ld)));
  return w / s.nb * s.nb;
}

std::unique_ptr<DeviceLu> make_device_lu(const HplRunParams& prm, HplGrid& g, int device, std::size_t budget,
                                         const std::string& placement, std::string& why_not) {
  auto gb = [](std::size_t b) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f GB", static_cast<double>(b) * 1e-9);
    return std::string(buf);
  };
  if (g.p != 1) {
    why_not = "P = " + std::to_string(g.p) + ": the GPU LU needs P = 1 (each rank holding whole columns)";
    return nullptr;
  }
  const std::size_t need = device_lu_bytes(prm, g);
  if (placement != "out-of-core") {
    if (g.q > 1 && (!comm::nccl_compiled() || g.row->backend() != comm::CommBackend::mpi)) {
      why_not = "Q = " + std::to_string(g.q) + " needs NCCL over MPI for the panel broadcasts, and this " +
                (comm::nccl_compiled() ? "run has no MPI process row" : "build has no NCCL");
      return nullptr;
    }
    if (need <= budget) return std::make_unique<CudaLu>(prm, g, device, 0);
    why_not = "the local [A b] and its buffers need " + gb(need) + " of device memory, the run may use " + gb(budget);
    if (placement == "resident") return nullptr;
  }
  if (g.q != 1) {
    why_not += std::string(why_not.empty() ? "" : "; ") + "the out-of-core LU needs Q = 1";
    return nullptr;
  }
  const long w = out_of_core_window(prm, g, budget);
  if (w < prm.nb) {
    why_not += std::string(why_not.empty() ? "" : "; ") + "a window of one panel (" + std::to_string(prm.nb) +
               " columns) does not fit " + gb(budget) + " with the L buffers and " + gb(kSlack) + " of slack";
    return nullptr;
  }
  return std::make_unique<CudaLu>(prm, g, device, w);
}

}  // namespace gluon::hpl
