// serve.hpp: loads the plugin (after lockdown) and answers the host's requests.
#ifndef AWB_RUNNER_SERVE_HPP_
#define AWB_RUNNER_SERVE_HPP_

#include "runner/lockdown.hpp"
#include "runner/shared_region.hpp"

namespace awb::runner {

// Loads the plugin open on `plugin_fd`, sends Hello (or LoadFailed), then serves forward and
// backward requests (exactly one result frame each) until kBye or the end of the request pipe.
// Large payloads come and go through `region` where the host gave one. Returns the process exit
// status.
int serve(int plugin_fd, const LockdownReport& report, int request_fd, int result_fd,
          const SharedRegion& region);

}  // namespace awb::runner

#endif  // AWB_RUNNER_SERVE_HPP_
