// ptx_widths: do the simulator's copies have the widths nvcc gives them? Compares, kernel
// by kernel, the kinds of asynchronous copy (cp.async of 4, 8 or 16 bytes; Hopper's bulk
// and tensor copies) in nvcc's PTX with those the simulator issued while a grader ran,
// as its launch log (WB_SIM_LAUNCH_LOG) recorded them.
//
//   ptx_widths --log LOG [--untaken KERNEL:KIND]... PTX...
//
// --untaken names a kind that the PTX of a kernel has in a branch the graded sizes never
// take (KERNEL a part of its name). Exit 0 when they agree, 1 otherwise (each difference
// printed), 2 for a usage or file error.
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "copy_kinds.hpp"

namespace {

std::string read_file(const std::string& path) {
  std::ifstream file(path);
  if (!file) throw std::runtime_error("cannot read " + path);
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

}  // namespace

int main(int argc, char** argv) {
  try {
    std::string log_path;
    std::vector<std::string> ptx_paths;
    std::vector<wb::tools::UntakenKind> untaken;
    for (int i = 1; i < argc; ++i) {
      const std::string argument = argv[i];
      if (argument == "--log" && i + 1 < argc) {
        log_path = argv[++i];
      } else if (argument == "--untaken" && i + 1 < argc) {
        const std::string value = argv[++i];
        const auto colon = value.rfind(':');
        if (colon == std::string::npos) throw std::runtime_error("--untaken takes KERNEL:KIND, not " + value);
        untaken.push_back({value.substr(0, colon), value.substr(colon + 1)});
      } else {
        ptx_paths.push_back(argument);
      }
    }
    if (log_path.empty() || ptx_paths.empty()) {
      std::cerr << "usage: ptx_widths --log LOG [--untaken KERNEL:KIND]... PTX...\n";
      return 2;
    }
    wb::tools::CopyKinds ptx;
    for (const std::string& path : ptx_paths) {
      for (auto& [kernel, kinds] : wb::tools::copy_kinds_in_ptx(read_file(path))) ptx[kernel] = kinds;
    }
    const wb::tools::CopyKinds simulated = wb::tools::copy_kinds_in_launch_log(read_file(log_path));
    for (const auto& [kernel, kinds] : ptx) {
      const auto found = simulated.find(kernel);
      std::cout << kernel << ": PTX " << wb::tools::kinds_text(kinds) << ", simulator "
                << (found == simulated.end() ? std::string("(not launched)") : wb::tools::kinds_text(found->second))
                << "\n";
    }
    const std::vector<std::string> differences = wb::tools::compare_copy_kinds(ptx, simulated, untaken);
    for (const std::string& difference : differences) std::cout << "DIFFERENCE: " << difference << "\n";
    if (!differences.empty()) return 1;
    std::cout << "the simulator's copies have the kinds of nvcc's PTX, kernel by kernel\n";
    return 0;
  } catch (const std::exception& error) {
    std::cerr << "ptx_widths: " << error.what() << "\n";
    return 2;
  }
}
