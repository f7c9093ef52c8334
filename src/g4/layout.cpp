// Index spaces of the two-particle accumulation: parameters, validation, derived sizes.
#include "gluon/g4/layout.h"

#include "gluon/g4/accumulate.h"

#include <algorithm>
#include <limits>

#include "gluon/runtime/error.h"

namespace gluon::g4 {

namespace {
const char* const kChannelNames[kChannelCount] = {"pp", "ph_transverse", "ph_charge",
                                                   "ph_magnetic"};

int parse_positive(const std::string& text, const std::string& what) {
  std::size_t pos = 0;
  long v = 0;
  try {
    v = std::stol(text, &pos);
  } catch (const std::exception&) {
    pos = 0;
  }
  if (pos != text.size() || text.empty() || v < 1 || v > 1 << 20)
    throw InputError(what + ": expected a positive integer, found '" + text + "'");
  return static_cast<int>(v);
}
}  // namespace

std::string to_string(Channel c) { return kChannelNames[static_cast<int>(c)]; }

Channel channel_from_name(const std::string& name) {
  for (int i = 0; i < kChannelCount; ++i)
    if (name == kChannelNames[i]) return static_cast<Channel>(i);
  throw InputError("--channels: expected pp, ph_transverse, ph_charge, ph_magnetic or all, found '" +
                   name + "'");
}

std::vector<Channel> parse_channels(const std::string& text) {
  if (text == "all")
    return {Channel::pp, Channel::ph_transverse, Channel::ph_charge, Channel::ph_magnetic};
  std::vector<Channel> out;
  std::size_t pos = 0;
  while (pos <= text.size()) {
    const std::size_t end = text.find(',', pos);
    const std::string item = text.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
    const Channel c = channel_from_name(item);
    if (std::find(out.begin(), out.end(), c) != out.end())
      throw InputError("--channels: channel '" + item + "' given twice");
    out.push_back(c);
    if (end == std::string::npos) break;
    pos = end + 1;
  }
  return out;
}

Cluster parse_cluster(const std::string& text) {
  const std::size_t x = text.find('x');
  Cluster c;
  if (x == std::string::npos) {
    c.lx = parse_positive(text, "--cluster (sites, or LxxLy)");
    c.ly = 1;
  } else {
    c.lx = parse_positive(text.substr(0, x), "--cluster (LxxLy, e.g. 4x4)");
    c.ly = parse_positive(text.substr(x + 1), "--cluster (LxxLy, e.g. 4x4)");
  }
  return c;
}

std::string to_string(const Cluster& c) {
  return c.ly == 1 ? std::to_string(c.lx) : std::to_string(c.lx) + "x" + std::to_string(c.ly);
}

void Params::validate() const {
  auto check = [](bool ok, const std::string& flag, const std::string& expected, long found) {
    if (!ok)
      throw InputError(flag + ": expected " + expected + ", found " + std::to_string(found));
  };
  check(bands >= 1 && bands <= 16, "--bands", "1..16", bands);
  check(cluster.lx >= 1 && cluster.ly >= 1 && cluster.sites() <= 4096, "--cluster",
        "1..4096 sites", static_cast<long>(cluster.lx) * cluster.ly);
  check(frequencies >= 1 && frequencies <= 4096, "--frequencies", "1..4096 (F; G4 holds 2F)",
        frequencies);
  check(transfers >= 1, "--transfers", "at least 1", transfers);
  if (channels.empty()) throw InputError("--channels: expected at least one channel, found none");
  // Overflow guard on the sizes (64-bit entry counts).
  const double n1 = double(bands) * bands * cluster.sites() * 2.0 * frequencies;
  const double total = n1 * n1 * transfers * static_cast<double>(channels.size());
  if (total > 9e18)
    throw InputError("G4 size: expected fewer than 9e18 entries, found " + std::to_string(total));
  if (n1 >= 2147483648.0)
    throw InputError("G4 index range n_b^2 N_c 2F: expected below 2^31, found " + std::to_string(n1));
  const double w = (transfers - 1) / cluster.sites();
  const double ng = double(bands) * cluster.sites() * 2.0 * (frequencies + w);
  if (ng * ng > 4e18)
    throw InputError("G size: expected fewer than 4e18 elements, found " + std::to_string(ng * ng));
}

Layout::Layout(const Params& p) : p_(p) {
  p_.validate();
  LayoutView& v = v_;
  v.nb = p.bands;
  v.lx = p.cluster.lx;
  v.ly = p.cluster.ly;
  v.nc = p.cluster.sites();
  v.nw = 2 * p.frequencies;
  v.w_shift = (p.transfers - 1) / v.nc;
  v.nwg = 2 * (p.frequencies + v.w_shift);
  v.ng = static_cast<std::int64_t>(v.nb) * v.nc * v.nwg;
  v.n1 = static_cast<std::int64_t>(v.nb) * v.nb * v.nc * v.nw;
  v.nq = p.transfers;
}

std::string to_string(Precision p) { return p == Precision::double_ ? "double" : "single"; }

Precision precision_from_name(const std::string& name) {
  if (name == "double") return Precision::double_;
  if (name == "single") return Precision::single;
  throw InputError("--precision: expected double or single, found '" + name + "'");
}

std::size_t complex_bytes(Precision p) { return p == Precision::double_ ? 16 : 8; }

Slice slice_of(std::int64_t n, int r, int p) {
  const std::int64_t base = n / p, extra = n % p;
  Slice s;
  s.begin = r * base + std::min<std::int64_t>(r, extra);
  s.end = s.begin + base + (r < extra ? 1 : 0);
  return s;
}

}  // namespace gluon::g4
