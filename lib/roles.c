/* SPDX-License-Identifier: Apache-2.0 */
/* roles.c - roles named in comments (`// role: NAME`), see roles.h for the rule. */
#include "roles.h"

#include "context.h"
#include "source.h"

#define VXP__ROLE_MAX 80

/* What a line is, for the paragraph rule. */
typedef enum line_kind {
  LINE_STOP,      /* blank, or opens or closes a block: nothing above it applies below */
  LINE_ROLE,      /* a comment line `// role: NAME` */
  LINE_OTHER      /* code, or a comment that names no role */
} line_kind;

typedef struct line_info {
  line_kind kind;
  const char *role;   /* the role text (not terminated) of a LINE_ROLE line or a trailing tag */
  size_t role_len;
} line_info;

static bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f'; }

/* The `role:` tag of a comment's text (after the slashes), or NULL. */
static const char *role_tag(const char *c, const char *end, size_t *len) {
  while (c < end && (*c == '/' || *c == '!')) c++;
  while (c < end && is_space(*c)) c++;
  if (end - c < 5 || memcmp(c, "role:", 5) != 0) return NULL;
  c += 5;
  while (c < end && is_space(*c)) c++;
  const char *e = end;
  while (e > c && is_space(e[-1])) e--;
  if (e == c) return NULL;
  *len = (size_t)(e - c) > VXP__ROLE_MAX ? VXP__ROLE_MAX : (size_t)(e - c);
  return c;
}

/* Where the `//` comment of a line starts (outside string literals), or NULL. */
static const char *comment_start(const char *s, const char *end) {
  bool in_string = false;
  for (const char *p = s; p + 1 < end; p++) {
    if (in_string) {
      if (*p == '\\') p++;
      else if (*p == '"') in_string = false;
    } else if (*p == '"') {
      in_string = true;
    } else if (p[0] == '/' && p[1] == '/') {
      return p;
    }
  }
  return NULL;
}

static line_info classify(const vxp_source *src, uint32_t line) {
  line_info info = {LINE_STOP, NULL, 0};
  size_t len = 0;
  const char *s = vxp_source_line(src, line, &len);
  if (!s) return info;
  const char *end = s + len;
  while (s < end && is_space(*s)) s++;
  if (s == end) return info;
  const char *comment = comment_start(s, end);
  if (comment == s) {
    info.kind = LINE_OTHER;
    info.role = role_tag(comment, end, &info.role_len);
    if (info.role) info.kind = LINE_ROLE;
    return info;
  }
  const char *code_end = comment ? comment : end;
  while (code_end > s && is_space(code_end[-1])) code_end--;
  if (*s == '}' || (code_end > s && code_end[-1] == '{')) return info; /* LINE_STOP */
  info.kind = LINE_OTHER;
  if (comment) info.role = role_tag(comment, end, &info.role_len); /* a trailing tag */
  return info;
}

/* The owned copy of a role name (one per distinct name). */
static int intern_role(vxp_context *ctx, vxp_analysis *an, const char *text, size_t len,
                       const char **out) {
  for (size_t i = 0; i < an->roles.len; i++) {
    const char *r = an->roles.items[i];
    if (strlen(r) == len && memcmp(r, text, len) == 0) {
      *out = r;
      return VXP_OK;
    }
  }
  char *copy = vxp_ctx__strndup(ctx, text, len);
  if (!copy || !array_push(ctx, &an->roles, copy)) {
    vxp_ctx__free(ctx, copy);
    return VXP_ENOMEM;
  }
  *out = copy;
  return VXP_OK;
}

static int of_line(vxp_context *ctx, vxp_analysis *an, const vxp_source *src, uint32_t line,
                   const char **role);

int vxp_roles__of_line(vxp_context *ctx, vxp_analysis *an, const vxp_source *src, uint32_t line,
                       const char **role) {
  /* Placements are asked about in source order, often many on one line: classifying the
   * line again for each rescanned it (a 10 MB line of placements: quadratic, minutes). */
  if (an->role_line == line && line != VXP_NONE) {
    *role = an->role_answer;
    return VXP_OK;
  }
  int rc = of_line(ctx, an, src, line, role);
  if (rc == VXP_OK) {
    an->role_line = line;
    an->role_answer = *role;
  }
  return rc;
}

static int of_line(vxp_context *ctx, vxp_analysis *an, const vxp_source *src, uint32_t line,
                   const char **role) {
  *role = NULL;
  line_info own = classify(src, line);
  if (own.kind == LINE_OTHER && own.role) return intern_role(ctx, an, own.role, own.role_len, role);
  /* The role this line inherits from the lines above: walk up until the paragraph's role
   * comment, its start, or the line the memo answers for. The memo is only valid when no
   * line between it and here was skipped, which walking up guarantees. */
  if (line == 0) return VXP_OK;
  const char *inherited = NULL;
  uint32_t l = line - 1;
  for (;;) {
    if (an->role_cache_line == l && an->role_cache_line != VXP_NONE) {
      inherited = an->role_cache;
      break;
    }
    line_info info = classify(src, l);
    if (info.kind == LINE_STOP) break;
    if (info.kind == LINE_ROLE) {
      int rc = intern_role(ctx, an, info.role, info.role_len, &inherited);
      if (rc != VXP_OK) return rc;
      break;
    }
    if (l == 0) break;
    l--;
  }
  an->role_cache_line = line - 1;
  an->role_cache = inherited;
  *role = inherited;
  return VXP_OK;
}

void vxp_roles__free(vxp_context *ctx, vxp_analysis *an) {
  for (size_t i = 0; i < an->roles.len; i++) vxp_ctx__free(ctx, an->roles.items[i]);
  array_free(ctx, &an->roles);
}
