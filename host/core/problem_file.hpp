// problem_file.hpp: reads a single attention problem from YAML, and the built-in examples.
#ifndef AWB_CORE_PROBLEM_FILE_HPP_
#define AWB_CORE_PROBLEM_FILE_HPP_

#include <filesystem>
#include <string>
#include <vector>

#include "model/problem.hpp"

namespace awb::core {

// A problem file holds: tokens, x, optional w_q/w_k/w_v/w_o, heads, causal, sharpness, scale.
// Throws awb::Error with file:line:column on any problem (unknown keys included).
ProblemSpec load_problem_file(const std::filesystem::path& file);
ProblemSpec parse_problem_yaml(const std::string& text, const std::string& file_label);

// Built-in examples by name ("journey": the lesson's six-token sentence, with weights for two
// heads so that every bundled variant has something to run).
std::vector<std::string> example_names();
ProblemSpec example_problem(const std::string& name);  // throws Error("example.unknown")
// The problem as a parameter-free variant takes it: no weights, one head.
ProblemSpec without_weights(ProblemSpec problem);

}  // namespace awb::core

#endif  // AWB_CORE_PROBLEM_FILE_HPP_
