#include "wb/grading/diagnosis/shared_overruns.hpp"

#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

namespace wb::grading {

namespace {

// The offsets, from a stage's start, of the floats a thread's reads at one instruction
// begin at, in order: every row at each kk (one instruction for all of them), or one row
// at each kk (an instruction per row).
std::vector<std::vector<long long>> read_orders(const FragmentReads& reads, const std::vector<int>& rows) {
  std::vector<std::vector<long long>> orders;
  orders.emplace_back();
  for (int kk = 0; kk < reads.columns; ++kk) {
    for (int row : rows) orders.front().push_back(row + static_cast<long long>(kk) * reads.column_stride);
  }
  if (rows.size() > 1) {
    for (int row : rows) {
      std::vector<long long>& order = orders.emplace_back();
      for (int kk = 0; kk < reads.columns; ++kk) order.push_back(row + static_cast<long long>(kk) * reads.column_stride);
    }
  }
  return orders;
}

// Whether words[i] - words[0] == scale * (order[first + i] - order[first]) for every i.
bool walks(const std::vector<long long>& words, const std::vector<long long>& order, std::size_t first, long long scale) {
  for (std::size_t i = 0; i < words.size(); ++i) {
    if (words[i] - words[0] != scale * (order[first + i] - order[first])) return false;
  }
  return true;
}

}  // namespace

std::string vector_pointer_indexed_in_floats(const Fault& fault, const FragmentReads& reads) {
  if (!fault.shared_overrun || fault.write || !reads.rows || reads.vector <= 1) return "";
  const SharedOverrun& overrun = *fault.shared_overrun;
  if (overrun.array != reads.array) return "";
  std::vector<long long> words = overrun.earlier_words;
  words.push_back(overrun.word);
  // Three reads at least: two could fit a walk by chance.
  if (words.size() < 3) return "";
  const long long stage_floats = static_cast<long long>(reads.column_stride) * reads.columns;
  const unsigned thread = fault.thread[0];
  for (const std::vector<long long>& order : read_orders(reads, reads.rows(thread))) {
    for (std::size_t first = 0; first + words.size() <= order.size(); ++first) {
      if (!walks(words, order, first, reads.vector) || walks(words, order, first, 1)) continue;
      const long long stage_start = words.front() - reads.vector * order[first];
      if (stage_start < 0 || stage_start % stage_floats != 0) continue;
      const long long meant = order[first + words.size() - 1];
      const int kk = static_cast<int>(meant / reads.column_stride);
      const long long row = meant - static_cast<long long>(kk) * reads.column_stride;
      std::string walked;
      const std::size_t shown = 4;
      for (std::size_t i = 0; i < words.size(); ++i) {
        if (i == shown && words.size() > shown + 1) {
          walked += ", ...";
          i = words.size() - 1;
        }
        walked += (i == 0 ? "" : ", ") + std::to_string(words[i]);
      }
      const std::string v = std::to_string(reads.vector);
      const std::string type = reads.vector == 4 ? "float4" : "float2";
      return "block (" + std::to_string(fault.block[0]) + ", " + std::to_string(fault.block[1]) + ")'s thread " +
             std::to_string(thread) + " read " + reads.operand + "'s fragments at floats " + walked + " of " +
             reads.array + ", the last past its end: each is " + v + " times the offset of the float it was meant to "
             "start at, counted from the stage's start (the last: row " + std::to_string(row) + ", column " +
             std::to_string(kk) + ", " + v + " * (" + std::to_string(row) + " + " + std::to_string(kk) + " * " +
             std::to_string(reads.column_stride) + ") = " + std::to_string(words.back() - stage_start) +
             "). The layout's offset counts floats; used as the index of a " + type + " pointer (reinterpret_cast<const " +
             type + "*>(stage)[offset]) it moves " + std::to_string(4 * reads.vector) +
             " bytes a step. Take the float's address first, *reinterpret_cast<const " + type +
             "*>(&stage[offset]), or index the " + type + " pointer with offset / " + v + ".";
    }
  }
  return "";
}

std::string float_offset_as_bytes(const Fault& fault, const FragmentReads& reads) {
  if (!fault.misaligned_shared || !reads.rows || reads.column_stride <= 0 || reads.columns <= 0) return "";
  const MisalignedShared& place = *fault.misaligned_shared;
  if (place.array != reads.array) return "";
  const long long stage_floats = static_cast<long long>(reads.column_stride) * reads.columns;
  const unsigned thread = fault.thread[0];
  const std::vector<int> rows = reads.rows(thread);
  for (int stage = 0; stage < reads.stages; ++stage) {
    const long long from_stage = place.byte - 4 * stage * stage_floats;  // bytes past the stage's start
    for (int kk = 0; kk < reads.columns; ++kk) {
      for (const int row : rows) {
        const long long meant = row + static_cast<long long>(kk) * reads.column_stride;  // in floats
        if (meant % reads.vector != 0 || from_stage != meant) continue;
        const std::string type = reads.vector == 4 ? "float4" : "float2";
        return "block (" + std::to_string(fault.block[0]) + ", " + std::to_string(fault.block[1]) + ")'s thread " +
               std::to_string(thread) + " read " + reads.operand + "'s fragment at byte " +
               std::to_string(from_stage) + " of a stage of " + reads.array + ", which is the offset in floats of " +
               "the " + type + " it was meant to read (row " + std::to_string(row) + ", column " +
               std::to_string(kk) + ": " + std::to_string(meant) + " floats, " + std::to_string(4 * meant) +
               " bytes). Either that float offset is added to a byte pointer (a char* plus the offset, without * "
               "sizeof(float)), or the read's row is no multiple of " + std::to_string(reads.vector) +
               " (the thread's row where its first row is meant): the address alone cannot tell the two "
               "apart.";
      }
    }
  }
  return "";
}

std::string stage_index_not_wrapped(const Fault& fault, const FragmentReads& reads) {
  if (!fault.shared_overrun || fault.write || !reads.rows || reads.stages < 2) return "";
  const SharedOverrun& overrun = *fault.shared_overrun;
  if (overrun.array != reads.array) return "";
  const long long stage_floats = static_cast<long long>(reads.column_stride) * reads.columns;
  if (stage_floats <= 0 || overrun.word / stage_floats != reads.stages) return "";
  // Where the thread's fragments lie in a stage: every row it reads at every kk.
  const unsigned thread = fault.thread[0];
  const std::vector<long long> offsets = read_orders(reads, reads.rows(thread)).front();
  const auto a_fragment = [&](long long word) {
    return word / stage_floats == reads.stages &&
           std::find(offsets.begin(), offsets.end(), word % stage_floats) != offsets.end();
  };
  if (!a_fragment(overrun.word)) return "";
  // The same instruction's earlier reads in that stage past the last fit too.
  for (const long long word : overrun.earlier_words) {
    if (word / stage_floats == reads.stages && !a_fragment(word)) return "";
  }
  const long long offset = overrun.word % stage_floats;
  const long long kk = offset / reads.column_stride, row = offset % reads.column_stride;
  const std::string stages = std::to_string(reads.stages);
  return "block (" + std::to_string(fault.block[0]) + ", " + std::to_string(fault.block[1]) + ")'s thread " +
         std::to_string(thread) + " read " + reads.operand + "'s fragment at float " + std::to_string(overrun.word) +
         " of " + reads.array + ", which holds " + stages + " stages of " + std::to_string(stage_floats) +
         " floats: that is float " + std::to_string(offset) + " (row " + std::to_string(row) + ", column " +
         std::to_string(kk) + ", one of this thread's own fragments) of stage " + stages + ", where the stages run "
         "from 0 to " + std::to_string(reads.stages - 1) + ". The read's stage index reached " + stages +
         ": a stage counter moved on without wrapping around (stage + 1 where (stage + 1) % kStages is meant, "
         "or a tile's index where tile % kStages is)" +
         (kk == 0 ? ". Or the column ran one past the last stage's " + std::to_string(reads.columns) +
                        " (its column " + std::to_string(reads.columns) + " is column 0 past the ring): a column loop, or "
                        "the test for its last column, one past (`<=` where `<` is meant), the two alike at this read"
                  : std::string()) +
         ".";
}

}  // namespace wb::grading
