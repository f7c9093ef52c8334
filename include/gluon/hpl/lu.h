#pragma once
// hpl::run_hpl: one HPL run (factor [A b] = LU with row partial pivoting, backward solve, check)
// on a P x Q block-cyclic grid. Collective over the grid's ranks. docs/hpl.md has the algorithm.
//
//   make_grid(world, p, q, column_major)  collective over `world`: ranks 0..PQ-1 form the grid
//                     (PMAP row-major: rank = row * Q + col; column-major: rank = col * P + row)
//                     with row and column sub-communicators; other ranks get nullopt.
//   UpdateEngine      the trailing update C -= A B: make_cpu_engine() (OpenBLAS, all its
//                     threads) or make_cuda_engine() (cuBLAS on tiles streamed through the
//                     sched::Pipeline, with a share of the columns on the CPU chosen by a
//                     sched::SplitTable; update.cpp).
//   DeviceLu          the whole factorisation and solve on the GPU (cuda_device_lu.cpp), for
//                     P = 1: "resident" keeps the local [A b] in device memory; "out-of-core"
//                     (Q = 1, [A b] over the memory budget) keeps it in pinned host memory and
//                     factors it in windows of columns that fit, left-looking. The CUDA engine
//                     offers it through device_lu(); run_hpl then uses it instead of the host LU
//                     and the streamed update.
//   run_hpl           the run; RunResult has HPL's time, GFLOP/s and the scaled residual
//                     ||Ax-b||_oo / (eps (||A||_oo ||x||_oo + ||b||_oo) N), eps = 2^-53.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gluon/comm/communicator.h"
#include "gluon/hpl/dat.h"
#include "gluon/hpl/matrix.h"

namespace gluon::hpl {

struct HplGrid {
  comm::Communicator* world = nullptr;
  std::unique_ptr<comm::Communicator> all, row, col;  // all: the PQ grid ranks
  int p = 1, q = 1, myrow = 0, mycol = 0;
  bool column_major = false;
  int rank_of(int r, int c) const { return column_major ? c * p + r : r * q + c; }
};
std::optional<HplGrid> make_grid(comm::Communicator& world, int p, int q, bool column_major);

class DeviceLu {
 public:
  virtual ~DeviceLu() = default;
  virtual std::string placement() const = 0;  // "resident" or "out-of-core"
  // Generates this rank's part of [A b] (HPL's generator, `seed`) into device (or pinned) memory.
  // Collective over the grid; not part of the timed run, as HPL's own generation is not.
  virtual void load(std::uint64_t seed) = 0;
  // Factors [A b] with row partial pivoting and solves U x = y: x on every grid rank. Collective.
  // progress(columns factored) is called on every rank as the panels complete.
  virtual std::vector<double> solve(const std::function<void(double)>& progress) = 0;
  // Where the time of solve() went (measured with events on the device streams), one line.
  virtual std::string breakdown() const { return {}; }
};

class UpdateEngine {
 public:
  virtual ~UpdateEngine() = default;
  virtual std::string name() const = 0;
  // C(m x n) -= A(m x k) B(k x n), column-major host arrays.
  virtual void gemm_minus(long m, long n, long k, const double* a, long lda, const double* b, long ldb, double* c,
                          long ldc) = 0;
  // The same update in two halves: begin() may only start it (the CUDA engine issues the GPU
  // share and returns), end() completes it. Between them the caller must not touch C, A or B;
  // look-ahead factors the next panel there. One update in flight at a time.
  virtual void gemm_begin(long m, long n, long k, const double* a, long lda, const double* b, long ldb, double* c,
                          long ldc) {
    gemm_minus(m, n, k, a, lda, b, ldb, c, ldc);
  }
  virtual void gemm_end() {}
  // A line or two about what the engine did (split table, transfers), for the report.
  virtual std::string summary() const { return {}; }
  // Host buffer `id` of at least `count` doubles, owned by the engine (pinned memory for the
  // CUDA engine, so that the panels and U rows copy asynchronously). Contents not kept on growth.
  virtual double* workspace(int id, std::size_t count);
  // The local matrix, for the duration of a run (the CUDA engine pins it); idempotent.
  virtual void register_host(double* /*data*/, std::size_t /*count*/) {}
  virtual void unregister_host() {}
  // Whether the LU's row copies (swaps) may use OpenMP threads. The CPU engine says no: OpenMP's
  // spinning threads would fight OpenBLAS's own pool for the cores.
  virtual bool parallel_host_copies() const { return false; }
  // Called once at the end of a run (the CUDA engine saves its split table).
  virtual void finish() {}
  // A GPU factorisation for this run, or nullptr (then the host LU streams its updates through
  // this engine). Not collective: run_hpl agrees on the answer over the grid.
  virtual std::unique_ptr<DeviceLu> device_lu(const HplRunParams& /*prm*/, HplGrid& /*grid*/) { return nullptr; }

 protected:
  std::vector<std::vector<double>> workspaces_;
};
std::unique_ptr<UpdateEngine> make_cpu_engine();

struct CudaEngineOptions {
  int device = 0;
  std::string mode = "hybrid";   // hybrid | gpu (GPU only) | cpu-share-fixed (uses fixed_fraction)
  double fixed_fraction = -1.0;  // >= 0: GPU fraction fixed instead of adaptive
  std::string split_table;       // load at start (when present) and save at the end
  std::size_t memory_limit = 0;  // bytes of device memory the run may use; 0 = 90% of free
  int slots = 2;
  // auto: the device-resident LU when P = 1 and the local [A b] fits memory_limit, else the
  // out-of-core LU when P = Q = 1, else the streamed update; resident / out-of-core: that LU or
  // an error saying why not; streamed: the host LU with the streamed update.
  std::string placement = "auto";
};
// DeviceError when the build has no CUDA or no device is usable.
std::unique_ptr<UpdateEngine> make_cuda_engine(const CudaEngineOptions& o);

struct RunOptions {
  UpdateEngine* engine = nullptr;  // nullptr: a CPU engine
  std::uint64_t seed = default_seed;
  bool corrupt_solution = false;   // test hook: x[0] += 1 before the check (must report FAILED)
  double progress_interval_s = 5;  // <= 0: no progress lines
  std::function<void(const std::string&)> progress_sink;  // default: stderr on grid rank 0
};

struct RunResult {
  double time_s = 0, gflops = 0;
  double resid = 0, norm_r = 0, norm_a = 0, norm_x = 0, norm_b = 0;
  bool passed = false;
  std::string placement = "host";  // resident | out-of-core (DeviceLu) | host (the host LU)
  std::string breakdown;           // DeviceLu::breakdown() of rank 0's device (empty for the host LU)
  std::vector<double> x;  // the solution, on every grid rank
};

RunResult run_hpl(const HplRunParams& prm, HplGrid& grid, const RunOptions& opt);

double hpl_flops(long n);  // 2/3 N^3 + 3/2 N^2

// Solves U x = y with the factored local matrix (y = column N): x on every grid rank. Collective.
std::vector<double> backward_solve(const HplRunParams& prm, HplGrid& g, LocalMatrix& a);

// Building blocks, exposed for the tests.
// The row interchanges of one panel (ipiv[k] = the global row swapped with row j + k, applied
// in order k = 0 .. jb-1) as one permutation: after them, row dst holds what row src held
// before. Rows that end where they started are left out; the list is sorted by dst.
struct RowMove {
  long dst, src;
};
std::vector<RowMove> panel_row_moves(const double* ipiv, long j, int jb);
// Broadcast `bytes` of `data` from `root` over `comm` with HPL's topology `b`.
void panel_broadcast(comm::Communicator& comm, void* data, std::size_t bytes, int root, Bcast b, int tag);
// Every rank's block (blocks[r], sizes known everywhere) on every rank, by binary exchange
// (recursive doubling, folding the ranks above a power of two) or by a ring (roll).
void allgather_blocks(comm::Communicator& comm, std::vector<std::vector<double>>& blocks, bool binary_exchange,
                      int tag);

}  // namespace gluon::hpl
