/* SPDX-License-Identifier: Apache-2.0 */
/* driver.c - a main() for the libFuzzer harnesses without libFuzzer: `make check` builds
 * each harness of tests/fuzz/ with the project's compiler (gcc) and this driver, and feeds
 * it the regression corpus and the seed corpora, so that a harness that no longer compiles
 * against the API, or crashes on a known input, is seen in every build and not only in
 * CI's clang fuzz-smoke.
 *
 *   fuzz_NAME FILE|DIR...   each FILE, and each regular file of each DIR (sorted by name),
 *                           is passed to LLVMFuzzerTestOneInput once
 *
 * LLVMFuzzerInitialize is called first when the harness defines it (a weak reference: the
 * language server's harness does not). Exits 0 after printing how many inputs it ran. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

static size_t inputs;

static int run_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    perror(path);
    return 1;
  }
  size_t cap = 1 << 16, len = 0;
  uint8_t *data = malloc(cap);
  for (size_t n; data && (n = fread(data + len, 1, cap - len, f)) > 0;) {
    len += n;
    if (len == cap) {
      uint8_t *bigger = realloc(data, cap * 2);
      if (!bigger) free(data);
      data = bigger;
      cap *= 2;
    }
  }
  int failed = ferror(f) || !data;
  fclose(f);
  if (failed) {
    fprintf(stderr, "driver: cannot read %s\n", path);
    free(data);
    return 1;
  }
  /* A copy of exactly `len` bytes, as libFuzzer passes: a read past the input is seen by
   * ASan in the sanitizer build. */
  uint8_t *input = malloc(len ? len : 1);
  if (!input) {
    free(data);
    return 1;
  }
  memcpy(input, data, len);
  free(data);
  LLVMFuzzerTestOneInput(input, len);
  free(input);
  inputs++;
  return 0;
}

static int by_name(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

static int run_dir(const char *dir) {
  DIR *d = opendir(dir);
  if (!d) {
    perror(dir);
    return 1;
  }
  char **names = NULL;
  size_t count = 0, cap = 0;
  int rc = 0;
  for (struct dirent *e; (e = readdir(d)) != NULL;) {
    if (e->d_name[0] == '.') continue;
    if (count == cap) {
      char **grown = realloc(names, (cap = cap ? cap * 2 : 64) * sizeof(*names));
      if (!grown) {
        rc = 1;
        break;
      }
      names = grown;
    }
    if (!(names[count] = malloc(strlen(dir) + strlen(e->d_name) + 2))) {
      rc = 1;
      break;
    }
    sprintf(names[count++], "%s/%s", dir, e->d_name);
  }
  closedir(d);
  if (count) qsort(names, count, sizeof(*names), by_name);
  for (size_t i = 0; i < count; i++) {
    struct stat st;
    if (rc == 0 && stat(names[i], &st) == 0 && S_ISREG(st.st_mode)) rc = run_file(names[i]);
    free(names[i]);
  }
  free(names);
  return rc;
}

int main(int argc, char **argv) {
  if (LLVMFuzzerInitialize) LLVMFuzzerInitialize(&argc, &argv);
  int rc = 0;
  for (int i = 1; i < argc && rc == 0; i++) {
    struct stat st;
    if (stat(argv[i], &st) != 0) {
      perror(argv[i]);
      rc = 1;
    } else {
      rc = S_ISDIR(st.st_mode) ? run_dir(argv[i]) : run_file(argv[i]);
    }
  }
  printf("%s: %zu inputs%s\n", argv[0], inputs, rc ? ", stopped on an error" : "");
  return rc;
}
