/* SPDX-License-Identifier: Apache-2.0 */
/* report.h - the reporting layer's core: every report the library renders (the analysis'
 * JSON and SARIF, explain, sweep, roofline, frontier, plot) is written by the code in lib/report/,
 * and handed out either cached on its object (vxp_analysis_json, vxp_analysis_sarif) or as a
 * vxp_report. The analysis and the sweep only compute; nothing outside lib/report/ knows how they
 * print. Reports are written into one vxp_sb, by the streaming JSON writer below or by
 * text writers with the figures of numbers.h. */
#ifndef VXP_REPORT_H
#define VXP_REPORT_H

#include "numbers.h"
#include "strbuf.h"

/* ------------------------------------------------------------------ the report handle */

/* Invariant: `text` is NUL-terminated and `len` bytes long; the handle lives at the end of
 * the text's own block (from `ctx`'s allocator), so freeing the report is one call and the
 * text is never copied to make it. */
struct vxp_report {
  uint32_t tag; /* VXP_TAG_REPORT, first: checked on entry (tag.h) */
  vxp_context *ctx;
  char *text;
  size_t len;
};

/* Hand the text of `sb` out as a new report (ctx's allocator). On an append that failed,
 * or no memory for the handle, returns VXP_ENOMEM (recorded on ctx) and frees the text. */
int vxp_report__finish(vxp_report **out, vxp_context *ctx, vxp_sb *sb);

/* A set of report formats, for vxp_report__options. */
#define VXP_REPORT__FORMAT(f) (1u << (unsigned)(f))
#define VXP_REPORT__TEXT_JSON                                                                      \
  (VXP_REPORT__FORMAT(VXP_REPORT_TEXT) | VXP_REPORT__FORMAT(VXP_REPORT_JSON))

/* The report options a caller gave, read up to the fields its version has (NULL: the
 * defaults), for a report drawn in `formats` (a VXP_REPORT__FORMAT set; a format of 0 means
 * the first of text and SVG the report draws). Returns VXP_OK or VXP_EVERSION/VXP_EINVAL (an
 * unknown format, or one the report does not draw), recorded on ctx. */
int vxp_report__options(vxp_context *ctx, const vxp_report_options *given, vxp_report_options *out,
                        unsigned formats);

/* The machine's name in a report's first line: the caller's (o->machine), else the analysed
 * machine's label, else "the program's own declarations". Borrowed. */
const char *vxp_report__machine_name(const vxp_analysis *an, const vxp_report_options *o);

/* `s` as XML text or attribute value: <, >, & and " escaped, control characters other than
 * newline and tab dropped (NULL: nothing). */
void vxp_report__xml(vxp_context *ctx, vxp_sb *sb, const char *s);

/* ------------------------------------------------------------------ the analysis' own */

/* Render the JSON report (json.c). Returns a buffer from the context's allocator and its
 * length, or NULL on allocation failure. */
char *vxp_report__json(const vxp_analysis *an, size_t *len);

/* Render the SARIF 2.1.0 log (sarif.c), as vxp_report__json does the report. */
char *vxp_sarif__render(const vxp_analysis *an, size_t *len);

/* ------------------------------------------------------------------ streaming JSON */

#define VXP__JSON_DEPTH 16

/* A streaming JSON writer into a vxp_sb: keys in the order written. With `pretty`, one
 * top-level key per line and each element of a top-level array on a line of its own (the
 * layout of every JSON report, which line-oriented tools read as they read vxc's). */
typedef struct vxp_jw {
  vxp_context *ctx;
  vxp_sb *sb;
  bool pretty;
  bool ascii; /* strings as jansson's JSON_ENSURE_ASCII writes them (vxp_json__put_ascii) */
  int depth;
  bool need_comma[VXP__JSON_DEPTH];
  bool array_at[VXP__JSON_DEPTH];
  bool after_key;
} vxp_jw;

void vxp_jw__init(vxp_jw *j, vxp_context *ctx, vxp_sb *sb, bool pretty);
void vxp_jw__open(vxp_jw *j, char bracket);  /* '{' or '[' */
void vxp_jw__close(vxp_jw *j, char bracket); /* '}' or ']' */
void vxp_jw__key(vxp_jw *j, const char *key);
void vxp_jw__string(vxp_jw *j, const char *s); /* NULL: null */
void vxp_jw__u64(vxp_jw *j, uint64_t v);
void vxp_jw__i64(vxp_jw *j, int64_t v);
/* An integer already in decimal (one wider than 64 bits: a formula's coefficient). */
void vxp_jw__number(vxp_jw *j, const char *digits);
void vxp_jw__bool(vxp_jw *j, bool v);
void vxp_jw__null(vxp_jw *j);
/* `v` rounded to `decimals` places, without trailing zeros; not finite: null. */
void vxp_jw__real(vxp_jw *j, double v, int decimals);
/* `v` with 15 significant digits as jansson's JSON_REAL_PRECISION(15) writes a real: always
 * with a '.' or an exponent ("2.0", "0.6774", "1e16"); not finite: null. */
void vxp_jw__real15(vxp_jw *j, double v);

/* The keys every report of an analysis starts with: schema, file, machine and host (when
 * `with_machines`), defines (the overrides, in the order given). */
void vxp_jw__header(vxp_jw *j, const char *schema, const vxp_analysis *an, bool with_machines);

#endif /* VXP_REPORT_H */
