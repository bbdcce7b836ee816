// exercise_export.hpp: the copy of an exercise that students receive.
#ifndef AWB_CORE_EXERCISES_EXERCISE_EXPORT_HPP_
#define AWB_CORE_EXERCISES_EXERCISE_EXPORT_HPP_

#include <string>

namespace awb::core {

// The first line of every student copy begins so: what tells a copy awb wrote from a user's file.
inline constexpr const char* kStudentCopyHeader = "# Student copy: ";

// Re-emits an exercise file without the checks a student may not see: hidden ones always,
// after_due_date ones unless `after_due`. What remains is a valid exercise (its visible checks
// keep working locally). Throws awb::Error("exercise.export") when nothing visible is left.
std::string student_copy(const std::string& yaml_text, const std::string& file_label,
                         bool after_due);

}  // namespace awb::core

#endif  // AWB_CORE_EXERCISES_EXERCISE_EXPORT_HPP_
