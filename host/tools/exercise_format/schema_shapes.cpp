// schema_shapes.cpp: the value shapes and cross-key rules of exercise.schema.json, as JSON.
#include "tools/exercise_format/schema_shapes.hpp"

namespace awb::tools {

// Long for a reason: JSON Schema text, one definition per shape.
Json value_shapes() {
  return Json::parse(R"json({
  "version": {"const": 1},
  "number": {"type": "number", "description": "A finite number (.nan and .inf are rejected)."},
  "row": {"type": "array", "items": {"$ref": "#/$defs/number"}, "minItems": 1, "maxItems": 4096},
  "matrix": {
    "description": "A list of equally long rows.",
    "type": "array", "items": {"$ref": "#/$defs/row"}, "minItems": 1, "maxItems": 4096
  },
  "distribution": {"enum": ["normal", "uniform"]},
  "seeded": {
    "description": "Numbers from the workbench's generator (SplitMix64, Box-Muller).",
    "type": "object",
    "properties": {
      "seed": {"type": "integer", "minimum": 0, "maximum": 9007199254740992},
      "distribution": {"$ref": "#/$defs/distribution"},
      "mean": {"$ref": "#/$defs/number"},
      "std": {"type": "number", "minimum": 0},
      "low": {"$ref": "#/$defs/number"},
      "high": {"$ref": "#/$defs/number"}
    },
    "required": ["seed"]
  },
  "weight": {
    "description": "A list of rows, or {seed, rows, cols, distribution, mean, std, low, high}.",
    "oneOf": [
      {"$ref": "#/$defs/matrix"},
      {
        "allOf": [{"$ref": "#/$defs/seeded"}],
        "type": "object",
        "properties": {
          "rows": {"type": "integer", "minimum": 1, "maximum": 4096},
          "cols": {"type": "integer", "minimum": 1, "maximum": 4096}
        },
        "required": ["seed", "rows", "cols"],
        "propertyNames": {
          "enum": ["seed", "distribution", "mean", "std", "low", "high", "rows", "cols"]
        }
      }
    ]
  },
  "tokens": {
    "description": "The sentence, one entry per token.",
    "type": "array", "minItems": 1, "maxItems": 4096,
    "items": {"type": ["string", "number", "boolean"]}
  },
  "token_ref": {
    "description": "A token by its text (first occurrence) or by its index.",
    "type": ["string", "integer"], "minimum": 0
  },
  "embeddings": {
    "description": "A list of rows (one per token), {vocabulary: {token: row}} or {generate: {...}}.",
    "oneOf": [
      {"$ref": "#/$defs/matrix"},
      {
        "type": "object",
        "properties": {
          "vocabulary": {
            "type": "object", "minProperties": 1, "additionalProperties": {"$ref": "#/$defs/row"}
          }
        },
        "required": ["vocabulary"],
        "additionalProperties": false
      },
      {
        "type": "object",
        "properties": {
          "generate": {
            "allOf": [{"$ref": "#/$defs/seeded"}],
            "type": "object",
            "properties": {"d_model": {"type": "integer", "minimum": 1, "maximum": 4096}},
            "required": ["seed", "d_model"],
            "propertyNames": {
              "enum": ["seed", "distribution", "mean", "std", "low", "high", "d_model"]
            }
          }
        },
        "required": ["generate"],
        "additionalProperties": false
      }
    ]
  },
  "positions": {
    "description": "none, sinusoidal, or {inline: rows} added to the embeddings.",
    "oneOf": [
      {"enum": ["none", "sinusoidal"]},
      {
        "type": "object",
        "properties": {"inline": {"$ref": "#/$defs/matrix"}},
        "required": ["inline"],
        "additionalProperties": false
      }
    ]
  },
  "params": {
    "type": "object",
    "maxProperties": 32,
    "propertyNames": {"pattern": "^[a-z0-9_]{1,64}$"},
    "additionalProperties": {"type": ["number", "boolean", "string"]}
  },
  "sweep": {
    "type": "object",
    "properties": {
      "parameter": {"enum": ["sharpness"]},
      "values": {
        "type": "array", "minItems": 2, "maxItems": 64,
        "items": {"type": "number", "exclusiveMinimum": 0}
      }
    },
    "required": ["parameter", "values"],
    "additionalProperties": false
  },
  "measure": {
    "type": "object",
    "properties": {
      "metric": {"enum": ["entropy", "max_weight", "weight"]},
      "query": {"$ref": "#/$defs/token_ref"},
      "key": {"$ref": "#/$defs/token_ref"}
    },
    "required": ["metric", "query"],
    "additionalProperties": false,
    "if": {"properties": {"metric": {"const": "weight"}}, "required": ["metric"]},
    "then": {"required": ["key"]}
  },
  "train": {
    "description": "What awb train learns (FORMAT.md, Training).",
    "type": "object",
    "properties": {
      "learn": {
        "type": "array", "minItems": 1, "maxItems": 4,
        "items": {"enum": ["w_q", "w_k", "w_v", "w_o"]}
      },
      "init": {"$ref": "#/$defs/seeded"},
      "optimizer": {
        "type": "object",
        "properties": {
          "kind": {"enum": ["sgd", "adam"]},
          "learning_rate": {"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1000},
          "momentum": {"type": "number", "minimum": 0, "exclusiveMaximum": 1},
          "beta1": {"type": "number", "minimum": 0, "exclusiveMaximum": 1},
          "beta2": {"type": "number", "minimum": 0, "exclusiveMaximum": 1},
          "epsilon": {"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1}
        },
        "required": ["kind"],
        "additionalProperties": false
      },
      "steps": {"type": "integer", "minimum": 1, "maximum": 100000},
      "log_every": {"type": "integer", "minimum": 1, "maximum": 100000},
      "objective": {
        "type": "object",
        "properties": {
          "kind": {"const": "attention"},
          "targets": {
            "type": "array", "minItems": 1, "maxItems": 256,
            "items": {
              "type": "object",
              "properties": {
                "case": {"type": "string"},
                "layer": {"type": "integer", "minimum": 0, "maximum": 15},
                "head": {"type": "integer", "minimum": 0, "maximum": 63},
                "query": {"type": ["string", "integer"]},
                "key": {"type": ["string", "integer"]},
                "avoid": {"type": "boolean"}
              },
              "required": ["query", "key"],
              "additionalProperties": false
            }
          }
        },
        "required": ["kind", "targets"],
        "additionalProperties": false
      },
      "success": {
        "type": "object",
        "properties": {
          "loss_below": {"type": "number"},
          "checks": {
            "type": "array", "minItems": 1, "maxItems": 256, "items": {"$ref": "#/$defs/check"}
          }
        },
        "minProperties": 1,
        "additionalProperties": false
      }
    },
    "required": ["learn", "optimizer", "steps", "objective", "success"],
    "additionalProperties": false
  }
})json");
}

namespace {

// The top level's rules between keys; awb lint says the same in its own words.
const char* const kTopRules = R"json({"allOf": [
  {"description": "weights or layers, not both", "not": {"required": ["weights", "layers"]}},
  {
    "description": "tokens and embeddings unless every case has its own",
    "if": {"not": {"required": ["cases"]}},
    "then": {"required": ["tokens", "embeddings"]}
  },
  {
    "description": "a parameter-free exercise has no weights",
    "if": {
      "properties": {
        "variant": {"properties": {"kind": {"const": "parameter-free"}}, "required": ["kind"]}
      },
      "required": ["variant"]
    },
    "then": {"not": {"anyOf": [{"required": ["weights"]}, {"required": ["layers"]}]}}
  },
  {
    "description": "the other kinds need weights or layers",
    "if": {
      "properties": {
        "variant": {
          "properties": {
            "kind": {
              "allOf": [
                {"$ref": "#/$defs/variant/properties/kind"}, {"not": {"const": "parameter-free"}}
              ]
            }
          },
          "required": ["kind"]
        }
      },
      "required": ["variant"]
    },
    "then": {"anyOf": [{"required": ["weights"]}, {"required": ["layers"]}]}
  },
  {
    "description": "a causal exercise needs parameters.causal: true",
    "if": {
      "properties": {
        "variant": {"properties": {"kind": {"const": "causal"}}, "required": ["kind"]}
      },
      "required": ["variant"]
    },
    "then": {
      "required": ["parameters"],
      "properties": {
        "parameters": {"required": ["causal"], "properties": {"causal": {"const": true}}}
      }
    }
  }
]})json";

// Stricter than the loader on purpose: an editor wants all three in every weights mapping, where
// the loader takes an empty one in a parameter-free stack and reports the missing three otherwise.
const char* const kWeightsRules = R"json({
  "description": "w_q, w_k, w_v (d_model x heads*d_k, heads*d_v for w_v) and an optional w_o.",
  "required": ["w_q", "w_k", "w_v"]
})json";

const char* const kQuestionRules = R"json({
  "description": "Asked in the explore view before the weights show (FORMAT.md, Questions). The answer is derived from the reference, never written.",
  "allOf": [
    {
      "if": {"properties": {"answer": {"const": "token"}}},
      "then": {"not": {"required": ["key"]}}
    },
    {
      "if": {"properties": {"answer": {"const": "head"}}},
      "then": {"required": ["key"], "not": {"required": ["head"]}}
    }
  ]
})json";

}  // namespace

Json section_rules(core::Section s) {
  switch (s) {
    case core::Section::kTop:
      return Json::parse(kTopRules);
    case core::Section::kWeights:
      return Json::parse(kWeightsRules);
    case core::Section::kQuestion:
      return Json::parse(kQuestionRules);
    default:
      return Json::object();
  }
}

}  // namespace awb::tools
