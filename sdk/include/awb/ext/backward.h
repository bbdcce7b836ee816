/* backward.h: the extension "org.awb.backward/1", the backward pass of a trainable variant
 * (SDK 1.1). */
/* SPDX-License-Identifier: MIT */
#ifndef AWB_EXT_BACKWARD_H_
#define AWB_EXT_BACKWARD_H_

/* The core types (awb_problem, awb_results, awb_tensor, awb_status, awb_variant). The core header
 * includes this one at its end, after those types, so either may be included first. */
#include "../awb_plugin.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Extension "org.awb.backward/1": the backward pass of a trainable variant.
 * --------------------------------------------------------------------------
 * Looked up with variant->get_extension(variant, AWB_EXT_BACKWARD); a variant without a backward
 * pass returns NULL (or has no get_extension at all). The returned table is static and valid
 * while the library is loaded; the host reads `backward` only when `struct_size` covers it.
 *
 * Given a problem, the forward results for exactly that problem, the upstream gradient dZ = ∂L/∂Z
 * and optionally dA = ∂L/∂A (a loss on the attention weights themselves), backward() writes
 * ∂L/∂X and the gradient of every weight the variant reads. Because Z and A both depend on the
 * weights, the total is the sum of both paths: through Z (dZ) and directly through A (dA).
 *
 * Shapes (the same letters as awb_problem):
 *   forward  the awb_results forward() wrote for this problem. z is always present; a and s are
 *            present when the host kept them (data == NULL otherwise). A plugin may use them or
 *            recompute what it needs: the host does not promise a or s.
 *   dz       T × d_out, always present (all zeros when the loss reads only A).
 *   da       h × T × T, or absent (data == NULL: the loss does not read A). Entries at masked
 *            positions carry no gradient (A is exactly 0 there whatever the scores are); a
 *            plugin ignores them.
 *   grads    dx T × d_model always present. dw_q, dw_k, dw_v, dw_o present exactly when the
 *            problem's w_q, w_k, w_v, w_o are, with the same shapes. A parameter-free variant
 *            (Q = K = V = X) gets only dx: its three paths into X all add up there.
 * Every gradient buffer must be written completely (the host does not zero it first).
 * Batched (awb_problem.batch, SDK 1.3): dz and dx have the rows of x, da the planes of a; the
 * weights' gradients are the sums over the sequences; dx's rows at padded positions are 0.
 * Ownership, threads and errors: as for forward(). The call is on the same instance as the
 * forward() that produced `forward` and never concurrent with another call on that instance; it
 * must not depend on state left by that forward() (the host may call forward() on other problems
 * in between). On a non-OK status no gradient buffer holds meaningful data.
 */
#define AWB_EXT_BACKWARD "org.awb.backward/1"

typedef struct awb_gradients {
  size_t struct_size; /* sizeof(awb_gradients) in the host's header */
  awb_tensor dx;      /* T × d_model */
  awb_tensor dw_q;    /* d_model × h·d_k, absent when the problem has no w_q */
  awb_tensor dw_k;    /* d_model × g·d_k (g key/value heads, awb_problem.n_kv_heads), or absent */
  awb_tensor dw_v;    /* d_model × g·d_v, absent when the problem has no w_v */
  awb_tensor dw_o;    /* h·d_v × d_out, absent when the problem has no w_o */
} awb_gradients;

typedef struct awb_backward_ext {
  size_t struct_size; /* sizeof(awb_backward_ext) in the plugin's header */
  awb_status (*backward)(void* instance, const awb_problem* problem, const awb_results* forward,
                         const awb_tensor* dz, const awb_tensor* da, awb_gradients* grads,
                         char* error, size_t error_capacity);
} awb_backward_ext;

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* AWB_EXT_BACKWARD_H_ */
