// param_options.hpp: `--param name=value`, the one way every command sets variant parameters.
#ifndef AWB_CLI_PARAM_OPTIONS_HPP_
#define AWB_CLI_PARAM_OPTIONS_HPP_

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "graders/model/params.hpp"

namespace awb::cli {

// Adds the repeatable `--param` option to `cmd`, collecting into `assignments`. `sweep`: the
// command takes comma-separated lists (window=16,64,256) and runs each value.
CLI::Option* add_param_option(CLI::App* cmd, std::vector<std::string>* assignments,
                              bool sweep = false);

// The assignments read into `values` (later ones win); throws awb::Error("param.syntax").
void apply_params(ParamValues& values, const std::vector<std::string>& assignments);

// A variant (or a reference) that will take the command line's parameters.
struct ParamTaker {
  std::string name;                     // as messages name it: "sliding-window"
  const std::vector<ParamDecl>* decls;  // what it declares
};

// Checks the --param assignments before anything runs, against everything that will take them:
// each name must be declared by at least one taker (did-you-mean otherwise), and each value
// (each of a sweep's comma-separated values) must fit every taker that declares the name.
// `what` names the takers in messages ("variant graded here"). Throws awb::Error("param.usage"),
// a usage error, or "param.syntax".
void check_params(const std::vector<std::string>& assignments,
                  const std::vector<ParamTaker>& takers, const std::string& what,
                  bool sweep = false);

// A --variant of compare and bench: "ID" or "PLUGIN:ID", optionally with its own parameters
// after an '@': "sliding-window@window=2", "alibi@slope=0.5,heads_share=true". One command line
// may hold the same variant at several values this way.
struct VariantSpec {
  std::string text;    // as written
  std::string id;      // before the '@'
  ParamValues values;  // after it
};
// Throws awb::Error("param.syntax") for an empty id or a malformed or repeated assignment.
VariantSpec parse_variant_spec(const std::string& text);
// The spec's own values checked against what the variant declares: each must be declared and in
// range. Throws awb::Error("param.usage") naming the spec.
void check_spec_params(const VariantSpec& spec, const std::vector<ParamDecl>& decls);

}  // namespace awb::cli

#endif  // AWB_CLI_PARAM_OPTIONS_HPP_
