// The single-process communicator and the process grid (no MPI needed).
#include <gtest/gtest.h>

#include "gluon/comm/communicator.h"
#include "gluon/comm/process_grid.h"
#include "gluon/runtime/error.h"

using namespace gluon;
using namespace gluon::comm;

TEST(SingleCommunicator, CollectivesAreIdentities) {
  auto c = make_single_communicator();
  EXPECT_EQ(c->rank(), 0);
  EXPECT_EQ(c->size(), 1);
  EXPECT_DOUBLE_EQ(c->sum(2.5), 2.5);
  EXPECT_DOUBLE_EQ(c->sum(2.5, Order::reproducible), 2.5);
  EXPECT_EQ(c->max(std::int64_t{7}), 7);
  EXPECT_FALSE(c->any(false));
  EXPECT_TRUE(c->any(true));
  int v = 3, out = 0;
  c->allgather(&v, sizeof v, &out);
  EXPECT_EQ(out, 3);
  EXPECT_THROW(c->broadcast(&v, sizeof v, 1), InputError);
}

TEST(SingleCommunicator, MessagesToOneselfMatchByTag) {
  auto c = make_single_communicator();
  double a[3] = {1, 2, 3}, b[3] = {}, x = 5, y = 0;
  c->sendrecv(a, sizeof a, 0, b, sizeof b, 0, 4);
  EXPECT_EQ(b[2], 3);
  // Blocking send first, receive later: kept in the mailbox.
  c->send(&x, sizeof x, 0, 9);
  c->send(a, sizeof a, 0, 1);
  c->recv(&y, sizeof y, 0, 9);
  EXPECT_EQ(y, 5);
  double r[3] = {};
  c->recv(r, sizeof r, 0, 1);
  EXPECT_EQ(r[1], 2);
  EXPECT_THROW(c->recv(&y, sizeof y, 0, 2), InputError);  // nothing was sent with tag 2
  EXPECT_THROW(c->send(&y, sizeof y, 1), InputError);     // no rank 1
  EXPECT_EQ(c->split(3, 0)->size(), 1);
}

TEST(ProcessGrid, RanksAreLexicographicXFastestAndPeriodic) {
  ProcessGrid g({2, 1, 2, 3}, 0);
  EXPECT_EQ(g.size(), 12);
  for (int r = 0; r < 12; ++r) {
    ProcessGrid h({2, 1, 2, 3}, r);
    EXPECT_EQ(h.rank_of(h.coords()), r);
  }
  ProcessGrid h({2, 1, 2, 3}, 5);  // coords (1,0,0,1)
  EXPECT_EQ(h.coords(), (Grid4{1, 0, 0, 1}));
  EXPECT_EQ(h.neighbour(0, +1), 4);
  EXPECT_EQ(h.neighbour(3, -1), 1);
  EXPECT_EQ(h.neighbour(3, +1), 9);
  EXPECT_EQ(h.neighbour(1, +1), 5);  // extent 1: oneself
  EXPECT_THROW(ProcessGrid({2, 2, 1, 1}, 4), InputError);
}

TEST(ProcessGrid, ParseAndCheck) {
  EXPECT_EQ(parse_grid("1,1,2,2"), (Grid4{1, 1, 2, 2}));
  EXPECT_EQ(parse_grid("1x2x1x4"), (Grid4{1, 2, 1, 4}));
  EXPECT_THROW(parse_grid("1,2,3"), InputError);
  EXPECT_THROW(parse_grid("1,2,3,0"), InputError);
  EXPECT_NO_THROW(check_grid({8, 8, 8, 16}, {1, 1, 2, 4}));
  EXPECT_THROW(check_grid({8, 8, 8, 16}, {1, 1, 3, 1}), InputError);  // 3 does not divide 8
  EXPECT_THROW(check_grid({8, 8, 6, 16}, {1, 1, 2, 1}), InputError);  // local z extent 3 is odd
  try {
    check_grid({8, 8, 8, 16}, {1, 1, 3, 1});
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("z extent 8"), std::string::npos) << e.what();
  }
}

TEST(ProcessGrid, ChosenGridMinimisesTheSurface) {
  EXPECT_EQ(choose_grid({32, 32, 32, 64}, 2), (Grid4{1, 1, 1, 2}));  // cut the long t
  EXPECT_EQ(choose_grid({16, 16, 16, 16}, 2), (Grid4{1, 1, 1, 2}));  // tie: t first
  // 2x2x2x2 and 1x1x4x4 both expose 4096 face sites of a 16^4: the one with fewer neighbours wins.
  EXPECT_EQ(choose_grid({16, 16, 16, 16}, 16), (Grid4{1, 1, 4, 4}));
  EXPECT_EQ(choose_grid({8, 8, 8, 16}, 4), (Grid4{1, 1, 1, 4}));   // 512 face sites, not 768
  EXPECT_EQ(choose_grid({4, 4, 4, 4}, 1), (Grid4{1, 1, 1, 1}));
  EXPECT_THROW(choose_grid({4, 4, 4, 4}, 3), InputError);
}
