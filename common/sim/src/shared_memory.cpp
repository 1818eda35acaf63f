// Shared memory in the simulator: where the block's static and dynamic shared memory
// lie, the poison every block starts with, and what to say of an address outside them.
#include <cxxabi.h>
#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <iterator>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <new>

#include "wb/poison.hpp"
#include "worker.hpp"

namespace wb::sim {
namespace {

struct TlsBlock {
  const void* inside = nullptr;  // an address known to be in the block we look for
  std::byte* begin = nullptr;
  std::size_t bytes = 0;
};

// The thread-local block of the module (the executable, with its static libraries)
// that holds `inside`: kernels' __shared__ variables are in the same one as threadIdx.
int find_tls_block(dl_phdr_info* info, std::size_t, void* argument) {
  auto& block = *static_cast<TlsBlock*>(argument);
  if (info->dlpi_tls_data == nullptr) return 0;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& header = info->dlpi_phdr[i];
    if (header.p_type != PT_TLS) continue;
    auto* begin = static_cast<std::byte*>(info->dlpi_tls_data);
    const auto* inside = static_cast<const std::byte*>(block.inside);
    if (inside >= begin && inside < begin + header.p_memsz) {
      block.begin = begin;
      block.bytes = header.p_memsz;
      return 1;
    }
  }
  return 0;
}

void mark_never_poisoned(SharedMemory& shared, const void* variable, std::size_t bytes) {
  if (!shared.in_static(variable) || bytes == 0) return;
  const auto offset = static_cast<std::size_t>(static_cast<const std::byte*>(variable) - shared.static_begin);
  // The words the variable overlaps, and no more: the next may be a __shared__ array's.
  const std::size_t first = offset / 4;
  const std::size_t last = (offset + bytes - 1) / 4;
  for (std::size_t word = first; word <= last && word < shared.word_epoch.size(); ++word) {
    shared.word_epoch[word] = SharedMemory::kNeverPoisoned;
  }
}

// A thread-local variable of the executable: its offset in the thread-local block.
struct TlsSymbol {
  std::size_t offset;
  std::size_t bytes;
  std::string name;  // short: "smem_tile"
  bool shared;       // a __shared__ variable of a kernel, not the simulator's own state
  std::string full;  // "ch03::(anonymous namespace)::transpose_kernel(float const*)::smem_tile"
};

// A function of the executable: where its code lies, and its mangled name.
struct FunctionSymbol {
  std::uintptr_t begin;
  std::size_t bytes;
  std::size_t name_offset;  // in ProgramSymbols::names
};

struct ProgramSymbols {
  std::vector<TlsSymbol> tls;
  std::vector<FunctionSymbol> functions;  // sorted by address
  std::string names;                      // the string table of the functions' names
  bool position_independent = true;
};

// The simulator's thread-local variables, the CUDA built-ins, the libraries' and the
// compiler's own (__tls_guard, guard variables); every other one is a kernel's
// __shared__ variable (kernel files declare no other thread_local).
bool is_simulator_state(const std::string& demangled) {
  for (const char* prefix : {"wb::", "threadIdx", "blockIdx", "blockDim", "gridDim", "std::",
                             "__", "testing::", "boost::", "guard variable", "TLS "}) {
    if (demangled.rfind(prefix, 0) == 0) return true;
  }
  return false;
}

std::string demangle(const char* mangled) {
  int status = 0;
  char* demangled = abi::__cxa_demangle(mangled, nullptr, nullptr, &status);
  std::string name = status == 0 && demangled != nullptr ? demangled : mangled;
  std::free(demangled);
  return name;
}

// "smem_tile" from "ch01::(anonymous namespace)::copy_tile_kernel(float const*)::smem_tile".
std::string short_name(const std::string& name) {
  const std::size_t colons = name.rfind("::");
  return colons == std::string::npos ? name : name.substr(colons + 2);
}

bool read_at(int file, void* out, std::size_t bytes, std::size_t offset) {
  return ::pread(file, out, bytes, static_cast<off_t>(offset)) == static_cast<ssize_t>(bytes);
}

// The executable's thread-local variables and functions, from its symbol table (empty
// where it has none: a stripped build; messages then give offsets only). __shared__
// variables are among the thread-local ones (static thread_local, see cuda_shim.hpp).
ProgramSymbols read_symbols() {
  ProgramSymbols symbols;
  const int file = ::open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
  if (file < 0) return symbols;
  ElfW(Ehdr) header;
  std::vector<ElfW(Shdr)> sections;
  if (read_at(file, &header, sizeof header, 0) && header.e_shentsize == sizeof(ElfW(Shdr))) {
    symbols.position_independent = header.e_type == ET_DYN;
    sections.resize(header.e_shnum);
    if (!read_at(file, sections.data(), sections.size() * sizeof(ElfW(Shdr)), header.e_shoff)) {
      sections.clear();
    }
  }
  for (const ElfW(Shdr)& section : sections) {
    if (section.sh_type != SHT_SYMTAB || section.sh_link >= sections.size()) continue;
    const ElfW(Shdr)& names = sections[section.sh_link];
    std::vector<ElfW(Sym)> table(section.sh_size / sizeof(ElfW(Sym)));
    std::string text(names.sh_size, '\0');
    if (!read_at(file, table.data(), table.size() * sizeof(ElfW(Sym)), section.sh_offset) ||
        !read_at(file, text.data(), text.size(), names.sh_offset)) {
      continue;
    }
    for (const ElfW(Sym)& symbol : table) {
      if (symbol.st_name >= text.size()) continue;
      if (ELF64_ST_TYPE(symbol.st_info) == STT_FUNC && symbol.st_size > 0) {
        symbols.functions.push_back({symbol.st_value, symbol.st_size, symbol.st_name});
        continue;
      }
      if (ELF64_ST_TYPE(symbol.st_info) != STT_TLS) continue;
      const std::string name = demangle(text.c_str() + symbol.st_name);
      symbols.tls.push_back(
          {symbol.st_value, symbol.st_size, short_name(name), !is_simulator_state(name), name});
    }
    symbols.names = std::move(text);
  }
  ::close(file);
  std::sort(symbols.tls.begin(), symbols.tls.end(),
            [](const TlsSymbol& a, const TlsSymbol& b) { return a.offset < b.offset; });
  std::sort(symbols.functions.begin(), symbols.functions.end(),
            [](const FunctionSymbol& a, const FunctionSymbol& b) { return a.begin < b.begin; });
  return symbols;
}

const ProgramSymbols& program_symbols() {
  static const ProgramSymbols symbols = read_symbols();
  return symbols;
}

const std::vector<TlsSymbol>& tls_symbols() { return program_symbols().tls; }

// The function that declared a __shared__ variable, as its demangled name gives it:
// "ch04::(anonymous namespace)::gemm_kernel(float const*)" for its array smem_a.
std::string owner_of(const TlsSymbol& symbol) {
  if (symbol.full.size() < symbol.name.size() + 2) return {};
  return symbol.full.substr(0, symbol.full.size() - symbol.name.size() - 2);
}

// Whether a function's demangled name (a template's begins with its return type) is `owner`.
bool names_function(const std::string& function, const std::string& owner) {
  if (owner.empty() || function.size() < owner.size()) return false;
  if (function.size() == owner.size()) return function == owner;
  return function.compare(function.size() - owner.size(), owner.size(), owner) == 0 &&
         function[function.size() - owner.size() - 1] == ' ';
}

// Whether `function` (a demangled name, as function_of gives it) declared `symbol`.
bool declared_by(const TlsSymbol& symbol, const std::string& function) {
  return names_function(function, owner_of(symbol));
}

// "gemm_kernel" from "ch04::(anonymous namespace)::gemm_kernel<3>(float const*)".
std::string identifier_of(const std::string& function) {
  std::size_t end = function.size();
  int depth = 0;
  for (std::size_t i = function.size(); i-- > 0;) {  // the parameter list's opening parenthesis
    if (function[i] == ')') ++depth;
    if (function[i] == '(' && --depth == 0) { end = i; break; }
  }
  if (end > 0 && function[end - 1] == '>') {
    depth = 0;
    for (std::size_t i = end; i-- > 0;) {
      if (function[i] == '>') ++depth;
      if (function[i] == '<' && --depth == 0) { end = i; break; }
    }
  }
  const std::size_t colons = function.rfind("::", end);
  return function.substr(colons == std::string::npos ? 0 : colons + 2, end - (colons == std::string::npos ? 0 : colons + 2));
}

// Whether the program has code of its own for the function `owner`: a kernel always has
// (it is launched through its address); a __device__ helper inlined wherever it is
// called has none, and its arrays are its callers' shared memory.
bool has_own_code(const std::string& owner) {
  static std::mutex mutex;
  static std::map<std::string, bool> known;
  std::lock_guard lock(mutex);
  if (auto found = known.find(owner); found != known.end()) return found->second;
  const ProgramSymbols& symbols = program_symbols();
  const std::string identifier = identifier_of(owner);
  bool found = false;
  for (const FunctionSymbol& function : symbols.functions) {
    const char* mangled = symbols.names.c_str() + function.name_offset;
    // A mangled name holds its identifier as written: demangle only the candidates.
    if (identifier.empty() || std::strstr(mangled, identifier.c_str()) == nullptr) continue;
    if (names_function(demangle(mangled), owner)) {
      found = true;
      break;
    }
  }
  return known.emplace(owner, found).first->second;
}

// The demangled name of the function that starts at `code` (a kernel's address).
std::string function_at(const void* code) {
  return code == nullptr ? std::string() : function_of(static_cast<const char*>(code) + 1);
}


}  // namespace

bool a_shared_variable_has_bytes(std::size_t bytes) {
  for (const TlsSymbol& symbol : tls_symbols()) {
    if (symbol.shared && symbol.bytes == bytes) return true;
  }
  return false;
}

// The demangled name of the function of the executable whose code holds `pc`, or "".
std::string function_of(const void* pc) {
  const ProgramSymbols& symbols = program_symbols();
  if (pc == nullptr || symbols.functions.empty()) return {};
  auto address = reinterpret_cast<std::uintptr_t>(pc) - 1;  // inside the call
  if (symbols.position_independent) {
    Dl_info info{};
    if (dladdr(pc, &info) == 0) return {};
    address -= reinterpret_cast<std::uintptr_t>(info.dli_fbase);
  }
  auto after = std::upper_bound(
      symbols.functions.begin(), symbols.functions.end(), address,
      [](std::uintptr_t value, const FunctionSymbol& function) { return value < function.begin; });
  if (after == symbols.functions.begin()) return {};
  const FunctionSymbol& function = *std::prev(after);
  if (address >= function.begin + function.bytes) return {};
  return demangle(symbols.names.c_str() + function.name_offset);
}

SharedVariable shared_variable_at(const SharedMemory& shared, const void* pointer) {
  const auto* address = static_cast<const std::byte*>(pointer);
  if (!shared.in_static(address)) return {};
  const auto offset = static_cast<std::size_t>(address - shared.tls_begin);
  for (const TlsSymbol& symbol : tls_symbols()) {
    if (symbol.shared && offset >= symbol.offset && offset < symbol.offset + symbol.bytes) {
      return {shared.tls_begin + symbol.offset, symbol.bytes, symbol.name};
    }
  }
  return {};
}

std::vector<SharedVariable> shared_variables(const SharedMemory& shared) {
  std::vector<SharedVariable> variables;
  for (const TlsSymbol& symbol : tls_symbols()) {
    if (symbol.shared) variables.push_back({shared.tls_begin + symbol.offset, symbol.bytes, symbol.name});
  }
  return variables;
}

namespace {

// Outside every array. All kernels' arrays share the thread-local block, so the one to
// measure from is the running kernel's (the function that declared them, declared_by);
// without it, the nearest array below. `offset` from the block's start.
const TlsSymbol* nearest_kernel_array(std::size_t offset, const std::string& function) {
  const TlsSymbol* nearest = nullptr;
  for (const TlsSymbol& symbol : tls_symbols()) {
    if (!symbol.shared) continue;
    const bool of_kernel = !function.empty() && declared_by(symbol, function);
    if (!function.empty() && !of_kernel) continue;
    if (nearest == nullptr || (symbol.offset <= offset && symbol.offset > nearest->offset) ||
        (nearest->offset > offset && symbol.offset < nearest->offset)) {
      nearest = &symbol;
    }
  }
  return nearest;
}

}  // namespace

std::optional<std::pair<std::string, std::size_t>> word_past_an_array(const SharedMemory& shared, const void* pointer,
                                                                        const void* pc) {
  const auto* address = static_cast<const std::byte*>(pointer);
  // Inside the static shared memory, or past its end by less than a block may hold (an
  // index that ran far past the last array): counted from the array before it.
  constexpr std::size_t kMostPastTheEnd = std::size_t{228} << 10;
  const bool past_the_end = address >= shared.static_begin + shared.static_bytes &&
                            static_cast<std::size_t>(address - (shared.static_begin + shared.static_bytes)) <
                                kMostPastTheEnd &&
                            !shared.in_dynamic(address, 1);
  if (!shared.in_static(address) && !past_the_end) return std::nullopt;
  const auto offset = static_cast<std::size_t>(address - shared.tls_begin);
  const TlsSymbol* nearest = nearest_kernel_array(offset, function_of(pc));
  // A __device__ helper that declares no array of its own indexes the kernel's.
  if (nearest == nullptr && shared.foreign_for_kernel != nullptr) {
    nearest = nearest_kernel_array(offset, function_at(shared.foreign_for_kernel));
  }
  if (nearest == nullptr || offset < nearest->offset + nearest->bytes || (offset - nearest->offset) % 4 != 0) {
    return std::nullopt;
  }
  return std::make_pair(nearest->name, (offset - nearest->offset) / 4);
}

std::string describe_shared_address(const SharedMemory& shared, const void* pointer,
                                    std::size_t bytes, const void* pc) {
  const auto* address = static_cast<const std::byte*>(pointer);
  if (shared.in_dynamic(address, 1)) {
    const auto offset = static_cast<std::size_t>(address - shared.dynamic_begin());
    return "bytes [" + std::to_string(offset) + ", " + std::to_string(offset + bytes) +
           ") of the dynamic shared memory (float index " + std::to_string(offset / 4) + ")";
  }
  if (!shared.in_static(address)) return "an address outside shared memory";
  const auto offset = static_cast<std::size_t>(address - shared.tls_begin);
  for (const TlsSymbol& symbol : tls_symbols()) {
    if (!symbol.shared || offset < symbol.offset || offset >= symbol.offset + symbol.bytes) continue;
    const std::size_t inside = offset - symbol.offset;
    if (bytes == 4 && inside % 4 == 0) {
      return symbol.name + "[" + std::to_string(inside / 4) + "] (in 4-byte elements)";
    }
    return "bytes [" + std::to_string(inside) + ", " + std::to_string(inside + bytes) +
           ") of the __shared__ variable " + symbol.name +
           (inside % 4 == 0 ? " (from its float element " + std::to_string(inside / 4) + ")" : "");
  }
  const std::string function = function_of(pc);
  const TlsSymbol* nearest = nearest_kernel_array(offset, function);
  if (nearest == nullptr && !function.empty()) return describe_shared_address(shared, pointer, bytes);
  if (nearest != nullptr) {
    const auto from_start = static_cast<long long>(offset) - static_cast<long long>(nearest->offset);
    return "bytes [" + std::to_string(from_start) + ", " +
           std::to_string(from_start + static_cast<long long>(bytes)) +
           ") from the start of the __shared__ array " + nearest->name + ", which has " +
           std::to_string(nearest->bytes) + " bytes: " +
           (from_start < 0 ? "before its start" : "past its end");
  }
  return "byte " + std::to_string(offset) + " of the static shared memory";
}

std::pair<std::string, std::size_t> shared_array_word(const SharedMemory& shared, const void* pointer) {
  const auto* address = static_cast<const std::byte*>(pointer);
  if (shared.in_dynamic(address, 1)) return {"", static_cast<std::size_t>(address - shared.dynamic_begin()) / 4};
  if (!shared.in_static(address)) return {"", 0};
  const auto offset = static_cast<std::size_t>(address - shared.tls_begin);
  for (const TlsSymbol& symbol : tls_symbols()) {
    if (symbol.shared && offset >= symbol.offset && offset < symbol.offset + symbol.bytes) {
      return {symbol.name, (offset - symbol.offset) / 4};
    }
  }
  return {"", 0};
}

void locate_static_shared(SharedMemory& shared) {
  TlsBlock block;
  block.inside = &threadIdx;
  dl_iterate_phdr(find_tls_block, &block);
  if (block.begin == nullptr) {
    throw std::runtime_error("wb simulator: cannot find the thread-local block that holds "
                             "__shared__ variables");
  }
  // Whole words, so that a word's poison never spills outside the block.
  const auto begin = reinterpret_cast<std::uintptr_t>(block.begin);
  const auto end = begin + block.bytes;
  shared.static_begin = reinterpret_cast<std::byte*>((begin + 3) / 4 * 4);
  shared.static_bytes = (end / 4 * 4) - reinterpret_cast<std::uintptr_t>(shared.static_begin);
  shared.tls_begin = block.begin;
  shared.word_epoch.assign(shared.static_bytes / 4, 0);
  shared.word_variable.assign(shared.static_bytes / 4, 0);
  shared.static_history.assign(shared.static_bytes / 4, WordHistory{});
  // Words no __shared__ variable covers (when the symbols say which those are).
  const std::vector<TlsSymbol>& symbols = tls_symbols();
  if (std::any_of(symbols.begin(), symbols.end(), [](const TlsSymbol& s) { return s.shared; })) {
    std::fill(shared.word_epoch.begin(), shared.word_epoch.end(), SharedMemory::kNotShared);
    const auto skip = static_cast<std::size_t>(shared.static_begin - shared.tls_begin);
    for (std::size_t index = 0; index < symbols.size(); ++index) {
      const TlsSymbol& symbol = symbols[index];
      if (!symbol.shared || symbol.offset < skip) continue;
      const std::size_t first = (symbol.offset - skip) / 4;
      const std::size_t end = (symbol.offset - skip + symbol.bytes + 3) / 4;
      for (std::size_t word = first; word < end && word < shared.word_epoch.size(); ++word) {
        shared.word_epoch[word] = 0;
        shared.word_variable[word] = static_cast<std::uint32_t>(index + 1);
      }
    }
  }
  // The guard variables the compiler gives a __shared__ array of a class type with
  // constructors (a float4 of the simulator), which the kernel reads before the array.
  for (const TlsSymbol& symbol : symbols) {
    if (symbol.full.rfind("guard variable for ", 0) == 0) {
      mark_never_poisoned(shared, shared.tls_begin + symbol.offset, symbol.bytes);
    }
  }
  // The built-in variables live there too; the scheduler sets them, kernels read them.
  mark_never_poisoned(shared, &threadIdx, sizeof threadIdx);
  mark_never_poisoned(shared, &blockIdx, sizeof blockIdx);
  mark_never_poisoned(shared, &blockDim, sizeof blockDim);
  mark_never_poisoned(shared, &gridDim, sizeof gridDim);
}

void begin_block_shared(SharedMemory& shared, unsigned threads) {
  begin_interval(shared);
  shared.block_first_interval = shared.interval;
  shared.barrier_interval = shared.interval;
  shared.warp_syncs.assign((threads + 31) / 32, 0);
  shared.rendezvous.resize((threads + 31) / 32);
  for (std::vector<WarpRendezvous>& meetings : shared.rendezvous) {
    for (WarpRendezvous& meeting : meetings) meeting.arrived = 0;
  }
  if (++shared.block_epoch == SharedMemory::kNeverPoisoned) {
    for (std::uint32_t& epoch : shared.word_epoch) {
      if (epoch < SharedMemory::kNotShared) epoch = 0;
    }
    shared.block_epoch = 1;
  }
  if (shared.dynamic_allocation != nullptr) {
    const std::size_t guard = SharedMemory::kDynamicGuardBytes;
    poison::fill(shared.dynamic_allocation, guard, poison::guard);
    poison::fill(shared.dynamic_begin(), shared.dynamic_bytes, poison::stale);
    poison::fill(shared.dynamic_begin() + shared.dynamic_bytes, guard, poison::guard);
  }
}

StaticWord touch_static_shared(SharedMemory& shared, const void* pointer, std::size_t bytes) {
  const std::size_t offset =
      static_cast<std::size_t>(static_cast<const std::byte*>(pointer) - shared.static_begin);
  const std::size_t last = std::min((offset + bytes - 1) / 4, shared.word_epoch.size() - 1);
  for (std::size_t word = offset / 4; word <= last; ++word) {
    if (shared.word_epoch[word] >= SharedMemory::kNotShared) {
      return shared.word_epoch[word] == SharedMemory::kNeverPoisoned ? StaticWord::built_in
                                                                     : StaticWord::not_shared;
    }
  }
  if (shared.word_variable[offset / 4] != shared.word_variable[last] &&
      shared_variable_at(shared, pointer).begin !=
          shared_variable_at(shared, static_cast<const std::byte*>(pointer) + bytes - 1).begin) {
    return StaticWord::straddles;  // two arrays that share a word are told apart by their bytes
  }
  for (std::size_t word = offset / 4; word <= last; ++word) {
    std::uint32_t& epoch = shared.word_epoch[word];
    if (epoch == shared.block_epoch) continue;
    poison::fill(shared.static_begin + 4 * word, 4, poison::stale);
    epoch = shared.block_epoch;
  }
  return in_foreign_variable(shared, pointer) ? StaticWord::foreign : StaticWord::shared;
}

bool in_foreign_variable(const SharedMemory& shared, const void* pointer) {
  if (shared.variable_foreign.empty()) return false;
  const auto word = static_cast<std::size_t>(static_cast<const std::byte*>(pointer) - shared.static_begin) / 4;
  return shared.variable_foreign[shared.word_variable[word]] != 0;
}

void mark_foreign_variables(SharedMemory& shared, const void* kernel) {
  if (shared.foreign_for_kernel == kernel && !shared.variable_foreign.empty()) return;
  const std::vector<TlsSymbol>& symbols = tls_symbols();
  shared.foreign_for_kernel = kernel;
  shared.variable_foreign.assign(symbols.size() + 1, 0);
  const std::string name = function_at(kernel);
  if (name.empty()) return;  // no symbols: nothing is known of whose arrays are whose
  for (std::size_t index = 0; index < symbols.size(); ++index) {
    if (symbols[index].shared) shared.variable_foreign[index + 1] = !declared_by(symbols[index], name);
  }
}

std::string foreign_array_access(SharedMemory& shared, const void* kernel, const void* address,
                                 std::size_t bytes, const void* pc) {
  const auto* first = static_cast<const std::byte*>(address);
  const std::uint32_t variable = shared.word_variable[static_cast<std::size_t>(first - shared.static_begin) / 4];
  const std::vector<TlsSymbol>& symbols = tls_symbols();
  const TlsSymbol& array = symbols[variable - 1];
  const std::string owner = owner_of(array);
  // A __device__ helper's own array: reached from the helper's code, or from a kernel
  // the helper was inlined into (it has no code of its own then). The kernel's memory.
  if (names_function(function_of(pc), owner) || !has_own_code(owner)) {
    shared.variable_foreign[variable] = 0;
    return "";
  }
  const std::string kernel_name = function_at(kernel);
  const auto offset = static_cast<long long>(first - shared.tls_begin);
  // This kernel's array nearest the address: the one the index was counted from. The
  // simulator lays every kernel's arrays side by side, so the address lands in another
  // kernel's array; on a GPU it is simply outside this kernel's shared memory, and the
  // other kernel has nothing to do with the mistake: it is not named.
  const TlsSymbol* nearest = nullptr;
  long long nearest_gap = 0;
  for (const TlsSymbol& symbol : symbols) {
    if (!symbol.shared || !declared_by(symbol, kernel_name)) continue;
    const auto begin = static_cast<long long>(symbol.offset);
    const long long gap = offset < begin ? begin - offset : offset - (begin + static_cast<long long>(symbol.bytes)) + 1;
    if (nearest == nullptr || gap < nearest_gap) {
      nearest = &symbol;
      nearest_gap = gap;
    }
  }
  const std::string outside =
      "outside this kernel's shared memory (on a GPU, a kernel's shared memory holds its own arrays only)";
  if (nearest == nullptr) {
    const long long inside = offset - static_cast<long long>(array.offset);
    return "at bytes [" + std::to_string(inside) + ", " + std::to_string(inside + static_cast<long long>(bytes)) +
           ") of " + array.name + ", a __shared__ array of another kernel, " + identifier_of(owner) + ": " +
           outside + ", and this kernel declares none. Is an index far outside its tile?";
  }
  const auto nearest_begin = static_cast<long long>(nearest->offset);
  // Elements counted in floats, as the workbook's tiles are, from the array's start.
  const long long element = (offset - nearest_begin) / 4 - (offset < nearest_begin ? 1 : 0);
  const std::string where = "at element " + std::to_string(element) + " of this kernel's " + nearest->name +
                            ", which has " + std::to_string(nearest->bytes / 4) + " floats (" +
                            std::to_string(nearest->bytes) + " bytes): ";
  if (offset < nearest_begin) {
    return where + std::to_string((nearest_begin - offset + 3) / 4) + " floats before its start, " + outside +
           ". An index into " + nearest->name + " below 0. Is an index negative: a stage or a row "
           "computed as (i - 1) % n, which C++ makes -1, not n - 1, when i is 0; or a halo or an offset "
           "taken off twice?";
  }
  const long long past = (offset - nearest_begin - static_cast<long long>(nearest->bytes)) / 4;
  return where + (past == 0 ? std::string("just past its end") : std::to_string(past) + " floats past its end") +
         ", " + outside + ". An index into " + nearest->name + " past its end: is an index past the end of the tile?";
}

void release_dynamic_shared(SharedMemory& shared) {
  if (shared.dynamic_allocation == nullptr) return;
  ::munmap(shared.dynamic_allocation - SharedMemory::kDynamicReach, shared.dynamic_reserved);
  shared.dynamic_allocation = nullptr;
  shared.dynamic_capacity = 0;
  shared.dynamic_reserved = 0;
}

void Worker::provide_dynamic_shared(std::size_t bytes) {
  if (bytes > shared.dynamic_capacity || shared.dynamic_allocation == nullptr) {
    release_dynamic_shared(shared);
    const std::size_t capacity = (bytes + 127) / 128 * 128;
    const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    const std::size_t usable = (capacity + 2 * SharedMemory::kDynamicGuardBytes + page - 1) / page * page;
    const std::size_t reserved = usable + 2 * SharedMemory::kDynamicReach;
    // Page-aligned, so 128-byte aligned as a GPU's dynamic shared memory is at least; the
    // reach on either side stays inaccessible.
    void* mapping = ::mmap(nullptr, reserved, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (mapping == MAP_FAILED) throw std::bad_alloc();
    auto* usable_begin = static_cast<std::byte*>(mapping) + SharedMemory::kDynamicReach;
    if (::mprotect(usable_begin, usable, PROT_READ | PROT_WRITE) != 0) {
      ::munmap(mapping, reserved);
      throw std::bad_alloc();
    }
    shared.dynamic_allocation = usable_begin;
    shared.dynamic_capacity = capacity;
    shared.dynamic_reserved = reserved;
  }
  shared.dynamic_bytes = bytes;
  shared.dynamic_history.assign((bytes + 3) / 4, WordHistory{});
}

std::string explain_dynamic_overrun(const SharedMemory& shared, const void* pointer, std::size_t bytes,
                                    std::size_t reach) {
  if (shared.dynamic_allocation == nullptr) return {};
  // As integers: an address far before the allocation is no pointer C++ may form.
  const auto at = static_cast<long long>(reinterpret_cast<std::uintptr_t>(pointer) -
                                         reinterpret_cast<std::uintptr_t>(shared.dynamic_begin()));
  const auto size = static_cast<long long>(shared.dynamic_bytes);
  const auto width = static_cast<long long>(bytes);
  const auto limit = static_cast<long long>(reach);
  const std::string range = "bytes [" + std::to_string(at) + ", " + std::to_string(at + width) +
                            ") of the dynamic shared memory (" + std::to_string(size) + " bytes, as launched)";
  if (at < 0 && at + width > -limit) {
    return range + ": before its start. Is an index negative, or an offset into the buffer too small?";
  }
  if (at + width > size && at < size + limit) {
    return range + ": past its end. Is the launch's shared_bytes too small, or an index outside the tile?";
  }
  return {};
}

std::string explain_before_static(const SharedMemory& shared, const void* address, std::size_t bytes,
                                  const void* pc, std::size_t reach) {
  const auto* first = static_cast<const std::byte*>(address);
  if (shared.static_begin == nullptr || first >= shared.static_begin || first + reach < shared.static_begin) return "";
  // The running kernel's __shared__ array that starts lowest: the one an index below the
  // block's start counts from.
  const std::string function = function_of(pc);
  const TlsSymbol* lowest = nullptr;
  for (const TlsSymbol& symbol : tls_symbols()) {
    if (!symbol.shared) continue;
    if (!function.empty() && !declared_by(symbol, function)) continue;
    if (lowest == nullptr || symbol.offset < lowest->offset) lowest = &symbol;
  }
  if (lowest == nullptr) return "";
  const long long from_start = static_cast<long long>(first - shared.tls_begin) - static_cast<long long>(lowest->offset);
  return "covers bytes [" + std::to_string(from_start) + ", " + std::to_string(from_start + static_cast<long long>(bytes)) +
         ") from the start of the __shared__ array " + lowest->name + ", which has " + std::to_string(lowest->bytes) +
         " bytes: before its start (float index " + std::to_string(from_start / 4) +
         "). Is an index negative: a halo or an offset taken off twice?";
}

std::string explain_static_overrun(const SharedMemory& shared, const void* address, std::size_t bytes,
                                   const void* pc) {
  const auto* first = static_cast<const std::byte*>(address);
  const SharedVariable starts_in = shared_variable_at(shared, first);
  const SharedVariable ends_in = shared_variable_at(shared, first + bytes - 1);
  auto part = [&](const SharedVariable& variable) {
    const auto from = std::max(first, variable.begin) - variable.begin;
    const auto to = std::min(first + bytes, variable.begin + variable.bytes) - variable.begin;
    return "bytes [" + std::to_string(from) + ", " + std::to_string(to) + ") of the __shared__ array " +
           variable.name + ", which has " + std::to_string(variable.bytes) + " bytes";
  };
  if (starts_in.bytes > 0 && ends_in.bytes > 0) {
    // Two arrays, one after the other: which one the index was meant for, the trace
    // cannot tell.
    return "covers the end of one array and the start of the next: " + part(starts_in) + ", and " +
           part(ends_in) + ". An index runs past the end of the first, or before the start of the second";
  }
  if (starts_in.bytes > 0) {
    const auto offset = first - starts_in.begin;
    return "at bytes [" + std::to_string(offset) + ", " + std::to_string(offset + static_cast<long long>(bytes)) +
           ") of the __shared__ array " + starts_in.name + ", which has " + std::to_string(starts_in.bytes) +
           " bytes: past its end. Is an index past the end of the tile?";
  }
  return "at " + describe_shared_address(shared, address, bytes, pc) +
         ": outside every __shared__ array. Is an index past the end of the tile?";
}

std::string explain_bad_destination(Worker& worker, const void* destination,
                                    std::size_t bytes, const void* pc) {
  const SharedMemory& shared = worker.shared;
  const auto* address = static_cast<const std::byte*>(destination);
  if (shared.in_dynamic(destination, bytes)) return {};
  if (shared.in_static(destination) && shared.in_static(address + bytes - 1)) {
    bool all_shared = true;
    const auto first = static_cast<std::size_t>(address - shared.static_begin) / 4;
    for (std::size_t word = first; word <= first + (bytes - 1) / 4; ++word) {
      all_shared &= shared.word_epoch[word] < SharedMemory::kNotShared;
    }
    if (all_shared) {
      if (!in_foreign_variable(shared, destination)) return {};
      const std::string foreign = foreign_array_access(worker.shared, worker.job->config.kernel, destination, bytes, pc);
      return foreign.empty() ? std::string() : "the shared destination lies " + foreign;
    }
    return "the destination " + hex(destination) + " is not the block's shared memory: it is " +
           describe_shared_address(shared, destination, bytes, pc) +
           ". cp.async writes only into a __shared__ array or the dynamic shared memory: is "
           "the shared index outside the tile?";
  }
  if (std::string overrun = explain_dynamic_overrun(shared, destination, bytes, SharedMemory::kDynamicReach);
      !overrun.empty()) {
    return "the shared destination covers " + overrun;
  }
  if (find_device_allocation(destination, bytes).begin != nullptr) {
    return "the destination " + hex(destination) +
           " is in global memory (a device allocation); cp.async copies from global into "
           "shared memory (a __shared__ array)";
  }
  if (worker.stacks != nullptr && worker.stacks->contains(destination)) {
    return "the destination " + hex(destination) +
           " is a local variable of the kernel; cp.async writes to shared memory (a "
           "__shared__ array)";
  }
  const long long from_static = address - shared.static_begin;
  std::string where;
  if (from_static < 0) {
    where = std::to_string(-from_static) + " bytes before";
  } else {
    where = std::to_string(from_static - static_cast<long long>(shared.static_bytes)) +
            " bytes past the end of";
  }
  return "the destination " + hex(destination) +
         " is not the block's shared memory: it lies " + where +
         " the block's static shared memory, and outside its dynamic shared memory (" +
         std::to_string(shared.dynamic_bytes) +
         " bytes). cp.async writes only into a __shared__ array or the dynamic shared "
         "memory: is the shared index far outside the tile, or the destination a "
         "__device__ variable or a host pointer?";
}

void check_dynamic_guards(const SharedMemory& shared) {
  if (shared.dynamic_allocation == nullptr) return;
  const std::size_t guard = SharedMemory::kDynamicGuardBytes;
  std::uint32_t pattern = poison::guard;
  unsigned char expected[4];
  std::memcpy(expected, &pattern, 4);
  auto first_written = [&](const std::byte* band) -> long long {
    for (std::size_t i = 0; i < guard; ++i) {
      if (static_cast<unsigned char>(band[i]) != expected[i % 4]) return static_cast<long long>(i);
    }
    return -1;
  };
  const std::string size = std::to_string(shared.dynamic_bytes) + " bytes, as launched";
  if (const long long at = first_written(shared.dynamic_allocation); at >= 0) {
    throw KernelError("block " + format_index(blockIdx) + ": a thread wrote byte " +
                          std::to_string(at - static_cast<long long>(guard)) +
                          " of the dynamic shared memory (" + size + "): before its start",
                      ErrorKind::shared_out_of_bounds);
  }
  if (const long long at = first_written(shared.dynamic_begin() + shared.dynamic_bytes); at >= 0) {
    throw KernelError("block " + format_index(blockIdx) + ": a thread wrote byte " +
                          std::to_string(static_cast<long long>(shared.dynamic_bytes) + at) +
                          " of the dynamic shared memory (" + size +
                          "): past its end. Is the launch's shared_bytes too small?",
                      ErrorKind::shared_out_of_bounds);
  }
}

}  // namespace wb::sim
