// reference_forward.cpp: adapts graders/reference to RawForward.
#include "core/plugins/reference_forward.hpp"

#include <stdexcept>

#include "graders/model/error.hpp"
#include "graders/reference/reference_attention.hpp"

namespace awb::core {

RawForward reference_forward(uint64_t capabilities) {
  const auto kind =
      (capabilities & AWB_CAP_QKV) ? reference::Kind::kProjected : reference::Kind::kParameterFree;
  return [kind](const awb_problem& p, awb_results& r) {
    try {
      reference::attention_forward(p, r, kind);
    } catch (const std::invalid_argument& e) {
      throw Error("reference.invalid", e.what());
    }
  };
}

}  // namespace awb::core
