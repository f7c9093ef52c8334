// main() of the `mpi` tests: starts the communication layer (MPI when run under mpirun), runs the
// tests on every rank, and fails on every rank when any rank failed. Rank 0 prints GoogleTest's
// usual report; other ranks print only their failures, prefixed with the rank.
#include <gtest/gtest.h>

#include <cstdio>

#include "gluon/comm/environment.h"

namespace {
class RankFailurePrinter : public ::testing::EmptyTestEventListener {
 public:
  explicit RankFailurePrinter(int rank) : rank_(rank) {}
  void OnTestPartResult(const ::testing::TestPartResult& r) override {
    if (r.failed())
      std::fprintf(stderr, "[rank %d] %s:%d: failure\n%s\n", rank_,
                   r.file_name() ? r.file_name() : "?", r.line_number(), r.summary());
  }

 private:
  int rank_;
};
}  // namespace

int main(int argc, char** argv) {
  gluon::comm::Environment env(&argc, &argv);
  ::testing::InitGoogleTest(&argc, argv);
  auto& world = gluon::comm::world();
  if (world.rank() != 0) {
    auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
    listeners.Append(new RankFailurePrinter(world.rank()));
  }
  const int rc = RUN_ALL_TESTS();
  const bool failed = world.any(rc != 0);
  if (world.rank() == 0 && failed && rc == 0)
    std::fprintf(stderr, "mpi tests: another rank failed (its failures are printed above)\n");
  return failed ? 1 : 0;
}
