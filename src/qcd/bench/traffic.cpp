// Flop and minimum-traffic counts of one one-parity dslash (qcd/bench/traffic.h).
#include "gluon/qcd/bench/traffic.h"

namespace gluon::qcd::bench {

double flops_per_site(DiracType type) {
  switch (type) {
    case DiracType::wilson: return 1320.0;
    case DiracType::clover: return 1824.0;
    case DiracType::staggered: return 570.0;
    case DiracType::improved_staggered: return 1146.0;
  }
  return 0.0;
}

DslashCost dslash_cost(DiracType type, Precision p, Reconstruct recon, Reconstruct long_recon, std::int64_t volume) {
  const double V = static_cast<double>(volume), half = V / 2;
  const double w = bytes_per_real(p), n = p == Precision::half ? 4.0 : 0.0;
  const bool staggered = type == DiracType::staggered || type == DiracType::improved_staggered;
  const double s = staggered ? 6.0 : 24.0;
  double R = stored_reals(recon);
  if (type == DiracType::improved_staggered) R += stored_reals(long_recon);
  DslashCost c;
  c.flops_per_site = flops_per_site(type);
  c.flops = c.flops_per_site * half;
  c.bytes = 4 * V * R * w + half * 2 * (s * w + n);
  auto num = [](double x) {
    std::string t = std::to_string(x);
    t.erase(t.find_last_not_of('0') + 1);
    if (!t.empty() && t.back() == '.') t.pop_back();
    return t;
  };
  c.formula = "4V*" + num(R) + "*" + num(w) + " + (V/2)*2*(" + num(s) + "*" + num(w) + (n > 0 ? "+4" : "") + ")";
  if (type == DiracType::clover) {
    c.bytes += half * (72 * w + 2 * n);
    c.formula += " + (V/2)*(72*" + num(w) + (n > 0 ? "+8" : "") + ")";
  }
  c.operator_bytes = 2 * c.bytes + half * (s * w + n);
  c.formula += ", V=" + num(V);
  return c;
}

}  // namespace gluon::qcd::bench
