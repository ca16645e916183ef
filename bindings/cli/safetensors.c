/* SPDX-License-Identifier: Apache-2.0 */
/* safetensors.c - `vxpeak model --weights`: the tensors a checkpoint lists, read from the
 * header of a .safetensors file (an 8-byte little-endian length, then that many bytes of
 * JSON: each tensor's dtype, shape and data offsets) or from every shard a
 * model.safetensors.index.json names. No tensor data is read, so a file cut after its
 * header (the first bytes of a download) is enough. Every refusal says where: the byte
 * offset in the file, and the tensor. Allocation is bounded: a header is at most 100 MB
 * (safetensors' own limit) and is read only when the file holds it. */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "cli.h"

#define HEADER_LIMIT 100000000u /* safetensors refuses longer headers too */
#define MAX_SHARDS 4096
#define MAX_TENSORS (1u << 22)

static int fail(const char *file, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(const char *file, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "vxpeak model: %s: ", file);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  return VXPEAK_EXIT_USAGE;
}

static bool push_root(vxpeak_tensors *t, json_t *root) {
  if (t->root_count == t->root_cap) {
    size_t cap = t->root_cap ? 2 * t->root_cap : 8;
    void **r = realloc(t->roots, cap * sizeof(*r));
    if (!r) return false;
    t->roots = r;
    t->root_cap = cap;
  }
  t->roots[t->root_count++] = root;
  return true;
}

/* The bytes of one element of a safetensors dtype, or 0 for one not known here. A dtype
 * narrower than a byte is not in the format. */
static uint64_t dtype_bytes(const char *dtype) {
  static const struct {
    const char *name;
    uint64_t bytes;
  } table[] = {{"F64", 8}, {"I64", 8}, {"U64", 8},  {"F32", 4},     {"I32", 4},
               {"U32", 4}, {"F16", 2}, {"BF16", 2}, {"I16", 2},     {"U16", 2},
               {"I8", 1},  {"U8", 1},  {"BOOL", 1}, {"F8_E4M3", 1}, {"F8_E5M2", 1}};
  for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++)
    if (strcmp(dtype, table[i].name) == 0) return table[i].bytes;
  return 0;
}

/* Where tensor `name`'s entry starts in the file: 8 + the offset of its quoted key in the
 * header (the first such text; a JSON parser keeps no positions). */
static uint64_t key_offset(const char *header, size_t len, const char *name) {
  size_t n = strlen(name);
  for (size_t i = 0; i + n + 2 <= len; i++)
    if (header[i] == '"' && memcmp(header + i + 1, name, n) == 0 && header[i + 1 + n] == '"')
      return 8 + i;
  return 8;
}

/* One tensor's entry: dtype, shape and data offsets that agree. */
static int read_entry(const char *file, const char *header, size_t len, const char *name, json_t *v,
                      vxp_model_tensor *out) {
  uint64_t at = key_offset(header, len, name);
  json_t *dtype = json_object_get(v, "dtype"), *shape = json_object_get(v, "shape");
  json_t *offsets = json_object_get(v, "data_offsets");
  if (!json_is_object(v) || !json_is_string(dtype) || !json_is_array(shape) ||
      !json_is_array(offsets) || json_array_size(offsets) != 2)
    return fail(file,
                "byte %" PRIu64 ": tensor '%.200s' needs a dtype string, a shape array "
                "and two data_offsets",
                at, name);
  json_int_t begin = json_integer_value(json_array_get(offsets, 0));
  json_int_t end = json_integer_value(json_array_get(offsets, 1));
  if (!json_is_integer(json_array_get(offsets, 0)) ||
      !json_is_integer(json_array_get(offsets, 1)) || begin < 0 || end < begin)
    return fail(file,
                "byte %" PRIu64 ": tensor '%.200s' has data_offsets that are not 0 <= begin "
                "<= end",
                at, name);
  uint64_t elems = 1;
  for (size_t i = 0; i < json_array_size(shape); i++) {
    json_t *d = json_array_get(shape, i);
    if (!json_is_integer(d) || json_integer_value(d) < 0 ||
        __builtin_mul_overflow(elems, (uint64_t)json_integer_value(d), &elems))
      return fail(file,
                  "byte %" PRIu64 ": tensor '%.200s' has a shape that is not non-negative "
                  "integers with a product under 2^64",
                  at, name);
  }
  uint64_t size = dtype_bytes(json_string_value(dtype)), bytes = (uint64_t)(end - begin);
  uint64_t want;
  if (size && (__builtin_mul_overflow(elems, size, &want) || want != bytes))
    return fail(file,
                "byte %" PRIu64 ": tensor '%.200s' is %s of %" PRIu64 " elements, but its "
                "data_offsets span %" PRIu64 " bytes",
                at, name, json_string_value(dtype), elems, bytes);
  out->name = name;
  out->dtype = json_string_value(dtype);
  out->bytes = bytes;
  return VXPEAK_EXIT_OK;
}

/* The header of one .safetensors file, its tensors appended to `t`. */
static int read_safetensors(const char *file, vxpeak_tensors *t) {
  FILE *f = fopen(file, "rb");
  if (!f) return fail(file, "cannot read: %s", strerror(errno));
  struct stat st;
  unsigned char len8[8];
  size_t got = fstat(fileno(f), &st) == 0 ? fread(len8, 1, 8, f) : 0;
  if (got < 8) {
    fclose(f);
    return fail(file, "byte %zu: truncated: the file ends inside the 8-byte header length", got);
  }
  uint64_t n = 0;
  for (int i = 7; i >= 0; i--)
    n = n << 8 | len8[i];
  if (n > HEADER_LIMIT || n < 2) {
    fclose(f);
    return fail(file,
                "byte 0: the header length %" PRIu64 " is not between 2 and %u bytes "
                "(safetensors' limit): not a safetensors file",
                n, HEADER_LIMIT);
  }
  if (S_ISREG(st.st_mode) && (uint64_t)st.st_size - 8 < n) {
    fclose(f);
    return fail(file,
                "byte %lld: truncated: the header is %" PRIu64 " bytes from byte 8, but "
                "the file ends at byte %lld",
                (long long)st.st_size, n, (long long)st.st_size);
  }
  char *header = malloc((size_t)n);
  got = header ? fread(header, 1, (size_t)n, f) : 0;
  fclose(f);
  if (!header) return fail(file, "out of memory for a %" PRIu64 "-byte header", n);
  if (got < n) {
    free(header);
    return fail(file, "byte %zu: truncated inside the %" PRIu64 "-byte header", 8 + got, n);
  }
  json_error_t err;
  json_t *root = json_loadb(header, (size_t)n, JSON_REJECT_DUPLICATES, &err);
  if (!root || !json_is_object(root)) {
    int rc = root ? fail(file, "byte 8: the header is not a JSON object")
                  : fail(file, "byte %" PRIu64 ": the header is not valid JSON: %s",
                         (uint64_t)8 + (uint64_t)err.position, err.text);
    json_decref(root);
    free(header);
    return rc;
  }
  if (!push_root(t, root)) {
    json_decref(root);
    free(header);
    return fail(file, "out of memory");
  }
  const char *name;
  json_t *v;
  int rc = VXPEAK_EXIT_OK;
  json_object_foreach(root, name, v) {
    if (strcmp(name, "__metadata__") == 0) continue;
    if (t->count == MAX_TENSORS) {
      rc = fail(file, "more than %u tensors", MAX_TENSORS);
      break;
    }
    if (t->count == t->cap) {
      size_t cap = t->cap ? 2 * t->cap : 256;
      vxp_model_tensor *items = realloc(t->items, cap * sizeof(*items));
      if (!items) {
        rc = fail(file, "out of memory");
        break;
      }
      t->items = items;
      t->cap = cap;
    }
    if ((rc = read_entry(file, header, (size_t)n, name, v, &t->items[t->count])) != 0) break;
    t->count++;
  }
  free(header);
  return rc;
}

static int by_name(const void *a, const void *b) {
  return strcmp(((const vxp_model_tensor *)a)->name, ((const vxp_model_tensor *)b)->name);
}

/* A model.safetensors.index.json: every shard its weight_map names, next to it. */
static int read_index(const char *file, vxpeak_tensors *t) {
  struct stat st;
  if (stat(file, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > (off_t)HEADER_LIMIT)
    return fail(file, "%lld bytes: larger than an index is (%u)", (long long)st.st_size,
                HEADER_LIMIT);
  json_error_t err;
  json_t *root = json_load_file(file, JSON_REJECT_DUPLICATES, &err);
  if (!root) return fail(file, "byte %d: not valid JSON: %s", err.position, err.text);
  if (!push_root(t, root)) {
    json_decref(root);
    return fail(file, "out of memory");
  }
  json_t *map = json_object_get(root, "weight_map");
  if (!json_is_object(map)) return fail(file, "no weight_map object: not a safetensors index");
  const char *shards[MAX_SHARDS];
  size_t nshards = 0;
  const char *name;
  json_t *v;
  json_object_foreach(map, name, v) {
    if (!json_is_string(v))
      return fail(file, "weight_map: tensor '%.200s' names no shard file", name);
    const char *shard = json_string_value(v);
    if (strchr(shard, '/') || strcmp(shard, "..") == 0 || !*shard)
      return fail(file, "weight_map: shard '%.200s' is not a file name beside the index", shard);
    size_t i = 0;
    while (i < nshards && strcmp(shards[i], shard) != 0)
      i++;
    if (i == nshards) {
      if (nshards == MAX_SHARDS) return fail(file, "more than %d shards", MAX_SHARDS);
      shards[nshards++] = shard;
    }
  }
  const char *slash = strrchr(file, '/');
  size_t dir = slash ? (size_t)(slash - file) + 1 : 0;
  for (size_t i = 0; i < nshards; i++) {
    char path[4096];
    if (dir + strlen(shards[i]) >= sizeof(path)) return fail(file, "a shard's path is too long");
    memcpy(path, file, dir);
    strcpy(path + dir, shards[i]);
    int rc = read_safetensors(path, t);
    if (rc != VXPEAK_EXIT_OK) return rc;
  }
  /* Every tensor the map names is in its shard's header (sorted once, then searched). */
  qsort(t->items, t->count, sizeof(*t->items), by_name);
  json_object_foreach(map, name, v) {
    vxp_model_tensor key = {name, NULL, 0};
    if (!bsearch(&key, t->items, t->count, sizeof(*t->items), by_name))
      return fail(file, "weight_map names tensor '%.200s', which its shard '%.200s' does not list",
                  name, json_string_value(v));
  }
  return VXPEAK_EXIT_OK;
}

int vxpeak_tensors_read(const char *file, vxpeak_tensors *t) {
  size_t len = strlen(file);
  if (len > 5 && strcmp(file + len - 5, ".json") == 0) return read_index(file, t);
  return read_safetensors(file, t);
}

void vxpeak_tensors_free(vxpeak_tensors *t) {
  for (size_t i = 0; i < t->root_count; i++)
    json_decref(t->roots[i]);
  free(t->roots);
  free(t->items);
  memset(t, 0, sizeof(*t));
}
