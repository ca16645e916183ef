/* SPDX-License-Identifier: Apache-2.0 */
/* cuda_emul.h - a small CPU emulation of the CUDA runtime calls that programs from
 * `vxpeak emit-cuda` make, so that the same generated code builds as plain C++ and runs
 * without a GPU:
 *
 *   g++ -std=c++14 -x c++ -include tests/codegen/cuda_emul.h out.cu -o out
 *
 * "Device" memory is host memory, but the emulation keeps a table of the live device
 * allocations and refuses what a GPU would not do: freeing a pointer it did not hand out
 * (or twice), copying with a kind whose ends are on the wrong side, touching bytes past an
 * allocation, and leaving allocations live at exit. Kernels are called as ordinary
 * functions (the generated VXP_LAUNCH does that when __CUDACC__ is not defined).
 *
 * cudaMemGetInfo reports a fixed total (VXP_EMUL_TOTAL_BYTES, default 40 GiB) minus the
 * live allocations, each rounded up to VXP_EMUL_GRANULE bytes (default 2 MiB, the unit in
 * which the CUDA driver maps device memory), so the cross-check in the generated report
 * is exercised here the way a GPU exercises it. */
#ifndef VXP_CUDA_EMUL_H
#define VXP_CUDA_EMUL_H

#define VXP_CUDA_EMULATED 1

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define __global__
#define __device__
#define __host__

#ifndef VXP_EMUL_TOTAL_BYTES
#define VXP_EMUL_TOTAL_BYTES (40ull << 30)
#endif
#ifndef VXP_EMUL_GRANULE
#define VXP_EMUL_GRANULE (2ull << 20)
#endif

typedef enum cudaError {
  cudaSuccess = 0,
  cudaErrorInvalidValue = 1,
  cudaErrorMemoryAllocation = 2,
  cudaErrorInvalidDevicePointer = 17,
  cudaErrorInvalidMemcpyDirection = 21
} cudaError_t;

typedef enum cudaMemcpyKind {
  cudaMemcpyHostToHost = 0,
  cudaMemcpyHostToDevice = 1,
  cudaMemcpyDeviceToHost = 2,
  cudaMemcpyDeviceToDevice = 3,
  cudaMemcpyDefault = 4
} cudaMemcpyKind;

struct vxp_emul_alloc {
  char *base;
  size_t bytes;
};

static struct vxp_emul_state {
  struct vxp_emul_alloc *live;
  size_t count, cap;
  unsigned long long mapped; /* live allocations rounded to the granule */
  int atexit_registered;
} vxp_emul;

static inline void vxp_emul_die(const char *fmt, const void *p) {
  fprintf(stderr, "cuda_emul: ");
  fprintf(stderr, fmt, p);
  fprintf(stderr, "\n");
  exit(5);
}

static inline unsigned long long vxp_emul_mapped(size_t bytes) {
  return (bytes + VXP_EMUL_GRANULE - 1) / VXP_EMUL_GRANULE * VXP_EMUL_GRANULE;
}

/* The live allocation holding [p, p + bytes), or -1. */
static inline long vxp_emul_find(const void *p, size_t bytes) {
  const char *c = (const char *)p;
  for (size_t i = 0; i < vxp_emul.count; i++) {
    const struct vxp_emul_alloc *a = &vxp_emul.live[i];
    if (c >= a->base && c <= a->base + a->bytes && bytes <= (size_t)(a->base + a->bytes - c))
      return (long)i;
  }
  return -1;
}

static inline void vxp_emul_at_exit(void) {
  if (vxp_emul.count) {
    fprintf(stderr, "cuda_emul: %zu device allocation(s) still live at exit\n", vxp_emul.count);
    _Exit(5);
  }
  free(vxp_emul.live);
}

static inline cudaError_t cudaMalloc(void **out, size_t bytes) {
  if (!vxp_emul.atexit_registered) {
    atexit(vxp_emul_at_exit);
    vxp_emul.atexit_registered = 1;
  }
  if (vxp_emul.mapped + vxp_emul_mapped(bytes) > VXP_EMUL_TOTAL_BYTES)
    return cudaErrorMemoryAllocation;
  if (bytes == 0) { /* like the runtime: success, and nothing to free */
    *out = NULL;
    return cudaSuccess;
  }
  if (vxp_emul.count == vxp_emul.cap) {
    size_t cap = vxp_emul.cap ? vxp_emul.cap * 2 : 16;
    void *grown = realloc(vxp_emul.live, cap * sizeof(*vxp_emul.live));
    if (!grown) return cudaErrorMemoryAllocation;
    vxp_emul.live = (struct vxp_emul_alloc *)grown;
    vxp_emul.cap = cap;
  }
  char *p = (char *)malloc(bytes);
  if (!p) return cudaErrorMemoryAllocation;
  vxp_emul.live[vxp_emul.count].base = p;
  vxp_emul.live[vxp_emul.count].bytes = bytes;
  vxp_emul.count++;
  vxp_emul.mapped += vxp_emul_mapped(bytes);
  *out = p;
  return cudaSuccess;
}

template <typename T> static inline cudaError_t cudaMalloc(T **out, size_t bytes) {
  return cudaMalloc((void **)out, bytes);
}

static inline cudaError_t cudaFree(void *p) {
  if (!p) return cudaSuccess;
  for (size_t i = 0; i < vxp_emul.count; i++) {
    if (vxp_emul.live[i].base == (char *)p) {
      vxp_emul.mapped -= vxp_emul_mapped(vxp_emul.live[i].bytes);
      free(p);
      vxp_emul.live[i] = vxp_emul.live[--vxp_emul.count];
      return cudaSuccess;
    }
  }
  vxp_emul_die("cudaFree(%p): not a live device allocation", p);
  return cudaErrorInvalidDevicePointer;
}

static inline cudaError_t cudaMemcpy(void *dst, const void *src, size_t bytes,
                                     cudaMemcpyKind kind) {
  int dst_dev = vxp_emul_find(dst, bytes) >= 0, src_dev = vxp_emul_find(src, bytes) >= 0;
  int want_dst_dev = kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice;
  int want_src_dev = kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice;
  if (kind != cudaMemcpyDefault && dst_dev != want_dst_dev)
    vxp_emul_die("cudaMemcpy: destination %p is on the wrong side for the copy kind", dst);
  if (kind != cudaMemcpyDefault && src_dev != want_src_dev)
    vxp_emul_die("cudaMemcpy: source %p is on the wrong side for the copy kind", src);
  memmove(dst, src, bytes);
  return cudaSuccess;
}

static inline cudaError_t cudaMemset(void *dst, int value, size_t bytes) {
  if (vxp_emul_find(dst, bytes) < 0) vxp_emul_die("cudaMemset(%p): not device memory", dst);
  memset(dst, value, bytes);
  return cudaSuccess;
}

static inline cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total_bytes) {
  *total_bytes = (size_t)VXP_EMUL_TOTAL_BYTES;
  *free_bytes = (size_t)(VXP_EMUL_TOTAL_BYTES - vxp_emul.mapped);
  return cudaSuccess;
}

static inline cudaError_t cudaDeviceSynchronize(void) { return cudaSuccess; }
static inline cudaError_t cudaGetLastError(void) { return cudaSuccess; }

static inline const char *cudaGetErrorString(cudaError_t err) {
  switch (err) {
  case cudaSuccess: return "no error";
  case cudaErrorInvalidValue: return "invalid argument";
  case cudaErrorMemoryAllocation: return "out of memory";
  case cudaErrorInvalidDevicePointer: return "invalid device pointer";
  case cudaErrorInvalidMemcpyDirection: return "invalid copy direction for memcpy";
  }
  return "unknown error";
}

#endif /* VXP_CUDA_EMUL_H */
