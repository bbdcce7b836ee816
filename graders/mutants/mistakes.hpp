// mistakes.hpp: the classic mistakes the mutants carry and, in the same table, the variant kinds
// each can occur in. The mutant body switches on the enum; `awb lint` reads the table.
#ifndef AWB_GRADERS_MUTANTS_MISTAKES_HPP_
#define AWB_GRADERS_MUTANTS_MISTAKES_HPP_

#include <cstdint>
#include <string_view>

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
};

// The variant kinds, as bit flags; kKindIds names them in the same order (the ids of the bundled
// plugins' variants and of an exercise's `variant.kind`).
enum Kind : unsigned {
  kParameterFree = 1u << 0,
  kQkv = 1u << 1,
  kMultiHead = 1u << 2,
  kCausal = 1u << 3,
};
inline constexpr int kKindCount = 4;
inline constexpr std::string_view kKindIds[kKindCount] = {"parameter-free", "qkv", "multi-head",
                                                          "causal"};
inline constexpr unsigned kAllKinds = kParameterFree | kQkv | kMultiHead | kCausal;

// Where a mistake can occur. A causal-mask mistake, and S written after the mask, need the mask
// (the causal kind: the other kinds run unmasked exercises); a head-assembly mistake needs several
// heads and W_o; a scale or Q/K mistake needs projections (parameter-free S = X·Xᵀ is symmetric and
// unscaled); a weight-gradient mistake needs weights.
struct MistakeInfo {
  Mistake mistake;
  std::string_view name;  // the mutant's name: plugin org.awb.mutant.<name>, file mutant_<name>
  unsigned kinds;         // the kinds it applies to
  // A backward-pass mistake: only a gradient check can catch it, so it applies only where an
  // exercise checks a gradient.
  bool backward = false;
};

inline constexpr unsigned kWithWeights = kQkv | kMultiHead | kCausal;
inline constexpr unsigned kWithHeads = kMultiHead | kCausal;

inline constexpr MistakeInfo kMistakes[] = {
    {Mistake::kDivideBySum, "divide-by-sum", kAllKinds},
    {Mistake::kNoMaxSubtraction, "no-max-subtraction", kAllKinds},
    {Mistake::kNoScale, "no-scale", kWithWeights},
    {Mistake::kWrongAxis, "wrong-axis", kAllKinds},
    {Mistake::kNoCausalMask, "no-causal-mask", kCausal},
    {Mistake::kMaskAfterSoftmax, "mask-after-softmax", kCausal},
    {Mistake::kMaskHidesDiagonal, "mask-hides-diagonal", kCausal},
    {Mistake::kSwapQK, "swap-q-k", kWithWeights},
    {Mistake::kHeadsReversed, "heads-reversed", kWithHeads},
    {Mistake::kSkipOutputProj, "skip-output-projection", kWithHeads},
    {Mistake::kUnnormalisedContext, "unnormalised-context", kAllKinds},
    {Mistake::kMaskOffByOne, "mask-off-by-one", kCausal},
    {Mistake::kScaleByDModel, "scale-by-d-model", kWithWeights},
    {Mistake::kNoMaxSubtractionF32, "no-max-subtraction-f32", kAllKinds},
    {Mistake::kNanEverywhere, "nan-everywhere", kAllKinds},
    {Mistake::kConstantOutput, "constant-output", kAllKinds},
    {Mistake::kBackwardNoSoftmaxTerm, "backward-no-softmax-term", kAllKinds, true},
    {Mistake::kBackwardNoScale, "backward-no-scale", kWithWeights, true},
    {Mistake::kBackwardTransposedGrad, "backward-transposed-weight-grad", kWithWeights, true},
    {Mistake::kBackwardNoCausalMask, "backward-no-causal-mask", kCausal, true},
    {Mistake::kGradientSignFlip, "gradient-sign-flip", kAllKinds, true},
    {Mistake::kScoresAfterMask, "scores-after-mask", kCausal},
};

// The entry for a mutant's name, or nullptr for a name the table does not know.
constexpr const MistakeInfo* find_mistake(std::string_view name) {
  for (const auto& m : kMistakes)
    if (m.name == name) return &m;
  return nullptr;
}

}  // namespace awb::mutants

#endif  // AWB_GRADERS_MUTANTS_MISTAKES_HPP_
