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

#include <math.h>
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

/* ------------------------------------------------------------------ narrow float types
 * Stand-ins for cuda_fp16.h, cuda_bf16.h and cuda_fp8.h: the same sizes (so that a tile's
 * bytes are the same count of elements), round-to-nearest-even conversion from float and
 * exact conversion back. Both conversions are explicit, and there are no arithmetic
 * operators: generated code must read them as (float)x and write (T)(float)(v), which is
 * all that it may rely on with nvcc (fp8 has no operators there either). */

/* `f` rounded to a binary format with `ebits` exponent and `mbits` mantissa bits: the
 * sign, exponent and mantissa fields. `ieee` formats have infinities (e4m3 has none); an
 * overflow gives infinity, or with `sat` the largest finite value (CUDA's fp8
 * constructors convert with __NV_SATFINITE). */
static inline unsigned vxp_emul_encode(float f, int ebits, int mbits, int ieee, int sat) {
  unsigned sign = signbit(f) ? 1u << (ebits + mbits) : 0u;
  int bias = (1 << (ebits - 1)) - 1;
  unsigned emax_field = ieee ? (1u << ebits) - 2 : (1u << ebits) - 1;
  unsigned mmax_top = ieee ? (1u << mbits) - 1 : (1u << mbits) - 2; /* e4m3: S.1111.111 is NaN */
  if (isnan(f)) return sign | ((1u << (ebits + mbits)) - 1);
  double a = fabs((double)f);
  if (a == 0) return sign;
  int e;
  frexp(a, &e); /* a = m * 2^e, m in [0.5, 1) */
  int ex = e - 1;
  if (ex < 1 - bias) ex = 1 - bias;           /* subnormal: the smallest exponent, no implicit 1 */
  double q = nearbyint(ldexp(a, mbits - ex)); /* mantissa with its leading bit, rounded */
  if (q >= ldexp(1.0, mbits + 1)) {           /* rounding carried into the next binade */
    q /= 2;
    ex++;
  }
  unsigned field = q >= ldexp(1.0, mbits) ? (unsigned)(ex + bias) : 0u;
  unsigned mant = (unsigned)q & ((1u << mbits) - 1);
  if (field > emax_field || (field == emax_field && mant > mmax_top && !ieee)) {
    if (ieee && !sat) return sign | ((emax_field + 1) << mbits); /* infinity */
    return sign | (emax_field << mbits) | mmax_top;
  }
  return sign | (field << mbits) | mant;
}

static inline float vxp_emul_decode(unsigned bits, int ebits, int mbits, int ieee) {
  int bias = (1 << (ebits - 1)) - 1;
  unsigned field = (bits >> mbits) & ((1u << ebits) - 1), mant = bits & ((1u << mbits) - 1);
  double sign = (bits >> (ebits + mbits)) & 1u ? -1.0 : 1.0;
  if (ieee && field == (1u << ebits) - 1) return mant ? NAN : (float)(sign * INFINITY);
  if (!ieee && field == (1u << ebits) - 1 && mant == (1u << mbits) - 1) return NAN;
  if (field == 0) return (float)(sign * ldexp((double)mant, 1 - bias - mbits));
  return (float)(sign * ldexp((double)(mant | (1u << mbits)), (int)field - bias - mbits));
}

#define VXP_EMUL_NARROW(NAME, STORAGE, EBITS, MBITS, IEEE, SAT)                                    \
  struct NAME {                                                                                    \
    STORAGE bits;                                                                                  \
    NAME() = default;                                                                              \
    explicit NAME(float f) : bits((STORAGE)vxp_emul_encode(f, EBITS, MBITS, IEEE, SAT)) {}         \
    explicit operator float() const { return vxp_emul_decode(bits, EBITS, MBITS, IEEE); }          \
  };                                                                                               \
  static_assert(sizeof(NAME) == sizeof(STORAGE), #NAME " is not the size of its storage")

VXP_EMUL_NARROW(__half, uint16_t, 5, 10, 1, 0);
VXP_EMUL_NARROW(__nv_bfloat16, uint16_t, 8, 7, 1, 0);
VXP_EMUL_NARROW(__nv_fp8_e4m3, uint8_t, 4, 3, 0, 1);
VXP_EMUL_NARROW(__nv_fp8_e5m2, uint8_t, 5, 2, 1, 1);
#undef VXP_EMUL_NARROW

#endif /* VXP_CUDA_EMUL_H */
