// problem_file.hpp: reads a single attention problem from YAML, and the built-in examples.
#ifndef AWB_CORE_EXERCISES_PROBLEM_FILE_HPP_
#define AWB_CORE_EXERCISES_PROBLEM_FILE_HPP_

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "graders/model/error.hpp"
#include "graders/model/problem.hpp"

namespace awb::core {

// A problem file holds: tokens, x, optional w_q/w_k/w_v/w_o, heads, causal, sharpness, scale.
// A matrix is a list of rows, seeded {seed, rows, cols, ...}, {npy: FILE} or {npz: FILE, key:
// NAME}, FILE relative to the problem file's folder (core/exercises/numpy_arrays.hpp).
// It is read as exercises are (core/exercises/yaml_reader.hpp): a regular file within the same
// caps, and every problem reported with its id (problem.*) and file:line:column.
struct ProblemLoad {
  std::optional<ProblemSpec> problem;
  std::vector<Error> errors;
};
// A file named *.npz is read as an archive (read_problem_npz), one named *.npy as X alone (one
// head, no weights), any other as YAML.
ProblemLoad read_problem_file(const std::filesystem::path& file);
// An .npz archive (np.savez or np.savez_compressed) as a problem: X (T × d_model, required),
// W_q, W_k, W_v, W_o (optional matrices), heads, causal, sharpness (optional single values);
// tokens are t0, t1, ...; scale is auto. Errors are located at the archive.
ProblemLoad read_problem_npz(const std::filesystem::path& file);
ProblemLoad read_problem_yaml(const std::string& text, const std::string& file_label);
// The same, throwing the first problem as an awb::Error.
ProblemSpec parse_problem_yaml(const std::string& text, const std::string& file_label);

// Built-in examples by name ("journey": the lesson's six-token sentence, with weights for two
// heads so that every bundled variant has something to run).
ProblemSpec example_problem(const std::string& name);  // throws Error("example.unknown")
// The names example_problem knows, for suggestions when a name is misspelt.
std::vector<std::string> example_names();
// The problem as a parameter-free variant takes it: no weights, one head.
ProblemSpec without_weights(ProblemSpec problem);

}  // namespace awb::core

#endif  // AWB_CORE_EXERCISES_PROBLEM_FILE_HPP_
