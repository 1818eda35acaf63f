// The kinds of asynchronous copy of each kernel, as nvcc's PTX has them and as the
// simulator's launch log counted them, and their comparison (the ptx_widths tool).
//
// A kind is a cp.async width ("4", "8", "16") or one of Hopper's copies ("bulk",
// "tensor"), compared as kinds of their own. Kernels are named as c++filt names them.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

namespace wb::tools {

using CopyKinds = std::map<std::string, std::set<std::string>>;  // kernel -> kinds

// Every .entry of the PTX text with the kinds of copy in its body and in the .func
// bodies it calls. A kernel without copies is listed with an empty set.
CopyKinds copy_kinds_in_ptx(const std::string& ptx);

// The kinds each kernel of a launch log (WB_SIM_LAUNCH_LOG) issued at least once, summed
// over its launches. Throws std::runtime_error for a log without its header line.
CopyKinds copy_kinds_in_launch_log(const std::string& log);

// A kind the PTX of a kernel has that the graded sizes never take (a fallback branch):
// `kernel` is a part of the kernel's name.
struct UntakenKind {
  std::string kernel;
  std::string kind;
};

// For each kernel that copies in either: the simulator's kinds must be the PTX's, except
// the `untaken` ones, which the PTX has and the simulator did not issue. Returns one
// sentence per difference (an `untaken` entry that matched nothing is one as well);
// empty when they agree.
std::vector<std::string> compare_copy_kinds(const CopyKinds& ptx, const CopyKinds& simulated,
                                            const std::vector<UntakenKind>& untaken);

// "{4, 16}"
std::string kinds_text(const std::set<std::string>& kinds);

}  // namespace wb::tools
