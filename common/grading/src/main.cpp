// The main of every grader and runtime test.
//
// Plain runs are ordinary GoogleTest runs (ctest runs them one test a process).
// `--wb-report` is what `make check-chapterN` runs: each test (a step of the chapter)
// in a child process of its own, so that a kernel that crashes the process or the CUDA
// context, or hangs, fails its own step and the other steps still report; then a short
// table of the steps and the first failure's message in full. The exit code is 0 only
// when every step passed (a skipped step is not a pass).
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "wb/wb.cuh"

namespace {

// A failure message without GoogleTest's trace of SCOPED_TRACE sites: the graders'
// messages already say where they stand.
std::string without_trace(const std::string& message) {
  return message.substr(0, message.find("\nGoogle Test trace:"));
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

// "Step1CopyTheTile" -> "step 1: copy the tile"
std::string step_title(const std::string& test_name) {
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

void write_all(int fd, const std::string& text) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = write(fd, text.data() + done, text.size() - done);
    if (n <= 0) return;
    done += static_cast<std::size_t>(n);
  }
}

std::string read_all(int fd) {
  std::string text;
  char buffer[4096];
  for (ssize_t n; (n = read(fd, buffer, sizeof buffer)) > 0;) text.append(buffer, static_cast<std::size_t>(n));
  return text;
}

struct Outcome {
  enum { passed, failed, skipped, crashed } status;
  std::string message;
};

// Runs one test in a child process; its verdict and first message come back on a pipe
// as "P", "S<message>" or "F<message>".
Outcome run_isolated(const std::string& full_name, unsigned timeout_seconds) {
  int channel[2];
  if (pipe(channel) != 0) return {Outcome::crashed, "cannot create a pipe"};
  std::fflush(nullptr);
  const pid_t child = fork();
  if (child == 0) {
    close(channel[0]);
    alarm(timeout_seconds);
    GTEST_FLAG_SET(filter, full_name);
    auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
    auto* first = new FirstFailure;
    listeners.Append(first);
    const int status = RUN_ALL_TESTS();
    std::string verdict = !first->failure().empty() ? "F" + first->failure()
                          : !first->skip().empty()  ? "S" + first->skip()
                          : status == 0             ? "P"
                                                    : "Fthe test failed without a message";
    write_all(channel[1], verdict);
    std::fflush(nullptr);
    _exit(status);
  }
  close(channel[1]);
  const std::string verdict = read_all(channel[0]);
  close(channel[0]);
  int status = 0;
  waitpid(child, &status, 0);
  if (WIFSIGNALED(status)) {
    const int signal_number = WTERMSIG(status);
    if (signal_number == SIGALRM) {
      return {Outcome::crashed,
              "did not finish within " + std::to_string(timeout_seconds) +
                  " s: a deadlock (a __syncthreads() that not every thread reaches, on the "
                  "GPU) or an endless loop?"};
    }
    return {Outcome::crashed, std::string("crashed with signal ") + strsignal(signal_number) +
                                  ": a wild pointer, an index far out of range, or a stack "
                                  "overflow in the kernel?"};
  }
  if (verdict.empty()) return {Outcome::crashed, "ended without a verdict"};
  if (verdict[0] == 'P') return {Outcome::passed, ""};
  if (verdict[0] == 'S') return {Outcome::skipped, verdict.substr(1)};
  return {Outcome::failed, verdict.substr(1)};
}

int report() {
  const char* timeout_text = std::getenv("WB_STEP_TIMEOUT");
  const unsigned timeout = timeout_text ? static_cast<unsigned>(std::atoi(timeout_text)) : 300;
  std::printf("Steps, each in a process of its own, on the %s:\n", wb::backend_name());
  const ::testing::UnitTest& unit = *::testing::UnitTest::GetInstance();
  int passed = 0, total = 0;
  std::string first_name, first_message;
  for (int i = 0; i < unit.total_test_suite_count(); ++i) {
    const ::testing::TestSuite& suite = *unit.GetTestSuite(i);
    for (int j = 0; j < suite.total_test_count(); ++j) {
      const ::testing::TestInfo& test = *suite.GetTestInfo(j);
      const std::string name = std::string(suite.name()) + "." + test.name();
      const Outcome outcome = run_isolated(name, timeout);
      static const char* const words[] = {"passed", "FAILED", "SKIPPED", "FAILED"};
      const std::string title = step_title(test.name());
      std::printf("  %-44s %s\n", title.c_str(), words[outcome.status]);
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
  }
  std::printf("\n%d of %d steps pass.\n", passed, total);
  return passed == total && total > 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--wb-report") == 0) return report();
    if (std::strcmp(argv[i], "--wb-probe-gpu") == 0) {
      std::string reason;
      const bool present = wb::backend == wb::Backend::cuda && wb::gpu_available(&reason);
      if (present) std::printf("%s\n", wb::device_description().c_str());
      return present ? 0 : 1;
    }
  }
  return RUN_ALL_TESTS();
}
