// runner_client.tests.cpp: the host's side of awb-runner: a runner that cannot get its pipes
// leaves no descriptor behind, its command line, how each way a runner ends becomes a verdict,
// and large tensors through the shared region.
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "core/base/temp_folder.hpp"
#include "core/plugins/backward.hpp"
#include "core/plugins/variant_session.hpp"
#include "core/runner_client/runner_fault.hpp"
#include "core/runner_client/runner_process.hpp"
#include "core/runner_client/runner_spawn.hpp"
#include "core/runner_client/unique_fd.hpp"
#include "graders/model/error.hpp"
#include "runner/command_line.hpp"
#include "runner/zygote_wire.hpp"
#include "support/scratch.hpp"
#include "support/test_support.hpp"

using namespace awb;
namespace fs = std::filesystem;

namespace {

std::set<std::string> open_fds() {
  std::set<std::string> fds;
  for (const auto& entry : fs::directory_iterator("/proc/self/fd"))
    fds.insert(entry.path().filename().string());
  return fds;
}

// Lowers this process's descriptor limit for one scope so that exactly `room` more fit.
class FdRoom {
 public:
  explicit FdRoom(int room) {
    ::getrlimit(RLIMIT_NOFILE, &saved_);
    int free_seen = 0, limit = 0;
    for (int fd = 0; free_seen < room; ++fd)
      if (::fcntl(fd, F_GETFD) == -1 && errno == EBADF && ++free_seen == room) limit = fd + 1;
    rlimit lowered = saved_;
    lowered.rlim_cur = static_cast<rlim_t>(limit);
    ::setrlimit(RLIMIT_NOFILE, &lowered);
  }
  ~FdRoom() { ::setrlimit(RLIMIT_NOFILE, &saved_); }
  FdRoom(const FdRoom&) = delete;
  FdRoom& operator=(const FdRoom&) = delete;

 private:
  rlimit saved_{};
};

}  // namespace

TEST_CASE("a runner whose later pipe cannot be made leaves no descriptor open", "[runner]") {
  const std::set<std::string> before = open_fds();
  core::RunnerOptions options;
  options.level = runner::Isolation::kProcess;
  for (int room : {2, 4, 6, 8}) {  // one pipe fits, two, three; all four but no copy of an end
    CAPTURE(room);
    std::string id, message;
    {
      FdRoom only(room);
      try {
        core::RunnerProcess process("no-such-plugin.so", options);
      } catch (const Error& e) {
        id = e.id();
        message = e.message();
      }
    }
    CHECK(id == "runner.spawn_failed");
    CHECK_THAT(message, Catch::StartsWith("pipe: "));
    CHECK(open_fds() == before);
  }
}

TEST_CASE("a unique fd closes what it owns and hands it over on a move", "[runner]") {
  int raw[2];
  REQUIRE(::pipe(raw) == 0);
  core::UniqueFd kept(raw[1]);
  {
    core::UniqueFd read_end(raw[0]);
    core::UniqueFd moved = std::move(read_end);
    CHECK_FALSE(read_end.valid());
    CHECK(moved.get() == raw[0]);
  }
  CHECK(::fcntl(raw[0], F_GETFD) == -1);  // closed once, by its last owner
  CHECK(::fcntl(kept.get(), F_GETFD) != -1);
  kept.reset();
  CHECK(::fcntl(raw[1], F_GETFD) == -1);
}

TEST_CASE("the runner's command line names every option the runner reads", "[runner]") {
  core::RunnerOptions options;
  options.level = runner::Isolation::kLimited;
  options.limits.cpu_seconds = 2;
  options.limits.file_mb = 3;
  options.limits.open_files = 40;
  const std::vector<std::string> args = core::runner_arguments("p.so", "/scratch", options);
  REQUIRE(args.size() % 2 == 1);  // the program, then option and value pairs
  CHECK(args[0] == core::runner_executable().string());
  auto value_of = [&](const char* option) -> std::string {
    for (size_t i = 1; i + 1 < args.size(); i += 2)
      if (args[i] == option) return args[i + 1];
    return "(absent)";
  };
  namespace option = runner::option;
  CHECK(fs::path(value_of(option::kPlugin)).filename() == "p.so");
  CHECK(value_of(option::kScratch) == "/scratch");
  CHECK(value_of(option::kLevel) == "limited");
  CHECK(value_of(option::kParent) == std::to_string(::getpid()));
  CHECK(std::stod(value_of(option::kCpuSeconds)) == core::session_cpu_seconds(options.limits));
  CHECK(value_of(option::kFileMb) == "3");
  CHECK(value_of(option::kOpenFiles) == "40");
  CHECK(value_of(option::kMemoryMb) != "(absent)");
}

TEST_CASE("how a runner ended becomes a verdict", "[runner]") {
  const core::RunnerLimits lim;  // CPU 10 s a request: the session's backstop is 200 s
  auto verdict = [&](int status, double cpu, const std::string& err) {
    const core::FaultVerdict v = core::classify_exit(status, cpu, err, lim);
    return std::string(core::error_id(v.fault)) + " " + v.reason;
  };
  CHECK(verdict(W_EXITCODE(2, 0), 0, "") ==
        "runner.no_result exited with status 2 without sending a result");
  CHECK(verdict(W_EXITCODE(0, SIGSYS), 0, "hi\nawb-runner: forbidden system call: socket\n") ==
        "runner.forbidden_syscall used a forbidden system call: socket");
  CHECK(verdict(W_EXITCODE(0, SIGSYS), 0, "") ==
        "runner.forbidden_syscall used a forbidden system call");
  CHECK(verdict(W_EXITCODE(0, SIGXCPU), 201, "") ==
        "runner.cpu_limit CPU limit of the session exceeded (201 s)");
  CHECK(verdict(W_EXITCODE(0, SIGKILL), 201, "") ==
        "runner.cpu_limit CPU limit of the session exceeded (201 s)");
  CHECK(verdict(W_EXITCODE(0, SIGKILL), 1, "") == "runner.crashed crashed: SIGKILL (Killed)");
  CHECK(verdict(W_EXITCODE(0, SIGXFSZ), 0, "") ==
        "runner.file_limit wrote a file larger than 16 MB");
  CHECK(verdict(W_EXITCODE(0, SIGABRT), 0, "terminate: std::bad_alloc\n") ==
        "runner.memory_limit ran out of memory (1024 MB address space) and died of SIGABRT "
        "(Aborted)");
  CHECK(verdict(W_EXITCODE(0, SIGSEGV), 0, "") ==
        "runner.crashed crashed: SIGSEGV (Segmentation fault)");
}

TEST_CASE("a verdict ends with the last lines the plugin printed", "[runner]") {
  CHECK(core::output_excerpt("", "") == "");
  CHECK(core::output_excerpt("out\n", "") == "\n--- the end of its output ---\nout");
  CHECK(core::output_excerpt("out", "1\n2\n3\n4\n") ==
        "\n--- the end of its output ---\n...2\n3\n4");
  // The runner's own verdict line is the verdict's business, not the excerpt's.
  CHECK(core::output_excerpt("", "err\nawb-runner: forbidden system call: socket\n") ==
        "\n--- the end of its output ---\nerr");
}

TEST_CASE("a zygote request survives the trip and a malformed one is refused", "[runner]") {
  const runner::ZygoteRequest request{{"/usr/bin/awb-runner", "--plugin", "/p/x.so", ""},
                                      {"PATH=/usr/bin:/bin", "AWB_KERNEL_ISA=avx2"},
                                      {1, 2, 3, 4}};
  const auto bytes = runner::encode(request);
  REQUIRE(bytes);
  const auto back = runner::decode_zygote_request(bytes->data(), bytes->size());
  REQUIRE(back);
  CHECK(back->args == request.args);
  CHECK(back->env == request.env);
  CHECK(back->targets == request.targets);
  // Every cut short is refused, and so are bytes left over.
  for (size_t n = 0; n < bytes->size(); ++n)
    CHECK_FALSE(runner::decode_zygote_request(bytes->data(), n));
  std::vector<uint8_t> longer = *bytes;
  longer.push_back(0);
  CHECK_FALSE(runner::decode_zygote_request(longer.data(), longer.size()));
  // No argv, a negative descriptor number, more descriptors than one message carries.
  const auto no_argv = runner::encode(runner::ZygoteRequest{{}, {}, {}});
  REQUIRE(no_argv);
  CHECK_FALSE(runner::decode_zygote_request(no_argv->data(), no_argv->size()));
  const auto negative = runner::encode(runner::ZygoteRequest{{"x"}, {}, {-1}});
  REQUIRE(negative);
  CHECK_FALSE(runner::decode_zygote_request(negative->data(), negative->size()));
  CHECK_FALSE(runner::encode(
      runner::ZygoteRequest{{"x"}, {}, std::vector<int>(runner::kMaxZygoteDescriptors + 1, 5)}));
  CHECK_FALSE(
      runner::encode(runner::ZygoteRequest{{std::string(runner::kMaxZygoteRequest, 'a')}, {}, {}}));
}

TEST_CASE("descriptors travel with a zygote message, in order", "[runner]") {
  int sv[2];
  REQUIRE(::socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) == 0);
  core::UniqueFd a(sv[0]), b(sv[1]);
  int p1[2], p2[2];
  REQUIRE(::pipe2(p1, O_CLOEXEC) == 0);
  REQUIRE(::pipe2(p2, O_CLOEXEC) == 0);
  core::UniqueFd r1(p1[0]), w1(p1[1]), r2(p2[0]), w2(p2[1]);
  REQUIRE(runner::send_with_descriptors(a.get(), {7, 8, 9}, {w1.get(), w2.get()}));
  std::vector<uint8_t> bytes;
  std::vector<int> fds;
  REQUIRE(runner::receive_with_descriptors(b.get(), bytes, fds) == 3);
  CHECK(bytes == std::vector<uint8_t>{7, 8, 9});
  REQUIRE(fds.size() == 2);
  core::UniqueFd got1(fds[0]), got2(fds[1]);
  CHECK((::fcntl(got1.get(), F_GETFD) & FD_CLOEXEC) != 0);
  // The first received descriptor is the first pipe's write end, the second the second's.
  REQUIRE(::write(got1.get(), "1", 1) == 1);
  REQUIRE(::write(got2.get(), "2", 1) == 1);
  char c1 = 0, c2 = 0;
  REQUIRE(::read(r1.get(), &c1, 1) == 1);
  REQUIRE(::read(r2.get(), &c2, 1) == 1);
  CHECK(c1 == '1');
  CHECK(c2 == '2');
  a.reset();
  CHECK(runner::receive_with_descriptors(b.get(), bytes, fds) == 0);  // the other end closed
}

// Through a runner, with and without the shared region (AWB_RUNNER_REGION=off), a problem whose
// A and S (and, backward, dA) are larger than a pipe: the same bits both ways, and the same
// values as the plugin gives in-process.
TEST_CASE("large tensors cross the shared region exactly as they cross the pipes", "[runner]") {
  const fs::path dir = test::scratch("region");
  fs::copy_file(fs::path(AWB_TEST_PLUGIN_DIR) / "awb_parameter_free.so",
                dir / "parameter_free_copy.so");
  const core::Catalog untrusted = core::load_catalog({dir});
  const core::VariantRef ref = core::find_variant(untrusted, "parameter-free");
  REQUIRE(ref.plugin->library == nullptr);  // outside the bundled folder: a runner's
  std::mt19937_64 rng(11);
  const ProblemSpec problem = test::random_problem(rng, 160, 8, 1, 8, false, false);
  std::uniform_real_distribution<double> uniform(-1, 1);
  auto random_matrix = [&](int64_t r, int64_t c) {
    Matrix m(r, c);
    for (double& v : m.data) v = uniform(rng);
    return m;
  };
  BackwardSeed seed;
  seed.dz = random_matrix(160, 8);
  seed.da.push_back(random_matrix(160, 160));  // 160 × 160 doubles: 200 KiB, past a pipe's 64

  struct Run {
    ForwardResult forward;
    LayerGradients grads;
  };
  auto run = [&](bool region) {
    if (!region) ::setenv("AWB_RUNNER_REGION", "off", 1);
    auto session = core::open_session(ref, {});
    ::unsetenv("AWB_RUNNER_REGION");
    Run r;
    r.forward = core::run_forward(session->as_raw(), problem, {});
    r.grads = core::run_backward(session->backward_raw(), problem, r.forward, seed, Scalar::kF64);
    session->finish();
    return r;
  };
  const Run shared = run(true), piped = run(false);
  REQUIRE(shared.forward.weights.size() == 1);
  CHECK(shared.forward.z.data == piped.forward.z.data);
  CHECK(shared.forward.weights[0].data == piped.forward.weights[0].data);
  CHECK(shared.forward.scores[0].data == piped.forward.scores[0].data);
  CHECK(shared.grads.dx.data == piped.grads.dx.data);
  const ForwardResult here = test::run_variant(
      core::find_variant(test::bundled_catalog(), "parameter-free"), problem, Scalar::kF64);
  CHECK(test::compare_f64(shared.forward, here).empty());
}

// An awb killed outright (SIGKILL, a cluster's time limit) cannot remove its runners' scratch
// folders (nor its builds' work folders, base/temp_folder.hpp alike); the next awb removes those
// whose process is gone, and only those.
TEST_CASE("scratch folders of an awb that is gone are removed, no others", "[runner]") {
  const fs::path dir = test::scratch("stale-scratch");
  const pid_t gone = ::fork();
  if (gone == 0) ::_exit(0);
  REQUIRE(gone > 0);
  REQUIRE(::waitpid(gone, nullptr, 0) == gone);  // reaped: no process has this pid now
  // The namespace part of the name, as this process writes it.
  const std::string prefix = core::kScratchPrefix;
  const fs::path made = core::make_scratch_folder();
  const std::string name = made.filename().string();
  const std::string ns =
      name.substr(0, name.rfind('-')).substr(prefix.size() + std::to_string(::getpid()).size() + 1);
  fs::remove(made);
  auto folder = [&](const std::string& pid, const std::string& space, const std::string& tail) {
    return dir / (prefix + pid + "-" + space + "-" + tail);
  };
  const fs::path stale = folder(std::to_string(gone), ns, "Ab12Cd");
  const fs::path mine = folder(std::to_string(::getpid()), ns, "Ef34Gh");
  const fs::path init = folder("1", ns, "Ij56Kl");  // a live process (not ours to judge)
  const fs::path other_ns = folder(std::to_string(gone), ns + "0", "Mn78Op");  // a container's
  const fs::path old_style = dir / (prefix + "Qr90St");                        // no pid
  const fs::path odd = folder(std::to_string(gone), ns, "toolongname");
  for (const fs::path& p : {stale, mine, init, other_ns, old_style, odd})
    fs::create_directories(p / "sub");
  { std::ofstream(stale / "sub" / "left.txt") << "x"; }
  const fs::path file = folder(std::to_string(gone), ns, "Uv12Wx");  // a file, not a folder
  { std::ofstream(file) << "x"; }

  core::remove_stale_temp_folders(dir, prefix);
  CHECK_FALSE(fs::exists(stale));
  for (const fs::path& p : {mine, init, other_ns, old_style, odd, file}) CHECK(fs::exists(p));
}

// As root the runners and builds run as a sandbox uid, and what they leave in their folders is
// that uid's: the next awb removes it all the same, without following a link out of the folder.
TEST_CASE("as root, a gone awb's folders are removed whoever owns them, no link followed",
          "[runner]") {
  if (::geteuid() != 0) {
    WARN("not run: needs root (the sandbox uid is only given as root)");
    return;
  }
  const fs::path dir = test::scratch("stale-scratch-root");
  const fs::path outside = test::scratch("stale-scratch-outside");
  { std::ofstream(outside / "keep.txt") << "keep"; }
  const pid_t gone = ::fork();
  if (gone == 0) ::_exit(0);
  REQUIRE(gone > 0);
  REQUIRE(::waitpid(gone, nullptr, 0) == gone);
  const std::string prefix = "awb-build-";
  const fs::path made = core::make_temp_folder(prefix).value();
  const std::string name = made.filename().string();
  const std::string ns =
      name.substr(0, name.rfind('-')).substr(prefix.size() + std::to_string(::getpid()).size() + 1);
  fs::remove(made);
  const uid_t sandbox = 1'500'042;  // of the sandbox uids (runner_spawn.cpp, next_sandbox_uid)
  const fs::path stale = dir / (prefix + std::to_string(gone) + "-" + ns + "-Ab12Cd");
  fs::create_directories(stale / "cmake" / "deep");
  { std::ofstream(stale / "cmake" / "deep" / "left.o") << "x"; }
  fs::create_directory_symlink(outside, stale / "cmake" / "out");  // a link out: unlinked only
  for (const fs::path& p :
       {stale, stale / "cmake", stale / "cmake" / "deep", stale / "cmake" / "deep" / "left.o"})
    REQUIRE(::lchown(p.c_str(), sandbox, sandbox) == 0);
  ::chmod((stale / "cmake").c_str(), 0500);  // not even writable by its owner
  // A link named like a stale folder is not a folder of awb's: it stays, and so does its target.
  const fs::path link = dir / (prefix + std::to_string(gone) + "-" + ns + "-Ef34Gh");
  fs::create_directory_symlink(outside, link);

  core::remove_stale_temp_folders(dir, prefix);
  CHECK_FALSE(fs::exists(fs::symlink_status(stale)));
  CHECK(fs::is_symlink(link));
  CHECK(fs::exists(outside / "keep.txt"));
}
