// error.hpp: the host's one error type: a stable id, a location and a message.
#ifndef AWB_GRADERS_MODEL_ERROR_HPP_
#define AWB_GRADERS_MODEL_ERROR_HPP_

#include <stdexcept>
#include <string>

namespace awb {

// Printed as "[id] location: message", e.g.
// "[problem.shape] journey.yaml:4:3: row 2 of 'x' has 2 values, expected 3".
// Ids are stable and searchable; the location may be empty.
class Error : public std::runtime_error {
 public:
  Error(std::string id, std::string location, std::string message);
  Error(std::string id, std::string message) : Error(std::move(id), {}, std::move(message)) {}

  const std::string& id() const noexcept { return id_; }
  const std::string& location() const noexcept { return location_; }
  const std::string& message() const noexcept { return message_; }

 private:
  std::string id_;
  std::string location_;
  std::string message_;
};

std::string format_error(const std::string& id, const std::string& location,
                         const std::string& message);

}  // namespace awb

#endif  // AWB_GRADERS_MODEL_ERROR_HPP_
