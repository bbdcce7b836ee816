// cmd_build.cpp: `awb build SUBMISSION`: builds a source submission in the build sandbox, as
// `awb grade --batch` would, and says where its plugins are or why it did not build.
#include <iostream>

#include "cli/build_options.hpp"
#include "cli/commands.hpp"
#include "core/builds/source_build.hpp"
#include "core/builds/source_tree.hpp"
#include "graders/model/error.hpp"
#include "graders/report/format.hpp"

namespace awb::cli {
namespace {

struct BuildCommandOptions {
  std::string submission;
  BuildFlags build;
  bool verbose = false;
};

int run_build(const BuildCommandOptions& o) {
  namespace fs = std::filesystem;
  if (!core::is_source_tree(o.submission))
    throw Error("build.not_source", o.submission,
                "no CMakeLists.txt at the top of the folder: not a source submission (a folder "
                "of built *.so files is graded as it is)");
  const core::BuildOutcome out = build_submission(o.submission, o.build, o.verbose);
  if (!out.built) return kExitFailed;
  std::cout << (out.cached
                    ? "built (cached: the same sources were built before)"
                    : "built in " + std::to_string(static_cast<int>(out.seconds + 0.5)) + " s")
            << "\nplugins:\n";
  for (const auto& entry : fs::directory_iterator(out.plugins))
    std::cout << "  " << entry.path().string() << '\n';
  std::cout << "log: " << out.log.string() << '\n';
  return kExitOk;
}

}  // namespace

void add_build_command(CLI::App& app, int& exit_code) {
  auto opts = std::make_shared<BuildCommandOptions>();
  CLI::App* cmd = app.add_subcommand(
      "build",
      "Build a source submission (a folder with a CMakeLists.txt, as `awb new-plugin` makes)\n"
      "against the installed SDK, in the build sandbox: an unprivileged process tree of its\n"
      "own, no network, only its own build folder writable, nothing of your home or results\n"
      "visible, and limits on time, memory, output and disk. Builds are cached by a hash of\n"
      "the sources and the SDK version. Exits 0 when it built (the plugins' paths are\n"
      "printed), 1 when it did not (the reason and the first compiler errors are printed).");
  cmd->add_option("submission", opts->submission, "The submission folder")->required();
  cmd->add_flag("-v,--verbose", opts->verbose, "Print the build's output as it comes");
  add_build_options(cmd, opts->build, user_build_cache());
  cmd->callback([opts, &exit_code] { exit_code = run_build(*opts); });
}

}  // namespace awb::cli
