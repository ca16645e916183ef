/* SPDX-License-Identifier: Apache-2.0 */
/* grammar_test.c - checks the Vx grammar against the tree-sitter runtime we ship with (Debian
 * libtree-sitter 0.20.7), not the CLI's own runtime:
 *
 *   grammar_test corpus DIR    every case of DIR/ *.txt (tree-sitter corpus format) parses to
 *                              its expected S-expression; UPDATE=1 rewrites the expectations
 *   grammar_test files DIR     every DIR/ *.vx parses with no ERROR or MISSING node
 *   grammar_test queries DIR   every DIR/ *.scm compiles with ts_query_new
 *
 * Each mode ends with the line "N passed, N failed" and exits 1 on any failure. */
#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tree_sitter/api.h>

const TSLanguage *tree_sitter_vx(void);

typedef struct {
  char *data;
  size_t len, cap;
} buf;

static void buf_add(buf *b, const char *s, size_t n) {
  if (b->len + n + 1 > b->cap) {
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + n + 1)
      cap *= 2;
    char *p = realloc(b->data, cap);
    if (!p) {
      fprintf(stderr, "grammar_test: out of memory\n");
      exit(2);
    }
    b->data = p;
    b->cap = cap;
  }
  memcpy(b->data + b->len, s, n);
  b->len += n;
  b->data[b->len] = '\0';
}

static char *read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  buf b = {0};
  char chunk[65536];
  size_t n;
  while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
    buf_add(&b, chunk, n);
  fclose(f);
  if (!b.data) buf_add(&b, "", 0);
  *len = b.len;
  return b.data;
}

/* Sorted names in `dir` ending with `suffix`; the caller frees each and the array. */
static char **list_dir(const char *dir, const char *suffix, size_t *count) {
  DIR *d = opendir(dir);
  *count = 0;
  if (!d) return NULL;
  char **names = NULL;
  size_t cap = 0;
  struct dirent *e;
  size_t sl = strlen(suffix);
  while ((e = readdir(d)) != NULL) {
    size_t nl = strlen(e->d_name);
    if (nl <= sl || strcmp(e->d_name + nl - sl, suffix) != 0) continue;
    if (*count == cap) {
      cap = cap ? cap * 2 : 16;
      names = realloc(names, cap * sizeof(*names));
      if (!names) exit(2);
    }
    names[(*count)++] = strdup(e->d_name);
  }
  closedir(d);
  for (size_t i = 1; i < *count; i++) /* insertion sort: a handful of files */
    for (size_t j = i; j > 0 && strcmp(names[j - 1], names[j]) > 0; j--) {
      char *t = names[j];
      names[j] = names[j - 1];
      names[j - 1] = t;
    }
  return names;
}

/* Whitespace-insensitive S-expression: runs of whitespace become one space, and no space
 * stands next to a parenthesis. */
static char *normalize(const char *s, size_t n) {
  buf b = {0};
  bool space = false;
  for (size_t i = 0; i < n; i++) {
    char c = s[i];
    if (c == ' ' || c == '\n' || c == '\t' || c == '\r') {
      space = true;
      continue;
    }
    if (space && b.len > 0 && b.data[b.len - 1] != '(' && c != ')') buf_add(&b, " ", 1);
    space = false;
    buf_add(&b, &c, 1);
  }
  if (!b.data) buf_add(&b, "", 0);
  return b.data;
}

static TSTree *parse(TSParser *p, const char *text, size_t len) {
  return ts_parser_parse_string(p, NULL, text, (uint32_t)len);
}

static bool line_of(const char *s, size_t n, size_t at, char ch) {
  /* A line made of three or more `ch` and nothing else (a corpus delimiter). */
  size_t i = at, k = 0;
  while (i < n && s[i] == ch)
    i++, k++;
  while (i < n && (s[i] == ' ' || s[i] == '\r'))
    i++;
  return k >= 3 && (i == n || s[i] == '\n');
}

static size_t next_line(const char *s, size_t n, size_t at) {
  while (at < n && s[at] != '\n')
    at++;
  return at < n ? at + 1 : n;
}

/* One corpus file: cases separated by `===` header lines, input and expectation by `---`. */
static void run_corpus_file(TSParser *p, const char *path, bool update, int *passed, int *failed) {
  size_t n;
  char *s = read_file(path, &n);
  if (!s) {
    printf("FAIL %s: cannot read\n", path);
    (*failed)++;
    return;
  }
  buf out = {0};
  size_t at = 0;
  while (at < n) {
    if (!line_of(s, n, at, '=')) { /* text before the first header is kept as is */
      size_t nl = next_line(s, n, at);
      buf_add(&out, s + at, nl - at);
      at = nl;
      continue;
    }
    size_t h1 = at;
    size_t name_at = next_line(s, n, h1);
    size_t h2 = next_line(s, n, name_at);
    size_t body = next_line(s, n, h2);
    char name[256];
    size_t name_len = h2 > name_at ? h2 - name_at - 1 : 0;
    if (name_len >= sizeof(name)) name_len = sizeof(name) - 1;
    memcpy(name, s + name_at, name_len);
    name[name_len] = '\0';
    bool expect_error = strstr(name, ":error") != NULL;
    /* Find the `---` line, then the next header or end. */
    size_t sep = body;
    while (sep < n && !line_of(s, n, sep, '-'))
      sep = next_line(s, n, sep);
    size_t exp_at = next_line(s, n, sep);
    size_t end = exp_at;
    while (end < n && !line_of(s, n, end, '='))
      end = next_line(s, n, end);
    size_t in_len = sep > body ? sep - body : 0;
    while (in_len > 0 && s[body + in_len - 1] == '\n')
      in_len--; /* blank lines before --- */
    TSTree *tree = parse(p, s + body, in_len);
    TSNode root = ts_tree_root_node(tree);
    char *got = ts_node_string(root);
    char *want = normalize(s + exp_at, end - exp_at);
    char *gotn = normalize(got, strlen(got));
    bool ok;
    if (expect_error && want[0] == '\0')
      ok = ts_node_has_error(root);
    else
      ok = strcmp(want, gotn) == 0 && (!expect_error || ts_node_has_error(root));
    if (ok)
      (*passed)++;
    else if (!update) {
      (*failed)++;
      printf("FAIL %s: %s\n  want: %s\n  got:  %s\n", path, name, want, gotn);
    }
    buf_add(&out, s + h1, exp_at - h1);
    if (update) {
      buf_add(&out, "\n", 1);
      buf_add(&out, got, strlen(got));
      buf_add(&out, "\n\n", 2);
    } else {
      buf_add(&out, s + exp_at, end - exp_at);
    }
    free(got);
    free(want);
    free(gotn);
    ts_tree_delete(tree);
    at = end;
  }
  if (update && out.data) {
    FILE *f = fopen(path, "wb");
    if (f) {
      fwrite(out.data, 1, out.len, f);
      fclose(f);
    }
  }
  free(out.data);
  free(s);
}

static char *join(const char *dir, const char *name) {
  size_t n = strlen(dir) + strlen(name) + 2;
  char *p = malloc(n);
  if (!p) exit(2);
  snprintf(p, n, "%s/%s", dir, name);
  return p;
}

/* The first ERROR or MISSING node in pre-order, or a null node. */
static TSNode first_problem(TSNode root) {
  TSTreeCursor c = ts_tree_cursor_new(root);
  TSNode found = {0};
  for (;;) {
    TSNode n = ts_tree_cursor_current_node(&c);
    if (ts_node_is_missing(n) || (ts_node_symbol(n) == (TSSymbol)-1)) {
      found = n;
      break;
    }
    if (ts_node_has_error(n) && ts_tree_cursor_goto_first_child(&c)) continue;
    while (!ts_tree_cursor_goto_next_sibling(&c))
      if (!ts_tree_cursor_goto_parent(&c)) goto done;
  }
done:
  ts_tree_cursor_delete(&c);
  return found;
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: grammar_test corpus|files|queries DIR\n");
    return 2;
  }
  const char *mode = argv[1], *dir = argv[2];
  const TSLanguage *lang = tree_sitter_vx();
  TSParser *p = ts_parser_new();
  if (!ts_parser_set_language(p, lang)) {
    fprintf(stderr, "grammar_test: the runtime refuses the grammar (ABI %u)\n",
            ts_language_version(lang));
    return 2;
  }
  bool update = getenv("UPDATE") && strcmp(getenv("UPDATE"), "1") == 0;
  int passed = 0, failed = 0;
  size_t count;
  const char *suffix = strcmp(mode, "corpus") == 0  ? ".txt"
                       : strcmp(mode, "files") == 0 ? ".vx"
                                                    : ".scm";
  char **names = list_dir(dir, suffix, &count);
  if (count == 0) {
    printf("FAIL %s: no %s files\n", dir, suffix);
    failed++;
  }
  for (size_t i = 0; i < count; i++) {
    char *path = join(dir, names[i]);
    if (strcmp(mode, "corpus") == 0) {
      run_corpus_file(p, path, update, &passed, &failed);
    } else if (strcmp(mode, "files") == 0) {
      size_t n;
      char *text = read_file(path, &n);
      TSTree *tree = text ? parse(p, text, n) : NULL;
      TSNode bad = tree ? first_problem(ts_tree_root_node(tree)) : (TSNode){0};
      if (!tree) {
        printf("FAIL %s: cannot read\n", path);
        failed++;
      } else if (!ts_node_is_null(bad)) {
        TSPoint at = ts_node_start_point(bad);
        printf("FAIL %s:%u:%u: %s node\n", path, at.row + 1, at.column + 1,
               ts_node_is_missing(bad) ? "MISSING" : "ERROR");
        failed++;
      } else {
        passed++;
      }
      if (tree) ts_tree_delete(tree);
      free(text);
    } else {
      size_t n;
      char *text = read_file(path, &n);
      uint32_t err_offset = 0;
      TSQueryError err = TSQueryErrorNone;
      TSQuery *q = text ? ts_query_new(lang, text, (uint32_t)n, &err_offset, &err) : NULL;
      if (!q) {
        printf("FAIL %s: query error %d at byte %u\n", path, (int)err, err_offset);
        failed++;
      } else {
        passed++;
        ts_query_delete(q);
      }
      free(text);
    }
    free(path);
    free(names[i]);
  }
  free(names);
  ts_parser_delete(p);
  printf("%s %s: %d passed, %d failed\n", mode, dir, passed, failed);
  printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
