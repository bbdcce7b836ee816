// exercise_export.cpp: walks the YAML tree and emits it again, leaving hidden checks out.
#include "core/exercises/exercise_export.hpp"

#include <yaml-cpp/yaml.h>

#include "graders/model/error.hpp"
#include "graders/report/report.hpp"

namespace awb::core {
namespace {

bool visible_to_students(const YAML::Node& check, bool after_due) {
  const YAML::Node v = check["visibility"];
  if (!v || !v.IsScalar()) return true;
  // A name the format lacks shows to no one: export never widens what students see.
  const auto visibility = awb::parse<grade::Visibility>(v.Scalar());
  return visibility && grade::View{false, after_due}.shows(*visibility);
}

// Emits `n` keeping multi-line strings readable (literal blocks) and number lists compact.
void emit(YAML::Emitter& out, const YAML::Node& n) {
  switch (n.Type()) {
    case YAML::NodeType::Scalar:
      if (n.Scalar().find('\n') != std::string::npos) out << YAML::Literal;
      out << n.Scalar();
      break;
    case YAML::NodeType::Sequence: {
      bool flat = true;
      for (const auto& item : n) flat = flat && item.IsScalar();
      if (flat) out << YAML::Flow;
      out << YAML::BeginSeq;
      for (const auto& item : n) emit(out, item);
      out << YAML::EndSeq;
      break;
    }
    case YAML::NodeType::Map:
      out << YAML::BeginMap;
      for (const auto& kv : n) {
        out << YAML::Key;
        emit(out, kv.first);
        out << YAML::Value;
        emit(out, kv.second);
      }
      out << YAML::EndMap;
      break;
    default:
      out << YAML::Null;
  }
}

}  // namespace

std::string student_copy(const std::string& yaml_text, const std::string& file_label,
                         bool after_due) {
  const YAML::Node root = YAML::Load(yaml_text);
  YAML::Node copy(YAML::NodeType::Map);
  size_t kept = 0, dropped = 0;
  for (const auto& kv : root) {
    if (kv.first.Scalar() != "checks") {
      copy[kv.first.Scalar()] = kv.second;
      continue;
    }
    YAML::Node checks(YAML::NodeType::Sequence);
    for (const auto& c : kv.second) {
      if (visible_to_students(c, after_due)) {
        checks.push_back(c);
        ++kept;
      } else {
        ++dropped;
      }
    }
    copy["checks"] = checks;
  }
  if (kept == 0) throw Error("exercise.export", file_label, "no check is visible to students");
  YAML::Emitter out;
  out.SetIndent(2);
  emit(out, copy);
  return kStudentCopyHeader + std::to_string(dropped) +
         " check(s) not visible to students were left out.\n" + out.c_str() + "\n";
}

}  // namespace awb::core
