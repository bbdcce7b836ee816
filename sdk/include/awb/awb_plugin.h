/* awb_plugin.h: the C ABI between Attention Workbench hosts and attention-variant plugins. */
/*
 * SPDX-License-Identifier: MIT
 *
 * Overview
 * --------
 * A plugin is a shared library exporting one C function, `awb_plugin_entry`, that returns a
 * pointer to a static `awb_plugin_descriptor`. The descriptor names the plugin and lists its
 * variants; each variant carries function pointers to create an instance, run a forward pass on
 * a problem, and destroy the instance. Nothing but C types crosses this boundary: no C++ type,
 * exception, allocator or Eigen object. Plugins may be built with other flags, another standard
 * library build or another compiler than the host.
 *
 * Versioning
 * ----------
 * - `abi_major` changes only when an existing field changes meaning; the host refuses a plugin
 *   whose major differs from its own and prints both numbers.
 * - `abi_minor` grows when optional fields are appended to a struct. Every struct that can grow
 *   begins with `struct_size`; a reader looks at a field only when `struct_size` covers it and
 *   treats missing trailing fields as zero. Host-filled structs (problem, results) carry the
 *   host's size, so a plugin built against an older header simply ignores the tail.
 * - New capabilities beyond the core (a backward pass, ...) are extensions looked up by string id
 *   through `get_extension`, each declared in a header of its own under awb/ext/, so neither the
 *   core structs nor this header have to change for them.
 *
 * Threads
 * -------
 * The host may call `create`, `forward` and `destroy` from any thread, but never two calls on the
 * same instance at once. Different instances may run concurrently. `awb_plugin_entry` and
 * `get_extension` must be thread-safe and cheap.
 *
 * Errors
 * ------
 * Every fallible call returns an `awb_status` and may write a NUL-terminated UTF-8 message into
 * the caller's buffer (`error`, capacity `error_capacity` bytes including the NUL; truncate to
 * fit). A non-OK status means: no output buffer holds meaningful data, and the instance is still
 * valid for further calls or `destroy`. A plugin must never let a C++ exception, longjmp or
 * signal escape across this boundary.
 *
 * A complete minimal plugin (parameter-free attention, f64 only, no A or S streaming tricks):
 *
 *   #include <awb/awb_plugin.h>
 *   #include <math.h>
 *   #include <stdlib.h>
 *
 *   static awb_status create(const awb_variant* v, void** inst, char* err, size_t cap) {
 *     (void)v; (void)err; (void)cap;
 *     *inst = NULL;                         // this variant keeps no state
 *     return AWB_OK;
 *   }
 *   static void destroy(void* inst) { (void)inst; }
 *
 *   static awb_status forward(void* inst, const awb_problem* p, awb_results* r,
 *                             char* err, size_t cap) {
 *     (void)inst; (void)err; (void)cap;
 *     const int64_t T = p->x.shape[0], d = p->x.shape[1];
 *     const double* x = (const double*)p->x.data;
 *     double* z = (double*)r->z.data;
 *     const double factor = p->sharpness *
 *         (p->scale_mode == AWB_SCALE_INV_SQRT_DK ? 1.0 / sqrt((double)d) : 1.0);
 *     if (T == 0) return AWB_OK;
 *     double* row = malloc(sizeof(double) * (size_t)T);
 *     if (!row) return AWB_ERR_OUT_OF_MEMORY;
 *     for (int64_t t = 0; t < T; ++t) {
 *       double mx = -INFINITY, sum = 0;
 *       for (int64_t t2 = 0; t2 < T; ++t2) {
 *         const double* xq = x + t * p->x.stride[0];
 *         const double* xk = x + t2 * p->x.stride[0];
 *         double s = 0;
 *         for (int64_t c = 0; c < d; ++c) s += xq[c] * xk[c];
 *         s *= factor;
 *         if (r->s.data) ((double*)r->s.data)[t * r->s.stride[1] + t2] = s;
 *         row[t2] = s;
 *         if (s > mx) mx = s;
 *       }
 *       for (int64_t t2 = 0; t2 < T; ++t2) {
 *         row[t2] = exp(row[t2] - mx);
 *         sum += row[t2];
 *       }
 *       double* zt = z + t * r->z.stride[0];
 *       for (int64_t c = 0; c < d; ++c) zt[c] = 0;
 *       for (int64_t t2 = 0; t2 < T; ++t2) {
 *         const double a = row[t2] / sum;
 *         if (r->a.data) ((double*)r->a.data)[t * r->a.stride[1] + t2] = a;
 *         for (int64_t c = 0; c < d; ++c) zt[c] += a * x[t2 * p->x.stride[0] + c];
 *       }
 *     }
 *     free(row);
 *     return AWB_OK;
 *   }
 *
 *   static const awb_variant kVariant = {
 *     sizeof(awb_variant), "my-attention", "My attention", "Parameter-free, written in C.",
 *     AWB_CAP_F64, create, destroy, forward, NULL };
 *   static const awb_variant* const kVariants[] = { &kVariant };
 *   static const awb_plugin_descriptor kDescriptor = {
 *     sizeof(awb_plugin_descriptor), AWB_ABI_MAJOR, AWB_ABI_MINOR,
 *     "org.example.my-attention", "My attention", "0.1.0", "A. Student",
 *     "One parameter-free variant.", 1, kVariants };
 *   AWB_EXPORT const awb_plugin_descriptor* awb_plugin_entry(void) { return &kDescriptor; }
 *
 * Most authors use the C++ layer in <awb/plugin.hpp> instead, which writes all of the above.
 */
#ifndef AWB_PLUGIN_H_
#define AWB_PLUGIN_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ABI version of this header. Major: breaking change; minor: fields or extensions added
 * (1.1: the backward extension, AWB_EXT_BACKWARD; 1.2: variant parameters, the `params` of
 * awb_variant and awb_problem, and the cost extension, AWB_EXT_COST; 1.3: grouped-query
 * attention, awb_problem's `n_kv_heads` and AWB_CAP_GROUPED_KV, and batches of padded
 * sequences, awb_problem's `batch` and `lengths` and AWB_CAP_BATCH). */
#define AWB_ABI_MAJOR 1
#define AWB_ABI_MINOR 3

/* The one symbol a plugin exports. */
#define AWB_ENTRY_SYMBOL "awb_plugin_entry"

#if defined(_WIN32)
#define AWB_EXPORT __declspec(dllexport)
#else
#define AWB_EXPORT __attribute__((visibility("default")))
#endif

/* Result of every fallible call. Values are stable; new codes may be added in a minor. */
typedef enum awb_status {
  AWB_OK = 0,
  AWB_ERR_INVALID_ARGUMENT = 1, /* the problem is malformed or outside what the variant accepts */
  AWB_ERR_UNSUPPORTED = 2,      /* a requested feature is not implemented by this variant */
  AWB_ERR_OUT_OF_MEMORY = 3,    /* an allocation failed */
  AWB_ERR_INTERNAL = 4          /* anything else: a bug or an unexpected exception */
} awb_status;

/* Element type of every tensor in one problem: all inputs and outputs share it. */
typedef enum awb_scalar {
  AWB_SCALAR_F64 = 0, /* IEEE-754 binary64 (double) */
  AWB_SCALAR_F32 = 1  /* IEEE-754 binary32 (float) */
} awb_scalar;

/* Scale applied to the raw scores Q·Kᵀ before sharpness and softmax. */
typedef enum awb_scale_mode {
  AWB_SCALE_NONE = 0,       /* scores = Q·Kᵀ */
  AWB_SCALE_INV_SQRT_DK = 1 /* scores = Q·Kᵀ / sqrt(d_k); d_k = per-head key width */
} awb_scale_mode;

/* Capability bits a variant declares; the host plans what it can run from them. */
#define AWB_CAP_F64 (UINT64_C(1) << 0)         /* accepts AWB_SCALAR_F64 problems */
#define AWB_CAP_F32 (UINT64_C(1) << 1)         /* accepts AWB_SCALAR_F32 problems */
#define AWB_CAP_QKV (UINT64_C(1) << 2)         /* uses W_q, W_k, W_v (without it: Q = K = V = X) */
#define AWB_CAP_MULTI_HEAD (UINT64_C(1) << 3)  /* n_heads > 1; requires AWB_CAP_QKV */
#define AWB_CAP_OUTPUT_PROJ (UINT64_C(1) << 4) /* applies W_o after the heads; requires QKV */
#define AWB_CAP_CAUSAL (UINT64_C(1) << 5)      /* honours problem.causal */
#define AWB_CAP_CAUSAL_ONLY (UINT64_C(1) << 6) /* always masks; requires AWB_CAP_CAUSAL */
/* 1.3: honours problem.n_kv_heads < n_heads (grouped-query attention); requires
 * AWB_CAP_MULTI_HEAD. Without it the host never sends fewer key/value heads than query heads: it
 * repeats each key/value head's columns of W_k and W_v for every query head of its group. */
#define AWB_CAP_GROUPED_KV (UINT64_C(1) << 7)
/* 1.3: accepts a batch of sequences (problem.batch > 1) and their lengths (problem.lengths).
 * Without it the host never sends either: it calls the variant once per sequence, on that
 * sequence's own tokens. The C++ layer (<awb/plugin.hpp>) sets it for every variant it exports
 * and makes those calls itself. */
#define AWB_CAP_BATCH (UINT64_C(1) << 8)
/* Every bit this header defines; bits outside it are an error for a plugin of this minor. */
#define AWB_CAP_KNOWN_MASK ((UINT64_C(1) << 9) - 1)

/*
 * A dense, strided tensor of rank 1 to 3 in host memory, row-major: element (i, j, k) lives at
 * data + i*stride[0] + j*stride[1] + k*stride[2] elements (strides count elements, not bytes;
 * the innermost stride is always 1). Unused trailing dimensions have shape 1 and stride 0.
 * Ownership: always the host's. A plugin reads input tensors and writes output tensors during
 * the call that received them and must not keep the pointer after that call returns.
 * An absent tensor has data == NULL and all shapes 0.
 */
typedef struct awb_tensor {
  void* data;
  int32_t rank;     /* 1, 2 or 3 */
  int32_t reserved; /* zero */
  int64_t shape[3];
  int64_t stride[3];
} awb_tensor;

/*
 * Variant parameters (1.2): hyperparameters a variant declares (a window size, a feature map, a
 * number of landmarks) and the host sets per problem, so that they can be swept without
 * recompiling. Each value travels as a double: an int or a bool (0 or 1) holds an integral
 * value, an enum the index of its choice in `choices`.
 */
typedef enum awb_param_type {
  AWB_PARAM_INT = 0,   /* an integer in [min_value, max_value] */
  AWB_PARAM_FLOAT = 1, /* a finite real in [min_value, max_value] */
  AWB_PARAM_BOOL = 2,  /* 0 or 1 */
  AWB_PARAM_ENUM = 3   /* an index into `choices` */
} awb_param_type;

/* One declared parameter; static storage of the plugin, like the variant that lists it. */
typedef struct awb_param_decl {
  size_t struct_size;   /* sizeof(awb_param_decl) in the plugin's header */
  const char* name;     /* [a-z0-9_]+, at most 64 bytes, unique within the variant: "window" */
  awb_param_type type;  /* see awb_param_type */
  const char* doc;      /* one line, UTF-8: "keys each query sees on either side" */
  double default_value; /* within the range; an enum's default is an index */
  double min_value;     /* int and float: the inclusive range; ignored for bool and enum */
  double max_value;
  size_t n_choices;           /* enum: ≥ 1 choices; 0 otherwise */
  const char* const* choices; /* enum: n_choices names, [a-z0-9_+-]+, e.g. "elu+1" */
} awb_param_decl;

/* A parameter's value in one problem. `name` is the declaration's name. */
typedef struct awb_param_value {
  const char* name;
  double value;
} awb_param_value;

/*
 * One attention problem. Filled by the host, read-only for the plugin, valid during forward().
 * Shapes (T tokens, d model width, h query heads, g key/value heads, d_k and d_v per-head
 * widths; g = h unless the problem is grouped, see n_kv_heads):
 *   x    T × d_model                      always present
 *   w_q  d_model × h·d_k                  present when the variant has AWB_CAP_QKV, else absent
 *   w_k  d_model × g·d_k                  idem
 *   w_v  d_model × g·d_v                  idem
 *   w_o  h·d_v × d_out                    present only when the variant has AWB_CAP_OUTPUT_PROJ
 *                                         and the exercise provides one; absent means identity
 * Query head j uses columns [j·d_k, (j+1)·d_k) of w_q, and key/value head k = j / (h / g) (the
 * h / g query heads of a group are consecutive): columns [k·d_k, (k+1)·d_k) of w_k and
 * [k·d_v, (k+1)·d_v) of w_v. The heads' outputs are concatenated in query-head order before w_o.
 */
typedef struct awb_problem {
  size_t struct_size;        /* sizeof(awb_problem) in the host's header */
  awb_scalar scalar;         /* element type of every tensor in this problem and its results */
  int32_t n_heads;           /* ≥ 1; 1 when the variant lacks AWB_CAP_MULTI_HEAD */
  int32_t causal;            /* 1: query t may only see keys t2 ≤ t; 0: no mask */
  awb_scale_mode scale_mode; /* see awb_scale_mode */
  int32_t n_threads;         /* threads the plugin may use; 0 = its own choice; 1 = no threads */
  double sharpness;          /* scores are multiplied by it after scaling, before softmax; > 0 */
  awb_tensor x;
  awb_tensor w_q;
  awb_tensor w_k;
  awb_tensor w_v;
  awb_tensor w_o;
  /* 1.2: the value of every parameter the variant declares (awb_variant.params), in declaration
   * order, one per declared parameter; n_params == 0 and params == NULL for a variant that
   * declares none. Read only when struct_size covers them: an older host sends none, and the
   * variant then uses its declared defaults (the C++ layer does this for you). */
  size_t n_params;
  const awb_param_value* params;
  /* 1.3: key/value heads g (grouped-query attention; 1 = multi-query). 0, or n_heads, or a field
   * that struct_size does not cover: g = n_heads, ordinary multi-head attention. Otherwise g
   * divides n_heads, and only a variant with AWB_CAP_GROUPED_KV is sent g < n_heads. */
  int32_t n_kv_heads;
  /* 1.3: B sequences of T tokens each, side by side (0 or 1, or a field that struct_size does not
   * cover: one). Only a variant with AWB_CAP_BATCH is sent B > 1 or lengths. With B sequences, x
   * is (B·T) × d_model, sequence b its rows [b·T, (b+1)·T); z is (B·T) × d_out; a and s hold
   * B·h planes of T × T, sequence b's head j in plane b·h + j; the weights are shared. */
  int32_t batch;
  /* 1.3: NULL (every sequence T tokens long), or B lengths L_b in [1, T] (a padding mask): in
   * sequence b only its first L_b tokens are real. Queries and keys at t ≥ L_b take no part:
   * every query t < L_b attends to keys t2 < L_b (t2 ≤ t as well when causal), and at the
   * padded positions z's rows, and a's and s's rows and columns, hold 0. */
  const int64_t* lengths;
} awb_problem;

/*
 * Output buffers of one forward call, allocated by the host, written by the plugin.
 *   z  T × d_out: the context vectors (d_out = w_o columns, else h·d_v, else d_model). Required.
 *   a  h × T × T: attention weights; each row sums to 1; masked entries are exactly 0.
 *   s  h × T × T: the exact softmax input, i.e. scores after scale and sharpness and BEFORE the
 *      causal mask (masked positions still hold their score).
 * `a` or `s` with data == NULL means the host does not want it: the plugin must not write it and
 * may then avoid holding any T × T matrix at all (a streaming / online-softmax path). When data
 * is non-NULL the tensor must be filled completely.
 */
typedef struct awb_results {
  size_t struct_size; /* sizeof(awb_results) in the host's header */
  awb_tensor z;
  awb_tensor a;
  awb_tensor s;
} awb_results;

typedef struct awb_variant awb_variant;

/*
 * One attention variant. Lives in static storage of the plugin for as long as the library is
 * loaded; the host never writes to it.
 */
struct awb_variant {
  size_t struct_size;      /* sizeof(awb_variant) in the plugin's header */
  const char* id;          /* short, unique within the plugin, [a-z0-9-]+, e.g. "multi-head" */
  const char* name;        /* human-readable, UTF-8 */
  const char* description; /* one or two sentences, UTF-8; may be NULL */
  uint64_t capabilities;   /* AWB_CAP_* bits */

  /* Makes an instance; on AWB_OK *instance holds the plugin's opaque state (NULL allowed). */
  awb_status (*create)(const awb_variant* variant, void** instance, char* error,
                       size_t error_capacity);
  /* Frees an instance made by create(). Never fails; called exactly once per instance. */
  void (*destroy)(void* instance);
  /*
   * Runs attention on `problem`, writing `results`. The host guarantees that shapes are
   * consistent with the rules above and with the variant's capabilities, that every buffer is
   * valid for the call, and that inputs and outputs do not overlap.
   */
  awb_status (*forward)(void* instance, const awb_problem* problem, awb_results* results,
                        char* error, size_t error_capacity);
  /*
   * Optional (may be NULL). Returns a pointer to a static extension table named `extension_id`
   * (a reverse-DNS string defined by the extension's own header), or NULL when the variant does
   * not provide it. The pointer stays valid while the library is loaded.
   */
  const void* (*get_extension)(const awb_variant* variant, const char* extension_id);
  /* 1.2 (read only when struct_size covers them): the parameters this variant takes, n_params
   * pointers, none NULL; at most 32. The host sends each one's value in every problem. */
  size_t n_params;
  const awb_param_decl* const* params;
};

/* What awb_plugin_entry returns: static storage, valid while the library is loaded. */
typedef struct awb_plugin_descriptor {
  size_t struct_size;      /* sizeof(awb_plugin_descriptor) in the plugin's header */
  uint32_t abi_major;      /* AWB_ABI_MAJOR the plugin was built against */
  uint32_t abi_minor;      /* AWB_ABI_MINOR the plugin was built against */
  const char* id;          /* reverse-DNS, unique among loaded plugins: "org.example.attn" */
  const char* name;        /* human-readable, UTF-8 */
  const char* version;     /* the plugin's own version, e.g. "1.2.0" */
  const char* author;      /* may be NULL */
  const char* description; /* may be NULL */
  size_t n_variants;       /* ≥ 1 */
  const awb_variant* const* variants; /* n_variants pointers, none NULL */
} awb_plugin_descriptor;

/* The entry point's type. It takes no arguments, allocates nothing and never fails. */
typedef const awb_plugin_descriptor* (*awb_plugin_entry_fn)(void);

#ifdef __cplusplus
} /* extern "C" */
#endif

/*
 * Extensions
 * ----------
 * Each extension is declared in a header of its own under awb/ext/, so a new one adds a header
 * and never touches this one. The extensions of ABI 1.1 and 1.2 are included here, after the core
 * types they use, because plugins written before the split use them through this header alone.
 * A later extension is included by the plugins that implement it.
 */
#include "ext/backward.h"
#include "ext/cost.h"

#endif /* AWB_PLUGIN_H_ */
