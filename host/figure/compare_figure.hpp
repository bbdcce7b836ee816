// compare_figure.hpp: the figure of `awb compare --figure`: a row of per-head heatmaps for the
// reference and each variant (with the parameters it ran with), then a row of |variant −
// baseline| maps for each, one colour bar for the weights and one for the differences.
#ifndef AWB_FIGURE_COMPARE_FIGURE_HPP_
#define AWB_FIGURE_COMPARE_FIGURE_HPP_

#include <QWidget>
#include <memory>
#include <nlohmann/json.hpp>

namespace awb::figure {

// The figure of a compare spec (cli/figure_options.hpp writes it), laid out at its size.
std::unique_ptr<QWidget> compare_figure(const nlohmann::json& spec);

}  // namespace awb::figure

#endif  // AWB_FIGURE_COMPARE_FIGURE_HPP_
