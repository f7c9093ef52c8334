#pragma once
// The index spaces of the two-particle accumulation (docs/g4.md states every formula).
//
//   Params        the problem: bands n_b, cluster Lx x Ly (N_c = Lx Ly sites, momenta Z_Lx x Z_Ly),
//                 fermionic frequencies 2F in G4's window, N_q exchanged (momentum, frequency)
//                 pairs q_j = (Q_j = j mod N_c, nu_j = j / N_c), the channels accumulated.
//                 validate() throws InputError naming the flag and what was found.
//   Layout        the derived sizes and a trivially copyable view (GLUON_HD index arithmetic)
//                 used by the kernels and by the plain-loop reference:
//                   G_s    square complex matrix of side n_G = n_b N_c 2F_G, F_G = F + W,
//                          W = max nu_j; element (row, col) at col * n_G + row (rows fastest),
//                          row = (b * N_c + K) * 2F_G + g, spin s in {up = 0, down = 1}
//                   G4     per channel n1^2 N_q entries, n1 = n_b^2 N_c 2F;
//                          entry (q, i1, i2) at (q * n1 + i1) * n1 + i2,
//                          i = ((b_a * n_b + b_b) * N_c + K) * 2F + w
//                   all channels stacked: flat e = channel_slot * entries_per_channel + entry.
//   Channel       pp (particle-particle up-down), ph_transverse, ph_charge, ph_magnetic.
//   parse_cluster "16" (1-D ring) or "4x4"; InputError otherwise.
//   parse_channels "pp,ph_charge" or "all".
#include <cstdint>
#include <string>
#include <vector>

#include "gluon/runtime/hd.h"

namespace gluon::g4 {

enum class Channel : int { pp = 0, ph_transverse = 1, ph_charge = 2, ph_magnetic = 3 };
inline constexpr int kChannelCount = 4;
std::string to_string(Channel c);
Channel channel_from_name(const std::string& name);
// Comma-separated names or "all"; InputError naming the bad item.
std::vector<Channel> parse_channels(const std::string& text);

struct Cluster {
  int lx = 1, ly = 1;
  int sites() const { return lx * ly; }
};
Cluster parse_cluster(const std::string& text);
std::string to_string(const Cluster& c);

struct Params {
  int bands = 1;
  Cluster cluster{4, 1};
  int frequencies = 4;  // F: G4 holds 2F fermionic frequencies
  int transfers = 1;    // N_q
  std::vector<Channel> channels{Channel::pp};
  // InputError naming the flag (--bands, --cluster, ...) and what was found.
  void validate() const;
};

// Trivially copyable: passed by value into kernels.
struct LayoutView {
  int nb, lx, ly, nc, nw, nwg, w_shift;  // nw = 2F, nwg = 2F_G, w_shift = W
  std::int64_t ng;                       // side of G
  std::int64_t n1;                       // k index range of G4 (n_b^2 N_c 2F)
  int nq;

  // Momentum index arithmetic on Z_lx x Z_ly (K = kx + lx * ky).
  GLUON_HD_INLINE int k_add(int a, int b) const {
    const int x = (a % lx + b % lx) % lx, y = (a / lx + b / lx) % ly;
    return x + lx * y;
  }
  GLUON_HD_INLINE int k_sub(int a, int b) const {
    const int x = (a % lx - b % lx + lx) % lx, y = (a / lx - b / lx + ly) % ly;
    return x + lx * y;
  }
  GLUON_HD_INLINE int q_momentum(int j) const { return j % nc; }
  GLUON_HD_INLINE int q_frequency(int j) const { return j / nc; }
  // Row/column of G for band b, momentum K and fermionic Matsubara index n (omega_n =
  // (2n+1) pi / beta), n in [-F_G, F_G).
  GLUON_HD_INLINE std::int64_t g_index(int b, int k, int n) const {
    return (static_cast<std::int64_t>(b) * nc + k) * nwg + (n + nwg / 2);
  }
  // Element (row, col) of one spin's matrix.
  GLUON_HD_INLINE std::int64_t g_element(std::int64_t row, std::int64_t col) const {
    return col * ng + row;
  }
};

class Layout {
 public:
  explicit Layout(const Params& p);
  const Params& params() const { return p_; }
  const LayoutView& view() const { return v_; }
  int max_transfer_frequency() const { return v_.w_shift; }
  std::int64_t g_side() const { return v_.ng; }
  std::int64_t g_elements_per_spin() const { return v_.ng * v_.ng; }
  std::int64_t entries_per_channel() const { return v_.n1 * v_.n1 * v_.nq; }
  std::int64_t entries_total() const {
    return entries_per_channel() * static_cast<std::int64_t>(p_.channels.size());
  }

 private:
  Params p_;
  LayoutView v_{};
};

// A contiguous share [begin, end) of n entries for member r of p: the first n % p members get one
// more entry than the others.
struct Slice {
  std::int64_t begin = 0, end = 0;
  std::int64_t size() const { return end - begin; }
};
Slice slice_of(std::int64_t n, int r, int p);

}  // namespace gluon::g4
