// main.cpp: the awb command line; the only place where errors turn into exit codes.
#include <awb/awb_plugin.h>

#include <algorithm>
#include <iostream>

#include "cli/commands.hpp"
#include "core/base/version.hpp"
#include "core/exercises/yaml_reader.hpp"
#include "graders/model/error.hpp"

namespace {

// One table from error ids to exit codes, so a condition exits the same way in every command.
// The first entry whose id or id prefix (ending in '.') matches wins.
int exit_code_for(const std::string& id) {
  using namespace awb::cli;
  static const std::pair<const char*, int> kTable[] = {
      {"exercise.not_found", kExitUsage},  // a name on the command line, not a file's fault
      {"assignment.not_found", kExitUsage},
      {"example.", kExitUsage},
      {"problem.", kExitBadInput},
      {"exercise.", kExitBadInput},
      {"assignment.", kExitBadInput},
      {"plugin.", kExitPluginError},
  };
  for (const auto& [key, code] : kTable) {
    const std::string k = key;
    if (k.back() == '.' ? id.rfind(k, 0) == 0 : id == k) return code;
  }
  return id.ends_with(".usage") ? kExitUsage : kExitFailed;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace awb::cli;
  CLI::App app{
      "awb: Attention Workbench, headless.\n"
      "Loads attention-variant plugins and runs them on problems and exercises.",
      "awb"};
  app.set_version_flag("--version", std::string("awb ") + AWB_VERSION + " (plugin ABI " +
                                        std::to_string(AWB_ABI_MAJOR) + "." +
                                        std::to_string(AWB_ABI_MINOR) + ")");
  app.require_subcommand(1);
  app.footer(
      "Plugins are looked for in the bundled folder, then in AWB_PLUGIN_PATH (colon-separated),\n"
      "then in folders given with --plugin-dir.\n\n"
      "Exit codes:\n"
      "  0  success\n"
      "  1  the work ran and failed (a plugin call returned an error)\n"
      "  2  bad command line (an unknown option, value, exercise or assignment name)\n"
      "  3  an input file (problem, exercise, assignment) is invalid\n"
      "  4  a plugin could not be loaded, or the requested variant was not found\n"
      "  5  the variant's capabilities do not cover the problem\n\n"
      "Run 'awb COMMAND --help' for the options of each command.");
  int exit_code = kExitOk;
  add_plugins_command(app, exit_code);
  add_run_command(app, exit_code);
  add_exercises_command(app, exit_code);
  add_lint_command(app, exit_code);
  add_grade_command(app, exit_code);
  add_train_command(app, exit_code);
  add_bench_command(app, exit_code);
  add_compare_command(app, exit_code);
  // An unknown first word is named, with the closest command, instead of CLI11's "A subcommand
  // is required".
  if (argc > 1 && argv[1][0] != '-') {
    std::vector<std::string> names;
    for (const auto* sub : app.get_subcommands({})) names.push_back(sub->get_name());
    if (std::find(names.begin(), names.end(), argv[1]) == names.end()) {
      const std::string guess = awb::core::did_you_mean(argv[1], names);
      std::string list;
      for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
      std::cerr << "awb: '" << argv[1] << "' is not a command"
                << (guess.empty() ? "" : " (did you mean '" + guess + "'?)") << "; the commands: "
                << list << "\nRun 'awb --help' for more information.\n";
      return kExitUsage;
    }
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return kExitUsage;
  } catch (const awb::Error& e) {
    std::cerr << "awb: " << e.what() << '\n';
    return exit_code_for(e.id());
  } catch (const std::exception& e) {
    std::cerr << "awb: internal error: " << e.what() << '\n';
    return kExitFailed;
  }
  return exit_code;
}
