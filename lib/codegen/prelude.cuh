/* SPDX-License-Identifier: Apache-2.0 */
/* prelude.cuh - the runtime every program from `vxpeak emit-cuda` carries: a counting
 * allocator over cudaMalloc/cudaFree that keeps the live bytes of every memory space, the
 * high-water marks (per space, per function activation, and of the device as a whole),
 * cudaMemGetInfo readings as a cross-check, and the JSON report printed at exit.
 *
 * lib/codegen/embed.sh copies this file into the library; the generator writes it after
 * the tables it uses (VXP_SPACE_COUNT, VXP_FN_COUNT, vxp_spaces, vxp_fn_names,
 * vxp_static_peaks, VXP_PROGRAM_LABEL, VXP_MACHINE_LABEL). Built with nvcc it runs on a
 * GPU; built as C++ with a header that defines VXP_CUDA_EMULATED it runs on the CPU. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__CUDACC__)
#define VXP_LAUNCH(kernel, args) kernel<<<1, 1>>> args
#else
#define VXP_LAUNCH(kernel, args) kernel args
#endif

#define VXP_CHECK(call) vxp_check((call), #call, __LINE__)

inline void vxp_check(cudaError_t err, const char *what, int line) {
  if (err == cudaSuccess) return;
  fprintf(stderr, "vxpeak-cuda: line %d: %s failed: %s\n", line, what, cudaGetErrorString(err));
  exit(3);
}

/* One function activation: the bytes it holds now, per space. */
typedef struct vxp_frame {
  int fn;
  uint64_t live[VXP_SPACE_SLOTS];
} vxp_frame;

static struct vxp_runtime {
  uint64_t live[VXP_SPACE_SLOTS];      /* live bytes per space, all activations */
  uint64_t high[VXP_SPACE_SLOTS];      /* their high-water mark */
  uint64_t allocations[VXP_SPACE_SLOTS];
  uint64_t fn_high[VXP_FN_COUNT][VXP_SPACE_SLOTS]; /* one activation's own high-water */
  uint64_t fn_calls[VXP_FN_COUNT];
  uint64_t frame_leaks;                /* activations that left with bytes still held */
  uint64_t device_live, device_high;   /* all device spaces together */
  uint64_t device_allocs_live, device_allocs_at_high;
  int meminfo;                         /* cudaMemGetInfo answered */
  size_t total, free_before, free_at_high, free_after;
} vxp_rt;

inline void vxp_meminfo(size_t *free_bytes) {
  size_t f = 0, t = 0;
  if (cudaMemGetInfo(&f, &t) != cudaSuccess) {
    vxp_rt.meminfo = 0;
    return;
  }
  *free_bytes = f;
  vxp_rt.total = t;
}

inline void vxp_start(void) {
  memset(&vxp_rt, 0, sizeof(vxp_rt));
  /* cudaFree(0) creates the context first, so that its own memory is not counted. */
  vxp_rt.meminfo = cudaFree(0) == cudaSuccess;
  if (vxp_rt.meminfo) vxp_meminfo(&vxp_rt.free_before);
  vxp_rt.free_at_high = vxp_rt.free_before;
}

inline void vxp_enter(vxp_frame *fr, int fn) {
  memset(fr, 0, sizeof(*fr));
  fr->fn = fn;
  vxp_rt.fn_calls[fn]++;
}

inline void vxp_leave(vxp_frame *fr) {
  for (int s = 0; s < VXP_SPACE_COUNT; s++) {
    if (fr->live[s] != 0) {
      vxp_rt.frame_leaks++;
      break;
    }
  }
}

/* Allocate a tile of `bytes` (the analysis' granule-rounded size) in `space` into *slot. */
inline void *vxp_tile_alloc(vxp_frame *fr, void **slot, int space, uint64_t bytes) {
  void *p = NULL;
  if (vxp_spaces[space].host) {
    p = malloc(bytes ? (size_t)bytes : 1);
    if (!p) {
      fprintf(stderr, "vxpeak-cuda: out of host memory for %llu bytes in %s\n",
              (unsigned long long)bytes, vxp_spaces[space].name);
      exit(3);
    }
  } else {
    VXP_CHECK(cudaMalloc(&p, (size_t)bytes));
  }
  *slot = p;
  vxp_rt.allocations[space]++;
  vxp_rt.live[space] += bytes;
  if (vxp_rt.live[space] > vxp_rt.high[space]) vxp_rt.high[space] = vxp_rt.live[space];
  fr->live[space] += bytes;
  if (fr->live[space] > vxp_rt.fn_high[fr->fn][space]) vxp_rt.fn_high[fr->fn][space] = fr->live[space];
  if (!vxp_spaces[space].host) {
    vxp_rt.device_live += bytes;
    vxp_rt.device_allocs_live++;
    if (vxp_rt.device_live > vxp_rt.device_high) {
      vxp_rt.device_high = vxp_rt.device_live;
      vxp_rt.device_allocs_at_high = vxp_rt.device_allocs_live;
      if (vxp_rt.meminfo) vxp_meminfo(&vxp_rt.free_at_high);
    }
  }
  return p;
}

/* Free the tile in *slot (nothing when it is already free) and clear the slot. */
inline void vxp_tile_release(vxp_frame *fr, void **slot, int space, uint64_t bytes) {
  if (!*slot) return;
  if (vxp_spaces[space].host) free(*slot);
  else VXP_CHECK(cudaFree(*slot));
  *slot = NULL;
  vxp_rt.live[space] -= bytes;
  fr->live[space] -= bytes;
  if (!vxp_spaces[space].host) {
    vxp_rt.device_live -= bytes;
    vxp_rt.device_allocs_live--;
  }
}

/* Host tensors the analysis does not count (no capacity on the host). */
inline void *vxp_host_alloc(void **slot, uint64_t bytes, int zero) {
  void *p = zero ? calloc(1, bytes ? (size_t)bytes : 1) : malloc(bytes ? (size_t)bytes : 1);
  if (!p) {
    fprintf(stderr, "vxpeak-cuda: out of host memory for %llu bytes\n", (unsigned long long)bytes);
    exit(3);
  }
  *slot = p;
  return p;
}

inline void vxp_host_release(void **slot) {
  free(*slot);
  *slot = NULL;
}

/* A host buffer a called function made and returned: the caller's slot owns it now. */
inline void *vxp_host_adopt(void **slot, void *p) {
  *slot = p;
  return p;
}

/* A host scalar a kernel assigns, in a device cell for the launch (not a tile: scalars
 * are counted nowhere), and copied back after it. */
template <typename T> T *vxp_scalar_in(const T *host) {
  void *cell = NULL;
  VXP_CHECK(cudaMalloc(&cell, sizeof(T)));
  VXP_CHECK(cudaMemcpy(cell, host, sizeof(T), cudaMemcpyHostToDevice));
  return (T *)cell;
}

template <typename T> void vxp_scalar_out(T *host, T *cell) {
  VXP_CHECK(cudaMemcpy(host, cell, sizeof(T), cudaMemcpyDeviceToHost));
  VXP_CHECK(cudaFree(cell));
}

inline void *vxp_copy(void *dst, const void *src, uint64_t bytes, cudaMemcpyKind kind) {
  if (bytes) VXP_CHECK(cudaMemcpy(dst, src, (size_t)bytes, kind));
  return dst;
}

inline void *vxp_zero(void *dst, uint64_t bytes, int device) {
  if (!bytes) return dst;
  if (device) VXP_CHECK(cudaMemset(dst, 0, (size_t)bytes));
  else memset(dst, 0, (size_t)bytes);
  return dst;
}

template <typename T> __global__ void vxp_fill_kernel(T *dst, uint64_t n, T v) {
  for (uint64_t i = 0; i < n; i++) dst[i] = v;
}

template <typename T> T *vxp_fill(T *dst, uint64_t n, T v, int device) {
  if (device) {
    VXP_LAUNCH(vxp_fill_kernel<T>, (dst, n, v));
    VXP_CHECK(cudaGetLastError());
    VXP_CHECK(cudaDeviceSynchronize());
  } else {
    for (uint64_t i = 0; i < n; i++) dst[i] = v;
  }
  return dst;
}

inline void vxp_launched(void) {
  VXP_CHECK(cudaGetLastError());
  VXP_CHECK(cudaDeviceSynchronize());
}

inline void vxp_print_value(long long v) { printf("%lld\n", v); }
inline void vxp_print_value(unsigned long long v) { printf("%llu\n", v); }
inline void vxp_print_value(double v) { printf("%g\n", v); }
inline void vxp_print_value(const char *v) { printf("%s\n", v); }
inline void vxp_print(bool v) { vxp_print_value(v ? 1LL : 0LL); }
inline void vxp_print(int v) { vxp_print_value((long long)v); }
inline void vxp_print(long v) { vxp_print_value((long long)v); }
inline void vxp_print(long long v) { vxp_print_value(v); }
inline void vxp_print(unsigned v) { vxp_print_value((unsigned long long)v); }
inline void vxp_print(unsigned long v) { vxp_print_value((unsigned long long)v); }
inline void vxp_print(unsigned long long v) { vxp_print_value(v); }
inline void vxp_print(float v) { vxp_print_value((double)v); }
inline void vxp_print(double v) { vxp_print_value(v); }
inline void vxp_print(const char *v) { vxp_print_value(v); }

/* `reasons` (a JSON array) with "not-called" added when the function never ran. */
inline void vxp_print_reasons(const char *reasons, int not_called) {
  if (!not_called) printf("%s", reasons);
  else if (strcmp(reasons, "[]") == 0) printf("[\"not-called\"]");
  else printf("%.*s, \"not-called\"]", (int)strlen(reasons) - 1, reasons);
}

/* The measured peaks next to the analysis' static ones, as one line of JSON on stdout.
 * The rule: a function whose reasons are [] (straight-line, or every branch places the
 * same tiles) must measure its static peak exactly; one with reasons (vxp_fn_reasons, or
 * "not-called" when it never ran) at most its static peak; a byte above it fails either
 * way. Returns whether every function kept the rule and no activation leaked. */
inline int vxp_report(void) {
  if (vxp_rt.meminfo) vxp_meminfo(&vxp_rt.free_after);
  int all_match = 1, rule_holds = 1;
  printf("{\"schema\": \"vxpeak-cuda-memory-v1\", \"program\": \"%s\", \"machine\": \"%s\", "
         "\"spaces\": [",
         VXP_PROGRAM_LABEL, VXP_MACHINE_LABEL);
  for (int s = 0; s < VXP_SPACE_COUNT; s++) {
    printf("%s{\"space\": \"%s\", \"host\": %s, \"high_water_bytes\": %llu, "
           "\"live_at_exit_bytes\": %llu, \"allocations\": %llu}",
           s ? ", " : "", vxp_spaces[s].name, vxp_spaces[s].host ? "true" : "false",
           (unsigned long long)vxp_rt.high[s], (unsigned long long)vxp_rt.live[s],
           (unsigned long long)vxp_rt.allocations[s]);
  }
  printf("], \"functions\": [");
  for (int f = 0; f < VXP_FN_COUNT; f++) {
    int not_called = vxp_rt.fn_calls[f] == 0;
    int exact = strcmp(vxp_fn_reasons[f], "[]") == 0 && !not_called;
    printf("%s{\"function\": \"%s\", \"calls\": %llu, \"rule\": \"%s\", \"reasons\": ",
           f ? ", " : "", vxp_fn_names[f], (unsigned long long)vxp_rt.fn_calls[f],
           exact ? "equal" : "at_most");
    vxp_print_reasons(vxp_fn_reasons[f], not_called);
    printf(", \"spaces\": [");
    int first = 1;
    for (int s = 0; s < VXP_SPACE_COUNT; s++) {
      int has_static = 0;
      uint64_t static_peak = 0;
      for (int i = 0; i < VXP_STATIC_PEAK_COUNT; i++) {
        if (vxp_static_peaks[i].fn == f && vxp_static_peaks[i].space == s) {
          has_static = 1;
          static_peak = vxp_static_peaks[i].bytes;
        }
      }
      if (!has_static && vxp_rt.fn_high[f][s] == 0) continue;
      int match = has_static && static_peak == vxp_rt.fn_high[f][s];
      int within = has_static && (exact ? match : vxp_rt.fn_high[f][s] <= static_peak);
      if (!match) all_match = 0;
      if (!within) rule_holds = 0;
      printf("%s{\"space\": \"%s\", \"high_water_bytes\": %llu, \"static_peak_bytes\": ",
             first ? "" : ", ", vxp_spaces[s].name, (unsigned long long)vxp_rt.fn_high[f][s]);
      if (has_static) printf("%llu", (unsigned long long)static_peak);
      else printf("null");
      printf(", \"match\": %s, \"within_rule\": %s}", match ? "true" : "false",
             within ? "true" : "false");
      first = 0;
    }
    printf("]}");
  }
  printf("], \"device\": {\"high_water_bytes\": %llu, \"live_allocations_at_high_water\": %llu}, ",
         (unsigned long long)vxp_rt.device_high, (unsigned long long)vxp_rt.device_allocs_at_high);
  if (vxp_rt.meminfo) {
    printf("\"meminfo\": {\"total_bytes\": %llu, \"free_before_bytes\": %llu, "
           "\"free_at_high_water_bytes\": %llu, \"free_after_bytes\": %llu, "
           "\"used_at_high_water_bytes\": %llu}, ",
           (unsigned long long)vxp_rt.total, (unsigned long long)vxp_rt.free_before,
           (unsigned long long)vxp_rt.free_at_high, (unsigned long long)vxp_rt.free_after,
           (unsigned long long)(vxp_rt.free_before >= vxp_rt.free_at_high
                                    ? vxp_rt.free_before - vxp_rt.free_at_high
                                    : 0));
  } else {
    printf("\"meminfo\": null, ");
  }
  printf("\"run\": {\"rule\": \"%s\", \"reasons\": %s}, ",
         strcmp(vxp_run_reasons, "[]") == 0 ? "equal" : "at_most", vxp_run_reasons);
  printf("\"frame_leaks\": %llu, \"static_peaks_match\": %s, \"rule_holds\": %s}\n",
         (unsigned long long)vxp_rt.frame_leaks, all_match ? "true" : "false",
         rule_holds ? "true" : "false");
  fflush(stdout);
  return rule_holds && vxp_rt.frame_leaks == 0;
}
