// main.cpp: the awb command line; the only place where errors turn into exit codes.
#include <awb/awb_plugin.h>

#include <iostream>

#include "cli/commands.hpp"
#include "core/version.hpp"
#include "model/error.hpp"

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
      "  2  bad command line\n"
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
    const std::string& id = e.id();
    if (id.rfind("problem.", 0) == 0 || id.rfind("exercise.", 0) == 0 ||
        id.rfind("assignment.", 0) == 0)
      return kExitBadInput;
    if (id.rfind("example.", 0) == 0 || id.ends_with(".usage")) return kExitUsage;
    if (id.rfind("plugin.", 0) == 0) return kExitPluginError;
    return kExitFailed;
  } catch (const std::exception& e) {
    std::cerr << "awb: internal error: " << e.what() << '\n';
    return kExitFailed;
  }
  return exit_code;
}
