/* SPDX-License-Identifier: Apache-2.0 */
/* suggest.c - the closest declared name to an unresolved one (suggest.h). */
#include "suggest.h"

#include <ctype.h>

/* Names longer than this are not compared: nobody misspells a 64-character name by one. */
#define VXP_SUGGEST_MAX_LEN 64

static int fold(char c) { return tolower((unsigned char)c); }

unsigned vxp_suggest__distance(const char *a, const char *b, unsigned limit) {
  size_t n = strlen(a), m = strlen(b);
  if (n > VXP_SUGGEST_MAX_LEN || m > VXP_SUGGEST_MAX_LEN) return limit + 1;
  if ((n > m ? n - m : m - n) > limit) return limit + 1;
  /* Three rows of the dynamic programme: the one before the previous for transpositions. */
  unsigned rows[3][VXP_SUGGEST_MAX_LEN + 1];
  unsigned *before = rows[0], *prev = rows[1], *cur = rows[2];
  for (size_t j = 0; j <= m; j++)
    prev[j] = (unsigned)j;
  for (size_t i = 1; i <= n; i++) {
    cur[0] = (unsigned)i;
    unsigned row_min = cur[0];
    for (size_t j = 1; j <= m; j++) {
      unsigned cost = fold(a[i - 1]) == fold(b[j - 1]) ? 0 : 1;
      unsigned best = prev[j - 1] + cost;
      if (prev[j] + 1 < best) best = prev[j] + 1;
      if (cur[j - 1] + 1 < best) best = cur[j - 1] + 1;
      if (i > 1 && j > 1 && fold(a[i - 1]) == fold(b[j - 2]) && fold(a[i - 2]) == fold(b[j - 1]) &&
          before[j - 2] + 1 < best)
        best = before[j - 2] + 1;
      cur[j] = best;
      if (best < row_min) row_min = best;
    }
    if (row_min > limit) return limit + 1;
    unsigned *t = before;
    before = prev;
    prev = cur;
    cur = t;
  }
  return prev[m];
}

size_t vxp_suggest__closest(const char *name, const char *const *candidates, size_t count) {
  if (!name || !name[0]) return SIZE_MAX;
  unsigned limit = strlen(name) <= 4 ? 1 : 2;
  size_t best = SIZE_MAX;
  unsigned best_distance = limit + 1;
  for (size_t i = 0; i < count; i++) {
    const char *c = candidates[i];
    if (!c || !c[0] || strcmp(c, name) == 0) continue;
    unsigned d = vxp_suggest__distance(name, c, limit);
    if (d < best_distance) {
      best = i;
      best_distance = d;
    }
  }
  return best;
}
