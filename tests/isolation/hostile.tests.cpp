// hostile.tests.cpp: the hostile corpus. Each plugin is graded on the journey exercise through
// the runner; for each the test asserts that the host survives, the verdict names the cause,
// the next submission still grades, no process is left behind, nothing outside the runner's
// scratch folder changed, and the TCP listener saw no connection. It prints a summary table.
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iomanip>
#include <iostream>
#include <iterator>
#include <map>
#include <sstream>
#include <thread>

#include "core/exercises/exercise.hpp"
#include "core/exercises/problem_file.hpp"
#include "core/grading/grading.hpp"
#include "core/plugins/plugin_loader.hpp"
#include "core/plugins/subjects.hpp"
#include "core/plugins/variant_session.hpp"
#include "core/runner_client/runner_spawn.hpp"
#include "core/runner_client/runner_zygote.hpp"

using namespace awb;
namespace fs = std::filesystem;

namespace {

struct Case {
  std::string name;
  std::string confined = {};  // what the verdict must contain at level `confined`
  std::string limited = {};   // ... at `limited` (no Landlock); empty: same as confined
  double cpu = 2, wall = 10;
};

// Only Landlock stops a world-readable file being read, and a folder the uid may write being
// written, so those two expect less below `confined`.
const std::vector<Case> kCases = {
    {"good", "passed"},
    {"null_deref", "crashed: SIGSEGV"},
    {"stack_overflow", "crashed: SIGSEGV"},
    {"static_ctor_crash",
     "did not load: the plugin's runner failed while loading it: crashed: SIGSEGV"},
    {"abort", "crashed: SIGABRT"},
    {"terminate", "crashed: SIGABRT"},
    {"throw_across", "an exception escaped the plugin: thrown across the C boundary"},
    {"busy_loop", "CPU limit of 0.5 s exceeded", "", 0.5, 30},
    {"sleep", "wall-clock limit of 0.75 s exceeded", "", 10, 0.75},
    {"huge_allocation", "ran out of memory"},
    {"fork_bomb", "forbidden system call: clone"},
    {"setsid_double_fork", "forbidden system call: clone"},
    {"read_passwd", "cannot read /etc/passwd: Permission denied", "ESCAPED: read /etc/passwd"},
    {"write_results", "cannot write into the results folder: Permission denied", "results folder"},
    {"big_file", "wrote a file larger than 16 MB"},
    {"tcp_connect", "forbidden system call: socket"},
    {"system_exec", "forbidden system call"},
    {"stdout_flood", "printed more than 1024 KiB"},
    {"exit_without_result", "exited with status 0 without sending a result"},
    {"forged_frame", "forged frame"},
    {"fd_exhaustion", "out of file descriptors"},
    {"nan_output", "NaN vs"},
    {"wrong_shape", "NaN vs"},
    {"nondeterministic", "a second run on the same input gave different outputs"},
    // The backward pass travels through the runner too; each is a fault of the gradient check.
    {"backward_crash", "error backward: crashed: SIGSEGV"},
    {"backward_hang", "error backward: wall-clock limit of 0.75 s exceeded", "", 10, 0.75},
    {"backward_forged_frame", "error backward: a result frame did not answer the request"},
    {"backward_wrong_shape",
     "error backward: the backward result is malformed: dX has 15 values; the host shaped it "
     "6 x 3 (18)"},
    {"backward_nan", "dX[0][0]: got NaN vs expected"},
    {"backward_flood", "error backward: printed more than 1024 KiB"},
    // pause() is allowed: a runner that waits costs wall time only (it once spun on EPERM and
    // was reported as a CPU-limit breach).
    {"pause", "wall-clock limit of 0.75 s exceeded", "", 10, 0.75},
    // A runner has a session of its own, so no controlling terminal to push keystrokes into
    // (ENXIO); at `confined` Landlock refuses /dev/tty first.
    {"tiocsti", "cannot open the terminal: "},
    // Landlock (confined) or the read-only opens of the seccomp policy (limited) keep a runner
    // from writing awb's memory even where no user namespace stands between them.
    {"proc_mem", "cannot open awb's memory for writing: "},
    // The host reads a payload from the shared region only as far as the region reaches.
    {"region_frame", "a frame whose payload would lie past the shared region"},
    // No System V IPC above `process` (seccomp), so no channel between runners through it and
    // no IPC namespace needed; at `process` a private IPC namespace holds what it makes.
    {"sysv_shm", "cannot make System V shared memory: Operation not permitted"},
    // Signal-driven I/O would have the kernel send awb SIGKILL (or SIGIO) when it reads the
    // result: the owner, the signal and O_ASYNC are each refused, by fcntl or ioctl.
    {"fcntl_setown", "forbidden system call: fcntl F_SETOWN (a signal's target)"},
    {"fcntl_setown_ex", "forbidden system call: fcntl F_SETOWN_EX (a signal's target)"},
    {"fcntl_setsig", "forbidden system call: fcntl F_SETSIG (signal-driven I/O)"},
    {"fcntl_async", "forbidden system call: fcntl F_SETFL O_ASYNC (signal-driven I/O)"},
    {"ioctl_setown", "cannot aim a signal at awb: Inappropriate ioctl for device"},
    // A descriptor string with no NUL before unreadable memory: read with care, a descriptor
    // error (it was "crashed: SIGSEGV" in the runner, whose scan ran off the mapping).
    {"unterminated_name",
     "did not load: variant #1 name is not a string: not readable up to a NUL within "
     "4096 bytes"},
};

const core::Exercise& journey() {
  static const core::ExerciseSet set = core::load_exercises({AWB_TEST_EXERCISE_DIR});
  for (const auto& e : set.exercises)
    if (e.id == "journey") return e;
  throw std::runtime_error("no journey exercise");
}

fs::path plugin_file(const std::string& name) {
  return fs::path(AWB_TEST_HOSTILE_DIR) / ("hostile_" + name + ".so");
}

struct Outcome {
  std::string level = "-";
  std::string verdict;  // one line for the table
  std::string text;     // everything not passed, for matching
  bool full_marks = false;
};

// The journey exercise, as the case `name` is graded on: tcp_connect's plugin reads the port to
// attack from its first input value (its sandbox leaves it no other way to learn one).
core::Exercise journey_for(const std::string& name, int port) {
  core::Exercise e = journey();
  if (name == "tcp_connect")
    for (auto& c : e.cases) c.x(0, 0) = port;
  return e;
}

Outcome grade_case(const std::string& name, double cpu, double wall, int port = 0) {
  Outcome out;
  core::LoadPolicy policy;
  policy.runner.limits.cpu_seconds = cpu;
  policy.runner.limits.wall_seconds = wall;
  const core::Catalog cat = core::load_catalog({plugin_file(name)}, policy);
  if (!cat.failures.empty()) {
    out.verdict = "did not load: " + cat.failures[0].message;
    out.text = out.verdict;
    return out;
  }
  core::GradeOptions go;
  go.limits.cpu_seconds = cpu;
  go.limits.wall_seconds = wall;
  const auto& p = cat.plugins.at(0);
  const core::Exercise exercise = journey_for(name, port);
  const grade::GradeReport r = core::grade_variant({&p, &p.variants.at(0)}, {&exercise}, go);
  const auto& ex = r.exercises.at(0);
  out.level = ex.provenance.lockdown;
  out.full_marks = ex.not_gradable.empty() && ex.score == ex.max_score;
  if (!ex.not_gradable.empty()) out.text = out.verdict = "not gradable: " + ex.not_gradable;
  for (const auto& c : ex.checks) {
    if (c.status == grade::Status::kPassed || c.status == grade::Status::kNotRun) continue;
    const std::string line =
        std::string(grade::to_string(c.status)) + " " + c.id + ": " + c.summary;
    if (out.verdict.empty()) out.verdict = line;
    out.text += line + "\n" + c.details + "\n";
  }
  if (out.verdict.empty()) out.verdict = out.text = "passed";
  return out;
}

// This process's children, zombies included, as /proc/PID/status names them.
struct Child {
  pid_t pid = 0;
  std::string name;
  char state = 0;
  long uid = -1;
};
std::vector<Child> children() {
  std::vector<Child> out;
  for (const auto& entry : fs::directory_iterator("/proc")) {
    const std::string pid = entry.path().filename();
    if (pid.empty() || pid.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream status(entry.path() / "status");
    std::string line;
    Child c;
    long ppid = -1;
    while (std::getline(status, line)) {
      std::istringstream is(line);
      std::string key;
      is >> key;
      if (key == "Name:") is >> c.name;
      if (key == "State:") is >> c.state;
      if (key == "PPid:") is >> ppid;
      if (key == "Uid:") is >> c.uid;
    }
    c.pid = static_cast<pid_t>(std::stol(pid));
    if (ppid == ::getpid()) out.push_back(std::move(c));
  }
  return out;
}

// Processes the corpus could have left: awb is the subreaper of everything its runners start, so
// anything left behind is a child of this process (the zygote, which lasts, aside). (Other tests
// may run runners meanwhile.)
std::vector<std::string> leftovers() {
  std::vector<std::string> out;
  for (const Child& c : children())
    if (c.pid != core::zygote_pid() && c.pid != core::zygote_spare_pid())
      out.push_back(std::to_string(c.pid) + " " + c.name + " uid " + std::to_string(c.uid));
  return out;
}

std::vector<std::string> scratch_folders() {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(fs::temp_directory_path()))
    if (e.path().filename().string().starts_with("awb-runner-")) out.push_back(e.path());
  return out;
}

// Every file in `dir` with its size and modification time, as lines (readable when they differ).
std::string snapshot(const fs::path& dir) {
  std::map<std::string, std::string> out;
  for (const auto& e : fs::directory_iterator(dir)) {
    std::error_code ec;
    const auto t = fs::last_write_time(e.path(), ec).time_since_epoch().count();
    if (e.is_regular_file())
      out[e.path().filename()] = std::to_string(e.file_size()) + " bytes @" + std::to_string(t);
  }
  std::string text;
  for (const auto& [name, what] : out) text += name + " " + what + "\n";
  return text;
}

// A TCP listener on 127.0.0.1, on a port the kernel picks (two checkouts testing at once never
// clash). The tcp_connect plugin learns it from its input (journey_for()).
struct Listener {
  int fd = -1;
  int port = 0;
  Listener() {
    fd = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = 0;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t size = sizeof a;
    if (::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 || ::listen(fd, 16) != 0 ||
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &size) != 0)
      throw std::runtime_error(std::string("cannot listen on 127.0.0.1: ") + std::strerror(errno));
    port = ntohs(a.sin_port);
  }
  ~Listener() { ::close(fd); }
  bool connected() const {
    const int c = ::accept(fd, nullptr, nullptr);
    if (c >= 0) ::close(c);
    return c >= 0;
  }
};

std::string& saved_tmpdir() {
  static std::string value;
  return value;
}

}  // namespace

TEST_CASE("hostile plugins are stopped, named, and leave nothing behind", "[isolation]") {
  // A temporary folder of our own, so the runners' scratch folders are ours to count.
  static const std::string tmp = [] {
    if (const char* before = std::getenv("TMPDIR")) saved_tmpdir() = before;
    std::string t = (fs::temp_directory_path() / "awb-hostile-XXXXXX").string();
    if (!::mkdtemp(t.data())) throw std::runtime_error("mkdtemp");
    fs::permissions(t, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                           fs::perms::others_read | fs::perms::others_exec);
    ::setenv("TMPDIR", t.c_str(), 1);
    return t;
  }();
  fs::create_directories(AWB_TEST_HOSTILE_WATCH);
  const auto watched_before = snapshot(AWB_TEST_HOSTILE_WATCH);
  const auto plugins_before = snapshot(AWB_TEST_HOSTILE_DIR);
  const auto scratch_before = scratch_folders();
  Listener listener;
  static std::ostringstream table;  // one section per run of this test case: kept across runs
  if (table.str().empty())
    table << std::left << std::setw(22) << "case" << std::setw(10) << "level" << std::setw(8)
          << "time"
          << "verdict\n";
  for (const Case& c : kCases) {
    DYNAMIC_SECTION(c.name) {
      const auto t0 = std::chrono::steady_clock::now();
      const Outcome o = grade_case(c.name, c.cpu, c.wall, listener.port);
      const double secs =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      std::string shown = o.verdict.substr(0, o.verdict.find('\n'));
      if (shown.size() > 110) shown = shown.substr(0, 107) + "...";
      table << std::setw(22) << c.name << std::setw(10) << o.level << std::setw(8)
            << (std::to_string(secs).substr(0, 4) + "s") << shown << '\n';
      INFO("verdict: " << o.text);
      const bool confined = o.level == "confined" || o.level == "-";
      const std::string& expected = confined || c.limited.empty() ? c.confined : c.limited;
      CHECK(o.text.find(expected) != std::string::npos);
      CHECK((c.name == "good") == o.full_marks);
      // The next submission still grades.
      CHECK(grade_case("good", 10, 30).full_marks);
      CHECK(leftovers().empty());
      CHECK(scratch_folders() == scratch_before);
      if (confined) CHECK(snapshot(AWB_TEST_HOSTILE_WATCH) == watched_before);
      CHECK(snapshot(AWB_TEST_HOSTILE_DIR) == plugins_before);
      CHECK_FALSE(listener.connected());
      if (&c == &kCases.back()) {
        std::error_code ec;
        fs::remove_all(tmp, ec);
        if (saved_tmpdir().empty())
          ::unsetenv("TMPDIR");
        else
          ::setenv("TMPDIR", saved_tmpdir().c_str(), 1);
        std::cout << "\nHostile corpus (run as uid " << ::getuid() << "):\n"
                  << table.str() << std::flush;
      }
    }
  }
}

TEST_CASE("a limit met costs the limit once, not once per check", "[isolation]") {
  // The session once gave a plugin a second chance after a timeout: the next check started a
  // new runner and waited the limit again, so a 2 s wall-clock limit took over 4 s to grade.
  const double wall = 2;
  const auto t0 = std::chrono::steady_clock::now();
  const Outcome o = grade_case("sleep", 10, wall);
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  CHECK_THAT(o.text, Catch::Contains("wall-clock limit of 2 s exceeded"));
  CHECK_THAT(o.text, Catch::Contains("later runs in this session are not tried"));
  CHECK(secs < 1.75 * wall);
}

TEST_CASE("a runner below the minimum isolation loads nothing of the plugin", "[isolation]") {
  // The level was announced in the hello, after dlopen and the entry call: a plugin's static
  // constructor had run before --min-isolation refused the runner.
  core::LoadPolicy policy;
  policy.runner.level = runner::Isolation::kProcess;
  policy.runner.minimum = runner::Isolation::kLimited;
  const core::Catalog cat = core::load_catalog({plugin_file("static_ctor_crash")}, policy);
  REQUIRE(cat.failures.size() == 1);
  CHECK_THAT(cat.failures[0].message,
             Catch::Contains("the runner reached isolation 'process', below the required "
                             "'limited': the plugin was not loaded"));
  CHECK_THAT(cat.failures[0].message, !Catch::Contains("crashed"));
  // A session refuses the same way, with its own id.
  const core::Catalog good = core::load_catalog({plugin_file("good")});
  REQUIRE(good.failures.empty());
  core::SessionOptions so;
  so.runner.level = runner::Isolation::kProcess;
  so.minimum = runner::Isolation::kLimited;
  const auto& p = good.plugins.at(0);
  try {
    core::open_session({&p, &p.variants.at(0)}, so);
    FAIL("a runner below the minimum was used");
  } catch (const Error& e) {
    CHECK(e.id() == "runner.isolation");
    CHECK_THAT(e.message(), Catch::Contains("the plugin was not loaded"));
  }
  CHECK(leftovers().empty());
}

TEST_CASE("a runner outlives the thread that started it", "[isolation]") {
  // The parent-death signal follows the spawning thread; a GUI job thread that ends must not
  // take its warm runner with it.
  const core::Catalog cat = core::load_catalog({plugin_file("good")});
  REQUIRE(cat.failures.empty());
  const auto& p = cat.plugins.at(0);
  std::unique_ptr<core::VariantSession> session;
  pid_t starter = 0;
  std::thread([&] {
    starter = ::gettid();
    session = core::open_session({&p, &p.variants.at(0)}, {});
  }).join();
  REQUIRE(session);
  CHECK(session->isolation() != runner::Isolation::kInProcess);
  // join() returns once the thread's id is cleared, a little before its exit sends any
  // parent-death signal; its /proc entry goes after that signal would have gone.
  const fs::path task = "/proc/self/task/" + std::to_string(starter);
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (fs::exists(task) && std::chrono::steady_clock::now() < give_up) std::this_thread::yield();
  REQUIRE_FALSE(fs::exists(task));
  const ProblemSpec journey = core::without_weights(core::example_problem("journey"));
  CHECK_NOTHROW(core::run_forward(session->as_raw(), journey, {}));
  CHECK_NOTHROW(session->finish());
}

TEST_CASE("a runner that dies while loading is reported at once, without spinning", "[isolation]") {
  // The host once kept its copies of the runner's ends of the pipes until the hello, so a runner
  // that crashed while loading never gave EOF: the host drained its output until a 1 s deadline,
  // and spun the CPU all that while on the reaped runner's pidfd, which polls ready for ever.
  auto thread_cpu = [] {
    timespec ts{};
    ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
  };
  core::load_catalog({plugin_file("good")});  // the zygote is started outside the measurement
  const double cpu0 = thread_cpu();
  const auto t0 = std::chrono::steady_clock::now();
  const core::Catalog cat = core::load_catalog({plugin_file("static_ctor_crash")});
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const double cpu = thread_cpu() - cpu0;
  REQUIRE(cat.failures.size() == 1);
  CHECK_THAT(cat.failures[0].message, Catch::Contains("crashed: SIGSEGV"));
  CHECK(wall < 0.9);  // the drain's deadline was 1 s
  CHECK(cpu < 0.3);   // the spin cost about as much CPU as wall time
}

namespace {

// This process's live children whose command line holds `word`, but the zygote's spare (whose
// command line is the zygote's).
std::vector<pid_t> children_running(const std::string& word) {
  std::vector<pid_t> out;
  for (const Child& c : children()) {
    if (c.pid == core::zygote_spare_pid()) continue;
    std::ifstream cmd("/proc/" + std::to_string(c.pid) + "/cmdline");
    const std::string cmdline((std::istreambuf_iterator<char>(cmd)), {});
    if (c.state != 'Z' && cmdline.find(word) != std::string::npos) out.push_back(c.pid);
  }
  return out;
}

// Sessions on the corpus's good plugin: each starts a runner, runs the journey forward and
// finishes; `opened` runs before the forward and `answered` after it, while the runner lives.
class GoodSessions {
 public:
  GoodSessions() { REQUIRE(catalog_.failures.empty()); }
  void run_one(const std::function<void()>& opened = {},
               const std::function<void()>& answered = {}) const {
    const core::PluginDesc& p = catalog_.plugins.at(0);
    auto session = core::open_session({&p, &p.variants.at(0)}, {});
    CHECK(session->isolation() != runner::Isolation::kInProcess);
    if (opened) opened();
    CHECK_NOTHROW(core::run_forward(session->as_raw(), journey_, {}));
    if (answered) answered();
    CHECK_NOTHROW(session->finish());
  }

 private:
  const core::Catalog catalog_ = core::load_catalog({plugin_file("good")});
  const ProblemSpec journey_ = core::without_weights(core::example_problem("journey"));
};

}  // namespace

TEST_CASE(
    "runners come from one zygote as this process's children, and a killed zygote is replaced",
    "[isolation]") {
  const GoodSessions good;
  auto run_one = [&] {
    // While it runs, the runner is our child (not the zygote's): we wait for it and read its
    // CPU clock, and its parent-death signal names us. (One from the zygote was never exec'd:
    // its command line is the zygote's.)
    size_t during = 0;
    good.run_one({}, [&] { during = children_running("awb-runner").size(); });
    CHECK(children_running("awb-runner").size() + 1 == during);
  };
  run_one();
  run_one();
  // The zygote keeps a child forked ahead of the next request (its spare, ours as well), and the
  // next runner is that child: it has the plugin loaded. The zygote forks a new spare once that
  // runner has answered its first request, not while it loads.
  const pid_t spare = core::zygote_spare_pid();
  REQUIRE(spare > 0);
  good.run_one([] { CHECK(core::zygote_spare_pid() == -1); },
               [spare] {
                 CHECK(core::zygote_spare_pid() > 0);
                 CHECK(core::zygote_spare_pid() != spare);
                 std::ifstream maps("/proc/" + std::to_string(spare) + "/maps");
                 const std::string mapped((std::istreambuf_iterator<char>(maps)), {});
                 CHECK(mapped.find(plugin_file("good").filename().string()) != std::string::npos);
               });
  // A spare that died is replaced: the zygote forks that runner itself, and a new spare.
  const pid_t next = core::zygote_spare_pid();
  REQUIRE(next > 0);
  REQUIRE(::kill(next, SIGKILL) == 0);
  auto gone = [next] {  // a zombie: its descriptors are closed
    std::ifstream stat("/proc/" + std::to_string(next) + "/stat");
    std::string line;
    std::getline(stat, line);
    return line.find(") Z ") != std::string::npos;
  };
  for (int i = 0; i < 200 && !gone(); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  REQUIRE(gone());
  run_one();
  CHECK(core::zygote_spare_pid() > 0);
  CHECK(core::zygote_spare_pid() != next);
  CHECK(leftovers().empty());
  const std::vector<pid_t> zygotes = children_running("--zygote");
  REQUIRE(zygotes.size() == 1);
  REQUIRE(::kill(zygotes[0], SIGKILL) == 0);
  // The next runner is still the spare the dead zygote made (its socket is ours), and asking for
  // the spare after it finds the zygote gone; the runner after that comes from a new zygote.
  // Both run as before.
  run_one();
  run_one();
  const std::vector<pid_t> after = children_running("--zygote");
  REQUIRE(after.size() == 1);
  CHECK(after[0] != zygotes[0]);
}

// The bug this catches: a spare the zygote forks while awb is not looking is awb's child before
// awb reads its pid, and an orphan scan then (one runs whenever a runner below `limited` ends, on
// any thread) took it for an escaped descendant and killed it, sometimes just after another
// thread had handed it a request: that runner "crashed: SIGKILL" while loading.
TEST_CASE("an orphan scan leaves the zygote's spare alive, though awb has not read its pid yet",
          "[isolation]") {
  const GoodSessions good;
  good.run_one();  // asks the zygote for the next spare, and does not wait for the answer
  // Until the zygote has forked it: a second child of ours with the zygote's command line.
  auto unseen_spare = [] {
    for (const Child& c : children()) {
      std::ifstream cmd("/proc/" + std::to_string(c.pid) + "/cmdline");
      const std::string cmdline((std::istreambuf_iterator<char>(cmd)), {});
      if (c.pid != core::zygote_pid() && c.state != 'Z' &&
          cmdline.find("--zygote") != std::string::npos)
        return c.pid;
    }
    return pid_t{-1};
  };
  pid_t spare = -1;
  for (int i = 0; i < 500 && (spare = unseen_spare()) < 0; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  REQUIRE(spare > 0);
  core::reap_orphans();
  CHECK(::kill(spare, 0) == 0);
  CHECK(unseen_spare() == spare);
  CHECK(core::zygote_spare_pid() == spare);
  good.run_one();  // the spare takes it
  CHECK(core::zygote_spare_pid() != spare);
  CHECK(leftovers().empty());
}

TEST_CASE("a backward fault spoils only its own call, the session's next call runs as usual",
          "[isolation]") {
  const ProblemSpec problem = core::without_weights(core::example_problem("journey"));
  BackwardSeed up;
  up.dz = Matrix(problem.tokens_count(), problem.d_out());
  for (auto& v : up.dz.data) v = 0.5;
  const std::pair<const char*, const char*> cases[] = {
      {"backward_crash", "runner.crashed"},
      {"backward_forged_frame", "runner.malformed_result"},
      {"backward_wrong_shape", "runner.malformed_result"},
      {"backward_flood", "runner.output_limit"},
      {"backward_nan", ""},  // NaN gradients are data: the call succeeds, the check judges
  };
  for (const auto& [name, fault] : cases) {
    DYNAMIC_SECTION(name) {
      const core::Catalog cat = core::load_catalog({plugin_file(name)});
      REQUIRE(cat.failures.empty());
      const auto& p = cat.plugins.at(0);
      CHECK(p.variants.at(0).trainable);  // the describing runner said so
      core::VariantSubject subject({&p, &p.variants.at(0)}, {});
      REQUIRE_FALSE(subject.cannot_backward());
      std::string id;
      try {
        const LayerGradients g = subject.backward(problem, up, Scalar::kF64);
        CHECK(std::isnan(g.dx(0, 0)));
      } catch (const Error& e) {
        id = e.id();
        INFO(e.message());
      }
      CHECK(id == fault);
      CHECK_NOTHROW(core::run_forward(subject.session().as_raw(), problem, {}));
      CHECK_NOTHROW(subject.session().finish());
      CHECK(leftovers().empty());
    }
  }
}
