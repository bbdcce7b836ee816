// landlock.hpp: the Landlock step, shared by awb-runner (one plugin) and awb-builder (one
// submission's build): folders opened while they can still be reached, then one ruleset.
#ifndef AWB_RUNNER_LANDLOCK_HPP_
#define AWB_RUNNER_LANDLOCK_HPP_

#include <string>
#include <vector>

namespace awb::runner {

// One Landlock rule: a path opened (O_PATH) while the runner could still reach it.
struct PathRule {
  int fd = -1;
  bool writable = false;
  bool directory = true;
};
// Opens the rules: read-only (and executable) system folders and `read_only`, read-write
// `read_write`. Paths that do not exist are skipped; a path in both lists is read-write.
std::vector<PathRule> open_path_rules(const std::vector<std::string>& read_only,
                                      const std::vector<std::string>& read_write);
// The Landlock step. Returns the kernel's Landlock ABI used (0: not applied) and explains a
// refusal in `why`.
int apply_landlock(const std::vector<PathRule>& rules, std::string& why);

}  // namespace awb::runner

#endif  // AWB_RUNNER_LANDLOCK_HPP_
