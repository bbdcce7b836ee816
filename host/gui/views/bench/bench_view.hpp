// bench_view.hpp: `awb bench` in the window: a sweep of T on the checked variants, run off the GUI
// thread, drawn as time and peak memory against T on log-log axes, exported as PNG and CSV.
#ifndef AWB_GUI_BENCH_VIEW_HPP_
#define AWB_GUI_BENCH_VIEW_HPP_

#include <QCheckBox>
#include <QComboBox>
#include <QFutureWatcher>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QWidget>
#include <optional>

#include "gui/charts/loglog_chart.hpp"
#include "gui/session/session.hpp"
#include "gui/session/view.hpp"
#include "gui/views/bench/bench_sweep.hpp"

namespace awb::gui {

class BenchView : public View {
  Q_OBJECT
 public:
  explicit BenchView(Session& session, QWidget* parent = nullptr);
  ~BenchView() override;

  // Checks exactly these variants (the plugin browser's selection); nothing runs until Run.
  void setVariants(const QStringList& specs);
  QStringList checkedVariants() const;
  // What the controls ask for; nothing, with `error` set, when they do not make a sweep.
  std::optional<BenchRequest> request(QString* error = nullptr) const;
  // Starts a sweep (ignored while one runs); the charts fill in as points arrive.
  void start(const BenchRequest& request);
  void cancel();

  bool busy() const override { return watcher_ != nullptr; }
  const std::vector<BenchPoint>& points() const { return points_; }
  QString csv() const override { return bench_csv(points_); }
  void showVariants(const QStringList& specs) override { setVariants(specs); }
  // The two charts as one image at `device_pixel_ratio` (2: twice the pixels of the screen's
  // logical size), and the files of the export buttons.
  bool exportPng(const QString& path, double device_pixel_ratio = 2) const;
  bool exportCsv(const QString& path) const;

  LogLogChart* timeChart() const { return time_; }
  LogLogChart* memoryChart() const { return memory_; }
  QWidget* plots() const { return plots_; }
  QLineEdit* tokensEdit() const { return tokens_; }
  QProgressBar* progress() const { return progress_; }
  QLabel* notes() const { return notes_; }
  // The settings of the last sweep, drawn under the charts (so in the PNG too): d, scalar,
  // causal, A, quick, threads, the repetition rule, in-process or runner, the machine.
  QString caption() const;
  QLabel* captionLabel() const { return caption_; }

 signals:
  void pointAdded();
  void finished();

 protected:
  void changeEvent(QEvent* event) override;

 private:
  void fitTokensField();
  void fillVariants();
  void runClicked();
  void addPoints(int begin, int end);
  void runEnded();
  void showPoints();
  static QString timing_text(const core::BenchSettings& s);

  Session& session_;
  std::vector<BenchPoint> points_;
  std::optional<BenchRequest> request_;  // of the last sweep started
  int total_ = 0;
  QFutureWatcher<BenchPoint>* watcher_ = nullptr;
  std::shared_ptr<std::atomic<bool>> cancel_;

  QListWidget* variants_;
  QLineEdit* tokens_;
  QSpinBox* d_;
  QComboBox* scalar_;
  QCheckBox *causal_, *want_a_, *w_o_, *quick_;
  QPushButton *run_, *cancel_button_, *export_png_, *export_csv_;
  QProgressBar* progress_;
  QLabel *status_, *notes_, *caption_;
  QWidget* plots_;
  LogLogChart *time_, *memory_;
};

}  // namespace awb::gui

#endif  // AWB_GUI_BENCH_VIEW_HPP_
