/// \file
/// Tensor maps for Hopper's tensor memory accelerator (TMA), on both backends.
///
///     CUtensorMap tensor_map;
///     wb::encode_tensor_map_tiled(&tensor_map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, gmem_in, dims, strides,
///                                 box, element_strides, CU_TENSOR_MAP_INTERLEAVE_NONE,
///                                 CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_NONE,
///                                 CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
///
/// is the driver's cuTensorMapEncodeTiled, with the same parameters in the same order. It
/// checks the driver's rules first and throws a wb::Error (ErrorKind::tensor_map) that
/// names the value and the rule, where the driver answers CUDA_ERROR_INVALID_VALUE only.
/// On the GPU it then calls the driver, found through the CUDA runtime so that the
/// programs need not link the driver's library; in the simulator it keeps what the map
/// describes for the tensor copies (cp_async_bulk_tensor_2d_global_to_shared).
#pragma once

#include <cuda.h>  // CUtensorMap; in the simulator, common/sim/toolkit/cuda.h

namespace wb {

/// Fills `tensor_map` with the description of a tiled `rank`-dimensional tensor at
/// `global_address`, as the driver's cuTensorMapEncodeTiled does with the same
/// parameters, after checking the driver's rules itself: a wb::Error of kind
/// ErrorKind::tensor_map names the value that breaks one, and the rule.
void encode_tensor_map_tiled(CUtensorMap* tensor_map, CUtensorMapDataType data_type, cuuint32_t rank,
                             void* global_address, const cuuint64_t* global_dims, const cuuint64_t* global_strides,
                             const cuuint32_t* box_dims, const cuuint32_t* element_strides,
                             CUtensorMapInterleave interleave, CUtensorMapSwizzle swizzle,
                             CUtensorMapL2promotion l2_promotion, CUtensorMapFloatOOBfill oob_fill);

}  // namespace wb
