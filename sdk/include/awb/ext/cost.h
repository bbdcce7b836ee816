/* cost.h: the extension "org.awb.cost/1", what one forward pass costs (SDK 1.2). */
/* SPDX-License-Identifier: MIT */
#ifndef AWB_EXT_COST_H_
#define AWB_EXT_COST_H_

/* The core types (awb_problem, awb_results, awb_tensor, awb_status, awb_variant). The core header
 * includes this one at its end, after those types, so either may be included first. */
#include "../awb_plugin.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Extension "org.awb.cost/1": what one forward pass costs (1.2).
 * ---------------------------------------------------------------
 * Looked up like the backward extension. Benchmarks divide the FLOP count by the measured time
 * (GFLOP/s, share of the machine's peak); without the extension they report time and memory only,
 * since the workbench cannot know what a variant computes.
 *
 * cost() receives a problem whose tensors carry their shapes but no data (data == NULL for every
 * tensor; `x.shape` is T × d_model, the weights' shapes say h, d_k, d_v and d_out) and the
 * parameters' values, and whether the pass writes the attention weights (A, and then S). It
 * writes the floating-point operations of one forward pass (a fused multiply-add counts 2) and
 * the bytes the pass must at least move between memory and the cores (its inputs read once and
 * its outputs written once, plus what its algorithm forces, e.g. A). It allocates nothing, calls
 * no other function of the plugin and is thread-safe and cheap.
 */
#define AWB_EXT_COST "org.awb.cost/1"

typedef struct awb_cost {
  size_t struct_size; /* sizeof(awb_cost) in the host's header */
  double flops;       /* floating-point operations of one forward pass */
  double bytes;       /* bytes moved to and from memory, at least */
} awb_cost;

typedef struct awb_cost_ext {
  size_t struct_size; /* sizeof(awb_cost_ext) in the plugin's header */
  awb_status (*cost)(const awb_variant* variant, const awb_problem* problem, int32_t writes_weights,
                     awb_cost* cost, char* error, size_t error_capacity);
} awb_cost_ext;

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* AWB_EXT_COST_H_ */
