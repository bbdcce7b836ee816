// error.cpp: formatting of awb::Error.
#include "graders/model/error.hpp"

namespace awb {

std::string format_error(const std::string& id, const std::string& location,
                         const std::string& message) {
  std::string out = "[" + id + "] ";
  if (!location.empty()) out += location + ": ";
  return out + message;
}

Error::Error(std::string id, std::string location, std::string message)
    : std::runtime_error(format_error(id, location, message)),
      id_(std::move(id)),
      location_(std::move(location)),
      message_(std::move(message)) {}

}  // namespace awb
