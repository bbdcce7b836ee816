// page.hpp: the teaching page: one self-contained HTML file (inline CSS and JavaScript, the data
// embedded, no network access) that shows what variants do on an exercise or a problem, as the
// GUI's Explore and Compare tabs do, in any browser. `awb page`, the GUI's "Export → Interactive
// page…" and the Python module's awb.page() all write it through page_html(), so the same
// exercise and variants give the same bytes from each.
#ifndef AWB_CORE_PAGE_PAGE_HPP_
#define AWB_CORE_PAGE_PAGE_HPP_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/exercises/exercise.hpp"
#include "core/plugins/plugin_loader.hpp"
#include "core/plugins/variant_session.hpp"
#include "graders/model/run.hpp"

namespace awb::core {

// What a page shows: an exercise (its lesson, every case, its questions) or one problem.
struct PageSource {
  std::string title;
  std::string label;   // "exercise journey (journey.yaml)", "problem two-heads.yaml"
  std::string sha256;  // of the exercise or problem file; empty when there is none
  std::string lesson, lesson_after;
  std::vector<std::pair<std::string, RunInput>> cases;  // id and input, at least one
  uint64_t reference_capabilities = 0;                  // 0: the full reference
  const Exercise* exercise = nullptr;                   // for its questions; may be null
  std::vector<const Question*> questions;               // of `exercise`, about these cases
  std::vector<int> case_indices;                        // each case's index in `exercise`
};

// Every case of `exercise` (only `case_id` when it is given: Error("exercise.case_not_found")
// when it names none) with the questions about them.
PageSource exercise_page_source(const Exercise& exercise, const std::string& case_id = {});
PageSource problem_page_source(std::string label, RunInput input,
                               uint64_t reference_capabilities = 0, std::string sha256 = {});

struct PageOptions {
  Scalar scalar = Scalar::kF64;  // what the variants run in (the reference runs in f64)
  bool reference = true;         // the reference beside the variants, with |A − ref| maps
  SessionOptions session;        // how an untrusted plugin is isolated
};

// A run the page could not make: the variant is shown with its error for that case.
struct PageFailure {
  std::string subject, case_id, error_id, message;
};

struct Page {
  std::string html;
  std::vector<PageFailure> failures;
  int64_t cases = 0, subjects = 0;
};

// The page: every case run at sharpness 1 by the reference and by each variant (the page
// recomputes A = softmax(sharpness · S) and Z from the S and V exported here, with the variants'
// own results at sharpness 1 as its check), the questions with their answers (the reference's,
// as the GUI judges them), the lesson and the provenance, in one HTML file around the data.
// A variant that cannot run a case is recorded with its error; nothing here throws for one.
// Deterministic: no time or path of this machine is written, so two pages of the same source and
// variants are byte for byte the same.
Page make_page(const PageSource& source, const std::vector<VariantRef>& variants,
               const PageOptions& options = {});

}  // namespace awb::core

#endif  // AWB_CORE_PAGE_PAGE_HPP_
