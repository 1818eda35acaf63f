#include "copy_kinds.hpp"

#include <cxxabi.h>

#include <cstdlib>
#include <memory>
#include <regex>
#include <sstream>
#include <stdexcept>

namespace wb::tools {
namespace {

std::string demangled(const std::string& name) {
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> text(abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status),
                                              std::free);
  return status == 0 && text ? std::string(text.get()) : name;
}

// The kind of copy a PTX line issues, or "" for none (commits, waits, arrivals).
std::string kind_of_line(const std::string& line) {
  static const std::regex cp_async(R"(cp\.async\.c[ag]\.shared(::cta)?\.global(\.L2::\w+)?\s+\[[^\]]*\],\s*\[[^\]]*\],\s*(\d+))");
  static const std::regex tensor(R"(cp\.async\.bulk\.tensor\.\w+\.shared)");
  static const std::regex bulk(R"(cp\.async\.bulk\.shared)");
  std::smatch match;
  if (std::regex_search(line, match, cp_async)) return match[3];
  if (std::regex_search(line, tensor)) return "tensor";
  if (std::regex_search(line, bulk)) return "bulk";
  return {};
}

struct Function {
  bool entry = false;
  std::set<std::string> kinds;
  std::set<std::string> calls;
};

void add_kinds_of_calls(const std::map<std::string, Function>& functions, const std::string& name,
                        std::set<std::string>& seen, std::set<std::string>& kinds) {
  if (!seen.insert(name).second) return;
  const auto found = functions.find(name);
  if (found == functions.end()) return;
  kinds.insert(found->second.kinds.begin(), found->second.kinds.end());
  for (const std::string& callee : found->second.calls) add_kinds_of_calls(functions, callee, seen, kinds);
}

}  // namespace

CopyKinds copy_kinds_in_ptx(const std::string& ptx) {
  static const std::regex header(R"(^\s*(\.visible\s+|\.weak\s+)?\.(entry|func)\s+(\([^)]*\)\s*)?([\w$]+))");
  static const std::regex call(R"(\bcall(\.uni)?\s+(\([^)]*\)\s*,\s*)?([\w$]+))");
  std::map<std::string, Function> functions;
  Function* current = nullptr;
  std::istringstream lines(ptx);
  std::smatch match;
  static const std::regex call_start(R"(\bcall(\.uni)?\b)");
  std::string statement;  // a call, which nvcc spreads over several lines, up to its ';'
  for (std::string line; std::getline(lines, line);) {
    if (std::regex_search(line, match, header)) {
      current = &functions[match[4]];
      current->entry = match[2] == "entry";
      statement.clear();
      continue;
    }
    if (current == nullptr) continue;
    if (const std::string kind = kind_of_line(line); !kind.empty()) current->kinds.insert(kind);
    if (statement.empty() && !std::regex_search(line, call_start)) continue;
    statement += " " + line;
    if (line.find(';') == std::string::npos) continue;
    if (std::regex_search(statement, match, call)) current->calls.insert(match[3]);
    statement.clear();
  }
  CopyKinds kernels;
  for (const auto& [name, function] : functions) {
    if (!function.entry) continue;
    std::set<std::string> seen, kinds;
    add_kinds_of_calls(functions, name, seen, kinds);
    kernels[demangled(name)] = kinds;
  }
  return kernels;
}

CopyKinds copy_kinds_in_launch_log(const std::string& log) {
  static const char* const kColumns[][2] = {
      {"cp_async_4", "4"}, {"cp_async_8", "8"}, {"cp_async_16", "16"}, {"bulk_copies", "bulk"}, {"tensor_copies", "tensor"}};
  std::map<std::string, std::size_t> column_of;
  CopyKinds kernels;
  std::istringstream lines(log);
  for (std::string line; std::getline(lines, line);) {
    std::vector<std::string> fields;
    std::istringstream cells(line[0] == '#' ? line.substr(2) : line);
    for (std::string cell; std::getline(cells, cell, '\t');) fields.push_back(cell);
    if (line[0] == '#') {
      for (std::size_t i = 0; i < fields.size(); ++i) column_of[fields[i]] = i;
      continue;
    }
    if (fields.empty()) continue;
    std::set<std::string>& kinds = kernels[fields[0]];
    for (const auto& [column, kind] : kColumns) {
      const auto found = column_of.find(column);
      if (found == column_of.end()) {
        throw std::runtime_error(std::string("the launch log has no column ") + column +
                                 " (a log of an older simulator, or no header line)");
      }
      if (found->second < fields.size() && std::strtoull(fields[found->second].c_str(), nullptr, 10) > 0) {
        kinds.insert(kind);
      }
    }
  }
  return kernels;
}

std::string kinds_text(const std::set<std::string>& kinds) {
  std::string text;
  for (const std::string& kind : kinds) text += (text.empty() ? "" : ", ") + kind;
  return "{" + text + "}";
}

std::vector<std::string> compare_copy_kinds(const CopyKinds& ptx, const CopyKinds& simulated,
                                            const std::vector<UntakenKind>& untaken) {
  std::vector<std::string> differences;
  std::vector<bool> untaken_used(untaken.size(), false);
  std::set<std::string> kernels;
  for (const auto& [name, kinds] : ptx) kernels.insert(name);
  for (const auto& [name, kinds] : simulated) kernels.insert(name);
  for (const std::string& kernel : kernels) {
    const auto in_ptx = ptx.find(kernel);
    const auto in_sim = simulated.find(kernel);
    const std::set<std::string> none;
    const std::set<std::string>& ptx_kinds = in_ptx == ptx.end() ? none : in_ptx->second;
    const std::set<std::string>& sim_kinds = in_sim == simulated.end() ? none : in_sim->second;
    if (ptx_kinds.empty() && sim_kinds.empty()) continue;
    if (in_ptx == ptx.end()) {
      differences.push_back(kernel + ": the simulator ran its copies " + kinds_text(sim_kinds) +
                            ", and nvcc's PTX has no kernel of that name");
      continue;
    }
    for (const std::string& kind : sim_kinds) {
      if (ptx_kinds.count(kind) == 0) {
        differences.push_back(kernel + ": the simulator issued copies of kind " + kind + ", which nvcc's PTX of it does not have (PTX " +
                              kinds_text(ptx_kinds) + ", simulator " + kinds_text(sim_kinds) + ")");
      }
    }
    for (const std::string& kind : ptx_kinds) {
      if (sim_kinds.count(kind) != 0) continue;
      bool allowed = false;
      for (std::size_t i = 0; i < untaken.size(); ++i) {
        if (untaken[i].kind == kind && kernel.find(untaken[i].kernel) != std::string::npos) {
          allowed = untaken_used[i] = true;
        }
      }
      if (!allowed) {
        differences.push_back(kernel + ": nvcc's PTX has copies of kind " + kind + " that the simulator never issued " +
                              (in_sim == simulated.end() ? std::string("(the grader never launched it)")
                                                         : "(PTX " + kinds_text(ptx_kinds) + ", simulator " +
                                                               kinds_text(sim_kinds) + ")"));
      }
    }
  }
  for (std::size_t i = 0; i < untaken.size(); ++i) {
    if (!untaken_used[i]) {
      differences.push_back("the untaken kind " + untaken[i].kind + " of " + untaken[i].kernel +
                            " is not needed: no kernel of that name has it in its PTX without the simulator issuing "
                            "it; remove it from the list");
    }
  }
  return differences;
}

}  // namespace wb::tools
