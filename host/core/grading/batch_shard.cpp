// batch_shard.cpp: the shard rule, and the manifest a shard publishes, to and from JSON.
#include "core/grading/batch_shard.hpp"

#include <algorithm>
#include <charconv>
#include <nlohmann/json.hpp>
#include <set>

#include "core/base/sha256.hpp"
#include "core/base/version.hpp"
#include "graders/model/error.hpp"

namespace awb::core {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

constexpr int kManifestFormat = 1;

// A whole number of digits only (no sign, no space), at most `max`.
std::optional<long long> plain_number(std::string_view text, long long max) {
  if (text.empty() || text.size() > 12) return std::nullopt;
  long long value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || text.front() == '-' || value > max)
    return std::nullopt;
  return value;
}

}  // namespace

std::optional<Shard> parse_shard(std::string_view text, std::string* why) {
  auto refuse = [&](const std::string& reason) -> std::optional<Shard> {
    if (why) *why = reason;
    return std::nullopt;
  };
  const size_t slash = text.find('/');
  if (slash == std::string_view::npos)
    return refuse("'" + std::string(text) + "' is not INDEX/COUNT (e.g. 0/4: the first of four)");
  const auto index = plain_number(text.substr(0, slash), kMaxShards);
  const auto count = plain_number(text.substr(slash + 1), kMaxShards);
  if (!index || !count)
    return refuse("'" + std::string(text) +
                  "' is not INDEX/COUNT: two whole numbers, COUNT from 1 to " +
                  std::to_string(kMaxShards));
  if (*count < 1) return refuse("'" + std::string(text) + "': the count of shards is at least 1");
  if (*index >= *count)
    return refuse("'" + std::string(text) +
                  "': the index counts from 0, so it is below the count (0/" +
                  std::to_string(*count) + " .. " + std::to_string(*count - 1) + "/" +
                  std::to_string(*count) + ")");
  return Shard{static_cast<int>(*index), static_cast<int>(*count)};
}

std::string to_string(const Shard& shard) {
  return std::to_string(shard.index) + "/" + std::to_string(shard.count);
}

int shard_of(std::string_view submission, int count) {
  const std::string hex = sha256_hex(submission).substr(0, 16);
  uint64_t value = 0;
  std::from_chars(hex.data(), hex.data() + hex.size(), value, 16);
  return static_cast<int>(value % static_cast<uint64_t>(std::max(count, 1)));
}

std::vector<fs::path> shard_submissions(const std::vector<fs::path>& submissions,
                                        const Shard& shard) {
  std::vector<fs::path> out;
  for (const auto& s : submissions)
    if (shard_of(s.filename().string(), shard.count) == shard.index) out.push_back(s);
  return out;
}

ShardManifest make_shard_manifest(const Shard& shard, const std::string& options,
                                  const std::vector<const Exercise*>& exercises,
                                  const Assignment* assignment,
                                  const std::vector<fs::path>& everyone,
                                  const std::vector<fs::path>& mine,
                                  const std::vector<JournalRecord>& records,
                                  const std::map<std::string, std::string>& shipped_copies) {
  ShardManifest m;
  m.shard = shard;
  m.awb_version = AWB_VERSION;
  m.options = options;
  for (const Exercise* ex : exercises) m.exercises.emplace_back(ex->id, ex->sha256);
  if (assignment != nullptr) m.assignment_sha256 = assignment->sha256;
  std::vector<std::string> names;
  for (const auto& s : everyone) names.push_back(s.filename().string());
  std::sort(names.begin(), names.end());
  std::string listing;
  for (const auto& n : names) listing += n + '\n';
  m.class_size = static_cast<int>(names.size());
  m.class_sha256 = sha256_hex(listing);
  for (const auto& s : mine) m.submissions[s.filename().string()];
  std::map<std::string, std::set<std::pair<std::string, std::string>>> subjects;
  for (const auto& r : records)
    subjects[r.key.submission].insert({r.key.subject, r.key.plugin_sha256});
  for (const auto& [name, set] : subjects) m.submissions[name].assign(set.begin(), set.end());
  for (const auto& r : records)
    if (!r.note.empty()) m.notes[r.key.submission] = r.note;
  // Only the copies that concern this shard: the same entry from every shard merges into one.
  for (const auto& r : records)
    if (const auto it = shipped_copies.find(r.key.plugin_sha256); it != shipped_copies.end())
      m.shipped_copies.insert(*it);
  return m;
}

std::vector<JournalKey> manifest_keys(const ShardManifest& m) {
  std::vector<JournalKey> keys;
  for (const auto& [name, subjects] : m.submissions)
    for (const auto& [subject, plugin_sha] : subjects)
      for (const auto& [id, sha] : m.exercises)
        keys.push_back({name, subject, id, sha, plugin_sha, m.awb_version, m.options});
  return keys;
}

std::string manifest_text(const ShardManifest& m) {
  Json j;
  j["awb-shard"] = kManifestFormat;
  j["shard"] = {{"index", m.shard.index}, {"count", m.shard.count}};
  j["rule"] = m.rule;
  j["awb_version"] = m.awb_version;
  j["options"] = m.options;
  j["exercises"] = Json::array();
  for (const auto& [id, sha] : m.exercises) j["exercises"].push_back({{"id", id}, {"sha256", sha}});
  j["assignment_sha256"] = m.assignment_sha256;
  j["class"] = {{"size", m.class_size}, {"sha256", m.class_sha256}};
  j["submissions"] = Json::object();
  for (const auto& [name, subjects] : m.submissions) {
    Json list = Json::array();
    for (const auto& [subject, sha] : subjects)
      list.push_back({{"subject", subject}, {"plugin_sha256", sha}});
    j["submissions"][name] = std::move(list);
  }
  j["shipped_copies"] = Json::object();
  for (const auto& [sha, name] : m.shipped_copies) j["shipped_copies"][sha] = name;
  j["notes"] = Json::object();
  for (const auto& [name, note] : m.notes) j["notes"][name] = note;
  if (!m.submitted_at_sha256.empty() || !m.extensions_sha256.empty())
    j["times"] = {{"submitted_at_sha256", m.submitted_at_sha256},
                  {"extensions_sha256", m.extensions_sha256}};
  return j.dump(1, ' ', false, Json::error_handler_t::replace) + "\n";
}

ShardManifest parse_manifest(const std::string& text, const fs::path& file) {
  try {
    const Json j = Json::parse(text);
    if (j.at("awb-shard").get<int>() != kManifestFormat)
      throw Error("io.read", file.string(),
                  "a shard manifest of format " + j.at("awb-shard").dump() +
                      "; this awb reads format " + std::to_string(kManifestFormat));
    ShardManifest m;
    m.shard = {j.at("shard").at("index").get<int>(), j.at("shard").at("count").get<int>()};
    m.rule = j.at("rule").get<std::string>();
    m.awb_version = j.at("awb_version").get<std::string>();
    m.options = j.at("options").get<std::string>();
    for (const auto& e : j.at("exercises"))
      m.exercises.emplace_back(e.at("id").get<std::string>(), e.at("sha256").get<std::string>());
    m.assignment_sha256 = j.at("assignment_sha256").get<std::string>();
    m.class_size = j.at("class").at("size").get<int>();
    m.class_sha256 = j.at("class").at("sha256").get<std::string>();
    for (const auto& [name, subjects] : j.at("submissions").items())
      for (const auto& s : subjects)
        m.submissions[name].emplace_back(s.at("subject").get<std::string>(),
                                         s.at("plugin_sha256").get<std::string>());
    for (const auto& [sha, name] : j.at("shipped_copies").items())
      m.shipped_copies[sha] = name.get<std::string>();
    for (const auto& [name, note] : j.at("notes").items()) m.notes[name] = note.get<std::string>();
    if (j.contains("times")) {
      m.submitted_at_sha256 = j.at("times").at("submitted_at_sha256").get<std::string>();
      m.extensions_sha256 = j.at("times").at("extensions_sha256").get<std::string>();
    }
    if (m.shard.count < 1 || m.shard.index < 0 || m.shard.index >= m.shard.count)
      throw Error("io.read", file.string(), "not a shard manifest: shard " + to_string(m.shard));
    return m;
  } catch (const nlohmann::json::exception& e) {
    throw Error("io.read", file.string(), std::string("not a shard manifest: ") + e.what());
  }
}

}  // namespace awb::core
