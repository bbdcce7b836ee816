// cmd_new_plugin.cpp: `awb new-plugin DIR [--kind KIND] [--starter] [--name NAME]`: a plugin
// project of one kind, from the SDK template, as a working solution or a starter with TODOs.
#include <iostream>

#include "cli/commands.hpp"
#include "core/plugin_project/new_plugin.hpp"

namespace awb::cli {
namespace {

struct NewPluginCliOptions {
  std::string dir;
  core::NewPluginOptions project;
};

int run_new_plugin(const NewPluginCliOptions& o) {
  const core::NewPluginProject p = core::write_plugin_project(o.dir, o.project);
  std::cout << "Wrote " << (o.project.starter ? "a starter" : "a working") << " " << o.project.kind
            << " plugin project into " << o.dir << ":\n";
  for (const auto& f : p.files) std::cout << "  " << f.string() << '\n';
  std::cout << "Variant " << p.name << " of plugin " << p.plugin_id << ". Next:\n"
            << "  cmake -S " << o.dir << " -B " << o.dir
            << "/build -DCMAKE_PREFIX_PATH=<awb install prefix>\n"
            << "  cmake --build " << o.dir << "/build\n"
            << "  awb grade --assignment " << o.project.kind << " --plugin-dir " << o.dir
            << "/build/plugins --variant " << p.name << '\n';
  return kExitOk;
}

}  // namespace

void add_new_plugin_command(CLI::App& app, int& exit_code) {
  auto opts = std::make_shared<NewPluginCliOptions>();
  std::string kinds;
  for (const auto& k : core::plugin_kinds())
    kinds += (kinds.empty() ? "" : ", ") + std::string(k.id);
  CLI::App* cmd = app.add_subcommand(
      "new-plugin",
      "Write a complete out-of-tree plugin project of one variant kind into DIR (a new or empty\n"
      "folder: nothing is overwritten), from the SDK template: CMakeLists.txt, the source and a\n"
      "README that says how to build, run and grade it (awb grade --assignment KIND). Without\n"
      "--starter the variant works and gets full marks; with it the maths is left as TODOs\n"
      "that build and run but fail grading with a message naming the step to write (what\n"
      "students are handed).");
  cmd->add_option("dir", opts->dir, "The project's folder (new or empty)")->required();
  cmd->add_option("--kind", opts->project.kind,
                  "The variant kind, as the bundled assignment that grades it: " + kinds)
      ->capture_default_str();
  cmd->add_flag("--starter", opts->project.starter,
                "Leave the maths as TODOs (forward and backward throw, naming the step)");
  cmd->add_option("--name", opts->project.name,
                  "The variant id ([a-z][a-z0-9-]*; default student-KIND); the plugin id is "
                  "org.example.NAME");
  cmd->callback([opts, &exit_code] { exit_code = run_new_plugin(*opts); });
}

}  // namespace awb::cli
