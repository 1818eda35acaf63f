#include "wb/grading/diagnosis/footprint.hpp"

#include <algorithm>
#include <cstddef>
#include <optional>
#include <vector>

namespace wb::grading {

#if WB_BACKEND_SIM
namespace {

// Words [begin, end) of an array, every one flagged.
struct Run {
  std::size_t begin;
  std::size_t end;
  std::size_t size() const { return end - begin; }
};

std::vector<Run> runs_of(const std::vector<bool>& flags) {
  std::vector<Run> runs;
  for (std::size_t i = 0; i < flags.size(); ++i) {
    if (!flags[i]) continue;
    if (!runs.empty() && runs.back().end == i) {
      ++runs.back().end;
    } else {
      runs.push_back({i, i + 1});
    }
  }
  return runs;
}

std::size_t count_of(const std::vector<Run>& runs) {
  std::size_t count = 0;
  for (const Run& run : runs) count += run.size();
  return count;
}

std::string plural(std::size_t count, const char* one, const char* many) {
  return std::to_string(count) + " " + (count == 1 ? one : many);
}

// Runs of one length whose starts are one stride apart: a padded layout's columns, or a
// copy's slots. Two runs at least.
struct Regular {
  std::size_t length;
  std::size_t stride;
};
std::optional<Regular> regular(const std::vector<Run>& runs) {
  if (runs.size() < 2) return std::nullopt;
  const Regular shape{runs[0].size(), runs[1].begin - runs[0].begin};
  for (std::size_t i = 1; i < runs.size(); ++i) {
    if (runs[i].size() != shape.length || runs[i].begin - runs[i - 1].begin != shape.stride) return std::nullopt;
  }
  return shape;
}

// Runs of one length whose starts are whole multiples of one stride apart (the smallest
// distance between two): a copy's slots, some of them skipped (a padded layout's columns
// end between them).
std::optional<Regular> slotted(const std::vector<Run>& runs) {
  if (runs.size() < 2) return std::nullopt;
  std::size_t stride = runs[1].begin - runs[0].begin;
  for (std::size_t i = 1; i < runs.size(); ++i) stride = std::min(stride, runs[i].begin - runs[i - 1].begin);
  for (std::size_t i = 0; i < runs.size(); ++i) {
    if (runs[i].size() != runs[0].size()) return std::nullopt;
    if (i > 0 && (runs[i].begin - runs[i - 1].begin) % stride != 0) return std::nullopt;
  }
  return Regular{runs[0].size(), stride};
}

// "0, 4, 8, ..." or "0-127, 130-257, ...": the first runs.
std::string run_list(const std::vector<Run>& runs) {
  std::string text;
  const std::size_t shown = std::min<std::size_t>(runs.size(), 3);
  for (std::size_t i = 0; i < shown; ++i) {
    if (i > 0) text += ", ";
    text += std::to_string(runs[i].begin);
    if (runs[i].size() > 1) text += "-" + std::to_string(runs[i].end - 1);
  }
  return runs.size() > shown ? text + ", ..." : text;
}

// What a set of words of `array` looks like: "1 word of every 4 of smem_tile (words 0, 4,
// 8, ...)", "words 0 to 2047 of smem_tile, every one", ...
std::string shape_of(const std::vector<Run>& runs, const std::string& array) {
  if (runs.empty()) return "no word of " + array;
  if (runs.size() == 1) {
    const Run& run = runs.front();
    if (run.size() == 1) return "word " + std::to_string(run.begin) + " of " + array + " only";
    return "words " + std::to_string(run.begin) + " to " + std::to_string(run.end - 1) + " of " + array +
           ", every one";
  }
  if (const std::optional<Regular> shape = slotted(runs)) {
    const bool even = regular(runs).has_value();
    return plural(shape->length, "word", "words") + " of every " + std::to_string(shape->stride) + " of " + array +
           (even ? "" : ", with wider gaps in places") + " (words " + run_list(runs) + ")";
  }
  return plural(count_of(runs), "word", "words") + " of " + array + " in " + std::to_string(runs.size()) +
         " runs (words " + run_list(runs) + ")";
}

std::string line_of(const void* pc) {
  const std::string line = sim::source_line_of(pc);
  return line.empty() ? std::string("an unknown line") : line;
}

// "smem_tile[37]", or "a load of 16 bytes that covers smem_tile[37]".
std::string load_text(const sim::UnfilledRead& read) {
  const std::string& array = read.footprint.array;
  const std::string word = array.rfind("the ", 0) == 0 ? "word " + std::to_string(read.word) + " of " + array
                                                       : array + "[" + std::to_string(read.word) + "]";
  return read.bytes == 4 ? word : "a load of " + std::to_string(read.bytes) + " bytes that covers " + word;
}

std::string observation(const sim::UnfilledRead& read) {
  const std::string& array = read.footprint.array;
  const std::vector<Run> filled = runs_of(read.filled);
  const std::vector<Run> unfilled = runs_of(read.read_unfilled);
  std::string text = "thread " + sim::format_index(read.thread) + " of block " + sim::format_index(read.block) +
                     " read " + load_text(read) + " at " + line_of(read.pc) +
                     ", which no copy or store of the block had filled; by then the block had filled " +
                     shape_of(filled, array) + ", " + std::to_string(count_of(filled)) + " of its " +
                     std::to_string(read.filled.size()) + " words.";
  if (count_of(unfilled) > 1) {
    text += " In all, the block read " + plural(count_of(unfilled), "word", "words") +
            " that nothing had filled: " + shape_of(unfilled, array) + ".";
  }
  return text;
}

// What the block wrote and read of the array: at its end where the simulator saw it end,
// else what it had filled at the read and the unfilled words it read.
struct Sides {
  std::vector<Run> written;
  std::vector<Run> read;
};
Sides sides_of(const sim::UnfilledRead& read) {
  if (read.footprint.words() == 0) return {runs_of(read.filled), runs_of(read.read_unfilled)};
  return {runs_of(read.footprint.written), runs_of(read.footprint.read)};
}

// The runs of words the block filled: at its end where the simulator saw it end, else at
// the read.
std::vector<Run> filled_runs(const sim::UnfilledRead& read) {
  return runs_of(read.footprint.words() > 0 ? read.footprint.written : read.filled);
}

// The size in bytes of the copy at `pc` (a library call's whole size, a cp.async's own),
// and whether it is a library call; 0 if no copy was made there.
struct CopySize {
  std::size_t bytes = 0;
  bool library = false;
};
CopySize copy_size_at(const sim::LaunchStats& stats, const void* pc) {
  if (const auto call = stats.library_copy_bytes.find(pc); call != stats.library_copy_bytes.end()) {
    return {call->second, true};
  }
  if (const auto site = stats.sites.find({pc, sim::AccessKind::cp_async_write}); site != stats.sites.end()) {
    return {site->second.bytes, false};
  }
  return {};
}

// Each copy filled the first quarter of a slot that the reads expect whole: every run of
// filled words is L long, the next starts 4L or more after it, every unfilled word read
// lies in the 3L after a run, and the copy that filled them moved 4L bytes.
std::string quarter_cause(const sim::UnfilledRead& read, const sim::LaunchStats& stats) {
  const std::vector<Run> filled = filled_runs(read);
  if (filled.empty()) return "";
  const std::size_t length = filled.front().size();
  for (std::size_t i = 0; i < filled.size(); ++i) {
    if (filled[i].size() != length) return "";
    if (i + 1 < filled.size() && filled[i + 1].begin < filled[i].begin + 4 * length) return "";
  }
  for (std::size_t word = 0; word < read.read_unfilled.size(); ++word) {
    if (!read.read_unfilled[word]) continue;
    const auto after = std::upper_bound(filled.begin(), filled.end(), word,
                                        [](std::size_t value, const Run& run) { return value < run.begin; });
    if (after == filled.begin()) return "";
    const Run& slot = *std::prev(after);
    if (word < slot.end || word >= slot.begin + 4 * length) return "";
    // A slot read whole, its filled quarter too: a block that reads only words past a
    // copy's (another buffer than the one it filled) is not reading a slot cut short.
    const std::vector<bool>& read_words = read.footprint.read;
    bool filled_part_read = false;
    for (std::size_t filled_word = slot.begin; filled_word < slot.end && filled_word < read_words.size(); ++filled_word) {
      filled_part_read = filled_part_read || read_words[filled_word];
    }
    if (!filled_part_read) return "";
  }
  const CopySize copy = copy_size_at(stats, read.nearest_write_pc);
  if (copy.bytes != 4 * length || (!copy.library && length != 1)) return "";
  const std::size_t meant = 4 * length;  // the floats the size was meant to count
  const std::string fix = copy.library ? "sizeof(float) * " + std::to_string(meant)
                                       : "wb::cp_async_ca<16>, or wb::cp_async_cg";
  const std::string observed =
      std::string("Each ") + (copy.library ? "library copy" : "cp.async") + " at " + line_of(read.nearest_write_pc) +
      " copies " + std::to_string(copy.bytes) + " bytes, " + plural(length, "float", "floats") +
      ", and every word the block read unfilled lies in the " + std::to_string(3 * length) +
      " after one copy's: the copies bring a quarter of what the reads expect";
  // A 4-byte cp.async is as well the one-float copy (wb::cp_async) where a quad's is meant.
  if (!copy.library) {
    return observed + ". Either the copy's size is a count of floats where bytes are asked (wb::cp_async_ca<4> "
                      "for a quad: 4 bytes), or it is the one-float wb::cp_async where a quad's 16-byte copy is meant "
                      "(" + fix + ").";
  }
  return observed + ", as a size in floats where bytes are asked does. A size of " + std::to_string(meant) +
         " copies " + std::to_string(meant) + " bytes; " + std::to_string(meant) + " floats are " +
         std::to_string(4 * meant) + " bytes (" + fix + ").";
}

// Each copy filled the first half of a pair that the reads expect whole: every run of
// filled words is L long and the next starts 2L (or a multiple of it) after it, every
// unfilled word read lies in the L after a run, and the copy that filled them moved L
// floats: a copy of one float where a vector of two is meant (wb::cp_async_ca<4> for a
// pair).
std::string half_cause(const sim::UnfilledRead& read, const sim::LaunchStats& stats) {
  const std::vector<Run> filled = filled_runs(read);
  const std::optional<Regular> shape = slotted(filled);  // a padded layout's columns leave wider gaps
  if (!shape || shape->stride != 2 * shape->length) return "";
  for (std::size_t word = 0; word < read.read_unfilled.size(); ++word) {
    if (read.read_unfilled[word] && (word < filled.front().begin || (word - filled.front().begin) % shape->stride < shape->length)) {
      return "";
    }
  }
  const CopySize copy = copy_size_at(stats, read.nearest_write_pc);
  if (copy.library || copy.bytes != 4 * shape->length) return "";
  return "Each cp.async at " + line_of(read.nearest_write_pc) + " copies " + std::to_string(copy.bytes) +
         " bytes, and every word the block read unfilled is the one after a copy's: the reads expect vectors of " +
         std::to_string(2 * copy.bytes) + " bytes, each brought by one copy of that width (wb::cp_async_ca<" +
         std::to_string(2 * copy.bytes) + ">), and the copies bring half of each.";
}

// Each copy's run of L words starts 4L words after the previous one's, with the words
// between read unfilled: the copies' starts are four times too far apart, an offset
// counted in bytes (16 * t for a quad) where floats (4 * t) are meant.
std::string start_in_bytes_cause(const sim::UnfilledRead& read, const sim::LaunchStats& stats) {
  const std::vector<Run> filled = filled_runs(read);
  const std::optional<Regular> shape = regular(filled);
  if (!shape || shape->length < 2 || shape->stride != 4 * shape->length) return "";
  const CopySize copy = copy_size_at(stats, read.nearest_write_pc);
  if (copy.library || copy.bytes != 4 * shape->length) return "";
  return "Each cp.async at " + line_of(read.nearest_write_pc) + " copies " + std::to_string(copy.bytes) +
         " bytes, " + std::to_string(shape->length) + " floats, and each copy starts " +
         std::to_string(shape->stride) + " floats after the one before: four times too far apart, as an offset "
         "counted in bytes (" + std::to_string(copy.bytes) + " * t) where floats (" + std::to_string(shape->length) +
         " * t) are meant, so three quarters of the tile are never filled.";
}

// The same number of words on both sides, one side a run in a row and the other runs with
// gaps between them: one side walks a padded layout, the other a compact one.
std::string padding_side_cause(const Sides& sides) {
  if (sides.written.empty() || count_of(sides.written) != count_of(sides.read)) return "";
  const bool written_compact = sides.written.size() == 1;
  const bool read_compact = sides.read.size() == 1;
  const std::optional<Regular> padded = regular(written_compact ? sides.read : sides.written);
  if (written_compact == read_compact || !padded || padded->stride <= padded->length) return "";
  const Run& run = written_compact ? sides.written.front() : sides.read.front();
  const std::string row = "words " + std::to_string(run.begin) + " to " + std::to_string(run.end - 1) + " in a row";
  // Padding is a few words after each column; a gap as long as the run, or a stride of a
  // power of two, is a compact tile's column with only its valid rows walked (a partial
  // tile), and one side walks those rows as consecutive words.
  const long long gap = static_cast<long long>(padded->stride) - static_cast<long long>(padded->length);
  const bool power_of_two = (padded->stride & (padded->stride - 1)) == 0;
  if (gap >= static_cast<long long>(padded->length) || power_of_two) {
    const std::string columns = std::to_string(padded->length) + " words of every " + std::to_string(padded->stride) +
                                " (the first " + std::to_string(padded->length) + " rows of each " +
                                std::to_string(padded->stride) + "-word column)";
    return "The block's " + std::string(written_compact ? "copies" : "reads") + " walk " + row + ", as many words as its " +
           (written_compact ? "reads" : "copies") + ", which take " + columns + ": the " +
           (written_compact ? "copies" : "reads") +
           " count the tile's valid elements as consecutive words (a flat index over valid_rows * valid_cols, element "
           "i at word i), where each column's valid rows start a column apart. Walk the tile's (row, col) with its "
           "valid rows and columns as bounds, each through the layout.";
  }
  const std::string layout = std::to_string(padded->length) + " words of every " + std::to_string(padded->stride) +
                             " (a padded layout: " + std::to_string(padded->stride - padded->length) +
                             " unused after each " + std::to_string(padded->length) + ")";
  if (written_compact) {
    return "The block's copies filled " + row + ", while its reads walk " + layout +
           ": the copies place the elements with no padding, element i at word i, and the reads through the "
           "padded layout, so the reads of the last columns find nothing there. Copy through the same padded "
           "layout as the reads.";
  }
  return "The block's copies filled " + layout + ", while its reads walk " + row +
         ": the reads forget the padding, element i at word i, and find the padding words empty. Read through "
         "the same padded layout as the copies.";
}

// The copies filled a padded layout's columns and the reads walk one run over all of them,
// the padding between too: the reads take every shared offset as an element's place.
std::string padding_read_as_elements_cause(const Sides& sides) {
  if (sides.read.size() != 1 || sides.written.size() < 2) return "";
  const std::optional<Regular> padded = regular(sides.written);
  if (!padded || padded->stride <= padded->length || padded->stride - padded->length >= padded->length) return "";
  const Run& run = sides.read.front();
  if (run.begin != sides.written.front().begin || run.end != sides.written.back().end) return "";
  const std::size_t gap = padded->stride - padded->length;
  return "The block's copies filled " + std::to_string(padded->length) + " words of every " +
         std::to_string(padded->stride) + " (a padded layout: " + std::to_string(gap) + " unused after each " +
         std::to_string(padded->length) + "), and its reads walk every word from " + std::to_string(run.begin) +
         " to " + std::to_string(run.end - 1) + ", the padding too: either the reads take each shared offset as an "
         "element's place (smem_tile[offset] for every offset up to cosize()), or a row loop runs over the padded "
         "column's " + std::to_string(padded->stride) + " words. The padding holds no element: walk the tile's "
         "elements, (row, col), and read each through the padded layout, smem_layout(row, col).";
}

// Every word read is a filled word moved by one constant.
std::string shift_cause(const Sides& sides) {
  if (sides.written.empty() || sides.read.size() != sides.written.size()) return "";
  const auto shift = static_cast<long long>(sides.read.front().begin) - static_cast<long long>(sides.written.front().begin);
  if (shift == 0) return "";
  for (std::size_t i = 0; i < sides.read.size(); ++i) {
    if (sides.read[i].size() != sides.written[i].size() ||
        static_cast<long long>(sides.read[i].begin) - static_cast<long long>(sides.written[i].begin) != shift) {
      return "";
    }
  }
  const auto distance = static_cast<std::size_t>(shift < 0 ? -shift : shift);
  return "Every word the block read lies " + plural(distance, "word", "words") + (shift > 0 ? " after" : " before") +
         " a word it filled, the same distance for all: the reads and the copies place each element " +
         plural(distance, "word", "words") +
         " apart, an offset (an origin, a halo, a padding) added on one side only.";
}

// The reads cover every filled word and run on past the last one.
std::string past_the_end_cause(const Sides& sides) {
  if (sides.written.empty() || sides.read.empty()) return "";
  const std::size_t last_filled = sides.written.back().end;
  const Run& last_read = sides.read.back();
  if (last_read.end <= last_filled || last_read.begin > last_filled) return "";
  // Every filled word read, and nothing unfilled read before the last filled word.
  std::vector<Run> read_within = sides.read;
  read_within.back().end = last_filled;
  if (read_within.back().size() == 0) read_within.pop_back();
  if (count_of(read_within) != count_of(sides.written)) return "";
  const std::size_t beyond = last_read.end - last_filled;
  std::string columns;
  if (sides.written.size() == 1 && beyond >= 2 && sides.written.front().size() % beyond == 0 &&
      sides.written.front().size() / beyond >= 2) {
    columns = " (the copies filled " + std::to_string(sides.written.front().size() / beyond) + " columns of " +
              std::to_string(beyond) + " words, and the reads run into one more)";
  }
  return "The reads cover every word the block filled and run " + plural(beyond, "word", "words") +
         " on past the last, words " + std::to_string(last_filled) + " to " + std::to_string(last_read.end - 1) +
         columns +
         ": a loop bound that differs by one step between the copies and the reads (`<=` for `<` in the reads, "
         "or a copy loop that stops one step early).";
}

// The copies filled the first L words of every S (S a multiple of L: a tile or a stage of
// the array, or the whole array), many copies to each run, and every unfilled word read
// lies in the rest of one: the reads walk whole tiles, the copies stop after part of
// each, as a thread's copy loop does that makes one pass of the thread layout where the
// tile needs several.
std::string part_of_each_tile_cause(const sim::UnfilledRead& read, const sim::LaunchStats& stats) {
  const std::vector<Run> filled = filled_runs(read);
  if (filled.empty() || filled.front().begin != 0) return "";
  const std::size_t length = filled.front().size();
  std::size_t tile = read.filled.size();  // one run: the whole array
  if (filled.size() > 1) {
    const std::optional<Regular> shape = regular(filled);
    if (!shape) return "";
    tile = shape->stride;
    if (filled.size() * tile != read.filled.size()) return "";
  }
  if (tile % length != 0 || tile / length < 2) return "";
  bool read_any = false;
  for (std::size_t word = 0; word < read.read_unfilled.size(); ++word) {
    if (!read.read_unfilled[word]) continue;
    if (word % tile < length) return "";
    read_any = true;
  }
  const CopySize copy = copy_size_at(stats, read.nearest_write_pc);
  if (!read_any || copy.bytes == 0 || copy.library || 4 * length < 4 * copy.bytes) return "";
  const std::size_t passes = tile / length;
  const std::string where = filled.size() > 1 ? "of every " + std::to_string(tile) + "-word tile"
                                              : "of its " + std::to_string(tile) + " words";
  return "The copies filled the first " + std::to_string(length) + " words " + where + ", one " +
         (passes == 2 ? std::string("half") : "part in " + std::to_string(passes)) +
         ", and the reads walk the whole: each thread's copies (of " + std::to_string(copy.bytes) + " bytes, at " +
         line_of(read.nearest_write_pc) + ") stop after the first " + std::to_string(length) + " words of each " +
         std::to_string(tile) + ", where the thread layout takes " + std::to_string(passes) + " passes to cover them. "
         "A loop that steps a thread over the tile (across its columns, or down its rows) by the thread "
         "layout's extent stops early: it is missing, or "
         "its bound or step leaves the later passes out, or the count it is computed from (a flat index split "
         "into row and column) is split with the wrong extent.";
}

// The copies filled stages of a padded layout, one after another (stage s from s x the
// layout's cosize), and every unfilled word read lies where an element of a stage s >= 1
// falls when the stage is taken to start at s x rows x columns, the tile's unpadded size:
// the reads (or the pointer to a stage) count a stage's start without the padding.
std::string stage_start_without_padding_cause(const sim::UnfilledRead& read) {
  const std::vector<bool>& filled = read.footprint.words() > 0 ? read.footprint.written : read.filled;
  const std::vector<Run> runs = runs_of(filled);
  const std::vector<Run> unfilled = runs_of(read.read_unfilled);
  if (runs.size() < 2 || unfilled.empty()) return "";
  const std::size_t rows = runs[0].size(), stride = runs[1].begin - runs[0].begin;
  if (runs[0].begin != 0 || stride <= rows) return "";
  for (std::size_t columns = 2; columns <= 64; ++columns) {
    const std::size_t cosize = (columns - 1) * stride + rows, compact = rows * columns;
    const std::size_t stages = filled.size() / cosize;
    if (stages < 2) break;
    // The copies' words are exactly those stages, whole.
    bool layout = true;
    for (std::size_t word = 0; word < filled.size() && layout; ++word) {
      const std::size_t in_stage = word % cosize;
      const bool element = word < stages * cosize && in_stage % stride < rows;
      layout = filled[word] == element;
    }
    if (!layout) continue;
    // Each unfilled word read is an element's place from an unpadded stage start.
    const auto from_unpadded_start = [&](std::size_t word) {
      for (std::size_t stage = 1; stage < stages; ++stage) {
        if (word < stage * compact) break;
        const std::size_t offset = word - stage * compact;
        if (offset / stride < columns && offset % stride < rows) return true;
      }
      return false;
    };
    for (const Run& run : unfilled) {
      for (std::size_t word = run.begin; word < run.end; ++word) {
        if (!from_unpadded_start(word)) return "";
      }
    }
    return "The copies filled " + std::to_string(stages) + " stages of " + std::to_string(columns) + " columns of " +
           std::to_string(rows) + " words, " + std::to_string(stride) + " apart: stage s starts at s * " +
           std::to_string(cosize) + ", the padded layout's cosize(). Every unfilled word read lies where an element "
           "of a stage falls when that stage starts at s * " + std::to_string(compact) + " (" + std::to_string(rows) +
           " x " + std::to_string(columns) + ", the tile's size without the padding): a stage's start, its pointer "
           "or its offset, is counted without the padding. Take it as stage * layout.cosize(), or index the "
           "array of stages, smem[stage].";
  }
  return "";
}

}  // namespace

std::string FootprintReading::likely_cause() const {
  if (observed.empty()) return "";
  if (cause.empty()) return observed + " No known mistake leaves this footprint, so no cause is named.";
  return observed + " " + cause;
}

FootprintReading read_unfilled_footprint(const sim::LaunchStats& stats) {
  if (!stats.unfilled_read) return {};
  const sim::UnfilledRead& read = *stats.unfilled_read;
  FootprintReading reading{observation(read), quarter_cause(read, stats)};
  if (reading.cause.empty()) reading.cause = half_cause(read, stats);
  if (reading.cause.empty()) reading.cause = start_in_bytes_cause(read, stats);
  if (reading.cause.empty()) reading.cause = stage_start_without_padding_cause(read);
  const Sides sides = sides_of(read);
  for (auto cause_of : {padding_side_cause, padding_read_as_elements_cause, shift_cause}) {
    if (!reading.cause.empty()) break;
    reading.cause = cause_of(sides);
  }
  // One pass of the thread layout where the tile needs several also leaves the reads
  // running on past the last filled word, by whole passes: tried before a bound one step off.
  if (reading.cause.empty()) reading.cause = part_of_each_tile_cause(read, stats);
  if (reading.cause.empty()) reading.cause = past_the_end_cause(sides);
  return reading;
}

std::string unfilled_read_cause(const sim::LaunchStats& stats, bool stale) {
  return stale ? read_unfilled_footprint(stats).likely_cause() : std::string();
}

::testing::AssertionResult padding_walked(const sim::LaunchStats& stats, const std::string& array, int rows,
                                          int cols, int stride) {
  const auto tile = static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols);
  const auto padded = static_cast<std::size_t>(cols - 1) * static_cast<std::size_t>(stride) + static_cast<std::size_t>(rows);
  for (const sim::ArrayFootprint& footprint : stats.first_block_footprints) {
    if (footprint.array != array || footprint.words() != padded || padded <= tile) continue;
    std::vector<bool> touched(footprint.words());
    for (std::size_t i = 0; i < touched.size(); ++i) touched[i] = footprint.written[i] || footprint.read[i];
    const std::vector<Run> runs = runs_of(touched);
    if (runs.size() != 1 || runs.front().begin != 0 || runs.front().end != tile) continue;
    return ::testing::AssertionFailure()
           << "block (0,0,0) touched words 0 to " << tile - 1 << " of " << array << ", every one, and none of words "
           << tile << " to " << padded - 1 << ": its copies and its reads both walk the tile as a compact one "
           << "(element (row, col) at row + " << rows << " * col), so the padding that makes " << array << " "
           << padded << " words (stride " << stride << ") is declared and never used. Index " << array
           << " through the padded layout on both sides.";
  }
  return ::testing::AssertionSuccess();
}
#endif

}  // namespace wb::grading
