// plugin_status.cpp: one wording of the SDK's status codes for every place they reach a student.
#include "graders/model/plugin_status.hpp"

#include <awb/awb_plugin.h>

#include <string_view>

namespace awb {

std::string plugin_status_message(int status, const std::string& message) {
  constexpr std::string_view kTodo = "TODO: ";
  std::string words;
  switch (status) {
    case AWB_OK:
      words = "the plugin reported success";
      break;
    case AWB_ERR_INVALID_ARGUMENT:
      words = "the plugin rejected the problem as invalid";
      break;
    case AWB_ERR_UNSUPPORTED:
      // The template's starter throws this for every step still to write.
      if (message.starts_with(kTodo))
        return "TODO left in the starter: " + message.substr(kTodo.size());
      words = "the plugin does not implement this";
      break;
    case AWB_ERR_OUT_OF_MEMORY:
      words = "the plugin ran out of memory";
      break;
    case AWB_ERR_INTERNAL:
      words = "the plugin failed (an internal error or an exception)";
      break;
    default:
      words = "the plugin returned an unknown status (" + std::to_string(status) + ")";
  }
  return message.empty() ? words : words + ": " + message;
}

}  // namespace awb
