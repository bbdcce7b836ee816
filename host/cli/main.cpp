// main.cpp: the awb command line; an error that ends a command becomes its exit code here,
// through the one table (exit_codes.hpp).
#include <awb/awb_plugin.h>

#include <algorithm>
#include <iostream>
#include <regex>

#include "cli/commands.hpp"
#include "cli/exit_codes.hpp"
#include "core/base/did_you_mean.hpp"
#include "core/base/version.hpp"
#include "graders/model/error.hpp"

namespace {

// The id of a command-line error found by the option parser, so that it reads like every other
// error: [id] location: message.
const char* parse_error_id(const CLI::ParseError& e) {
  if (dynamic_cast<const CLI::ExtrasError*>(&e)) return "cli.unexpected";
  if (dynamic_cast<const CLI::RequiredError*>(&e)) return "cli.missing";
  if (dynamic_cast<const CLI::ArgumentMismatch*>(&e)) return "cli.value_count";
  if (dynamic_cast<const CLI::ConversionError*>(&e)) return "cli.not_a_number";
  if (dynamic_cast<const CLI::ValidationError*>(&e)) return "cli.invalid_value";
  if (dynamic_cast<const CLI::ExcludesError*>(&e)) return "cli.excludes";
  if (dynamic_cast<const CLI::RequiresError*>(&e)) return "cli.requires";
  return "cli.usage";
}

// Numbers on the command line are decimal: CLI11 reads 0x10 as 16 and 010 as 8, which nobody who
// typed them meant. Every integer and floating-point option of every command gets this check.
CLI::Validator decimal_check(bool whole) {
  return CLI::Validator(
      [whole](std::string& text) -> std::string {
        static const std::regex integer(R"([+-]?(0|[1-9][0-9]*))");
        static const std::regex number(R"([+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?)");
        if (std::regex_match(text, whole ? integer : number)) return {};
        return "'" + text + "' is not a " + (whole ? "whole " : "") +
               "decimal number (no leading zeros, no 0x)";
      },
      "");
}

// An empty value ('--assignment ""') is a mistake in every option that takes one: it was ignored
// (grading ran without the assignment) or read as the current folder.
const CLI::Validator& not_empty() {
  static const CLI::Validator check(
      [](std::string& text) -> std::string { return text.empty() ? "an empty value" : ""; }, "");
  return check;
}

void strict_values(CLI::App& app) {
  static const CLI::Validator whole = decimal_check(true);
  static const CLI::Validator real = decimal_check(false);
  for (CLI::Option* opt : app.get_options()) {
    if (opt->get_type_size_max() > 0) opt->check(not_empty());
    const std::string type = opt->get_type_name();
    if (type.rfind("INT", 0) == 0 || type.rfind("UINT", 0) == 0)
      opt->check(whole);
    else if (type.rfind("FLOAT", 0) == 0)
      opt->check(real);
  }
  for (CLI::App* sub : app.get_subcommands({})) strict_values(*sub);
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
      "  2  bad command line (an unknown option or value, an exercise, case, example or\n"
      "     assignment name that names nothing, or a folder new-plugin would write over)\n"
      "  3  an input file (problem, exercise, assignment) is invalid\n"
      "  4  a plugin could not be loaded, or the requested variant was not found\n"
      "  5  the variant cannot do what is asked (a capability or the backward pass is missing)\n"
      "Each error is printed as [id] location: message; the same id exits the same way in every\n"
      "command (docs/errors.md lists every id).\n\n"
      "Indices (heads, layers, queries, tokens, numbered exercises) count from 0.\n\n"
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
  add_page_command(app, exit_code);
  add_build_command(app, exit_code);
  add_new_plugin_command(app, exit_code);
  add_autograder_command(app, exit_code);
  strict_values(app);
  // An unknown first word is named, with the closest command, instead of CLI11's "A subcommand
  // is required".
  if (argc > 1 && argv[1][0] != '-') {
    std::vector<std::string> names;
    for (const auto* sub : app.get_subcommands({})) names.push_back(sub->get_name());
    if (std::find(names.begin(), names.end(), argv[1]) == names.end()) {
      const std::string guess = awb::core::did_you_mean(argv[1], names);
      std::string list;
      for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
      std::cerr << "awb: [cli.unknown_command] '" << argv[1] << "' is not a command"
                << (guess.empty() ? "" : " (did you mean '" + guess + "'?)")
                << "; the commands: " << list << "\nRun 'awb --help' for more information.\n";
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
    std::cerr << "awb: [" << parse_error_id(e) << "] " << e.what() << "\nRun 'awb "
              << (argc > 1 && argv[1][0] != '-' ? std::string(argv[1]) + " " : "")
              << "--help' for more information.\n";
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
