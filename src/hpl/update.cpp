// The trailing-update engines: OpenBLAS on the CPU, and the hybrid CUDA engine (cuBLAS on tiles
// streamed through sched::Pipeline in bounce-corner-turn order, the CPU share by sched::SplitTable).
#include <cblas.h>
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "gluon/hpl/lu.h"
#include "gluon/runtime/error.h"
#include "gluon/runtime/log.h"
#include "gluon/runtime/memory.h"
#include "gluon/sched/pipeline.h"
#include "gluon/sched/split_table.h"

#if GLUON_HAVE_CUDA
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include "device_lu.h"
#endif

extern "C" void openblas_set_num_threads(int);
extern "C" int openblas_get_num_threads(void);

namespace gluon::hpl {

double* UpdateEngine::workspace(int id, std::size_t count) {
  if (id < 0) throw InputError("hpl: workspace id must be >= 0");
  if (workspaces_.size() <= static_cast<std::size_t>(id)) workspaces_.resize(id + 1);
  auto& w = workspaces_[id];
  if (w.size() < count) w.assign(std::max(count, w.size() * 5 / 4), 0.0);
  return w.data();
}

namespace {

void cpu_gemm_minus(long m, long n, long k, const double* a, long lda, const double* b, long ldb, double* c, long ldc) {
  if (m <= 0 || n <= 0 || k <= 0) return;
  cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, static_cast<int>(m), static_cast<int>(n), static_cast<int>(k),
              -1.0, a, static_cast<int>(lda), b, static_cast<int>(ldb), 1.0, c, static_cast<int>(ldc));
}

class CpuEngine : public UpdateEngine {
 public:
  std::string name() const override { return "cpu (OpenBLAS, " + std::to_string(openblas_get_num_threads()) + " threads)"; }
  void gemm_minus(long m, long n, long k, const double* a, long lda, const double* b, long ldb, double* c,
                  long ldc) override {
    cpu_gemm_minus(m, n, k, a, lda, b, ldb, c, ldc);
  }
};

}  // namespace

std::unique_ptr<UpdateEngine> make_cpu_engine() { return std::make_unique<CpuEngine>(); }

#if GLUON_HAVE_CUDA
namespace {

void ck(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw DeviceError(std::string("hpl cuda engine: ") + what + ": " + cudaGetErrorString(e));
}
void ck(cublasStatus_t s, const char* what) {
  if (s != CUBLAS_STATUS_SUCCESS)
    throw DeviceError(std::string("hpl cuda engine: ") + what + ": cuBLAS status " + std::to_string(static_cast<int>(s)));
}

class CudaEngine : public UpdateEngine {
 public:
  explicit CudaEngine(const CudaEngineOptions& o) : opt_(o), table_(std::max(1, omp_get_max_threads())) {
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0)
      throw DeviceError("hpl: --backend cuda/hybrid needs a CUDA device, and none is usable");
    if (o.device < 0 || o.device >= count)
      throw InputError("hpl: CUDA device " + std::to_string(o.device) + " asked for, " + std::to_string(count) + " present");
    ck(cudaSetDevice(o.device), "cudaSetDevice");
    ck(cublasCreate(&handle_), "cublasCreate");
    if (o.mode != "hybrid" && o.mode != "gpu")
      throw InputError("hpl cuda engine: mode must be hybrid or gpu, found '" + o.mode + "'");
    if (o.placement != "auto" && o.placement != "resident" && o.placement != "out-of-core" && o.placement != "streamed")
      throw InputError("hpl: --placement must be auto, resident, out-of-core or streamed, found '" + o.placement + "'");
    if (!o.split_table.empty() && std::filesystem::exists(o.split_table)) {
      table_ = sched::SplitTable::load(o.split_table);
      if (table_.cores() != std::max(1, omp_get_max_threads()))
        table_ = sched::SplitTable(std::max(1, omp_get_max_threads()));
    }
    if (o.mode == "gpu") table_.force(1.0);
    if (o.fixed_fraction >= 0) table_.force(o.fixed_fraction);
    std::size_t free_b = 0, total_b = 0;
    runtime::release_cached_device_memory(o.device);  // the budget is sized from what is free
    ck(cudaMemGetInfo(&free_b, &total_b), "cudaMemGetInfo");
    budget_ = o.memory_limit > 0 ? std::min(o.memory_limit, free_b) : free_b / 10 * 9;
    pipe_ = std::make_unique<sched::Pipeline>(std::max(2, o.slots), true);
    ck(cublasSetStream(handle_, static_cast<cudaStream_t>(pipe_->compute_stream())), "cublasSetStream");
    ck(cudaEventCreate(&t0_), "cudaEventCreate");
    ck(cudaEventCreate(&t1_), "cudaEventCreate");
  }
  ~CudaEngine() override {
    if (pending_.active && pipe_) {
      try {
        pipe_->wait();
      } catch (...) {
      }
    }
    pipe_.reset();
    release_device();
    unregister_host();
    for (auto& p : pinned_)
      if (p.ptr) cudaFreeHost(p.ptr);
    if (t0_) cudaEventDestroy(t0_);
    if (t1_) cudaEventDestroy(t1_);
    if (handle_) cublasDestroy(handle_);
  }

  std::string name() const override {
    cudaDeviceProp p{};
    cudaGetDeviceProperties(&p, opt_.device);
    return std::string(opt_.mode == "gpu" ? "gpu" : "hybrid") + " (cuBLAS on " + p.name + " + OpenBLAS)";
  }

  double* workspace(int id, std::size_t count) override {
    if (pinned_.size() <= static_cast<std::size_t>(id)) pinned_.resize(id + 1);
    auto& w = pinned_[id];
    if (w.count < count) {
      if (w.ptr) ck(cudaFreeHost(w.ptr), "cudaFreeHost");
      w.ptr = nullptr;
      const std::size_t c = std::max(count, w.count * 5 / 4);
      ck(cudaMallocHost(reinterpret_cast<void**>(&w.ptr), c * sizeof(double)), "cudaMallocHost (pinned workspace)");
      w.count = c;
    }
    return w.ptr;
  }

  void register_host(double* data, std::size_t count) override {
    if (registered_ == data) return;
    unregister_host();
    if (cudaHostRegister(data, count * sizeof(double), cudaHostRegisterDefault) == cudaSuccess) {
      registered_ = data;
    } else {
      cudaGetLastError();
      runtime::log::warn("hpl: could not pin the local matrix (cudaHostRegister); copies will be synchronous");
    }
  }
  void unregister_host() override {
    if (registered_) cudaHostUnregister(registered_);
    registered_ = nullptr;
  }

  void finish() override {
    if (!opt_.split_table.empty() && calls_ > 0) table_.save(opt_.split_table);
  }

  // The GPU LU when P = 1 (placement auto/resident/out-of-core): the matrix never waits for the
  // host, so the CPU takes no share of the update (the split table is not consulted).
  std::unique_ptr<DeviceLu> device_lu(const HplRunParams& prm, HplGrid& grid) override {
    std::string why = "--placement streamed";
    std::unique_ptr<DeviceLu> lu;
    if (opt_.placement != "streamed") {
      why.clear();
      release_device();  // tiles of an earlier streamed run
      std::size_t free_b = 0, total_b = 0;
      runtime::release_cached_device_memory(opt_.device);  // raw cudaMalloc below, sized from what is free
      ck(cudaMemGetInfo(&free_b, &total_b), "cudaMemGetInfo");
      const std::size_t budget = opt_.memory_limit > 0 ? std::min(opt_.memory_limit, free_b) : free_b / 100 * 95;
      lu = make_device_lu(prm, grid, opt_.device, budget, opt_.placement, why);
      if (!lu && opt_.placement != "auto") throw InputError("hpl: --placement " + opt_.placement + ": " + why);
    }
    placements_ += "N=" + std::to_string(prm.n) + " NB=" + std::to_string(prm.nb) + " " + std::to_string(prm.p) + "x" +
                   std::to_string(prm.q) + ": " +
                   (lu ? lu->placement() + " GPU LU" : "host LU, streamed update (" + why + ")") + "\n";
    return lu;
  }

  std::string summary() const override {
    std::string text = placements_.empty() ? std::string() : "placement:\n" + placements_;
    if (calls_ == 0) return text;
    char buf[256];
    const double dev_gb = 8.0 * pipe_->slots() * (static_cast<double>(tile_) * tile_ + 2.0 * tile_ * k_) * 1e-9;
    std::snprintf(buf, sizeof buf,
                  "updates %ld, GPU %.1f%% of the update flops, tile %ldx%ld (%.2f GB of device memory, budget %.2f GB), "
                  "%d operand loads, %d reuses\n",
                  calls_, flops_all_ > 0 ? 100.0 * flops_gpu_ / flops_all_ : 0.0, tile_, tile_, dev_gb,
                  static_cast<double>(budget_) * 1e-9, loads_, reuses_);
    return text + buf + "split table:\n" + table_.to_text();
  }
  const sched::SplitTable& table() const { return table_; }

  void gemm_minus(long m, long n, long k, const double* a, long lda, const double* b, long ldb, double* c,
                  long ldc) override {
    gemm_begin(m, n, k, a, lda, b, ldb, c, ldc);
    gemm_end();
  }

  void gemm_begin(long m, long n, long k, const double* a, long lda, const double* b, long ldb, double* c,
                  long ldc) override {
    if (pending_.active) gemm_end();
    if (m <= 0 || n <= 0 || k <= 0) return;
    const double work = 2.0 * m * n * k;
    ++calls_;
    flops_all_ += work;
    double f = table_.gpu_fraction(work);
    // Small updates stay on the CPU (transfers would dominate), unless GPU only.
    if (opt_.mode != "gpu" && (m < 512 || n < 512)) f = 0.0;
    long ng = static_cast<long>(std::llround(f * static_cast<double>(n)));
    if (ng < n && ng > 0) ng = std::min(n, (ng + 63) / 64 * 64);
    pending_ = Pending{true, m, n, k, ng, f, a, lda, b, ldb, c, ldc, {}, std::chrono::steady_clock::now()};
    if (ng > 0) {
      setup_tiles(k);
      pending_.tasks = make_tasks(m, ng, k, a, lda, b, ldb, c, ldc);
      ck(cudaEventRecord(t0_, static_cast<cudaStream_t>(pipe_->stream(0))), "cudaEventRecord");
      pipe_->issue(pending_.tasks);
      // The last output is the last work of the device->host stream: the GPU share ends there.
      ck(cudaEventRecord(t1_, static_cast<cudaStream_t>(pipe_->stream(2))), "cudaEventRecord");
    }
  }

  void gemm_end() override {
    if (!pending_.active) return;
    Pending p = std::move(pending_);
    pending_ = Pending{};
    const long ncpu = p.n - p.ng;
    std::vector<double> core_rates;
    const auto cpu0 = std::chrono::steady_clock::now();
    if (ncpu > 0) cpu_share(p.m, ncpu, p.k, p.a, p.lda, p.b + p.ng * p.ldb, p.ldb, p.c + p.ng * p.ldc, p.ldc, core_rates);
    const double cpu_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - cpu0).count();
    double gpu_s = 0;
    if (p.ng > 0) {
      pipe_->wait();
      float ms = 0;
      ck(cudaEventElapsedTime(&ms, t0_, t1_), "cudaEventElapsedTime");
      gpu_s = 1e-3 * ms;
      flops_gpu_ += 2.0 * p.m * p.ng * p.k;
    }
    const double gpu_rate = p.ng > 0 && gpu_s > 0 ? 2.0 * p.m * p.ng * p.k / gpu_s : 0.0;
    const double cpu_rate = ncpu > 0 && cpu_s > 0 ? 2.0 * p.m * ncpu * p.k / cpu_s : 0.0;
    if (p.f > 0.0 || opt_.mode == "gpu") table_.update(2.0 * p.m * p.n * p.k, gpu_rate, cpu_rate, core_rates);
  }

 private:
  struct Pending {
    bool active = false;
    long m = 0, n = 0, k = 0, ng = 0;
    double f = 0;
    const double* a = nullptr;
    long lda = 0;
    const double* b = nullptr;
    long ldb = 0;
    double* c = nullptr;
    long ldc = 0;
    std::vector<sched::PipelineTask> tasks;
    std::chrono::steady_clock::time_point t0;
  };
  Pending pending_;

  struct Pinned {
    double* ptr = nullptr;
    std::size_t count = 0;
  };

  // Tile edge T from the budget: slots x (T^2 C + T k A + k T B) doubles.
  void setup_tiles(long k) {
    const int s = pipe_->slots();
    const double per = static_cast<double>(budget_) / (8.0 * s);
    long t = static_cast<long>(-static_cast<double>(k) + std::sqrt(static_cast<double>(k) * k + per));
    t = std::min<long>(t, 8192) / 64 * 64;  // 8192: cuBLAS at full speed, enough tiles to overlap
    if (t < 256)
      throw InputError("hpl: --gpu-memory-limit " + std::to_string(budget_) + " bytes leaves tiles under 256 columns for NB=" +
                       std::to_string(k) + "; allow more device memory or use a smaller NB");
    if (t != tile_ || k != k_) {
      release_device();
      tile_ = t, k_ = k;
      const std::size_t cbytes = static_cast<std::size_t>(t * t) * sizeof(double);
      const std::size_t obytes = static_cast<std::size_t>(t * k) * sizeof(double);
      dc_.assign(s, nullptr), da_.assign(s, nullptr), db_.assign(s, nullptr);
      for (int i = 0; i < s; ++i) {
        ck(cudaMalloc(reinterpret_cast<void**>(&dc_[i]), cbytes), "cudaMalloc (C tile)");
        ck(cudaMalloc(reinterpret_cast<void**>(&da_[i]), obytes), "cudaMalloc (A block)");
        ck(cudaMalloc(reinterpret_cast<void**>(&db_[i]), obytes), "cudaMalloc (B block)");
      }
    }
  }
  void release_device() {
    for (auto* v : {&dc_, &da_, &db_})
      for (double* p : *v)
        if (p) cudaFree(p);
    dc_.clear(), da_.clear(), db_.clear();
    tile_ = 0;
  }

  std::vector<sched::PipelineTask> make_tasks(long m, long n, long k, const double* a, long lda, const double* b,
                                              long ldb, double* c, long ldc) {
    const long T = tile_;
    const int rows = static_cast<int>((m + T - 1) / T), cols = static_cast<int>((n + T - 1) / T);
    const auto order = sched::bounce_order(rows, cols);
    sched::OperandCache acache(pipe_->slots()), bcache(pipe_->slots());
    std::vector<sched::PipelineTask> tasks;
    tasks.reserve(order.size());
    for (std::size_t t = 0; t < order.size(); ++t) {
      const auto [ti, tj] = order[t];
      const long i0 = ti * T, j0 = tj * T;
      const long tm = std::min(T, m - i0), tn = std::min(T, n - j0);
      const auto au = acache.acquire(ti, static_cast<int>(t));
      const auto bu = bcache.acquire(tj, static_cast<int>(t));
      double* hc = c + i0 + j0 * ldc;
      const double* ha = a + i0;
      const double* hb = b + j0 * ldb;
      sched::PipelineTask task;
      task.input = [=, this](int slot, void* st) {
        auto s = static_cast<cudaStream_t>(st);
        if (au.load)
          ck(cudaMemcpy2DAsync(da_[au.buffer], tm * sizeof(double), ha, lda * sizeof(double), tm * sizeof(double), k,
                               cudaMemcpyHostToDevice, s), "cudaMemcpy2DAsync (A block)");
        if (bu.load)
          ck(cudaMemcpy2DAsync(db_[bu.buffer], k * sizeof(double), hb, ldb * sizeof(double), k * sizeof(double), tn,
                               cudaMemcpyHostToDevice, s), "cudaMemcpy2DAsync (B block)");
        ck(cudaMemcpy2DAsync(dc_[slot], tm * sizeof(double), hc, ldc * sizeof(double), tm * sizeof(double), tn,
                             cudaMemcpyHostToDevice, s), "cudaMemcpy2DAsync (C tile in)");
      };
      task.execute = [=, this](int slot, void*) {
        const double alpha = -1.0, beta = 1.0;
        ck(cublasDgemm(handle_, CUBLAS_OP_N, CUBLAS_OP_N, static_cast<int>(tm), static_cast<int>(tn), static_cast<int>(k),
                       &alpha, da_[au.buffer], static_cast<int>(tm), db_[bu.buffer], static_cast<int>(k), &beta, dc_[slot],
                       static_cast<int>(tm)), "cublasDgemm");
      };
      task.output = [=, this](int slot, void* st) {
        ck(cudaMemcpy2DAsync(hc, ldc * sizeof(double), dc_[slot], tm * sizeof(double), tm * sizeof(double), tn,
                             cudaMemcpyDeviceToHost, static_cast<cudaStream_t>(st)), "cudaMemcpy2DAsync (C tile out)");
      };
      tasks.push_back(std::move(task));
    }
    loads_ += acache.loads() + bcache.loads();
    reuses_ += acache.reuses() + bcache.reuses();
    return tasks;
  }

  // The CPU share, split over the cores by the table's per-core fractions (level 2 of the split),
  // each core running single-threaded OpenBLAS on its columns.
  void cpu_share(long m, long n, long k, const double* a, long lda, const double* b, long ldb, double* c, long ldc,
                 std::vector<double>& core_rates) {
    const int cores = table_.cores();
    const auto counts = sched::split_counts(n, table_.core_fractions(2.0 * m * n * k));
    std::vector<long> start(cores + 1, 0);
    for (int i = 0; i < cores; ++i) start[i + 1] = start[i] + counts[i];
    core_rates.assign(cores, 0.0);
    const int saved = openblas_get_num_threads();
    openblas_set_num_threads(1);
#pragma omp parallel num_threads(cores)
    {
      const int me = omp_get_thread_num();
      const long j0 = start[me], w = start[me + 1] - start[me];
      const auto t0 = std::chrono::steady_clock::now();
      cpu_gemm_minus(m, w, k, a, lda, b + j0 * ldb, ldb, c + j0 * ldc, ldc);
      const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      core_rates[me] = w > 0 && s > 0 ? 2.0 * m * w * k / s : 0.0;
    }
    openblas_set_num_threads(saved);
  }

  CudaEngineOptions opt_;
  sched::SplitTable table_;
  cublasHandle_t handle_ = nullptr;
  std::unique_ptr<sched::Pipeline> pipe_;
  cudaEvent_t t0_ = nullptr, t1_ = nullptr;
  std::size_t budget_ = 0;
  long tile_ = 0, k_ = 0;
  std::vector<double*> dc_, da_, db_;
  std::vector<Pinned> pinned_;
  double* registered_ = nullptr;
  long calls_ = 0;
  double flops_all_ = 0, flops_gpu_ = 0;
  int loads_ = 0, reuses_ = 0;
  std::string placements_;  // one line per run: which path it took
};

}  // namespace

std::unique_ptr<UpdateEngine> make_cuda_engine(const CudaEngineOptions& o) { return std::make_unique<CudaEngine>(o); }
#else
std::unique_ptr<UpdateEngine> make_cuda_engine(const CudaEngineOptions&) {
  throw DeviceError("hpl: --backend cuda/hybrid asked for, but this gluon was built without CUDA (use the cuda preset)");
}
#endif

}  // namespace gluon::hpl
