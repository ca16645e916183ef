/* SPDX-License-Identifier: Apache-2.0 */
/* scanner.c - the Vx grammar's external scanner: the token _item_start, the line break(s)
 * before a line that starts in column 0 with a letter or '_' (where top-level items start
 * in formatted Vx). The grammar accepts it only between top-level items (grammar.js says
 * why). Where it is valid (between items, and in error recovery, where every token is) it
 * is produced at every such line; elsewhere only before a line that starts with an item
 * keyword, which then ends the unfinished item with an error at that line break instead of
 * letting the item swallow what follows.
 *
 * An item keyword typed in front of another on such a line (`struct fn f() {`: no item
 * begins with two) would have keyword extraction read the second as the first's name and
 * leave the rest of the file to error recovery. The scanner then makes the stray keyword
 * and its blanks a second _item_start, so the item after it parses; the library reports
 * the keyword as a syntax error (lib/syntax.c). Its one bit of state says that the token
 * just produced stops before such a keyword. */
#include <stdlib.h>
#include <string.h>

#include "tree_sitter/parser.h"

enum vx_external_token { ITEM_START, LINE_PROBE, EXTERN_PROBE };

typedef struct scanner {
  bool stray_next; /* the next token is a stray item keyword at the start of a line */
} scanner;

void *tree_sitter_vx_external_scanner_create(void) { return calloc(1, sizeof(scanner)); }

void tree_sitter_vx_external_scanner_destroy(void *payload) { free(payload); }

unsigned tree_sitter_vx_external_scanner_serialize(void *payload, char *buffer) {
  buffer[0] = (char)((scanner *)payload)->stray_next;
  return 1;
}

void tree_sitter_vx_external_scanner_deserialize(void *payload, const char *buffer,
                                                 unsigned length) {
  ((scanner *)payload)->stray_next = length > 0 && buffer[0];
}

static bool is_letter(int32_t c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool is_word(int32_t c) { return is_letter(c) || (c >= '0' && c <= '9'); }

/* Whether the word at the lexer starts an item: one of the keywords that begin only items,
 * followed by what follows them in an item (so `Memory::HBM`, `fn(i32)` and `fn_x` do not
 * count). Reads past the token's end, which mark_end has fixed. Sets *is_fn (when given)
 * to whether the word is `fn`. */
static bool item_keyword_follows(TSLexer *lexer, bool *is_fn) {
  static const char *const keywords[] = {"fn",     "struct", "enum",     "trait",      "impl",
                                         "extern", "Memory", "Topology", "macro_rules"};
  char word[16];
  size_t len = 0;
  while (is_word(lexer->lookahead)) {
    if (len + 1 >= sizeof(word)) return false;
    word[len++] = (char)lexer->lookahead;
    lexer->advance(lexer, false);
  }
  word[len] = '\0';
  if (is_fn) *is_fn = strcmp(word, "fn") == 0;
  int32_t next = lexer->lookahead;
  bool spaced = next == ' ' || next == '\t';
  for (size_t i = 0; i < sizeof(keywords) / sizeof(keywords[0]); i++) {
    if (strcmp(word, keywords[i]) != 0) continue;
    if (strcmp(word, "impl") == 0) return spaced || next == '<';
    if (strcmp(word, "macro_rules") == 0) return spaced || next == '!';
    return spaced;
  }
  return false;
}

bool tree_sitter_vx_external_scanner_scan(void *payload, TSLexer *lexer,
                                          const bool *valid_symbols) {
  scanner *state = payload;
  bool stray = state->stray_next;
  state->stray_next = false;
  if (!valid_symbols[ITEM_START] && !valid_symbols[LINE_PROBE]) return false;
  int32_t first = lexer->lookahead;
  if (stray && is_letter(first)) {
    /* The stray keyword the previous _item_start stopped before, and its blanks. */
    while (is_word(lexer->lookahead))
      lexer->advance(lexer, false);
    while (lexer->lookahead == ' ' || lexer->lookahead == '\t')
      lexer->advance(lexer, false);
    lexer->mark_end(lexer);
    lexer->result_symbol = ITEM_START;
    return true;
  }
  if (first != '\n' && first != '\r' && first != ' ' && first != '\t') return false;
  /* The token is the whitespace up to the line's first character (trailing blanks of the
   * line before included), and holds a line break: it is never empty (an empty token is
   * refused in error recovery). */
  bool at_line_start = false;
  for (;;) {
    int32_t c = lexer->lookahead;
    if (c == '\n')
      at_line_start = true;
    else if (c == ' ' || c == '\t' || c == '\f' || c == '\v')
      at_line_start = false;
    else if (c != '\r')
      break;
    lexer->advance(lexer, false);
  }
  if (!at_line_start || !is_letter(lexer->lookahead)) return false;
  lexer->mark_end(lexer);
  lexer->result_symbol = ITEM_START;
  /* Look past the token's end: an item keyword, blanks, and another item keyword. */
  bool first_word_is_fn = false;
  bool keyword = item_keyword_follows(lexer, &first_word_is_fn);
  /* In an extern block, where only a signature may start (EXTERN_PROBE valid, ITEM_START
   * not: outside error recovery), a column-0 `fn` is the block's next signature. */
  if (keyword && valid_symbols[EXTERN_PROBE] && !valid_symbols[ITEM_START] && first_word_is_fn)
    return false;
  if (keyword) {
    while (lexer->lookahead == ' ' || lexer->lookahead == '\t')
      lexer->advance(lexer, false);
    state->stray_next = is_letter(lexer->lookahead) && item_keyword_follows(lexer, NULL);
  }
  return valid_symbols[ITEM_START] || keyword;
}
