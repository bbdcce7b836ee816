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

}  // namespace awb::cli

#endif  // AWB_CLI_PARAM_OPTIONS_HPP_
