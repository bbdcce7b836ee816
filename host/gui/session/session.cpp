// session.cpp: catalog loading and watching, and the worker-thread jobs.
#include "gui/session/session.hpp"

#include <QSettings>

#include "core/grading/grading.hpp"
#include "core/grading/subject_factory.hpp"
#include "core/plugins/reference_forward.hpp"

namespace awb::gui {
namespace {

constexpr const char* kFoldersKey = "plugins/folders";

// Set by cancel_variant_runs(); cleared when the next run starts.
const std::shared_ptr<std::atomic<bool>>& variant_cancel() {
  static const auto token = std::make_shared<std::atomic<bool>>(false);
  return token;
}

// One warm subject (for an untrusted plugin: one runner) per variant, for the explore view.
core::WarmVariants& warm_subjects() {
  static core::WarmVariants subjects([] {
    core::SessionOptions options;
    options.runner.cancel = variant_cancel();
    return options;
  }());
  return subjects;
}

std::vector<std::filesystem::path> to_paths(const QStringList& list) {
  std::vector<std::filesystem::path> out;
  for (const auto& s : list) out.emplace_back(s.toStdString());
  return out;
}

}  // namespace

QThreadPool& job_pool() {
  static QThreadPool* pool = [] {
    auto* p = new QThreadPool;  // lives as long as the process: jobs may outlive every window
    p->setMaxThreadCount(8);    // a few hanging plugins must not queue the next request
    // Threads never retire: a runner dies with the thread that started it (its parent-death
    // signal follows that thread, not the process), and a warm runner must outlive idle time.
    p->setExpiryTimeout(-1);
    return p;
  }();
  return *pool;
}

QString variant_spec(const core::PluginDesc& plugin, const core::VariantDesc& variant) {
  return QString::fromStdString(plugin.id + ":" + variant.id);
}

void cancel_variant_runs() { variant_cancel()->store(true); }
void arm_variant_runs() { variant_cancel()->store(false); }

VariantRun run_variant_job(const CatalogPtr& catalog, const std::string& spec,
                           const RunInput& input) {
  const core::VariantRef ref = core::find_variant(*catalog, spec);
  VariantRun run;
  const RunInput fitted =
      core::demonstration_input(input, ref.variant->capabilities, Scalar::kF64, &run.notes);
  run.causal = fitted.params.causal;
  run.mask = cell_mask_of(fitted.params, ref.variant->params);
  run.family = core::declared_family(ref.variant->params);
  run.output = warm_subjects().run(ref, fitted, Scalar::kF64);
  return run;
}

CompareRun compare_job(const CatalogPtr& catalog, const std::vector<std::string>& specs,
                       const RunInput& input, uint64_t reference_capabilities,
                       const ParamValues& values) {
  std::vector<std::unique_ptr<Subject>> subjects;
  std::vector<core::Contender> contenders;
  for (const auto& spec : specs) {
    const core::VariantRef ref = core::find_variant(*catalog, spec);
    subjects.push_back(core::make_subject(ref));
    contenders.push_back({ref.variant->id, ref.variant->capabilities, subjects.back().get(),
                          ref.variant->params, values});
  }
  CompareRun out;
  out.comparison = core::compare_variants(input, reference_capabilities, contenders);
  out.reference_mask =
      cell_mask_of(input.params, core::reference_params(input.params.family).decls);
  for (size_t i = 0; i < contenders.size(); ++i)
    out.masks.push_back(cell_mask_of(out.comparison.entries[i].params, contenders[i].params));
  return out;
}

grade::GradeReport grade_job(const CatalogPtr& catalog, const std::string& spec,
                             const std::vector<const core::Exercise*>& exercises,
                             const core::Assignment* assignment, const CancelToken& cancel,
                             const std::function<void(int, int)>& progress) {
  // The CLI's path: `awb grade --variant SPEC --exercise ID` (or `--assignment`) calls the same
  // functions, only all exercises at once.
  const core::VariantRef ref = core::find_variant(*catalog, spec);
  core::GradeOptions options;
  options.session.runner.cancel = cancel;
  if (assignment) options = core::under_assignment(*assignment, ref.variant, options);
  grade::GradeReport report;
  report.subject = spec;
  const int total = static_cast<int>(exercises.size());
  for (int i = 0; i < total && !cancel->load(); ++i) {
    grade::GradeReport one = core::grade_variant(ref, {exercises[static_cast<size_t>(i)]}, options);
    if (cancel->load())
      break;  // cut short by Cancel: its errors are the cancel's, not the plugin's
    if (i == 0) {
      report.subject = one.subject;
      report.plugin_path = one.plugin_path;
    }
    for (auto& e : one.exercises) report.exercises.push_back(std::move(e));
    report.execution_seconds += one.execution_seconds;
    if (progress) progress(i + 1, total);
  }
  return report;
}

Session::Session(const QStringList& plugin_dirs, const QStringList& exercise_dirs, Memory memory,
                 QObject* parent)
    : QObject(parent), memory_(memory), transient_(plugin_dirs) {
  if (remembers()) remembered_ = QSettings().value(kFoldersKey).toStringList();
  auto dirs = to_paths(exercise_dirs);
  if (dirs.empty()) dirs.push_back(core::bundled_exercise_dir());
  exercises_ = core::load_exercises(dirs);
  reload_timer_.setSingleShot(true);
  reload_timer_.setInterval(300);
  connect(&reload_timer_, &QTimer::timeout, this, &Session::reloadCatalog);
  connect(&watcher_, &QFileSystemWatcher::fileChanged, this, [this] { reload_timer_.start(); });
  connect(&watcher_, &QFileSystemWatcher::directoryChanged, this,
          [this] { reload_timer_.start(); });
  reloadCatalog();
}

const core::Exercise* Session::exercise(const QString& id) const {
  for (const auto& e : exercises_.exercises)
    if (e.id == id.toStdString()) return &e;
  return nullptr;
}

QStringList Session::pluginFolders() const {
  QStringList all = remembered_;
  for (const auto& d : transient_)
    if (!all.contains(d)) all << d;
  return all;
}

void Session::addPluginFolder(const QString& folder) {
  if (remembered_.contains(folder)) return;
  remembered_ << folder;
  if (remembers()) QSettings().setValue(kFoldersKey, remembered_);
  reloadCatalog();
}

void Session::removePluginFolder(const QString& folder) {
  const bool was_remembered = remembered_.removeAll(folder) > 0;
  if (transient_.removeAll(folder) == 0 && !was_remembered) return;
  if (was_remembered && remembers()) QSettings().setValue(kFoldersKey, remembered_);
  reloadCatalog();
}

void Session::reloadCatalog() {
  // Drop our hold first, so a rebuilt file is opened afresh rather than found still loaded
  // (jobs in flight keep their own reference to the old catalog).
  catalog_.reset();
  warm_subjects().clear();
  catalog_ = std::make_shared<const core::Catalog>(
      core::load_catalog(core::plugin_search_path(to_paths(pluginFolders()))));
  watchPlugins();
  emit catalogChanged();
}

void Session::watchPlugins() {
  if (!watcher_.files().isEmpty()) watcher_.removePaths(watcher_.files());
  if (!watcher_.directories().isEmpty()) watcher_.removePaths(watcher_.directories());
  QStringList files, dirs;
  for (const auto& p : catalog_->plugins) {
    files << QString::fromStdString(p.path.string());
    const auto dir = QString::fromStdString(p.path.parent_path().string());
    if (!dirs.contains(dir)) dirs << dir;
  }
  for (const auto& f : catalog_->failures) files << QString::fromStdString(f.path.string());
  if (!files.isEmpty()) watcher_.addPaths(files);
  if (!dirs.isEmpty()) watcher_.addPaths(dirs);
}

}  // namespace awb::gui
