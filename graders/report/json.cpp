// json.cpp: the machine-readable report: every field of a GradeReport, in a fixed key order.
#include <cmath>
#include <nlohmann/json.hpp>

#include "graders/report/check_json.hpp"
#include "graders/report/format.hpp"
#include "graders/report/report.hpp"

namespace awb::grade {
namespace {

// Insertion order keeps the document in the order the fields are documented, and stable
// across runs, so reports diff cleanly.
using Json = nlohmann::ordered_json;

Json exercise_json(const ExerciseReport& e, const View& view) {
  const ShownTotals t = shown_totals(e, view);
  Json j;
  j["id"] = e.exercise_id;
  j["title"] = e.title;
  j["provenance"] = provenance_json(e.provenance);
  // Empty when gradable: the key is always there so readers need no existence test.
  j["not_gradable"] = e.not_gradable;
  j["score"] = finite(t.score);
  j["max_score"] = finite(t.max_score);
  j["hidden_checks"] = t.hidden;
  j["checks"] = Json::array();
  for (const auto* c : shown_checks(e, view)) j["checks"].push_back(check_json(*c));
  return j;
}

}  // namespace

// JSON has no NaN or infinity; nlohmann would write null, which readers expecting a number
// reject.
Json provenance_json(const Provenance& p) {
  Json j{{"awb_version", p.awb_version},
         {"exercise_sha256", p.exercise_sha256},
         {"plugin_sha256", p.plugin_sha256},
         {"lockdown", p.lockdown}};
  if (!p.plugin_sha256_of.empty()) j["plugin_sha256_of"] = p.plugin_sha256_of;
  return j;
}

Json check_json(const CheckResult& c) {
  Json j;
  j["id"] = c.id;
  j["kind"] = to_string(c.kind);
  j["name"] = c.name;
  j["status"] = to_string(c.status);
  j["points"] = finite(c.points);
  j["max_points"] = finite(c.max_points);
  j["summary"] = c.summary;
  j["details"] = c.details;
  j["diagnosis"] = c.diagnosis;
  j["hint"] = c.hint;
  j["visibility"] = to_string(c.visibility);
  return j;
}

std::string write_json(const GradeReport& report, const View& view) {
  const ShownTotals t = shown_totals(report, view);
  Json j;
  j["subject"] = report.subject;
  j["plugin_path"] = report.plugin_path;
  j["view"] = view.instructor ? "instructor" : "student";
  j["execution_seconds"] = finite(report.execution_seconds);
  j["score"] = finite(t.score);
  j["max_score"] = finite(t.max_score);
  j["exercises"] = Json::array();
  for (const auto& e : report.exercises) j["exercises"].push_back(exercise_json(e, view));
  if (!report.not_for_variant.empty()) {
    j["not_for_variant"] = Json::array();
    for (const auto& [id, why] : report.not_for_variant)
      j["not_for_variant"].push_back({{"exercise", id}, {"reason", why}});
  }
  // Text from a student's plugin may not be valid UTF-8; replace bad bytes rather than throw.
  return j.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

}  // namespace awb::grade
