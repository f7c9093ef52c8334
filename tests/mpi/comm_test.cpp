// The communicator on however many ranks mpirun gave (1, 2 or 4 in CI).
#include <gtest/gtest.h>

#include <numeric>
#include <vector>

#include "gluon/comm/environment.h"
#include "gluon/comm/process_grid.h"

using namespace gluon::comm;

TEST(Communicator, HostCollectives) {
  auto& c = world();
  const int n = c.size(), r = c.rank();
  EXPECT_DOUBLE_EQ(c.sum(double(r + 1)), n * (n + 1) / 2.0);
  EXPECT_DOUBLE_EQ(c.sum(double(r + 1), Order::reproducible), n * (n + 1) / 2.0);
  EXPECT_DOUBLE_EQ(c.max(double(r)), n - 1);
  EXPECT_EQ(c.sum(std::int64_t{r}), std::int64_t{n} * (n - 1) / 2);
  double mn = r;
  c.allreduce_min(&mn, 1);
  EXPECT_EQ(mn, 0);
  EXPECT_EQ(c.any(r == n - 1), true);
  EXPECT_EQ(c.any(false), false);
  std::vector<int> b(5, r == 0 ? 42 : -1);
  c.broadcast(b.data(), b.size() * sizeof(int), 0);
  EXPECT_EQ(b[4], 42);
  std::vector<int> all(n);
  c.allgather(&r, sizeof r, all.data());
  for (int i = 0; i < n; ++i) EXPECT_EQ(all[i], i);
  c.barrier();
}

TEST(Communicator, ReproducibleSumIsTheSameOnEveryRankAndInRankOrder) {
  auto& c = world();
  // Values whose sum depends on the order of addition.
  double v = c.rank() == 0 ? 1e16 : (c.rank() % 2 ? 1.0 : -1e16);
  double expect = 0;
  for (int q = 0; q < c.size(); ++q) expect += q == 0 ? 1e16 : (q % 2 ? 1.0 : -1e16);
  const double s = c.sum(v, Order::reproducible);
  EXPECT_EQ(s, expect);
  std::vector<double> all(c.size());
  c.allgather(&s, sizeof s, all.data());
  for (double x : all) EXPECT_EQ(x, s);
}

TEST(Communicator, RingPassVisitsEveryRank) {
  auto& c = world();
  const int n = c.size(), r = c.rank();
  const int right = (r + 1) % n, left = (r + n - 1) % n;
  std::vector<double> mine(1000, r), in(1000), seen;
  std::vector<double> buf = mine;
  for (int step = 0; step < n; ++step) {
    seen.push_back(buf[0]);
    c.sendrecv(buf.data(), buf.size() * sizeof(double), right, in.data(), in.size() * sizeof(double),
               left, step);
    std::swap(buf, in);
  }
  EXPECT_EQ(buf[999], r);  // came back home
  std::vector<double> expect;
  for (int step = 0; step < n; ++step) expect.push_back((r - step + n) % n);
  EXPECT_EQ(seen, expect);
}

TEST(Communicator, BatchedExchangeWithBothNeighbours) {
  auto& c = world();
  const int n = c.size(), r = c.rank();
  const int right = (r + 1) % n, left = (r + n - 1) % n;
  int to_right = 100 + r, to_left = 200 + r, from_left = -1, from_right = -1;
  const Transfer batch[4] = {Transfer::recv(&from_left, sizeof(int), left, 1),
                             Transfer::recv(&from_right, sizeof(int), right, 2),
                             Transfer::send(&to_right, sizeof(int), right, 1),
                             Transfer::send(&to_left, sizeof(int), left, 2)};
  auto pending = c.exchange(batch);
  pending->wait();
  EXPECT_TRUE(pending->test());
  EXPECT_EQ(from_left, 100 + left);
  EXPECT_EQ(from_right, 200 + right);
}

TEST(Communicator, SplitIntoSubRings) {
  auto& c = world();
  const int colour = c.rank() % 2;
  auto sub = c.split(colour, c.rank());
  const int expected_size = c.size() / 2 + (colour < c.size() % 2 ? 1 : 0);
  EXPECT_EQ(sub->size(), std::max(1, expected_size));
  EXPECT_EQ(sub->rank(), c.rank() / 2);
  EXPECT_DOUBLE_EQ(sub->sum(1.0), sub->size());
}

TEST(Communicator, ProcessGridNeighboursAgree) {
  auto& c = world();
  const Grid4 dims = choose_grid({8, 8, 8, 24}, c.size());
  ProcessGrid g(dims, c.rank());
  for (int mu = 0; mu < 4; ++mu) {
    // What I send forward arrives from my backward neighbour: exchange ranks and check.
    int mine = c.rank(), got = -1;
    c.sendrecv(&mine, sizeof mine, g.neighbour(mu, +1), &got, sizeof got, g.neighbour(mu, -1), mu);
    EXPECT_EQ(got, g.neighbour(mu, -1));
  }
}
