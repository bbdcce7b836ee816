// param_options.cpp: the --param option.
#include "cli/param_options.hpp"

namespace awb::cli {

CLI::Option* add_param_option(CLI::App* cmd, std::vector<std::string>* assignments, bool sweep) {
  const std::string help =
      sweep ? "A variant parameter, name=value or name=v1,v2,... to sweep it (repeatable; "
              "`awb plugins` lists each variant's parameters)"
            : "A variant parameter, name=value (repeatable; overrides the exercise's or problem's "
              "variant.params; `awb plugins` lists each variant's parameters)";
  return cmd->add_option("--param", *assignments, help)->type_name("NAME=VALUE");
}

void apply_params(ParamValues& values, const std::vector<std::string>& assignments) {
  for (const auto& a : assignments) add_param_assignment(values, a);
}

}  // namespace awb::cli
