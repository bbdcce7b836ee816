// print_exercise_keys.cpp: prints the loader's table of exercise keys and every check definition's
// keys, one per line, for check_exercise_keys.py to compare with the JSON Schema and FORMAT.md.
#include <cstdio>
#include <string>

#include "core/exercises/exercise_keys.hpp"
#include "graders/checks/check.hpp"

int main() {
  using namespace awb;
  // key <section> <name> <type> required|optional
  for (const auto& k : core::exercise_keys())
    std::printf("key\t%s\t%s\t%s\t%s\n", std::string(core::to_string(k.section)).c_str(),
                std::string(k.name).c_str(), std::string(core::to_string(k.type)).c_str(),
                k.required ? "required" : "optional");
  // kind <kind> <selector or -> ; check <kind> <name> ; check-key <kind> <name> <key> <type> ...
  const auto& registry = grade::Registry::instance();
  for (auto kind : {grade::CheckKind::kReference, grade::CheckKind::kProperty,
                    grade::CheckKind::kExpect, grade::CheckKind::kGradient}) {
    const std::string selector(core::check_selector(kind));
    std::printf("kind\t%s\t%s\n", grade::to_string(kind),
                selector.empty() ? "-" : selector.c_str());
    for (const auto& name : registry.names(kind)) {
      std::printf("check\t%s\t%s\n", grade::to_string(kind), name.c_str());
      for (const auto& k : registry.find(kind, name)->keys)
        std::printf("check-key\t%s\t%s\t%s\t%s\t%s\n", grade::to_string(kind), name.c_str(),
                    k.name.c_str(), grade::to_string(k.type), k.required ? "required" : "optional");
    }
  }
  return 0;
}
