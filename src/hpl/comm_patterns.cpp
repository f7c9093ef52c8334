// Panel broadcasts over the row communicator (HPL's BCAST topologies) and the U-row gathers of
// the row swaps over the column communicator (binary exchange, roll).
#include <algorithm>
#include <cstring>
#include <vector>

#include "gluon/hpl/lu.h"
#include "gluon/runtime/error.h"

namespace gluon::hpl {

namespace {

// Increasing ring over `members` (absolute ranks, members[0] the root): each receives from its
// predecessor and sends to its successor.
void ring(comm::Communicator& c, void* data, std::size_t bytes, const std::vector<int>& members, int tag) {
  const int me = c.rank();
  const auto it = std::find(members.begin(), members.end(), me);
  if (it == members.end()) return;
  const std::size_t i = static_cast<std::size_t>(it - members.begin());
  if (i > 0) c.recv(data, bytes, members[i - 1], tag);
  if (i + 1 < members.size()) c.send(data, bytes, members[i + 1], tag);
}

// Two rings from members[0]: members[1..h] upwards and members[size-1 .. h+1] downwards.
void two_rings(comm::Communicator& c, void* data, std::size_t bytes, const std::vector<int>& members, int tag) {
  const std::size_t n = members.size();
  if (n <= 1) return;
  const std::size_t h = n / 2;  // first ring: 1..h, second: n-1 down to h+1
  std::vector<int> up{members[0]}, down{members[0]};
  for (std::size_t i = 1; i <= h; ++i) up.push_back(members[i]);
  for (std::size_t i = n - 1; i > h; --i) down.push_back(members[i]);
  const int me = c.rank();
  if (me == members[0]) {
    if (up.size() > 1) c.send(data, bytes, up[1], tag);
    if (down.size() > 1) c.send(data, bytes, down[1], tag);
    return;
  }
  if (std::find(up.begin(), up.end(), me) != up.end())
    ring(c, data, bytes, up, tag);
  else
    ring(c, data, bytes, down, tag);
}

// Spread and roll: members[0] scatters one chunk to each member, then a ring all-gather.
void spread_roll(comm::Communicator& c, void* data, std::size_t bytes, const std::vector<int>& members, int tag) {
  const int n = static_cast<int>(members.size());
  if (n <= 1) return;
  const int me = c.rank();
  const auto it = std::find(members.begin(), members.end(), me);
  if (it == members.end()) return;
  const int i = static_cast<int>(it - members.begin());
  auto lo = [&](int k) { return bytes * static_cast<std::size_t>(k) / static_cast<std::size_t>(n); };
  auto* p = static_cast<char*>(data);
  if (i == 0) {
    for (int k = 1; k < n; ++k)
      if (lo(k + 1) > lo(k)) c.send(p + lo(k), lo(k + 1) - lo(k), members[k], tag);
  } else if (lo(i + 1) > lo(i)) {
    c.recv(p + lo(i), lo(i + 1) - lo(i), members[0], tag);
  }
  const int next = members[(i + 1) % n], prev = members[(i + n - 1) % n];
  for (int s = 0; s < n - 1; ++s) {
    const int sk = ((i - s) % n + n) % n, rk = ((i - s - 1) % n + n) % n;
    c.sendrecv(p + lo(sk), lo(sk + 1) - lo(sk), next, p + lo(rk), lo(rk + 1) - lo(rk), prev, tag + 1);
  }
}

}  // namespace

void panel_broadcast(comm::Communicator& c, void* data, std::size_t bytes, int root, Bcast b, int tag) {
  const int q = c.size();
  if (q <= 1) return;
  std::vector<int> members;  // absolute ranks in order from the root
  for (int k = 0; k < q; ++k) members.push_back((root + k) % q);
  const int me = c.rank();
  const bool modified = b == Bcast::ring1m || b == Bcast::ring2m || b == Bcast::lngm;
  if (modified) {
    // The root's right neighbour (next panel's owner) gets the panel first, and takes no part after.
    if (me == members[0]) c.send(data, bytes, members[1], tag);
    if (me == members[1]) {
      c.recv(data, bytes, members[0], tag);
      return;
    }
    members.erase(members.begin() + 1);
  }
  switch (b) {
    case Bcast::ring1:
    case Bcast::ring1m: ring(c, data, bytes, members, tag + 2); break;
    case Bcast::ring2:
    case Bcast::ring2m: two_rings(c, data, bytes, members, tag + 2); break;
    case Bcast::lng:
    case Bcast::lngm: spread_roll(c, data, bytes, members, tag + 2); break;
  }
}

void allgather_blocks(comm::Communicator& c, std::vector<std::vector<double>>& blocks, bool binary_exchange,
                      int tag) {
  const int n = c.size(), me = c.rank();
  if (static_cast<int>(blocks.size()) != n)
    throw InputError("allgather_blocks: one block per rank expected, found " + std::to_string(blocks.size()));
  if (n <= 1) return;
  if (!binary_exchange) {
    const int next = (me + 1) % n, prev = (me + n - 1) % n;
    for (int s = 0; s < n - 1; ++s) {
      const int sk = ((me - s) % n + n) % n, rk = ((me - s - 1) % n + n) % n;
      c.sendrecv(blocks[sk].data(), blocks[sk].size() * sizeof(double), next, blocks[rk].data(),
                 blocks[rk].size() * sizeof(double), prev, tag);
    }
    return;
  }
  int p2 = 1;
  while (p2 * 2 <= n) p2 *= 2;
  // Fold: rank p2 + k gives its block to rank k.
  if (me >= p2) c.send(blocks[me].data(), blocks[me].size() * sizeof(double), me - p2, tag);
  if (me + p2 < n) c.recv(blocks[me + p2].data(), blocks[me + p2].size() * sizeof(double), me + p2, tag);
  auto held = [&](int r, int d) {  // ranks whose blocks rank r (< p2) holds before the step of distance d
    std::vector<int> v;
    const int base = r & ~(d - 1);
    for (int k = base; k < base + d; ++k) {
      v.push_back(k);
      if (k + p2 < n) v.push_back(k + p2);
    }
    return v;
  };
  if (me < p2) {
    for (int d = 1; d < p2; d *= 2) {
      const int partner = me ^ d;
      const auto mine = held(me, d), theirs = held(partner, d);
      std::vector<double> out, in;
      for (int r : mine) out.insert(out.end(), blocks[r].begin(), blocks[r].end());
      std::size_t total = 0;
      for (int r : theirs) total += blocks[r].size();
      in.resize(total);
      c.sendrecv(out.data(), out.size() * sizeof(double), partner, in.data(), in.size() * sizeof(double), partner,
                 tag + 1);
      std::size_t off = 0;
      for (int r : theirs) {
        std::copy(in.begin() + off, in.begin() + off + blocks[r].size(), blocks[r].begin());
        off += blocks[r].size();
      }
    }
  }
  // Unfold: rank k sends everything to rank p2 + k.
  std::vector<double> all;
  if (me < n - p2 || me >= p2) {
    std::size_t total = 0;
    for (int r = 0; r < n; ++r) total += blocks[r].size();
    all.resize(total);
    if (me < n - p2) {
      std::size_t off = 0;
      for (int r = 0; r < n; ++r) {
        std::copy(blocks[r].begin(), blocks[r].end(), all.begin() + off);
        off += blocks[r].size();
      }
      c.send(all.data(), all.size() * sizeof(double), me + p2, tag + 2);
    } else {
      c.recv(all.data(), all.size() * sizeof(double), me - p2, tag + 2);
      std::size_t off = 0;
      for (int r = 0; r < n; ++r) {
        std::copy(all.begin() + off, all.begin() + off + blocks[r].size(), blocks[r].begin());
        off += blocks[r].size();
      }
    }
  }
}

}  // namespace gluon::hpl
