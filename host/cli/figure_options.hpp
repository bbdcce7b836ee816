// figure_options.hpp: --figure FILE.{pdf,svg,png} of `awb compare` and `awb bench`. awb stays
// Qt-free: it writes what the figure shows as a JSON spec and awb-figure (built with the GUI)
// draws it; the figure then replaces FILE atomically.
#ifndef AWB_CLI_FIGURE_OPTIONS_HPP_
#define AWB_CLI_FIGURE_OPTIONS_HPP_

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli/bench_report.hpp"
#include "cli/compare_report.hpp"
#include "graders/model/run.hpp"

namespace awb::cli {

// --figure FILE: its name must end in .pdf, .svg or .png (a usage error otherwise).
CLI::Option* add_figure_option(CLI::App* cmd, std::string& file);

// Before any work, so that minutes of measuring are not lost: awb-figure is installed (else
// Error("figure.unavailable")) and FILE may be replaced (a folder, FIFO or device:
// Error("io.not_regular")). Nothing when `file` is empty.
void check_figure(const std::string& file);

// The comparison's figure: for the reference and each variant, every head's weights on the
// report's layer with the parameters it ran with, and |variant − baseline| beside them.
// `contenders` are those `c` compared, in its entries' order (their declarations tell a sliding
// window's band).
void write_compare_figure(const std::string& file, const Report& r, const core::Comparison& c,
                          const Parameters& input_params,
                          const std::vector<core::Contender>& contenders);
// The run's time against T on log-log axes, a series per variant and shape, with intervals.
void write_bench_figure(const std::string& file, const BenchRun& run);

// What the figure spec says of one comparison (for the tests and write_compare_figure).
nlohmann::json compare_figure_spec(const Report& r, const core::Comparison& c,
                                   const Parameters& input_params,
                                   const std::vector<core::Contender>& contenders);

}  // namespace awb::cli

#endif  // AWB_CLI_FIGURE_OPTIONS_HPP_
