// explore_view.cpp: a slider move or a new variant reruns the plugin off the GUI thread (one run
// in flight, the latest request queued); query, head, layer and mode changes only redraw. An
// asked question's answer comes from the reference, also off the GUI thread.
#include "gui/views/explore/explore_view.hpp"

#include <QEvent>
#include <QKeyEvent>
#include <QToolButton>
#include <QVBoxLayout>
#include <cmath>
#include <utility>

#include "core/compare/layer_trace.hpp"
#include "core/grading/subject_factory.hpp"
#include "graders/model/error.hpp"

namespace awb::gui {
namespace {

constexpr int kSliderSteps = 100;  // per decade
constexpr int kDecades = 3;        // sharpness 10^-3 .. 10^3

QStringList qt_list(const std::vector<std::string>& v) {
  QStringList out;
  for (const auto& s : v) out << QString::fromStdString(s);
  return out;
}

std::vector<double> row_of(const Matrix& m, int r) {
  if (r < 0 || r >= m.rows) return {};
  return {m.data.begin() + r * m.cols, m.data.begin() + (r + 1) * m.cols};
}

void append_csv(QString& out, const QString& name, const Matrix& m, const QStringList& rows) {
  out += name + "\n";
  for (int64_t r = 0; r < m.rows; ++r) {
    out += r < rows.size() ? rows[static_cast<int>(r)] : QString::number(r);
    for (int64_t c = 0; c < m.cols; ++c) out += "," + QString::number(m(r, c), 'g', 17);
    out += "\n";
  }
}

// Widgets kept together on one line of a flow (a label and its control).
QHBoxLayout* flow_group(FlowLayout* flow) {
  auto* group = new QWidget;
  auto* row = new QHBoxLayout(group);
  row->setContentsMargins(0, 0, 0, 0);
  flow->addWidget(group);
  return row;
}

}  // namespace

// Long for a reason: the widget tree, built top to bottom in the order it is shown, with its
// connections beside each widget.
ExploreView::ExploreView(Session& session, QWidget* parent) : View(parent), session_(session) {
  // The chips wrap onto more lines where the width runs out (eleven tokens at 200 %).
  chips_layout_ = new FlowLayout;
  chips_ = new QButtonGroup(this);
  chips_->setExclusive(true);

  auto* controls = new FlowLayout;
  layer_box_ = new QComboBox;
  head_box_ = new QComboBox;
  QHBoxLayout* where = flow_group(controls);
  where->addWidget(new QLabel(tr("layer")));
  where->addWidget(layer_box_);
  where->addWidget(new QLabel(tr("head")));
  where->addWidget(head_box_);
  slider_ = new QSlider(Qt::Horizontal);
  slider_->setRange(-kDecades * kSliderSteps, kDecades * kSliderSteps);
  slider_->setValue(0);
  slider_->setToolTip(tr("Sharpness (log scale): scores are multiplied by it before softmax"));
  sharpness_label_ = new QLabel;
  heatmap_toggle_ = new QCheckBox(tr("heatmap"));
  heatmap_toggle_->setChecked(true);
  auto* sharp_reset = new QToolButton;
  sharp_reset->setText(tr("reset"));
  sharp_reset->setToolTip(tr("Sharpness back to 1: the scores as the variant computes them"));
  QHBoxLayout* sharp = flow_group(controls);
  sharp->addWidget(new QLabel(tr("sharpness")));
  sharp->addWidget(slider_, 1);
  sharp->addWidget(sharpness_label_);
  sharp->addWidget(sharp_reset);
  params_ = new ParamEditor;
  controls->addWidget(params_);
  controls->addWidget(heatmap_toggle_);
  modes_ = new QButtonGroup(this);
  modes_->setExclusive(true);
  const std::pair<Mode, QString> modes[] = {{Mode::kOneHead, tr("one head")},
                                            {Mode::kAllHeads, tr("all heads")},
                                            {Mode::kLayers, tr("layers")}};
  QHBoxLayout* mode_row = flow_group(controls);
  for (const auto& [mode, label] : modes) {
    auto* b = new QToolButton;
    b->setText(label);
    b->setCheckable(true);
    b->setChecked(mode == Mode::kOneHead);
    modes_->addButton(b, static_cast<int>(mode));
    mode_row->addWidget(b);
  }
  QComboBox* range_box = add_color_range_box(flow_group(controls));

  scores_ = new BarChart;
  weights_ = new BarChart;
  sum_ = new QLabel;
  context_ = new ContextSwatch;
  heatmap_ = new HeatmapWidget;
  status_ = new QLabel;
  status_->setWordWrap(true);

  auto* left = new QVBoxLayout;
  left->addWidget(scores_, 1);
  left->addWidget(weights_, 1);
  left->addWidget(context_);
  one_head_ = new QWidget;
  // Bars beside the heatmap where the width allows both at their least, else above it
  // (fitWidth); the view scrolls where the height runs out.
  body_box_ = new QBoxLayout(QBoxLayout::LeftToRight, one_head_);
  body_box_->setContentsMargins(0, 0, 0, 0);
  body_box_->addLayout(left, 1);
  body_box_->addWidget(heatmap_, 1);
  grid_ = new HeadsGrid;
  layers_view_ = new LayerView;
  auto* hidden = new QLabel(tr("The weights are hidden until you answer the question."));
  hidden->setAlignment(Qt::AlignCenter);
  hidden->setWordWrap(true);
  hidden_ = hidden;
  body_ = new QStackedWidget;
  for (QWidget* page :
       {one_head_, static_cast<QWidget*>(grid_), static_cast<QWidget*>(layers_view_), hidden_})
    body_->addWidget(page);
  panel_ = new QuestionPanel;

  auto* layout = new QVBoxLayout(this);
  layout->addLayout(chips_layout_);
  layout->addWidget(panel_);
  layout->addLayout(controls);
  layout->addWidget(body_, 1);
  cancel_ = new QPushButton(tr("Cancel"));
  cancel_->setToolTip(tr("Stop the plugin's run"));
  cancel_->hide();
  // The sum shares the status line: one line of height fewer, for a question's verdict.
  auto* status_row = new QHBoxLayout;
  status_row->addWidget(sum_);
  status_row->addWidget(status_, 1);
  status_row->addWidget(cancel_);
  layout->addLayout(status_row);

  connect(cancel_, &QPushButton::clicked, this, [this] {
    cancel_variant_runs();
    status_->setText(tr("cancelling…"));
  });
  connect(slider_, &QSlider::valueChanged, this, [this] { rerun(); });
  connect(sharp_reset, &QToolButton::clicked, this, [this] { setSharpness(1); });
  connect(params_, &ParamEditor::changed, this, [this] { rerun(); });
  connect(chips_, &QButtonGroup::idClicked, this, &ExploreView::chipClicked);
  connect(modes_, &QButtonGroup::idClicked, this, [this](int m) { setMode(Mode(m)); });
  connect(grid_, &HeadsGrid::headClicked, this, [this](int h) {
    setMode(Mode::kOneHead);
    setHead(h);
  });
  connect(panel_, &QuestionPanel::askRequested, this, [this](int i) { askQuestion(i); });
  connect(panel_, &QuestionPanel::headPicked, this, &ExploreView::answerQuestion);
  connect(panel_, &QuestionPanel::closeRequested, this, &ExploreView::closeQuestion);
  connect(head_box_, &QComboBox::activated, this, [this](int h) { setHead(h); });
  connect(layer_box_, &QComboBox::activated, this, [this](int l) { setLayer(l); });
  connect(heatmap_toggle_, &QCheckBox::toggled, heatmap_, &QWidget::setVisible);
  connect(range_box, &QComboBox::activated, this,
          [this, range_box] { heatmap_->setColorRange(color_range_of(range_box)); });
  setFocusPolicy(Qt::StrongFocus);
  slider_->setMinimumWidth(8 * fontMetrics().height());
}

double ExploreView::sharpness() const {
  return std::pow(10.0, static_cast<double>(slider_->value()) / kSliderSteps);
}

void ExploreView::setSharpness(double sharpness) {
  slider_->setValue(static_cast<int>(std::lround(std::log10(sharpness) * kSliderSteps)));
}

void ExploreView::setHeatmapVisible(bool on) { heatmap_toggle_->setChecked(on); }

void ExploreView::setVariant(const QString& spec) {
  spec_ = spec;
  refreshParams();
  rerun();
}

void ExploreView::refreshParams() {
  std::vector<ParamDecl> decls;
  const auto catalog = session_.catalog();
  if (catalog && !spec_.isEmpty()) {
    try {
      decls = core::find_variant(*catalog, spec_.toStdString()).variant->params;
    } catch (const Error&) {
      // an unknown variant: the run says why
    }
  }
  const QSignalBlocker block(params_);
  params_->setDeclarations(decls, exercise_ ? exercise_->parameters.variant : ParamValues{});
}

void ExploreView::setExercise(const core::Exercise* exercise, const QString& case_id) {
  // Another case of the same exercise keeps the query, head and sharpness ("bank" in river,
  // then in money); another exercise starts afresh.
  const bool same_exercise = exercise != nullptr && exercise == exercise_;
  exercise_ = exercise;
  case_id_ = case_id;
  if (!same_exercise) {
    query_ = 0;
    head_ = 0;
  }
  layer_ = -1;
  closeQuestion();
  panel_->setExercise(exercise_);
  // The exercise's own sharpness is where the slider starts.
  const QSignalBlocker block(slider_);
  if (exercise_ && !same_exercise) setSharpness(exercise_->parameters.sharpness);
  refreshParams();
  rebuildChips();
  query_ = std::clamp(query_, 0, std::max(0, static_cast<int>(chips_->buttons().size()) - 1));
  if (auto* b = chips_->button(query_)) b->setChecked(true);
  rerun();
}

QWidget* ExploreView::chip(int i) const { return chips_->button(i); }

void ExploreView::rebuildChips() {
  for (auto* b : chips_->buttons()) {
    chips_->removeButton(b);
    delete b;
  }
  if (!exercise_ || exercise_->cases.empty()) return;
  const auto input = core::case_input(*exercise_, case_id_.toStdString());
  for (size_t i = 0; i < input.tokens.size(); ++i) {
    auto* b = new QToolButton;
    b->setText(QString::fromStdString(input.tokens[i]));
    b->setCheckable(true);
    b->setChecked(static_cast<int>(i) == query_);
    b->setFocusPolicy(Qt::StrongFocus);
    b->installEventFilter(this);
    chips_->addButton(b, static_cast<int>(i));
    chips_layout_->addWidget(b);
  }
  // Tab in reading order: the chips, the question panel, then the controls below them (made
  // before the chips, they would otherwise come first).
  QWidget* prev = nullptr;
  for (auto* b : chips_->buttons()) {
    if (prev) setTabOrder(prev, b);
    prev = b;
  }
  for (QWidget* w :
       {panel_->chooser(), static_cast<QWidget*>(panel_->askButton()),
        static_cast<QWidget*>(panel_->closeButton()), static_cast<QWidget*>(layer_box_),
        static_cast<QWidget*>(head_box_), static_cast<QWidget*>(slider_)}) {
    if (prev) setTabOrder(prev, w);
    prev = w;
  }
}

void ExploreView::changeEvent(QEvent* event) {
  QWidget::changeEvent(event);
  if (event->type() != QEvent::FontChange) return;
  // A slider shorter than eight lines jumps between far-apart values; the charts' least sizes
  // grow with the type, so the bars may have to go above the heatmap.
  slider_->setMinimumWidth(8 * fontMetrics().height());
  if (fit_width_ > 0) fitWidth(fit_width_);
}

void ExploreView::fitWidth(int width) {
  fit_width_ = width;
  const QMargins m = layout()->contentsMargins();
  const int left =
      std::max({scores_->minimumSizeHint().width(), weights_->minimumSizeHint().width(),
                context_->minimumSizeHint().width()});
  const int beside =
      m.left() + left + body_box_->spacing() + heatmap_->minimumSizeHint().width() + m.right();
  const auto direction = width >= beside ? QBoxLayout::LeftToRight : QBoxLayout::TopToBottom;
  if (body_box_->direction() != direction) body_box_->setDirection(direction);
}

void ExploreView::showEvent(QShowEvent* event) {
  QWidget::showEvent(event);
  if (runs_.take_stale()) rerun();
}

void ExploreView::rerun() {
  sharpness_label_->setText(plain_number(sharpness()));
  if (!exercise_ || spec_.isEmpty()) return;
  if (!runs_.begin(isVisible())) return;  // rerun with the latest state when the running job ends
  RunInput input = core::case_input(*exercise_, case_id_.toStdString());
  input.params.sharpness = sharpness();
  for (const auto& [name, value] : params_->values()) input.params.variant[name] = value;
  status_->setText(tr("running %1…").arg(spec_));
  cancel_->show();
  arm_variant_runs();
  const auto catalog = session_.catalog();
  const std::string spec = spec_.toStdString();
  run_async<VariantRun>(
      this, [catalog, spec, input] { return run_variant_job(catalog, spec, input); },
      [this, input](Outcome<VariantRun> r) {
        cancel_->hide();
        if (runs_.end() == RunEnd::kSuperseded) {
          rerun();  // the slider moved meanwhile: show only the latest
          return;
        }
        shown_input_ = input;
        if (r.value) {
          run_ = std::move(*r.value);
          QString notes;
          for (const auto& n : run_.notes) notes += tr("note: %1. ").arg(QString::fromStdString(n));
          status_->setText(notes);
        } else {
          run_ = {};
          status_->setText(tr("cannot show %1: %2").arg(spec_, r.error));
        }
        showRun();
        emit updated();
        // Compare runs with the parameters set here (feature_map=relu).
        emit paramsChanged(params_->values());
      });
}

void ExploreView::showRun() {
  const auto& layers = run_.output.layers;
  const QSignalBlocker b1(layer_box_), b2(head_box_);
  layer_box_->clear();
  for (size_t l = 0; l < layers.size(); ++l) layer_box_->addItem(QString::number(l));
  const int layer = shownLayer();
  layer_box_->setCurrentIndex(layer);
  layer_box_->setEnabled(layers.size() > 1 && !asking());
  head_box_->clear();
  if (layer >= 0) {
    const size_t heads = layers[static_cast<size_t>(layer)].result.weights.size();
    for (size_t h = 0; h < heads; ++h) head_box_->addItem(QString::number(h));
    if (head_ >= static_cast<int>(heads)) head_ = 0;
    head_box_->setCurrentIndex(head_);
    head_box_->setEnabled(heads > 1 && !asking());
  }
  showQuery();
}

void ExploreView::showQuery() {
  const auto& layers = run_.output.layers;
  const int layer = shownLayer();
  if (layer < 0 || layers[static_cast<size_t>(layer)].result.weights.empty()) {
    scores_->setValues({}, {}, {}, 0);
    weights_->setValues({}, {}, {}, 1);
    heatmap_->clear();
    sum_->clear();
    return;
  }
  const LayerRun& lr = layers[static_cast<size_t>(layer)];
  const Matrix& a = lr.result.weights[static_cast<size_t>(head_)];
  const Matrix& s =
      lr.result.scores.empty() ? Matrix() : lr.result.scores[static_cast<size_t>(head_)];
  const QStringList tokens = qt_list(shown_input_.tokens);
  const CellMask& mask = run_.mask;
  const auto w = row_of(a, query_);
  const std::vector<bool> masked = masked_keys(mask, w, query_);
  double sum = 0;
  for (double v : w) sum += v;
  const QString q = query_ < tokens.size() ? tokens[query_] : QString::number(query_);
  // A row with no weight at all says why, read from the run, instead of a sum of 0 and a black
  // context: every key masked, or (linear attention with relu) every kernel score 0.
  const auto scores = row_of(s, query_);
  const auto zero = [](const auto& v) {
    return !v.empty() && std::all_of(v.begin(), v.end(), [](auto x) { return x == 0; });
  };
  QString empty;
  if (sum == 0)
    empty = std::all_of(masked.begin(), masked.end(), [](bool m) { return m; })
                ? tr("no weight: every key is masked")
            : run_.family == Family::kLinear && zero(scores)
                ? tr("no weight: every kernel score is 0")
                : tr("no weight: every weight of the row is 0");
  scores_->setTitle(tr("scores S of '%1' (after scale × sharpness, before the mask)").arg(q));
  scores_->setValues(scores, masked, tokens, 0);
  weights_->setTitle(run_.family == Family::kLinear ? tr("kernel weights A of '%1'").arg(q)
                                                    : tr("softmax weights A of '%1'").arg(q));
  weights_->setValues(w, masked, tokens, 1);
  weights_->setCaption(empty.isEmpty() ? tr("sum = %1").arg(value_text(sum)) : empty);
  if (!asking())  // a question hides the weights and what is said of them
    sum_->setText(empty.isEmpty() ? tr("weights of '%1' sum to %2").arg(q, value_text(sum))
                                  : tr("'%1': %2").arg(q, empty));
  context_->setData(lr.input, w, tokens, query_, empty);

  heatmap_->setTitle(tr("A, layer %1, head %2 (row: query, column: key)").arg(layer).arg(head_));
  heatmap_->setMatrix(a, 0, 1, mask);
  heatmap_->setLabels(tokens, tokens);
  heatmap_->setHighlightRow(query_);
  if (auto* b = chips_->button(query_)) b->setChecked(true);
  if (fit_width_ > 0) fitWidth(fit_width_);  // the maps' least sizes follow their shape
  // The other modes draw the same run; only the one on screen is kept up to date.
  if (mode_ == Mode::kAllHeads)
    grid_->setHeads(lr.result.weights, tokens, layer, query_, mask, head_);
  if (mode_ == Mode::kLayers && query_ < layers.front().input.rows)
    layers_view_->setTrace(core::trace_query(run_.output, query_, head_), tokens, query_, head_,
                           mask);
}

int ExploreView::shownLayer() const {
  // The last layer by default; -1 when the run has no layer to show (it failed or was cancelled)
  // or none as deep as the one chosen.
  const int layers = static_cast<int>(run_.output.layers.size());
  return layer_ < 0 ? layers - 1 : (layer_ < layers ? layer_ : -1);
}

bool ExploreView::showMode(const QString& mode) {
  if (mode != QLatin1String("heads") && mode != QLatin1String("layers")) return false;
  setMode(mode == QLatin1String("heads") ? Mode::kAllHeads : Mode::kLayers);
  return true;
}

void ExploreView::setMode(Mode mode) {
  mode_ = mode;
  if (auto* b = modes_->button(static_cast<int>(mode))) b->setChecked(true);
  showBody();
  showQuery();
}

void ExploreView::showBody() {
  const bool hide = asking();
  // The sum names the query's weights: it waits with them.
  sum_->setVisible(!hide);
  if (hide) sum_->clear();
  if (hide != pending_) {
    pending_ = hide;
    emit questionPendingChanged(hide);
  }
  slider_->setEnabled(!hide);
  for (auto* b : modes_->buttons()) b->setEnabled(!hide);
  if (hide) {
    body_->setCurrentWidget(hidden_);
    layer_box_->setEnabled(false);
    head_box_->setEnabled(false);
    return;
  }
  body_->setCurrentWidget(mode_ == Mode::kAllHeads ? static_cast<QWidget*>(grid_)
                          : mode_ == Mode::kLayers ? static_cast<QWidget*>(layers_view_)
                                                   : one_head_);
  layer_box_->setEnabled(layer_box_->count() > 1);
  head_box_->setEnabled(head_box_->count() > 1);
}

void ExploreView::setQuery(int query) {
  const int n = static_cast<int>(chips_->buttons().size());
  if (n == 0 || asking()) return;  // an asked question holds its query until it is answered
  query_ = std::clamp(query, 0, n - 1);
  if (auto* b = chips_->button(query_)) b->setFocus();
  showQuery();
}

void ExploreView::setHead(int head) {
  head_ = std::max(0, std::min(head, head_box_->count() - 1));
  head_box_->setCurrentIndex(head_);
  showQuery();
}

void ExploreView::setLayer(int layer) {
  layer_ = layer;
  showRun();
}

bool ExploreView::eventFilter(QObject* watched, QEvent* event) {
  // Keyboard navigation between tokens: arrows, Home and End on the chips. While a token
  // question waits, they move between the answer chips (the question keeps its query) and
  // Enter or Space answers with the chip that has the focus.
  if (event->type() == QEvent::KeyPress &&
      chips_->id(qobject_cast<QAbstractButton*>(watched)) >= 0 && asking() &&
      exercise_->questions[static_cast<size_t>(question_)].kind == core::QuestionKind::kToken) {
    const auto key = static_cast<QKeyEvent*>(event)->key();
    const int n = static_cast<int>(chips_->buttons().size());
    const int at = chips_->id(qobject_cast<QAbstractButton*>(watched));
    int next = -1;
    if (key == Qt::Key_Right) next = at + 1;
    if (key == Qt::Key_Left) next = at - 1;
    if (key == Qt::Key_Home) next = 0;
    if (key == Qt::Key_End) next = n - 1;
    if (next >= 0 && next < n) {
      chips_->button(next)->setFocus(Qt::OtherFocusReason);
      return true;
    }
    if (key == Qt::Key_Return || key == Qt::Key_Enter || key == Qt::Key_Space) {
      answerQuestion(at);
      return true;
    }
    if (next != -1) return true;
  }
  if (event->type() == QEvent::KeyPress) {
    const auto key = static_cast<QKeyEvent*>(event)->key();
    const int n = static_cast<int>(chips_->buttons().size());
    int next = -1;
    if (key == Qt::Key_Right) next = query_ + 1;
    if (key == Qt::Key_Left) next = query_ - 1;
    if (key == Qt::Key_Home) next = 0;
    if (key == Qt::Key_End) next = n - 1;
    if (next >= 0 && next < n) {
      setQuery(next);
      return true;
    }
    if (next != -1) return true;
  }
  return QWidget::eventFilter(watched, event);
}

QString ExploreView::csv() const {
  QString out;
  const QStringList tokens = qt_list(shown_input_.tokens);
  for (size_t l = 0; l < run_.output.layers.size(); ++l) {
    const auto& r = run_.output.layers[l].result;
    for (size_t h = 0; h < r.weights.size(); ++h) {
      const QString tag = QStringLiteral("layer %1 head %2").arg(l).arg(h);
      append_csv(out, "A " + tag, r.weights[h], tokens);
      if (h < r.scores.size()) append_csv(out, "S " + tag, r.scores[h], tokens);
    }
    append_csv(out, QStringLiteral("Z layer %1").arg(l), r.z, tokens);
  }
  return out;
}

}  // namespace awb::gui
