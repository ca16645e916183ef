/* SPDX-License-Identifier: Apache-2.0 */
/* codes.c - every diagnostic code vxpeak reports, with its meaning and remedy. Codes
 * from vxc keep vxc's meaning; VXP codes are vxpeak's own. */
#include "codes.h"

#define E VXP_SEVERITY_ERROR
#define W VXP_SEVERITY_WARNING

static const vxp_code_info catalogue[] = {
    {"E1011", "UnknownMemorySpace", "A machine declaration names an unknown memory space.",
     "A `within:` entry or `transfer` edge of a Memory or Topology declaration names a space "
     "that no input declares, that is not one of Vx's built-in spaces and that no topology "
     "holds (as its `memory:` or in its `visible:` list), or a `visible:` entry misspells a "
     "declared space: the hierarchy or route it describes does not exist.",
     "Correct the name (the help line suggests the closest declared space), or declare the "
     "space.",
     E},
    {"E1012", "UnknownElementType", "A tensor's element type is not an element type.",
     "The element of a `Tensor<...>` is neither one of Vx's element types (bool, i4..i128, "
     "u4..u128, f4e2m1, f8e4m3, f8e5m2, f16, bf16, f32, f64) nor a generic type parameter in "
     "scope, so the tensor has no size.",
     "Write an element type (`f16`, not `fp16`), or declare the generic parameter.", E},
    {"E2001", "UndefinedName", "A name that is defined nowhere.",
     "A name in a shape, a generic argument, a `for` bound or an `if comptime` condition is "
     "no const item, -D override, generic parameter or variable in scope: the value it stands "
     "for does not exist, so the tile it sizes cannot be checked.",
     "Correct the name (the help line suggests the closest const item), declare a `const`, or "
     "pass -D NAME=VALUE.",
     E},
    {"E2002", "UndefinedFunction", "A call to a function that is defined nowhere.",
     "A function is called by a name the program does not define, and the program imports "
     "nothing it could come from, so what the call places is unknown.",
     "Correct the name (the help line suggests the closest function), define the function, "
     "or declare it in an `extern` block.",
     E},
    {"E3026", "PlacementQueryUndecided", "A `.topology()` query that cannot be decided.",
     "Placement is a fact of a value's type, compared with `Some(Topology::T)` or `None` at "
     "compile time; here where the value lives is not known (a call's result, a parameter "
     "of a generic topology).",
     "Query a value whose placement is written: a `spawn on(..)` result, a `Pinned<T, "
     "Topology::X>`, a placed tensor.",
     E},
    {"E3032", "RunawayInstantiation", "A generic function instantiates itself without end.",
     "Each instance of a generic function calls it again with new arguments (`f<N - 1>` "
     "inside `f<N>`), and no `if comptime` prunes the call before 128 instances deep.",
     "Guard the recursive call with an `if comptime` on the argument, so that the base case "
     "makes no further instance.",
     E},
    {"E6001", "CallNeedsItsTopology", "A function bound to a topology is called elsewhere.",
     "`fn f(..) on Topology::T` runs only on T; the call is made in host code or in a region "
     "on another topology.",
     "Call it inside `spawn on(Topology::T) { }`, or drop `on` from the function.", E},
    {"E6002", "NoTransferRoute", "A transfer has no hardware path.",
     "No chain of `transfer` edges of the declared topologies (or Vx's built-in ones) leads "
     "from the space the value lives in to the destination.",
     "Declare the missing edge in a Topology, or transfer through a space that has one.", E},
    {"E6003", "SpaceNotVisible", "A value is used where its memory cannot be seen.",
     "An element of a tensor is read or written by code running on a topology whose "
     "`visible:` list (or default space) does not include the space the tensor lives in.",
     "Transfer the value to a space that topology sees first (`transfer(x, Memory::S)`), or "
     "run the code on a topology that sees it.",
     E},
    {"E6005", "TopologyCannotSeeItsMemory", "A topology cannot see its own memory.",
     "A Topology's `memory:` space is not in its `visible:` list.",
     "Add the space to `visible:`, or name a visible space in `memory:`.", E},
    {"E6006", "WithinCycle", "Memory spaces contain each other.",
     "The `within:` declarations form a cycle.", "Break the cycle: one space must be the root.", E},
    {"E6007", "SpaceLargerThanParent", "A space is larger than the space it is within.",
     "A Memory's `capacity` exceeds the capacity of its `within:` parent.",
     "Correct the capacity, or the `within:` parent.", E},
    {"E6008", "NonPositiveFigure", "A capacity, bandwidth or granule is not positive.",
     "Memory figures must be greater than zero.", "Write a positive figure, or leave it out.", E},
    {"E6009", "TileOverCapacity", "One tile is larger than its memory space.",
     "A single placement (or a declared parameter, return value or field) needs more bytes "
     "than the space's `capacity`, rounded up to its `granule`.",
     "Split the tensor into tiles placed one per iteration of a loop body, or place it in a "
     "larger space.",
     E},
    {"E6010", "WorkingSetOverCapacity", "The tiles live at once exceed their memory space.",
     "The peak working set of a function in a space (the largest number of bytes live at "
     "once, with releasing blocks freeing their tiles) exceeds the space's capacity.",
     "Read the notes: they list what is live at the peak. Place tiles in loop bodies that "
     "release them, make them smaller (vxpeak sweep finds the largest constant that fits), "
     "or declare the space `overcommit` if it may spill.",
     E},
    {"E6011", "ScopeWiderThanParent", "A space's scope is broader than its parent's.",
     "A Memory's `scope:` is broader (device < sm < cta < thread) than its `within:` parent's.",
     "Narrow the scope, or correct the parent.", E},
    {"E6012", "DeclaredTwice", "Two inputs declare the same name.",
     "The program, --machine and --host together declare a Memory or Topology twice.",
     "Pass each model once; leave the machine's declarations out of the program.", E},
    {"E6013", "TwoCostSources", "A transfer edge has two cost sources.",
     "The edge declares a cost while the spaces' bandwidths already derive one.",
     "Remove the edge's cost, or the bandwidth it duplicates.", E},
    {"E6014", "HostNotDeclared", "A transfer touches host memory, but no host is declared.",
     "A machine model is declared and a transfer moves data to or from CPU_DRAM, which "
     "nothing describes.",
     "Pass --host FILE, or --host default.", E},
    {"E6015", "LoweringMalformed", "A transfer lowering that cannot be in force.",
     "`impl Transfer<Memory::A, Memory::B> for Topology::X` names a topology no input "
     "declares, a built-in topology (it declares no edges of its own), or one that does not "
     "declare the edge A -> B; or it declares no function, or a generic one (never "
     "instantiated, so never checked); or X has two lowerings of the edge. At a transfer "
     "outside any topology that declares the edge, two topologies' lowerings of it leave "
     "no way to choose.",
     "Declare the topology and its edge, give the lowering one non-generic function, keep "
     "one lowering per edge and topology, and move an ambiguous transfer into a `spawn on` "
     "region of the machine that owns the edge.",
     E},
    {"E6016", "TopologyShadowsBuiltin", "A topology shadows a built-in one.",
     "A declared Topology has the name of one of Vx's built-in topologies.", "Rename the topology.",
     E},
    {"E6017", "RawPrimitiveMisused", "A `raw::` primitive is used where it cannot be.",
     "The `raw::` primitives (load, store, extent, lane, lanes, barrier, async_copy, "
     "async_wait) exist only in transfer lowering bodies, outside closures, on tiles that are "
     "the lowering's parameters; a tile written through one is held by `&mut`.",
     "Move the call into the lowering's own body, name a parameter, or declare the written "
     "tile `&mut`.",
     E},
    {"E6018", "RawIndexOutOfBounds", "A `raw::` index that can leave its tile.",
     "A `raw::load`, `raw::store` or `raw::async_copy` in a transfer lowering indexes a tile "
     "whose extent is not static, or with an index that leaves the tile on some run its "
     "constant `let`s and `for` ranges allow. vxc proves `0 <= index < extent` with a solver "
     "and refuses what it cannot prove; vxpeak decides the part that needs no solver (an "
     "index it cannot decide is VXP0045).",
     "Bound the index by a loop over `raw::extent(tile)`, declare the tile with literal "
     "dimensions, or assert the bound in an `unsafe` block.",
     E},
    {"E6019", "BarrierNotReachedByEveryLane", "raw::barrier() is under control flow.",
     "A barrier inside a loop, an `if` or a `match` of a lowering is not reached by every "
     "lane, and the lanes that reach it wait for the others forever.",
     "Move the barrier to the top level of the lowering's body (a top-level `unsafe` block "
     "counts as top level).",
     E},
    {"E6020", "NoCopyEngine", "raw::async_copy on an edge without a copy engine.",
     "The lowering's own topology does not mark its `transfer` edge `copy_engine`, so no "
     "hardware runs the asynchronous copy (another machine's engine does not count).",
     "Declare `copy_engine` on the edge if the part has one, or copy with raw::load and "
     "raw::store.",
     E},
    {"E6021", "AsyncOrPublicationBroken", "A lowering's copies or writes are not settled.",
     "A tile is read (or written) while a raw::async_copy into (or from) it is outstanding, a "
     "copy has no raw::async_wait() on some way out of the lowering, or a lowering that writes "
     "its destination on a synchronizing edge does not end with raw::barrier() or leaves by "
     "an early `return` before it.",
     "Wait for the copies before touching their tiles and before returning; end the body "
     "with raw::barrier(), with no `return` before it.",
     E},
    {"E6022", "LoweringSpaceNotVisible", "A lowering's topology cannot see a space it moves.",
     "`impl Transfer<Memory::A, Memory::B> for Topology::X` with a body that calls the "
     "`raw::` primitives, where X declares the edge A -> B but its `visible:` list (or "
     "default space) lacks A or B (CPU_DRAM excepted): the lowering would run on a part that "
     "cannot address the space.",
     "Add the space to X's `visible:` list, or write the lowering for a topology that sees "
     "both ends.",
     E},
    {"E6023", "LoweringTileMismatch", "A lowering's declared tile is not the tile moved.",
     "The lowering that moves a transfer declares a source and a destination of different "
     "shapes, or a tile whose element type or shape differs from the tile the transfer "
     "moves: the `raw::` primitives read their extents from the declaration, so the body "
     "would copy part of the tile or write past it.",
     "Declare the lowering's tiles with the shape and element type of the tiles moved over "
     "its edge.",
     E},
    {"E6025", "PlacementNamesNoPlace",
     "A placement names a memory space or topology that does not exist.",
     "A tensor type, `transfer`, parameter, return type or field places a value in "
     "`Memory::S` (or on `Topology::T`) that no input declares and Vx does not build in: the "
     "tile would count against no capacity at all.",
     "Correct the name (the help line suggests the closest declared one), or declare the space "
     "in the machine model.",
     E},
    {"E6026", "ElementTypeNotOnMachine", "A tensor's element type is not one its hardware holds.",
     "The topology holding the memory space declares `dtypes:`, and the placed tensor's element "
     "type is not among them: the hardware cannot represent it.",
     "Convert the tensor to a listed type, or place it on hardware that lists its type.", E},
    {"E6027", "CallTreeOverCapacity", "A call path exceeds a memory space.",
     "Along the call path the message names, the bytes each caller still holds at its call "
     "plus the last callee's own peak exceed the capacity, though each function fits alone. "
     "The notes show each call and what it holds.",
     "Release tiles before the call (close the block that placed them, or stop reading them "
     "after it), or shrink the callee's working set.",
     E},
    {"E6028", "RecursionPlacesTiles", "A recursive call places tiles.",
     "A function that calls itself (directly or through others) places tiles in a space with "
     "a capacity; the recursion depth is not known at compile time, so its working set is "
     "unbounded.",
     "Place the tiles outside the recursion, or turn the recursion into a loop whose body "
     "releases them.",
     E},
    {"E6029", "DevicePointerNotHostPointer", "A pointer into one memory where another is wanted.",
     "`t.as_ptr()` of a placed tensor points into the tensor's memory; a function of the "
     "program whose parameter is `*const T` wants a pointer into host memory, and `*const T "
     "in Memory::S` one into S.",
     "Transfer the tensor to the memory the parameter names first, or declare the parameter "
     "`in Memory::S` of the tensor's space.",
     E},
    {"E6030", "RegionHandsOutItsTensor", "A device region hands out a tensor it creates.",
     "A `spawn` region on a device whose value is a tensor it creates must have that tensor "
     "made before the region, in the device's memory, so the function can free it; this one "
     "cannot be: it is not in a variable, its `let` has a type annotation, its size is "
     "computed inside the region, or its name is already in use outside.",
     "Create the tensor before the region (placed on the device) and fill it inside.", E},
    {"E8002", "ComptimeAssertFailed", "A compile-time assertion is false.",
     "An `assert` inside `comptime { }` over a placement query (`x.topology() == "
     "Some(Topology::T)`) does not hold for where the value is placed.",
     "Correct the placement, or the assertion.", E},
    {"W1026", "TopologyUnreachableFromHost", "No route reaches a topology's memory from the host.",
     "The topology's `memory:` space is not host memory, is not visible to the host, and no "
     "chain of `transfer` edges (declared or built in) leads from CPU_DRAM to it, so no data "
     "can be moved there.",
     "Declare a `transfer Memory::CPU_DRAM -> Memory::S` edge (or one from a space the host "
     "reaches).",
     W},
    {"W1028", "WorkingSetOvercommitted",
     "The tiles live at once exceed an `overcommit` memory space.",
     "As E6010, but the space is declared `overcommit`, so it may spill.",
     "Expect the spill's cost, or shrink the working set as for E6010.", W},
    {"W1029", "CapacityNotVerified", "A tile's size is not known at compile time.",
     "A dimension of a placed tensor depends on a run-time value (a variable, a parameter, a "
     "call, `?`), so its bytes are not counted and the space's capacity is not verified. A "
     "name that denotes nothing is E2001 instead, and a constant dimension that folds to no "
     "size VXP0050: neither is admitted.",
     "Give every dimension a compile-time value: a literal, a `const` item, or -D NAME=VALUE.", W},
    {"VXP0001", "SyntaxError", "A syntax error.",
     "The parser met an unexpected or missing token; error recovery keeps the rest analysable.",
     "Fix the syntax at the caret.", E},
    {"VXP0002", "MalformedNumber", "A malformed number literal.",
     "A number is decimal digits with at most one '.', optionally followed by an element "
     "type suffix.",
     "Write the number in decimal (no 0x, exponents or '_').", E},
    {"VXP0003", "NestingTooDeep", "Syntax nested deeper than vxpeak follows.",
     "The function nests more than 1000 levels deep, so it is not analysed.",
     "Flatten the nesting.", E},
    {"VXP0010", "UnknownUnit", "An unknown unit.",
     "Units are B, KB..PB, KiB..PiB, with /s or /cyc for rates and Hz..GHz for clocks; they "
     "are case-sensitive.",
     "Write one of the units listed.", E},
    {"VXP0011", "FractionalQuantity", "A size, rate or clock that is not whole.",
     "Quantities convert exactly to bytes or hertz.", "Use a smaller unit.", E},
    {"VXP0012", "QuantityTooLarge", "A size, rate or clock past 64 bits.",
     "Quantities must fit in 64 bits once converted.", "Correct the figure.", E},
    {"VXP0013", "MalformedQuantity", "A malformed quantity or transfer cost.",
     "A quantity is a number and a unit; a cost is an integer weight or a rate.",
     "Correct the quantity.", E},
    {"VXP0014", "UnknownFieldValue", "An unknown value for a Memory field.",
     "`scope`, `managed`, `crossing` and `replicas` take fixed words or numbers.",
     "Use one of the values the message lists.", E},
    {"VXP0015", "TopologyWithoutMemory", "A Topology without `memory:`.",
     "Every Topology names its default memory space.", "Add `memory: Memory::S`.", E},
    {"VXP0016", "BadDtypes", "A `dtypes:` list that is empty or not element types.",
     "`dtypes:` lists element types such as f16 or bf16.", "Correct the list.", E},
    {"VXP0017", "BadCompute", "A `// compute:` line in a Topology that does not parse.",
     "A topology declares its peak arithmetic rates in comment lines `// compute: ELEM[, "
     "ELEM...] NUMBER UNIT` (FLOP/s, GFLOP/s, TFLOP/s, PFLOP/s, or OP/s .. POP/s); each "
     "element type once.",
     "Correct the line, e.g. `// compute: bf16, f16 989.4 TFLOP/s`.", E},
    {"VXP0020", "UnusedOverride", "A -D override names nothing in the program.",
     "The constant given with -D NAME=VALUE does not occur in the program, so it changes "
     "nothing (a misspelt name, most likely).",
     "Correct the name, or drop the -D.", W},
    {"VXP0030", "TooManyInstances", "More generic instances than vxpeak analyses.",
     "The program reaches more than 4096 instances of generic functions; the rest are not "
     "analysed, so the program cannot be admitted.",
     "Reduce the number of distinct generic arguments, or split the program.", E},
    {"VXP0040", "NothingToAnalyse", "A program with nothing to analyse.",
     "The file defines no function that needs no generic arguments (an empty file, a "
     "machine model checked as a program, or generic functions nothing instantiates), so no "
     "placement was checked and a verdict would promise nothing.",
     "Check the program that places the tensors; pass a machine model with --machine.", E},
    {"VXP0041", "EmptyMachineModel", "A machine model that declares nothing.",
     "The file given as the machine (or host) declares no Memory and no Topology, so there "
     "is nothing to check the program against.",
     "Pass a machine model: a fleet name (h100-sxm) or a file of Memory/Topology items.", E},
    {"VXP0042", "ProgramAsMachine", "A program given where a machine model is expected.",
     "The file given as the machine (or host) defines functions: it is a program, not a "
     "machine model.",
     "Pass the program as the file to check, and its machine with --machine.", E},
    {"VXP0043", "LoweringForNoEdge", "A transfer lowering for an edge no topology declares.",
     "`impl Transfer<Memory::A, Memory::B> for Topology::X` calls the `raw::` primitives, but "
     "X declares no `transfer Memory::A -> Memory::B` edge, so no transfer executes it (vxc "
     "warns without a code).",
     "Declare the edge in X, or correct the spaces or the topology the lowering names.", W},
    {"VXP0044", "LoweringNotEmitted", "A lowering exists for a hop, but the builtin copy moves it.",
     "vxc runs a lowering's body at a transfer only when the lowering has one function "
     "taking two statically shaped tiles (the source, then the destination held by `&mut`), "
     "a body written with the `raw::` primitives, a `scope: sm` destination, and when the "
     "transfer's tile has a static shape; otherwise it warns (without a code) and the "
     "builtin copy moves the hop, so the traffic reported is the builtin copy's.",
     "Write the lowering in that form, or expect the builtin copy.", W},
    {"VXP0045", "RawBoundUndecided", "A `raw::` index bound vxpeak cannot decide.",
     "The index of a `raw::` primitive is a run-time value (`raw::lane()`), or sits where vxc "
     "may draw facts vxpeak does not model (an `if` or `match` arm, a loop, a function with "
     "asserts or invariants): vxc decides it with an SMT solver, vxpeak does not. Inside "
     "`unsafe` the bound is asserted, not proven, as vxc warns.",
     "Write the bound so that constant `let`s and `for` ranges prove it, or check the program "
     "with vxc.",
     W},
    {"VXP0050", "InvalidDimension", "A dimension that folds to no valid size.",
     "A dimension of a placed tensor is made of constants but folds to no size: it is "
     "negative (operands of a difference swapped, most likely), divides by zero, passes 64 "
     "bits in an intermediate, refers to itself through const items, or is past the folder's "
     "limits. The tile cannot be checked, so the program is not admitted (W1029 is only for "
     "shapes that depend on a run-time value).",
     "Read the note: it points at the sub-expression that fails. Correct the expression or "
     "the constants it uses.",
     E},
    {"VXP0800", "CudaSubset", "A construct outside the CUDA code generation subset.",
     "emit-cuda generates a documented subset of Vx and refuses anything else.",
     "Rewrite the construct within the subset, or do not generate CUDA for it.", E},
};

const vxp_code_info *vxp_codes__all(size_t *count) {
  *count = VXP__ARRAY_LEN(catalogue);
  return catalogue;
}

const vxp_code_info *vxp_codes__find(const char *code) {
  if (!code) return NULL;
  for (size_t i = 0; i < VXP__ARRAY_LEN(catalogue); i++) {
    if (strcmp(catalogue[i].code, code) == 0) return &catalogue[i];
  }
  return NULL;
}
