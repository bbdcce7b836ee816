// check.cpp: the registry, shared runs, and the evaluate() wrapper around every definition.
#include "graders/checks/check.hpp"

#include <algorithm>
#include <mutex>

#include "graders/checks/diagnosis.hpp"
#include "graders/checks/measures.hpp"
#include "graders/model/error.hpp"

namespace awb::grade {

const char* to_string(KeyType t) {
  switch (t) {
    case KeyType::kToken:
      return "token";
    case KeyType::kTokenList:
      return "token-list";
    case KeyType::kCount:
      return "count";
    case KeyType::kHead:
      return "head";
    case KeyType::kNumber:
      return "number";
    case KeyType::kVector:
      return "vector";
    case KeyType::kBoolean:
      return "boolean";
    case KeyType::kDirection:
      return "direction";
    case KeyType::kOutputs:
      return "outputs";
    case KeyType::kAbsTolerance:
      return "abs-tolerance";
    case KeyType::kTolerance:
      return "tolerance";
    case KeyType::kSweep:
      return "sweep";
    case KeyType::kMeasure:
      return "measure";
  }
  return "?";
}

const CheckKey* CheckDef::key(const std::string& key_name) const {
  for (const auto& k : keys)
    if (k.name == key_name) return &k;
  return nullptr;
}

void ParameterOverrides::apply(Parameters& p) const {
  if (sharpness) p.sharpness = *sharpness;
  if (heads) p.heads = *heads;
  if (causal) p.causal = *causal;
  if (scale) p.scale = *scale;
  if (kv_heads) p.kv_heads = *kv_heads;
}

const RunOutput& CheckContext::subject_run() {
  if (!subject_run_) subject_run_ = subject_.run(base_, scalar_);
  return *subject_run_;
}

const RunOutput& CheckContext::reference_run(Scalar scalar) {
  auto it = reference_runs_.find(scalar);
  if (it == reference_runs_.end())
    it = reference_runs_.emplace(scalar, reference_.run(base_, scalar)).first;
  return it->second;
}

CheckContext& CheckContext::in_scalar(Scalar scalar) {
  if (scalar == scalar_) return *this;
  auto& sibling = siblings_[scalar];
  if (!sibling)
    sibling = std::make_unique<CheckContext>(subject_, reference_, base_, scalar, strictness_);
  return *sibling;
}

const Registry& Registry::instance() {
  static const Registry registry = [] {
    Registry r;
    register_reference_checks(r);
    register_property_checks(r);
    register_expect_checks(r);
    register_gradient_checks(r);
    return r;
  }();
  return registry;
}

const CheckDef* Registry::find(CheckKind kind, const std::string& name) const {
  for (const auto& d : defs_)
    if (d.kind == kind && d.name == name) return &d;
  return nullptr;
}

std::vector<std::string> Registry::names(CheckKind kind) const {
  std::vector<std::string> out;
  for (const auto& d : defs_)
    if (d.kind == kind) out.push_back(d.name);
  return out;
}

void Registry::add(CheckDef def) { defs_.push_back(std::move(def)); }

namespace {

// A failed check whose own judgement names no cause still gets one, read from the subject's
// outputs on the check's input beside the reference's (a semantic claim failing is often the
// visible face of a mechanical mistake).
std::string fallback_diagnosis(const CheckSpec& spec, CheckContext& ctx) {
  try {
    const RunOutput& got = ctx.subject_run();
    const RunOutput& ref = ctx.reference_run(Scalar::kF64);
    const size_t l = spec.layer < 0 ? got.layers.size() - 1 : static_cast<size_t>(spec.layer);
    return diagnose(got.layers.at(l), &ref.layers.at(l),
                    ctx.base().layer_problem(l, got.layers[l].input));
  } catch (const Error&) {
    return "";
  }
}

// Why the outputs this check reads cannot be judged (a NaN, an Inf, a degenerate layer), or "".
std::string unjudgeable_outputs(const CheckSpec& spec, const CheckDef& def, CheckContext& ctx) {
  if (!def.reads) return "";
  const RunOutput& got = ctx.subject_run();
  return unjudgeable(layer_of(got, spec.layer), def.reads, def.key("head") ? spec.head : -1);
}

}  // namespace

CheckResult evaluate(const CheckSpec& spec, CheckContext& grading_ctx) {
  // A check may ask for its own scalar type (an f32 probe in an f64 grading, say).
  CheckContext& ctx = spec.scalar ? grading_ctx.in_scalar(*spec.scalar) : grading_ctx;
  CheckResult r;
  r.id = spec.id;
  r.name = spec.name;
  r.kind = spec.kind;
  r.max_points = spec.points;
  r.visibility = spec.visibility;
  const CheckDef* def = Registry::instance().find(spec.kind, spec.name);
  if (!def) {
    r.status = Status::kError;
    r.summary = "unknown check '" + spec.name + "'";
    return r;
  }
  if (def->strictness > ctx.strictness()) {
    r.status = Status::kNotRun;
    r.summary = "needs strictness " + std::to_string(def->strictness) + " (grading at " +
                std::to_string(ctx.strictness()) + ")";
    return r;
  }
  if (auto why = ctx.subject_cannot_run()) {
    r.status = Status::kNotRun;
    r.summary = "cannot run: " + *why;
    return r;
  }
  if (def->needs_backward) {
    if (auto why = ctx.subject_cannot_backward()) {
      r.status = Status::kNotRun;
      r.summary = "cannot run: " + *why;
      return r;
    }
  }
  try {
    const std::string why = unjudgeable_outputs(spec, *def, ctx);
    const Judgement j = why.empty()
                            ? def->judge(spec, ctx)
                            : Judgement{false, 0, why + "; no check passes on that", "", ""};
    r.status = j.passed ? Status::kPassed : Status::kFailed;
    r.points = spec.points * (j.passed ? 1.0 : std::clamp(j.partial, 0.0, 1.0));
    r.summary = j.summary;
    r.details = j.details;
    r.diagnosis = j.diagnosis;
    if (!j.passed) {
      r.hint = spec.hint;
      if (r.diagnosis.empty()) r.diagnosis = fallback_diagnosis(spec, ctx);
    }
  } catch (const Error& e) {
    r.status = e.id() == "runner.timeout" ? Status::kTimeout : Status::kError;
    r.summary = e.message();
    r.hint = spec.hint;
  }
  return r;
}

}  // namespace awb::grade
