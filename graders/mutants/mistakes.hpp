// mistakes.hpp: the classic mistakes the mutants carry and, in the same table, what a variant
// kind must be able to do for each to occur in it. The mutant body switches on the enum; `awb
// lint` reads the table, and the kinds themselves come from graders/model/variant_kinds.hpp.
#ifndef AWB_GRADERS_MUTANTS_MISTAKES_HPP_
#define AWB_GRADERS_MUTANTS_MISTAKES_HPP_

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "graders/model/variant_kinds.hpp"

namespace awb::mutants {

// One mutant plugin per mistake; kNone is the correct kernel the mistakes deviate from. The order
// is the order of AWB_MUTANTS in graders/mutants/CMakeLists.txt (a unit test compares them).
enum class Mistake {
  kNone,
  kDivideBySum,          // normalise scores by their row sum instead of a softmax
  kNoMaxSubtraction,     // exp() of raw scores: overflows on large scores
  kNoScale,              // forgets 1/sqrt(d_k)
  kWrongAxis,            // softmax over columns instead of rows
  kNoCausalMask,         // declares causal, never masks
  kMaskAfterSoftmax,     // zeroes the future after the softmax, no renormalising
  kMaskHidesDiagonal,    // masks t2 >= t instead of t2 > t
  kSwapQK,               // S = K·Qᵀ
  kHeadsReversed,        // concatenates heads in reverse order
  kSkipOutputProj,       // ignores W_o
  kUnnormalisedContext,  // Z = S·V instead of A·V
  kMaskOffByOne,         // query t also sees key t + 1
  kScaleByDModel,        // 1/sqrt(d_model) where 1/sqrt(d_k) belongs
  kNoMaxSubtractionF32,  // no max subtraction in the f32 path only (the f64 path is right)
  kNanEverywhere,        // every output (and gradient) is NaN
  kConstantOutput,       // uniform weights, zero scores, Z one tiny constant, zero gradients
  // Backward-pass mistakes (the forward is right):
  kBackwardNoSoftmaxTerm,   // dS = A ∘ dA, missing −A·(A·dA)
  kBackwardNoScale,         // forgets 1/sqrt(d_k) in the backward (recomputed A, dQ, dK)
  kBackwardTransposedGrad,  // computes dQᵀ·X (the transpose) and copies it into dW's buffer
  kBackwardNoCausalMask,    // recomputes the weights without the causal mask
  kGradientSignFlip,        // returns every gradient negated (−∂L/∂X, −∂L/∂W)
  // A contract mistake (the maths is right):
  kScoresAfterMask,  // S written after the mask: −Inf at the masked entries
  // Grouped-query attention:
  kWrongHeadGrouping,  // query head h reads key/value head h mod g instead of h / (h_total / g)
};

// The kinds the mutant plugins come in (the rows of kVariantKinds marked kMutants), in table
// order: kKindIds[k] is a mutant plugin's variant id and an exercise's `variant.kind`; a set of
// them is a mask with bit k for kKindIds[k] (kind_bit).
inline constexpr int kKindCount = [] {
  int n = 0;
  for (const auto& row : kVariantKinds) n += row.in(kMutants);
  return n;
}();
inline constexpr auto kMutantKinds = [] {
  std::array<const VariantKindRow*, kKindCount> rows{};
  std::size_t k = 0;
  for (const auto& row : kVariantKinds)
    if (row.in(kMutants)) rows[k++] = &row;
  return rows;
}();
inline constexpr auto kKindIds = [] {
  std::array<std::string_view, kKindCount> ids{};
  for (std::size_t k = 0; k < ids.size(); ++k) ids[k] = kMutantKinds[k]->id;
  return ids;
}();
static_assert(kKindCount <= 32, "a set of mutant kinds is a 32-bit mask");

// The bit of `kind` in a set of mutant kinds, or 0 for a kind the mutants do not come in.
constexpr unsigned kind_bit(VariantKind kind) {
  for (std::size_t k = 0; k < kMutantKinds.size(); ++k)
    if (kMutantKinds[k]->kind == kind) return 1u << k;
  return 0;
}
inline constexpr unsigned kAllKinds = kKindCount == 32 ? ~0u : (1u << kKindCount) - 1;

// Where a mistake can occur: in the kinds whose capabilities include `needs`. A causal-mask
// mistake, and S written after the mask, need the mask (a causal-only kind: the other kinds run
// unmasked exercises); a head-assembly mistake needs several heads and W_o; a scale or Q/K mistake
// needs projections (parameter-free S = X·Xᵀ is symmetric and unscaled); a weight-gradient
// mistake needs weights; a grouping mistake needs grouped-query attention.
struct MistakeInfo {
  Mistake mistake;
  std::string_view name;  // the mutant's name: plugin org.awb.mutant.<name>, file mutant_<name>
  uint64_t needs;         // the capabilities (AWB_CAP_*) a kind needs for it to occur there
  // A backward-pass mistake: only a gradient check can catch it, so it applies only where an
  // exercise checks a gradient.
  bool backward = false;
};

inline constexpr uint64_t kAnyKind = 0;
inline constexpr uint64_t kWithWeights = AWB_CAP_QKV;
inline constexpr uint64_t kWithHeads = AWB_CAP_MULTI_HEAD | AWB_CAP_OUTPUT_PROJ;
inline constexpr uint64_t kMasked = AWB_CAP_CAUSAL_ONLY;
inline constexpr uint64_t kGrouped = AWB_CAP_GROUPED_KV;

inline constexpr MistakeInfo kMistakes[] = {
    {Mistake::kDivideBySum, "divide-by-sum", kAnyKind},
    {Mistake::kNoMaxSubtraction, "no-max-subtraction", kAnyKind},
    {Mistake::kNoScale, "no-scale", kWithWeights},
    {Mistake::kWrongAxis, "wrong-axis", kAnyKind},
    {Mistake::kNoCausalMask, "no-causal-mask", kMasked},
    {Mistake::kMaskAfterSoftmax, "mask-after-softmax", kMasked},
    {Mistake::kMaskHidesDiagonal, "mask-hides-diagonal", kMasked},
    {Mistake::kSwapQK, "swap-q-k", kWithWeights},
    {Mistake::kHeadsReversed, "heads-reversed", kWithHeads},
    {Mistake::kSkipOutputProj, "skip-output-projection", kWithHeads},
    {Mistake::kUnnormalisedContext, "unnormalised-context", kAnyKind},
    {Mistake::kMaskOffByOne, "mask-off-by-one", kMasked},
    {Mistake::kScaleByDModel, "scale-by-d-model", kWithWeights},
    {Mistake::kNoMaxSubtractionF32, "no-max-subtraction-f32", kAnyKind},
    {Mistake::kNanEverywhere, "nan-everywhere", kAnyKind},
    {Mistake::kConstantOutput, "constant-output", kAnyKind},
    {Mistake::kBackwardNoSoftmaxTerm, "backward-no-softmax-term", kAnyKind, true},
    {Mistake::kBackwardNoScale, "backward-no-scale", kWithWeights, true},
    {Mistake::kBackwardTransposedGrad, "backward-transposed-weight-grad", kWithWeights, true},
    {Mistake::kBackwardNoCausalMask, "backward-no-causal-mask", kMasked, true},
    {Mistake::kGradientSignFlip, "gradient-sign-flip", kAnyKind, true},
    {Mistake::kScoresAfterMask, "scores-after-mask", kMasked},
    {Mistake::kWrongHeadGrouping, "wrong-head-grouping", kGrouped},
};
static_assert(std::size(kMistakes) + 1 == enum_size<Mistake>(),
              "every Mistake but kNone needs its row in kMistakes");

// The mutant kinds `m` occurs in, as a set of kind bits.
constexpr unsigned kinds_of(const MistakeInfo& m) {
  unsigned kinds = 0;
  for (std::size_t k = 0; k < kMutantKinds.size(); ++k)
    if ((kMutantKinds[k]->capabilities & m.needs) == m.needs) kinds |= 1u << k;
  return kinds;
}

// The entry for a mutant's name, or nullptr for a name the table does not know.
constexpr const MistakeInfo* find_mistake(std::string_view name) {
  for (const auto& m : kMistakes)
    if (m.name == name) return &m;
  return nullptr;
}

}  // namespace awb::mutants

#endif  // AWB_GRADERS_MUTANTS_MISTAKES_HPP_
