// Schedules: the order in which a block's threads run between barriers. They must
// really differ: running a test under forward and reverse turns an ordering mistake
// that the race check cannot see (a copy read before its wait) into a wrong result
// instead of a lucky right one; a missing __syncthreads() is a race under every order.
#include <algorithm>
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include "sim_test_support.hpp"
#include "wb/grading/random.hpp"

namespace {

using wb::sim::Order;
using wb::sim::Schedule;
using wb::sim::ScopedSchedule;
using SimSchedules = sim_test::SimTest;

constexpr unsigned kThreads = 32;

// arrival[t] = the how-many-th thread t was to get here, before and after a barrier.
// Fibers of a block run on one OS thread, one at a time, so the plain increment is safe.
__global__ void record_arrival(int* counter, int* arrival) {
  arrival[threadIdx.x] = (*counter)++;
  __syncthreads();
  arrival[blockDim.x + threadIdx.x] = (*counter)++;
}

__global__ void reverse_with_barrier(const float* in, float* out) {
  __shared__ float smem_values[kThreads];
  smem_values[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = smem_values[blockDim.x - 1 - threadIdx.x];
}

// The same without the barrier: a thread may read its partner's element before the
// partner has written it, a race whatever the order the threads run in.
__global__ void reverse_without_barrier(const float* in, float* out) {
  __shared__ float smem_values[kThreads];
  smem_values[threadIdx.x] = in[threadIdx.x];
  out[threadIdx.x] = smem_values[blockDim.x - 1 - threadIdx.x];
}

// The arrival order of the threads, before ([0, 32)) and after ([32, 64)) the barrier.
std::vector<int> arrivals_under(const Schedule& schedule) {
  const ScopedSchedule scoped(schedule);
  wb::DeviceBuffer<int> counter(1), arrival(2 * kThreads);
  counter.upload({0});
  wb::launch(record_arrival, dim3(1), dim3(kThreads), 0, counter.data(), arrival.data());
  return arrival.download();
}

// How many elements of the reversal are wrong under `schedule`, on random input.
int reversal_errors(void (*kernel)(const float*, float*), const Schedule& schedule,
                    std::uint64_t seed) {
  const std::vector<float> values = wb::grading::random_floats(kThreads, seed);
  const ScopedSchedule scoped(schedule);
  wb::DeviceBuffer<float> in(kThreads), out(kThreads);
  in.upload(values);
  out.poison();
  wb::launch(kernel, dim3(1), dim3(kThreads), 0, in.data(), out.data());
  const std::vector<float> result = out.download();
  int errors = 0;
  for (unsigned i = 0; i < kThreads; ++i) errors += result[i] != values[kThreads - 1 - i];
  return errors;
}

TEST_F(SimSchedules, SchedulesChangeTheOrderThreadsRun) {
  std::vector<int> in_order(kThreads);
  std::iota(in_order.begin(), in_order.end(), 0);
  const auto round = [](const std::vector<int>& arrivals, int which) {
    std::vector<int> part(arrivals.begin() + which * kThreads,
                          arrivals.begin() + (which + 1) * kThreads);
    for (int& position : part) position -= which * static_cast<int>(kThreads);
    return part;
  };

  const std::vector<int> forward = arrivals_under({Order::forward, 1});
  EXPECT_EQ(round(forward, 0), in_order) << "forward runs thread 0 first";
  EXPECT_EQ(round(forward, 1), in_order) << "and again after the barrier";

  std::vector<int> reversed(in_order.rbegin(), in_order.rend());
  const std::vector<int> reverse = arrivals_under({Order::reverse, 1});
  EXPECT_EQ(round(reverse, 0), reversed) << "reverse runs the last thread first";
  EXPECT_EQ(round(reverse, 1), reversed);

  const std::vector<int> random_7 = arrivals_under({Order::random, 7});
  for (int which : {0, 1}) {
    SCOPED_TRACE(which == 0 ? "before the barrier" : "after the barrier");
    std::vector<int> sorted = round(random_7, which);
    std::sort(sorted.begin(), sorted.end());
    EXPECT_EQ(sorted, in_order) << "every thread arrives exactly once";
    EXPECT_NE(round(random_7, which), in_order) << "random:7 is not forward";
    EXPECT_NE(round(random_7, which), reversed) << "random:7 is not reverse";
  }
  EXPECT_NE(round(random_7, 0), round(random_7, 1))
      << "each round between barriers gets a fresh shuffle";
  EXPECT_EQ(arrivals_under({Order::random, 7}), random_7) << "a seed replays its order";
  EXPECT_NE(arrivals_under({Order::random, 8}), random_7) << "another seed, another order";
}

TEST_F(SimSchedules, MissingBarrierIsARaceUnderEverySchedule) {
  for (const Schedule& schedule :
       {Schedule{Order::forward, 1}, Schedule{Order::reverse, 1}, Schedule{Order::random, 7}}) {
    SCOPED_TRACE(wb::sim::to_string(schedule));
    const std::string error = sim_test::kernel_error_of(
        [&] { reversal_errors(reverse_without_barrier, schedule, wb::grading::fresh_seed()); });
    EXPECT_TRUE(sim_test::contains(error, "a race on shared memory.*smem_values\\[[0-9]+\\]"))
        << error;
  }
}

TEST_F(SimSchedules, CorrectKernelIsRightUnderEverySchedule) {
  const auto seed = wb::grading::fresh_seed();
  SCOPED_TRACE("WB_SEED=" + std::to_string(seed));
  for (const Schedule& schedule :
       {Schedule{Order::forward, 1}, Schedule{Order::reverse, 1}, Schedule{Order::random, 7}}) {
    EXPECT_EQ(reversal_errors(reverse_with_barrier, schedule, seed), 0)
        << "wrong elements under " << wb::sim::to_string(schedule);
  }
}

TEST_F(SimSchedules, ScopedScheduleRestoresThePreviousOne) {
  const Schedule before = wb::sim::current_schedule();
  {
    const ScopedSchedule scoped({Order::random, 42});
    EXPECT_EQ(wb::sim::to_string(wb::sim::current_schedule()), "random:42");
  }
  EXPECT_EQ(wb::sim::to_string(wb::sim::current_schedule()), wb::sim::to_string(before));
}

}  // namespace
