// wb::encode_tensor_map_tiled: the rules of cuTensorMapEncodeTiled, checked with a message
// that names the value and the rule, then the driver's call (GPU) or the simulator's
// record of the map.
#include "wb/tensor_map.hpp"

#include <cstdint>
#include <string>

#include "wb/error.hpp"
#if WB_BACKEND_SIM
#include "wb/sim/simulator.hpp"
#else
#include <cuda_runtime.h>
#endif

namespace wb {
namespace {

int element_bytes(CUtensorMapDataType type) {
  switch (type) {
    case CU_TENSOR_MAP_DATA_TYPE_UINT8: return 1;
    case CU_TENSOR_MAP_DATA_TYPE_UINT16:
    case CU_TENSOR_MAP_DATA_TYPE_FLOAT16:
    case CU_TENSOR_MAP_DATA_TYPE_BFLOAT16: return 2;
    case CU_TENSOR_MAP_DATA_TYPE_UINT32:
    case CU_TENSOR_MAP_DATA_TYPE_INT32:
    case CU_TENSOR_MAP_DATA_TYPE_FLOAT32: return 4;
    case CU_TENSOR_MAP_DATA_TYPE_UINT64:
    case CU_TENSOR_MAP_DATA_TYPE_INT64:
    case CU_TENSOR_MAP_DATA_TYPE_FLOAT64: return 8;
    default: return 0;
  }
}

int swizzle_span(CUtensorMapSwizzle swizzle) {
  switch (swizzle) {
    case CU_TENSOR_MAP_SWIZZLE_32B: return 32;
    case CU_TENSOR_MAP_SWIZZLE_64B: return 64;
    case CU_TENSOR_MAP_SWIZZLE_128B: return 128;
    default: return 0;
  }
}

[[noreturn]] void broken(const std::string& rule) {
  throw Error("cuTensorMapEncodeTiled: " + rule, ErrorKind::tensor_map);
}

std::string index_text(const char* array, cuuint32_t i) { return std::string(array) + "[" + std::to_string(i) + "]"; }

void check_rules(CUtensorMapDataType data_type, cuuint32_t rank, const void* global_address,
                 const cuuint64_t* global_dims, const cuuint64_t* global_strides, const cuuint32_t* box_dims,
                 const cuuint32_t* element_strides, CUtensorMapInterleave interleave, CUtensorMapSwizzle swizzle) {
  const int element = element_bytes(data_type);
  if (element == 0) broken("an unknown data type");
  if (rank < 1 || rank > 5) broken("the rank is " + std::to_string(rank) + "; a tensor map has 1 to 5 dimensions");
  const auto address = reinterpret_cast<std::uintptr_t>(global_address);
  const std::uintptr_t address_alignment = interleave == CU_TENSOR_MAP_INTERLEAVE_32B ? 32 : 16;
  if (global_address == nullptr || address % address_alignment != 0) {
    broken("the global address is " + std::to_string(address % address_alignment) + " bytes past a multiple of " +
           std::to_string(address_alignment) + "; the tensor starts at a " + std::to_string(address_alignment) +
           "-byte aligned address");
  }
  for (cuuint32_t i = 0; i < rank; ++i) {
    if (global_dims[i] == 0 || global_dims[i] > (std::uint64_t{1} << 32)) {
      broken(index_text("globalDim", i) + " is " + std::to_string(global_dims[i]) +
             "; each dimension has 1 to 2^32 elements");
    }
    if (box_dims[i] == 0 || box_dims[i] > 256) {
      broken(index_text("boxDim", i) + " is " + std::to_string(box_dims[i]) + "; a box has 1 to 256 elements a dimension");
    }
    if (element_strides[i] == 0 || element_strides[i] > 8) {
      broken(index_text("elementStrides", i) + " is " + std::to_string(element_strides[i]) +
             "; an element stride is 1 to 8");
    }
  }
  for (cuuint32_t i = 0; i + 1 < rank; ++i) {
    if (global_strides[i] % 16 != 0 || global_strides[i] >= (std::uint64_t{1} << 40)) {
      broken(index_text("globalStrides", i) + " is " + std::to_string(global_strides[i]) +
             " bytes; the stride of each dimension but the innermost is a multiple of 16 bytes (below 2^40): a "
             "column-major array of floats needs a number of rows that is a multiple of 4");
    }
  }
  const std::uint64_t inner_bytes = std::uint64_t{box_dims[0]} * static_cast<std::uint64_t>(element);
  if (interleave == CU_TENSOR_MAP_INTERLEAVE_NONE) {
    if (inner_bytes % 16 != 0) {
      broken("the box's innermost dimension, boxDim[0] = " + std::to_string(box_dims[0]) + " elements, is " +
             std::to_string(inner_bytes) + " bytes; it must be a multiple of 16 bytes");
    }
    const int span = swizzle_span(swizzle);
    if (span > 0 && inner_bytes > static_cast<std::uint64_t>(span)) {
      broken("the box's innermost dimension is " + std::to_string(inner_bytes) + " bytes, more than the " +
             std::to_string(span) + "-byte swizzle's span; with a swizzle, boxDim[0] times the element size is at "
             "most the swizzle's bytes");
    }
  }
}

}  // namespace

void encode_tensor_map_tiled(CUtensorMap* tensor_map, CUtensorMapDataType data_type, cuuint32_t rank,
                             void* global_address, const cuuint64_t* global_dims, const cuuint64_t* global_strides,
                             const cuuint32_t* box_dims, const cuuint32_t* element_strides,
                             CUtensorMapInterleave interleave, CUtensorMapSwizzle swizzle,
                             CUtensorMapL2promotion l2_promotion, CUtensorMapFloatOOBfill oob_fill) {
  check_rules(data_type, rank, global_address, global_dims, global_strides, box_dims, element_strides, interleave,
              swizzle);
#if WB_BACKEND_SIM
  if (interleave != CU_TENSOR_MAP_INTERLEAVE_NONE) broken("the simulator models maps without interleave only");
  if (sim::find_device_allocation(global_address, 1).begin == nullptr) {
    broken("the global address is not in a device allocation (a host pointer?)");
  }
  (void)l2_promotion;  // a cache hint: no effect on the results
  (void)oob_fill;      // elements outside the tensor are zeros (FLOAT_OOB_FILL_NONE)
  sim::TensorMapDescriptor descriptor;
  descriptor.rank = static_cast<int>(rank);
  descriptor.element_bytes = element_bytes(data_type);
  descriptor.global_address = global_address;
  for (cuuint32_t i = 0; i < rank; ++i) {
    descriptor.dims[i] = global_dims[i];
    descriptor.strides[i] = i == 0 ? static_cast<std::uint64_t>(descriptor.element_bytes) : global_strides[i - 1];
    descriptor.box[i] = box_dims[i];
    descriptor.element_strides[i] = element_strides[i];
  }
  descriptor.swizzle_bytes = swizzle_span(swizzle);
  *tensor_map = CUtensorMap{};
  tensor_map->opaque[0] = 0x77622d746d6170;  // "wb-tmap": a map of the simulator
  tensor_map->opaque[1] = sim::register_tensor_map(descriptor);
#else
  using Encode = CUresult (*)(CUtensorMap*, CUtensorMapDataType, cuuint32_t, void*, const cuuint64_t*,
                              const cuuint64_t*, const cuuint32_t*, const cuuint32_t*, CUtensorMapInterleave,
                              CUtensorMapSwizzle, CUtensorMapL2promotion, CUtensorMapFloatOOBfill);
  // Looked up once: a host function that makes its map before every launch must not pay
  // for the lookup each time (a benchmark would time it).
  static void* const entry = [] {
    void* found_entry = nullptr;
    cudaDriverEntryPointQueryResult found{};
    WB_CUDA_CHECK(
        cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &found_entry, 12000, cudaEnableDefault, &found));
    if (found != cudaDriverEntryPointSuccess || found_entry == nullptr) {
      throw Error("cuTensorMapEncodeTiled: the driver does not provide it (a driver for CUDA 12 or newer is needed)");
    }
    return found_entry;
  }();
  const CUresult result = reinterpret_cast<Encode>(entry)(tensor_map, data_type, rank, global_address, global_dims,
                                                          global_strides, box_dims, element_strides, interleave,
                                                          swizzle, l2_promotion, oob_fill);
  if (result != CUDA_SUCCESS) {
    throw Error("cuTensorMapEncodeTiled failed with CUresult " + std::to_string(static_cast<int>(result)) +
                    " although the rules the workbook knows hold",
                ErrorKind::tensor_map);
  }
#endif
}

}  // namespace wb
