// hint_threshold.hpp: whether a check's hint states the threshold its check judges by.
#ifndef AWB_GRADERS_CHECKS_HINT_THRESHOLD_HPP_
#define AWB_GRADERS_CHECKS_HINT_THRESHOLD_HPP_

#include <string>
#include <vector>

#include "graders/checks/check.hpp"

namespace awb::grade {

// The numbers in `check`'s hint that name its threshold but differ from it, each as
// "'above 1.5' but the check wants 1.2". A number names the threshold when a comparison
// ("above", "below", "less than", "at least", "within", ">", "≤", ...; "top k" and "k largest"
// for in_top_k) comes right before it, with nothing but spaces between (so "at most about 0.4"
// states a fact, not the threshold), in a clause (the text between . , ; : ( and )) that names
// what the check measures ("entropy" for the entropy predicates, "weight" or "of the row" for the
// weight ones, ...). Only expect predicates with a numeric threshold are read: value, margin, k,
// or the tolerance (one_hot_rows: 1 − tolerance). Empty when the hint agrees or names none.
std::vector<std::string> hint_threshold_mismatches(const CheckSpec& check);

}  // namespace awb::grade

#endif  // AWB_GRADERS_CHECKS_HINT_THRESHOLD_HPP_
