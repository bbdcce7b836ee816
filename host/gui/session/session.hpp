// session.hpp: what the window works on: the plugin catalog (reloaded when a plugin file changes
// on disk), the exercises, and the plugin calls, which run off the GUI thread.
#ifndef AWB_GUI_SESSION_HPP_
#define AWB_GUI_SESSION_HPP_

#include <QFileSystemWatcher>
#include <QFutureWatcher>
#include <QObject>
#include <QStringList>
#include <QThreadPool>
#include <QTimer>
#include <QtConcurrent/QtConcurrentRun>
#include <atomic>
#include <functional>
#include <memory>
#include <optional>

#include "core/compare/compare.hpp"
#include "core/exercises/exercise.hpp"
#include "core/grading/assignment.hpp"
#include "core/plugins/plugin_loader.hpp"
#include "graders/report/report.hpp"
#include "gui/charts/cell_mask.hpp"

namespace awb::gui {

using CatalogPtr = std::shared_ptr<const core::Catalog>;

// What a job returns: a value, or the error that stopped it.
template <class T>
struct Outcome {
  std::optional<T> value;
  QString error;
};

// The pool plugin jobs run on. Not Qt's global pool: the raster paint engine borrows threads
// from that one and waits for them, so plugins hanging there would stall painting.
QThreadPool& job_pool();

// Runs `work` on the job pool and hands its outcome to `done` on `context`'s thread. An
// exception from `work` becomes the outcome's error. A plugin call that never returns keeps
// one pool thread, never the window.
template <class T>
void run_async(QObject* context, std::function<T()> work, std::function<void(Outcome<T>)> done) {
  auto* watcher = new QFutureWatcher<Outcome<T>>(context);
  QObject::connect(watcher, &QFutureWatcher<Outcome<T>>::finished, context, [watcher, done] {
    done(watcher->result());
    watcher->deleteLater();
  });
  watcher->setFuture(QtConcurrent::run(&job_pool(), [work]() -> Outcome<T> {
    try {
      return {work(), {}};
    } catch (const std::exception& e) {
      return {std::nullopt, QString::fromStdString(e.what())};
    }
  }));
}

// A variant run on an exercise input, fitted to what the variant understands.
struct VariantRun {
  RunOutput output;
  std::vector<std::string> notes;
  bool causal = false;  // the mask was on (asked for, or a causal-only variant)
  CellMask mask;        // the cells it leaves exactly 0: the causal mask, a sliding window
  Family family = Family::kSoftmax;  // what it computes, judged from its declarations
};

// A comparison and the masks of its maps: the reference's, and each entry's (in entry order).
struct CompareRun {
  core::Comparison comparison;
  CellMask reference_mask;
  std::vector<CellMask> masks;
};

// The jobs the views start; each runs in a worker thread and creates its subject there.
VariantRun run_variant_job(const CatalogPtr& catalog, const std::string& spec,
                           const RunInput& input);
// `values`: parameter values set over the input's, each given to the variants that declare it.
CompareRun compare_job(const CatalogPtr& catalog, const std::vector<std::string>& specs,
                       const RunInput& input, uint64_t reference_capabilities,
                       const ParamValues& values = {});
// A job's Cancel: set from the GUI thread, read by the job and its runner (which it stops).
using CancelToken = std::shared_ptr<std::atomic<bool>>;

// Grades `spec` on `exercises` (under `assignment` when set: every check counts) one exercise at
// a time, stopping before the next when `cancel` is set; the runner of an untrusted plugin is
// stopped within 100 ms of it. `progress(done, total)` is called from the worker thread.
grade::GradeReport grade_job(const CatalogPtr& catalog, const std::string& spec,
                             const std::vector<const core::Exercise*>& exercises,
                             const core::Assignment* assignment, const CancelToken& cancel,
                             const std::function<void(int, int)>& progress = {});

// "plugin.id:variant-id": unambiguous across plugins.
QString variant_spec(const core::PluginDesc& plugin, const core::VariantDesc& variant);

// Stops the explore run in flight, if any (its runner ends within 100 ms).
void cancel_variant_runs();
// Clears a Cancel meant for an earlier run; called on the GUI thread as a run is asked for, so
// that a Cancel clicked before the job reaches a worker thread still counts.
void arm_variant_runs();

class Session : public QObject {
  Q_OBJECT
 public:
  // Whether the session reads and writes what earlier runs remembered (plugin folders, the
  // window's layout and zoom). A screenshot or a layout check renders the same window on every
  // machine, so it remembers nothing.
  enum class Memory { kRemembered, kThisRunOnly };

  // `plugin_dirs` are added to the folders remembered from earlier runs for this run only.
  Session(const QStringList& plugin_dirs, const QStringList& exercise_dirs,
          Memory memory = Memory::kRemembered, QObject* parent = nullptr);

  bool remembers() const { return memory_ == Memory::kRemembered; }

  CatalogPtr catalog() const { return catalog_; }
  const core::ExerciseSet& exercises() const { return exercises_; }
  const core::Exercise* exercise(const QString& id) const;
  QStringList pluginFolders() const;
  // Adds a folder (or plugin file) and remembers it between runs (QSettings).
  void addPluginFolder(const QString& folder);
  // Forgets a folder (remembered, or given for this run) and reloads without it.
  void removePluginFolder(const QString& folder);
  void reloadCatalog();

 signals:
  void catalogChanged();

 private:
  void watchPlugins();

  Memory memory_;
  QStringList remembered_, transient_;
  CatalogPtr catalog_;
  core::ExerciseSet exercises_;
  QFileSystemWatcher watcher_;
  QTimer reload_timer_;  // a rebuild writes the file in several steps: reload once it settles
};

}  // namespace awb::gui

#endif  // AWB_GUI_SESSION_HPP_
