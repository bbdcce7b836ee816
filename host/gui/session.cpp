// session.cpp: catalog loading and watching, and the worker-thread jobs.
#include "gui/session.hpp"

#include <QSettings>

#include "core/grading/grading.hpp"
#include "core/grading/subject_factory.hpp"

namespace awb::gui {
namespace {

constexpr const char* kFoldersKey = "plugins/folders";

// One warm subject (for an untrusted plugin: one runner) per variant, for the explore view.
core::WarmVariants& warm_subjects() {
  static core::WarmVariants subjects;
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
    return p;
  }();
  return *pool;
}

QString variant_spec(const core::PluginDesc& plugin, const core::VariantDesc& variant) {
  return QString::fromStdString(plugin.id + ":" + variant.id);
}

VariantRun run_variant_job(const CatalogPtr& catalog, const std::string& spec,
                           const RunInput& input) {
  const core::VariantRef ref = core::find_variant(*catalog, spec);
  VariantRun run;
  const RunInput fitted =
      core::demonstration_input(input, ref.variant->capabilities, Scalar::kF64, &run.notes);
  run.causal = fitted.params.causal;
  run.output = warm_subjects().run(ref, fitted, Scalar::kF64);
  return run;
}

core::Comparison compare_job(const CatalogPtr& catalog, const std::vector<std::string>& specs,
                             const RunInput& input, uint64_t reference_capabilities) {
  std::vector<std::unique_ptr<Subject>> subjects;
  std::vector<core::Contender> contenders;
  for (const auto& spec : specs) {
    const core::VariantRef ref = core::find_variant(*catalog, spec);
    subjects.push_back(core::make_subject(ref));
    contenders.push_back({ref.variant->id, ref.variant->capabilities, subjects.back().get()});
  }
  return core::compare_variants(input, reference_capabilities, contenders);
}

grade::GradeReport grade_job(const CatalogPtr& catalog, const std::string& spec,
                             const core::Exercise& exercise) {
  // The CLI's path: `awb grade --plugin SPEC --exercise ID` calls the same function.
  return core::grade_variant(core::find_variant(*catalog, spec), {&exercise});
}

Session::Session(const QStringList& plugin_dirs, const QStringList& exercise_dirs, QObject* parent)
    : QObject(parent), transient_(plugin_dirs) {
  remembered_ = QSettings().value(kFoldersKey).toStringList();
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
  QSettings().setValue(kFoldersKey, remembered_);
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
