#include "gluon/sched/split_table.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

#include "gluon/runtime/error.h"

namespace gluon::sched {

SplitTable::SplitTable(int cores, double initial_gpu_fraction, double learning_rate)
    : cores_(cores), initial_(initial_gpu_fraction), rate_(learning_rate) {
  if (cores < 1) throw InputError("SplitTable: cores must be at least 1, found " + std::to_string(cores));
  if (!(initial_gpu_fraction >= 0.0 && initial_gpu_fraction <= 1.0))
    throw InputError("SplitTable: initial GPU fraction must be in [0, 1], found " + std::to_string(initial_gpu_fraction));
  if (!(learning_rate > 0.0 && learning_rate <= 1.0))
    throw InputError("SplitTable: learning rate must be in (0, 1], found " + std::to_string(learning_rate));
}

int SplitTable::bucket_of(double work) { return work < 1.0 ? 0 : static_cast<int>(std::floor(std::log2(work))); }

const SplitTable::Entry* SplitTable::nearest(int bucket) const {
  const Entry* best = nullptr;
  int dist = 1 << 30;
  for (const auto& [b, e] : table_) {
    const int d = std::abs(b - bucket);
    if (d < dist) dist = d, best = &e;
  }
  return best;
}

double SplitTable::gpu_fraction(double work) const {
  if (forced_ >= 0.0) return forced_;
  const Entry* e = nearest(bucket_of(work));
  return e ? e->gpu_fraction : initial_;
}

std::vector<double> SplitTable::core_fractions(double work) const {
  const Entry* e = nearest(bucket_of(work));
  if (e && static_cast<int>(e->core_fractions.size()) == cores_) return e->core_fractions;
  return std::vector<double>(cores_, 1.0 / cores_);
}

void SplitTable::update(double work, double gpu_rate, double cpu_rate, const std::vector<double>& core_rates) {
  const int b = bucket_of(work);
  const Entry* near = nearest(b);
  const double start = near ? near->gpu_fraction : initial_;
  auto [it, fresh] = table_.try_emplace(b);
  Entry& e = it->second;
  if (fresh) {
    e.gpu_fraction = start;
    e.core_fractions.assign(cores_, 1.0 / cores_);
  }
  if (gpu_rate > 0.0 && cpu_rate > 0.0) {
    const double ideal = gpu_rate / (gpu_rate + cpu_rate);
    e.gpu_fraction = e.samples == 0 ? ideal : (1.0 - rate_) * e.gpu_fraction + rate_ * ideal;
    e.gpu_rate = gpu_rate;
    e.cpu_rate = cpu_rate;
    ++e.samples;
  } else if (gpu_rate > 0.0) {
    e.gpu_rate = gpu_rate;
  } else if (cpu_rate > 0.0) {
    e.cpu_rate = cpu_rate;
  }
  if (static_cast<int>(core_rates.size()) == cores_) {
    double sum = 0.0;
    for (double r : core_rates) sum += std::max(r, 0.0);
    if (sum > 0.0)
      for (int c = 0; c < cores_; ++c)
        e.core_fractions[c] = (1.0 - rate_) * e.core_fractions[c] + rate_ * std::max(core_rates[c], 0.0) / sum;
  }
}

std::string SplitTable::to_text() const {
  std::ostringstream o;
  o << "gluon-split-table 1\n";
  o << "cores " << cores_ << "\n";
  o << "# log2(flops) samples gpu_fraction gpu_gflops cpu_gflops core_fractions...\n";
  char buf[128];
  for (const auto& [b, e] : table_) {
    std::snprintf(buf, sizeof buf, "%d %lld %.6f %.3f %.3f", b, static_cast<long long>(e.samples), e.gpu_fraction,
                  e.gpu_rate * 1e-9, e.cpu_rate * 1e-9);
    o << buf;
    for (double f : e.core_fractions) {
      std::snprintf(buf, sizeof buf, " %.6f", f);
      o << buf;
    }
    o << "\n";
  }
  return o.str();
}

void SplitTable::save(const std::string& path) const {
  const std::string tmp = path + ".tmp." + std::to_string(::getpid());
  {
    std::ofstream f(tmp, std::ios::trunc);
    if (!f) throw IoError(tmp + ": cannot create the split table's temporary file");
    f << to_text();
    f.flush();
    if (!f) throw IoError(tmp + ": write failed");
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    std::filesystem::remove(tmp, ec);
    throw IoError(path + ": cannot rename the split table into place");
  }
}

SplitTable SplitTable::parse(const std::string& text, const std::string& name) {
  std::istringstream in(text);
  std::string line;
  int lineno = 0;
  auto field = [&](const std::string& f) { return "line " + std::to_string(lineno) + " (" + f + ")"; };
  ++lineno;
  if (!std::getline(in, line) || line.rfind("gluon-split-table 1", 0) != 0)
    throw FileFormatError(name, field("header"), "'gluon-split-table 1'", line);
  ++lineno;
  int cores = 0;
  {
    std::getline(in, line);
    std::istringstream l(line);
    std::string key;
    if (!(l >> key >> cores) || key != "cores" || cores < 1)
      throw FileFormatError(name, field("cores"), "'cores <n>' with n >= 1", line);
  }
  SplitTable t(cores);
  while (std::getline(in, line)) {
    ++lineno;
    if (line.empty() || line[0] == '#') continue;
    std::istringstream l(line);
    int b = 0;
    Entry e;
    long long samples = 0;
    double g = 0, c = 0;
    if (!(l >> b >> samples >> e.gpu_fraction >> g >> c) || e.gpu_fraction < 0 || e.gpu_fraction > 1)
      throw FileFormatError(name, field("entry"), "'bucket samples gpu_fraction gpu_gflops cpu_gflops fractions...' with the fraction in [0,1]", line);
    e.samples = samples;
    e.gpu_rate = g * 1e9;
    e.cpu_rate = c * 1e9;
    double f = 0;
    while (l >> f) e.core_fractions.push_back(f);
    if (static_cast<int>(e.core_fractions.size()) != cores)
      throw FileFormatError(name, field("core fractions"), std::to_string(cores) + " values",
                            std::to_string(e.core_fractions.size()));
    t.table_[b] = e;
  }
  return t;
}

SplitTable SplitTable::load(const std::string& path) {
  std::ifstream f(path);
  if (!f) throw IoError(path + ": cannot open the split table");
  std::ostringstream s;
  s << f.rdbuf();
  return parse(s.str(), path);
}

std::vector<std::int64_t> split_counts(std::int64_t n, const std::vector<double>& fractions) {
  std::vector<std::int64_t> out(fractions.size(), 0);
  if (fractions.empty()) return out;
  double sum = 0.0;
  for (double f : fractions) sum += std::max(f, 0.0);
  std::int64_t given = 0;
  double acc = 0.0;
  for (std::size_t i = 0; i < fractions.size(); ++i) {
    acc += sum > 0 ? std::max(fractions[i], 0.0) / sum : 1.0 / fractions.size();
    const std::int64_t upto = i + 1 == fractions.size() ? n : std::llround(acc * static_cast<double>(n));
    out[i] = std::max<std::int64_t>(0, std::min(n, upto) - given);
    given += out[i];
  }
  return out;
}

}  // namespace gluon::sched
