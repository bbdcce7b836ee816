// plugin_status.hpp: a plugin's awb_status and message in the words a student reads.
#ifndef AWB_GRADERS_MODEL_PLUGIN_STATUS_HPP_
#define AWB_GRADERS_MODEL_PLUGIN_STATUS_HPP_

#include <string>

namespace awb {

// What a failed call said, for reports and messages: the status in words, then the plugin's own
// message ("the plugin ran out of memory: ..."), never a bare number. A starter's step
// (AWB_ERR_UNSUPPORTED with a message "TODO: write ...") reads "TODO left in the starter: write
// ...". `status` is an awb_status value; one the SDK does not define is named with its number.
std::string plugin_status_message(int status, const std::string& message);

}  // namespace awb

#endif  // AWB_GRADERS_MODEL_PLUGIN_STATUS_HPP_
