// check_json.hpp: one check's result (and an exercise's provenance) as JSON, the one writer the
// JSON report and the batch journal share (the journal reads its records back by key, so the key
// order is the report's).
#ifndef AWB_GRADERS_REPORT_CHECK_JSON_HPP_
#define AWB_GRADERS_REPORT_CHECK_JSON_HPP_

#include <nlohmann/json.hpp>

#include "graders/report/report.hpp"

namespace awb::grade {

// id, kind, name, status, points, max_points, summary, details, diagnosis, hint, visibility, in
// that order. JSON has no NaN or infinity: a points value that is not finite is written as 0.
nlohmann::ordered_json check_json(const CheckResult& c);
// An exercise's provenance: awb_version, exercise_sha256, plugin_sha256, lockdown, and
// plugin_sha256_of where the plugin's digest is another file's.
nlohmann::ordered_json provenance_json(const Provenance& p);

}  // namespace awb::grade

#endif  // AWB_GRADERS_REPORT_CHECK_JSON_HPP_
