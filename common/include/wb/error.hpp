// Errors of the workbook runtime, the same type on both backends.
#pragma once

#include <stdexcept>
#include <string>

namespace wb {

// A CUDA call that failed, a bad launch configuration, or (in the simulator) a kernel
// that did something wrong. The message names the call or the kernel's source line.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace wb

#if WB_BACKEND_CUDA
#include <cuda_runtime_api.h>

namespace wb::detail {
[[noreturn]] void throw_cuda_error(cudaError_t status, const char* call, const char* file,
                                   int line);
}  // namespace wb::detail

// Checks a CUDA runtime call; on failure throws wb::Error naming the call, its source
// location and CUDA's own description.
#define WB_CUDA_CHECK(call)                                                      \
  do {                                                                           \
    const cudaError_t wb_status_ = (call);                                       \
    if (wb_status_ != cudaSuccess) {                                             \
      ::wb::detail::throw_cuda_error(wb_status_, #call, __FILE__, __LINE__);     \
    }                                                                            \
  } while (false)
#endif
