/* SPDX-License-Identifier: Apache-2.0 */
/*
 * vxpeak.h - the public C API of libvxpeak.
 *
 * libvxpeak reads Vx programs (the language of vxc) and answers, before any hardware is
 * provisioned: what is the peak working set of each function in each memory space, does it
 * fit the machine, and what do its transfers cost.
 *
 * This is the only public header. It is C89-clean and includes only <stddef.h> and
 * <stdint.h>; no tree-sitter or jansson type appears here.
 *
 * Contents
 * --------
 * The declarations are in sections by task, in this order, each opened by a line of `=`
 * that ends with its name (and divided by lines of `-`); every function is in one of them,
 * after a comment whose first sentence says what it is for (`make layers` checks both):
 *
 *   Contexts and errors    versions, return codes, positions, the allocator, contexts,
 *                          cancellation
 *   Sources and programs   a program's text and line index, parsing it, its items and tree
 *   Machines               machine models: files and the built-in fleet
 *   Analyses and verdicts  analysing a program against machines: admitted or not, and why
 *   Records and scopes     what fills a peak: resident sets, records (tiles), scopes,
 *                          routes, call trees, the calls the analysis could not follow
 *   Answers                the largest value that fits (sweeps), how fast a call runs
 *                          (rooflines), the batch sizes worth running (frontiers)
 *   Reports                the analysis' JSON and SARIF, and the reports the command
 *                          prints (after the answers, whose results they render)
 *   Editing                an editor's loop: an edit, a reparse, an incremental analysis
 *   Model programs         a transformer's Vx program written from its config.json
 *   Codegen                CUDA whose device memory follows the analysis
 *
 * Object life cycle
 * -----------------
 * Eleven owning handles, each made by a constructor and released by its `_free` (which
 * accepts NULL):
 *
 *   vxp_context   allocator, options, the last error, the tree-sitter parser
 *   vxp_source    a private copy of a program's text and its line index
 *   vxp_program   the syntax tree and the program model lowered from it
 *   vxp_machine   Memory/Topology declarations read from a machine file
 *   vxp_analysis  peaks, verdict, diagnostics, routes, the JSON report and SARIF log
 *   vxp_sweep     the largest value of a constant that fits (vxp_sweep_run)
 *   vxp_roofline  one call's memory traffic and time bound (vxp_roofline_new)
 *   vxp_frontier  the batch sizes that fit and their throughput (vxp_frontier_run)
 *   vxp_report    a rendered report: check, explain, sweep, roofline, frontier, plot (vxp_report_*)
 *   vxp_formula   each peak as a formula in named constants (vxp_formula_new)
 *   vxp_cuda      a CUDA program generated from an analysis (optional stage)
 *
 * A program borrows its source, and an analysis borrows its program and machines: free
 * them in the reverse order of creation. Everything an accessor returns (strings,
 * diagnostics, resident sets, records) is borrowed from the object it was read from and
 * stays valid until that object is freed. libvxpeak never returns memory the caller must
 * free, except the handles themselves.
 *
 * Errors
 * ------
 * Functions that can fail return VXP_OK (0) or a negative VXP_E* code, set their `out`
 * parameter only on success, and leave a message on the context (vxp_context_errmsg).
 * Problems in the analysed program (syntax errors, capacity rejections) are not failures:
 * they are diagnostics on the program or the analysis.
 *
 * The context's error state describes the latest call that can fail, as SQLite's does: a
 * call that fails sets vxp_context_errcode and vxp_context_errmsg, and a call that succeeds
 * clears them (VXP_OK and ""). The calls that can fail are those returning a code
 * (vxp_source_new, vxp_source_load_file, vxp_source_edit, vxp_program_parse,
 * vxp_program_reparse, vxp_machine_load, vxp_machine_builtin, vxp_analyze, vxp_sweep_run,
 * vxp_roofline_new, vxp_cuda_generate) and the three returning a rendering or NULL
 * (vxp_program_sexp, vxp_analysis_json, vxp_analysis_sarif); each reports on the context
 * it is given or, when it takes none, on the context of the object it reads (a source's,
 * a program's, an analysis'). Accessors, which cannot fail, leave the state alone. Once
 * cached, the three renderings only clear a stale failure and write nothing to a clear
 * state, so a shared object's cached renderings may be read from several threads. So
 * "did the last call on this context fail" is vxp_context_errcode(ctx) != VXP_OK.
 *
 * Threads
 * -------
 * libvxpeak has no mutable global state and needs no initialisation call. A vxp_context,
 * and every object created from it, may be used by only one thread at a time; the library
 * does no locking. Different contexts may be used concurrently from different threads.
 * vxp_source, vxp_machine, vxp_program and vxp_analysis are immutable once created; their
 * read-only accessors may be called from several threads at once as long as no thread
 * frees the object. Three calls fill a cache on first use and so count as writes:
 * vxp_program_sexp, vxp_analysis_json and vxp_analysis_sarif; call them once before
 * sharing the object.
 * An immutable object may be an input to calls on other contexts: one machine model (or
 * program) can be analysed against from many threads, each with its own context, as
 * tests/unit/test_threads.c does under ThreadSanitizer (`make tsan`). The exception is
 * vxp_source_edit, which allocates from the context of the source it edits. Error state
 * belongs to the context, so read it on the thread that made the failing call, before any
 * other call on that context. The allocator hook is called on the thread using its
 * context.
 */
#ifndef VXPEAK_H
#define VXPEAK_H

#include <stddef.h>
#include <stdint.h>

/* The version macros and the declaration attributes every section uses. */

#define VXP_VERSION_MAJOR 0
#define VXP_VERSION_MINOR 1
#define VXP_VERSION_PATCH 0
#define VXP_VERSION_STRING "0.1.0"
/** major * 10000 + minor * 100 + patch */
#define VXP_VERSION_NUMBER (VXP_VERSION_MAJOR * 10000 + VXP_VERSION_MINOR * 100 + VXP_VERSION_PATCH)
/** True when the header is at least version maj.min.pat. */
#define VXP_VERSION_CHECK(maj, min, pat) (VXP_VERSION_NUMBER >= ((maj)*10000 + (min)*100 + (pat)))
/** The shared library's SONAME suffix: 0.MINOR before 1.0, MAJOR after. */
#define VXP_SOVERSION "0.1"

#if defined(_WIN32) && defined(VXP_BUILDING_DLL)
#define VXP_API __declspec(dllexport)
#elif defined(_WIN32) && defined(VXP_USING_DLL)
#define VXP_API __declspec(dllimport)
#elif defined(__GNUC__) && __GNUC__ >= 4
#define VXP_API __attribute__((visibility("default")))
#else
#define VXP_API
#endif

#if defined(__GNUC__) && __GNUC__ >= 4
#define VXP_WARN_UNUSED __attribute__((warn_unused_result))
#else
#define VXP_WARN_UNUSED
#endif

#ifdef __cplusplus
#define VXP_BEGIN_DECL extern "C" {
#define VXP_END_DECL }
#else
#define VXP_BEGIN_DECL
#define VXP_END_DECL
#endif

VXP_BEGIN_DECL

/* ================================================================== Contexts and errors */

/* ----------------------------------------------------------------------------- Versions */

/**
 * The library's version number (VXP_VERSION_NUMBER it was built with). Compare with the
 * header's VXP_VERSION_NUMBER to detect a header/library mismatch.
 */
VXP_API int vxp_version(void);

/** The library's version string. Static storage; never free it. */
VXP_API const char *vxp_version_string(void);

/** The tree-sitter language ABI version the bundled Vx grammar was generated for. */
VXP_API unsigned int vxp_grammar_abi(void);

/* ----------------------------------------------------- Return codes, positions, handles */

/** Return codes. Values are ABI and never reused. */
typedef enum vxp_error {
  VXP_OK = 0,
  VXP_ERROR = -1,      /**< generic failure; the context says what */
  VXP_ENOMEM = -2,     /**< an allocation failed */
  VXP_EINVAL = -3,     /**< misuse: a NULL handle, a bad option, an index out of range */
  VXP_EIO = -4,        /**< a file could not be read */
  VXP_ECANCELLED = -5, /**< the cancellation flag was raised or the time budget ran out */
  VXP_EVERSION = -6,   /**< grammar ABI or options struct version not supported */
  VXP_ENOTFOUND = -7,  /**< a named thing (machine, function, space) does not exist */
  VXP_EMISUSE = -8     /**< a handle of the wrong kind, or one already freed (Handle checks) */
  /* -31 was VXP_ITEROVER, for iterators the API never had (collections are count/index
   * pairs); it is not reused. */
} vxp_error;

/*
 * Handle checks. Every handle the caller frees (vxp_context, vxp_source, vxp_program,
 * vxp_machine, vxp_analysis, vxp_sweep, vxp_roofline, vxp_frontier, vxp_report,
 * vxp_formula, vxp_cuda) starts with a tag naming its kind, cleared when it is freed, and every
 * function taking one checks the tag before anything else (also the machines of vxp_analyze_options
 * and the arrays of vxp_report_sweep and vxp_report_sweep_grid). A handle of another kind, or one
 * already freed whose memory still holds the cleared tag, is refused: a function that
 * returns a code returns VXP_EMISUSE (with the message on `ctx` when it takes a live context),
 * an accessor returns its "nothing" value (0, NULL, an empty range), and a free does nothing.
 * NULL keeps its own documented meaning.
 *
 * What the check cannot catch: a pointer that is not a handle at all (it reads the first four
 * bytes of whatever the pointer points at, which may crash or, once in four billion, match);
 * a freed handle whose memory the allocator has reused or given back to the system (reading it
 * is undefined behaviour, and AddressSanitizer reports it); and the borrowed views that are
 * not freed by the caller (vxp_diagnostic, vxp_resident_set, vxp_record, vxp_scope,
 * vxp_route, vxp_call_tree, vxp_unresolved_call, vxp_sweep_point, vxp_frontier_point),
 * which carry no tag. It is a guard against mistakes that a binding's types could not stop,
 * not a security boundary; its cost is one load and compare per call (`make bench`,
 * bench_handle_tags). Built with -DVXP_NO_HANDLE_TAGS the checks are compiled out.
 */

/** A position: 0-based line, 0-based column counted in bytes (like TSPoint). Frozen. */
typedef struct vxp_point {
  uint32_t line;
  uint32_t column;
} vxp_point;

/** A half-open source range with byte offsets (like TSRange). Frozen. */
typedef struct vxp_range {
  vxp_point start;
  vxp_point end;
  uint32_t start_byte;
  uint32_t end_byte;
} vxp_range;

/** Diagnostic severity. Values are ABI. */
typedef enum vxp_severity {
  VXP_SEVERITY_NOTE = 1,
  VXP_SEVERITY_WARNING = 2,
  VXP_SEVERITY_ERROR = 3
} vxp_severity;

typedef struct vxp_context vxp_context;
typedef struct vxp_source vxp_source;
typedef struct vxp_program vxp_program;
typedef struct vxp_machine vxp_machine;
typedef struct vxp_analysis vxp_analysis;
typedef struct vxp_diagnostic vxp_diagnostic;
typedef struct vxp_resident_set vxp_resident_set;
typedef struct vxp_record vxp_record;
typedef struct vxp_scope vxp_scope;
typedef struct vxp_route vxp_route;
typedef struct vxp_call_tree vxp_call_tree;
typedef struct vxp_unresolved_call vxp_unresolved_call;
typedef struct vxp_cuda vxp_cuda;

/**
 * Static text for a return code (e.g. "out of memory"). Never NULL; never free it. Use it
 * when a constructor failed before a context existed.
 */
VXP_API const char *vxp_strerror(int code);

/* ---------------------------------------------------------------------------- Allocator */

/**
 * A custom allocator for everything libvxpeak allocates itself. `realloc` must accept a
 * NULL pointer (then it allocates). Any function may return NULL to signal failure;
 * libvxpeak then returns VXP_ENOMEM from the call that needed the memory, leaks nothing,
 * leaves its `out` parameter unset and never aborts (the test suite refuses each
 * allocation of a whole session in turn to check this). Calls that return a pointer
 * (vxp_analysis_json, vxp_program_sexp) return NULL instead, with VXP_ENOMEM on the
 * context. The allocator is called only from the thread using its context, so it needs no
 * locking unless it is shared by several contexts.
 *
 * Limits: tree-sitter's and jansson's internal allocations (syntax trees, JSON values) go
 * through their own global hooks, ts_set_allocator and json_set_alloc_funcs, which
 * libvxpeak never sets because they belong to the host program; whatever those libraries
 * allocate is given back through the same hooks, so a host may replace them. Note that
 * tree-sitter's default allocator aborts on exhaustion.
 */
typedef struct vxp_allocator {
  void *(*malloc)(size_t size, void *ud);
  void *(*realloc)(void *ptr, size_t size, void *ud);
  void (*free)(void *ptr, void *ud);
  void *ud;
} vxp_allocator;

/* ----------------------------------------------------------------------------- Contexts */

#define VXP_CONTEXT_OPTIONS_VERSION 1

/**
 * Options for vxp_context_new. Fields are only ever appended, and an append bumps
 * VXP_CONTEXT_OPTIONS_VERSION so that the library can tell an older caller's shorter
 * struct by its `version` (and read only the fields that version has).
 */
typedef struct vxp_context_options {
  unsigned int version;           /**< VXP_CONTEXT_OPTIONS_VERSION */
  const vxp_allocator *allocator; /**< NULL: the C library's malloc/realloc/free */
} vxp_context_options;

#define VXP_CONTEXT_OPTIONS_INIT                                                                   \
  { VXP_CONTEXT_OPTIONS_VERSION, NULL }

/**
 * Initialise `opts` with defaults for options-struct `version`.
 * @return VXP_OK, or VXP_EVERSION when `version` is unknown to this library.
 */
VXP_API int vxp_context_options_init(vxp_context_options *opts, unsigned int version);

/**
 * Create a context. `opts` may be NULL for defaults; the allocator it names is copied.
 * @param[out] out the new context, owned by the caller (free with vxp_context_free)
 * @return VXP_OK, VXP_ENOMEM, VXP_EINVAL (out is NULL), or VXP_EVERSION (options version or
 *         grammar ABI not supported by the tree-sitter runtime)
 */
VXP_API VXP_WARN_UNUSED int vxp_context_new(vxp_context **out, const vxp_context_options *opts);

/** Free a context. NULL is accepted. Free every object made from it first. */
VXP_API void vxp_context_free(vxp_context *ctx);

/**
 * The message of the latest call on `ctx` that can fail: why it failed, or "" when it
 * succeeded (or no such call was made). Borrowed from the context; valid until the next
 * call on it.
 */
VXP_API const char *vxp_context_errmsg(const vxp_context *ctx);

/**
 * The code of the latest call on `ctx` that can fail: its VXP_E* code, or VXP_OK when it
 * succeeded (or no such call was made). VXP_EINVAL for a NULL context.
 */
VXP_API int vxp_context_errcode(const vxp_context *ctx);

/*
 * Cancellation
 * ------------
 * Long calls can be stopped from outside: by a flag that another thread raises, as
 * tree-sitter's ts_parser_set_cancellation_flag and SQLite's sqlite3_interrupt allow, or
 * by a time budget per call. The calls that honour both are vxp_program_parse,
 * vxp_program_reparse, vxp_machine_load and vxp_machine_builtin (while parsing, then
 * before each top-level item while lowering a program or reading a machine model),
 * vxp_analyze (also while reading the program's own Memory/Topology items, and before each
 * function and each event of its body), vxp_sweep_run (whose analyses share one budget),
 * vxp_analysis_json, vxp_analysis_json_write and vxp_analysis_sarif (before each diagnostic),
 * vxp_roofline_new (before each event it walks and each record it prices for streaming) and
 * vxp_cuda_generate / vxp_cuda_generate_flags / vxp_cuda_generate_write (before each item
 * and each function it generates). A stopped call returns
 * VXP_ECANCELLED (or NULL, with that code on the context), leaves its `out` unset, frees
 * what it made and leaves the context usable; its message says whether the flag or the
 * budget stopped it. An editor cancels a stale analysis when the user types again, and a
 * build tool bounds each file's check.
 */

/**
 * Honour `*flag` from now on: while it is non-zero, every call listed above stops as soon
 * as it next checks (within milliseconds) and returns VXP_ECANCELLED; a call started while
 * it is raised returns at once. Any thread may raise it, with an atomic store (C11
 * atomic_store, __atomic_store_n) or, at least, a store of a size_t; libvxpeak only reads
 * it, with relaxed atomic loads, and never resets it: lower it before the next call.
 * `flag` is borrowed and must outlive its use by the context; NULL removes it. A NULL
 * context is ignored.
 */
VXP_API void vxp_context_set_cancel_flag(vxp_context *ctx, const size_t *flag);

/**
 * Give each call listed above at most `microseconds` of wall-clock (monotonic) time from
 * when it starts; one that runs out returns VXP_ECANCELLED. 0 (the default) removes the
 * budget. A sweep's analyses share the sweep's budget. A NULL context is ignored.
 */
VXP_API void vxp_context_set_time_budget(vxp_context *ctx, uint64_t microseconds);

/* ================================================================= Sources and programs */

/* ------------------------------------------------------------------------------ Sources */

/**
 * Create a source from bytes. The text is copied, so the caller's buffer may be freed at
 * once. `label` (typically the path) names the source in diagnostics and reports; it is
 * copied too and may be NULL ("<input>").
 * @param[out] out the new source, owned by the caller (vxp_source_free)
 * @return VXP_OK, VXP_ENOMEM, VXP_EINVAL
 */
VXP_API VXP_WARN_UNUSED int vxp_source_new(vxp_source **out, vxp_context *ctx, const char *label,
                                           const char *text, size_t len);

/**
 * Read a file into a new source labelled with `path`. At most 64 MiB are read: a larger
 * file (or an endless one, such as /dev/zero) is refused with VXP_EIO once that much has
 * been read, before any more memory is taken.
 * @param[out] out the new source, owned by the caller (vxp_source_free)
 * @return VXP_OK, VXP_EIO (the message names the path and the system's reason, or the
 *         64 MiB limit), VXP_ENOMEM, VXP_EINVAL
 */
VXP_API VXP_WARN_UNUSED int vxp_source_load_file(vxp_source **out, vxp_context *ctx,
                                                 const char *path);

/** Free a source. NULL is accepted. Free the programs and machines made from it first. */
VXP_API void vxp_source_free(vxp_source *src);

/** The source's label. Borrowed from the source. */
VXP_API const char *vxp_source_label(const vxp_source *src);

/**
 * The source's text (not NUL-terminated in general; a NUL follows it for convenience).
 * Borrowed from the source. `len` may be NULL.
 */
VXP_API const char *vxp_source_text(const vxp_source *src, size_t *len);

/**
 * The text of 0-based line `line` without its line terminator, or NULL when the line does
 * not exist. Borrowed from the source; `len` receives its byte length.
 */
VXP_API const char *vxp_source_line(const vxp_source *src, uint32_t line, size_t *len);

/** Number of lines in the source (a final line without a newline counts). */
VXP_API uint32_t vxp_source_line_count(const vxp_source *src);

/**
 * The UTF-16 code-unit column of `point` (whose column counts bytes), for LSP clients.
 * Invalid UTF-8 bytes count one unit each. A point past the end of its line is clamped.
 */
VXP_API uint32_t vxp_source_utf16_column(const vxp_source *src, vxp_point point);

/**
 * The byte offset of an LSP position: 0-based `line` and `utf16_column` counted in UTF-16
 * code units (vxp_source_utf16_column's inverse), so that an editor's didChange range
 * becomes the byte range vxp_source_edit takes. Clamped as LSP clamps a Position: a column
 * past the end of its line gives the line's end (before its terminator), a column inside a
 * surrogate pair gives the start of that character, and a line past the last one (such as
 * the empty line after a final newline) gives the end of the text. Invalid UTF-8 bytes
 * count one unit each.
 */
VXP_API uint32_t vxp_source_utf16_offset(const vxp_source *src, uint32_t line,
                                         uint32_t utf16_column);

/**
 * The point (0-based line, byte column) of byte `offset`, clamped to the text. An offset
 * just past a final newline is the end of the last line.
 */
VXP_API vxp_point vxp_source_point(const vxp_source *src, uint32_t offset);

/**
 * The byte offsets at which the lines start, in increasing order: vxp_source_line_count of
 * them, the first 0 (a line after a final newline is not listed, as vxp_source_line_count
 * does not count it). Borrowed from the source; `count` may be NULL. With it an editor
 * maps offsets to lines by binary search without asking line by line.
 */
VXP_API const uint32_t *vxp_source_line_starts(const vxp_source *src, size_t *count);

/* ----------------------------------------------------------------------------- Programs */

/**
 * Parse and lower a source into a program. A program with syntax errors is still a
 * program: VXP_OK is returned and the errors are its diagnostics; error recovery keeps the
 * unaffected items analysable.
 * @param[out] out the new program, owned by the caller (vxp_program_free). It borrows
 *             `src`, which must outlive it.
 * @return VXP_OK, VXP_ENOMEM, VXP_EINVAL, VXP_ERROR (the parser produced no tree)
 */
VXP_API VXP_WARN_UNUSED int vxp_program_parse(vxp_program **out, vxp_context *ctx,
                                              const vxp_source *src);

/** vxp_program_parse_flags: keep no syntax tree once the program is lowered. The tree is
 * the larger part of a parsed program (about 30 bytes per byte of dense source, more than
 * the model and an analysis of it together); a program that is only analysed (and
 * reported on) never reads it again. A text of more than 1 MiB is then parsed in windows
 * of whole top-level items (about 1 MiB each, each parsed twice: once for the signatures,
 * once for the rest), each window's tree freed before the next is parsed, so that no more
 * than one window's tree takes memory at a time; the program is the one a whole parse
 * gives. A window with a syntax error is parsed alone too: its error recovery stops at the
 * window's ends, so its diagnostics (and the model of its items) may differ from a whole
 * parse's, where recovery would read on into the next window; the verdict cannot: a text
 * has a syntax error in some window exactly when its whole parse has one. A text cut
 * (VXP0003), or with no place to start a window (no blank after an item), is parsed whole,
 * and its tree freed once lowered. Such a program has no cached S-expression
 * (vxp_program_sexp returns NULL with VXP_EINVAL on its context; vxp_program_write_sexp
 * writes it when the text was parsed in windows), its CUDA generated from its text parsed
 * again (vxp_cuda_generate: window by window when it was parsed in windows), and a reparse
 * of it parses afresh. */
#define VXP_PROGRAM_NO_TREE 1u

/** vxp_program_parse_flags, with VXP_PROGRAM_NO_TREE: a text that is parsed whole keeps its
 * tree; only a text parsed in windows keeps none. A program is then either one or the other,
 * so that vxp_program_write_sexp always writes it with at most one window's tree alive
 * (`vxpeak parse`), and CUDA generation never parses a text parsed whole again (`vxpeak
 * emit-cuda`). Without VXP_PROGRAM_NO_TREE it changes nothing. */
#define VXP_PROGRAM_KEEP_WHOLE_TREE 2u

/** vxp_program_parse_flags: keep what a later vxp_program_reparse reuses (the top-level
 * items' records, their lowering marks, the parsable-length scan's states), as a program a
 * reparse made keeps them, so that an editor's first edit after opening a file is reparsed
 * (and analysed, by vxp_analyze_incremental from the analysis of this program) as cheaply as
 * the later ones; without it that first reparse lowers and analyses the whole program. The
 * program is the same; it takes a little more memory (tens of bytes per top-level item). Not
 * with VXP_PROGRAM_NO_TREE. */
#define VXP_PROGRAM_FOR_EDITING 4u

/**
 * Parse and lower a source into a program, choosing what the program keeps: `flags` is 0
 * (the same as vxp_program_parse), VXP_PROGRAM_NO_TREE, with or without
 * VXP_PROGRAM_KEEP_WHOLE_TREE, or VXP_PROGRAM_FOR_EDITING. Ownership as vxp_program_parse.
 * @return VXP_OK, VXP_ENOMEM, VXP_EINVAL (also for an unknown flag, or VXP_PROGRAM_FOR_EDITING
 *         with VXP_PROGRAM_NO_TREE), VXP_ERROR (the parser produced no tree), VXP_ECANCELLED;
 *         failures are reported on `ctx`
 */
VXP_API VXP_WARN_UNUSED int vxp_program_parse_flags(vxp_program **out, vxp_context *ctx,
                                                    const vxp_source *src, unsigned int flags);

/** Free a program. NULL is accepted. Free analyses of it first. */
VXP_API void vxp_program_free(vxp_program *prog);

/** The source the program was parsed from. Borrowed. */
VXP_API const vxp_source *vxp_program_source(const vxp_program *prog);

/** Number of the program's `const` items, in source order (`vxpeak advise` tries each). */
VXP_API size_t vxp_program_const_count(const vxp_program *prog);

/** The name of const item `i` as written, or NULL when out of range. Borrowed. */
VXP_API const char *vxp_program_const_name(const vxp_program *prog, size_t i);

/** Number of syntax and lowering diagnostics on the program. */
VXP_API size_t vxp_program_diagnostic_count(const vxp_program *prog);

/** Diagnostic `i` of the program, or NULL when out of range. Borrowed from the program. */
VXP_API const vxp_diagnostic *vxp_program_diagnostic(const vxp_program *prog, size_t i);

/**
 * A sink for text that a call streams instead of returning it whole (vxp_report_plot_write,
 * vxp_program_write_sexp, vxp_analysis_json_write, vxp_cuda_generate_write): called with
 * consecutive pieces of the text in order, none empty,
 * each borrowed for the duration of the call. Returns 0 to go on; anything else stops the
 * call that is writing, which then returns VXP_EIO. `arg` is the caller's, passed through.
 */
typedef int (*vxp_write_fn)(void *arg, const char *bytes, size_t len);

/**
 * The syntax tree as an S-expression (tree-sitter's node notation). Rendered on first
 * call and cached; borrowed from the program. A program a reparse made from the window
 * around an edit (see vxp_program_reparse) keeps no whole tree: its text is parsed again for
 * it (the same tree). NULL on allocation failure, VXP_ECANCELLED when that parse is stopped
 * (see Cancellation), or (VXP_EINVAL on the program's context) when the program keeps no tree
 * (VXP_PROGRAM_NO_TREE).
 */
VXP_API const char *vxp_program_sexp(vxp_program *prog);

/**
 * The S-expression of vxp_program_sexp, byte for byte, written to `write` (vxp_write_fn) as
 * the tree is walked, so that the text is never held whole: the memory it takes is a buffer
 * of 64 KiB beside the tree. A program parsed with VXP_PROGRAM_NO_TREE keeps no tree, but
 * when it was parsed in windows (a long text, VXP_PARSE_WINDOW) each window is parsed again,
 * written and freed in turn, so that no more than one window's tree lives (`vxpeak parse`
 * prints a long text so): "(source_file", the children of each window's root in order, and
 * ")". A window with a syntax error is written as its tree parsed alone (its children, or
 * its root when that is an ERROR node, as one child), which need not be what the whole
 * tree holds there; without syntax errors the text is the whole tree's, byte for byte. A
 * program a reparse made from the window around an edit has its text parsed again, whole.
 * Nothing is cached; the program is only read.
 * A failure after the first write leaves what was written incomplete.
 * @return VXP_OK, VXP_ENOMEM, VXP_ECANCELLED, VXP_EIO when `write` returned non-zero, or
 *         VXP_EINVAL (a NULL argument, or a program that keeps no tree and was parsed whole);
 *         failures are reported on the program's context
 */
VXP_API VXP_WARN_UNUSED int vxp_program_write_sexp(const vxp_program *prog, vxp_write_fn write,
                                                   void *arg);

/**
 * Whether the program declares a machine model of its own (a Topology, or a Memory space
 * with a `capacity`): 1 when it does, else 0. Tools use this to decide whether to supply a default
 * machine (the `vxpeak` command uses the built-in `a100-40` only for programs that declare none).
 */
VXP_API int vxp_program_declares_machine(const vxp_program *prog);

/*
 * The program's items, as an editor outlines them (document symbols, a lens per
 * function): every function, method and closure of the lowered model, then every `const`
 * item. Indices are stable for one program only.
 */

/** Number of items: functions (methods and closures included), then const items. */
VXP_API size_t vxp_program_item_count(const vxp_program *prog);

/** What an item is (vxp_program_item_type). Values are ABI. */
typedef enum vxp_item_type {
  VXP_ITEM_TYPE_NONE = 0,     /**< no such item */
  VXP_ITEM_TYPE_FUNCTION = 1, /**< a function or method */
  VXP_ITEM_TYPE_CLOSURE = 2,  /**< a closure */
  VXP_ITEM_TYPE_CONST = 3     /**< a `const` item */
} vxp_item_type;

/** Item `i`'s type; VXP_ITEM_TYPE_NONE when out of range. */
VXP_API vxp_item_type vxp_program_item_type(const vxp_program *prog, size_t i);

/** The word for an item type: "function", "closure" or "const"; NULL for
 * VXP_ITEM_TYPE_NONE or a value not in vxp_item_type. Static storage. */
VXP_API const char *vxp_item_type_name(vxp_item_type type);

/** Item `i`'s type as a word, the older spelling of
 * vxp_item_type_name(vxp_program_item_type(prog, i)): "function", "closure" or "const"; NULL
 * when out of range. Static storage. */
VXP_API const char *vxp_program_item_kind(const vxp_program *prog, size_t i);

/**
 * Item `i`'s name (`Type::method` for methods, `{closure@LINE:COL}` for closures), or NULL
 * when out of range. Borrowed from the program.
 */
VXP_API const char *vxp_program_item_name(const vxp_program *prog, size_t i);

/** Where item `i` is written, from its first to its last byte (all zero when out of range). */
VXP_API vxp_range vxp_program_item_range(const vxp_program *prog, size_t i);

/**
 * Item `i`'s name as written (a function's name token; a closure's or const item's whole
 * text), all zero when out of range.
 */
VXP_API vxp_range vxp_program_item_name_range(const vxp_program *prog, size_t i);

/* ============================================================================= Machines */

/**
 * Read the Memory and Topology declarations of a machine file (a fleet model such as
 * `fleet/a100-40.vx`, or a host file). Other items in the file are ignored. Problems in
 * the declarations (bad units, syntax errors) are diagnostics on the machine; VXP_OK is
 * still returned.
 * @param[out] out the new machine, owned by the caller (vxp_machine_free). It borrows
 *             `src`, which must outlive it.
 * @return VXP_OK, VXP_ENOMEM, VXP_EINVAL, VXP_ECANCELLED (see Cancellation)
 */
VXP_API VXP_WARN_UNUSED int vxp_machine_load(vxp_machine **out, vxp_context *ctx,
                                             const vxp_source *src);

/**
 * A machine model compiled into the library, by name: every model of the fleet (the
 * `fleet/` directory of the source tree, installed in the directory
 * `pkg-config --variable=fleetdir vxpeak` names) is, among them "a100-40" (the command's
 * default device) and "host-default" (`Memory CPU_DRAM { managed: explicit }`, what
 * `--host default` means). vxp_machine_builtin_count and vxp_machine_builtin_name list them.
 * @param[out] out the new machine, owned by the caller (vxp_machine_free)
 * @return VXP_OK, VXP_ENOTFOUND (no such built-in), VXP_ENOMEM, VXP_EINVAL
 */
VXP_API VXP_WARN_UNUSED int vxp_machine_builtin(vxp_machine **out, vxp_context *ctx,
                                                const char *name);

/**
 * The name of the built-in device a program that declares no machine model is analysed on
 * ("a100-40"): vxp_analyze, vxp_sweep_run and vxp_frontier_run use it when their options
 * give no machine and the program declares none (vxp_program_declares_machine), as the
 * `vxpeak` command does. Static storage.
 */
VXP_API const char *vxp_default_machine(void);

/**
 * The name of the built-in host used with vxp_default_machine when the options give no host
 * ("host-default": `Memory CPU_DRAM { managed: explicit }`). Static storage.
 */
VXP_API const char *vxp_default_host(void);

/** Number of built-in machine models (they are listed sorted by name). */
VXP_API size_t vxp_machine_builtin_count(void);

/** The name of built-in model `i` ("a100-40"), or NULL when out of range. Static storage. */
VXP_API const char *vxp_machine_builtin_name(size_t i);

/**
 * What built-in model `i` is, one line ("NVIDIA A100 SXM4 40GB: the memory hierarchy of one
 * GPU."), or NULL when out of range. Static storage.
 */
VXP_API const char *vxp_machine_builtin_label(size_t i);

/**
 * The file built-in model `i` was compiled from ("a100-40.vx"), a name in the installed
 * fleet directory (`pkg-config --variable=fleetdir vxpeak`), or NULL when out of range.
 * Static storage.
 */
VXP_API const char *vxp_machine_builtin_file(size_t i);

/** Free a machine. NULL is accepted. Free analyses that use it first. */
VXP_API void vxp_machine_free(vxp_machine *machine);

/** The machine's label (its source's label, or the built-in name). Borrowed. */
VXP_API const char *vxp_machine_label(const vxp_machine *machine);

/** Number of diagnostics found while reading the machine's declarations. */
VXP_API size_t vxp_machine_diagnostic_count(const vxp_machine *machine);

/** Diagnostic `i` of the machine, or NULL when out of range. Borrowed from the machine. */
VXP_API const vxp_diagnostic *vxp_machine_diagnostic(const vxp_machine *machine, size_t i);

/* ================================================================ Analyses and verdicts */

/* ---------------------------------------------------------------------------- Analysing */

#define VXP_ANALYZE_OPTIONS_VERSION 3

/**
 * A constant override (`vxpeak check -D NAME=VALUE`): while folding shapes, loop bounds and
 * `if comptime` conditions, NAME has VALUE instead of what the program's `const NAME` item
 * says (or, for a name the program does not define, a value at all). Frozen.
 */
typedef struct vxp_const_override {
  const char *name; /**< the name as written in the program; copied */
  uint64_t value;
} vxp_const_override;

/**
 * An element type for every tile of one role (`vxpeak check --retype "KV cache=f8e4m3"`):
 * each placement whose `// role:` label is `role` is analysed as if its tensor type's
 * element were `type`, so that a precision can be tried without editing the program.
 * Frozen.
 */
typedef struct vxp_retype {
  const char *role; /**< a role the program names, exactly as written; copied */
  const char *type; /**< an element type's Vx spelling (f8e4m3, i8, i4, bf16, ...) */
} vxp_retype;

/**
 * Options for vxp_analyze. Fields are only ever appended, and an append bumps
 * VXP_ANALYZE_OPTIONS_VERSION so that the library can tell an older caller's shorter
 * struct by its `version` (and read only the fields that version has). Version 1 ends
 * with `override_count`; version 2 adds `machine_only`; version 3 `retypes`. All are
 * accepted.
 */
typedef struct vxp_analyze_options {
  unsigned int version;       /**< VXP_ANALYZE_OPTIONS_VERSION */
  const vxp_machine *machine; /**< device model (`--machine`), or NULL: the program's own */
  const vxp_machine *host;    /**< host model (`--host`), or NULL */
  /**
   * `override_count` constant overrides, or NULL. Copied by vxp_analyze; when a name
   * appears twice the later entry counts. A name the program never mentions is reported
   * as warning VXP0020.
   */
  const vxp_const_override *overrides;
  size_t override_count;
  /**
   * (Version 2.) Non-zero: check the program against `machine` (and `host`) in place of
   * its own Memory and Topology declarations, which are then ignored, so that a fleet
   * model can be tried on a program that declares a model of its own (without, they
   * declare the same spaces twice: E6012). Requires `machine` (VXP_EINVAL otherwise).
   * `vxpeak check --machine-only`.
   */
  int machine_only;
  /**
   * (Version 3.) `retype_count` element types by role, or NULL; a later entry for the same
   * role counts. A role no placement has, or a type that is no element type, makes
   * vxp_analyze fail with VXP_ENOTFOUND and a message listing the program's roles, or the
   * element types. `vxpeak check --retype ROLE=TYPE`.
   */
  const vxp_retype *retypes;
  size_t retype_count;
} vxp_analyze_options;

#define VXP_ANALYZE_OPTIONS_INIT                                                                   \
  { VXP_ANALYZE_OPTIONS_VERSION, NULL, NULL, NULL, 0, 0, NULL, 0 }

/**
 * Initialise `opts` with defaults for options-struct `version`.
 * @return VXP_OK, or VXP_EVERSION when `version` is unknown to this library.
 */
VXP_API int vxp_analyze_options_init(vxp_analyze_options *opts, unsigned int version);

/**
 * Analyse a program against the machine model made of the program's own declarations
 * (unless `opts->machine_only`), `opts->machine` and `opts->host`. A program that declares
 * no machine model (vxp_program_declares_machine) and is given no `opts->machine` is
 * analysed on the built-in vxp_default_machine() with `opts->host` or, without one, the
 * built-in vxp_default_host(), which the analysis owns: the peaks `vxpeak check` gives.
 * The verdict, peaks and diagnostics are on the result. `prog` and the machines are only
 * read, and may belong to other contexts (one machine model shared by the contexts of
 * several threads, for instance).
 * @param[out] out the new analysis, owned by the caller (vxp_analysis_free). It borrows
 *             `prog` and the machines, which must outlive it.
 * @return VXP_OK, VXP_ENOMEM, VXP_EINVAL (also: an override without a name, or a count
 *         without overrides), VXP_EVERSION (options version)
 */
VXP_API VXP_WARN_UNUSED int vxp_analyze(vxp_analysis **out, vxp_context *ctx,
                                        const vxp_program *prog, const vxp_analyze_options *opts);

/** Free an analysis. NULL is accepted. */
VXP_API void vxp_analysis_free(vxp_analysis *an);

/**
 * The verdict: 1 when the program is admitted (no error diagnostic), 0 when rejected.
 *
 * What admitted guarantees: at least one function was analysed (VXP0040 otherwise); every
 * machine input was a machine model (VXP0041, VXP0042 otherwise); every name the analysis
 * depends on resolved (a space, topology, constant, element type or function that denotes
 * nothing is E6025, E2001, E1012, E2002 or E1011, never a silent omission); every placement
 * into a space with a capacity had its bytes and its space determined, or its shape depends
 * on a declared run-time value and the program was told so (warning W1029, the only way a
 * tile's bytes stay out of a budget); and every such capacity held, per tile (E6009), per
 * function (E6010) and over every call path (E6027, E6028), except in spaces declared
 * `overcommit` (W1028). A syntax error anywhere also rejects. Warnings do not reject: read
 * W1029 before trusting a verdict on a program with run-time shapes.
 */
VXP_API int vxp_analysis_admitted(const vxp_analysis *an);

/** Number of error diagnostics (syntax, machine and analysis errors together). */
VXP_API size_t vxp_analysis_error_count(const vxp_analysis *an);

/** Number of warning diagnostics. */
VXP_API size_t vxp_analysis_warning_count(const vxp_analysis *an);

/**
 * Number of diagnostics: the program's, the machines', then the analysis' own, in that
 * order.
 */
VXP_API size_t vxp_analysis_diagnostic_count(const vxp_analysis *an);

/** Diagnostic `i`, or NULL when out of range. Borrowed from the analysis. */
VXP_API const vxp_diagnostic *vxp_analysis_diagnostic(const vxp_analysis *an, size_t i);

/** Number of resident sets: one per (function, space with a capacity) that got a tile. */
VXP_API size_t vxp_analysis_resident_set_count(const vxp_analysis *an);

/** Resident set `i`, or NULL when out of range. Borrowed from the analysis. */
VXP_API const vxp_resident_set *vxp_analysis_resident_set(const vxp_analysis *an, size_t i);

/** Number of allocation records (tiles), over all functions, in program order. */
VXP_API size_t vxp_analysis_record_count(const vxp_analysis *an);

/** Record `i`, or NULL when out of range. Borrowed from the analysis. */
VXP_API const vxp_record *vxp_analysis_record(const vxp_analysis *an, size_t i);

/**
 * Number of analysed functions: the functions and closures that need no generic arguments,
 * in program order, then the generic instances the program reaches, in the order found
 * (named as vxp_analysis_call_tree_count says).
 */
VXP_API size_t vxp_analysis_function_count(const vxp_analysis *an);

/**
 * The name of analysed function `i` (`Type::method` for methods), or NULL when out of
 * range. Borrowed from the analysis.
 */
VXP_API const char *vxp_analysis_function(const vxp_analysis *an, size_t i);

/**
 * Number of routes: one per hop of every transfer whose route was found, over all
 * functions, in program order. A transfer with no direct edge is staged through
 * intermediate spaces and yields one route per hop.
 */
VXP_API size_t vxp_analysis_route_count(const vxp_analysis *an);

/** Route `i`, or NULL when out of range. Borrowed from the analysis. */
VXP_API const vxp_route *vxp_analysis_route(const vxp_analysis *an, size_t i);

/**
 * Number of call trees: one per (analysed function, space with a capacity) whose own peak
 * or call-tree total is not zero, by function in analysis order, then by space name.
 * Functions are those needing no generic arguments, in program order, then the generic
 * instances the calls reach, in the order found. An instance is named after its function
 * with its generic arguments: "admit<80, 64, 8, 128, 4096, 1, 1>", "stage<i32>" ('?' for an
 * argument neither written nor inferable from the call's arguments).
 */
VXP_API size_t vxp_analysis_call_tree_count(const vxp_analysis *an);

/** Call tree `i`, or NULL when out of range. Borrowed from the analysis. */
VXP_API const vxp_call_tree *vxp_analysis_call_tree(const vxp_analysis *an, size_t i);

/**
 * Number of calls of user code the analysis could not follow: through a function value,
 * to an extern function, to a name the program does not define, or a method on a value of
 * unknown type. What they call contributes nothing to the call-tree totals. In call order.
 */
VXP_API size_t vxp_analysis_unresolved_call_count(const vxp_analysis *an);

/** Unresolved call `i`, or NULL when out of range. Borrowed from the analysis. */
VXP_API const vxp_unresolved_call *vxp_analysis_unresolved_call(const vxp_analysis *an, size_t i);

/* -------------------------------------------------------------------------- Diagnostics */

/** How serious a diagnostic is: an error rejects, a warning does not, a note explains. */
VXP_API vxp_severity vxp_diagnostic_severity(const vxp_diagnostic *d);

/**
 * The stable code ("E6010", "W1029", "VXP0001" for syntax errors), or NULL when the
 * diagnostic has none. Borrowed from the diagnostic's owner.
 */
VXP_API const char *vxp_diagnostic_code(const vxp_diagnostic *d);

/** What the diagnostic says, in UTF-8. Borrowed from the diagnostic's owner. */
VXP_API const char *vxp_diagnostic_message(const vxp_diagnostic *d);

/**
 * The analysed function (or generic instance, e.g. "admit<32, 32, 32, 128, 4096, 1, 1>")
 * the diagnostic is about, or NULL (syntax and machine diagnostics, struct fields).
 * Borrowed from the analysis.
 */
VXP_API const char *vxp_diagnostic_function(const vxp_diagnostic *d);

/** Whether the diagnostic points into a source: 1 when it has a range, 0 when it does not
 * (e.g. a whole-program fact). */
VXP_API int vxp_diagnostic_has_range(const vxp_diagnostic *d);

/** The source the range refers to, or NULL when there is no range. Borrowed. */
VXP_API const vxp_source *vxp_diagnostic_source(const vxp_diagnostic *d);

/** The range (all zero when there is none). */
VXP_API vxp_range vxp_diagnostic_range(const vxp_diagnostic *d);

/** Number of notes attached to the diagnostic. */
VXP_API size_t vxp_diagnostic_note_count(const vxp_diagnostic *d);

/** Note `i` (a diagnostic of severity NOTE), or NULL. Borrowed from the owner. */
VXP_API const vxp_diagnostic *vxp_diagnostic_note(const vxp_diagnostic *d, size_t i);

/** Whether a note suggests a fix (rendered `help:`): 1 when it does, 0 for a plain note or
 * a diagnostic. */
VXP_API int vxp_diagnostic_is_help(const vxp_diagnostic *d);

/** vxp_diagnostic_render flag: colour with ANSI escape sequences (for a terminal). */
#define VXP_RENDER_COLOR 1u

/**
 * Render a diagnostic in the compiler form the `vxpeak` command prints:
 *
 *     file.vx:12:7: error[E6010]: message
 *        |
 *     12 | the source line
 *        |       ^^^^^ (under the range; a window of 120 bytes of a long line)
 *     note: message
 *       --> file.vx:3:1
 *     ...
 *       = help: message (a note without a range)
 *
 * (lines and columns 1-based, columns in bytes), "vxpeak: error[CODE]: message" for a
 * diagnostic without a range, then its notes and help lines. `flags` is 0 or
 * VXP_RENDER_COLOR. Written like snprintf: at most `size` bytes including a terminating NUL
 * go to `buf` (which may be NULL when `size` is 0), and the return value is the length of
 * the whole rendering, without the NUL; call once with size 0 to learn how much to
 * allocate. Allocates nothing and writes nothing else, so it may be called from any thread
 * that may read the diagnostic. A NULL diagnostic renders as "".
 */
VXP_API size_t vxp_diagnostic_render(const vxp_diagnostic *d, unsigned int flags, char *buf,
                                     size_t size);

/* ---------------------------------------------------------------- Constants as analysed */

/**
 * The value of the program's `const NAME` as analysis `an` folds it (a -D override of it
 * first, when given).
 * @return VXP_OK and `*out` set; VXP_ENOTFOUND (no such const item, or it does not fold to a
 *         non-negative integer: the reason is on the analysis' context); VXP_EINVAL
 */
VXP_API VXP_WARN_UNUSED int vxp_analysis_const_value(const vxp_analysis *an, const char *name,
                                                     uint64_t *out);

/* =================================================================== Records and scopes */

/* ------------------------------------------------------------------------ Resident sets */

/** The function the resident set belongs to. Borrowed from the analysis. */
VXP_API const char *vxp_resident_set_function(const vxp_resident_set *rs);

/** The memory space's name (e.g. "HBM"). Borrowed from the analysis. */
VXP_API const char *vxp_resident_set_space(const vxp_resident_set *rs);

/** The peak: the largest number of bytes live at once in the space during the function. */
VXP_API uint64_t vxp_resident_set_peak_bytes(const vxp_resident_set *rs);

/** The space's capacity in bytes. */
VXP_API uint64_t vxp_resident_set_capacity_bytes(const vxp_resident_set *rs);

/**
 * The bytes the peak may reach in the space with `margin_ppm` millionths kept free: that share
 * of what the device offers (the capacity plus the overheads a calibrated model's `// overhead:`
 * lines took out of it, `vxpeak calibrate`) less those overheads, rounded down; without
 * overheads, capacity x (10^6 - margin_ppm) / 10^6. 0 for NULL, a space without a capacity,
 * or a margin of 10^6 or more.
 */
VXP_API uint64_t vxp_resident_set_budget_bytes(const vxp_resident_set *rs, uint32_t margin_ppm);

/** Number of tiles live at the peak (at least 1). */
VXP_API size_t vxp_resident_set_tile_count(const vxp_resident_set *rs);

/** Whether the space is declared `overcommit` (its excess is W1028, not an error): 1 when
 * it is, else 0. */
VXP_API int vxp_resident_set_overcommit(const vxp_resident_set *rs);

/** Number of records (tiles) the function places in the space, live at the peak or not. */
VXP_API size_t vxp_resident_set_record_count(const vxp_resident_set *rs);

/** Record `i` of the resident set, in program order, or NULL. Borrowed from the analysis. */
VXP_API const vxp_record *vxp_resident_set_record(const vxp_resident_set *rs, size_t i);

/**
 * The naive sum over the run: every placement's bytes times its loop trip counts.
 * @return 1 and sets `*out` when the sum is known; 0 when a trip count is not static.
 */
VXP_API int vxp_resident_set_allocated_bytes(const vxp_resident_set *rs, uint64_t *out);

/* ------------------------------------------------------------------------------ Records */

/** The function that placed the tile. Borrowed from the analysis. */
VXP_API const char *vxp_record_function(const vxp_record *rec);

/** The memory space the tile is placed in. Borrowed from the analysis. */
VXP_API const char *vxp_record_space(const vxp_record *rec);

/** The variable the tile is bound to, or NULL when unbound. Borrowed from the analysis. */
VXP_API const char *vxp_record_binding(const vxp_record *rec);

/** The tile's bytes, rounded up to the space's granule. */
VXP_API uint64_t vxp_record_bytes(const vxp_record *rec);

/** Number of releasing blocks enclosing the placement (0 = function scope). */
VXP_API uint32_t vxp_record_scope_depth(const vxp_record *rec);

/**
 * The innermost scope enclosing the placement: a block (`for`, `if`, `spawn`...) or, at
 * the top of the body, the function's own scope. Follow vxp_scope_parent to the function
 * for the whole chain. Borrowed from the analysis; never NULL for a record of an analysis.
 */
VXP_API const vxp_scope *vxp_record_scope(const vxp_record *rec);

/** Position of the placement in its function's program order (0-based). */
VXP_API uint32_t vxp_record_order(const vxp_record *rec);

/** Where the placement is written. */
VXP_API vxp_range vxp_record_range(const vxp_record *rec);

/** Whether the tile is among those that make its space's peak in its function: 1 when it
 * is live at the peak, else 0. */
VXP_API int vxp_record_live_at_peak(const vxp_record *rec);

/**
 * The role the program names for the tile in a comment, or NULL. A comment
 * `// role: NAME` at the end of the placement's line names that placement's role; on a line
 * of its own it names the role of every placement below it in the same paragraph (up to a
 * blank line, the next role comment, or a line that opens or closes a block). Borrowed from
 * the analysis.
 */
VXP_API const char *vxp_record_role(const vxp_record *rec);

/**
 * When the tile is freed: 1 and `*out` set to the last position in its function's program
 * order (vxp_record_order's numbering) at which it is live, when it is released before the
 * function returns (the end of its releasing block, or at once when never read); 0 when it
 * is held until the function returns. The bytes live at position p are those of the tiles
 * with order <= p and (not released, or release order >= p): the peak is their maximum.
 */
VXP_API int vxp_record_release_order(const vxp_record *rec, uint32_t *out);

/**
 * How many times the placement runs in one call of its function: 1 and `*out` set to the
 * product of the enclosing `for` loops' trip counts (saturated to UINT64_MAX) when they
 * are static; 0 when a trip count is not (a `loop`, a `while`, a bound that does not fold).
 */
VXP_API int vxp_record_runs(const vxp_record *rec, uint64_t *out);

/* ------------------------------------------------------------------------------- Scopes */

/*
 * The blocks of the analysed functions as the analysis walked them (a generic function's
 * once per instance): a record's scope chain runs from vxp_record_scope through
 * vxp_scope_parent to its function's scope. Releasing scopes (if, else, for, loop) free
 * their tiles at their end; vxp_record_scope_depth counts them.
 */

/** The enclosing scope, or NULL for a function's own scope. Borrowed from the analysis. */
VXP_API const vxp_scope *vxp_scope_parent(const vxp_scope *sc);

/** What opens a scope (vxp_scope_type_of). Values are ABI. */
typedef enum vxp_scope_type {
  VXP_SCOPE_NONE = 0,      /**< no scope (NULL) */
  VXP_SCOPE_FUNCTION = 1,  /**< the function's own scope */
  VXP_SCOPE_IF = 2,        /**< the then-arm of `if` (releases its tiles) */
  VXP_SCOPE_ELSE = 3,      /**< an `else` arm (releases) */
  VXP_SCOPE_FOR = 4,       /**< a `for` body (releases) */
  VXP_SCOPE_LOOP = 5,      /**< a `loop` body (releases) */
  VXP_SCOPE_SPAWN = 6,     /**< a `spawn on(...)` region */
  VXP_SCOPE_MATCH_ARM = 7, /**< a `match` arm */
  VXP_SCOPE_UNSAFE = 8,    /**< an `unsafe` block */
  VXP_SCOPE_COMPTIME = 9,  /**< a `comptime if` arm */
  VXP_SCOPE_BLOCK = 10     /**< any other block */
} vxp_scope_type;

/** The scope's type; VXP_SCOPE_NONE for NULL. */
VXP_API vxp_scope_type vxp_scope_type_of(const vxp_scope *sc);

/** The word for a scope type, as the JSON report writes it: "function", "if", "else",
 * "for", "loop", "spawn", "match_arm", "unsafe", "comptime" or "block"; NULL for
 * VXP_SCOPE_NONE or a value not in vxp_scope_type. Static storage. */
VXP_API const char *vxp_scope_type_name(vxp_scope_type type);

/** The scope's type as a word, the older spelling of
 * vxp_scope_type_name(vxp_scope_type_of(sc)). Static storage. */
VXP_API const char *vxp_scope_kind(const vxp_scope *sc);

/** The scope's number, unique within its analysis (equal ids: the same scope). */
VXP_API uint32_t vxp_scope_id(const vxp_scope *sc);

/** Where the scope is written: the construct that opens the block, or the whole function. */
VXP_API vxp_range vxp_scope_range(const vxp_scope *sc);

/** Whether the scope gives its tiles back at its end: 1 for a releasing block (if, else,
 * for, loop), else 0. */
VXP_API int vxp_scope_releases(const vxp_scope *sc);

/** The analysed function (or instance) the scope belongs to. Borrowed from the analysis. */
VXP_API const char *vxp_scope_function(const vxp_scope *sc);

/* ------------------------------------------------------------------------------- Routes */

/** The function whose transfer the route belongs to. Borrowed from the analysis. */
VXP_API const char *vxp_route_function(const vxp_route *route);

/**
 * Number of memory spaces on the route (at least 2): the hop's source first, its destination
 * last. A space without edges of its own is routed through its `within:` ancestors (vxc's
 * rule): its route then starts with a step up the tree from the source to the ancestor the
 * edges leave from, or ends with a step down to the destination, or is that one step alone
 * (a transfer from SMEM up to its ancestor HBM routes SMEM -> HBM).
 */
VXP_API size_t vxp_route_path_length(const vxp_route *route);

/** Space `i` of the route, or NULL when out of range. Borrowed from the analysis. */
VXP_API const char *vxp_route_path_space(const vxp_route *route, size_t i);

/**
 * The routing weight of edge `i` (from space i to space i + 1): 1 and `*out` set when it is
 * an integer: the one the edge declares (`: 5`; the least when several topologies declare the
 * edge), Vx's built-in weight for one of its built-in edges (CPU_DRAM -> GPU_HBM weighs 50),
 * or 0 for a step along the `within:` tree, which routing does not charge; 0 when the edge
 * has none (it declares a rate, or nothing), and then it weighs 1.
 */
VXP_API int vxp_route_edge_cost(const vxp_route *route, size_t i, uint64_t *out);

/**
 * The route's total routing weight (unitless): the sum of its edges' weights, an edge
 * without an integer weight counting 1. Not a prediction: vxp_route_derived_cost is.
 */
VXP_API uint64_t vxp_route_total_cost(const vxp_route *route);

/** The bytes the hop moves: 1 and `*out` set when the tile's size is static; 0 otherwise. */
VXP_API int vxp_route_bytes(const vxp_route *route, uint64_t *out);

/**
 * The hop's derived cost, in vxp_route_derived_unit's unit: 1 and `*out` set when one is
 * derivable; 0 otherwise (no rate on the edge and no bandwidths along the spaces).
 */
VXP_API int vxp_route_derived_cost(const vxp_route *route, uint64_t *out);

/** The unit of a route's derived cost (vxp_route_cost_unit). Values are ABI. */
typedef enum vxp_cost_unit {
  VXP_COST_UNIT_NONE = 0,  /**< no derived cost */
  VXP_COST_UNIT_PS = 1,    /**< picoseconds (rates per second) */
  VXP_COST_UNIT_CYCLES = 2 /**< cycles (rates per cycle) */
} vxp_cost_unit;

/** Where a route's derived cost comes from (vxp_route_cost_basis). Values are ABI. */
typedef enum vxp_cost_basis {
  VXP_COST_BASIS_NONE = 0,       /**< no derived cost */
  VXP_COST_BASIS_LINK_RATE = 1,  /**< the edge declares a rate */
  VXP_COST_BASIS_CONTAINMENT = 2 /**< the spaces' bandwidths along the within: tree */
} vxp_cost_basis;

/** How a containment cost combines its legs (vxp_route_cost_composition). Values are ABI. */
typedef enum vxp_cost_composition {
  VXP_COST_COMPOSITION_NONE = 0,      /**< a link rate, or no cost */
  VXP_COST_COMPOSITION_SUM = 1,       /**< the legs add (`crossing: sequenced`) */
  VXP_COST_COMPOSITION_BOTTLENECK = 2 /**< the slowest leg sets it (`crossing: streamed`) */
} vxp_cost_composition;

/** The unit of vxp_route_derived_cost; VXP_COST_UNIT_NONE when there is none. */
VXP_API vxp_cost_unit vxp_route_cost_unit(const vxp_route *route);

/** Where the derived cost comes from; VXP_COST_BASIS_NONE when there is none. */
VXP_API vxp_cost_basis vxp_route_cost_basis(const vxp_route *route);

/** How the derived cost combines its legs; VXP_COST_COMPOSITION_NONE for a link rate. */
VXP_API vxp_cost_composition vxp_route_cost_composition(const vxp_route *route);

/** The word for a cost unit: "ps" or "cyc"; NULL for VXP_COST_UNIT_NONE or a value not in
 * the set. Static storage. */
VXP_API const char *vxp_cost_unit_name(vxp_cost_unit unit);

/** The word for a cost basis: "link_rate" or "containment"; NULL for NONE or a value not in
 * the set. Static storage. */
VXP_API const char *vxp_cost_basis_name(vxp_cost_basis basis);

/** The word for a cost composition: "sum" or "bottleneck"; NULL for NONE or a value not in
 * the set. Static storage. */
VXP_API const char *vxp_cost_composition_name(vxp_cost_composition composition);

/** The unit of the hop's derived cost as a word, the older spelling of
 * vxp_cost_unit_name(vxp_route_cost_unit(route)): "ps" (picoseconds, for rates per second)
 * or "cyc" (cycles), or NULL. Static storage. */
VXP_API const char *vxp_route_derived_unit(const vxp_route *route);

/**
 * Where the hop's derived cost comes from, as a word, the older spelling of
 * vxp_cost_basis_name(vxp_route_cost_basis(route)): "link_rate" (the edge declares a rate)
 * or "containment" (the spaces' bandwidths along the within: tree), or NULL. Static storage.
 */
VXP_API const char *vxp_route_cost_source(const vxp_route *route);

/**
 * How the hop's derived cost combines its legs, as a word, the older spelling of
 * vxp_cost_composition_name(vxp_route_cost_composition(route)): "sum" or "bottleneck" (the
 * destination is `crossing: streamed`); NULL for a link rate or no cost. Static storage.
 */
VXP_API const char *vxp_route_composition(const vxp_route *route);

/** Where the transfer is written. */
VXP_API vxp_range vxp_route_range(const vxp_route *route);

/**
 * The record of the tile this hop places: the transfer's tile for its last hop, the staged
 * copy for an intermediate one; NULL when the hop places no tile the analysis records (a
 * destination without a capacity). Borrowed from the analysis.
 */
VXP_API const vxp_record *vxp_route_record(const vxp_route *route);

/* --------------------------------------------------------------------------- Call trees */

/*
 * The working set over the call tree (vxc's cross-call rule): a function's total in a space
 * is the largest of its own peak and, over its call sites, the bytes it still holds at the
 * call plus the callee's total. Sequential calls compose by max, residency held across a
 * call by +. The path realising the total is a chain of hops (caller, call site, bytes
 * held, callee) from the function to the one whose own peak ends it.
 */

/** The function (or generic instance) whose call tree this is. Borrowed from the analysis. */
VXP_API const char *vxp_call_tree_function(const vxp_call_tree *ct);

/** The memory space the call tree is summed in. Borrowed from the analysis. */
VXP_API const char *vxp_call_tree_space(const vxp_call_tree *ct);

/** The function's own peak in the space (vxp_resident_set_peak_bytes; 0 if it places none). */
VXP_API uint64_t vxp_call_tree_self_peak_bytes(const vxp_call_tree *ct);

/**
 * The peak over the function's call tree (saturated to UINT64_MAX). When the tree reaches
 * a cycle that places tiles (E6028) it is unbounded and this is only what one activation
 * of the cycle adds: see vxp_call_tree_bounded.
 */
VXP_API uint64_t vxp_call_tree_total_bytes(const vxp_call_tree *ct);

/** The space's capacity in bytes. */
VXP_API uint64_t vxp_call_tree_capacity_bytes(const vxp_call_tree *ct);

/** Whether the total bounds the call tree: 1 when it does; 0 when a recursion placing tiles
 * in the space is reachable. */
VXP_API int vxp_call_tree_bounded(const vxp_call_tree *ct);

/** Number of calls on the path realising the total (0: the function's own peak is it). */
VXP_API size_t vxp_call_tree_hop_count(const vxp_call_tree *ct);

/*
 * The path, hop by hop: the first hop is the function's call of vxp_call_tree_callee, at
 * vxp_call_tree_call_range, holding vxp_call_tree_held_bytes; the rest of the path is the
 * callee's own call tree in the same space (vxp_call_tree_next). Walking a path of n hops:
 *
 *     for (const vxp_call_tree *t = ct; vxp_call_tree_callee(t); t = vxp_call_tree_next(t))
 *       printf("%s -> %s\n", vxp_call_tree_function(t), vxp_call_tree_callee(t));
 */

/** The callee of the path's first hop, or NULL when the function's own peak is the total. */
VXP_API const char *vxp_call_tree_callee(const vxp_call_tree *ct);

/** The bytes the function holds in the space at the first hop's call (0 without one). */
VXP_API uint64_t vxp_call_tree_held_bytes(const vxp_call_tree *ct);

/** Where the first hop's call is written (all zero without one). */
VXP_API vxp_range vxp_call_tree_call_range(const vxp_call_tree *ct);

/** The callee's call tree in the same space (the rest of the path), or NULL. Borrowed. */
VXP_API const vxp_call_tree *vxp_call_tree_next(const vxp_call_tree *ct);

/* --------------------------------------------------------------------- Unresolved calls */

/** The function making the call. Borrowed from the analysis. */
VXP_API const char *vxp_unresolved_call_function(const vxp_unresolved_call *u);

/**
 * The callee as written ("h", "ext_fn", "io::read", or a method's name), or NULL when the
 * call is through an expression with no name. Borrowed from the analysis.
 */
VXP_API const char *vxp_unresolved_call_callee(const vxp_unresolved_call *u);

/** Why it is not followed, one sentence. Static storage. */
VXP_API const char *vxp_unresolved_call_reason(const vxp_unresolved_call *u);

/** Where the call is written. */
VXP_API vxp_range vxp_unresolved_call_range(const vxp_unresolved_call *u);

/* ============================================================================== Answers */

/* ----------------------------------------------------------------------------- Formulas */

/*
 * Each resident set's peak as an exact formula in const items the caller names (`vxpeak
 * check --symbolic BATCH,CONTEXT`), every other constant folded as the analysis folds it:
 * the maximum of alternatives, each a sum of terms `coefficient x product of named
 * constants` (a constant repeated for a power), with 128-bit coefficients. An alternative is
 * the live total at one placement; those no larger than another wherever the named
 * constants are >= 0 are left out. A set whose peak is no such polynomial (a division that
 * does not come out whole, a remainder, a comparison, a min or max, an `if comptime` that
 * places tiles or a generic argument depending on a named constant, a size rounded up to a
 * whole byte or a granule) has none, and a sentence saying which construct, where and why.
 * A formula is checked against the analysis at the analysed point before it is given.
 * It borrows the analysis, which must outlive it.
 */
typedef struct vxp_formula vxp_formula;

/**
 * The formulas of every resident set of `an` in `names` (1 to 8 const items of the
 * program, or names given a -D value).
 * @param[out] out owned by the caller (vxp_formula_free)
 * @return VXP_OK, VXP_ENOMEM, VXP_EINVAL (no names, too many, a name twice),
 *         VXP_ENOTFOUND (a name that is no const item: the message lists the program's);
 *         failures are reported on the analysis' context
 */
VXP_API VXP_WARN_UNUSED int vxp_formula_new(vxp_formula **out, const vxp_analysis *an,
                                            const char *const *names, size_t name_count);

/** Free a formula (NULL is allowed). */
VXP_API void vxp_formula_free(vxp_formula *f);

/** The number of resident sets: those of the analysis, in its order. */
VXP_API size_t vxp_formula_set_count(const vxp_formula *f);

/** Non-zero when resident set `set`'s peak is a polynomial in the named constants. */
VXP_API int vxp_formula_is_polynomial(const vxp_formula *f, size_t set);

/** Why set `set`'s peak is not a polynomial, or NULL when it is. Borrowed. */
VXP_API const char *vxp_formula_reason(const vxp_formula *f, size_t set);

/** Set `set`'s formula as text ("14,176,298,752 + 262,144 x BATCH", or "max(A, B)" of
 * several), or NULL when there is none. Borrowed. */
VXP_API const char *vxp_formula_text(const vxp_formula *f, size_t set);

/** How many alternatives set `set`'s formula has (0 when there is none). */
VXP_API size_t vxp_formula_alternative_count(const vxp_formula *f, size_t set);

/**
 * Set `set`'s peak at `values` (one per named constant, in the order named), exactly.
 * @return VXP_OK, VXP_EINVAL (no formula, a value past 2^63), VXP_ERROR (the peak is
 *         negative or passes 64 bits there)
 */
VXP_API int vxp_formula_evaluate(const vxp_formula *f, size_t set, const uint64_t *values,
                                 uint64_t *bytes);

/**
 * Every set's formula as JSON: {"constants": [...], "values": [...] (at the analysed
 * point), "resident_sets": [{"function", "space", "total_bytes", "peak_formula" (a list of
 * alternatives, each a list of {"coefficient": INT, "constants": [NAME...]}; null when
 * none, with "peak_formula_reason"), "text"}]}. Made once and owned by the formula.
 * @return the text, or NULL on allocation failure
 */
VXP_API const char *vxp_formula_json(vxp_formula *f, size_t *len);

/**
 * Stream the analysis' JSON report with each peak's formula: the report of
 * vxp_analysis_json_write, each entry of "resident_sets" carrying its "peak_formula" (and
 * "peak_formula_reason") from `f`, a formula of `an` (NULL: none).
 * @return as vxp_analysis_json_write; VXP_EINVAL for a formula of another analysis
 */
VXP_API VXP_WARN_UNUSED int vxp_analysis_json_write_symbolic(const vxp_analysis *an,
                                                             const vxp_formula *f,
                                                             vxp_write_fn write, void *arg);

/* ------------------------------------------------------------------------------- Sweeps */

/*
 * A sweep answers "what is the largest value of this constant that fits?": the program is
 * analysed again with one `const` overridden (as vxp_analyze_options.overrides does) for
 * values in [lo, hi], and the largest value whose analysis fits is found.
 *
 * A value fits when its analysis has no error diagnostic, every tile's size is known (no
 * W1029: an unknown size could be anything), and every resident set selected by
 * `function` and `space` keeps `margin_ppm` millionths of its capacity free.
 *
 * Bisection is used only when the program shows that the peaks cannot shrink as the value
 * grows: every shape that mentions the constant (directly or through other `const` items)
 * is built from sums, products, differences with a constant (non-negative at `lo`: the
 * analysis at `lo` sized each placement holding one; not in a declared position's shape)
 * and quotients by a constant, and no `if comptime` condition or generic argument mentions
 * it.
 * Then "fits" holds for every value below one that fits, the search takes about
 * log2(hi - lo) analyses, and both sides of the boundary are analysed (verified). Otherwise
 * every value is analysed from `hi` down to the first that fits (a scan), at most
 * `max_scan` analyses; vxp_sweep_reason says which shape or condition ruled bisection out.
 */

typedef struct vxp_sweep vxp_sweep;
typedef struct vxp_sweep_point vxp_sweep_point;

/** How a sweep searched (vxp_sweep_method). Values are ABI. */
typedef enum vxp_search {
  VXP_SEARCH_BISECTION = 1, /**< the peaks are proven not to shrink as the value grows */
  VXP_SEARCH_SCAN = 2,      /**< every value from hi down to the first that fits */
  VXP_SEARCH_FORMULA = 3    /**< solved from the peaks' formulas in the constant, then
                                 confirmed by analysing the answer and the value above it */
} vxp_search;

/** Why a value does not fit (vxp_sweep_point_reason, vxp_frontier_point_reason). Values are
 * ABI. */
typedef enum vxp_misfit {
  VXP_MISFIT_NONE = 0,          /**< it fits */
  VXP_MISFIT_OVER_CAPACITY = 1, /**< a peak exceeds its capacity */
  VXP_MISFIT_WITHIN_MARGIN = 2, /**< it fits but leaves less than the margin free */
  VXP_MISFIT_SIZE_UNKNOWN = 3,  /**< a tile's size does not fold (W1029) */
  VXP_MISFIT_ERROR = 4          /**< another error diagnostic */
} vxp_misfit;

/** The word for a search method: "bisection", "scan" or "formula"; NULL for a value not
 * in vxp_search. Static storage. */
VXP_API const char *vxp_search_name(vxp_search search);

/**
 * The word for why a value does not fit, as the sweep's and the frontier's JSON reports
 * write it: "over_capacity", "within_margin", "size_unknown" or "error"; NULL for
 * VXP_MISFIT_NONE or a value not in vxp_misfit. Static storage.
 */
VXP_API const char *vxp_misfit_name(vxp_misfit misfit);

#define VXP_SWEEP_OPTIONS_VERSION 1

/** Options for vxp_sweep_run (versioned like vxp_analyze_options). */
typedef struct vxp_sweep_options {
  unsigned int version; /**< VXP_SWEEP_OPTIONS_VERSION */
  const char *name;     /**< the constant to vary, as the program names it */
  uint64_t lo, hi;      /**< the values to consider, inclusive (lo <= hi) */
  uint32_t margin_ppm;  /**< share of each capacity to keep free, in millionths (< 1000000) */
  const char *function; /**< only this function's resident sets count, or NULL: all */
  const char *space;    /**< only this space's resident sets count, or NULL: all */
  uint64_t max_scan;    /**< most analyses a scan may run; 0 means 4096 */
} vxp_sweep_options;

#define VXP_SWEEP_OPTIONS_INIT                                                                     \
  { VXP_SWEEP_OPTIONS_VERSION, NULL, 0, 0, 0, NULL, NULL, 0 }

/**
 * Initialise `opts` with defaults for options-struct `version`.
 * @return VXP_OK, or VXP_EVERSION when `version` is unknown to this library.
 */
VXP_API int vxp_sweep_options_init(vxp_sweep_options *opts, unsigned int version);

/**
 * Run a sweep of `opts->name` over `prog`, each analysis made with `analyze` (machine,
 * host and other overrides; may be NULL) plus the swept value.
 * @param[out] out the sweep, owned by the caller (vxp_sweep_free). It borrows nothing.
 * @return VXP_OK, VXP_ENOMEM, VXP_EINVAL (no name, lo > hi, a margin of 100% or more, the
 *         name also among `analyze`'s overrides, or a scan wider than max_scan),
 *         VXP_ENOTFOUND (the program never names the constant), VXP_EVERSION
 */
VXP_API VXP_WARN_UNUSED int vxp_sweep_run(vxp_sweep **out, vxp_context *ctx,
                                          const vxp_program *prog,
                                          const vxp_analyze_options *analyze,
                                          const vxp_sweep_options *opts);

/** Free a sweep. NULL is accepted. */
VXP_API void vxp_sweep_free(vxp_sweep *sw);

/** How the sweep searched (vxp_search_name spells it); 0 for NULL. */
VXP_API vxp_search vxp_sweep_method(const vxp_sweep *sw);

/**
 * Why that method: for bisection, what made the peaks non-decreasing in the constant; for
 * a scan, the first shape, condition or generic argument (with its line) that ruled
 * bisection out. Borrowed from the sweep.
 */
VXP_API const char *vxp_sweep_reason(const vxp_sweep *sw);

/** Number of analyses the sweep ran. */
VXP_API size_t vxp_sweep_evaluation_count(const vxp_sweep *sw);

/** Number of values analysed (each analysed once). */
VXP_API size_t vxp_sweep_point_count(const vxp_sweep *sw);

/** Value `i` of those analysed, in increasing order, or NULL when out of range. Borrowed. */
VXP_API const vxp_sweep_point *vxp_sweep_point_at(const vxp_sweep *sw, size_t i);

/** The largest value that fits, or NULL when none in [lo, hi] does. Borrowed. */
VXP_API const vxp_sweep_point *vxp_sweep_largest(const vxp_sweep *sw);

/**
 * The value just above the largest that fits (lo when none fits), analysed and found not
 * to fit; NULL when the largest that fits is hi. Borrowed.
 */
VXP_API const vxp_sweep_point *vxp_sweep_first_rejected(const vxp_sweep *sw);

/** The constant's value at this point. */
VXP_API uint64_t vxp_sweep_point_value(const vxp_sweep_point *p);

/** Whether the program fits at this value: 1 when it does, 0 when not. */
VXP_API int vxp_sweep_point_fits(const vxp_sweep_point *p);

/**
 * The peak that decides whether this value fits: the call-tree total (the function's own peak, or
 * what it holds across a call plus the callee's total, whichever is larger) of the selected
 * (function, space) closest to (or furthest over) its capacity; 0 when no tile is placed in a space
 * with a capacity. Margins are checked against this figure.
 */
VXP_API uint64_t vxp_sweep_point_peak_bytes(const vxp_sweep_point *p);

/** The capacity of the space of the (function, space) vxp_sweep_point_peak_bytes measures
 * (0 when there is none). */
VXP_API uint64_t vxp_sweep_point_capacity_bytes(const vxp_sweep_point *p);

/** The function of the (function, space) vxp_sweep_point_peak_bytes measures, or NULL.
 * Borrowed from the sweep. */
VXP_API const char *vxp_sweep_point_function(const vxp_sweep_point *p);

/** The space of the (function, space) vxp_sweep_point_peak_bytes measures, or NULL.
 * Borrowed from the sweep. */
VXP_API const char *vxp_sweep_point_space(const vxp_sweep_point *p);

/**
 * Why the value does not fit (vxp_misfit_name spells it): VXP_MISFIT_NONE when it fits (and
 * for NULL).
 */
VXP_API vxp_misfit vxp_sweep_point_reason(const vxp_sweep_point *p);

/**
 * The code of the diagnostic behind the reason (the first error's, e.g. "E6010", or
 * "W1029"), or NULL. Borrowed from the sweep.
 */
VXP_API const char *vxp_sweep_point_code(const vxp_sweep_point *p);

/**
 * The function that decided the reason, or NULL when it fits (or when the deciding
 * diagnostic is about no one function and written in none: a syntax error, the machine
 * model, a const item): the function the first error or W1029 is about or is written in
 * (an unresolved name in its body), or for VXP_MISFIT_WITHIN_MARGIN and an overflow found
 * from the totals, the selected function closest to its capacity. With vxp_sweep_options.function
 * set, only diagnostics about or written in that function or the functions it calls, or
 * written in no function, decide a value. Borrowed from the sweep.
 */
VXP_API const char *vxp_sweep_point_cause_function(const vxp_sweep_point *p);

/* ---------------------------------------------------------------------------- Rooflines */

/*
 * How fast one call of a function can run when memory bandwidth is the bound. The
 * traffic is counted from the element accesses inside its `spawn` regions: `x[i][j]`
 * read or written moves one element's bytes (fewer indices than the rank: the slice's)
 * in the space `x` lives in, times the trip counts of the `for` loops around it. Nothing
 * is assumed cached, so a program that reads each element once is counted exactly. The
 * figure is "exact", an "upper_bound" (alternatives - `if`/`else`, `match` arms - count
 * their largest arm, and the arms differ), or "unknown" with the reason (a `loop` or
 * `while` around device work, a trip count or shape that does not fold, a call inside a
 * region, a call to a function with regions of its own).
 *
 * Each space's bytes take bytes / bandwidth (its `bandwidth:`, per-cycle rates converted
 * with its `clock:`, per-SM rates times its `replicas`); spaces work at once, so the
 * slowest sets the step time and 10^12 / time_ps is the ceiling in steps per second.
 * Beside it, the cost of streaming instead: the tiles read in the regions that were
 * transferred from host memory (CPU_DRAM), each moved over its route once per step,
 * priced as the routes are (vxp_route_derived_cost).
 */

typedef struct vxp_roofline vxp_roofline;

/** How far a roofline figure is known (vxp_roofline_traffic, vxp_roofline_ops_status). Values
 * are ABI. */
typedef enum vxp_certainty {
  VXP_CERTAINTY_EXACT = 1,       /**< counted exactly */
  VXP_CERTAINTY_UPPER_BOUND = 2, /**< alternatives count their largest arm, and the arms differ */
  VXP_CERTAINTY_UNKNOWN = 3      /**< not derivable; the reason says why */
} vxp_certainty;

/** What binds one call (vxp_roofline_bound, vxp_frontier_point_bound). Values are ABI. */
typedef enum vxp_bound {
  VXP_BOUND_NONE = 0,   /**< the bound cannot be named (a time is missing) */
  VXP_BOUND_MEMORY = 1, /**< the memory time is the larger (or they tie) */
  VXP_BOUND_COMPUTE = 2 /**< the compute time is the larger */
} vxp_bound;

/** The word for how far a figure is known, as the JSON reports write it: "exact",
 * "upper_bound" or "unknown"; NULL for a value not in vxp_certainty. Static storage. */
VXP_API const char *vxp_certainty_name(vxp_certainty certainty);

/** The word for what binds a call: "memory" or "compute"; NULL for VXP_BOUND_NONE or a
 * value not in vxp_bound. Static storage. */
VXP_API const char *vxp_bound_name(vxp_bound bound);

/**
 * The roofline of one call of analysed function `function`. The analysis is only read, so
 * rooflines of one analysis may be made from several threads, each with its own `ctx`.
 * @param[out] out the roofline, owned by the caller (vxp_roofline_free), allocated from
 *             `ctx`. It borrows `an`, which must outlive it.
 * @return VXP_OK, VXP_ENOMEM, VXP_EINVAL, VXP_ENOTFOUND (no analysed function of that
 *         name), VXP_ECANCELLED (see Cancellation); failures are reported on `ctx`
 */
VXP_API VXP_WARN_UNUSED int vxp_roofline_new(vxp_roofline **out, vxp_context *ctx,
                                             const vxp_analysis *an, const char *function);

/** Free a roofline. NULL is accepted. */
VXP_API void vxp_roofline_free(vxp_roofline *rf);

/** The function the roofline prices. Borrowed from the analysis. */
VXP_API const char *vxp_roofline_function(const vxp_roofline *rf);

/** Number of `spawn` regions in the function (each counted once, wherever it is). */
VXP_API size_t vxp_roofline_region_count(const vxp_roofline *rf);

/** How far the traffic is known (vxp_certainty_name spells it); 0 for NULL. */
VXP_API vxp_certainty vxp_roofline_traffic(const vxp_roofline *rf);

/**
 * Why the traffic is unknown, or why there is no step time (a space without a bandwidth),
 * with the line; NULL otherwise. Borrowed from the roofline.
 */
VXP_API const char *vxp_roofline_reason(const vxp_roofline *rf);

/** Number of spaces the regions touch, in the order first touched. */
VXP_API size_t vxp_roofline_space_count(const vxp_roofline *rf);

/** Space `i`'s name, or NULL when out of range. Borrowed. */
VXP_API const char *vxp_roofline_space_name(const vxp_roofline *rf, size_t i);

/** Bytes the regions read from space `i` in one call (0 when out of range). */
VXP_API uint64_t vxp_roofline_space_read_bytes(const vxp_roofline *rf, size_t i);

/** Bytes the regions write to space `i` in one call (0 when out of range). */
VXP_API uint64_t vxp_roofline_space_written_bytes(const vxp_roofline *rf, size_t i);

/** Space `i`'s device-wide bandwidth in bytes per second: 1 and `*out` set; 0 when it
 * declares none (or it cannot be converted: a per-cycle rate without a clock). */
VXP_API int vxp_roofline_space_bandwidth(const vxp_roofline *rf, size_t i, uint64_t *out);

/** The time space `i`'s traffic takes at its bandwidth: 1 and `*out` set to the picoseconds
 * (ceil(bytes x 10^12 / rate)); 0 when not derivable or the traffic is unknown. */
VXP_API int vxp_roofline_space_time_ps(const vxp_roofline *rf, size_t i, uint64_t *out);

/** One call's time at the traffic the space figures above count (no reuse), the slowest
 * space's: 1 and `*out` set to the picoseconds; 0 when there is none (no traffic, unknown
 * traffic, or a space with traffic and no bandwidth). */
VXP_API int vxp_roofline_time_ps(const vxp_roofline *rf, uint64_t *out);

/** The space that sets the time, or NULL. Borrowed. */
VXP_API const char *vxp_roofline_bound_space(const vxp_roofline *rf);

/** Number of buffers (tensors indexed in the regions); per space, in order first touched. */
VXP_API size_t vxp_roofline_buffer_count(const vxp_roofline *rf);

/** Buffer `i`'s name, or NULL. Borrowed. */
VXP_API const char *vxp_roofline_buffer_name(const vxp_roofline *rf, size_t i);

/** The space buffer `i` lives in, or NULL. Borrowed. */
VXP_API const char *vxp_roofline_buffer_space(const vxp_roofline *rf, size_t i);

/** Bytes read from buffer `i` in one call (an upper bound per buffer when alternatives differ). */
VXP_API uint64_t vxp_roofline_buffer_read_bytes(const vxp_roofline *rf, size_t i);

/** Bytes written to buffer `i` in one call. */
VXP_API uint64_t vxp_roofline_buffer_written_bytes(const vxp_roofline *rf, size_t i);

/** Number of tiles read in the regions that were transferred from host memory. */
VXP_API size_t vxp_roofline_streamed_count(const vxp_roofline *rf);

/** Streamed tile `i` (a record of the analysis), or NULL. Borrowed from the analysis. */
VXP_API const vxp_record *vxp_roofline_streamed_record(const vxp_roofline *rf, size_t i);

/** The time moving streamed tile `i` over its route takes: 1 and `*out` set to the
 * picoseconds; 0 when a hop has no cost in picoseconds. */
VXP_API int vxp_roofline_streamed_cost_ps(const vxp_roofline *rf, size_t i, uint64_t *out);

/** Bytes the streamed tiles hold together (their transfers' bytes). */
VXP_API uint64_t vxp_roofline_stream_bytes(const vxp_roofline *rf);

/** The time streaming every such tile once takes (one step without them resident): 1 and
 * `*out` set to the picoseconds; 0 when there are none or one is not priced. */
VXP_API int vxp_roofline_stream_time_ps(const vxp_roofline *rf, uint64_t *out);

/*
 * Two traffic models. VXP_TRAFFIC_NO_REUSE counts every access (the figures of the
 * accessors above); VXP_TRAFFIC_COMPULSORY counts each buffer's reads (and writes) at most
 * once per element of its tile per call, min(no-reuse bytes, the tile's bytes): what a
 * kernel with perfect reuse moves, exact when the loops touch every element. The bound and
 * the call time are asked for under one of them; the command's default is compulsory.
 */
typedef enum vxp_traffic_model {
  VXP_TRAFFIC_COMPULSORY = 0,
  VXP_TRAFFIC_NO_REUSE = 1
} vxp_traffic_model;

/** Bytes read from space `i` in one call under `model`; `*written` (when not NULL) receives
 * the bytes written. 0 when out of range. */
VXP_API uint64_t vxp_roofline_space_bytes(const vxp_roofline *rf, size_t i, vxp_traffic_model model,
                                          uint64_t *written);

/** Bytes read from buffer `i` in one call under `model`; `*written` the bytes written. */
VXP_API uint64_t vxp_roofline_buffer_bytes(const vxp_roofline *rf, size_t i,
                                           vxp_traffic_model model, uint64_t *written);

/** Buffer `i`'s whole tile, as the analysis sized the placement that bound its name in the
 * function: 1 and `*out` set to its bytes; 0 for a parameter (the caller placed it) or a size not
 * known (its compulsory traffic is then its no-reuse traffic). */
VXP_API int vxp_roofline_buffer_tile_bytes(const vxp_roofline *rf, size_t i, uint64_t *out);

/** One call's memory time under `model`, the slowest space's: 1 and `*out` set to the
 * picoseconds; 0 when there is none. */
VXP_API int vxp_roofline_memory_time_ps(const vxp_roofline *rf, vxp_traffic_model model,
                                        uint64_t *out);

/** The space that sets the memory time under `model`, or NULL. Borrowed. */
VXP_API const char *vxp_roofline_memory_bound_space(const vxp_roofline *rf,
                                                    vxp_traffic_model model);

/*
 * Arithmetic: the `+ - * / %` operations (and `op=`) of the regions per call, by element
 * type (a multiply-add is two), times the trip counts around them. An operation's type is
 * its tensor operand's element type, else its typed operands'. Exact, an upper bound
 * (alternatives count their largest arm), or unknown with the reason (an operation whose
 * type is not known, arithmetic on a slice, a matrix product `@`, or unknown traffic).
 */

/** How far the operations are known (vxp_certainty_name spells it); 0 for NULL. */
VXP_API vxp_certainty vxp_roofline_ops_status(const vxp_roofline *rf);

/** Why the operations are unknown, with the line; NULL otherwise. Borrowed. */
VXP_API const char *vxp_roofline_ops_reason(const vxp_roofline *rf);

/** The topology the regions run on (`spawn on(...)`), or NULL when they run on several. */
VXP_API const char *vxp_roofline_topology(const vxp_roofline *rf);

/** Number of element types operations are counted by (fixed; many count 0). */
VXP_API size_t vxp_roofline_op_type_count(const vxp_roofline *rf);

/** Element type `i`'s name ("f16"), or NULL out of range. Static storage. */
VXP_API const char *vxp_roofline_op_type(const vxp_roofline *rf, size_t i);

/** Operations of element type `i` in one call. */
VXP_API uint64_t vxp_roofline_op_count(const vxp_roofline *rf, size_t i);

/** The peak rate the regions' topology declares for element type `i` (its `// compute:`
 * lines, fleet/README.md): 1 and `*ops_per_s` set; 0 when it declares none. */
VXP_API int vxp_roofline_op_peak(const vxp_roofline *rf, size_t i, uint64_t *ops_per_s);

/** All operations of one call (saturating at UINT64_MAX). */
VXP_API uint64_t vxp_roofline_total_ops(const vxp_roofline *rf);

/** One call's compute time, each type's operations at its peak rate, summed: 1 and `*out`
 * set to the picoseconds (ceil(ops x 10^12 / rate) each); 0 when the operations are unknown or a
 * type with operations has no declared rate. */
VXP_API int vxp_roofline_compute_time_ps(const vxp_roofline *rf, uint64_t *out);

/** Why there is no compute time (no `// compute:` lines, no rate for a type, unknown
 * operations); NULL when there is one. Borrowed. */
VXP_API const char *vxp_roofline_compute_reason(const vxp_roofline *rf);

/** Which of the memory time under `model` and the compute time is larger (memory on a tie);
 * VXP_BOUND_NONE when either is missing: the bound cannot be named. */
VXP_API vxp_bound vxp_roofline_bound(const vxp_roofline *rf, vxp_traffic_model model);

/** One call's time under `model`, max(memory time, compute time): 1 and `*out` set to the
 * picoseconds; 0 when either is missing. */
VXP_API int vxp_roofline_call_time_ps(const vxp_roofline *rf, vxp_traffic_model model,
                                      uint64_t *out);

/* ---------------------------------------------------------------------- Batch frontiers */

/*
 * The deployment decision for one constant (a batch size, a concurrency): for every value
 * in [lo, hi], its own analysis with the constant overridden, and at each value whether the
 * program fits (as vxp_sweep_run decides: no error, every size known, the tightest capacity
 * at most (100% - margin) full), the roofline of the priced function (one call's memory time
 * under the chosen traffic model, its compute time at the topology's declared peaks, the
 * larger binds), and the tokens one call produces. Then: the largest value that fits, the
 * first value at which compute binds, and the value with the best tokens per second among
 * those that fit.
 */

typedef struct vxp_frontier vxp_frontier;
typedef struct vxp_frontier_point vxp_frontier_point;

#define VXP_FRONTIER_OPTIONS_VERSION 1

/** Options for vxp_frontier_run (versioned like vxp_analyze_options). */
typedef struct vxp_frontier_options {
  unsigned int version;      /**< VXP_FRONTIER_OPTIONS_VERSION */
  const char *name;          /**< the constant to vary, as the program names it */
  uint64_t lo, hi;           /**< the values, inclusive (lo <= hi) */
  uint32_t margin_ppm;       /**< share of the capacity to keep free, in millionths */
  const char *function;      /**< the function a call is; NULL: the first with regions */
  const char *space;         /**< only this space's capacity counts, or NULL: the tightest */
  vxp_traffic_model traffic; /**< the traffic the memory time uses (default compulsory) */
  const char *tokens_const;  /**< tokens per call: this constant's value at each point */
  uint64_t tokens_per_call;  /**< when tokens_const is NULL; 0 means 1 */
  uint64_t max_points;       /**< most values (analyses); 0 means 4096 */
} vxp_frontier_options;

/** Initialise `opts` with defaults. VXP_OK, or VXP_EVERSION for an unknown version. */
VXP_API int vxp_frontier_options_init(vxp_frontier_options *opts, unsigned int version);

/**
 * Analyse `prog` at every value of `opts->name` in [lo, hi], each with `analyze` (machine,
 * host, other overrides; may be NULL) plus that value.
 * @param[out] out the frontier, owned by the caller (vxp_frontier_free). It borrows nothing.
 * @return VXP_OK, VXP_ENOMEM, VXP_EINVAL (no name, lo > hi, a margin of 100% or more, the
 *         name also overridden, more values than max_points), VXP_ENOTFOUND (the program
 *         never names the constant, or tokens_const does not fold), VXP_EVERSION
 */
VXP_API VXP_WARN_UNUSED int vxp_frontier_run(vxp_frontier **out, vxp_context *ctx,
                                             const vxp_program *prog,
                                             const vxp_analyze_options *analyze,
                                             const vxp_frontier_options *opts);

/** Free a frontier. NULL is accepted. */
VXP_API void vxp_frontier_free(vxp_frontier *f);

/** The priced function, or NULL when no function has spawn regions. Borrowed. */
VXP_API const char *vxp_frontier_function(const vxp_frontier *f);

/** Number of values analysed (hi - lo + 1). */
VXP_API size_t vxp_frontier_point_count(const vxp_frontier *f);

/** Point `i` in increasing value, or NULL. Borrowed from the frontier. */
VXP_API const vxp_frontier_point *vxp_frontier_point_at(const vxp_frontier *f, size_t i);

/** The largest value that fits, or NULL when none does. Borrowed. */
VXP_API const vxp_frontier_point *vxp_frontier_largest_fit(const vxp_frontier *f);

/** The first value at which compute binds (memory turns to compute), or NULL. Borrowed. */
VXP_API const vxp_frontier_point *vxp_frontier_first_compute_bound(const vxp_frontier *f);

/** The value with the most tokens per second among those that fit (the smallest on a
 * tie), or NULL when none fits with a known call time. Borrowed. */
VXP_API const vxp_frontier_point *vxp_frontier_best_fit(const vxp_frontier *f);

/** The point's value of the constant. */
VXP_API uint64_t vxp_frontier_point_value(const vxp_frontier_point *p);

/** Whether the program fits at this value with the margin: 1 when it does, else 0. */
VXP_API int vxp_frontier_point_fits(const vxp_frontier_point *p);

/** The tightest (function, space)'s call-tree peak at this value, in bytes. */
VXP_API uint64_t vxp_frontier_point_peak_bytes(const vxp_frontier_point *p);

/** The capacity of the tightest (function, space)'s space, in bytes. */
VXP_API uint64_t vxp_frontier_point_capacity_bytes(const vxp_frontier_point *p);

/** The tightest (function, space)'s space, or NULL when nothing with a capacity is placed.
 * Borrowed. */
VXP_API const char *vxp_frontier_point_space(const vxp_frontier_point *p);

/** Why the value does not fit (vxp_misfit_name spells it); VXP_MISFIT_NONE when it fits. */
VXP_API vxp_misfit vxp_frontier_point_reason(const vxp_frontier_point *p);

/** The first error's code (or W1029) when it does not fit for one, else NULL. Borrowed. */
VXP_API const char *vxp_frontier_point_code(const vxp_frontier_point *p);

/** Tokens one call produces at this point. */
VXP_API uint64_t vxp_frontier_point_tokens(const vxp_frontier_point *p);

/** One call's memory time at this value: 1 and `*out` set to the picoseconds; 0 when not
 * known. */
VXP_API int vxp_frontier_point_memory_time_ps(const vxp_frontier_point *p, uint64_t *out);

/** One call's compute time at this value: 1 and `*out` set to the picoseconds; 0 when not
 * known. */
VXP_API int vxp_frontier_point_compute_time_ps(const vxp_frontier_point *p, uint64_t *out);

/** One call's time at this value, the larger of its memory and compute times: 1 and `*out`
 * set to the picoseconds; 0 when not known. */
VXP_API int vxp_frontier_point_call_time_ps(const vxp_frontier_point *p, uint64_t *out);

/** The bytes one call moves in the space that sets the memory time at this value. */
VXP_API uint64_t vxp_frontier_point_memory_bytes(const vxp_frontier_point *p);

/** The operations one call performs at this value. */
VXP_API uint64_t vxp_frontier_point_ops(const vxp_frontier_point *p);

/** What binds the call (vxp_bound_name spells it); VXP_BOUND_NONE when it cannot be named. */
VXP_API vxp_bound vxp_frontier_point_bound(const vxp_frontier_point *p);

/** The space that sets the memory time, or NULL. Borrowed. */
VXP_API const char *vxp_frontier_point_bound_space(const vxp_frontier_point *p);

/** Why the bound cannot be named (no compute rates, unknown operations), or NULL. Borrowed. */
VXP_API const char *vxp_frontier_point_unbound_reason(const vxp_frontier_point *p);

/* ============================================================================== Reports */

/* --------------------------------------------------------- The analysis' JSON and SARIF */

/**
 * The analysis as JSON (schema "vxpeak-report-v1": vxc's `vx-diagnostics-v1` record shapes
 * extended with per-function facts). Rendered on first call and cached; the text is owned
 * by the analysis and valid until it is freed. `len` may be NULL.
 * @return the text, or NULL on allocation failure (the context says why)
 */
VXP_API const char *vxp_analysis_json(vxp_analysis *an, size_t *len);

/**
 * The report of vxp_analysis_json, byte for byte, handed to `write` (vxp_write_fn) in pieces
 * of about 64 KiB as it is rendered, so that the text is never held whole (`vxpeak check
 * --format json`: the report of 10^5 diagnostics is some 15 times its program's size). Nothing
 * is cached; when vxp_analysis_json has rendered the report already, that text is written. A
 * failure after the first write leaves what was written incomplete.
 * @return VXP_OK, VXP_ENOMEM, VXP_ECANCELLED (the cancellation flag or the time budget),
 *         VXP_EIO when `write` returned non-zero, or VXP_EINVAL (a NULL argument); failures
 *         are reported on the analysis' context
 */
VXP_API VXP_WARN_UNUSED int vxp_analysis_json_write(const vxp_analysis *an, vxp_write_fn write,
                                                    void *arg);

/**
 * The analysis' diagnostics as a SARIF 2.1.0 log (the OASIS schema), for code scanning:
 * one rule per diagnostic code with its description and remedy, one result per
 * diagnostic with its region (1-based lines, UTF-16 columns, byte offset and length, the
 * source line), its notes and help lines in the message and, when located, as related
 * locations, and a fingerprint (`partialFingerprints."vxpeakDiagnostic/v1"`) made from the
 * code, the file and the flagged text, so that it survives edits elsewhere in the file.
 * Rendered on first call and cached, as vxp_analysis_json is (the same threading caveat).
 * The text is owned by the analysis and valid until it is freed. `len` may be NULL.
 * @return the text, or NULL on allocation failure (the context says why)
 */
VXP_API const char *vxp_analysis_sarif(vxp_analysis *an, size_t *len);

/* --------------------------------------------------------------------- Rendered reports */

/*
 * The reports the vxpeak command prints, rendered by the library so that C, Python and the
 * command print the same text: `vxpeak explain` (what fills each peak), `vxpeak sweep`
 * (the largest value that fits, per machine) and `vxpeak roofline` (how fast a call can
 * run), as text or as JSON (schemas "vxpeak-explain-v1", "vxpeak-sweep-v1" and
 * "vxpeak-roofline-v1": one top-level key per line, each element of a top-level array on a
 * line of its own). The analysis' own report and SARIF log are
 * vxp_analysis_json and vxp_analysis_sarif.
 *
 * A report is an owning handle holding its text: made by a vxp_report_* constructor,
 * released by vxp_report_free. It borrows nothing, so it may outlive what it reports on.
 */

typedef struct vxp_report vxp_report;

/** A report's format. Values are ABI. */
typedef enum vxp_report_format {
  VXP_REPORT_TEXT = 1, /**< the table a person reads (the default) */
  VXP_REPORT_JSON = 2, /**< the JSON document the command's --format json prints */
  VXP_REPORT_SVG = 3   /**< a standalone SVG picture (vxp_report_plot, vxp_report_frontier) */
} vxp_report_format;

#define VXP_REPORT_OPTIONS_VERSION 4

/** Options for the report constructors (versioned like vxp_analyze_options: version 1 ends
 * at `machine`; version 2 adds the roofline's fields; version 3 the check's margin; version 4
 * the formula). */
typedef struct vxp_report_options {
  unsigned int version;     /**< VXP_REPORT_OPTIONS_VERSION */
  vxp_report_format format; /**< 0: the report's first form (text; SVG for the plot) */
  const char *function;     /**< explain, plot, roofline: only this function (NULL: every one;
                                 for the roofline, every one with a spawn region) */
  const char *space;        /**< explain, plot: only this space's resident sets (NULL: all) */
  const char *machine;      /**< text: the machine's name in the first line (NULL: the
                                 analysed machine's label, or "the program's own
                                 declarations" when it has none); not read by JSON */
  /* Version 2. */
  vxp_traffic_model traffic; /**< roofline: the model the bound and ceilings use */
  uint64_t tokens_per_call;  /**< roofline: tokens one call produces (0 means 1) */
  const char *tokens_name;   /**< roofline: what they were read from (a const item's name),
                                  or NULL (no tokens/s is printed in the text) */
  /* Version 3. */
  uint32_t margin_ppm; /**< check: the share of each capacity to keep free, in millionths
                            (below 10^6; 0: none) */
  /* Version 4. */
  const vxp_formula *formula; /**< check (text), explain (text and JSON): each peak's formula
                                   (vxp_formula_new on the same analysis), or NULL */
} vxp_report_options;

#define VXP_REPORT_OPTIONS_INIT                                                                    \
  {                                                                                                \
    VXP_REPORT_OPTIONS_VERSION, VXP_REPORT_TEXT, NULL, NULL, NULL, VXP_TRAFFIC_COMPULSORY, 0,      \
        NULL, 0, NULL                                                                              \
  }

/**
 * Initialise `opts` with defaults for options-struct `version` (1 to
 * VXP_REPORT_OPTIONS_VERSION). @return VXP_OK, VXP_EINVAL or VXP_EVERSION
 */
VXP_API int vxp_report_options_init(vxp_report_options *opts, unsigned int version);

/**
 * A copy of machine model `m`'s text carrying a measured overhead (`vxpeak calibrate`):
 * memory space `space`'s `capacity:` lowered by `overhead_bytes` (written in bytes), and a
 * comment line `// overhead: N B, NOTE` put in the space's body, so that every later
 * answer against the copy (check, sweep, frontier, advise) holds the overhead, and vxc reads
 * the copy unchanged. The model must have been read from text (a file or a built-in).
 * @param[out] out the text (vxp_report_text), owned by the caller (vxp_report_free)
 * @return VXP_OK, VXP_ENOMEM, VXP_EINVAL (a NULL argument, a note with a line break, an
 *         overhead the capacity does not hold), VXP_ENOTFOUND (no such space, or one without
 *         a capacity)
 */
VXP_API VXP_WARN_UNUSED int vxp_report_machine_overhead(vxp_report **out, vxp_context *ctx,
                                                        const vxp_machine *m, const char *space,
                                                        uint64_t overhead_bytes, const char *note);

/**
 * A copy of machine model `m`'s text calibrated to a run (`vxpeak calibrate`), as
 * vxp_report_machine_overhead writes it, with what the device offers restated: `offered_bytes`
 * (the space's memory as the framework sees it, torch.cuda.mem_get_info()'s total; 0 keeps the
 * model's) replaces the capacity, and `overhead_bytes` (0 allowed) is held inside it. The
 * copy's space gets a `// overhead: N B, NOTE` line in its body above `capacity:`, which is
 * the offered bytes less every overhead the space now carries. vxpeak's machine reader sums a
 * space's overhead lines, so that `--margin` stays a share of what the device offers (the
 * capacity plus the overheads) with the overheads held inside it, as a framework's memory
 * fraction is (vLLM's gpu_memory_utilization).
 * @return as vxp_report_machine_overhead; VXP_EINVAL also when the overheads are not less
 *         than what the device offers
 */
VXP_API VXP_WARN_UNUSED int vxp_report_machine_calibrate(vxp_report **out, vxp_context *ctx,
                                                         const vxp_machine *m, const char *space,
                                                         uint64_t offered_bytes,
                                                         uint64_t overhead_bytes, const char *note);

/**
 * The verdict of `an` as text (`vxpeak check`): the machine (and host), each resident set's
 * peak against its capacity with the tiles live at it grouped by scope and size, the call
 * trees that reach past their function's own peak with the path and what each call holds,
 * the routes the transfers take, the (function, space) pairs inside `opts->margin_ppm`, and
 * the verdict line ("admitted" or "rejected", with the counts). Diagnostics are not in it
 * (vxp_diagnostic_render). The format must be VXP_REPORT_TEXT (or 0); the analysis' JSON
 * and SARIF are vxp_analysis_json and vxp_analysis_sarif.
 * @param[out] out the report, owned by the caller (vxp_report_free), allocated from `ctx`
 * @return VXP_OK, VXP_ENOMEM, VXP_EINVAL (also a margin of 10^6 or more), VXP_EVERSION;
 *         failures are reported on `ctx`
 */
VXP_API VXP_WARN_UNUSED int vxp_report_check(vxp_report **out, vxp_context *ctx,
                                             const vxp_analysis *an,
                                             const vxp_report_options *opts);

/**
 * How many (function, space) call trees of `an` fit their capacity but not with
 * `margin_ppm` millionths of it left free: a total over (10^6 - margin_ppm) / 10^6 of the
 * capacity. These are the pairs vxp_report_check lists as inside the margin; a caller
 * holding a margin rejects the program when this is not zero. 0 for a NULL analysis, a
 * margin of 0, or one of 10^6 or more.
 */
VXP_API size_t vxp_analysis_inside_margin(const vxp_analysis *an, uint32_t margin_ppm);

/**
 * What fills each peak of `an` (`vxpeak explain`): per (function, space) with a capacity,
 * the tiles live at the peak by role (`// role: NAME` comments) and by source site, and the
 * sum over the run beside the peak. Every row is reported, however many there are.
 * @param[out] out the report, owned by the caller (vxp_report_free), allocated from `ctx`
 * @return VXP_OK, VXP_ENOMEM, VXP_EINVAL, VXP_EVERSION; failures are reported on `ctx`
 */
VXP_API VXP_WARN_UNUSED int vxp_report_explain(vxp_report **out, vxp_context *ctx,
                                               const vxp_analysis *an,
                                               const vxp_report_options *opts);

/**
 * One report of `count` (at least 1) sweeps that asked the same question (the same
 * constant, range, margin, function, space, other overrides and program), typically on
 * different machines (`vxpeak sweep --machine a,b,c`). `machines[i]` names sweep i's
 * machine in the report; `machines` or an entry may be NULL (the label of the machine the
 * sweep was run on, or "(the program's own)"). Nothing is borrowed past the call.
 * @param[out] out the report, owned by the caller (vxp_report_free), allocated from `ctx`
 * @return VXP_OK, VXP_ENOMEM, VXP_EVERSION, VXP_EINVAL (no sweeps, a NULL sweep, sweeps
 *         that asked different questions); failures are reported on `ctx`
 */
VXP_API VXP_WARN_UNUSED int vxp_report_sweep(vxp_report **out, vxp_context *ctx,
                                             const vxp_sweep *const *sweeps,
                                             const char *const *machines, size_t count,
                                             const vxp_report_options *opts);

/**
 * The roofline of each function of `an` (`vxpeak roofline`): `opts->function`'s, or every
 * function with a spawn region; traffic per space and buffer under both models, operations,
 * memory and compute times, the bound, the ceiling in calls (and tokens) per second, and
 * streaming, as text or JSON (schema "vxpeak-roofline-v1"), under `opts->traffic`.
 * @param[out] out the report, owned by the caller (vxp_report_free), allocated from `ctx`
 * @return VXP_OK, VXP_ENOMEM, VXP_EINVAL, VXP_EVERSION; failures are reported on `ctx`
 */
VXP_API VXP_WARN_UNUSED int vxp_report_roofline(vxp_report **out, vxp_context *ctx,
                                                const vxp_analysis *an,
                                                const vxp_report_options *opts);

/**
 * The bytes live along program order as a standalone SVG picture (`vxpeak plot`): one
 * panel per resident set of `an` selected by `opts` (function, space), each with the
 * capacity as a dashed line, the live bytes as a step curve whose maximum is the resident
 * set's peak, the peak marked with the tiles that fill it (grouped by role, else binding),
 * and each position's source line on hover. The first line names the program, the machine
 * and the constants set for the analysis. Machine-readable attributes carry the figures:
 * data-peak-bytes, data-capacity-bytes and data-peak-order per panel, data-live-bytes per
 * position. The format must be VXP_REPORT_SVG (or 0). Time and memory are linear in the
 * records and program-order positions drawn.
 * @param[out] out the report, owned by the caller (vxp_report_free), allocated from `ctx`
 * @return VXP_OK, VXP_ENOMEM, VXP_EINVAL, VXP_EVERSION, VXP_ECANCELLED, or VXP_ENOTFOUND
 *         when no resident set is selected (nothing is placed in a space with a capacity,
 *         or the function or space has none); failures are reported on `ctx`
 */
VXP_API VXP_WARN_UNUSED int vxp_report_plot(vxp_report **out, vxp_context *ctx,
                                            const vxp_analysis *an, const vxp_report_options *opts);

/**
 * Stream the plot to `write` as it is drawn: vxp_report_plot's picture, byte for byte the
 * same text, never held whole (a plot of 10^5 panels is hundreds of megabytes): the
 * memory the call takes is one panel's curve and a buffer of 64 KiB, beside the analysis.
 * Nothing is written when the selection is empty (VXP_ENOTFOUND) or the options are bad.
 * A failure after the first write leaves what was written incomplete: the caller discards
 * it.
 * @return VXP_OK, VXP_ENOMEM, VXP_EINVAL (also a NULL `write`), VXP_EVERSION, VXP_ENOTFOUND,
 *         VXP_ECANCELLED, or VXP_EIO when `write` returned non-zero; failures are reported
 *         on `ctx`
 */
VXP_API VXP_WARN_UNUSED int vxp_report_plot_write(vxp_context *ctx, const vxp_analysis *an,
                                                  const vxp_report_options *opts,
                                                  vxp_write_fn write, void *arg);

/**
 * The report of a batch frontier (`vxpeak frontier`): per value, whether it fits, its peak,
 * one call's time, tokens per second and the bound; then the largest value that fits, where
 * memory turns to compute and the best throughput that fits; as text, JSON (schema
 * "vxpeak-frontier-v1") or VXP_REPORT_SVG (tokens/s against the constant, with the bandwidth
 * and compute ceilings and the capacity wall; every mark carries its figures as data-*
 * attributes). The frontier keeps what it was asked (program, machines, constant,
 * range, margin, traffic, tokens per call), so only `opts->format` and `opts->machine` (the
 * text's and picture's name for the machine; NULL: its label) are read.
 * @param[out] out the report, owned by the caller (vxp_report_free), allocated from `ctx`
 * @return VXP_OK, VXP_ENOMEM, VXP_EINVAL, VXP_EVERSION; failures are reported on `ctx`
 */
VXP_API VXP_WARN_UNUSED int vxp_report_frontier(vxp_report **out, vxp_context *ctx,
                                                const vxp_frontier *f,
                                                const vxp_report_options *opts);

/**
 * The two-constant sweep (`vxpeak sweep --const A=.. --const B=..`): `rows` x `columns`
 * one-value frontiers in row-major order, cell (r, c) run with `row_name` set to row r's
 * value among its overrides and the frontier's constant (the columns') at column c's value,
 * all on the same program, machines, other overrides, margin and space. Each cell says
 * whether it fits with the margin and how full the tightest capacity is, as a table or JSON
 * (schema "vxpeak-sweep-grid-v1"). `opts->machine` names the machine in the text (NULL: its
 * label). Nothing is borrowed past the call.
 * @param[out] out the report, owned by the caller (vxp_report_free), allocated from `ctx`
 * @return VXP_OK, VXP_ENOMEM, VXP_EVERSION, VXP_EINVAL (a cell that is not a one-value
 *         frontier, or that asked another question); failures are reported on `ctx`
 */
VXP_API VXP_WARN_UNUSED int vxp_report_sweep_grid(vxp_report **out, vxp_context *ctx,
                                                  const vxp_frontier *const *cells, size_t rows,
                                                  size_t columns, const char *row_name,
                                                  const vxp_report_options *opts);

/**
 * The report's text, NUL-terminated; `*len` (may be NULL) receives its length. Borrowed
 * from the report and valid until vxp_report_free. NULL for a NULL report.
 */
VXP_API const char *vxp_report_text(const vxp_report *rep, size_t *len);

/** Free a report. NULL is accepted. */
VXP_API void vxp_report_free(vxp_report *rep);

/* ============================================================================== Editing */

/*
 * An editor keeps one source, program and analysis per document and, after each change,
 * makes the next version of each from the last: vxp_source_edit, vxp_program_reparse (what
 * it reused: vxp_program_reused_tree and the changed ranges) and vxp_analyze_incremental.
 * Each result is the one a fresh parse and analysis of the new text gives; only the time
 * differs.
 */

/**
 * Make the next version of a source, as an editor applies a change: the bytes
 * [start_byte, old_end_byte) of `src` replaced by the `len` bytes of `text` (copied; the
 * caller's buffer may be freed at once). `src` itself is not modified, so programs parsed
 * from it stay valid. The new source has `src`'s label and context, and remembers the edit
 * (and up to 63 before it) so that vxp_program_reparse can reuse the syntax tree of a
 * program parsed from `src` or from an earlier version. Only the edited text is scanned for
 * line breaks; the rest of the line index is shifted.
 *
 * Several edits may be applied one after the other before reparsing; each offset refers to
 * the version it is applied to (LSP's incremental didChange semantics, after converting
 * positions to byte offsets).
 * @param[out] out the new version, owned by the caller (vxp_source_free). It does not
 *             borrow `src`, which may be freed once no program or machine needs it.
 * @return VXP_OK, VXP_ENOMEM, VXP_EINVAL (NULL argument, a range that is reversed or ends
 *         past the text, or a result over 4 GiB). Errors are reported on `src`'s context.
 */
VXP_API VXP_WARN_UNUSED int vxp_source_edit(vxp_source **out, const vxp_source *src,
                                            uint32_t start_byte, uint32_t old_end_byte,
                                            const char *text, size_t len);

/**
 * Parse a new version of a program's source incrementally. When `prog` parsed cleanly and the
 * edits that lead from its source to `src` (see vxp_source_edit) touched only function bodies,
 * only the window of whole top-level items around the changed text is parsed (alone: a text's
 * whole parse is the parses of such windows one after the other), the touched functions are
 * lowered from it, and every other item keeps its lowered model and syntax findings (copied,
 * moved past the edits); the declarations are read again from the windows that hold them. The
 * new program then keeps that window's tree, not a whole one (vxp_program_sexp and CUDA
 * generation parse its text again). Otherwise the whole syntax tree of `prog` (or of the
 * version it was made from, edited to its text) is copied, adjusted by the edits and handed to
 * the parser, which re-reads only what they touched; the new tree is then lowered as
 * vxp_program_parse does, again copying the model of the items the edits did not touch when
 * the touched ones are functions whose signatures did not change. Either way the result is the
 * same program vxp_program_parse(out, ctx, src) would give. When `src` is not an edited
 * version of `prog`'s source (or is more than 64 edits away), it is parsed from scratch; so is
 * a text whose new tree has syntax errors (ERROR or MISSING nodes), because the parser's error
 * recovery over reused subtrees can end in another tree than a fresh parse's.
 *
 * `prog` is only read: it and its analyses stay valid, and may be freed (with their
 * source) as soon as this returns. A typical editor loop, one version to the next:
 *
 *     vxp_source_edit(&src2, src1, start, old_end, text, len);
 *     vxp_program_reparse(&prog2, ctx, prog1, src2);
 *     vxp_analyze(&an2, ctx, prog2, &opts);
 *     vxp_analysis_free(an1); vxp_program_free(prog1); vxp_source_free(src1);
 *
 * @param[out] out the new program, owned by the caller (vxp_program_free). It borrows
 *             `src` (not `prog`), which must outlive it.
 * @return VXP_OK, VXP_ENOMEM, VXP_EINVAL, VXP_ERROR (the parser produced no tree)
 */
VXP_API VXP_WARN_UNUSED int vxp_program_reparse(vxp_program **out, vxp_context *ctx,
                                                const vxp_program *prog, const vxp_source *src);

/**
 * Whether a reparse reused the older program: 1 when the program was made by
 * vxp_program_reparse incrementally from an older program (its syntax tree re-read where
 * the edits touched it, or only the window around them parsed), 0 when it was parsed from scratch
 * (vxp_program_parse, or a source that is not one of the 64 latest edits of the older program's
 * source, or a text whose brackets nest too deep to be parsed whole).
 */
VXP_API int vxp_program_reused_tree(const vxp_program *prog);

/**
 * Number of changed ranges: the parts of the program's source that differ from the older
 * program it was reparsed from, in syntax (the whole extent of every top-level node, an item
 * or a comment between items, whose syntax tree is not the older one's: tree-sitter did not
 * reuse it and a node-by-node comparison differs) or in text (the bytes the edits wrote, an
 * empty range where text was only deleted), sorted and disjoint. A program parsed from
 * scratch has one: the whole text. An editor re-lowers, re-highlights or re-diagnoses only
 * the top-level items these ranges touch.
 */
VXP_API size_t vxp_program_changed_range_count(const vxp_program *prog);

/** Changed range `i`, in the program's source (all zero when out of range). */
VXP_API vxp_range vxp_program_changed_range(const vxp_program *prog, size_t i);

/**
 * Analyse the next version of a program, as an editor does after each change: take over
 * what `previous`, an analysis of an earlier version
 * of the same program (typically the one before vxp_program_reparse), found in the
 * top-level items whose text did not change, and recompute the rest. The result is the one
 * vxp_analyze(out, ctx, prog, opts) gives, diagnostic for diagnostic and byte for byte in
 * its reports; only the time differs.
 *
 * What is taken over today: the visibility checks (E6001, E6003, E6029, E6030, E8002) and
 * the raw:: checks (E6017, E6019, E6020, E6021) of unchanged items; the walk of every
 * function, name resolution and the call-tree fold still run over the whole program. `previous`
 * lends nothing (and this is vxp_analyze) unless it was made in the same context with the same
 * `machine`, `host` and `machine_only`, and the two texts differ only inside functions whose
 * signatures (everything before the body) are unchanged, with the same top-level items in the same
 * order; anything else is analysed afresh.
 *
 * `previous` (and its program and source) is only read, and may be freed as soon as this
 * returns; NULL is accepted. The editor loop of vxp_program_reparse becomes:
 *
 *     vxp_program_reparse(&prog2, ctx, prog1, src2);
 *     vxp_analyze_incremental(&an2, ctx, prog2, an1, &opts);
 *     vxp_analysis_free(an1); vxp_program_free(prog1); vxp_source_free(src1);
 *
 * @param[out] out the new analysis, owned by the caller (vxp_analysis_free). It borrows
 *             `prog` and the machines (not `previous`), which must outlive it.
 * @return as vxp_analyze
 */
VXP_API VXP_WARN_UNUSED int vxp_analyze_incremental(vxp_analysis **out, vxp_context *ctx,
                                                    const vxp_program *prog,
                                                    const vxp_analysis *previous,
                                                    const vxp_analyze_options *opts);

/* ======================================================================= Model programs */

/*
 * A Vx program written from a transformer's Hugging Face configuration (`vxpeak model`):
 * every tensor of the architecture as a tile with its exact shape, grouped by the roles
 * `layer weights`, `embeddings`, `KV cache`, `activations`, `gradients` and `optimizer
 * state`, so that the whole tool chain (check, explain, sweep, frontier, roofline, the
 * language server, emit-cuda) answers for the model. The program states every figure it
 * stands for in its header, worked by hand. docs/models.md is the reference.
 */

/** What the program runs. Explicit values: ABI. */
typedef enum vxp_model_workload {
  VXP_WORKLOAD_DECODE = 1,  /**< one decode step: every active weight and KV cache read */
  VXP_WORKLOAD_PREFILL = 2, /**< CONTEXT tokens per sequence, one layer's activations live */
  VXP_WORKLOAD_TRAIN = 3    /**< one training step: weights, gradients, optimizer state */
} vxp_model_workload;

/** The name of a workload as the command spells it: "decode", "prefill" or "train"; NULL for
 * a value outside the enum. Static storage. */
VXP_API const char *vxp_model_workload_name(vxp_model_workload workload);

/** The optimizer of the train workload. Explicit values: ABI. */
typedef enum vxp_model_optimizer {
  VXP_OPTIMIZER_ADAM = 1, /**< an f32 master copy and two f32 moments per parameter */
  VXP_OPTIMIZER_SGD = 2   /**< the f32 master copy alone: no moments */
} vxp_model_optimizer;

/** The name of an optimizer as the command spells it: "adam" or "sgd"; NULL for a value
 * outside the enum. Static storage. */
VXP_API const char *vxp_model_optimizer_name(vxp_model_optimizer optimizer);

#define VXP_MODEL_CONFIG_VERSION 1

/**
 * The fields of a configuration the programs use, named as config.json names them. A
 * reader of config.json (the command's, Python's) fills it; the library checks every value
 * before it writes anything. Strings are borrowed for the call.
 */
typedef struct vxp_model_config {
  unsigned int version;         /**< VXP_MODEL_CONFIG_VERSION */
  const char *model_type;       /**< "llama", "mistral", "qwen2" or "mixtral" */
  uint64_t hidden_size;         /**< the residual stream's width */
  uint64_t intermediate_size;   /**< the MLP's (each expert's) inner width */
  uint64_t num_hidden_layers;   /**< transformer blocks */
  uint64_t num_attention_heads; /**< query heads */
  uint64_t num_key_value_heads; /**< key/value heads (grouped-query); 0: the query heads */
  uint64_t head_dim;            /**< 0: hidden_size / num_attention_heads */
  uint64_t vocab_size;          /**< rows of the embedding table (and lm_head) */
  uint64_t sliding_window;      /**< mistral, mixtral: tokens the cache keeps; 0: all */
  uint64_t num_local_experts;   /**< mixtral: experts per layer, all resident */
  uint64_t num_experts_per_tok; /**< mixtral: experts each token runs */
  int tie_word_embeddings;      /**< non-zero: lm_head is the embedding table */
  const char *torch_dtype;      /**< "float16", "bfloat16", "float32", or NULL */
  const char *label;            /**< where it came from (a path), for the header; or NULL */
} vxp_model_config;

#define VXP_MODEL_CONFIG_INIT                                                                      \
  { VXP_MODEL_CONFIG_VERSION, NULL, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, NULL, NULL }

/**
 * One tensor of a checkpoint, as its safetensors header lists it (the command reads the
 * header; no tensor data is read). Strings are borrowed for the call.
 */
typedef struct vxp_model_tensor {
  const char *name;  /**< "model.layers.0.self_attn.q_proj.weight" */
  const char *dtype; /**< the header's dtype: "F16", "BF16", "F32", "F8_E4M3", "I32", ... */
  uint64_t bytes;    /**< data_offsets[1] - data_offsets[0] */
} vxp_model_tensor;

#define VXP_MODEL_OPTIONS_VERSION 1

/**
 * What the generated program runs. A dtype is an element type of Vx (f32, f16, bf16,
 * f8e4m3, f8e5m2, i8, u8, i4, u4, f4e2m1) or a torch name (float32, float16, bfloat16).
 */
typedef struct vxp_model_options {
  unsigned int version;          /**< VXP_MODEL_OPTIONS_VERSION */
  vxp_model_workload workload;   /**< VXP_WORKLOAD_DECODE by default */
  uint64_t batch;                /**< sequences (const BATCH); 0: 1 */
  uint64_t context;              /**< tokens per sequence (const CONTEXT); 0: 4096 */
  const char *dtype;             /**< weights' and activations' type; NULL: torch_dtype */
  const char *kv_dtype;          /**< the KV cache's type; NULL: dtype */
  vxp_model_optimizer optimizer; /**< train: VXP_OPTIMIZER_ADAM by default (0) */
  int fused_attention;           /**< prefill, train: no CONTEXT x CONTEXT scores tile */
  int checkpointing;             /**< train: keep each layer's input, recompute the rest */
  const char *command;           /**< the command line to quote in the header, or NULL */
  /**
   * The checkpoint's tensors, or NULL: the weights' bytes then come from them. A tensor
   * belongs to the module its name starts with (`model.layers.3.mlp.gate_proj.` holds a
   * quantized checkpoint's `qweight`, `scales`... too); a tile whose tensors are one dtype
   * and hold its elements exactly takes that element type, any other (quantized, mixed) is
   * a u8 tile of their bytes. Tensors the architecture does not explain, and modules it
   * expects and does not find, are listed in the header (vxp_model_checkpoint counts them).
   */
  const vxp_model_tensor *tensors;
  size_t tensor_count;
} vxp_model_options;

#define VXP_MODEL_OPTIONS_INIT                                                                     \
  {                                                                                                \
    VXP_MODEL_OPTIONS_VERSION, VXP_WORKLOAD_DECODE, 0, 0, NULL, NULL, VXP_OPTIMIZER_ADAM, 0, 0,    \
        NULL, NULL, 0                                                                              \
  }

/**
 * Write the Vx program for `config` and `opts` to `write` (vxp_write_fn). Every value is
 * checked first, so nothing is written for a configuration that is refused; the program
 * is then handed over in one piece.
 * @return VXP_OK; VXP_EINVAL for a NULL argument or a refused configuration or option, the
 *         message naming the field (`hidden_size`, `--batch`...) and, for an unknown
 *         model_type, the supported families; VXP_EVERSION (a struct's version);
 *         VXP_ENOMEM; VXP_EIO when `write` returned non-zero. Failures are reported on `ctx`.
 */
VXP_API VXP_WARN_UNUSED int vxp_model_generate(vxp_context *ctx, const vxp_model_config *config,
                                               const vxp_model_options *opts, vxp_write_fn write,
                                               void *arg);

/**
 * The parameter count of `config` (every tensor of the architecture: attention, MLP or
 * experts and router, norms, biases where the family has them, embeddings, lm_head unless
 * tied), checked as vxp_model_generate checks it.
 * @param[out] out the count; set only on VXP_OK
 * @return VXP_OK, VXP_EINVAL (a NULL argument, a refused configuration), VXP_EVERSION;
 *         reported on `ctx`
 */
VXP_API VXP_WARN_UNUSED int vxp_model_parameters(vxp_context *ctx, const vxp_model_config *config,
                                                 uint64_t *out);

/**
 * How a checkpoint's tensors match the architecture of `config`: `*explained` receives the
 * bytes of the tensors that belong to one of its modules, `*unexplained` the number of
 * tensors that belong to none, `*missing` the number of modules with no tensor. Each may be
 * NULL. The names of both are in the program's header (vxp_model_generate).
 * @return VXP_OK, VXP_EINVAL (a NULL config, tensors or a tensor's name; a refused
 *         configuration), VXP_EVERSION, VXP_ENOMEM; reported on `ctx`
 */
VXP_API VXP_WARN_UNUSED int vxp_model_checkpoint(vxp_context *ctx, const vxp_model_config *config,
                                                 const vxp_model_tensor *tensors, size_t count,
                                                 uint64_t *explained, size_t *unexplained,
                                                 size_t *missing);

/* ============================================================================== Codegen */

/*
 * An optional stage: a CUDA C++ program generated from an analysed program, whose device
 * memory follows the analysis exactly. Every cudaMalloc is one of the analysis' tiles with
 * its granule-rounded bytes, and every cudaFree sits where the analysis releases the tile
 * (the end of the releasing block that placed it, at once for a never-read tile, or the
 * function's exit), so the peak the program measures at run time is the static peak where
 * the function's control flow is straight-line or every branch places the same tiles, and
 * at most the static peak elsewhere (the program names the reason: match arms, which do not
 * release; `if` arms placing different tiles; loops whose trips do not run; a `return`,
 * `break` or `continue` under a condition; a call not taken). The program carries a
 * counting allocator that prints its high-water marks, per memory space and per function,
 * next to vxp_resident_set_peak_bytes and that rule as one line of JSON
 * (schema "vxpeak-cuda-memory-v1") when it exits, with exit status 4 when a rule is broken.
 *
 * The subset: functions returning element-typed scalars or unplaced (host) tensors, and
 * each instance the analysis made of a generic function (one function per instance, named
 * in the program's report as the analysis names it),
 * `let`, tensor constructors (`new`, `uninit`, `fill`), `transfer`, `if`/`else`, `for` over
 * a range, `loop`, `break`, `continue`, `match` on scalars, `unsafe` blocks, calls, `print`,
 * `assert`, and each `spawn on(...)` region as a `__global__` kernel doing its scalar
 * arithmetic on indexed elements. f16, bf16, f8e4m3 and f8e5m2 are stored as CUDA's
 * __half, __nv_bfloat16, __nv_fp8_e4m3 and __nv_fp8_e5m2 and computed in float. Anything else is
 * refused with an error diagnostic (code VXP0800) naming the construct and where it is; nothing is
 * skipped silently. The verdict comes first: a program the analysis rejected
 * (vxp_analysis_error_count > 0) is refused with the analysis' error diagnostics followed by a
 * VXP0800 one, unless VXP_CUDA_ALLOW_REJECTED is passed to vxp_cuda_generate_flags (the program
 * then still says "rejected" in its header); syntax errors always stop generation.
 */

/** vxp_cuda_generate_flags: generate a program the analysis rejected (its static peaks
 * are then not a promise: a GPU with room for them may still run it). */
#define VXP_CUDA_ALLOW_REJECTED 1u

/**
 * Generate CUDA for an analysed program. The analysis is only read (see vxp_roofline_new).
 * @param[out] out the generated program, owned by the caller (vxp_cuda_free), allocated
 *             from `ctx`. It does not borrow `an`, but its diagnostics borrow the program's
 *             source, which must outlive it.
 * The statements are printed from the syntax tree: the program's own, or, for a program
 * parsed with VXP_PROGRAM_NO_TREE, its text parsed again (window by window when it was
 * parsed in windows, each window's tree freed once its functions are generated). The text
 * is held whole in `out`; vxp_cuda_generate_write writes it instead.
 * @return VXP_OK (also when the program is refused: then vxp_cuda_text is NULL and the
 *         diagnostics say why), VXP_ENOMEM, VXP_EINVAL, VXP_ECANCELLED (see Cancellation),
 *         VXP_ERROR (the text parsed again did not give the program's items back: the
 *         parser failed); failures are reported on `ctx`
 */
VXP_API VXP_WARN_UNUSED int vxp_cuda_generate(vxp_cuda **out, vxp_context *ctx,
                                              const vxp_analysis *an);

/**
 * Generate CUDA for an analysed program, choosing whether a rejected one is generated:
 * `flags` is 0 (the same as vxp_cuda_generate) or VXP_CUDA_ALLOW_REJECTED. Ownership, and the
 * context failures are reported on, as vxp_cuda_generate.
 * @return VXP_OK, VXP_ENOMEM, VXP_EINVAL (also for an unknown flag), VXP_ECANCELLED,
 *         VXP_ERROR
 */
VXP_API VXP_WARN_UNUSED int vxp_cuda_generate_flags(vxp_cuda **out, vxp_context *ctx,
                                                    const vxp_analysis *an, unsigned int flags);

/**
 * Generate CUDA for an analysed program straight to `write` (vxp_write_fn): the program of
 * vxp_cuda_generate_flags, byte for byte the same text, never held whole: for a program parsed with
 * VXP_PROGRAM_NO_TREE in windows, each window is parsed again and its functions generated twice
 * (once to find the refusals and what the header and tables say, once to be written as they are
 * generated), and the memory the call takes is one window's tree, the kernels' text, the functions'
 * prototypes and a buffer of 64 KiB, beside the analysis. A program kept whole (its own tree,
 * or a text parsed whole) is generated once and its text written from one buffer. Nothing
 * is written when the program is refused: the refusal is known before the first write.
 * @param[out] out the outcome, owned by the caller (vxp_cuda_free), allocated from `ctx`:
 *             with no diagnostics when the program was written whole, else the refusal's
 *             diagnostics (vxp_cuda_diagnostic), which borrow the program's source; its
 *             vxp_cuda_text is NULL either way. Set only on VXP_OK.
 * @return VXP_OK (written, or refused with nothing written), VXP_ENOMEM, VXP_EINVAL (also a
 *         NULL `write` or an unknown flag), VXP_ECANCELLED, VXP_ERROR, or VXP_EIO when
 *         `write` returned non-zero; a failure after the first write leaves what was written
 *         incomplete (the caller discards it); failures are reported on `ctx`
 */
VXP_API VXP_WARN_UNUSED int vxp_cuda_generate_write(vxp_cuda **out, vxp_context *ctx,
                                                    const vxp_analysis *an, unsigned int flags,
                                                    vxp_write_fn write, void *arg);

/** Free a generated program. NULL is accepted. */
VXP_API void vxp_cuda_free(vxp_cuda *cu);

/**
 * The generated CUDA C++ source (NUL-terminated), or NULL when the program was refused.
 * Owned by `cu` and valid until it is freed. `len` may be NULL.
 */
VXP_API const char *vxp_cuda_text(const vxp_cuda *cu, size_t *len);

/** Number of diagnostics: why the program was refused (none when it was generated). */
VXP_API size_t vxp_cuda_diagnostic_count(const vxp_cuda *cu);

/** Diagnostic `i`, or NULL when out of range. Borrowed from `cu`. */
VXP_API const vxp_diagnostic *vxp_cuda_diagnostic(const vxp_cuda *cu, size_t i);

VXP_END_DECL

#endif /* VXPEAK_H */
