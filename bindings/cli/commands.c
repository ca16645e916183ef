/* SPDX-License-Identifier: Apache-2.0 */
/* commands.c - the table of vxpeak's commands: synopsis, help, options, formats. */
#include "cli.h"

#define O(x) (1u << (x))
#define MACHINE_OPTS                                                                               \
  (O(OPT_MACHINE) | O(OPT_HOST) | O(OPT_MACHINE_ONLY) | O(OPT_DEFINE) | O(OPT_TIME_LIMIT) |        \
   O(OPT_HELP))

static const char *const check_formats[] = {"text", "json", "sarif", NULL};
static const char *const report_formats[] = {"text", "json", NULL};
static const char *const plot_formats[] = {"svg", NULL};
static const char *const frontier_formats[] = {"text", "json", "svg", NULL};

const vxpeak_command vxpeak_commands[] = {
    {"check",
     "FILE.vx [--machine M [--machine-only]] [--host H] [-D NAME=VALUE]... "
     "[--margin P%] [--retype ROLE=TYPE]... [--symbolic NAME,...] [--format text|json|sarif]",
     "analyse a program: its peaks, its verdict and why",
     "Analyse the program and print its diagnostics on standard error in compiler form\n"
     "(file:line:col: error[CODE]: message, the source line with a caret, note: and help:\n"
     "lines), then on standard output the peak of every (function, space) beside the naive\n"
     "sum over the run, the tiles live at the peak, every transfer's route and cost, and the\n"
     "verdict. --format json prints the report; --format sarif writes SARIF 2.1.0 for code\n"
     "scanning. With --margin P%, a peak (or call-tree total) over (100% - P%) of its\n"
     "capacity rejects the program too (the lesson's headroom). Exit status 0 admitted, 1\n"
     "rejected, 2 usage or input/output error.",
     vxpeak_check, MACHINE_OPTS | O(OPT_FORMAT) | O(OPT_MARGIN) | O(OPT_SYMBOLIC) | O(OPT_RETYPE),
     check_formats, false,
     "  $ vxpeak check examples/llama2/prefill.vx -D BATCH=9\n"
     "  $ vxpeak check examples/blog/unrolled.vx --format sarif > vxpeak.sarif\n"},
    {"parse", "FILE.vx [--sexp]", "print the syntax tree and report syntax errors",
     "Print the syntax tree (one node per line, indented by depth up to 64 levels, deeper\n"
     "lines prefixed with [depth N]; or an S-expression with --sexp) and report syntax\n"
     "errors; exit 0 only when the tree has no ERROR or MISSING node.",
     vxpeak_parse, O(OPT_SEXP) | O(OPT_TIME_LIMIT) | O(OPT_HELP), NULL, false,
     "  $ vxpeak parse examples/blog/peak_not_sum.vx\n"},
    {"emit-cuda",
     "FILE.vx [--machine M] [--host H] [-D NAME=VALUE]... [--allow-rejected] -o OUT.cu",
     "generate CUDA whose device memory follows the analysis",
     "Generate CUDA C++ whose device allocations are the analysis' tiles, each a cudaMalloc\n"
     "of its bytes freed where the analysis releases it, each spawn region a kernel; the\n"
     "program prints its measured peaks as JSON at exit. The verdict comes first: a program\n"
     "the analysis rejects is refused with the analysis' errors (exit 1) unless\n"
     "--allow-rejected is given, which generates it with a warning. OUT.cu is written as the\n"
     "program is generated (a long text window by window, never held whole): nothing is\n"
     "written for a refused program, and a file cut short by a write error is removed.\n"
     "Exit status 0 written, 1 refused (rejected by the analysis, or a construct outside\n"
     "the subset: error[VXP0800]), 2 usage or input/output error.",
     vxpeak_emit_cuda, MACHINE_OPTS | O(OPT_OUTPUT) | O(OPT_ALLOW_REJECTED), NULL, true,
     "  $ vxpeak emit-cuda examples/blog/peak_not_sum.vx -o prog.cu\n"},
    {"explain",
     "FILE.vx [--function F] [--space S] [--machine M] [-D NAME=VALUE]... "
     "[--retype ROLE=TYPE]... [--symbolic NAME,...] [--format text|json]",
     "what fills the peak: live tiles by role and by site, peak against sum",
     "For every (function, space) with a capacity: the tiles live at the peak, grouped by\n"
     "the role the program names for them and by source site, with bytes, GiB and share of\n"
     "the peak; then the naive sum over the run beside the peak, and what the difference is\n"
     "made of. A role is named in a comment: `// role: NAME` at the end of a placement's\n"
     "line names that placement; on a line of its own it names every placement below it up\n"
     "to a blank line, the next role comment, or a line that opens or closes a block.",
     vxpeak_explain,
     MACHINE_OPTS | O(OPT_FORMAT) | O(OPT_FUNCTION) | O(OPT_SPACE) | O(OPT_SYMBOLIC) |
         O(OPT_RETYPE),
     report_formats, false,
     "  $ vxpeak explain examples/llama2/prefill.vx --function main\n"
     "  $ vxpeak explain examples/llama2/prefill.vx -D BATCH=9 --format json\n"},
    {"sweep",
     "FILE.vx --const NAME=LO..HI [--machine M]... [--margin P%] [--function F] "
     "[--space S] [-D NAME=VALUE]... [--retype ROLE=TYPE]... [--format text|json]",
     "the largest value of a constant that fits, per machine",
     "Analyse the program again with `const NAME` overridden, for each machine, and report\n"
     "the largest value in LO..HI that fits with the margin: no error, every tile's size\n"
     "known, and every selected function's call-tree total (its own peak, or what it holds\n"
     "across a call plus the callee's total) at most (100% - P%) of its capacity. When\n"
     "every shape that mentions NAME grows with it (sums, products, differences and\n"
     "quotients with constants) and no `if comptime` or generic argument depends on it, the\n"
     "search bisects and analyses both sides of the boundary; otherwise it scans down from\n"
     "HI. Exit status 0 when a value fits on every machine, 1 when not on some, 2 usage or\n"
     "I/O error.",
     vxpeak_sweep,
     MACHINE_OPTS | O(OPT_CONST) | O(OPT_MARGIN) | O(OPT_FUNCTION) | O(OPT_SPACE) | O(OPT_FORMAT) |
         O(OPT_RETYPE),
     report_formats, false,
     "  $ vxpeak sweep examples/llama2/prefill.vx --const BATCH=1..64 --machine a100-40\n"
     "  $ vxpeak sweep examples/llama2/prefill.vx --const BATCH=1..64 --margin 10% \\\n"
     "        --machine a100-40,a100-80,h100-sxm,h200,b200,mi300x,l4,rtx-4090\n"},
    {"roofline",
     "FILE.vx [--function F] [--machine M] [--host H] [-D NAME=VALUE]... "
     "[--traffic compulsory|no-reuse] [--tokens-per-call CONST|N] "
     "[--retype ROLE=TYPE]... [--format text|json]",
     "bytes and operations per call, which of memory and compute binds, tokens/s",
     "For each function with spawn regions (or --function F): the bytes one call's regions\n"
     "read and write per space, counted from their element accesses (x[i][j] moves one\n"
     "element, times the trip counts of the for loops around it), twice: compulsory (each\n"
     "element of a tile once per call, what a kernel with perfect reuse moves; the default\n"
     "for the ceilings) and with no reuse (every access goes to memory); the operations (a\n"
     "multiply-add is two) by element type; each stated as exact, an upper bound (if/else\n"
     "and match arms count their largest arm), or unknown with the reason. Then the memory\n"
     "time (the slowest space at its bandwidth), the compute time (the operations at the\n"
     "topology's declared peak rates, fleet/README.md), the arithmetic intensity and the\n"
     "ridge point, which binds and by how much, calls/s and, with --tokens-per-call,\n"
     "tokens/s; and what streaming the tiles that came from host memory would cost. A\n"
     "machine without compute rates says that it cannot name the bound.",
     vxpeak_roofline,
     MACHINE_OPTS | O(OPT_FUNCTION) | O(OPT_FORMAT) | O(OPT_TRAFFIC) | O(OPT_TOKENS) |
         O(OPT_RETYPE),
     report_formats, false,
     "  $ vxpeak roofline examples/llama2/prefill.vx --function decode_step\n"
     "  $ vxpeak roofline examples/llama2/prefill.vx --function decode_step --machine h100-sxm \\\n"
     "        --host default --format json\n"},
    {"frontier",
     "FILE.vx --const NAME=LO..HI [--machine M] [--host H] [--margin P%] "
     "[--tokens-per-call CONST|N] [--traffic compulsory|no-reuse] [--function F] "
     "[--space S] [-D NAME=VALUE]... [--retype ROLE=TYPE]... [--format text|json|svg] [-o FILE]",
     "per batch size: fits?, time per call, tokens/s, bound; where each turns",
     "Analyse the program at every value of `const NAME` in LO..HI (at most 4096 values):\n"
     "its peak against the capacity (with --margin kept free), whether it fits, one call's\n"
     "time (the larger of its memory and compute times, as roofline prices it), tokens/s\n"
     "(--tokens-per-call: a constant such as the batch itself, or a number) and the bound.\n"
     "Then the largest value that fits, the value at which the bound turns from memory to\n"
     "compute, and the best throughput that fits. --format svg draws tokens/s against the\n"
     "constant with the bandwidth and compute ceilings and the capacity wall (-o FILE, or\n"
     "standard output). Exit status 0 when some value fits, 1 when none does, 2 usage or\n"
     "I/O error.",
     vxpeak_frontier,
     MACHINE_OPTS | O(OPT_CONST) | O(OPT_MARGIN) | O(OPT_FUNCTION) | O(OPT_SPACE) | O(OPT_FORMAT) |
         O(OPT_OUTPUT) | O(OPT_TRAFFIC) | O(OPT_TOKENS) | O(OPT_RETYPE),
     frontier_formats, false,
     "  $ vxpeak frontier examples/llama2/decode.vx --const BATCH=1..256 --tokens-per-call BATCH\n"
     "  $ vxpeak frontier examples/llama2/decode.vx --const BATCH=1..64 --machine h100-sxm \\\n"
     "        --host default --margin 10% --format svg -o frontier.svg\n"},
    {"advise",
     "FILE.vx [--machine M] [--host H] [-D NAME=VALUE]... [--margin P%] "
     "[--tokens-per-call CONST|N] [--retype ROLE=TYPE]... [--format text|json]",
     "for a program that does not fit: the changes that make it fit, each analysed",
     "For a program that does not fit (with --margin kept free): the changes that make it\n"
     "fit, each found by analysing the program with the change applied: the largest value of\n"
     "each constant that sizes a tile (sweep's answer in 1..its value), each machine of the\n"
     "fleet on which it fits as it is, and per role the widest narrower element type\n"
     "(--retype) the machine's dtypes allow. Each with its peak and, where the roofline\n"
     "applies, tokens/s (--tokens-per-call); fewest bytes given up first, then the most\n"
     "tokens/s. A program that fits gets the headroom of each (function, space) instead.\n"
     "--format json: schema vxpeak-advice-v1. Exit status 0 when it fits as it is, 1 when it\n"
     "does not, 2 usage or I/O error.",
     vxpeak_advise, MACHINE_OPTS | O(OPT_FORMAT) | O(OPT_MARGIN) | O(OPT_TOKENS) | O(OPT_RETYPE),
     report_formats, false,
     "  $ vxpeak advise examples/llama2/decode.vx -D BATCH=16 --tokens-per-call BATCH\n"
     "  $ vxpeak advise examples/llama2/decode.vx -D BATCH=16 --format json\n"},
    {"calibrate",
     "FILE.vx [--measured BYTES | --measured-from FILE] [--overhead NAME=SIZE]... "
     "[--offered SIZE] [--space S] [--function F] "
     "[--machine M] [--host H] [-D NAME=VALUE]... -o MACHINE.vx [--format text|json]",
     "one measured peak as a named, dated overhead in a copy of the machine model",
     "Set a peak measured on a real run beside the static peak of a function (default: main,\n"
     "else the fullest) in a space (default: the fullest): the residual (what the program\n"
     "does not declare: the CUDA context, the framework's workspace, the allocator's\n"
     "rounding) is taken out of that space's capacity in a copy of the machine model,\n"
     "written to -o with a dated `// overhead:` line, so that --machine MACHINE.vx carries\n"
     "it in every later answer (check, sweep, frontier, advise). A negative residual (the\n"
     "program declares more than the run used) is reported and never stored as extra\n"
     "capacity. --measured-from reads torch.cuda.memory_stats() saved as JSON. --overhead\n"
     "names an overhead a log states (an activation peak, non-torch memory), --offered the\n"
     "memory the framework sees; a --margin is then a share of what the device offers, the\n"
     "overheads held inside it. Exit status 0\n"
     "written, 2 usage or I/O error.",
     vxpeak_calibrate,
     MACHINE_OPTS | O(OPT_FORMAT) | O(OPT_FUNCTION) | O(OPT_SPACE) | O(OPT_OUTPUT) |
         O(OPT_MEASURED) | O(OPT_MEASURED_FROM) | O(OPT_OVERHEAD) | O(OPT_OFFERED),
     report_formats, true,
     "  $ vxpeak calibrate examples/llama2/decode.vx --measured 32858265088 -o calibrated.vx\n"
     "  $ vxpeak sweep examples/llama2/decode.vx --const BATCH=1..64 --machine calibrated.vx \\\n"
     "        --host default\n"},
    {"plot", "FILE.vx -o OUT.svg [--function F] [--space S] [--machine M] [-D NAME=VALUE]...",
     "a picture: live bytes along program order, capacity, peak and what fills it",
     "Write a standalone SVG with one panel per (function, space): the bytes live at each\n"
     "position of program order (placements and calls) as a step curve, the capacity as a\n"
     "dashed line, the peak marked and labelled with its breakdown by role, and each\n"
     "position's source line on hover. '-o -' writes to standard output.",
     vxpeak_plot, MACHINE_OPTS | O(OPT_FUNCTION) | O(OPT_SPACE) | O(OPT_OUTPUT), plot_formats, true,
     "  $ vxpeak plot examples/llama2/prefill.vx --function main -o timeline.svg\n"
     "  $ vxpeak plot examples/llama2/prefill.vx -D BATCH=9 --function main -o batch9.svg\n"},
    {"model",
     "CONFIG.json [--workload decode|prefill|train] [--batch N] [--context N] [--dtype T] "
     "[--kv-dtype T] [--optimizer adam|sgd] [--fused-attention] [--checkpointing] "
     "[--weights FILE] [-o OUT.vx]",
     "write the Vx program of a model from its Hugging Face config.json",
     "Read a model's config.json (model_type llama, mistral, qwen2 or mixtral) and write a\n"
     "Vx program with every tensor of the architecture as a tile of its exact shape, labelled\n"
     "by role (layer weights, embeddings, KV cache, activations, gradients, optimizer\n"
     "state), `const` BATCH and CONTEXT for -D, sweep and frontier, and a header that works\n"
     "the parameter count, the bytes of each role and the peak out by hand. Analyse it as\n"
     "any program: check, explain --function main, sweep, frontier, roofline. A\n"
     "configuration that is missing a field, has one of the wrong type or size, or names\n"
     "another family is refused with the field named, and nothing is written. See\n"
     "docs/models.md. Exit status 0 written, 2 refused or an input/output error.",
     vxpeak_model,
     O(OPT_WORKLOAD) | O(OPT_BATCH) | O(OPT_CONTEXT) | O(OPT_DTYPE) | O(OPT_KV_DTYPE) |
         O(OPT_OPTIMIZER) | O(OPT_FUSED) | O(OPT_CHECKPOINTING) | O(OPT_WEIGHTS) | O(OPT_OUTPUT) |
         O(OPT_HELP),
     NULL, false,
     "  $ vxpeak model examples/models/llama-2-7b.json --workload decode -o llama.vx\n"
     "  $ vxpeak model examples/models/mixtral-8x7b.json --workload train --dtype bf16\n"},
    {"lsp", "[--stdio]", "a language server for editors, over standard input and output",
     "Serve the Language Server Protocol over standard input and output (--stdio is\n"
     "accepted and is the only transport): diagnostics as you type, hover on a placement,\n"
     "its binding or a function, inlay hints with each placement's bytes, a code lens per\n"
     "function with its peak per space against capacity, document symbols. The machine,\n"
     "host and constant overrides come from the client's initializationOptions or\n"
     "workspace/didChangeConfiguration: {\"machine\": \"h100-sxm\", \"host\": \"default\",\n"
     "\"defines\": {\"BATCH\": 9}}. See docs/editors.md. Exit status 0 after shutdown and\n"
     "exit, 1 when the input ends without them.",
     vxpeak_lsp, O(OPT_HELP), NULL, false, "  $ vxpeak lsp --stdio\n", true},
};

const size_t vxpeak_command_count = sizeof(vxpeak_commands) / sizeof(vxpeak_commands[0]);
