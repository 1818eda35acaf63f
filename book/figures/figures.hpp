// The book's figures, one file a chapter (chNN_name.cpp): each chapter's draw() writes
// that chapter's SVG files into `folder`, named chNN_... after the page that shows them
// (book/CMakeLists.txt lists them). main.cpp calls them in order.
#pragma once

#include <string>

#include "wb/bank_map.hpp"

namespace figures {

namespace chapter1 {
void draw(const std::string& folder);  // ch01_copy_threads, ch01_store_order, ch01_grid
}  // namespace chapter1

namespace chapter2 {
void draw(const std::string& folder);  // ch02_bank_maps_row_read
// Step 2's row read, as column_sums_kernel arranges it, on a 128x32 tile whose columns
// are `stride` floats apart: chapter 3's padding table compares it too.
wb::bank_map::BankMap row_read(int stride);
}  // namespace chapter2

namespace chapter3 {
// ch03_thread_layouts, ch03_bank_maps_transposed_read, ch03_padding_table
void draw(const std::string& folder);
}  // namespace chapter3

namespace chapter4 {
void draw(const std::string& folder);  // ch04_pipeline, ch04_micro_tile, ch04_double_buffer
}  // namespace chapter4

namespace chapter5 {
void draw(const std::string& folder);  // ch05_column_bases
}  // namespace chapter5

namespace chapter6 {
void draw(const std::string& folder);  // ch06_halo
}  // namespace chapter6

namespace chapter8 {
void draw(const std::string& folder);  // ch08_fragments, ch08_swizzle
}  // namespace chapter8

}  // namespace figures
