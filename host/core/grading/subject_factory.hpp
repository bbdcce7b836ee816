// subject_factory.hpp: the one place the front ends turn a chosen variant into a runnable
// Subject (in-process for trusted plugins, in an isolated runner for the others), and the
// exercise and case they name into what the subject runs.
#ifndef AWB_CORE_GRADING_SUBJECT_FACTORY_HPP_
#define AWB_CORE_GRADING_SUBJECT_FACTORY_HPP_

#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "core/exercises/exercise.hpp"
#include "core/plugins/plugin_loader.hpp"
#include "core/plugins/variant_session.hpp"
#include "graders/model/run.hpp"

namespace awb::core {

// In-process for trusted plugins, in an awb-runner otherwise (core/plugins/variant_session.hpp).
// Throws awb::Error("plugin.create_failed", "plugin.load_failed", "runner.*") when the variant
// cannot be set up.
std::unique_ptr<Subject> make_subject(const VariantRef& variant,
                                      const SessionOptions& options = {});

// One warm subject per variant between calls (the GUI keeps a runner per untrusted plugin so a
// slider drag does not start a process per frame). A subject whose run fails is dropped, so the
// next call starts afresh: a runner is restarted after a fault. Thread-safe; calls on one
// variant are serialised.
class WarmVariants {
 public:
  explicit WarmVariants(SessionOptions options = {}) : options_(std::move(options)) {}
  RunOutput run(const VariantRef& variant, const RunInput& input, Scalar scalar);
  void clear();  // the catalog changed (a plugin was rebuilt)

 private:
  struct Entry {
    std::mutex mutex;
    std::unique_ptr<Subject> subject;
  };
  SessionOptions options_;
  std::mutex mutex_;
  std::map<std::string, std::shared_ptr<Entry>> entries_;
};

// The exercise with `id` in `set`; throws Error("exercise.not_found").
const Exercise& find_exercise(const ExerciseSet& set, const std::string& id);
// What one case of an exercise runs (the first case when `case_id` is empty); throws
// Error("exercise.case_not_found"), with the closest case id, for a name that names no case.
RunInput case_input(const Exercise& exercise, const std::string& case_id = {});

}  // namespace awb::core

#endif  // AWB_CORE_GRADING_SUBJECT_FACTORY_HPP_
