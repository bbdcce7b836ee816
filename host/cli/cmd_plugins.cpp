// cmd_plugins.cpp: `awb plugins [DIR...]`: what loaded, with capabilities, and what did not, why.
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "cli/isolation_options.hpp"
#include "core/plugins/capabilities.hpp"
#include "core/plugins/plugin_loader.hpp"
#include "graders/report/format.hpp"

namespace awb::cli {
namespace {

struct PluginsOptions {
  std::vector<std::string> locations;
  std::string format = "text";
  IsolationFlags isolation;
};

int run_plugins(const PluginsOptions& o) {
  std::vector<std::filesystem::path> locs(o.locations.begin(), o.locations.end());
  if (locs.empty()) locs = core::plugin_search_path({});
  const core::Catalog cat = core::load_catalog(locs, o.isolation.load_policy());
  if (o.format == "json") {
    nlohmann::json j;
    j["plugins"] = nlohmann::json::array();
    for (const auto& p : cat.plugins) {
      nlohmann::json jp{{"id", p.id},
                        {"name", p.name},
                        {"version", p.version},
                        {"author", p.author},
                        {"path", p.path.string()},
                        {"bundled", p.bundled},
                        {"isolation", runner::to_string(p.isolation)},
                        {"abi", std::to_string(p.abi_major) + "." + std::to_string(p.abi_minor)}};
      for (const auto& v : p.variants) {
        nlohmann::json params = nlohmann::json::array();
        for (const auto& d : v.params) {
          nlohmann::json jd{{"name", d.name},
                            {"type", to_string(d.type)},
                            {"doc", d.doc},
                            {"default", param_text(d, d.default_value)}};
          if (d.type == ParamType::kInt || d.type == ParamType::kFloat)
            jd["range"] = {d.min_value, d.max_value};
          if (d.type == ParamType::kEnum) jd["choices"] = d.choices;
          params.push_back(jd);
        }
        jp["variants"].push_back({{"id", v.id},
                                  {"name", v.name},
                                  {"description", v.description},
                                  {"capabilities", core::capability_names(v.capabilities)},
                                  {"trainable", v.trainable},
                                  {"cost_model", v.has_cost},
                                  {"params", params}});
      }
      j["plugins"].push_back(jp);
    }
    j["failures"] = nlohmann::json::array();
    for (const auto& f : cat.failures)
      j["failures"].push_back({{"path", f.path.string()},
                               {"stage", core::to_string(f.stage)},
                               {"message", f.message},
                               {"system_error", f.system_error}});
    std::cout << j.dump(2) << '\n';
  } else {
    // Ids, names and paths come from plugins and file names: shown with controls made visible.
    auto t = [](const std::string& s) { return grade::terminal_text(s); };
    for (const auto& p : cat.plugins) {
      std::cout << t(p.id) << "  " << t(p.name) << "  " << t(p.version)
                << (p.bundled ? "  [bundled]" : "") << "\n  file: " << t(p.path.string())
                << "\n  runs: "
                << (p.library
                        ? "in-process (trusted)"
                        : std::string("in awb-runner, isolation ") + runner::to_string(p.isolation))
                << '\n';
      for (const auto& v : p.variants) {
        std::cout << "  variant " << t(v.id) << ": " << t(v.name)
                  << "\n    capabilities: " << core::describe_capabilities(v.capabilities) << '\n';
        for (const auto& d : v.params) std::cout << "    parameter " << t(describe(d)) << '\n';
      }
    }
    // What did not load is an error: on stderr, so a listing piped elsewhere stays clean.
    if (!cat.failures.empty()) std::cerr << "\nCould not load:\n";
    for (const auto& f : cat.failures) {
      std::cerr << "  " << t(f.path.string()) << "\n    stage: " << core::to_string(f.stage)
                << "\n    reason: " << t(f.message) << '\n';
      if (!f.system_error.empty()) std::cerr << "    system: " << t(f.system_error) << '\n';
    }
    std::cout << '\n'
              << cat.plugins.size() << " plugin(s) loaded, " << cat.failures.size() << " failed\n";
  }
  return cat.failures.empty() ? kExitOk : kExitPluginError;
}

}  // namespace

void add_plugins_command(CLI::App& app, int& exit_code) {
  auto opts = std::make_shared<PluginsOptions>();
  CLI::App* cmd = app.add_subcommand(
      "plugins",
      "List plugins: id, name, version, variants and capabilities, or why a file did not load.\n"
      "With no DIR, lists the whole search path; with DIRs (folders or files), only those.\n"
      "Exits 4 when any file failed to load.");
  cmd->add_option("locations", opts->locations, "Plugin folders or files");
  cmd->add_option("--format", opts->format, "text or json")
      ->check(CLI::IsMember({"text", "json"}))
      ->capture_default_str();
  add_isolation_options(cmd, opts->isolation, false);
  cmd->callback([opts, &exit_code] { exit_code = run_plugins(*opts); });
}

}  // namespace awb::cli
