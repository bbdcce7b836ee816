// params.hpp: variant parameters (SDK 1.2) as the host models them: what a variant declares, the
// values a user writes (`--param window=16`, `variant.params` in YAML), and the one rule that
// turns the second into numbers for the first.
#ifndef AWB_GRADERS_MODEL_PARAMS_HPP_
#define AWB_GRADERS_MODEL_PARAMS_HPP_

#include <awb/awb_plugin.h>

#include <map>
#include <string>
#include <vector>

#include "graders/model/names.hpp"

namespace awb {

enum class ParamType {
  kInt = AWB_PARAM_INT,
  kFloat = AWB_PARAM_FLOAT,
  kBool = AWB_PARAM_BOOL,
  kEnum = AWB_PARAM_ENUM
};
inline constexpr std::array<EnumName<ParamType>, 4> kParamTypeNames{{
    {ParamType::kInt, "int"},
    {ParamType::kFloat, "float"},
    {ParamType::kBool, "bool"},
    {ParamType::kEnum, "enum"},
}};
static_assert(names_every_value(kParamTypeNames));
constexpr const auto& enum_names(ParamType) { return kParamTypeNames; }
constexpr const char* to_string(ParamType t) { return name_in(kParamTypeNames, t); }

// One declared parameter (awb_param_decl as plain data).
struct ParamDecl {
  std::string name;
  ParamType type = ParamType::kInt;
  std::string doc;
  double default_value = 0;
  double min_value = 0, max_value = 0;  // int and float
  std::vector<std::string> choices{};   // enum
};

// Values as a user wrote them, by name: "16", "relu", "true". Ordered, so reports and keys are
// stable.
using ParamValues = std::map<std::string, std::string>;

// At most this many parameters per variant (awb_plugin.h).
inline constexpr size_t kMaxParams = 32;

// Why `decls` is not a usable declaration list (a bad name, a duplicate, a default outside its
// range, an enum without choices), or empty. `decls` may come from untrusted code.
std::string invalid_declarations(const std::vector<ParamDecl>& decls);

// One number per declaration, in declaration order: the value in `values` parsed by its type
// (an enum's choice becomes its index), else the default. With `strict`, a name in `values` that
// no declaration has is an error; otherwise it is ignored (the reference of a problem sees the
// values meant for the variant). Throws awb::Error("param.unknown" listing the declared names,
// "param.invalid" naming the type and range). `owner` names the variant in messages.
std::vector<double> resolve_params(const std::vector<ParamDecl>& decls, const ParamValues& values,
                                   const std::string& owner, bool strict = true);

// Every declared parameter as a user writes it, defaults filled in: `values` resolved
// (resolve_params) and written back, so that 0.50 and 0.5, or a default left out and written
// out, give the same set. Throws as resolve_params.
ParamValues canonical_params(const std::vector<ParamDecl>& decls, const ParamValues& values,
                             const std::string& owner, bool strict = true);
// "window=2,feature_map=relu" in declaration order: what follows the '@' of a labelled variant
// ("sliding-window@window=2"); empty for a variant without parameters.
std::string params_label(const std::vector<ParamDecl>& decls, const ParamValues& canonical);

// The value `number` of `decl` as a user writes it: "16", "0.5", "true", "relu".
std::string param_text(const ParamDecl& decl, double number);
// "window=16, feature_map=relu": resolved values (one per declaration) as a user writes them.
std::string params_text(const std::vector<ParamDecl>& decls, const std::vector<double>& values);
// "window (int, 0 to 1048576, default 2): keys each query sees on either side".
std::string describe(const ParamDecl& decl);

// Reads "name=value" (as `--param` gives it) into `values`; throws awb::Error("param.syntax").
void add_param_assignment(ParamValues& values, const std::string& assignment);

// The declarations of a C array (trusted: the reference's own, or one already validated).
std::vector<ParamDecl> to_decls(const awb_param_decl* const* params, size_t count);

}  // namespace awb

#endif  // AWB_GRADERS_MODEL_PARAMS_HPP_
