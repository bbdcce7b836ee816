// compare_view.cpp: one compare job per change (latest request wins), then heatmaps and table;
// the maps take the height the table, sized to its rows, leaves.
#include "gui/views/compare/compare_view.hpp"

#include <QEvent>
#include <QHeaderView>
#include <QScrollBar>
#include <QVBoxLayout>
#include <cmath>
#include <utility>

#include "core/compare/compare_metrics.hpp"
#include "core/compare/matrix_export.hpp"
#include "core/grading/subject_factory.hpp"
#include "graders/tolerance/tolerance.hpp"

namespace awb::gui {
namespace {

// Differences at or below the f64 tolerance of the reference checks are rounding, not a
// difference: drawn as 0, so that a map of noise (2.78e-17 at most) does not light up.
const double kDiffFloor = grade::F64Tolerance{}.atol;

// The error column: within the tolerance it says so, rather than a number of noise.
QString error_text(double v) {
  return !std::isnan(v) && v <= kDiffFloor ? QObject::tr("≤ 10⁻¹²") : value_text(v);
}

const Matrix* head_of(const RunOutput& run, int head) {
  const auto& w = core::last_weights(run);
  if (w.empty()) return nullptr;
  return &w[static_cast<size_t>(std::min<int>(head, static_cast<int>(w.size()) - 1))];
}

}  // namespace

// |A − B| over one head, floored at kDiffFloor, or an empty matrix when the shapes differ.
Matrix floored_difference(const Matrix& a, const Matrix& b) {
  if (a.rows != b.rows || a.cols != b.cols) return {};
  Matrix d(a.rows, a.cols);
  for (size_t i = 0; i < a.data.size(); ++i) {
    const double diff = std::abs(a.data[i] - b.data[i]);
    d.data[i] = diff <= kDiffFloor ? 0 : diff;
  }
  return d;
}

namespace {

// Each variant's head against the reference's (empty where there is none to pair), and in
// `diff_max` the one range they share, so that their colours compare across variants.
std::vector<Matrix> head_differences(const core::Comparison& c, const Matrix* ref, int head,
                                     double& diff_max) {
  std::vector<Matrix> diffs;
  diff_max = 0;
  for (const auto& e : c.entries) {
    const Matrix* a = head_of(e.output, head);
    diffs.push_back(a && ref ? floored_difference(*a, *ref) : Matrix());
    for (double v : diffs.back().data) diff_max = std::max(diff_max, v);
  }
  if (diff_max <= 0) diff_max = 1;  // every difference within the tolerance
  return diffs;
}

// A variant's notes for its row: what it did not understand, its error, and a head count that
// differs from the reference's (heads are paired by index, so a single-head variant's agreement
// is not read as the whole layer's).
QStringList entry_notes(const core::CompareEntry& e, const RunOutput& reference) {
  QStringList notes;
  for (const auto& n : e.notes) notes << QString::fromStdString(n);
  if (!e.error.empty()) notes << QString::fromStdString(e.error);
  if (e.error.empty() && !e.output.layers.empty() && !reference.layers.empty()) {
    const auto pairing = core::compare_layer(e.output.layers.back(), reference.layers.back(),
                                             std::nullopt, 1, "reference")
                             .pairing_note;
    if (!pairing.empty()) notes << QString::fromStdString(pairing);
  }
  return notes;
}

// The weight maps compare only on one range: a min–max spans all of them; the difference maps
// share theirs.
void share_ranges(const QList<HeatmapWidget*>& maps, const QList<HeatmapWidget*>& diffs,
                  ColorRange range) {
  double lo = INFINITY, hi = -INFINITY;
  for (auto* w : maps) {
    lo = std::min(lo, w->ownMinMax().first);
    hi = std::max(hi, w->ownMinMax().second);
  }
  for (auto* w : maps) {
    w->setSharedMinMax(lo, hi);
    w->setColorRange(range);
  }
  for (auto* w : diffs) {
    w->setColorRange(ColorRange::kScale);
    w->setScaleNote(
        QObject::tr("shared by every |A − ref| map; differences ≤ 10⁻¹² (the f64 "
                    "tolerance) drawn as 0"));
  }
}

}  // namespace

CompareView::CompareView(Session& session, QWidget* parent) : View(parent), session_(session) {
  auto* top = new QHBoxLayout;
  head_box_ = new QComboBox;
  status_ = new QLabel;
  status_->setWordWrap(true);
  top->addWidget(new QLabel(tr("head")));
  top->addWidget(head_box_);
  range_box_ = add_color_range_box(top);
  top->addWidget(status_, 1);
  grid_ = new QGridLayout;
  table_ = new QTableWidget(0, 6);
  table_->setHorizontalHeaderLabels({tr("variant"), tr("max abs error"), tr("max |A − ref|"),
                                     tr("row entropy (nats)"), tr("argmax agreement"),
                                     tr("notes")});
  table_->horizontalHeader()->setStretchLastSection(true);
  table_->verticalHeader()->hide();
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  // As tall as its rows (fitTable): the maps take the rest of the height.
  table_->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
  table_->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(top);
  layout->addLayout(grid_, 1);
  layout->addWidget(table_);
  auto* legend = new QLabel(
      tr("max abs error: A and Z of every layer against the reference on the inputs the variant "
         "ran (is it right?). max |A − ref|, argmax agreement: last layer against the "
         "exercise's reference (how does it differ?). Weight maps share one colour range; the "
         "|A − ref| maps share another, from 0 to the largest difference of any variant, with "
         "differences ≤ 10⁻¹² (the f64 tolerance of the checks) drawn as 0. Hatched: cells the "
         "causal mask or a sliding window leaves exactly 0."));
  legend->setWordWrap(true);
  layout->addWidget(legend);
  connect(head_box_, &QComboBox::activated, this, [this](int h) { setHead(h); });
  connect(range_box_, &QComboBox::activated, this,
          [this] { setColorRange(color_range_of(range_box_)); });
  fitTable();
}

void CompareView::setVariants(const QStringList& specs) {
  specs_ = specs;
  rerun();
}

void CompareView::setExercise(const core::Exercise* exercise, const QString& case_id) {
  exercise_ = exercise;
  case_id_ = case_id;
  rerun();
}

void CompareView::setHead(int head) {
  head_ = std::max(0, head);
  showComparison();
}

void CompareView::setParams(const ParamValues& values) {
  if (values == params_) return;
  params_ = values;
  rerun();
}

void CompareView::showEvent(QShowEvent* event) {
  QWidget::showEvent(event);
  if (runs_.take_stale()) rerun();
}

void CompareView::setColorRange(ColorRange choice) {
  range_box_->setCurrentIndex(static_cast<int>(choice));
  showComparison();
}

void CompareView::resizeEvent(QResizeEvent* e) {
  QWidget::resizeEvent(e);
  fitTable();
}

void CompareView::changeEvent(QEvent* e) {
  QWidget::changeEvent(e);
  // A larger application font (the window's zoom) makes taller rows; the table's own font
  // changes after this view's, so it is measured once the change has gone round.
  if (e->type() == QEvent::FontChange)
    QMetaObject::invokeMethod(this, &CompareView::fitTable, Qt::QueuedConnection);
}

void CompareView::fitTable() {
  // The numbers' columns as wide as their contents; the notes take the rest.
  for (int c = 0; c + 1 < table_->columnCount(); ++c) table_->resizeColumnToContents(c);
  table_->resizeRowsToContents();
  // Every row visible: the header, the rows, the frame, and a scroll bar when the columns are
  // wider than the view.
  int h = table_->horizontalHeader()->sizeHint().height() + 2 * table_->frameWidth();
  for (int r = 0; r < table_->rowCount(); ++r) h += table_->rowHeight(r);
  if (table_->horizontalHeader()->length() > table_->width() - 2 * table_->frameWidth())
    h += table_->horizontalScrollBar()->sizeHint().height();
  if (table_->height() != h || table_->minimumHeight() != h) table_->setFixedHeight(h);
}

void CompareView::rerun() {
  if (!exercise_ || specs_.isEmpty()) return;
  if (!runs_.begin(isVisible())) return;  // rerun with the latest state when the running job ends
  status_->setText(tr("running %1…").arg(specs_.join(", ")));
  const RunInput input = core::case_input(*exercise_, case_id_.toStdString());
  std::vector<std::string> specs;
  for (const auto& s : specs_) specs.push_back(s.toStdString());
  const auto catalog = session_.catalog();
  const uint64_t caps = exercise_->reference_capabilities;
  const ParamValues values = params_;
  run_async<CompareRun>(
      this, [=] { return compare_job(catalog, specs, input, caps, values); },
      [this, input](Outcome<CompareRun> r) {
        if (runs_.end() == RunEnd::kSuperseded) {
          rerun();
          return;
        }
        input_ = input;
        comparison_ = r.value ? std::move(r.value->comparison) : core::Comparison{};
        reference_mask_ = r.value ? r.value->reference_mask : CellMask{};
        masks_ = r.value ? std::move(r.value->masks) : std::vector<CellMask>{};
        status_->setText(r.value ? QString() : tr("cannot compare: %1").arg(r.error));
        showComparison();
        emit updated();
      });
}

void CompareView::setWithheld(bool on) {
  if (on == withheld_) return;
  withheld_ = on;
  showComparison();
}

void CompareView::showComparison() {
  for (auto* w : maps_ + diffs_) delete w;
  maps_.clear();
  diffs_.clear();
  if (withheld_) {
    // A question waits in Explore: the weights it asks about are not drawn here, nor their
    // numbers; the comparison is kept and shown once it is answered.
    table_->setRowCount(0);
    status_->setText(tr("Hidden until the question in Explore is answered."));
    fitTable();
    return;
  }
  QStringList tokens;
  for (const auto& t : input_.tokens) tokens << QString::fromStdString(t);
  const size_t heads = core::last_weights(comparison_.reference).size();
  {
    const QSignalBlocker block(head_box_);
    head_box_->clear();
    for (size_t h = 0; h < heads; ++h) head_box_->addItem(QString::number(h));
    head_ = std::min<int>(head_, std::max<int>(0, static_cast<int>(heads) - 1));
    head_box_->setCurrentIndex(head_);
  }
  const Matrix* ref = head_of(comparison_.reference, head_);
  auto mask_of = [&](size_t i) { return i < masks_.size() ? masks_[i] : CellMask{}; };
  auto add_map = [&](const QString& title, const Matrix& m, double hi, const CellMask& mask,
                     int row, int col) {
    auto* w = new HeatmapWidget;
    w->setTitle(title);
    w->setMatrix(m, 0, hi, mask);
    w->setLabels(tokens, tokens);
    grid_->addWidget(w, row, col);
    return w;
  };
  if (ref) maps_ << add_map(tr("reference, head %1").arg(head_), *ref, 1, reference_mask_, 0, 0);
  double diff_max = 1;
  const std::vector<Matrix> diffs = head_differences(comparison_, ref, head_, diff_max);
  table_->setRowCount(0);
  auto add_row = [&](const QStringList& cells) {
    const int r = table_->rowCount();
    table_->insertRow(r);
    for (int c = 0; c < cells.size(); ++c) table_->setItem(r, c, new QTableWidgetItem(cells[c]));
  };
  add_row({tr("reference"),
           "-",
           value_text(0),
           value_text(comparison_.reference_entropy),
           value_text(1),
           {}});
  for (size_t i = 0; i < comparison_.entries.size(); ++i) {
    const auto& e = comparison_.entries[i];
    const QString label = QString::fromStdString(e.label);
    const int col = static_cast<int>(i) + 1;
    const Matrix* a = head_of(e.output, head_);
    maps_ << (a ? add_map(label, *a, 1, mask_of(i), 0, col) : nullptr);
    diffs_ << (diffs[i].empty() ? nullptr
                                : add_map(tr("|%1 − reference|").arg(label), diffs[i], diff_max,
                                          common_cells(mask_of(i), reference_mask_), 1, col));
    const QStringList notes = entry_notes(e, comparison_.reference);
    const auto& m = e.metrics;
    add_row({label, e.error.empty() ? error_text(m.max_abs_error) : tr("failed"),
             value_text(m.max_abs_diff), value_text(m.row_entropy), value_text(m.argmax_agreement),
             notes.join("; ")});
  }
  maps_.removeAll(nullptr);
  diffs_.removeAll(nullptr);
  share_ranges(maps_, diffs_, color_range_of(range_box_));
  // Every map equally large, however many columns the last comparison had.
  const int columns = static_cast<int>(comparison_.entries.size()) + 1;
  for (int c = 0; c < grid_->columnCount(); ++c) grid_->setColumnStretch(c, c < columns ? 1 : 0);
  grid_->setRowStretch(0, 1);
  grid_->setRowStretch(1, diffs_.isEmpty() ? 0 : 1);
  fitTable();
}

QString CompareView::csv() const {
  QString out = "variant,max_abs_error,max_abs_diff,row_entropy,argmax_agreement\n";
  for (const auto& e : comparison_.entries)
    out += QString::fromStdString(e.label) + QStringLiteral(",%1,%2,%3,%4\n")
                                                 .arg(e.metrics.max_abs_error, 0, 'g', 17)
                                                 .arg(e.metrics.max_abs_diff, 0, 'g', 17)
                                                 .arg(e.metrics.row_entropy, 0, 'g', 17)
                                                 .arg(e.metrics.argmax_agreement, 0, 'g', 17);
  // Each matrix a table of its own after a blank line: its name in the corner, the tokens as
  // column and row headers.
  auto matrix = [&](const QString& name, const Matrix& m) {
    out += "\n" + QString::fromStdString(
                      core::matrix_csv(m, input_.tokens, input_.tokens, name.toStdString()));
  };
  const auto& ref = core::last_weights(comparison_.reference);
  for (size_t h = 0; h < ref.size(); ++h)
    matrix(QStringLiteral("A reference head %1").arg(h), ref[h]);
  for (const auto& e : comparison_.entries) {
    const auto& w = core::last_weights(e.output);
    for (size_t h = 0; h < w.size(); ++h)
      matrix(QStringLiteral("A %1 head %2").arg(QString::fromStdString(e.label)).arg(h), w[h]);
  }
  return out;
}

}  // namespace awb::gui
