// capabilities.cpp: capability names, consistency rules, and fitting problems to variants.
#include "core/plugins/capabilities.hpp"

namespace awb::core {
namespace {

struct CapName {
  uint64_t bit;
  const char* name;
};
constexpr CapName kCapNames[] = {
    {AWB_CAP_F64, "f64"},
    {AWB_CAP_F32, "f32"},
    {AWB_CAP_QKV, "qkv"},
    {AWB_CAP_MULTI_HEAD, "multi-head"},
    {AWB_CAP_OUTPUT_PROJ, "output-projection"},
    {AWB_CAP_CAUSAL, "causal"},
    {AWB_CAP_CAUSAL_ONLY, "causal-only"},
    {AWB_CAP_GROUPED_KV, "grouped-kv"},
    {AWB_CAP_BATCH, "batch"},
};
// Spellings of earlier versions, still read where files use them (names are kebab-case now).
constexpr CapName kOldSpellings[] = {
    {AWB_CAP_OUTPUT_PROJ, "w_o"},
};

// Each of the h heads' own copy of its key/value head's columns (`width` per head, g heads):
// grouped-query attention written as ordinary multi-head attention.
Matrix repeat_kv_heads(const Matrix& w, int heads, int kv_heads) {
  const int64_t width = w.cols / kv_heads;
  const int group = heads / kv_heads;
  Matrix out(w.rows, width * heads);
  for (int64_t r = 0; r < w.rows; ++r)
    for (int h = 0; h < heads; ++h)
      for (int64_t c = 0; c < width; ++c) out(r, h * width + c) = w(r, h / group * width + c);
  return out;
}

}  // namespace

std::vector<std::string> capability_names(uint64_t caps) {
  std::vector<std::string> out;
  for (const auto& c : kCapNames)
    if (caps & c.bit) out.emplace_back(c.name);
  return out;
}

std::string describe_capabilities(uint64_t caps) {
  std::string out;
  for (const auto& n : capability_names(caps)) out += (out.empty() ? "" : " ") + n;
  return out;
}

uint64_t capability_bit(const std::string& name) {
  for (const auto& c : kCapNames)
    if (name == c.name) return c.bit;
  for (const auto& c : kOldSpellings)
    if (name == c.name) return c.bit;
  return 0;
}

std::vector<std::string> capability_spellings() {
  std::vector<std::string> out = capability_names(AWB_CAP_KNOWN_MASK);
  for (const auto& c : kOldSpellings) out.emplace_back(c.name);
  return out;
}

std::optional<std::string> inconsistent_capabilities(uint64_t caps, uint32_t plugin_minor) {
  if (!(caps & (AWB_CAP_F64 | AWB_CAP_F32))) return "declares neither f64 nor f32";
  if ((caps & AWB_CAP_MULTI_HEAD) && !(caps & AWB_CAP_QKV))
    return "declares multi-head without qkv (heads are column blocks of W_q, W_k, W_v)";
  if ((caps & AWB_CAP_OUTPUT_PROJ) && !(caps & AWB_CAP_QKV)) return "declares w_o without qkv";
  if ((caps & AWB_CAP_CAUSAL_ONLY) && !(caps & AWB_CAP_CAUSAL))
    return "declares causal-only without causal";
  if ((caps & AWB_CAP_GROUPED_KV) && !(caps & AWB_CAP_MULTI_HEAD))
    return "declares grouped-kv without multi-head";
  // Bits from a newer minor are tolerated; unknown bits from this minor or older are garbage.
  if ((caps & ~AWB_CAP_KNOWN_MASK) && plugin_minor <= AWB_ABI_MINOR)
    return "sets capability bits this ABI version does not define";
  return std::nullopt;
}

Adapted adapt(const ProblemSpec& problem, uint64_t caps, Scalar scalar, Fit fit) {
  Adapted out;
  const bool strict = fit == Fit::kStrict;
  auto refuse = [&](std::string reason) {
    out.reason = std::move(reason);
    return out;
  };
  const uint64_t scalar_bit = scalar == Scalar::kF64 ? AWB_CAP_F64 : AWB_CAP_F32;
  if (!(caps & scalar_bit))
    return refuse(std::string("the variant does not support ") + to_string(scalar));

  ProblemSpec p = problem;
  if (!(caps & AWB_CAP_QKV)) {
    if (p.has_projections()) {
      if (strict) return refuse("the problem has Q/K/V weights and the variant is parameter-free");
      out.notes.push_back("parameter-free: the problem's weights are ignored");
      p.w_q.reset();
      p.w_k.reset();
      p.w_v.reset();
      p.w_o.reset();
      p.heads = 1;
    }
  } else {
    if (!p.has_projections())
      return refuse("the variant needs W_q, W_k and W_v and the problem has none");
    if (p.heads > 1 && !(caps & AWB_CAP_MULTI_HEAD)) {
      if (strict)
        return refuse("the problem has " + std::to_string(p.heads) +
                      " heads and the variant lacks the multi-head capability");
      out.notes.push_back("single-head variant: using head 0 of " + std::to_string(p.heads) +
                          " and no W_o");
      const int64_t dk = p.d_k(), dv = p.d_v();
      p.w_q = p.w_q->column_block(0, dk);
      p.w_k = p.w_k->column_block(0, dk);  // head 0 reads key/value head 0, grouped or not
      p.w_v = p.w_v->column_block(0, dv);
      p.w_o.reset();
      p.heads = 1;
      p.kv_heads = 0;
    }
    if (p.grouped() && !(caps & AWB_CAP_GROUPED_KV)) {
      // The same attention: each query head gets its own copy of the key/value head it shares.
      out.notes.push_back("the variant lacks grouped-kv: each of the " +
                          std::to_string(p.kv_head_count()) +
                          " key/value heads is repeated for the query heads of its group");
      p.w_k = repeat_kv_heads(*p.w_k, p.heads, p.kv_head_count());
      p.w_v = repeat_kv_heads(*p.w_v, p.heads, p.kv_head_count());
      p.kv_heads = 0;
    }
    if (p.w_o && !(caps & AWB_CAP_OUTPUT_PROJ)) {
      if (strict)
        return refuse("the problem has W_o and the variant lacks the output-projection capability");
      out.notes.push_back("the variant has no output projection: W_o is ignored");
      p.w_o.reset();
    }
  }
  if (p.causal && !(caps & AWB_CAP_CAUSAL))
    return refuse("the variant lacks the causal capability");
  if (!p.causal && (caps & AWB_CAP_CAUSAL_ONLY)) {
    if (strict) return refuse("the variant always applies the causal mask");
    out.notes.push_back("causal-only variant: the mask is on");
    p.causal = true;
  }
  out.problem = std::move(p);
  return out;
}

}  // namespace awb::core
