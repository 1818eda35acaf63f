// The tensor cores in the simulator: ldmatrix and mma.sync (wb/tensor_core.hpp draws
// their fragment layouts, which are the PTX ISA's).
//
// Both are .sync.aligned: every lane of the warp executes the same instruction, so each
// is a rendezvous of the warp's 32 lanes (warp.cpp), and a lane that never arrives is
// reported with where it is instead, as for a shuffle.
//
// ldmatrix: each lane that gives a row (lanes 0 to 8 x matrices - 1) reads its 16 bytes
// itself, in the kernel's own instrumented code (the wrapper in wb/tensor_core.hpp), so
// the read is a shared load like any other: bounds, stale poison, copies in flight and
// races are checked with the kernel's line, and the warp's rows are counted as one
// request of 16-byte accesses, whose quarter-warp phases are ldmatrix's own (8 rows of one
// matrix a phase): its bank conflicts are counted as a GPU has them. Before that read this
// file checks what is ldmatrix's own: the row lies in shared memory and is 16-byte aligned.
// At the rendezvous the last lane hands every lane its fragments of the rows read.
//
// mma.sync: the last lane to arrive gathers A, B and C from every lane's fragments and
// hands each its fragment of D.
#include <cstring>

#include "worker.hpp"

namespace wb::sim {
namespace {

constexpr std::uint32_t kWholeWarp = 0xFFFFFFFFu;
constexpr std::size_t kRowBytes = 16;  // one row of an 8x8 matrix of 16-bit elements
// How far below the static shared memory a row is taken for a negative index into it (as
// for a plain access, access.cpp).
constexpr std::size_t kSharedReachBelow = 4096;

// An mma's operands from one lane, as the instruction's registers hold them.
struct MmaFragments {
  std::uint32_t a[4];
  std::uint32_t b[2];
  float c[4];
};
static_assert(sizeof(MmaFragments) <= sizeof(WarpRendezvous::operands[0]),
              "a lane's mma fragments fit in a rendezvous operand");

std::string ldmatrix_name(int matrices, bool transposed) {
  return "ldmatrix.x" + std::to_string(matrices) + (transposed ? ".trans" : "");
}

// The 16-bit element `column` of lane `lane`'s row, as the meeting holds it.
std::uint16_t row_element(const WarpRendezvous& meeting, unsigned lane, unsigned column) {
  std::uint16_t element;
  std::memcpy(&element, reinterpret_cast<const std::byte*>(meeting.operands[lane]) + 2 * column, sizeof element);
  return element;
}

// A bf16's value: the top half of a float's bits, exactly.
float bf16_value(std::uint32_t bits) {
  const std::uint32_t widened = bits << 16;
  float value;
  std::memcpy(&value, &widened, sizeof value);
  return value;
}

}  // namespace

bool ldmatrix_gives_row(int matrices, bool transposed, const void* row, const char* file, int line) {
  ThreadState& thread = require_thread("ldmatrix", file, line);
  note_call_site(thread, file, line);
  if (thread.lane() >= 8u * static_cast<unsigned>(matrices)) return false;  // its address is not used
  const void* pc = __builtin_return_address(0);  // in the kernel: names its arrays
  const SharedMemory& shared = thread.worker->shared;
  const std::string what = ldmatrix_name(matrices, transposed) + ": lane " + std::to_string(thread.lane()) +
                           " gives row " + std::to_string(thread.lane() % 8) + " of matrix " +
                           std::to_string(thread.lane() / 8) + " at " + hex(row) + ", ";
  if (!shared.in_static(row) && !shared.in_dynamic(row, kRowBytes)) {
    // A row inside the static shared memory is left to the load, which names the array it
    // overran; here what is certainly not the block's shared memory.
    if (const std::string overrun = explain_dynamic_overrun(shared, row, kRowBytes, SharedMemory::kDynamicReach);
        !overrun.empty()) {
      kernel_fail_access(file, line, what + "which covers " + overrun, ErrorKind::shared_out_of_bounds, row, false,
                         kRowBytes);
    }
    if (const std::string before = explain_before_static(shared, row, kRowBytes, pc, kSharedReachBelow);
        !before.empty()) {
      kernel_fail_access(file, line, what + "which " + before, ErrorKind::shared_out_of_bounds, row, false, kRowBytes);
    }
    const Worker& worker = *thread.worker;
    const char* where = find_device_allocation(row, 1).begin != nullptr ? "in global memory (a device allocation)"
                        : worker.stacks != nullptr && worker.stacks->contains(row)
                            ? "a local variable of the kernel"
                            : "not the block's shared memory";
    kernel_fail_access(file, line,
                       what + "which is " + where +
                           ". ldmatrix reads rows of shared memory only: a __shared__ array or the dynamic "
                           "shared memory.",
                       ErrorKind::other, row, false, kRowBytes);
  }
  if (const auto misalignment = reinterpret_cast<std::uintptr_t>(row) % kRowBytes; misalignment != 0) {
    kernel_fail_access(file, line,
                       what + "which is not 16-byte aligned (address % 16 == " + std::to_string(misalignment) +
                           "; it is " + describe_shared_address(shared, row, kRowBytes, pc) +
                           "). Each row address is the start of 8 16-bit elements read as one 16-byte access, "
                           "as on a GPU, which stops the kernel with a misaligned address: does every row of "
                           "the tile start at a multiple of 16 bytes (a row length, padding included, a "
                           "multiple of 8 elements) and every matrix at a column that is a multiple of 8?",
                       ErrorKind::misaligned, row, false, kRowBytes);
  }
  return true;
}

void ldmatrix(int matrices, bool transposed, const void* row_bytes, unsigned* registers, const char* file, int line) {
  ThreadState& thread = require_thread("ldmatrix", file, line);
  note_call_site(thread, file, line);
  if (matrices != 1 && matrices != 2 && matrices != 4) {
    kernel_fail(file, line, "ldmatrix loads 1, 2 or 4 matrices (.x1, .x2, .x4), not " + std::to_string(matrices));
  }
  const std::size_t register_bytes = sizeof(unsigned) * static_cast<std::size_t>(matrices);
  meet_warp(thread, WarpArrival{kWholeWarp, transposed ? WarpOp::ldmatrix_trans : WarpOp::ldmatrix, row_bytes,
                                kRowBytes, matrices, 32, registers, register_bytes, file, line});
}

void mma_m16n8k16_bf16(float* d, const unsigned* a, const unsigned* b, const float* c, const char* file, int line) {
  ThreadState& thread = require_thread("mma.sync", file, line);
  note_call_site(thread, file, line);
  MmaFragments fragments;
  std::memcpy(fragments.a, a, sizeof fragments.a);
  std::memcpy(fragments.b, b, sizeof fragments.b);
  std::memcpy(fragments.c, c, sizeof fragments.c);
  // d may be c itself (an accumulation): every lane's c is read at the meeting, before any
  // lane's d is written, as the hardware reads its operands before it writes.
  meet_warp(thread, WarpArrival{kWholeWarp, WarpOp::mma_m16n8k16_bf16, &fragments, sizeof fragments, 0, 32, d,
                                4 * sizeof(float), file, line});
}

// Lane t receives, of matrix m, row t / 4 at elements 2 (t % 4) and 2 (t % 4) + 1 (low
// half first); with .trans the matrix's transpose: column t / 4 at rows 2 (t % 4) and
// 2 (t % 4) + 1 of the rows as stored. Row r of matrix m is the one lane 8 m + r read.
void complete_ldmatrix(WarpRendezvous& meeting, Worker& worker, unsigned warp) {
  const bool transposed = meeting.op == WarpOp::ldmatrix_trans;
  const int matrices = meeting.lane_arguments[0];
  for (unsigned lane = 0; lane < 32; ++lane) {
    const unsigned group = lane / 4, pair = lane % 4;
    for (int m = 0; m < matrices; ++m) {
      const unsigned first_row = 8 * static_cast<unsigned>(m);
      std::uint16_t low, high;
      if (transposed) {
        low = row_element(meeting, first_row + 2 * pair, group);
        high = row_element(meeting, first_row + 2 * pair + 1, group);
      } else {
        low = row_element(meeting, first_row + group, 2 * pair);
        high = row_element(meeting, first_row + group, 2 * pair + 1);
      }
      const std::uint32_t word = static_cast<std::uint32_t>(low) | static_cast<std::uint32_t>(high) << 16;
      std::memcpy(reinterpret_cast<std::byte*>(meeting.results[lane]) + 4 * m, &word, sizeof word);
    }
  }
  ++worker.stats.ldmatrix_calls;
  worker.stats.ldmatrix_matrices += static_cast<std::uint64_t>(matrices);
  // Every lane stands here, each with its row's read the last access it made (lanes that
  // give no row, none): the rows are one warp request, whichever lanes gave one.
  const dim3 block = worker.job->config.block;
  tally_warp(worker, 32 * warp, block.x * block.y * block.z);
}

// D = A B + C, A 16x16 (row-major fragments), B 16x8 (column-major), C and D 16x8 in
// float. With g = lane / 4 and q = lane % 4, each register pair low half first:
//   A: a[r] holds row g + 8 (r % 2), columns 2q + 8 (r / 2) and the one after;
//   B: b[r] holds rows 2q + 8 r and the one after, column g;
//   C, D: c[i] and d[i] hold row g + 8 (i / 2), column 2q + i % 2.
// The products of two bf16 values are exact in float; each element's 16 products and C
// are summed in double and rounded to float once. The PTX ISA leaves the order and the
// precision of the hardware's additions open (a GPU's tensor cores align and truncate
// their partial sums), so a GPU's D may differ from this in the last bits of a float:
// compare with a tolerance, never bit for bit.
void complete_mma(WarpRendezvous& meeting, Worker& worker) {
  float a[16][16], b[16][8], c[16][8];
  for (unsigned lane = 0; lane < 32; ++lane) {
    MmaFragments fragments;
    std::memcpy(&fragments, meeting.operands[lane], sizeof fragments);
    const unsigned g = lane / 4, q = lane % 4;
    for (unsigned r = 0; r < 4; ++r) {
      const unsigned row = g + 8 * (r % 2), column = 2 * q + 8 * (r / 2);
      a[row][column] = bf16_value(fragments.a[r] & 0xFFFFu);
      a[row][column + 1] = bf16_value(fragments.a[r] >> 16);
    }
    for (unsigned r = 0; r < 2; ++r) {
      b[2 * q + 8 * r][g] = bf16_value(fragments.b[r] & 0xFFFFu);
      b[2 * q + 8 * r + 1][g] = bf16_value(fragments.b[r] >> 16);
    }
    for (unsigned i = 0; i < 4; ++i) c[g + 8 * (i / 2)][2 * q + i % 2] = fragments.c[i];
  }
  for (unsigned lane = 0; lane < 32; ++lane) {
    const unsigned g = lane / 4, q = lane % 4;
    float d[4];
    for (unsigned i = 0; i < 4; ++i) {
      const unsigned row = g + 8 * (i / 2), column = 2 * q + i % 2;
      double sum = c[row][column];
      for (unsigned k = 0; k < 16; ++k) sum += static_cast<double>(a[row][k]) * static_cast<double>(b[k][column]);
      d[i] = static_cast<float>(sum);
    }
    std::memcpy(meeting.results[lane], d, sizeof d);
  }
  ++worker.stats.mma_calls;
}

}  // namespace wb::sim
