#pragma once
// sched::SplitTable: the two-level adaptive CPU/GPU work split of the TianHe-1 Linpack paper
// (../shared/papers/tianhe1-hybrid-linpack.txt, "adaptive split").
//
//   level 1  per workload-size bucket (bucket = floor(log2(flops))), the fraction of the work
//            given to the GPU. After each call the measured rates give the ideal split
//            Gsplit = R_gpu / (R_gpu + R_cpu); the table moves its value towards it
//            (weight `learning_rate`, the first measurement is taken as it is).
//   level 2  per bucket, one fraction per CPU core of the CPU part (fraction_i = r_i / sum r),
//            so that slower cores (the one driving the GPU, say) get less.
//
// gpu_fraction(work) answers from the bucket of `work`; an empty bucket takes the nearest
// filled one, else `initial_gpu_fraction`. save() writes a small text file through a temporary
// name and rename (never half a file); load() gives FileFormatError naming the line on bad input.
// Not thread-safe; one table per process (the GPU of one rank).
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace gluon::sched {

class SplitTable {
 public:
  struct Entry {
    double gpu_fraction = 0.0;
    std::vector<double> core_fractions;  // sums to 1, size cores()
    std::int64_t samples = 0;
    double gpu_rate = 0.0, cpu_rate = 0.0;  // last measured, flop/s
  };

  explicit SplitTable(int cores = 1, double initial_gpu_fraction = 0.9, double learning_rate = 0.5);

  int cores() const { return cores_; }
  static int bucket_of(double work);
  double gpu_fraction(double work) const;
  std::vector<double> core_fractions(double work) const;
  // Record one call: `work` flops done, the GPU at gpu_rate and the CPU at cpu_rate (flop/s;
  // a rate <= 0 means that side did no work this time and does not move the fraction).
  // core_rates (optional, size cores()) give the per-core fractions.
  void update(double work, double gpu_rate, double cpu_rate, const std::vector<double>& core_rates = {});
  const std::map<int, Entry>& entries() const { return table_; }
  // Fraction for a fixed mode: force(0) CPU only, force(1) GPU only; force(-1) adaptive again.
  void force(double fraction) { forced_ = fraction; }

  std::string to_text() const;
  void save(const std::string& path) const;
  static SplitTable load(const std::string& path);
  static SplitTable parse(const std::string& text, const std::string& name);

 private:
  const Entry* nearest(int bucket) const;
  int cores_;
  double initial_, rate_, forced_ = -1.0;
  std::map<int, Entry> table_;
};

// Splits n items (columns) into parts proportional to `fractions`, in order; sums to n.
std::vector<std::int64_t> split_counts(std::int64_t n, const std::vector<double>& fractions);

}  // namespace gluon::sched
