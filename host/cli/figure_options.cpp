// figure_options.cpp: the spec goes to a private temporary folder, awb-figure draws into the same
// folder, and only a complete figure is copied over the target (write_file_atomic), so a failed
// or killed drawing never leaves half a file where the user asked for one.
#include "cli/figure_options.hpp"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

#include "core/base/atomic_file.hpp"
#include "core/base/install_paths.hpp"
#include "core/base/temp_folder.hpp"
#include "core/plugins/reference_forward.hpp"
#include "graders/model/error.hpp"
#include "graders/tolerance/tolerance.hpp"

extern char** environ;

namespace awb::cli {
namespace {

namespace fs = std::filesystem;

constexpr const char* kFigureTool = "awb-figure";

std::string figure_extension(const std::string& file) {
  std::string ext = fs::path(file).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return ext;
}

nlohmann::json spec_matrix(const Matrix& m) {
  return {{"rows", m.rows}, {"cols", m.cols}, {"data", m.data}};
}

// "heads 2, sharpness 1, causal, scale auto, window=4": what a run was given, with the heads it
// returned on the layer (a single-head variant given a two-head input returns one).
std::string spec_params_text(const Parameters& p, size_t heads) {
  std::ostringstream s;
  s << "heads " << heads << ", sharpness " << p.sharpness << (p.causal ? ", causal" : "")
    << ", scale " << to_string(p.scale);
  for (const auto& [name, value] : p.variant) s << ", " << name << "=" << value;
  return s.str();
}

// The layer's weights of `out`, the chosen head only when the report names one.
std::vector<Matrix> figure_heads(const RunOutput& out, const Report& r) {
  if (r.layer >= out.layers.size()) return {};
  std::vector<Matrix> heads = out.layers[r.layer].result.weights;
  if (r.head == "all") return heads;
  const size_t h = std::stoul(r.head);
  return h < heads.size() ? std::vector<Matrix>{heads[h]} : std::vector<Matrix>{};
}

// |a − b| head by head over the heads both have; differences within the f64 tolerance of the
// checks are rounding and drawn as 0 (as the GUI's compare view does). An empty matrix where the
// shapes differ.
std::vector<Matrix> figure_differences(const std::vector<Matrix>& a, const std::vector<Matrix>& b) {
  const double floor = grade::F64Tolerance{}.atol;
  std::vector<Matrix> out;
  for (size_t h = 0; h < std::min(a.size(), b.size()); ++h) {
    if (a[h].rows != b[h].rows || a[h].cols != b[h].cols) {
      out.emplace_back();
      continue;
    }
    Matrix d(a[h].rows, a[h].cols);
    for (size_t i = 0; i < d.data.size(); ++i) {
      const double diff = std::abs(a[h].data[i] - b[h].data[i]);
      d.data[i] = diff <= floor ? 0 : diff;
    }
    out.push_back(std::move(d));
  }
  return out;
}

// Runs awb-figure on `spec` and returns the figure's bytes. Throws Error("figure.unavailable")
// when it is not installed and Error("figure.failed") when it does not draw.
std::string run_figure_tool(const nlohmann::json& spec, const std::string& ext) {
  const fs::path tool = core::shipped_executable(kFigureTool);
  const auto dir = core::make_temp_folder("awb-figure-");
  if (!dir) throw Error("io.write", "a temporary folder for the figure", std::strerror(errno));
  const core::RemovedOnExit remove(*dir);
  const fs::path spec_file = *dir / "spec.json", out_file = *dir / ("figure" + ext);
  {
    std::ofstream f(spec_file);
    f << spec.dump();
    if (!f.flush()) throw Error("io.write", spec_file.string(), "cannot write the figure's spec");
  }
  std::string tool_s = tool.string(), spec_s = spec_file.string(), out_s = out_file.string();
  char* argv[] = {tool_s.data(), spec_s.data(), out_s.data(), nullptr};
  pid_t pid = 0;
  if (const int err = ::posix_spawn(&pid, tool_s.c_str(), nullptr, nullptr, argv, environ))
    throw Error("figure.failed", tool_s, std::string("cannot start it: ") + std::strerror(err));
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    throw Error("figure.failed", tool_s,
                WIFEXITED(status) ? "it exited with " + std::to_string(WEXITSTATUS(status))
                                  : "it was killed by signal " + std::to_string(WTERMSIG(status)));
  std::ifstream in(out_file, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (!in.good() && !in.eof())
    throw Error("io.read", out_file.string(), "cannot read the figure awb-figure drew");
  if (bytes.empty()) throw Error("figure.failed", tool_s, "it wrote no figure");
  return bytes;
}

void write_figure_file(const std::string& file, const nlohmann::json& spec) {
  const std::string bytes = run_figure_tool(spec, figure_extension(file));
  core::write_file_atomic(file, bytes);
  std::fprintf(stderr, "figure written to %s\n", file.c_str());
}

}  // namespace

CLI::Option* add_figure_option(CLI::App* cmd, std::string& file) {
  const std::string what =
      cmd->get_name() == "compare"
          ? "per-head weight maps with the token labels for the reference and each variant (with "
            "its parameters), |variant - baseline| maps, one colour bar for the weights and one "
            "for the differences"
          : "time against T on log-log axes, a series per variant, parameters and shape, each "
            "median with its 95 % interval and each series' fitted slope in the legend";
  return cmd
      ->add_option("--figure", file,
                   "Also draw a figure for a paper: " + what +
                       ". FILE.pdf or FILE.svg: vector, with real text; FILE.png: twice the "
                       "pixels. Needs awb-figure, built and installed with the GUI")
      ->check(CLI::Validator(
          [](std::string& s) -> std::string {
            const std::string ext = figure_extension(s);
            if (ext == ".pdf" || ext == ".svg" || ext == ".png") return {};
            return "'" + s + "': a figure's name ends in .pdf, .svg or .png";
          },
          "FILE.{pdf,svg,png}"));
}

void check_figure(const std::string& file) {
  if (file.empty()) return;
  core::writable_target(file);
  const fs::path tool = core::shipped_executable(kFigureTool);
  if (::access(tool.c_str(), X_OK) != 0)
    throw Error("figure.unavailable", tool.string(),
                "--figure needs awb-figure, which is built and installed with the GUI (Qt 6); "
                "this awb has none beside it");
}

nlohmann::json compare_figure_spec(const Report& r, const core::Comparison& c,
                                   const Parameters& input_params,
                                   const std::vector<core::Contender>& contenders) {
  auto run_json = [&](const std::string& label, const RunOutput* out, const Parameters& params,
                      const std::vector<ParamDecl>& declared, const std::string& error) {
    const size_t heads = out && r.layer < out->layers.size()
                             ? out->layers[r.layer].result.weights.size()
                             : static_cast<size_t>(params.heads);
    nlohmann::json j{{"label", label},
                     {"params", spec_params_text(params, heads)},
                     {"causal", params.causal},
                     {"ahead", nullptr},
                     {"behind", nullptr},
                     {"error", error},
                     {"heads", nlohmann::json::array()}};
    // The keys each query sees (null: no limit): the cells outside are hatched, not coloured.
    const core::KeyBand band = core::key_band(params, declared);
    if (band.ahead != core::KeyBand::kAll) j["ahead"] = band.ahead;
    if (band.behind != core::KeyBand::kAll) j["behind"] = band.behind;
    if (out && error.empty())
      for (const auto& m : figure_heads(*out, r)) j["heads"].push_back(spec_matrix(m));
    return j;
  };
  nlohmann::json runs = nlohmann::json::array();
  runs.push_back(run_json(kReference, &c.reference, input_params,
                          core::reference_params(input_params.family).decls, ""));
  const RunOutput* baseline = &c.reference;
  for (size_t i = 0; i < c.entries.size(); ++i) {
    const auto& e = c.entries[i];
    runs.push_back(run_json(e.label, &e.output, e.params,
                            i < contenders.size() ? contenders[i].params : std::vector<ParamDecl>{},
                            e.error));
    if (e.label == r.against) baseline = &e.output;
  }
  // A difference map for each row of the report: every run but the baseline.
  nlohmann::json diffs = nlohmann::json::array();
  const std::vector<Matrix> base = figure_heads(*baseline, r);
  for (const auto& row : r.rows) {
    if (!row.error.empty()) continue;
    const RunOutput& out = row.entry ? row.entry->output : c.reference;
    nlohmann::json d{{"label", row.label}, {"heads", nlohmann::json::array()}};
    for (const auto& m : figure_differences(figure_heads(out, r), base))
      d["heads"].push_back(spec_matrix(m));
    diffs.push_back(d);
  }
  std::string where = r.exercise.empty() ? r.source : r.exercise;
  if (!r.case_id.empty()) where += ", case " + r.case_id;
  return {{"figure", "compare"},
          {"title", "Attention weights, " + where + ", layer " + std::to_string(r.layer) + " of " +
                        std::to_string(r.layers) + " (" + r.scalar + ")"},
          {"tokens", r.tokens},
          {"against", r.against},
          {"head", r.head},
          {"runs", runs},
          {"differences", diffs}};
}

void write_compare_figure(const std::string& file, const Report& r, const core::Comparison& c,
                          const Parameters& input_params,
                          const std::vector<core::Contender>& contenders) {
  if (!file.empty()) write_figure_file(file, compare_figure_spec(r, c, input_params, contenders));
}

void write_bench_figure(const std::string& file, const BenchRun& run) {
  if (!file.empty()) write_figure_file(file, {{"figure", "bench"}, {"run", bench_json(run)}});
}

}  // namespace awb::cli
