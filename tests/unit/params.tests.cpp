// params.tests.cpp: variant parameters (SDK 1.2): declarations checked, values resolved against
// them, and both carried across the runner protocol.
#include "graders/model/params.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <functional>

#include "core/plugins/plugin_loader.hpp"
#include "graders/model/error.hpp"
#include "runner/protocol.hpp"

using namespace awb;

namespace {

ParamDecl window() { return {"window", ParamType::kInt, "keys on either side", 2, 0, 64, {}}; }
ParamDecl feature_map() {
  return {"feature_map", ParamType::kEnum, "phi", 0, 0, 1, {"elu+1", "relu"}};
}
ParamDecl temperature() { return {"temperature", ParamType::kFloat, "", 1.0, 0.01, 10, {}}; }
ParamDecl gated() { return {"gated", ParamType::kBool, "", 0, 0, 1, {}}; }

std::string error_id(const std::function<void()>& fn) {
  try {
    fn();
  } catch (const Error& e) {
    return e.id() + ": " + e.message();
  }
  return "";
}

}  // namespace

TEST_CASE("values resolve against the declarations: defaults, types, ranges, choices", "[params]") {
  const std::vector<ParamDecl> decls{window(), feature_map(), temperature(), gated()};
  CHECK(resolve_params(decls, {}, "v") == std::vector<double>{2, 0, 1.0, 0});
  CHECK(resolve_params(decls, {{"window", "16"}, {"feature_map", "relu"}, {"gated", "true"}},
                       "v") == std::vector<double>{16, 1, 1.0, 1});
  CHECK(resolve_params(decls, {{"temperature", "0.5"}}, "v")[2] == 0.5);

  CHECK_THAT(error_id([&] {
               resolve_params(decls, {{"window", "65"}}, "variant 'w'");
             }),
             Catch::StartsWith("param.invalid: variant 'w': parameter 'window' = '65': out of "
                               "range (int, 0 to 64)"));
  CHECK_THAT(error_id([&] {
               resolve_params(decls, {{"window", "2.5"}}, "v");
             }),
             Catch::Contains("not an integer"));
  CHECK_THAT(error_id([&] {
               resolve_params(decls, {{"window", "nan"}}, "v");
             }),
             Catch::Contains("not a number"));
  CHECK_THAT(error_id([&] {
               resolve_params(decls, {{"feature_map", "tanh"}}, "v");
             }),
             Catch::Contains("not one of the choices (enum, elu+1 | relu)"));
  CHECK_THAT(error_id([&] {
               resolve_params(decls, {{"gated", "yes"}}, "v");
             }),
             Catch::Contains("not a boolean"));
}

TEST_CASE("a value nobody declares is an error for a variant, ignored by the reference",
          "[params]") {
  CHECK(error_id([] {
          resolve_params({window()}, {{"widow", "3"}}, "variant 'x'");
        }) == "param.unknown: variant 'x' declares no parameter 'widow'; it takes: window");
  CHECK(error_id([] {
          resolve_params({}, {{"window", "3"}}, "variant 'qkv'");
        }) == "param.unknown: variant 'qkv' declares no parameter 'window'; it takes none");
  CHECK(resolve_params({window()}, {{"other", "3"}}, "the reference", false) ==
        std::vector<double>{2});
  // Lenient does not mean unchecked: a declared value must still fit.
  CHECK_THAT(error_id([] {
               resolve_params({window()}, {{"window", "-1"}}, "r", false);
             }),
             Catch::StartsWith("param.invalid"));
}

TEST_CASE("declarations from untrusted code are checked before anything uses them", "[params]") {
  CHECK(invalid_declarations({window(), feature_map(), temperature(), gated()}).empty());
  auto bad = window();
  bad.name = "Window";
  CHECK_THAT(invalid_declarations({bad}), Catch::Contains("[a-z0-9_]"));
  CHECK_THAT(invalid_declarations({window(), window()}), Catch::Contains("declared twice"));
  bad = window();
  bad.default_value = 100;
  CHECK_THAT(invalid_declarations({bad}), Catch::Contains("the default 100 is outside 0 to 64"));
  bad = window();
  bad.min_value = 5;
  bad.max_value = 1;
  CHECK_THAT(invalid_declarations({bad}), Catch::Contains("empty or not finite"));
  bad = window();
  bad.default_value = 1.5;
  CHECK_THAT(invalid_declarations({bad}), Catch::Contains("integral"));
  bad = feature_map();
  bad.choices = {};
  CHECK_THAT(invalid_declarations({bad}), Catch::Contains("at least one choice"));
  bad = feature_map();
  bad.choices = {"relu", "relu"};
  CHECK_THAT(invalid_declarations({bad}), Catch::Contains("appears twice"));
  bad = feature_map();
  bad.default_value = 2;
  CHECK_THAT(invalid_declarations({bad}), Catch::Contains("is not a choice"));
  bad = gated();
  bad.default_value = 0.5;
  CHECK_THAT(invalid_declarations({bad}), Catch::Contains("0 or 1"));
  bad = window();
  bad.type = static_cast<ParamType>(9);
  CHECK_THAT(invalid_declarations({bad}), Catch::Contains("unknown type 9"));
  CHECK_THAT(invalid_declarations(std::vector<ParamDecl>(33, window())),
             Catch::Contains("33 parameters (at most 32)"));
}

TEST_CASE("values read back as written, and --param assignments", "[params]") {
  CHECK(param_text(feature_map(), 1) == "relu");
  CHECK(param_text(gated(), 1) == "true");
  CHECK(param_text(temperature(), 0.1) == "0.1");
  CHECK(params_text({window(), feature_map()}, {16, 1}) == "window=16, feature_map=relu");
  CHECK(describe(window()) == "window (int, 0 to 64, default 2): keys on either side");
  CHECK(describe(gated()) == "gated (bool, default false)");
  ParamValues v;
  add_param_assignment(v, "window=16");
  add_param_assignment(v, "feature_map=elu+1");
  add_param_assignment(v, "window=32");  // later ones win
  CHECK(v == ParamValues{{"window", "32"}, {"feature_map", "elu+1"}});
  for (const char* bad : {"window", "=3", "window="})
    CHECK_THAT(error_id([&] { add_param_assignment(v, bad); }), Catch::StartsWith("param.syntax"));
}

TEST_CASE("declarations and values cross the runner protocol", "[params][runner]") {
  runner::Hello h;
  h.descriptor.present = true;
  h.descriptor.n_variants = 1;
  h.descriptor.has_variants = true;
  runner::RawVariant v;
  v.present = true;
  v.id = "w";
  v.has_forward = true;
  v.has_cost = true;
  v.params.push_back({"feature_map", "phi", AWB_PARAM_ENUM, 1, 0, 1, {"elu+1", "relu"}});
  h.descriptor.variants.push_back(v);
  const auto back = runner::decode_hello(runner::encode(h));
  REQUIRE(back);
  const auto& bv = back->descriptor.variants.at(0);
  CHECK(bv.has_cost);
  CHECK(bv.params_valid);
  REQUIRE(bv.params.size() == 1);
  CHECK(bv.params[0].name == "feature_map");
  CHECK(bv.params[0].default_value == 1);
  CHECK(bv.params[0].choices == std::vector<std::string>{"elu+1", "relu"});

  // A forward request carries the values; the runner's copy owns its names.
  std::vector<double> x = {1, 2, 3, 4}, z(4);
  awb_problem p{};
  p.struct_size = sizeof p;
  p.scalar = AWB_SCALAR_F64;
  p.n_heads = 1;
  p.sharpness = 1;
  p.x = awb_tensor{x.data(), 2, 0, {2, 2, 1}, {2, 1, 0}};
  const awb_param_value values[] = {{"window", 16}, {"feature_map", 1}};
  p.n_params = 2;
  p.params = values;
  awb_results r{};
  r.struct_size = sizeof r;
  r.z = awb_tensor{z.data(), 2, 0, {2, 2, 1}, {2, 1, 0}};
  auto d = runner::decode_forward(runner::encode_forward(0, p, r));
  REQUIRE(d);
  const runner::DecodedForward moved = std::move(*d);
  REQUIRE(moved.problem.n_params == 2);
  CHECK(std::string(moved.problem.params[0].name) == "window");
  CHECK(moved.problem.params[0].value == 16);
  CHECK(std::string(moved.problem.params[1].name) == "feature_map");

  // A cost query carries shapes and values, no data.
  const auto c = runner::decode_cost(runner::encode_cost(3, p, true));
  REQUIRE(c);
  CHECK(c->variant_index == 3);
  CHECK(c->writes_weights);
  CHECK(c->problem.x.data == nullptr);
  CHECK(c->problem.x.rank == 2);
  CHECK(c->problem.x.shape[0] == 2);
  CHECK(c->problem.w_q.rank == 0);
  CHECK(c->problem.params[1].value == 1);
  awb_cost cost{sizeof cost, 0, 0};
  const auto answer = runner::decode_cost_result(
      runner::encode_cost_result(AWB_OK, "", awb_cost{sizeof(awb_cost), 1e9, 4096}), cost);
  REQUIRE(answer);
  CHECK(cost.flops == 1e9);
  CHECK(cost.bytes == 4096);
}

TEST_CASE("the loader refuses a variant whose declarations are bad", "[params][loader]") {
  runner::RawDescriptor d;
  d.present = true;
  d.struct_size = sizeof(awb_plugin_descriptor);
  d.abi_major = AWB_ABI_MAJOR;
  d.abi_minor = AWB_ABI_MINOR;
  d.id = "org.example.params";
  d.name = "Params";
  d.version = "1";
  d.n_variants = 1;
  d.has_variants = true;
  runner::RawVariant v;
  v.present = true;
  v.struct_size = sizeof(awb_variant);
  v.id = "w";
  v.name = "W";
  v.capabilities = AWB_CAP_F64;
  v.has_create = v.has_destroy = v.has_forward = true;
  v.params.push_back({"window", "", AWB_PARAM_INT, 2, 0, 64, {}});
  d.variants.push_back(v);
  auto ok = core::validate_descriptor(d, "p.so");
  REQUIRE(ok.plugin);
  REQUIRE(ok.plugin->variants.at(0).params.size() == 1);
  CHECK(ok.plugin->variants.at(0).params[0].max_value == 64);

  d.variants[0].params[0].default_value = 65;
  auto bad = core::validate_descriptor(d, "p.so");
  REQUIRE(bad.failure);
  CHECK_THAT(bad.failure->message, Catch::Contains("variant #1 'w': parameter 'window': the "
                                                   "default 65 is outside 0 to 64"));
  d.variants[0].params_valid = false;
  bad = core::validate_descriptor(d, "p.so");
  REQUIRE(bad.failure);
  CHECK_THAT(bad.failure->message, Catch::Contains("the parameter list cannot be read"));
}
