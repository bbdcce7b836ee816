// compare_report.cpp: `awb compare`'s table, JSON, CSV and export folder.
#include "cli/compare_report.hpp"

#include <cctype>
#include <cmath>
#include <cstdio>

#include "cli/bench_report.hpp"
#include "core/base/atomic_file.hpp"
#include "core/base/export_folder.hpp"
#include "core/compare/matrix_export.hpp"
#include "graders/model/error.hpp"
#include "graders/report/format.hpp"

namespace awb::cli {
namespace {

std::string number(double v, int decimals) {
  if (std::isnan(v)) return "n/a";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[32];
  std::snprintf(buf, sizeof buf, decimals > 0 ? "%.*f" : "%.*e", decimals > 0 ? decimals : 2, v);
  // A rounding residue below the last digit (KL of equal rows: -1e-17) reads as 0, not -0.
  const std::string text = buf;
  if (text[0] == '-' && text.find_first_not_of("-0.") == std::string::npos) return text.substr(1);
  return text;
}

// CSV: NaN empty, infinity "inf", else 17 significant digits (the same double read back).
std::string number_csv(double v) {
  if (std::isnan(v)) return "";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

// A name that is safe as part of a file name: "sliding-window@window=2" stays as it is.
std::string file_part(const std::string& label) {
  std::string out;
  for (char c : label) {
    const bool keep = std::isalnum(static_cast<unsigned char>(c)) ||
                      std::string_view("-_@=,.+").find(c) != std::string_view::npos;
    out += keep ? c : '_';
  }
  return out;
}

// The widest label, for the table's first column (at least 18 characters).
int label_width(const Report& r) {
  size_t w = 18;
  for (const auto& row : r.rows) w = std::max(w, row.label.size());
  return static_cast<int>(w);
}

}  // namespace

nlohmann::json report_json(const Report& r) {
  nlohmann::json j{
      {"source", r.source}, {"scalar", r.scalar}, {"layer", r.layer},
      {"layers", r.layers}, {"head", r.head},     {"against", r.against},
      {"top_k", r.top_k},   {"tokens", r.tokens}, {"variants", nlohmann::json::array()}};
  if (!r.exercise.empty()) {
    j["exercise"] = r.exercise;
    j["case"] = r.case_id;
  }
  j["weights_requested"] = !r.z_only;
  j["awb_version"] = r.awb_version;
  j["problem_sha256"] = r.problem_sha256;
  j["machine"] = machine_json(r.machine);
  for (const auto& row : r.rows) {
    nlohmann::json v{{"variant", row.label}};
    if (!row.info.id.empty()) {
      v["id"] = row.info.id;
      v["plugin"] = row.info.plugin;
      v["plugin_file"] = row.info.plugin_file;
      v["plugin_sha256"] = row.info.plugin_sha256;
      v["params"] = row.info.params;
    }
    if (row.entry) {
      v["notes"] = row.entry->notes;
      if (row.entry->error.empty())
        v["max_abs_error"] = core::number_json(row.entry->metrics.max_abs_error);
    }
    if (!row.error.empty()) {
      v["error"] = row.error;
    } else {
      v.update(core::layer_comparison_json(row.layer));
    }
    j["variants"].push_back(v);
  }
  return j;
}

std::string report_csv(const Report& r) {
  std::string out =
      "variant,against,layer,head,rows,max_abs_diff,kl_mean,kl_max,js_mean,js_max,entropy,"
      "against_entropy,argmax_agreement,top_k_overlap,z_error,z_max_abs,max_abs_error,notes,"
      "error\n";
  for (const auto& row : r.rows) {
    std::string notes, own_error;
    if (row.entry) {
      for (const auto& n : row.entry->notes) notes += (notes.empty() ? "" : "; ") + n;
      if (row.entry->error.empty()) own_error = number_csv(row.entry->metrics.max_abs_error);
    }
    if (!row.layer.pairing_note.empty())
      notes += (notes.empty() ? "" : "; ") + row.layer.pairing_note;
    const std::string lead = grade::csv_field(row.label) + "," + grade::csv_field(r.against) + "," +
                             std::to_string(r.layer) + ",";
    if (!row.error.empty()) {
      out += lead + ",,,,,,,,,,,,,,," + grade::csv_field(notes) + "," +
             grade::csv_field(row.error) + "\n";
      continue;
    }
    auto line = [&](const core::HeadMetrics& m) {
      out += lead + (m.head >= 0 ? std::to_string(m.head) : r.head) + "," + std::to_string(m.rows);
      for (double v :
           {m.max_abs_diff, m.kl_mean, m.kl_max, m.js_mean, m.js_max, m.entropy, m.baseline_entropy,
            m.argmax_agreement, m.top_k_overlap, row.layer.z_error, row.layer.z_max_abs})
        out += "," + number_csv(v);
      out += "," + own_error + "," + grade::csv_field(notes) + ",\n";
    };
    for (const auto& h : row.layer.heads) line(h);
    // The pooled row; with one head asked, a row of n/a when that head is unpaired.
    if (r.head == "all" || row.layer.heads.empty()) line(row.layer.pooled);
  }
  return out;
}

void print_table(const Report& r) {
  std::printf("compare on %s, %s: layer %zu of %zu, %s, against %s%s\n", r.source.c_str(),
              r.scalar.c_str(), r.layer, r.layers,
              r.head == "all" ? "every head" : ("head " + r.head).c_str(),
              r.against == kReference ? "the reference" : r.against.c_str(),
              r.z_only ? "; Z alone asked of the variants (--no-weights)" : "");
  const std::string topk = "top-" + std::to_string(r.top_k);
  const int w = label_width(r);
  std::printf("%-*s %4s %8s %8s %8s %8s %8s %8s %8s %7s %6s\n", w, "variant", "head", "max|dA|",
              "KL mean", "KL max", "JS mean", "JS max", "entropy", "base ent", "argmax",
              topk.c_str());
  for (const auto& row : r.rows) {
    if (!row.error.empty()) {
      std::printf("%-*s failed: %s\n", w, row.label.c_str(), row.error.c_str());
      continue;
    }
    auto line = [&](const core::HeadMetrics& m) {
      std::printf("%-*s %4s %8s %8s %8s %8s %8s %8s %8s %7s %6s\n", w, row.label.c_str(),
                  m.head >= 0 ? std::to_string(m.head).c_str() : r.head.c_str(),
                  number(m.max_abs_diff, 4).c_str(), number(m.kl_mean, 4).c_str(),
                  number(m.kl_max, 4).c_str(), number(m.js_mean, 4).c_str(),
                  number(m.js_max, 4).c_str(), number(m.entropy, 4).c_str(),
                  number(m.baseline_entropy, 4).c_str(), number(m.argmax_agreement, 3).c_str(),
                  number(m.top_k_overlap, 3).c_str());
    };
    for (const auto& h : row.layer.heads) line(h);
    // The pooled row; with one head asked, a row of n/a when that head is unpaired.
    if (r.head == "all" || row.layer.heads.empty()) line(row.layer.pooled);
    if (row.layer.z_shapes.empty())
      std::printf("%-*s   ||dZ|| %s (max %s)", w, "", number(row.layer.z_error, 0).c_str(),
                  number(row.layer.z_max_abs, 0).c_str());
    else
      std::printf("%-*s   ||dZ|| n/a (Z is %s)", w, "", row.layer.z_shapes.c_str());
    if (row.entry)
      std::printf("; max abs error %s", number(row.entry->metrics.max_abs_error, 0).c_str());
    std::printf("\n");
    if (!row.layer.pairing_note.empty())
      std::printf("%-*s   note: %s\n", w, "", row.layer.pairing_note.c_str());
    if (row.entry)
      for (const auto& n : row.entry->notes) std::printf("%-*s   note: %s\n", w, "", n.c_str());
  }
  std::printf(
      "Per row of A, in nats: KL(base||A) (inf: A puts 0 on a key the base weights), JS (at most\n"
      "ln 2), entropy of A and of the base; argmax and %s: agreement with the base's top keys.\n"
      "all: pooled over the paired heads (means over rows, maxima of maxima). ||dZ||: Frobenius\n"
      "norm of Z - Z_base. max abs error: A and Z of every layer against the reference run on\n"
      "the inputs the variant itself ran (is it right?).\n",
      topk.c_str());
}

void export_report(const std::filesystem::path& where, const Report& r, const core::Comparison& c) {
  core::publish_folder(where, "awb compare export", [&](const std::filesystem::path& dir) {
    auto matrix = [&](const std::string& stem, const Matrix& m,
                      const std::vector<std::string>& cols, const std::string& corner) {
      core::write_file_atomic(dir / (stem + ".npy"), core::matrix_npy(m));
      core::write_file_atomic(dir / (stem + ".csv"), core::matrix_csv(m, r.tokens, cols, corner));
    };
    auto run = [&](const std::string& label, const RunOutput& out) {
      for (size_t l = 0; l < out.layers.size(); ++l) {
        const std::string stem = file_part(label) + ".layer" + std::to_string(l);
        const auto& res = out.layers[l].result;
        for (size_t h = 0; h < res.weights.size(); ++h)
          matrix(stem + ".head" + std::to_string(h) + ".A", res.weights[h], r.tokens, "query\\key");
        std::vector<std::string> dims;
        for (int64_t d = 0; d < res.z.cols; ++d) dims.push_back("z" + std::to_string(d));
        matrix(stem + ".Z", res.z, dims, "token");
      }
    };
    run(kReference, c.reference);
    for (const auto& e : c.entries)
      if (e.error.empty()) run(e.label, e.output);
    core::write_file_atomic(dir / "metrics.json", report_json(r).dump(2) + "\n");
    core::write_file_atomic(dir / "metrics.csv", report_csv(r));
  });
}

}  // namespace awb::cli
