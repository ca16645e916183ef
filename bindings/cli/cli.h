/* SPDX-License-Identifier: Apache-2.0 */
/* cli.h - shared declarations of the vxpeak command's source files. */
#ifndef VXPEAK_CLI_H
#define VXPEAK_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "vxpeak.h"

enum { VXPEAK_EXIT_OK = 0, VXPEAK_EXIT_REJECTED = 1, VXPEAK_EXIT_USAGE = 2 };

/* ------------------------------------------------------------------ options (args.c) */

/* Every option any command takes. A command lists the ones it accepts (commands.c), and
 * its --help is generated from that list, so help and parser cannot disagree. */
typedef enum vxpeak_opt {
  OPT_MACHINE,
  OPT_HOST,
  OPT_MACHINE_ONLY,
  OPT_DEFINE,
  OPT_FORMAT,
  OPT_FUNCTION,
  OPT_SPACE,
  OPT_CONST,
  OPT_MARGIN,
  OPT_OUTPUT,
  OPT_SEXP,
  OPT_ALLOW_REJECTED,
  OPT_TRAFFIC,
  OPT_TOKENS,
  OPT_TIME_LIMIT,
  OPT_WORKLOAD,
  OPT_BATCH,
  OPT_CONTEXT,
  OPT_DTYPE,
  OPT_KV_DTYPE,
  OPT_OPTIMIZER,
  OPT_FUSED,
  OPT_CHECKPOINTING,
  OPT_WEIGHTS,
  OPT_SYMBOLIC,
  OPT_RETYPE,
  OPT_MEASURED,
  OPT_MEASURED_FROM,
  OPT_OVERHEAD,
  OPT_OFFERED,
  OPT_HELP,
  OPT_COUNT
} vxpeak_opt;

#define VXPEAK_MAX_DEFINES 64
#define VXPEAK_MAX_MACHINES 32
#define VXPEAK_MAX_RETYPES 16
#define VXPEAK_MAX_OVERHEADS 8
#define VXPEAK_MAX_SYMBOLIC 8 /* the library's limit (vxp_formula_new) */

/* The parsed command line of one command. */
/* Most values on one axis of sweep's grid (a range or a list). */
#define VXPEAK_MAX_GRID 64

typedef struct vxpeak_args {
  const char *command;
  const char *file;
  const char *machines[VXPEAK_MAX_MACHINES];
  char machine_names[VXPEAK_MAX_MACHINES][256]; /* the names of comma-separated lists */
  size_t machine_count;
  const char *host;
  bool machine_only;  /* --machine-only: the program's own model ignored */
  const char *format; /* the command's first format unless given */
  const char *function;
  const char *space;
  const char *output;
  bool sexp;
  bool allow_rejected; /* emit-cuda: generate a rejected program */
  vxp_const_override defines[VXPEAK_MAX_DEFINES];
  char define_names[VXPEAK_MAX_DEFINES][128];
  size_t define_count;
  bool has_sweep; /* --const NAME=LO..HI */
  char sweep_name[128];
  uint64_t sweep_lo, sweep_hi;
  bool has_sweep2; /* a second --const: sweep's grid */
  char sweep2_name[128];
  uint64_t sweep2_lo, sweep2_hi;
  size_t sweep_list[2]; /* NAME=A,B,C: how many values listed (0: the range) */
  uint64_t sweep_values[2][VXPEAK_MAX_GRID];
  uint32_t margin_ppm;     /* --margin P%, in parts per million of capacity */
  bool no_reuse;           /* --traffic no-reuse (default compulsory) */
  const char *tokens_name; /* --tokens-per-call CONST|N, or NULL (1 per call) */
  uint64_t time_limit_us;  /* --time-limit SECONDS, in microseconds (0: none) */
  /* model: the workload and what the program is written for (0 / NULL: the defaults). */
  const char *workload, *dtype, *kv_dtype, *optimizer;
  uint64_t model_batch, model_context;
  bool fused_attention, checkpointing;
  const char *weights;                       /* --weights: a .safetensors header or an index.json */
  const char *symbolic[VXPEAK_MAX_SYMBOLIC]; /* --symbolic NAME,...: the names, in order */
  char symbolic_names[VXPEAK_MAX_SYMBOLIC][128];
  size_t symbolic_count;
  vxp_retype retypes[VXPEAK_MAX_RETYPES]; /* --retype ROLE=TYPE, in order */
  char retype_text[VXPEAK_MAX_RETYPES][256];
  size_t retype_count;
  bool has_measured; /* --measured BYTES */
  uint64_t measured;
  const char *measured_from; /* --measured-from FILE (torch.cuda.memory_stats() as JSON) */
  char overhead_name[VXPEAK_MAX_OVERHEADS][128]; /* --overhead NAME=SIZE, in order */
  uint64_t overhead_bytes[VXPEAK_MAX_OVERHEADS];
  size_t overhead_count;
  uint64_t offered; /* --offered SIZE: what the device offers as the framework sees it; 0: none */
} vxpeak_args;

/* A command: its name, what it does, which options it takes, which formats it writes. */
typedef struct vxpeak_command {
  const char *name;
  const char *synopsis;    /* after "vxpeak NAME " */
  const char *summary;     /* one line for `vxpeak --help` */
  const char *description; /* a paragraph for `vxpeak NAME --help` */
  int (*run)(const vxpeak_args *args);
  unsigned options;           /* bit (1u << vxpeak_opt) per accepted option */
  const char *const *formats; /* NULL-terminated; the first is the default */
  bool needs_output;          /* -o is required */
  const char *examples;       /* lines "  $ vxpeak ..." */
  bool no_file;               /* takes no FILE.vx (lsp) */
} vxpeak_command;

/* The commands, in help order, and their count (commands.c). */
extern const vxpeak_command vxpeak_commands[];
extern const size_t vxpeak_command_count;

/* Parse `argv` (the words after the command name) for `cmd` into `out`. Returns
 * VXPEAK_EXIT_OK, VXPEAK_EXIT_USAGE (a one-line reason printed on stderr), or -1 when
 * --help was asked for (the caller prints it). */
int vxpeak_args_parse(const vxpeak_command *cmd, int argc, char **argv, vxpeak_args *out);

/* `vxpeak --help` (every command and option, with examples) and `vxpeak CMD --help`. */
void vxpeak_help_all(FILE *out);
void vxpeak_help_command(FILE *out, const vxpeak_command *cmd);

/* ------------------------------------------------------------------ time limit (timelimit.c) */

/* Start the command's deadline, `microseconds` from now (0: none). Returns -1 when the
 * system refuses the timer. */
int vxpeak_time_limit_start(uint64_t microseconds);
/* Make `ctx`'s calls stop with VXP_ECANCELLED once the deadline passes (no-op without one). */
void vxpeak_time_limit_watch(vxp_context *ctx);
/* True when the deadline has passed; `*microseconds` is then the limit that was given. */
bool vxpeak_time_limit_reached(uint64_t *microseconds);

/* ------------------------------------------------------------------ commands */

int vxpeak_check(const vxpeak_args *args);
int vxpeak_frontier(const vxpeak_args *args);
int vxpeak_parse(const vxpeak_args *args);
int vxpeak_emit_cuda(const vxpeak_args *args);
int vxpeak_explain(const vxpeak_args *args);
int vxpeak_sweep(const vxpeak_args *args);
int vxpeak_roofline(const vxpeak_args *args);
int vxpeak_plot(const vxpeak_args *args);
int vxpeak_advise(const vxpeak_args *args);
int vxpeak_calibrate(const vxpeak_args *args);
int vxpeak_lsp(const vxpeak_args *args);
int vxpeak_model(const vxpeak_args *args);

/* The language server's stdio loop (bindings/lsp/serve.c, linked into the command):
 * serves until `exit` or end of input and returns the exit status. */
int vxpeak_lsp_serve(int in_fd, int out_fd);

/* ------------------------------------------------------------------ sessions (session.c) */

/* A program read and parsed, and the machine models its analyses run against. */
typedef struct vxpeak_program {
  vxp_context *ctx;
  vxp_source *src;
  vxp_program *prog;
} vxpeak_program;

/* One machine choice: the device model (--machine, or the built-in default when the
 * program declares none) and the host (--host, implied `default` with the built-in). */
typedef struct vxpeak_target {
  const char *label; /* what the user named: the --machine word, or NULL */
  vxp_source *machine_src, *host_src;
  vxp_machine *machine, *host;
} vxpeak_target;

/* Read and parse `file` with vxp_program_parse_flags' `flags` (VXP_PROGRAM_NO_TREE for a
 * command that only analyses: the tree is then not kept beside the analysis). Returns an
 * exit code; close it whatever it returns. */
int vxpeak_program_open(vxpeak_program *p, const char *file, unsigned int flags);
void vxpeak_program_close(vxpeak_program *p);

/* Load the machine models for `machine_arg` (NULL: the program's own declarations, or
 * the built-in a100-40 when it declares none) and `host_arg` (NULL: none, or `default`
 * with the built-in machine). This is the one place that decides the defaults. Returns
 * an exit code; close the target whatever it returns. */
int vxpeak_target_open(vxpeak_target *t, const vxpeak_program *p, const char *machine_arg,
                       const char *host_arg);
void vxpeak_target_close(vxpeak_target *t);

/* Analysis options for a target and the -D overrides of `args`. */
vxp_analyze_options vxpeak_target_options(const vxpeak_target *t, const vxpeak_args *args);

/* A program, its (first) target and the analysis: what most commands need. */
typedef struct vxpeak_session {
  vxpeak_program program;
  vxpeak_target target;
  vxp_analysis *an;
} vxpeak_session;

/* Open a session for `args` (file, first --machine, --host, -D). Returns an exit code;
 * close the session whatever it returns. */
int vxpeak_session_open(vxpeak_session *s, const vxpeak_args *args);
void vxpeak_session_close(vxpeak_session *s);

/* The machine a session runs against, for the first line of every text report: the
 * --machine word, the built-in default's name, or "the program's own declarations". */
const char *vxpeak_target_name(const vxpeak_target *t);

/* --tokens-per-call: a number, or a `const` item folded as the analysis folds it (with
 * -D); 1 when not given. False (a one-line reason printed) when the constant is unknown. */
bool vxpeak_tokens_per_call(const vxpeak_args *args, vxp_context *ctx, const vxp_analysis *an,
                            uint64_t *out);

/* Print a report the library rendered on stdout, as it is. */
void vxpeak_print_report(const vxp_report *rep);

/* Print "vxpeak: <what>: <message>" for a failed library call; returns VXPEAK_EXIT_USAGE. */
int vxpeak_fail(vxp_context *ctx, int rc, const char *what);

/* Resolve --machine: an existing file, a built-in name, or fleet/NAME.vx found next to
 * the installed or source-tree fleet. On success *out_src may be NULL (a built-in). */
int vxpeak_load_machine(vxp_context *ctx, const char *arg, vxp_source **out_src,
                        vxp_machine **out_machine);

/* Whether an analysed function or space named by --function/--space exists; prints a
 * one-line reason listing what does and returns false otherwise. */
bool vxpeak_check_selection(const vxpeak_args *args, const vxp_analysis *an);

/* ------------------------------------------------------------------ output pieces (textout.c) */

/* `v` grouped by thousands (12,952,010,752) into `buf`; returns `buf`. */
const char *vxpeak_grouped(uint64_t v, char buf[32]);
/* `s` as a JSON string (quoted, escaped) on `out`. */
void vxpeak_json_string(FILE *out, const char *s);

/* ------------------------------------------------------------------ formulas (symbolic.c) */

/* --symbolic's formula of the session's analysis into *out (NULL without --symbolic).
 * Returns an exit code (a one-line reason printed when a name is no const item). */
int vxpeak_symbolic_open(const vxpeak_args *args, const vxpeak_session *s, vxp_formula **out);

/* ------------------------------------------------------------------ streamed output (outfile.c) */

/* The file a command streams its output to (`-`: standard output), opened at the first
 * piece, so that nothing is created when there is nothing to write. */
typedef struct vxpeak_out_file {
  const char *path;
  FILE *f;
  bool opened; /* a regular file was opened (so one cut short is removed) */
  int error;   /* errno of the failed open or write, or 0 */
} vxpeak_out_file;

void vxpeak_out_file_init(vxpeak_out_file *of, const char *path);
/* A vxp_write_fn (`arg` is the vxpeak_out_file): non-zero when the file cannot be opened or
 * takes fewer bytes than given. */
int vxpeak_out_file_write(void *arg, const char *bytes, size_t len);
/* Close the file (flush standard output); false, with `error`, when the last bytes could
 * not be written. Closing twice is harmless. */
bool vxpeak_out_file_close(vxpeak_out_file *of);
/* Remove what was written when it is a regular file this command opened: an output cut
 * short is not left behind as if it were whole (`-o /dev/full` or a FIFO is a place to
 * write, not a file the command made). */
void vxpeak_out_file_discard(const vxpeak_out_file *of);

/* ------------------------------------------------------------------ checkpoints (safetensors.c) */

/* The tensors of a checkpoint (`vxpeak model --weights`): the names and dtypes borrow the
 * parsed headers kept in `roots` (jansson values, opaque here). */
typedef struct vxpeak_tensors {
  vxp_model_tensor *items;
  size_t count, cap;
  void **roots;
  size_t root_count, root_cap;
} vxpeak_tensors;

/* Read the header of a .safetensors file, or of every shard a *.json index names. Returns an
 * exit code (a one-line reason with the byte offset printed); free the tensors whatever it
 * returns. */
int vxpeak_tensors_read(const char *file, vxpeak_tensors *t);
void vxpeak_tensors_free(vxpeak_tensors *t);

/* ------------------------------------------------------------------ diagnostics (render.c) */

/* Render one diagnostic in compiler form: `file:line:col: error[CODE]: message`, the
 * source line with a caret under the range, then its notes and help lines. */
void vxpeak_render_diagnostic(FILE *out, const vxp_diagnostic *d, bool color);

/* Render every diagnostic of an analysis on `out` (coloured when `out` is a terminal). */
void vxpeak_render_all(FILE *out, const vxp_analysis *an);

/* Text output renders at most this many diagnostics; a broken file can yield thousands, and
 * the JSON and SARIF reports keep every one. */
#define VXPEAK_MAX_RENDERED 100

/* Render diagnostic `index` of `count` unless past VXPEAK_MAX_RENDERED; the first one past
 * it prints how many are not shown. Returns whether `d` was rendered. */
bool vxpeak_render_nth(FILE *out, const vxp_diagnostic *d, size_t index, size_t count, bool color);

/* Whether to colour output written to `out` (a terminal, and NO_COLOR unset). */
bool vxpeak_use_color(FILE *out);

#endif /* VXPEAK_CLI_H */
