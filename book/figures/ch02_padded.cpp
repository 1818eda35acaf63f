// Chapter 2's figure: the bank maps of step 2's row read at strides 128, 130 and 129,
// and row_read, which chapter 3's padding table compares too. The summing threads are
// chapters/02_padded/padded.hpp's sum_thread_layout, as column_sums_kernel uses it.
#include <string>

#include "figures.hpp"
#include "padded.hpp"  // chapters/02_padded: the tile shape and sum_thread_layout
#include "tile_drawing.hpp"
#include "wb/bank_map.hpp"
#include "wb/layout.hpp"

namespace figures {
namespace chapter2 {

// The tile at each stride the figures compare is built here from the header's shape:
// the kernel's own tile has one stride only, the one the learner chooses.
wb::bank_map::BankMap row_read(int stride) {
  const auto smem_layout = wb::col_major(ch02::kTileRows, ch02::kStripCols, stride);
  return wb::bank_map::of(smem_layout, ch02::sum_thread_layout, 0);
}

namespace {

void row_read_figure(const std::string& folder) {
  const auto unpadded = row_read(128), plus_two = row_read(130), plus_one = row_read(129);
  require(unpadded.wavefronts == 32 && plus_two.wavefronts == 2 && plus_one.wavefronts == 1,
          "the row read no longer costs 32, 2 and 1 wavefronts at strides 128, 130 and 129");
  bank_maps_figure(
      folder + "/ch02_bank_maps_row_read.svg",
      "Chapter 2, step 2: warp 0 reads row 0 of the 128x32 tile, columns 0-31",
      {"lane c reads element (0, c), the word 0 + stride * c, in bank (stride * c) % 32",
       "stride 128: every column starts in bank 0; 130: in bank 2c % 32; 129: in bank c % 32"},
      {{"stride 128, no padding", unpadded},
       {"stride 130, padding 2 (the seed's)", plus_two},
       {"stride 129, padding 1", plus_one}});
}

}  // namespace

void draw(const std::string& folder) {
  row_read_figure(folder);
}

}  // namespace chapter2
}  // namespace figures
