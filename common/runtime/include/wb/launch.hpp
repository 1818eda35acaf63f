/// \file
/// wb::launch: the one way host code starts a kernel, on both backends.
///
///     wb::launch(copy_kernel, grid, block, shared_bytes, in.data(), out.data(), n);
///
/// is `copy_kernel<<<grid, block, shared_bytes>>>(in.data(), out.data(), n)` on the GPU
/// (g++ cannot parse the triple chevrons, so no file of ours writes them), followed by a
/// check of the launch error. Launches are asynchronous on the GPU: errors of the
/// running kernel surface at the next synchronization (wb::synchronize, a download).
/// In the simulator the launch runs to completion and a kernel error throws here.
/// A launch asking for more than 48 KB of dynamic shared memory raises the kernel's
/// limit first, as the GPU requires. wb::resident_blocks(kernel, block, shared_bytes)
/// says how many blocks of a kernel the device runs at once.
#pragma once

#include <cstddef>
#include <tuple>
#include <utility>

#include "wb/backend.hpp"
#include "wb/error.hpp"
#include "wb/trace.hpp"  // a trace build's launches: the recorder's shared memory

namespace wb {

namespace detail {
// Throws wb::Error with a clear message for a grid or block no GPU can run.
void validate_launch(dim3 grid, dim3 block, std::size_t shared_bytes);
}  // namespace detail

#if WB_BACKEND_SIM

namespace detail {
template <class... Params>
struct KernelCall {
  void (*kernel)(Params...);
  std::tuple<std::decay_t<Params>...> arguments;

  static void invoke(const void* self) {
    const auto& call = *static_cast<const KernelCall*>(self);
    std::apply(call.kernel, call.arguments);  // each thread gets its own copies
  }
};
}  // namespace detail

template <class... Params, class... Args>
void launch(void (*kernel)(Params...), dim3 grid, dim3 block, std::size_t shared_bytes,
            Args&&... args) {
  static_assert(sizeof...(Params) == sizeof...(Args),
                "wb::launch: the number of arguments differs from the kernel's parameters");
  const detail::KernelCall<Params...> call{kernel, {std::forward<Args>(args)...}};
  sim::run_grid({grid, block, shared_bytes, reinterpret_cast<const void*>(kernel)},
                &detail::KernelCall<Params...>::invoke, &call);
}

inline void synchronize() {}

// The simulator has no SMs: it answers as a small GPU that runs 2 blocks at once, so that
// a grid sized from it leaves each block several tiles at the graders' small sizes.
inline constexpr int kSimulatedResidentBlocks = 2;

template <class... Params>
int resident_blocks(void (*)(Params...), dim3, std::size_t) {
  return kSimulatedResidentBlocks;
}

#else

namespace detail {
void check_launch();
void raise_shared_limit(const void* kernel, std::size_t shared_bytes);
int resident_blocks(const void* kernel, int block_threads, std::size_t shared_bytes);
void note_launch(const void* kernel, dim3 grid, dim3 block, std::size_t shared_bytes);
}  // namespace detail

/// The last wb::launch of this process on the GPU: which kernel, its grid and block, and
/// how many of its blocks each SM holds at once (registers, shared memory and threads
/// allowing) and how many SMs the GPU has. A bench reads it after running a step, to
/// say how many bytes the step keeps in flight on each SM. `kernel` is null before any.
struct LaunchRecord {
  const void* kernel = nullptr;
  dim3 grid{0, 0, 0};
  dim3 block{0, 0, 0};
  std::size_t shared_bytes = 0;
  int blocks_per_sm = 0;
  int multiprocessors = 0;
};
LaunchRecord last_launch();

/// How many blocks of `kernel` the whole GPU runs at once (blocks an SM holds, from the
/// kernel's registers and shared memory, times the SMs): the grid of a kernel whose
/// blocks each walk many tiles, which then fills every SM in one wave. The simulator
/// answers 2, as a small GPU would, so that every block still walks several tiles.
template <class... Params>
int resident_blocks(void (*kernel)(Params...), dim3 block, std::size_t shared_bytes) {
#if defined(WB_TRACE) && WB_TRACE && defined(__CUDACC__)
  shared_bytes = trace::detail::launch_shared_bytes(shared_bytes);  // as wb::launch will ask
#endif
  return detail::resident_blocks(reinterpret_cast<const void*>(kernel),
                                 static_cast<int>(block.x * block.y * block.z), shared_bytes);
}

#if defined(__CUDACC__)
/// Runs `kernel` on a grid of `grid` blocks of `block` threads with `shared_bytes` of
/// dynamic shared memory, and checks the launch: `kernel<<<grid, block,
/// shared_bytes>>>(args...)` on the GPU, a run to completion in the simulator. Throws
/// wb::Error for a configuration no GPU can run, or (in the simulator) a kernel error.
template <class... Params, class... Args>
void launch(void (*kernel)(Params...), dim3 grid, dim3 block, std::size_t shared_bytes,
            Args&&... args) {
  static_assert(sizeof...(Params) == sizeof...(Args),
                "wb::launch: the number of arguments differs from the kernel's parameters");
#if defined(WB_TRACE) && WB_TRACE
  // A trace build's recorder keeps its counts past the kernel's own dynamic shared
  // memory (wb/trace.hpp); beside 48 KB of static shared memory, the launch needs the
  // kernel's limit raised even for a few bytes.
  shared_bytes = trace::detail::launch_shared_bytes(shared_bytes);
  const bool raise_limit = true;
#else
  const bool raise_limit = shared_bytes > 48 * 1024;
#endif
  detail::validate_launch(grid, block, shared_bytes);
  if (raise_limit) detail::raise_shared_limit(reinterpret_cast<const void*>(kernel), shared_bytes);
  kernel<<<grid, block, shared_bytes>>>(std::forward<Args>(args)...);
  detail::check_launch();
  detail::note_launch(reinterpret_cast<const void*>(kernel), grid, block, shared_bytes);
}
#endif

/// Waits for the GPU and raises the error of any kernel that failed meanwhile (nothing
/// to wait for in the simulator, whose launches run to completion).
void synchronize();

#endif

}  // namespace wb
