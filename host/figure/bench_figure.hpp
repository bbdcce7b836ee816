// bench_figure.hpp: the figure of `awb bench --figure`: time per call against T on log-log axes,
// a series per variant, parameters and shape, the 95 % interval of each median as an error bar
// and each series' fitted slope in the legend.
#ifndef AWB_FIGURE_BENCH_FIGURE_HPP_
#define AWB_FIGURE_BENCH_FIGURE_HPP_

#include <QWidget>
#include <memory>
#include <nlohmann/json.hpp>

namespace awb::figure {

// The figure of a bench spec: {"figure": "bench", "run": a saved run's JSON}.
std::unique_ptr<QWidget> bench_figure(const nlohmann::json& spec);

}  // namespace awb::figure

#endif  // AWB_FIGURE_BENCH_FIGURE_HPP_
