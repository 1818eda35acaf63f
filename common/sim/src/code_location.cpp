// Source lines of code addresses, for messages about an access the simulator saw
// through the kernels' instrumentation (which gives the code address, not the line).
// Asks binutils' addr2line, once per address; only error paths and hang reports call
// this, never the simulation itself.
#include <dlfcn.h>
#include <elf.h>

#include <cinttypes>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <string>

#include "worker.hpp"

namespace wb::sim {
namespace {

// Whether the object file is position-independent (addresses relative to its base).
bool is_position_independent(const char* path) {
  std::ifstream file(path, std::ios::binary);
  Elf64_Ehdr header{};
  if (!file.read(reinterpret_cast<char*>(&header), sizeof header)) return true;
  return header.e_type == ET_DYN;
}

// Runs addr2line with `options` on the object file that holds `code_address`, and
// returns its output stream, or nullptr. `offset` is subtracted from the address first.
FILE* open_addr2line(const void* code_address, std::uintptr_t offset, const char* options) {
  Dl_info info{};
  if (dladdr(code_address, &info) == 0 || info.dli_fname == nullptr) return nullptr;
  std::string object = info.dli_fname;
  if (object.empty()) object = "/proc/self/exe";
  auto address = reinterpret_cast<std::uintptr_t>(code_address) - offset;
  if (is_position_independent(object.c_str())) {
    address -= reinterpret_cast<std::uintptr_t>(info.dli_fbase);
  }
  char command[4096];
  std::snprintf(command, sizeof command, "addr2line %s -e '%s' 0x%" PRIxPTR " 2>/dev/null", options,
                object.c_str(), address);
  return popen(command, "r");
}

// The kernel file that a generated wrapper (build/sim_sources/<file>_cu.cpp, which the
// simulator's build compiles in its place: cmake/WbTargets.cmake) includes, for a location
// in the wrapper: binutils name the wrapper, the compilation's primary file, for some
// lines of a kernel file's template instances (a DWARF 5 file index read as the unit's
// own), with the line of the kernel file. Anything else is returned as it is.
std::string kernel_file_of(const std::string& location) {
  const std::size_t colon = location.rfind(':');
  const std::string file = location.substr(0, colon);
  if (file.find("/sim_sources/") == std::string::npos) return location;
  std::ifstream wrapper(file);
  std::string line;
  while (std::getline(wrapper, line)) {
    const std::size_t open = line.find("#include \"");
    if (open == std::string::npos) continue;
    const std::size_t begin = open + 10, end = line.find('"', begin);
    if (end == std::string::npos) break;
    return line.substr(begin, end - begin) + (colon == std::string::npos ? "" : location.substr(colon));
  }
  return location;
}

std::string ask_addr2line(const void* code_address) {
  FILE* pipe = open_addr2line(code_address, 1, "-i");  // 1: the address inside the call
  if (pipe == nullptr) return {};
  // With -i, the innermost inlined location comes first: a line of a workbook header
  // when the access is inside one of its helpers. The learner's line is the first one
  // outside common/.
  std::string first, chosen;
  char line[4096];
  while (std::fgets(line, sizeof line, pipe) != nullptr) {
    std::string location = line;
    location = location.substr(0, location.find_first_of(" \n"));
    if (location.empty() || location[0] == '?') continue;
    location = kernel_file_of(location);
    if (first.empty()) first = location;
    if (chosen.empty() && location.find("/common/") == std::string::npos) chosen = location;
  }
  pclose(pipe);
  return project_relative(chosen.empty() ? first : chosen);
}

// The demangled name of the function that starts at `code_address` (a kernel).
std::string ask_function_name(const void* code_address) {
  FILE* pipe = open_addr2line(code_address, 0, "-f -C");
  if (pipe == nullptr) return {};
  char line[4096];
  std::string name;
  if (std::fgets(line, sizeof line, pipe) != nullptr) name = line;
  pclose(pipe);
  name = name.substr(0, name.find('\n'));
  return name == "??" ? std::string() : name;
}

}  // namespace

// The path without the project's folder, so that messages say chapters/01_copy/copy.cu.
// Normalised first: a build through ccache with CCACHE_BASEDIR records sources relative to
// the build folder, which addr2line gives as ".../build/../chapters/...".
std::string project_relative(std::string path) {
  path = std::filesystem::path(path).lexically_normal().string();
#ifdef WB_SOURCE_DIR
  const std::string root = WB_SOURCE_DIR;
  if (path.compare(0, root.size(), root) == 0) path.erase(0, root.size());
#endif
  return path;
}

std::string function_name_of(const void* code_address) {
  if (code_address == nullptr) return {};
  static std::mutex mutex;
  static std::map<const void*, std::string> known;
  std::lock_guard lock(mutex);
  auto found = known.find(code_address);
  if (found == known.end()) found = known.emplace(code_address, ask_function_name(code_address)).first;
  return found->second;
}

std::string source_line_of(const void* code_address) {
  if (code_address == nullptr) return {};
  static std::mutex mutex;
  static std::map<const void*, std::string> known;
  std::lock_guard lock(mutex);
  auto found = known.find(code_address);
  if (found == known.end()) found = known.emplace(code_address, ask_addr2line(code_address)).first;
  return found->second;
}

}  // namespace wb::sim
