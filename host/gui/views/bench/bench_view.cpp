// bench_view.cpp: controls, the sweep as one job on the job pool (points come back one by one
// through a future watcher, on the GUI thread), and the charts rebuilt from the points.
#include "gui/views/bench/bench_view.hpp"

#include <QEvent>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QMessageBox>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>
#include <algorithm>
#include <map>

#include "core/base/version.hpp"
#include "core/bench/bench_plan.hpp"
#include "core/bench/machine.hpp"
#include "gui/charts/export.hpp"
#include "gui/charts/labels.hpp"

namespace awb::gui {
namespace {

constexpr int kSpecRole = Qt::UserRole + 1;
constexpr const char* kDefaultTokens = "128, 256, 512, 1024, 2048, 4096";

}  // namespace

// Long for a reason: the widget tree, built top to bottom in the order it is shown, with its
// connections beside each widget.
BenchView::BenchView(Session& session, QWidget* parent) : View(parent), session_(session) {
  variants_ = new QListWidget;
  variants_->setToolTip(
      tr("The variants to sweep; selecting variants in the plugin browser "
         "checks them here"));
  tokens_ = new QLineEdit(QString::fromLatin1(kDefaultTokens));
  tokens_->setToolTip(tr("Sequence lengths T, separated by commas or spaces"));
  d_ = new QSpinBox;
  d_->setRange(1, 4096);
  d_->setValue(64);
  scalar_ = new QComboBox;
  scalar_->addItems({"f32", "f64"});
  causal_ = new QCheckBox(tr("causal mask"));
  want_a_ = new QCheckBox(tr("A wanted (materialised path)"));
  // Off for every variant, as in `awb bench`: on, a variant with an output projection takes W_o
  // and one without it skips the point (the note says why).
  w_o_ = new QCheckBox(tr("W_o (output projection)"));
  quick_ = new QCheckBox(tr("quick (fewer calls per point)"));
  run_ = new QPushButton(tr("&Run"));
  cancel_button_ = new QPushButton(tr("Cancel"));
  cancel_button_->setEnabled(false);
  export_png_ = new QPushButton(tr("Export PNG…"));
  export_csv_ = new QPushButton(tr("Export CSV…"));
  progress_ = new QProgressBar;
  progress_->setFormat(tr("%v / %m points"));
  progress_->setRange(0, 1);
  progress_->setValue(0);
  status_ = new QLabel;
  status_->setWordWrap(true);

  auto* form = new QFormLayout;
  form->addRow(tr("T"), tokens_);
  form->addRow(tr("d"), d_);
  form->addRow(tr("scalar"), scalar_);
  auto* controls = new QVBoxLayout;
  controls->addWidget(new QLabel(tr("variants")));
  controls->addWidget(variants_, 1);
  controls->addLayout(form);
  for (QCheckBox* box : {causal_, want_a_, w_o_, quick_}) controls->addWidget(box);
  auto* buttons = new QHBoxLayout;
  buttons->addWidget(run_);
  buttons->addWidget(cancel_button_);
  controls->addLayout(buttons);
  controls->addWidget(progress_);
  controls->addWidget(status_);
  auto* exports = new QHBoxLayout;
  exports->addWidget(export_png_);
  exports->addWidget(export_csv_);
  controls->addLayout(exports);
  auto* control_panel = new QWidget;
  control_panel->setLayout(controls);
  fitTokensField();

  time_ = new LogLogChart;
  time_->setTitle(tr("time per call (ms, median of the timed calls)"));
  time_->setAxisTitle(tr("T (tokens)"));
  memory_ = new LogLogChart;
  memory_->setTitle(tr("peak memory (MiB: inputs, outputs and the first call's high water)"));
  memory_->setAxisTitle(tr("T (tokens)"));
  plots_ = new QWidget;
  auto* plot_layout = new QVBoxLayout(plots_);
  plot_layout->setContentsMargins(0, 0, 0, 0);
  plot_layout->addWidget(time_, 1);
  plot_layout->addWidget(memory_, 1);
  // Part of the exported image, so a PNG says how its numbers were made.
  caption_ = new QLabel;
  caption_->setWordWrap(true);
  plot_layout->addWidget(caption_);
  notes_ = new QLabel;
  notes_->setWordWrap(true);
  notes_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  auto* right = new QVBoxLayout;
  right->addWidget(plots_, 1);
  right->addWidget(notes_);

  auto* layout = new QHBoxLayout(this);
  layout->addWidget(control_panel, 0);
  layout->addLayout(right, 1);

  connect(run_, &QPushButton::clicked, this, &BenchView::runClicked);
  connect(cancel_button_, &QPushButton::clicked, this, &BenchView::cancel);
  connect(export_png_, &QPushButton::clicked, this, [this] {
    const QString path = QFileDialog::getSaveFileName(this, tr("Export PNG"), {}, "PNG (*.png)");
    if (!path.isEmpty() && !exportPng(path))
      QMessageBox::warning(this, tr("Export"), tr("Could not write %1").arg(path));
  });
  connect(export_csv_, &QPushButton::clicked, this, [this] {
    const QString path = QFileDialog::getSaveFileName(this, tr("Export CSV"), {}, "CSV (*.csv)");
    if (!path.isEmpty() && !exportCsv(path))
      QMessageBox::warning(this, tr("Export"), tr("Could not write %1").arg(path));
  });
  connect(&session_, &Session::catalogChanged, this, &BenchView::fillVariants);
  fillVariants();
}

BenchView::~BenchView() {
  // The job holds its own catalog and request; it only needs telling to stop.
  if (cancel_) cancel_->store(true);
}

void BenchView::fitTokensField() {
  // The default list of T whole, in the view's font (it follows the window's zoom).
  tokens_->setMinimumWidth(fontMetrics().horizontalAdvance(QString::fromLatin1(kDefaultTokens)) +
                           fontMetrics().averageCharWidth() * 4);
}

void BenchView::changeEvent(QEvent* event) {
  if (event->type() == QEvent::FontChange) fitTokensField();
  QWidget::changeEvent(event);
}

void BenchView::fillVariants() {
  const QStringList checked = checkedVariants();
  variants_->clear();
  // A variant id that several plugins provide (every mutant has its "qkv") is shown as its spec.
  QStringList ids, specs;
  for (const auto& p : session_.catalog()->plugins)
    for (const auto& v : p.variants) {
      ids << QString::fromStdString(v.id);
      specs << variant_spec(p, v);
    }
  const QStringList names = distinct_names(ids, specs, QStringLiteral("%2"));
  for (int i = 0; i < specs.size(); ++i) {
    auto* item = new QListWidgetItem(names[i], variants_);
    item->setData(kSpecRole, specs[i]);
    item->setToolTip(specs[i]);
    item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
    item->setCheckState(checked.contains(specs[i]) ? Qt::Checked : Qt::Unchecked);
  }
}

void BenchView::setVariants(const QStringList& specs) {
  for (int i = 0; i < variants_->count(); ++i) {
    auto* item = variants_->item(i);
    item->setCheckState(specs.contains(item->data(kSpecRole).toString()) ? Qt::Checked
                                                                         : Qt::Unchecked);
  }
}

QStringList BenchView::checkedVariants() const {
  QStringList out;
  for (int i = 0; i < variants_->count(); ++i)
    if (variants_->item(i)->checkState() == Qt::Checked)
      out << variants_->item(i)->data(kSpecRole).toString();
  return out;
}

std::optional<BenchRequest> BenchView::request(QString* error) const {
  BenchRequest r;
  r.specs = checkedVariants();
  if (r.specs.isEmpty()) {
    if (error) *error = tr("check at least one variant");
    return std::nullopt;
  }
  r.tokens = parse_tokens(tokens_->text(), error);
  if (r.tokens.empty()) return std::nullopt;
  r.d = d_->value();
  r.scalar = core::parse_scalar(scalar_->currentText().toStdString());
  r.causal = causal_->isChecked();
  r.want_weights = want_a_->isChecked();
  r.w_o = w_o_->isChecked();
  r.quick = quick_->isChecked();
  return r;
}

void BenchView::runClicked() {
  QString error;
  if (auto r = request(&error))
    start(*r);
  else
    status_->setText(tr("cannot run: %1").arg(error));
}

void BenchView::start(const BenchRequest& request) {
  if (busy() || request.total() == 0) return;
  points_.clear();
  total_ = request.total();
  cancel_ = std::make_shared<std::atomic<bool>>(false);
  request_ = request;
  const core::BenchSettings s =
      core::bench_settings(request.quick, 0, request.warmup, request.reps);
  status_->setText(
      tr("%1 warm-up + %2 per point, %3 threads").arg(s.warmup).arg(timing_text(s)).arg(s.threads));
  progress_->setRange(0, total_);
  progress_->setValue(0);
  run_->setEnabled(false);
  cancel_button_->setEnabled(true);
  showPoints();
  watcher_ = new QFutureWatcher<BenchPoint>(this);
  connect(watcher_, &QFutureWatcher<BenchPoint>::resultsReadyAt, this, &BenchView::addPoints);
  connect(watcher_, &QFutureWatcher<BenchPoint>::finished, this, &BenchView::runEnded);
  watcher_->setFuture(
      QtConcurrent::run(&job_pool(), bench_sweep_job, session_.catalog(), request, cancel_));
}

void BenchView::cancel() {
  if (!busy()) return;
  cancel_->store(true);
  cancel_button_->setEnabled(false);
  status_->setText(tr("cancelling after the current point…"));
}

void BenchView::addPoints(int begin, int end) {
  for (int i = begin; i < end; ++i) points_.push_back(watcher_->future().resultAt(i));
  progress_->setValue(static_cast<int>(points_.size()));
  showPoints();
  emit pointAdded();
}

void BenchView::runEnded() {
  watcher_->deleteLater();
  watcher_ = nullptr;
  run_->setEnabled(true);
  cancel_button_->setEnabled(false);
  int measured = 0;
  for (const auto& p : points_) measured += p.result.status == "ok";
  const int done = static_cast<int>(points_.size());
  status_->setText(done < total_ ? tr("cancelled after %1 of %2 points").arg(done).arg(total_)
                                 : tr("%1 points, %2 measured").arg(done).arg(measured));
  emit finished();
}

void BenchView::showPoints() {
  // One series per variant, in the order of the request; T ascending within each.
  std::vector<const BenchPoint*> order;  // each variant's first point
  std::map<QString, std::vector<const BenchPoint*>> by_spec;
  QStringList notes;
  for (const auto& p : points_) {
    if (!by_spec.count(p.spec)) order.push_back(&p);
    auto& list = by_spec[p.spec];
    if (p.result.status == "ok") {
      list.push_back(&p);
    } else {
      notes << tr("%1, T = %2: %3 (%4)")
                   .arg(p.variant)
                   .arg(p.shape.tokens)
                   .arg(QString::fromStdString(p.result.status),
                        QString::fromStdString(p.result.note));
    }
  }
  // The legend names each series by its variant id, or by its spec where ids repeat.
  QStringList ids, specs;
  for (const BenchPoint* head : order) {
    ids << head->variant;
    specs << head->spec;
  }
  const QStringList labels = distinct_names(ids, specs, QStringLiteral("%2"));
  std::vector<LogLogChart::Series> times, memories;
  for (size_t i = 0; i < order.size(); ++i) {
    const BenchPoint* head = order[i];
    const QString& label = labels[static_cast<int>(i)];
    auto list = by_spec[head->spec];
    std::stable_sort(list.begin(), list.end(), [](const BenchPoint* a, const BenchPoint* b) {
      return a->shape.tokens < b->shape.tokens;
    });
    std::vector<double> t, ms, mib;
    for (const BenchPoint* p : list) {
      t.push_back(static_cast<double>(p->shape.tokens));
      ms.push_back(p->result.measure.median * 1e3);
      mib.push_back(p->result.measure.footprint_bytes() / (1024.0 * 1024.0));
    }
    LogLogChart::Series time{label, loglog_slope_note(t, ms), {}};
    LogLogChart::Series memory{time.label, loglog_slope_note(t, mib), {}};
    for (size_t i = 0; i < t.size(); ++i) {
      time.points.emplace_back(t[i], ms[i]);
      memory.points.emplace_back(t[i], mib[i]);
    }
    times.push_back(std::move(time));
    memories.push_back(std::move(memory));
  }
  time_->setSeries(std::move(times));
  memory_->setSeries(std::move(memories));
  caption_->setText(caption());
  notes_->setText(notes.isEmpty() ? QString() : tr("Not plotted: ") + notes.join("; "));
}

QString BenchView::timing_text(const core::BenchSettings& s) {
  if (s.reps > 0) return tr("%1 timed calls").arg(s.reps);
  return tr("timed calls to ±%1 % (95 % interval of the median, ≤ %2 s)")
      .arg(100 * s.target, 0, 'g', 3)
      .arg(s.max_seconds, 0, 'g', 3);
}

QString BenchView::caption() const {
  if (!request_) return {};
  const BenchRequest& r = *request_;
  const core::BenchSettings s = core::bench_settings(r.quick, 0, r.warmup, r.reps);
  QStringList modes;  // of the points drawn so far
  for (const auto& p : points_)
    if (!p.result.mode.empty() && !modes.contains(QString::fromStdString(p.result.mode)))
      modes << QString::fromStdString(p.result.mode);
  static const core::MachineInfo machine = core::this_machine();
  QString params;  // "window=16, " when the request sets any
  for (const auto& [name, value] : r.params)
    params += QString::fromStdString(name + "=" + value) + QStringLiteral(", ");
  return tr("%12d = %1, %2, causal %3, A %4, W_o %13, quick %5, %6 threads, %7, run %8; %9 "
            "(%10), awb %11")
      .arg(r.d)
      .arg(QString::fromUtf8(to_string(r.scalar)))
      .arg(r.causal ? tr("on") : tr("off"))
      .arg(r.want_weights ? tr("on") : tr("off"))
      .arg(r.quick ? tr("on") : tr("off"))
      .arg(s.threads)
      .arg(timing_text(s))
      .arg(modes.isEmpty() ? tr("mode pending") : modes.join(QStringLiteral(", ")))
      .arg(QString::fromStdString(machine.cpu_model))
      .arg(QString::fromStdString([&] {
        std::string isa;
        for (const auto& f : machine.isa) isa += (isa.empty() ? "" : " ") + f;
        return isa;
      }()))
      .arg(QStringLiteral(AWB_VERSION))
      .arg(params)
      .arg(r.w_o ? tr("on") : tr("off"));
}

bool BenchView::exportPng(const QString& path, double device_pixel_ratio) const {
  return save_png(plots_, path, device_pixel_ratio);
}

bool BenchView::exportCsv(const QString& path) const { return save_text(csv(), path); }

}  // namespace awb::gui
