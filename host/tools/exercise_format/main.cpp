// main.cpp: awb_exercise_format SCHEMA FORMAT_MD [--check]: writes exercise.schema.json and the
// generated tables of FORMAT.md from the exercise key table and the check registry; with
// --check, writes nothing and fails when either committed file differs from what it would write.
#include <cstdio>
#include <exception>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <tuple>

#include "tools/exercise_format/exercise_schema.hpp"
#include "tools/exercise_format/format_tables.hpp"

namespace {

std::string read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void write(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  if (!out.flush()) throw std::runtime_error("cannot write " + path);
}

// The first line where `have` and `want` differ, both sides, for the test's log.
void show_first_difference(const std::string& path, const std::string& have,
                           const std::string& want) {
  std::istringstream a(have), b(want);
  std::string la, lb;
  for (int line = 1;; ++line) {
    const bool more_a = static_cast<bool>(std::getline(a, la));
    const bool more_b = static_cast<bool>(std::getline(b, lb));
    if (!more_a && !more_b) return;
    if (!more_a || !more_b || la != lb) {
      std::printf("%s:%d differs from what the key table says\n  committed: %s\n  generated: %s\n",
                  path.c_str(), line, more_a ? la.c_str() : "(end of file)",
                  more_b ? lb.c_str() : "(end of file)");
      return;
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  const bool check = argc == 4 && std::string_view(argv[3]) == "--check";
  if (argc != 3 && !check) {
    std::fprintf(stderr, "usage: %s SCHEMA FORMAT_MD [--check]\n", argv[0]);
    return 2;
  }
  try {
    const std::string schema_path = argv[1], format_path = argv[2];
    const std::string schema_now = read(schema_path), format_now = read(format_path);
    const std::string schema = awb::tools::exercise_schema();
    const std::string format = awb::tools::with_generated_tables(format_now);
    if (!check) {
      if (schema != schema_now) write(schema_path, schema);
      if (format != format_now) write(format_path, format);
      return 0;
    }
    int stale = 0;
    for (const auto& [path, have, want] : {std::tuple{schema_path, schema_now, schema},
                                           std::tuple{format_path, format_now, format}}) {
      if (have == want) continue;
      ++stale;
      show_first_difference(path, have, want);
    }
    if (stale) {
      std::printf(
          "regenerate with\n  cmake --build <build folder> --target exercise_format\n"
          "and commit the result.\n");
      return 1;
    }
    std::printf("exercise.schema.json and FORMAT.md's tables are current\n");
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "awb_exercise_format: %s\n", e.what());
    return 2;
  }
}
