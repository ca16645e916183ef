/* SPDX-License-Identifier: Apache-2.0 */
/* roles.c - roles named in comments (`// role: NAME`), see roles.h for the rule. */
#include "roles.h"

#include "model.h"
#include "source.h"

#define VXP__ROLE_MAX 80

/* What a line is, for the paragraph rule. */
typedef enum line_kind {
  LINE_STOP, /* blank, or opens or closes a block: nothing above it applies below */
  LINE_ROLE, /* a comment line `// role: NAME` */
  LINE_OTHER /* code, or a comment that names no role */
} line_kind;

typedef struct line_info {
  line_kind kind;
  const char *role; /* the role text (not terminated) of a LINE_ROLE line or a trailing tag */
  size_t role_len;
} line_info;

static bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f'; }

/* The `role:` tag of a comment's text (after the slashes), or NULL. */
static const char *role_tag(const char *c, const char *end, size_t *len) {
  while (c < end && (*c == '/' || *c == '!'))
    c++;
  while (c < end && is_space(*c))
    c++;
  if (end - c < 5 || memcmp(c, "role:", 5) != 0) return NULL;
  c += 5;
  while (c < end && is_space(*c))
    c++;
  const char *e = end;
  while (e > c && is_space(e[-1]))
    e--;
  if (e == c) return NULL;
  *len = (size_t)(e - c) > VXP__ROLE_MAX ? VXP__ROLE_MAX : (size_t)(e - c);
  return c;
}

/* Where the `//` comment of a line starts (outside string literals), or NULL. */
static const char *comment_start(const char *s, const char *end) {
  bool in_string = false;
  for (const char *p = s; p + 1 < end; p++) {
    if (in_string) {
      if (*p == '\\')
        p++;
      else if (*p == '"')
        in_string = false;
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
  while (s < end && is_space(*s))
    s++;
  if (s == end) return info;
  const char *comment = comment_start(s, end);
  if (comment == s) {
    info.kind = LINE_OTHER;
    info.role = role_tag(comment, end, &info.role_len);
    if (info.role) info.kind = LINE_ROLE;
    return info;
  }
  const char *code_end = comment ? comment : end;
  while (code_end > s && is_space(code_end[-1]))
    code_end--;
  if (*s == '}' || (code_end > s && code_end[-1] == '{')) return info; /* LINE_STOP */
  info.kind = LINE_OTHER;
  if (comment) info.role = role_tag(comment, end, &info.role_len); /* a trailing tag */
  return info;
}

void vxp_roles__memo_init(vxp_roles_memo *memo) {
  memset(memo, 0, sizeof(*memo));
  memo->inherit_line = VXP_NONE;
  memo->answer_line = VXP_NONE;
}

static void of_line(vxp_roles_memo *memo, const vxp_source *src, uint32_t line, const char **text,
                    size_t *len) {
  *text = NULL;
  *len = 0;
  line_info own = classify(src, line);
  if (own.kind == LINE_OTHER && own.role) {
    *text = own.role;
    *len = own.role_len;
    return;
  }
  /* The role this line inherits from the lines above: walk up until the paragraph's role
   * comment, its start, or the line the memo answers for. The memo is only valid when no
   * line between it and here was skipped, which walking up guarantees. */
  if (line == 0) return;
  const char *inherited = NULL;
  size_t inherited_len = 0;
  uint32_t l = line - 1;
  for (;;) {
    if (memo->inherit_line == l && memo->inherit_line != VXP_NONE) {
      inherited = memo->inherit;
      inherited_len = memo->inherit_len;
      break;
    }
    line_info info = classify(src, l);
    if (info.kind == LINE_STOP) break;
    if (info.kind == LINE_ROLE) {
      inherited = info.role;
      inherited_len = info.role_len;
      break;
    }
    if (l == 0) break;
    l--;
  }
  memo->inherit_line = line - 1;
  memo->inherit = inherited;
  memo->inherit_len = inherited_len;
  *text = inherited;
  *len = inherited_len;
}

void vxp_roles__of_line(vxp_roles_memo *memo, const vxp_source *src, uint32_t line,
                        const char **text, size_t *len) {
  if (memo->answer_line == line && line != VXP_NONE) {
    *text = memo->answer;
    *len = memo->answer_len;
    return;
  }
  of_line(memo, src, line, text, len);
  memo->answer_line = line;
  memo->answer = *text;
  memo->answer_len = *len;
}
