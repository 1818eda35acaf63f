// The main of every grader and runtime test.
//
// Plain runs are ordinary GoogleTest runs (ctest runs them one test a process).
// `--wb-report` is what `make check-chapterN` runs: each test (a step of the chapter)
// in a child process of its own, so that a kernel that crashes the process or the CUDA
// context, or hangs, fails its own step and the other steps still report; then a short
// table of the steps and the first failure's message in full. The exit code is 0 only
// when every step passed (a skipped step is not a pass). `--wb-results FILE` beside it
// also writes one line a step, `<test>\t<passed|failed|skipped|crashed>\t<title>\t<seconds>`,
// for `make check-all`'s table and gpu_check.sh's step times, so that no tool has to read
// the human report.
#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <thread>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "wb/grading/causes.hpp"
#include "wb/grading/random.hpp"
#include "wb/grading/step.hpp"
#include "wb/wb.cuh"

namespace {

// A failure message without GoogleTest's trace of SCOPED_TRACE sites, nor the bare
// "Failed" that ADD_FAILURE puts first: the graders' messages say where they stand.
std::string without_trace(const std::string& message) {
  std::string text = message.substr(0, message.find("\nGoogle Test trace:"));
  if (text.rfind("Failed\n", 0) == 0) text.erase(0, 7);
  return text;
}

// Records the first failure (or the skip) of the test running in this process.
class FirstFailure : public ::testing::EmptyTestEventListener {
 public:
  void OnTestPartResult(const ::testing::TestPartResult& result) override {
    if (result.skipped() && skip_.empty()) skip_ = without_trace(result.message());
    if (result.failed() && failure_.empty()) failure_ = without_trace(result.message());
  }
  const std::string& failure() const { return failure_; }
  const std::string& skip() const { return skip_; }

 private:
  std::string failure_, skip_;
};

// "Step1CopyTheTile" -> "step 1: copy the tile through shared memory", the title its Step
// registered; from the test's name alone ("step 1: copy the tile") where none did.
std::string step_title(const std::string& test_name) {
  if (test_name.rfind("Step", 0) == 0) {
    const int number = std::atoi(test_name.c_str() + 4);
    const auto& titles = wb::grading::step_titles();
    if (const auto found = titles.find(number); number > 0 && found != titles.end()) {
      return "step " + std::to_string(number) + ": " + found->second;
    }
  }
  std::string title;
  bool in_number = false;
  for (std::size_t i = 0; i < test_name.size(); ++i) {
    const char c = test_name[i];
    const bool digit = std::isdigit(static_cast<unsigned char>(c)) != 0;
    if (i > 0 && std::isupper(static_cast<unsigned char>(c))) title += in_number ? ": " : " ";
    if (digit && !in_number) title += ' ';
    in_number = digit;
    title += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return title;
}

void write_all(int fd, const void* data, std::size_t size) {
  const auto* bytes = static_cast<const char*>(data);
  std::size_t done = 0;
  while (done < size) {
    const ssize_t n = write(fd, bytes + done, size - done);
    if (n <= 0) return;
    done += static_cast<std::size_t>(n);
  }
}
void write_all(int fd, const std::string& text) { write_all(fd, text.data(), text.size()); }

std::string read_all(int fd) {
  std::string text;
  char buffer[4096];
  for (ssize_t n; (n = read(fd, buffer, sizeof buffer)) > 0;) text.append(buffer, static_cast<std::size_t>(n));
  return text;
}

// ---------------------------------------------------------------------------------
// The child's side: one step, its verdict written on a pipe as "P", "S<message>",
// "F<message>", or, from a signal handler, "C" followed by a CrashRecord.

int verdict_fd = -1;

struct CrashRecord {
  int signal_number = 0;
  std::uint64_t seed = 0;
#if WB_BACKEND_SIM
  wb::sim::CrashContext context;
#endif
};

void on_crash(int signal_number, [[maybe_unused]] siginfo_t* info, void*) {
  // Two workers may crash at once: the first one reports, the others wait for the end.
  static std::atomic<bool> reported{false};
  if (reported.exchange(true)) {
    for (;;) pause();
  }
  CrashRecord record;
  record.signal_number = signal_number;
  record.seed = wb::grading::last_seed();
#if WB_BACKEND_SIM
  const bool names_an_address = signal_number == SIGSEGV || signal_number == SIGBUS;
  record.context = wb::sim::crash_context(names_an_address && info != nullptr ? info->si_addr : nullptr);
#endif
  write_all(verdict_fd, "C", 1);
  write_all(verdict_fd, &record, sizeof record);
  _exit(128 + signal_number);
}

// Fiber stacks are small: the handler runs on a stack of its own, so that a stack
// overflow is reported too.
void install_crash_handlers() {
  static std::vector<char> handler_stack(1 << 16);
  stack_t stack{};
  stack.ss_sp = handler_stack.data();
  stack.ss_size = handler_stack.size();
  sigaltstack(&stack, nullptr);
  struct sigaction action{};
  action.sa_sigaction = on_crash;
  action.sa_flags = SA_ONSTACK | SA_SIGINFO;  // not SA_RESETHAND: a second crashing thread must wait
  for (int signal_number : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) {
    sigaction(signal_number, &action, nullptr);
  }
}

// At the time limit, says what is still running and ends the process.
void start_watchdog(unsigned timeout_seconds) {
  std::thread([timeout_seconds] {
    std::this_thread::sleep_for(std::chrono::seconds(timeout_seconds));
    std::string message = "did not finish within " + std::to_string(timeout_seconds) +
                          " s (WB_STEP_TIMEOUT sets the limit). ";
#if WB_BACKEND_SIM
    message += wb::grading::hang_cause(true, wb::sim::describe_running_blocks());
#else
    message += wb::grading::hang_cause(false, "");
#endif
    write_all(verdict_fd, "F" + message);
    _exit(1);
  }).detach();
}

// What a step may use: a kernel that allocates without end must fail, not take the
// learner's machine down. Only in the simulator (the GPU driver reserves far more
// address space than it uses) and not under AddressSanitizer (which does too).
void bound_memory() {
#if WB_BACKEND_SIM && !defined(__SANITIZE_ADDRESS__)
  const char* text = std::getenv("WB_STEP_MEMORY_MB");
  const unsigned long long megabytes = text != nullptr ? std::strtoull(text, nullptr, 10) : 4096;
  const rlimit limit{megabytes << 20, megabytes << 20};
  setrlimit(RLIMIT_AS, &limit);
#endif
}

[[noreturn]] void run_child(const std::string& full_name, unsigned timeout_seconds, int output_fd) {
  dup2(output_fd, STDOUT_FILENO);
  dup2(output_fd, STDERR_FILENO);
  install_crash_handlers();
  bound_memory();
  start_watchdog(timeout_seconds);
  GTEST_FLAG_SET(filter, full_name);
  auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
  delete listeners.Release(listeners.default_result_printer());
  auto* first = new FirstFailure;
  listeners.Append(first);
  const int status = RUN_ALL_TESTS();
  const int ran = ::testing::UnitTest::GetInstance()->test_to_run_count();
  std::string verdict;
  if (ran != 1) {
    verdict = "Fthe harness ran " + std::to_string(ran) + " tests for " + full_name +
              " instead of exactly one (a disabled test, or a filter that matches none): "
              "this step was not graded";
  } else if (!first->failure().empty()) {
    verdict = "F" + first->failure();
  } else if (!first->skip().empty()) {
    verdict = "S" + first->skip();
  } else {
    verdict = status == 0 ? "P" : "Fthe test failed without a message";
  }
  write_all(verdict_fd, verdict);
  std::fflush(nullptr);
  _exit(status);
}

// ---------------------------------------------------------------------------------
// The parent's side.

struct Outcome {
  enum { passed, failed, skipped, crashed } status;
  std::string message;
  std::string output;  // what the step printed (the simulator's warnings, a printf)
  double seconds = 0;  // the step's wall time, its process's start and end included
};

std::string describe_crash(const CrashRecord& record, const std::string& full_name,
                           const char* program) {
  std::string text = std::string("crashed with signal ") + strsignal(record.signal_number);
#if WB_BACKEND_SIM
  const wb::sim::CrashContext& context = record.context;
  if (context.in_kernel) {
    text += " in block " + wb::sim::format_index(context.block) + ", thread " +
            wb::sim::format_index(context.thread);
    const std::string access = wb::sim::source_line_of(context.access_pc);
    if (!access.empty() && (context.access_is_latest || context.last_seen_file == nullptr)) {
      char address[32];
      std::snprintf(address, sizeof address, "%p", context.access_address);
      text += ", at " + access + ": its last memory access, " +
              (context.access_write ? "a store" : "a load") + " of " +
              std::to_string(context.access_bytes) + " bytes at " + address;
    } else if (context.last_seen_file != nullptr) {
      text += ", after " + std::string(context.last_seen_file) + ":" +
              std::to_string(context.last_seen_line);
    }
    text += ". " + wb::grading::crash_cause(true);
  } else {
    text += " outside a kernel (in the host code of the step, or a heap that a kernel "
            "overran earlier).";
  }
#else
  text += ". " + wb::grading::crash_cause(false);
#endif
  text += "\nThe data had WB_SEED=" + std::to_string(record.seed) +
          ". To re-run this step alone under a debugger:\n  WB_SEED=" +
          std::to_string(record.seed) + " gdb --args " + program +
          " --gtest_filter=" + full_name;
  return text;
}

// Runs one test in a child process, showing on a terminal that it is still running (its
// title in the report's column of `title_width`).
Outcome run_isolated(const std::string& full_name, unsigned timeout_seconds,
                     const std::string& title, int title_width, const char* program) {
  int channel[2];
  if (pipe(channel) != 0) return {Outcome::crashed, "cannot create a pipe", ""};
  char output_path[] = "/tmp/wb-step-XXXXXX";
  const int output_fd = mkstemp(output_path);
  if (output_fd < 0) return {Outcome::crashed, "cannot create a temporary file", ""};
  unlink(output_path);
  std::fflush(nullptr);
  const pid_t child = fork();
  if (child == 0) {
    close(channel[0]);
    verdict_fd = channel[1];
    run_child(full_name, timeout_seconds, output_fd);
  }
  close(channel[1]);
  const bool terminal = isatty(STDOUT_FILENO) != 0;
  const auto start = std::chrono::steady_clock::now();
  std::string verdict;
  pollfd reading{channel[0], POLLIN, 0};
  for (;;) {
    const int ready = poll(&reading, 1, 1000);
    const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(
                             std::chrono::steady_clock::now() - start).count();
    if (ready > 0) {
      char buffer[4096];
      const ssize_t n = read(channel[0], buffer, sizeof buffer);
      if (n <= 0) break;
      verdict.append(buffer, static_cast<std::size_t>(n));
      continue;
    }
    if (terminal && seconds >= 2) {
      std::printf("\r  %-*s running, %lld s", title_width, title.c_str(), static_cast<long long>(seconds));
      std::fflush(stdout);
    }
    if (seconds > static_cast<long long>(timeout_seconds) + 10) {  // the watchdog failed
      kill(child, SIGKILL);
      break;
    }
  }
  if (terminal) std::printf("\r%-70s\r", "");
  close(channel[0]);
  int status = 0;
  waitpid(child, &status, 0);
  lseek(output_fd, 0, SEEK_SET);
  const std::string output = read_all(output_fd);
  close(output_fd);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!verdict.empty() && verdict[0] == 'C' && verdict.size() >= 1 + sizeof(CrashRecord)) {
    CrashRecord record;
    std::memcpy(&record, verdict.data() + 1, sizeof record);
    return {Outcome::crashed, describe_crash(record, full_name, program), output, seconds};
  }
  if (WIFSIGNALED(status) && verdict.empty()) {
    return {Outcome::crashed,
            std::string("was killed by signal ") + strsignal(WTERMSIG(status)) +
                " without a report (out of memory? WB_STEP_MEMORY_MB bounds a step)",
            output, seconds};
  }
  if (verdict.empty()) return {Outcome::crashed, "ended without a verdict", output, seconds};
  if (verdict[0] == 'P') return {Outcome::passed, "", output, seconds};
  if (verdict[0] == 'S') return {Outcome::skipped, verdict.substr(1), output, seconds};
  return {Outcome::failed, verdict.substr(1), output, seconds};
}

// The step's own output, indented under its line: at most a few lines of it.
// What a step printed besides its verdict, under its line; a simulator's warning that
// the step's message already quotes ("The simulator noticed: ...") is left out here.
void print_output(const std::string& output, const std::string& message) {
  constexpr int kMaxLines = 8;
  static const std::string kWarning = "[wb sim] warning: ";
  int lines = 0;
  std::size_t at = 0;
  while (at < output.size() && lines < kMaxLines) {
    const std::size_t end = output.find('\n', at);
    const std::string line = output.substr(at, end - at);
    at = end == std::string::npos ? output.size() : end + 1;
    const std::string said = line.rfind(kWarning, 0) == 0 ? line.substr(kWarning.size()) : line;
    if (!said.empty() && message.find(said) != std::string::npos) continue;
    std::printf("      | %s\n", line.c_str());
    ++lines;
  }
  if (at < output.size()) std::printf("      | ... (more output cut)\n");
}

int report(const char* program, const char* results_path) {
  const char* timeout_text = std::getenv("WB_STEP_TIMEOUT");
  // The references take at most about 1.5 s a step (gpu_check.sh measures it, and fails past a
  // fifth of this limit); twenty leave room for slow machines.
  const unsigned timeout = timeout_text ? static_cast<unsigned>(std::atoi(timeout_text)) : 20;
  std::printf("Steps, each in a process of its own, on the %s:\n", wb::backend_name());
  const ::testing::UnitTest& unit = *::testing::UnitTest::GetInstance();
  int passed = 0, total = 0;
  std::string first_name, first_message;
  std::vector<std::string> passed_outputs;  // what the passed steps measured
  FILE* results = nullptr;
  if (results_path != nullptr) {
    results = std::fopen(results_path, "w");
    if (results == nullptr) {
      std::fprintf(stderr, "cannot write %s: %s\n", results_path, std::strerror(errno));
      return 2;
    }
  }
  // The titles' column as wide as the longest (44 at least, as before).
  int title_width = 44;
  for (int i = 0; i < unit.total_test_suite_count(); ++i) {
    const ::testing::TestSuite& suite = *unit.GetTestSuite(i);
    for (int j = 0; j < suite.total_test_count(); ++j) {
      title_width = std::max(title_width, static_cast<int>(step_title(suite.GetTestInfo(j)->name()).size()));
    }
  }
  for (int i = 0; i < unit.total_test_suite_count(); ++i) {
    const ::testing::TestSuite& suite = *unit.GetTestSuite(i);
    for (int j = 0; j < suite.total_test_count(); ++j) {
      const ::testing::TestInfo& test = *suite.GetTestInfo(j);
      const std::string name = std::string(suite.name()) + "." + test.name();
      const std::string title = step_title(test.name());
      const Outcome outcome = run_isolated(name, timeout, title, title_width, program);
      static const char* const words[] = {"passed", "FAILED", "SKIPPED", "FAILED"};
      std::printf("  %-*s %s\n", title_width, title.c_str(), words[outcome.status]);
      // A passed step's measurements would be printed again above every later failure,
      // run after run: a passed step is one line, and its measurements come once every
      // step passes (below).
      if (outcome.status != Outcome::passed) print_output(outcome.output, outcome.message);
      if (outcome.status == Outcome::passed && !outcome.output.empty()) passed_outputs.push_back(outcome.output);
      if (results != nullptr) {
        static const char* const states[] = {"passed", "failed", "skipped", "crashed"};
        std::fprintf(results, "%s\t%s\t%s\t%.2f\n", name.c_str(), states[outcome.status], title.c_str(),
                     outcome.seconds);
        std::fflush(results);  // the next step's child must not inherit unwritten lines
      }
      ++total;
      if (outcome.status == Outcome::passed) {
        ++passed;
      } else if (first_message.empty()) {
        first_name = title;
        first_message = outcome.message;
      }
    }
  }
  if (!first_message.empty()) {
    std::printf("\nFirst problem, %s:\n%s\n", first_name.c_str(), first_message.c_str());
  } else if (!passed_outputs.empty()) {
    std::printf("\nWhat the steps measured:\n");
    for (const std::string& output : passed_outputs) std::printf("%s%s", output.c_str(), output.back() == '\n' ? "" : "\n");
  }
  std::printf("\n%d of %d steps pass on the %s.\n", passed, total, wb::backend_name());
  if (results != nullptr) std::fclose(results);
  return passed == total && total > 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  const char* results_path = nullptr;
  for (int i = 1; i + 1 < argc; ++i) {
    if (std::strcmp(argv[i], "--wb-results") == 0) results_path = argv[i + 1];
  }
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--wb-report") == 0) return report(argv[0], results_path);
    if (std::strcmp(argv[i], "--wb-probe-gpu") == 0) {
      std::string reason;
      const bool present = wb::backend == wb::Backend::cuda && wb::gpu_available(&reason);
      if (present) std::printf("%s\n", wb::device_description().c_str());
      return present ? 0 : 1;
    }
  }
  return RUN_ALL_TESTS();
}
