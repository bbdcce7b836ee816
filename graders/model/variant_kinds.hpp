// variant_kinds.hpp: the one table of variant kinds (parameter-free, qkv, ... linear): each
// kind's id, the maths its reference computes, what its variants can do, and whether the mutants
// and `awb new-plugin` come in it. Every list of kinds elsewhere is read from here.
//
// Header-only and below everything (the standard library and the SDK's C header), so that the
// mutants, built with the public SDK alone, read the same rows as the host.
#ifndef AWB_GRADERS_MODEL_VARIANT_KINDS_HPP_
#define AWB_GRADERS_MODEL_VARIANT_KINDS_HPP_

#include <awb/awb_plugin.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "graders/model/names.hpp"

namespace awb {

// The maths a problem asks for, hence what the reference computes: softmax attention (every
// teaching kind), sliding-window softmax (the `window` parameter) or linear attention (the
// `feature_map` parameter). The reference's rule for each is graders/reference's family table.
enum class Family { kSoftmax, kSlidingWindow, kLinear };
inline constexpr std::array<EnumName<Family>, 3> kFamilyNames{{
    {Family::kSoftmax, "softmax"},
    {Family::kSlidingWindow, "sliding-window"},
    {Family::kLinear, "linear"},
}};
static_assert(names_every_value(kFamilyNames));
constexpr const auto& enum_names(Family) { return kFamilyNames; }
constexpr const char* to_string(Family f) { return name_in(kFamilyNames, f); }

enum class VariantKind { kParameterFree, kQkv, kMultiHead, kCausal, kSlidingWindow, kLinear };

// What comes in a kind besides its reference: a set of these bits.
enum KindUse : unsigned {
  kReferenceOnly = 0,
  kMutants = 1u << 0,    // the mutant plugins carry a variant of it (their body is softmax)
  kNewPlugin = 1u << 1,  // `awb new-plugin --kind` writes it (sdk/template has its regions)
};

struct VariantKindRow {
  VariantKind kind;
  // The kind's id: an exercise's `variant.kind`, the bundled plugin's and the mutants' variant
  // id, and the bundled assignment that grades it (exercises/assignments/<id>.yaml).
  const char* id;
  const char* title;  // the bundled assignment's title, and a new plugin's name
  Family family;
  // What a variant of this kind declares: the bundled plugin's capabilities, which the mutants'
  // and the template's variants of the kind declare too. AWB_CAP_QKV: the reference projects.
  uint64_t capabilities;
  unsigned uses;  // KindUse bits; tests/CMakeLists.txt reads kNewPlugin from the rows' text

  constexpr bool in(KindUse use) const { return (uses & use) != 0; }
};

inline constexpr uint64_t kBaseCaps = AWB_CAP_F64 | AWB_CAP_F32 | AWB_CAP_CAUSAL;
inline constexpr uint64_t kHeadsCaps =
    kBaseCaps | AWB_CAP_QKV | AWB_CAP_MULTI_HEAD | AWB_CAP_OUTPUT_PROJ;
// The bundled multi-head and causal variants also run grouped-query attention (the template's
// do not: the host repeats the key/value heads for them).
inline constexpr uint64_t kGroupedCaps = kHeadsCaps | AWB_CAP_GROUPED_KV;

// In enum order (asserted below). A new kind is a row here, its family's reference rule when it
// brings a family, its regions in sdk/template, its assignment and exercises.
inline constexpr std::array<VariantKindRow, 6> kVariantKinds{{
    {VariantKind::kParameterFree, "parameter-free", "Parameter-free self-attention",
     Family::kSoftmax, kBaseCaps, kMutants | kNewPlugin},
    {VariantKind::kQkv, "qkv", "Scaled dot-product attention with Q/K/V projections",
     Family::kSoftmax, kBaseCaps | AWB_CAP_QKV, kMutants | kNewPlugin},
    {VariantKind::kMultiHead, "multi-head", "Multi-head attention", Family::kSoftmax, kGroupedCaps,
     kMutants | kNewPlugin},
    {VariantKind::kCausal, "causal", "Causal (masked) attention", Family::kSoftmax,
     kGroupedCaps | AWB_CAP_CAUSAL_ONLY, kMutants | kNewPlugin},
    {VariantKind::kSlidingWindow, "sliding-window", "Sliding-window attention",
     Family::kSlidingWindow, kHeadsCaps, kReferenceOnly},
    {VariantKind::kLinear, "linear", "Linear attention", Family::kLinear, kHeadsCaps,
     kReferenceOnly},
}};

constexpr bool rows_in_enum_order() {
  for (std::size_t i = 0; i < kVariantKinds.size(); ++i)
    if (kVariantKinds[i].kind != static_cast<VariantKind>(i)) return false;
  return true;
}
static_assert(kVariantKinds.size() == enum_size<VariantKind>(),
              "every VariantKind needs its row in kVariantKinds");
static_assert(rows_in_enum_order(), "kVariantKinds lists the kinds in enum order");

constexpr const VariantKindRow& row_of(VariantKind kind) {
  return kVariantKinds[static_cast<std::size_t>(kind)];
}

// The names read and written for kinds: the rows' ids.
inline constexpr auto kVariantKindNames = [] {
  std::array<EnumName<VariantKind>, kVariantKinds.size()> names{};
  for (std::size_t i = 0; i < names.size(); ++i)
    names[i] = {kVariantKinds[i].kind, kVariantKinds[i].id};
  return names;
}();
constexpr const auto& enum_names(VariantKind) { return kVariantKindNames; }
constexpr const char* to_string(VariantKind k) { return name_in(kVariantKindNames, k); }

// The maths a kind's reference computes.
constexpr Family family_of(VariantKind k) { return row_of(k).family; }

// Whether the reference reads W_q, W_k, W_v for this kind (else Q = K = V = X, one head).
constexpr bool projected(VariantKind k) { return (row_of(k).capabilities & AWB_CAP_QKV) != 0; }

// The kind whose reference runs a problem of `family` for a variant that does (or does not)
// project: the first row of the family that matches, else the family's first row.
constexpr VariantKind reference_kind(Family family, bool with_projections) {
  const VariantKindRow* first = nullptr;
  for (const auto& row : kVariantKinds) {
    if (row.family != family) continue;
    if (((row.capabilities & AWB_CAP_QKV) != 0) == with_projections) return row.kind;
    if (!first) first = &row;
  }
  return first ? first->kind : VariantKind::kParameterFree;
}

}  // namespace awb

#endif  // AWB_GRADERS_MODEL_VARIANT_KINDS_HPP_
