// subject_factory.hpp: the one place the front ends turn a chosen variant into a runnable
// Subject (in-process today; an isolated runner for untrusted plugins later).
#ifndef AWB_CORE_SUBJECT_FACTORY_HPP_
#define AWB_CORE_SUBJECT_FACTORY_HPP_

#include <memory>
#include <string>

#include "core/exercise.hpp"
#include "core/plugin_loader.hpp"
#include "model/run.hpp"

namespace awb::core {

// Throws awb::Error("plugin.create_failed") when the variant cannot be instantiated.
std::unique_ptr<Subject> make_subject(const VariantRef& variant);

// The exercise with `id` in `set`; throws Error("exercise.not_found").
const Exercise& find_exercise(const ExerciseSet& set, const std::string& id);
// What one case of an exercise runs (the first case when `case_id` is empty); throws
// Error("exercise.unknown_case").
RunInput case_input(const Exercise& exercise, const std::string& case_id = {});

}  // namespace awb::core

#endif  // AWB_CORE_SUBJECT_FACTORY_HPP_
