/// \file
/// wb::Layout: a 2-D shape with strides, the map from a (row, col) coordinate to an
/// offset. The chapters use it for every tile, thread arrangement and shared-memory
/// layout, so that a kernel says "the element (row, col) of the shared tile" and the
/// layout says where that lives:
///
///     auto smem_layout   = wb::col_major(wb::Int<128>{}, wb::Int<16>{});   // (128,16):(1,128)
///     auto padded_layout = wb::col_major(wb::Int<128>{}, wb::Int<16>{}, wb::Int<130>{});
///     smem_tile[padded_layout(row, col)] = ...;                          // row + col*130
///
/// Extents and strides given as `wb::Int<N>` are compile-time constants: the layout
/// is then a constant expression that static_assert can check. Plain ints make a run-time
/// layout with the same interface.
#pragma once

#if defined(__CUDACC__)
#define WB_HOST_DEVICE __host__ __device__
#else
#define WB_HOST_DEVICE
#endif

/// `__device__` under nvcc, nothing elsewhere: for a layout that a chapter's header
/// defines once, at namespace scope, for its kernels, host code and the book's figures.
///
///     WB_DEVICE_CONSTANT constexpr auto smem_layout = wb::col_major(Int<128>{}, Int<16>{});
///
/// Device code may then use the object, and the header still compiles as plain C++ for a
/// host compiler, the simulator's g++ and the figure generator.
#if defined(__CUDACC__)
#define WB_DEVICE_CONSTANT __device__
#else
#define WB_DEVICE_CONSTANT
#endif

namespace wb {

/// A compile-time integer (like std::integral_constant, usable in device code too).
template <int N>
struct Int {
  static constexpr int value = N;  ///< N
  /// N, wherever an int is expected.
  WB_HOST_DEVICE constexpr operator int() const { return N; }
};

/// A coordinate in a layout: what Layout::coord returns.
struct Coord {
  int row;  ///< the row, from 0
  int col;  ///< the column, from 0
};

/// A 2-D shape with strides: `rows` x `cols` coordinates, (row, col) at offset
/// `row * row_stride + col * col_stride`. Each of the four is an int, or a `wb::Int<N>`
/// known at compile time. Written *shape:stride*, `(128,16):(1,128)` is a column-major
/// 128x16 tile. Made by col_major, row_major or make_layout.
template <class Rows, class Cols, class RowStride, class ColStride>
struct Layout {
  Rows rows;              ///< how many rows
  Cols cols;              ///< how many columns
  RowStride row_stride;   ///< the offset from one row to the next
  ColStride col_stride;   ///< the offset from one column to the next

  /// The offset of element (row, col): row * row_stride + col * col_stride.
  WB_HOST_DEVICE constexpr int operator()(int row, int col) const {
    return row * static_cast<int>(row_stride) + col * static_cast<int>(col_stride);
  }
  /// How many coordinates the layout has.
  WB_HOST_DEVICE constexpr int size() const {
    return static_cast<int>(rows) * static_cast<int>(cols);
  }
  /// How many offsets it spans: the last offset plus one (more than size() when padded).
  WB_HOST_DEVICE constexpr int cosize() const { return (*this)(rows - 1, cols - 1) + 1; }

  /// The same elements seen with rows and columns exchanged: a column-major 256x16 tile
  /// read as a row-major 16x256 one, which is how the transpose chapter works.
  WB_HOST_DEVICE constexpr auto transpose() const {
    return Layout<Cols, Rows, ColStride, RowStride>{cols, rows, col_stride, row_stride};
  }

  /// The coordinate at `offset`, for a compact layout (one whose offsets are exactly
  /// 0..size()-1, row- or column-major): how thread index t finds its (row, col) in a
  /// thread layout.
  /// The arithmetic is unsigned: an offset is never negative, and the compiler then knows
  /// that each coordinate lies in [0, extent), so that a loop starting from one has a trip
  /// count it can see (signed, a transpose's loops compiled to a third more instructions).
  WB_HOST_DEVICE constexpr Coord coord(int offset) const {
    const auto index = static_cast<unsigned>(offset);
    if (static_cast<int>(row_stride) <= static_cast<int>(col_stride)) {
      return {static_cast<int>(index / static_cast<unsigned>(row_stride) % static_cast<unsigned>(rows)),
              static_cast<int>(index / static_cast<unsigned>(col_stride))};
    }
    return {static_cast<int>(index / static_cast<unsigned>(row_stride)),
            static_cast<int>(index / static_cast<unsigned>(col_stride) % static_cast<unsigned>(cols))};
  }

  /// Whether the offsets are exactly 0..size()-1, column- or row-major (no padding), as
  /// coord() needs.
  WB_HOST_DEVICE constexpr bool is_compact() const {
    return (static_cast<int>(row_stride) == 1 && static_cast<int>(col_stride) == static_cast<int>(rows)) ||
           (static_cast<int>(col_stride) == 1 && static_cast<int>(row_stride) == static_cast<int>(cols));
  }
};

/// The layout of `rows` x `cols` with the strides given.
template <class Rows, class Cols, class RowStride, class ColStride>
WB_HOST_DEVICE constexpr auto make_layout(Rows rows, Cols cols, RowStride row_stride,
                                          ColStride col_stride) {
  return Layout<Rows, Cols, RowStride, ColStride>{rows, cols, row_stride, col_stride};
}

/// Column-major: consecutive rows are adjacent; a column is `leading` elements apart
/// (more than `rows` for a padded tile).
template <class Rows, class Cols, class Leading>
WB_HOST_DEVICE constexpr auto col_major(Rows rows, Cols cols, Leading leading) {
  return make_layout(rows, cols, Int<1>{}, leading);
}
/// Column-major and compact: `(rows,cols):(1,rows)`.
template <class Rows, class Cols>
WB_HOST_DEVICE constexpr auto col_major(Rows rows, Cols cols) {
  return col_major(rows, cols, rows);
}

/// Row-major: consecutive columns are adjacent; a row is `leading` elements apart.
template <class Rows, class Cols, class Leading>
WB_HOST_DEVICE constexpr auto row_major(Rows rows, Cols cols, Leading leading) {
  return make_layout(rows, cols, leading, Int<1>{});
}
/// Row-major and compact: `(rows,cols):(cols,1)`.
template <class Rows, class Cols>
WB_HOST_DEVICE constexpr auto row_major(Rows rows, Cols cols) {
  return row_major(rows, cols, cols);
}

}  // namespace wb
