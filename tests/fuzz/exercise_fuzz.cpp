// exercise_fuzz.cpp: libFuzzer entry for the exercise loader; it must never crash or hang.
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/exercises/exercise.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  const awb::core::ExerciseLoad load = awb::core::parse_exercise(text, "fuzz.yaml");
  // Either an exercise or at least one error, never both and never neither.
  if (load.exercise.has_value() == !load.errors.empty()) __builtin_trap();
  return 0;
}
