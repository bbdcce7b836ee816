// load_notes.hpp: what loading the plugins had to say, as every command that loads them says it.
#ifndef AWB_CLI_LOAD_NOTES_HPP_
#define AWB_CLI_LOAD_NOTES_HPP_

#include <iostream>

#include "core/plugins/plugin_loader.hpp"
#include "graders/report/format.hpp"

namespace awb::cli {

// The catalog's notes on stderr ("awb: note: ..."): a plugin the user gave that took the id of a
// bundled one. Shown as terminal-safe text: a file name cannot drive the terminal.
inline void print_load_notes(const core::Catalog& catalog) {
  for (const auto& n : catalog.notes) std::cerr << "awb: note: " << grade::terminal_text(n) << '\n';
}

}  // namespace awb::cli

#endif  // AWB_CLI_LOAD_NOTES_HPP_
