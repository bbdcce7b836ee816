// compare_figure.cpp: every map is the GUI's HeatmapWidget without its own legend; the weights'
// colour range follows the compare view's rule (0–1, or the min–max of all the maps shown when
// every weight lies below 0.5), and the difference maps share 0 to the largest difference.
#include "figure/compare_figure.hpp"

#include <QGridLayout>
#include <QLabel>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "figure/color_bar.hpp"
#include "graders/model/tensor.hpp"
#include "gui/charts/cell_mask.hpp"
#include "gui/charts/heatmap_widget.hpp"

namespace awb::figure {
namespace {

using nlohmann::json;

// The widest a map grows: cells of at most this many pixels, the map at most about this wide.
constexpr double kLargestCell = 34, kMapSide = 220;
constexpr int kHeadingWidth = 170;

Matrix matrix_from(const json& j) {
  Matrix m(j.at("rows").get<int64_t>(), j.at("cols").get<int64_t>());
  m.data = j.at("data").get<std::vector<double>>();
  if (m.rows < 0 || m.cols < 0 || m.data.size() != static_cast<size_t>(m.rows * m.cols))
    throw std::runtime_error("a matrix whose data does not match its shape");
  return m;
}

// One row of the figure: a run's heads (or its differences from the baseline).
struct MapRow {
  QString heading;
  std::vector<Matrix> heads;
  gui::CellMask mask;
  QString error;
};

QLabel* wrapped_label(const QString& text, int width = 0) {
  auto* label = new QLabel(text);
  label->setWordWrap(true);
  label->setTextFormat(Qt::PlainText);
  if (width > 0) label->setFixedWidth(width);
  return label;
}

// Its own min and max over the cells not masked, across every map of `rows`.
std::pair<double, double> min_max(const std::vector<MapRow>& rows) {
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  for (const auto& r : rows)
    for (const auto& m : r.heads)
      for (int64_t i = 0; i < m.rows; ++i)
        for (int64_t k = 0; k < m.cols; ++k)
          if (!r.mask.hides(m, i, k) && std::isfinite(m(i, k))) {
            lo = std::min(lo, m(i, k));
            hi = std::max(hi, m(i, k));
          }
  return {lo, hi};
}

// The figure's rows read from the spec: each run's weights, then each difference map.
struct Rows {
  std::vector<MapRow> weights, diffs;
};

Rows read_rows(const json& spec, const std::string& against) {
  Rows out;
  // The band of keys each run's queries see (null: no limit); outside it cells are hatched.
  std::map<std::string, gui::CellMask> mask_of;
  for (const auto& run : spec.at("runs")) {
    const auto label = run.at("label").get<std::string>();
    gui::CellMask& mask = mask_of[label];
    if (run.contains("ahead") && !run["ahead"].is_null()) mask.ahead = run["ahead"].get<int64_t>();
    if (run.contains("behind") && !run["behind"].is_null())
      mask.behind = run["behind"].get<int64_t>();
    MapRow row{QString::fromStdString(label + "\n" + run.value("params", "")),
               {},
               mask,
               QString::fromStdString(run.value("error", ""))};
    for (const auto& m : run.at("heads")) row.heads.push_back(matrix_from(m));
    out.weights.push_back(std::move(row));
  }
  for (const auto& d : spec.at("differences")) {
    const auto label = d.at("label").get<std::string>();
    // Cells both runs mask are 0 in the difference by construction: hatched, where they are 0.
    const gui::CellMask mask = gui::common_cells(mask_of[label], mask_of[against]);
    MapRow row{QString::fromStdString("|" + label + " − " + against + "|"), {}, mask, {}};
    for (const auto& m : d.at("heads")) row.heads.push_back(matrix_from(m));
    out.diffs.push_back(std::move(row));
  }
  return out;
}

// The two colour ranges: the weights' 0–1, or their shared min–max when every weight lies in
// the lower half (the rule of the GUI's "auto" colour range, gui/color_range.hpp); the
// differences' 0 to the largest.
struct Ranges {
  double lo = 0, hi = 1;
  bool own_range = false;
  double diff_max = 1;
};

Ranges ranges_of(const Rows& rows) {
  Ranges r;
  const auto [lo, hi] = min_max(rows.weights);
  r.own_range = std::isfinite(lo) && hi <= 0.5 && hi - lo >= 0.01;
  if (r.own_range) {
    r.lo = lo;
    r.hi = hi;
  }
  double diff_max = 0;
  for (const auto& row : rows.diffs)
    for (const auto& m : row.heads)
      for (double v : m.data)
        if (std::isfinite(v)) diff_max = std::max(diff_max, v);
  r.diff_max = diff_max > 0 ? diff_max : 1;  // 1: every difference within the tolerance
  return r;
}

// One head's map, its cells square and as large as a paper column reads well, never below the
// map's least.
gui::HeatmapWidget* map_widget(const Matrix& m, const MapRow& row, bool difference,
                               const Ranges& ranges, const QStringList& tokens, int head) {
  auto* map = new gui::HeatmapWidget;
  map->setLegendShown(false);
  map->setMatrix(m, 0, difference ? ranges.diff_max : 1, row.mask);
  map->setLabels(tokens, tokens);
  map->setTitle(QObject::tr("head %1").arg(head));
  if (!difference && ranges.own_range) {
    map->setColorRange(gui::ColorRange::kMatrix);
    map->setSharedMinMax(ranges.lo, ranges.hi);
  } else {
    map->setColorRange(gui::ColorRange::kScale);
  }
  const double side = static_cast<double>(std::max<int64_t>({m.rows, m.cols, 1}));
  const double least = map->minimumCell();
  const double cell = std::max(least, std::min(kLargestCell, std::floor(kMapSide / side)));
  const int extra = static_cast<int>(std::ceil((cell - least) * side));
  map->setFixedSize(map->minimumSizeHint() + QSize(extra, extra));
  return map;
}

// Why a row has no maps, rather than a gap to be guessed at; empty when it has them.
QString missing_maps(const MapRow& r, bool difference, const std::string& head, int first_head) {
  if (!r.error.isEmpty()) return QObject::tr("did not run: %1").arg(r.error);
  if (!r.heads.empty()) return {};
  if (difference) return QObject::tr("no head paired with the baseline's");
  return head == "all" ? QObject::tr("no weights on this layer")
                       : QObject::tr("has no head %1").arg(first_head);
}

QString caption_text(const Ranges& ranges, const std::string& against, bool any_masked) {
  QString caption =
      QObject::tr(
          "Rows of each map: queries; columns: keys. Every weight map shares the first "
          "colour bar (%1); every difference map, |variant − %2| head by head, shares the "
          "second (0 to the largest difference; differences ≤ 10⁻¹², the f64 tolerance, "
          "drawn as 0).")
          .arg(
              ranges.own_range ? QObject::tr("the min–max of all weight maps") : QObject::tr("0–1"),
              QString::fromStdString(against));
  if (any_masked)
    caption += QObject::tr(
        " Hatched: keys a query does not see (the causal mask, a sliding window): exactly 0.");
  return caption;
}

}  // namespace

std::unique_ptr<QWidget> compare_figure(const json& spec) {
  QStringList tokens;
  for (const auto& t : spec.at("tokens")) tokens << QString::fromStdString(t.get<std::string>());
  const std::string against = spec.value("against", "reference");
  const std::string head = spec.value("head", "all");
  const int first_head = head == "all" ? 0 : std::stoi(head);
  const Rows rows = read_rows(spec, against);
  const Ranges ranges = ranges_of(rows);
  size_t heads = 1;
  for (const auto* list : {&rows.weights, &rows.diffs})
    for (const auto& r : *list) heads = std::max(heads, r.heads.size());

  auto figure = std::make_unique<QWidget>();
  figure->setWindowTitle(QString::fromStdString(spec.value("title", "")));
  auto* grid = new QGridLayout;
  grid->setHorizontalSpacing(12);
  grid->setVerticalSpacing(10);
  int grid_row = 0;
  bool any_masked = false;
  auto add_rows = [&](const std::vector<MapRow>& list, bool difference) {
    for (const auto& r : list) {
      grid->addWidget(wrapped_label(r.heading, kHeadingWidth), grid_row, 0,
                      Qt::AlignRight | Qt::AlignVCenter);
      if (const QString missing = missing_maps(r, difference, head, first_head); !missing.isEmpty())
        grid->addWidget(wrapped_label(missing), grid_row, 1, 1, static_cast<int>(heads));
      for (size_t h = 0; h < r.heads.size(); ++h) {
        const Matrix& m = r.heads[h];
        auto* map = map_widget(m, r, difference, ranges, tokens, first_head + static_cast<int>(h));
        for (int64_t i = 0; i < m.rows; ++i)
          for (int64_t k = 0; k < m.cols; ++k) any_masked = any_masked || map->cellMasked(i, k);
        grid->addWidget(map, grid_row, 1 + static_cast<int>(h));
      }
      ++grid_row;
    }
  };
  const int bar_column = 1 + static_cast<int>(heads);
  add_rows(rows.weights, false);
  grid->addWidget(new ColorBar(QObject::tr("weight"), ranges.lo, ranges.hi), 0, bar_column,
                  static_cast<int>(rows.weights.size()), 1);
  if (!rows.diffs.empty()) {
    const int first = grid_row;
    add_rows(rows.diffs, true);
    grid->addWidget(new ColorBar(QObject::tr("|difference|"), 0, ranges.diff_max), first,
                    bar_column, static_cast<int>(rows.diffs.size()), 1);
  }

  auto* title = new QLabel(figure->windowTitle());
  QFont bold = title->font();
  bold.setBold(true);
  title->setFont(bold);
  auto* layout = new QVBoxLayout(figure.get());
  layout->setContentsMargins(12, 12, 12, 12);
  layout->addWidget(title);
  layout->addLayout(grid);
  auto* caption_label = wrapped_label(caption_text(ranges, against, any_masked));
  layout->addWidget(caption_label);
  layout->setSizeConstraint(QLayout::SetFixedSize);
  // The caption wraps to the maps' width, not to a width of its own.
  caption_label->setFixedWidth(grid->sizeHint().width());
  return figure;
}

}  // namespace awb::figure
