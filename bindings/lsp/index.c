/* SPDX-License-Identifier: Apache-2.0 */
/* index.c - lookups into one analysis, sorted once so that a reply costs a pass over its
 * items and not a pass over the analysis per item: the records grouped by the text they
 * place (a placement written once is a record per generic instance), the resident sets and
 * call trees by function, and the analysed functions by name. Built when a reply first
 * needs it and kept with the document until its analysis is replaced. */
#include <stdlib.h>
#include <string.h>

#include "lsp.h"

struct lsp_index {
  const vxp_analysis *an;
  size_t record_count, set_count, tree_count, function_count;
  size_t *records_by_range;  /* record indices by (start byte, end byte, index) */
  size_t *group_of;          /* per record: where its group starts in records_by_range when
                                it is its group's first record, else SIZE_MAX */
  size_t *sets_by_function;  /* resident set indices by (function, index) */
  size_t *trees_by_function; /* call tree indices by (function, index) */
  const char **functions;    /* the analysed functions' names, sorted */
};

/* ------------------------------------------------------------------ sorting */

typedef struct range_key {
  uint32_t start, end;
  size_t i;
} range_key;

static int by_range(const void *a, const void *b) {
  const range_key *x = a, *y = b;
  if (x->start != y->start) return x->start < y->start ? -1 : 1;
  if (x->end != y->end) return x->end < y->end ? -1 : 1;
  return x->i < y->i ? -1 : x->i > y->i;
}

typedef struct name_key {
  const char *name;
  size_t i;
} name_key;

static int by_name(const void *a, const void *b) {
  const name_key *x = a, *y = b;
  int c = strcmp(x->name, y->name);
  if (c) return c;
  return x->i < y->i ? -1 : x->i > y->i;
}

/* The indices 0..n-1 ordered by name(i), ties by index; NULL when out of memory (or n is
 * 0: then *out is NULL and true is returned). */
static bool sort_by_name(size_t n, const char *(*name)(const vxp_analysis *, size_t),
                         const vxp_analysis *an, size_t **out) {
  *out = NULL;
  if (!n) return true;
  name_key *keys = malloc(n * sizeof(*keys));
  size_t *order = malloc(n * sizeof(*order));
  if (!keys || !order) {
    free(keys);
    free(order);
    return false;
  }
  for (size_t i = 0; i < n; i++) {
    const char *s = name(an, i);
    keys[i] = (name_key){s ? s : "", i};
  }
  qsort(keys, n, sizeof(*keys), by_name);
  for (size_t i = 0; i < n; i++)
    order[i] = keys[i].i;
  free(keys);
  *out = order;
  return true;
}

static const char *set_function(const vxp_analysis *an, size_t i) {
  return vxp_resident_set_function(vxp_analysis_resident_set(an, i));
}

static const char *tree_function(const vxp_analysis *an, size_t i) {
  return vxp_call_tree_function(vxp_analysis_call_tree(an, i));
}

static int by_text(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static bool group_records(lsp_index *ix) {
  size_t n = ix->record_count;
  if (!n) return true;
  range_key *keys = malloc(n * sizeof(*keys));
  ix->records_by_range = malloc(n * sizeof(size_t));
  ix->group_of = malloc(n * sizeof(size_t));
  if (!keys || !ix->records_by_range || !ix->group_of) {
    free(keys);
    return false;
  }
  for (size_t i = 0; i < n; i++) {
    vxp_range r = vxp_record_range(vxp_analysis_record(ix->an, i));
    keys[i] = (range_key){r.start_byte, r.end_byte, i};
    ix->group_of[i] = SIZE_MAX;
  }
  qsort(keys, n, sizeof(*keys), by_range);
  for (size_t p = 0; p < n; p++) {
    ix->records_by_range[p] = keys[p].i;
    /* the first of a run of equal ranges has the lowest index (ties sort by index) */
    if (p == 0 || keys[p].start != keys[p - 1].start || keys[p].end != keys[p - 1].end)
      ix->group_of[keys[p].i] = p;
  }
  free(keys);
  return true;
}

lsp_index *lsp_index_new(const vxp_analysis *an) {
  lsp_index *ix = calloc(1, sizeof(*ix));
  if (!ix) return NULL;
  ix->an = an;
  ix->record_count = vxp_analysis_record_count(an);
  ix->set_count = vxp_analysis_resident_set_count(an);
  ix->tree_count = vxp_analysis_call_tree_count(an);
  ix->function_count = vxp_analysis_function_count(an);
  bool ok = group_records(ix) &&
            sort_by_name(ix->set_count, set_function, an, &ix->sets_by_function) &&
            sort_by_name(ix->tree_count, tree_function, an, &ix->trees_by_function);
  if (ok && ix->function_count) {
    ix->functions = malloc(ix->function_count * sizeof(*ix->functions));
    ok = ix->functions != NULL;
    for (size_t i = 0; ok && i < ix->function_count; i++) {
      const char *fn = vxp_analysis_function(an, i);
      ix->functions[i] = fn ? fn : "";
    }
    if (ok) qsort(ix->functions, ix->function_count, sizeof(*ix->functions), by_text);
  }
  if (!ok) {
    lsp_index_free(ix);
    return NULL;
  }
  return ix;
}

void lsp_index_free(lsp_index *ix) {
  if (!ix) return;
  free(ix->records_by_range);
  free(ix->group_of);
  free(ix->sets_by_function);
  free(ix->trees_by_function);
  free(ix->functions);
  free(ix);
}

const lsp_index *lsp_document_index(lsp_document *d) {
  if (!d->an) return NULL;
  if (!d->index) d->index = lsp_index_new(d->an);
  return d->index;
}

/* ------------------------------------------------------------------ lookups */

/* Compare `s` with the text `name` followed by the character `last`, as strcmp would. */
static int compare_with(const char *s, const char *name, char last) {
  size_t n = strlen(name);
  int c = strncmp(s, name, n);
  if (c) return c;
  return (int)(unsigned char)s[n] - (int)(unsigned char)last;
}

/* The first position in `sorted` (n names, by strcmp) whose name is not below `name`
 * followed by `last` ('\0': `name` itself). */
static size_t lower_bound(const char *const *sorted, size_t n, const char *name, char last) {
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (compare_with(sorted[mid], name, last) < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

/* The run of `order` (n indices sorted by name(i)) whose name is `fn`. */
static const size_t *run_of(const size_t *order, size_t n,
                            const char *(*name)(const vxp_analysis *, size_t),
                            const vxp_analysis *an, const char *fn, size_t *count) {
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    const char *s = name(an, order[mid]);
    if (strcmp(s ? s : "", fn) < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  size_t end = lo;
  while (end < n) {
    const char *s = name(an, order[end]);
    if (strcmp(s ? s : "", fn) != 0) break;
    end++;
  }
  *count = end - lo;
  return order ? order + lo : NULL;
}

const size_t *lsp_index_sets_of(const lsp_index *ix, const char *fn, size_t *count) {
  return run_of(ix->sets_by_function, ix->set_count, set_function, ix->an, fn, count);
}

const size_t *lsp_index_trees_of(const lsp_index *ix, const char *fn, size_t *count) {
  return run_of(ix->trees_by_function, ix->tree_count, tree_function, ix->an, fn, count);
}

const vxp_resident_set *lsp_index_resident_set(const lsp_index *ix, const char *fn,
                                               const char *space) {
  size_t count;
  const size_t *sets = lsp_index_sets_of(ix, fn, &count);
  for (size_t k = 0; k < count; k++) {
    const vxp_resident_set *rs = vxp_analysis_resident_set(ix->an, sets[k]);
    if (strcmp(vxp_resident_set_space(rs), space) == 0) return rs;
  }
  return NULL;
}

bool lsp_index_has_function(const lsp_index *ix, const char *name) {
  size_t p = lower_bound(ix->functions, ix->function_count, name, '\0');
  return p < ix->function_count && strcmp(ix->functions[p], name) == 0;
}

size_t lsp_index_instance_count(const lsp_index *ix, const char *name) {
  /* `name<...>` sorts from `name<` up to, not including, `name=` ('<' + 1). */
  return lower_bound(ix->functions, ix->function_count, name, '<' + 1) -
         lower_bound(ix->functions, ix->function_count, name, '<');
}

const size_t *lsp_index_same_range(const lsp_index *ix, size_t record, size_t *count) {
  *count = 0;
  if (record >= ix->record_count || ix->group_of[record] == SIZE_MAX) return NULL;
  size_t p = ix->group_of[record], end = p + 1;
  vxp_range r = vxp_record_range(vxp_analysis_record(ix->an, record));
  while (end < ix->record_count) {
    vxp_range q = vxp_record_range(vxp_analysis_record(ix->an, ix->records_by_range[end]));
    if (q.start_byte != r.start_byte || q.end_byte != r.end_byte) break;
    end++;
  }
  *count = end - p;
  return ix->records_by_range + p;
}
