// plugin_digests.hpp: the sha256 of each plugin file a command reports (compare's metrics.json,
// bench's rows), hashed once per file.
#ifndef AWB_CLI_PLUGIN_DIGESTS_HPP_
#define AWB_CLI_PLUGIN_DIGESTS_HPP_

#include <filesystem>
#include <map>
#include <string>

#include "core/base/sha256.hpp"
#include "graders/model/error.hpp"

namespace awb::cli {

class PluginDigests {
 public:
  // The file's sha256, or "" when it cannot be read now (the report goes without it).
  const std::string& of(const std::filesystem::path& file) {
    const auto [it, fresh] = known_.try_emplace(file.string());
    if (fresh) {
      try {
        it->second = core::sha256_file(file);
      } catch (const Error&) {
        it->second.clear();
      }
    }
    return it->second;
  }

 private:
  std::map<std::string, std::string> known_;
};

}  // namespace awb::cli

#endif  // AWB_CLI_PLUGIN_DIGESTS_HPP_
