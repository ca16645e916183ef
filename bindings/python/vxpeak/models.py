# SPDX-License-Identifier: Apache-2.0
"""models.py - ``vxpeak.model``: the Vx program of a transformer from its Hugging Face
config.json (``vxpeak model`` in Python; docs/models.md).

The configuration is read here, with the type checks the command makes (every size a positive
integer, the field named when one is not), and handed to ``vxp_model_generate``, which checks
the values and writes the program. The result is the program's text, or with ``analyze=True``
its :class:`vxpeak.Analysis`, whose records carry the roles.
"""

from __future__ import annotations

import ctypes
import enum
import json
from ctypes import c_char_p, c_int, c_uint, c_uint64
import os
from os import PathLike, fspath
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Mapping, Optional, Union

from . import _ffi
from .errors import InvalidArgument, error_for

if TYPE_CHECKING:
    from . import Analysis

ConfigArg = Union[str, "PathLike[str]", Mapping[str, Any]]

MODEL_CONFIG_VERSION = 1
MODEL_OPTIONS_VERSION = 1


class Workload(str, enum.Enum):
    """What a model program runs (vxp_model_workload), as its word."""

    DECODE = "decode"
    PREFILL = "prefill"
    TRAIN = "train"


class Optimizer(str, enum.Enum):
    """The train workload's optimizer (vxp_model_optimizer), as its word."""

    ADAM = "adam"
    SGD = "sgd"


_WORKLOADS = {"decode": 1, "prefill": 2, "train": 3}
_OPTIMIZERS = {"adam": 1, "sgd": 2}
_SIZES = (
    ("hidden_size", True),
    ("intermediate_size", True),
    ("num_hidden_layers", True),
    ("num_attention_heads", True),
    ("num_key_value_heads", False),
    ("head_dim", False),
    ("vocab_size", True),
    ("sliding_window", False),
    ("num_local_experts", False),
    ("num_experts_per_tok", False),
)


class _Config(ctypes.Structure):
    """struct vxp_model_config, version 1."""

    _fields_ = [
        ("version", c_uint),
        ("model_type", c_char_p),
        ("hidden_size", c_uint64),
        ("intermediate_size", c_uint64),
        ("num_hidden_layers", c_uint64),
        ("num_attention_heads", c_uint64),
        ("num_key_value_heads", c_uint64),
        ("head_dim", c_uint64),
        ("vocab_size", c_uint64),
        ("sliding_window", c_uint64),
        ("num_local_experts", c_uint64),
        ("num_experts_per_tok", c_uint64),
        ("tie_word_embeddings", c_int),
        ("torch_dtype", c_char_p),
        ("label", c_char_p),
    ]


class _Options(ctypes.Structure):
    """struct vxp_model_options, version 1."""

    _fields_ = [
        ("version", c_uint),
        ("workload", c_int),
        ("batch", c_uint64),
        ("context", c_uint64),
        ("dtype", c_char_p),
        ("kv_dtype", c_char_p),
        ("optimizer", c_int),
        ("fused_attention", c_int),
        ("checkpointing", c_int),
        ("command", c_char_p),
        ("tensors", ctypes.c_void_p),  # a checkpoint's tensors: not given from Python yet
        ("tensor_count", ctypes.c_size_t),
    ]


class _Tensor(ctypes.Structure):
    """struct vxp_model_tensor."""

    _fields_ = [("name", c_char_p), ("dtype", c_char_p), ("bytes", c_uint64)]


_HEADER_LIMIT = 100_000_000  # safetensors' own limit on a header


def _safetensors(path: str) -> List["tuple[str, str, int]"]:
    """(name, dtype, bytes) of every tensor a .safetensors header lists; only the header is
    read, and only when the file holds all of it (as the command reads it)."""
    with open(path, "rb") as f:
        head = f.read(8)
        if len(head) < 8:
            raise InvalidArgument("%s: byte %d: truncated inside the 8-byte header length"
                                  % (path, len(head)))
        n = int.from_bytes(head, "little")
        if n < 2 or n > _HEADER_LIMIT:
            raise InvalidArgument("%s: byte 0: the header length %d is not between 2 and %d bytes"
                                  % (path, n, _HEADER_LIMIT))
        size = f.seek(0, 2)
        if size - 8 < n:
            raise InvalidArgument("%s: byte %d: truncated: the header is %d bytes from byte 8"
                                  % (path, size, n))
        f.seek(8)
        text = f.read(n)
    try:
        doc = json.loads(text)
    except ValueError as e:
        pos = getattr(e, "pos", 0)
        raise InvalidArgument("%s: byte %d: the header is not valid JSON: %s" % (path, 8 + pos, e))
    if not isinstance(doc, dict):
        raise InvalidArgument("%s: byte 8: the header is not a JSON object" % path)
    out = []
    for name, entry in doc.items():
        if name == "__metadata__":
            continue
        offsets = entry.get("data_offsets") if isinstance(entry, dict) else None
        dtype = entry.get("dtype") if isinstance(entry, dict) else None
        if (not isinstance(dtype, str) or not isinstance(offsets, list) or len(offsets) != 2
                or not all(isinstance(x, int) and not isinstance(x, bool) for x in offsets)
                or not 0 <= offsets[0] <= offsets[1]):
            raise InvalidArgument("%s: tensor %r needs a dtype and data_offsets 0 <= begin <= end"
                                  % (path, name))
        out.append((name, dtype, offsets[1] - offsets[0]))
    return out


def _checkpoint(path: str) -> List["tuple[str, str, int]"]:
    """A .safetensors file's tensors, or every shard's that a *.json index names."""
    if not path.endswith(".json"):
        return _safetensors(path)
    with open(path, encoding="utf-8") as f:
        index = json.load(f)
    weight_map = index.get("weight_map") if isinstance(index, dict) else None
    if not isinstance(weight_map, dict):
        raise InvalidArgument("%s: no weight_map object: not a safetensors index" % path)
    out: List["tuple[str, str, int]"] = []
    for shard in sorted(set(weight_map.values())):
        if not isinstance(shard, str) or "/" in shard or shard in ("", ".."):
            raise InvalidArgument("%s: weight_map: %r is not a file name beside the index"
                                  % (path, shard))
        out += _safetensors(os.path.join(os.path.dirname(path), shard))
    listed = {name for name, _, _ in out}
    for name, shard in weight_map.items():
        if name not in listed:
            raise InvalidArgument("%s: weight_map names tensor %r, which shard %r does not list"
                                  % (path, name, shard))
    return out


_WRITE_FN = ctypes.CFUNCTYPE(c_int, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t)


def _read(config: ConfigArg) -> "tuple[Dict[str, Any], str]":
    """The configuration as a dict, and a label for the program's header."""
    if isinstance(config, Mapping):
        return dict(config), "a configuration"
    path = fspath(config)
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    if not isinstance(doc, dict):
        raise InvalidArgument("%s: not a JSON object" % path)
    return doc, path


def _config(doc: Mapping[str, Any], label: str, keep: List[bytes]) -> _Config:
    """Fill the C struct, refusing a field of the wrong type as the command does."""
    c = _Config()
    c.version = MODEL_CONFIG_VERSION
    model_type = doc.get("model_type")
    if not isinstance(model_type, str):
        raise InvalidArgument(
            "%s: the field 'model_type' is %s (supported: llama, mistral, qwen2, mixtral)"
            % (label, "missing" if model_type is None else "not a string")
        )
    moe = model_type == "mixtral"
    for name, required in _SIZES:
        value = doc.get(name)
        if value is None:
            if required or (moe and name in ("num_local_experts", "num_experts_per_tok")):
                raise InvalidArgument("%s: the field '%s' is missing (a positive integer)" % (label, name))
            continue
        # bool is an int in Python, and not a size.
        if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
            raise InvalidArgument(
                "%s: the field '%s' must be a positive integer, not %r" % (label, name, value)
            )
        if value >= 1 << 64:
            raise InvalidArgument(
                "%s: the field '%s' is an integer too large for 64 bits" % (label, name)
            )
        setattr(c, name, value)
    dtype = doc.get("torch_dtype", doc.get("dtype"))
    if dtype is not None and not isinstance(dtype, str):
        raise InvalidArgument("%s: the field 'torch_dtype' must be a string" % label)
    tie = doc.get("tie_word_embeddings")
    if tie is not None and not isinstance(tie, bool):
        raise InvalidArgument("%s: the field 'tie_word_embeddings' must be true or false" % label)
    if model_type != "qwen2":
        for flag in ("attention_bias", "mlp_bias"):
            if doc.get(flag) is True:
                raise InvalidArgument(
                    "%s: the field '%s' is true: those biases are not modelled for %s"
                    % (label, flag, model_type)
                )
    for text in (model_type, dtype, label):
        if text is not None:
            keep.append(text.encode("utf-8"))
    c.model_type = model_type.encode("utf-8")
    c.torch_dtype = dtype.encode("utf-8") if dtype is not None else None
    c.label = label.encode("utf-8")
    c.tie_word_embeddings = 1 if tie else 0
    return c


def _in_context(label: str, call: Callable[[Any], int]) -> None:
    """Run ``call`` with a new context's handle, in the package's own Context (its handle
    type, its freeing); a failure raises with the library's message after ``label``."""
    from . import Context  # here: the package imports this module first

    with Context() as ctx:
        rc = call(ctx._handle())
        if rc != 0:
            message = _ffi.lib().vxp_context_errmsg(ctx._handle())
            raise error_for(rc, "%s: %s" % (label, (message or b"").decode("utf-8", "replace")))


def _generate(doc: Mapping[str, Any], label: str, opts: _Options) -> str:
    lib = _ffi.lib()
    keep: List[bytes] = []
    config = _config(doc, label, keep)
    pieces: List[bytes] = []

    def write(_arg: Optional[int], data: Optional[int], length: int) -> int:
        pieces.append(ctypes.string_at(data or 0, length))
        return 0

    writer = _WRITE_FN(write)
    _in_context(label, lambda ctx: lib.vxp_model_generate(
        ctx, ctypes.byref(config), ctypes.byref(opts), ctypes.cast(writer, ctypes.c_void_p), None))
    return b"".join(pieces).decode("utf-8")


def parameters(config: ConfigArg) -> int:
    """The parameter count of ``config`` (a config.json path or a dict), every tensor
    counted as ``vxpeak model`` counts it."""
    doc, label = _read(config)
    keep: List[bytes] = []
    c = _config(doc, label, keep)
    out = c_uint64()
    _in_context(label, lambda ctx: _ffi.lib().vxp_model_parameters(
        ctx, ctypes.byref(c), ctypes.byref(out)))
    return int(out.value)


def model(
    config: ConfigArg,
    workload: Union[str, Workload] = "decode",
    batch: Optional[int] = None,
    context: Optional[int] = None,
    dtype: Optional[str] = None,
    kv_dtype: Optional[str] = None,
    optimizer: Union[None, str, Optimizer] = None,
    fused_attention: bool = False,
    checkpointing: bool = False,
    weights: Union[None, str, "PathLike[str]"] = None,
    analyze: bool = False,
    machine: Optional[str] = None,
    host: Optional[str] = None,
) -> Union[str, "Analysis"]:
    """The Vx program of a model, as ``vxpeak model CONFIG.json`` writes it: ``config`` is a
    config.json path or its dict. With ``analyze=True`` the program is analysed (on
    ``machine`` and ``host``, as :func:`vxpeak.check` takes them) and its JSON report is
    returned instead of its text: an :class:`Analysis` (its records carry the roles). A
    configuration or option that is refused raises InvalidArgument naming the field.
    ``workload`` and ``optimizer`` are words or :class:`Workload` / :class:`Optimizer`.
    ``weights``: the checkpoint's .safetensors or its index.json, as ``--weights`` takes it:
    the weights' bytes then come from its tensors (docs/models.md)."""
    if workload not in _WORKLOADS:
        raise InvalidArgument("workload must be decode, prefill or train, not %r" % (workload,))
    if optimizer is not None and optimizer not in _OPTIMIZERS:
        raise InvalidArgument("optimizer must be adam or sgd, not %r" % (optimizer,))
    for name, value in (("batch", batch), ("context", context)):
        if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value <= 0):
            raise InvalidArgument("%s must be a positive integer, not %r" % (name, value))
    doc, label = _read(config)
    o = _Options()
    o.version = MODEL_OPTIONS_VERSION
    o.workload = _WORKLOADS[str(workload.value if isinstance(workload, Workload) else workload)]
    o.batch = batch or 0
    o.context = context or 0
    keep = [s.encode("utf-8") for s in (dtype, kv_dtype) if s is not None]
    o.dtype = dtype.encode("utf-8") if dtype is not None else None
    o.kv_dtype = kv_dtype.encode("utf-8") if kv_dtype is not None else None
    if isinstance(optimizer, Optimizer):
        optimizer = optimizer.value
    o.optimizer = _OPTIMIZERS[optimizer] if optimizer else 0
    o.fused_attention = 1 if fused_attention else 0
    o.checkpointing = 1 if checkpointing else 0
    o.command = None
    o.tensors = None
    o.tensor_count = 0
    if weights is not None:
        tensors = _checkpoint(fspath(weights))
        array = (_Tensor * max(1, len(tensors)))()
        for i, (name, dtype_, size) in enumerate(tensors):
            array[i].name = name.encode("utf-8")
            array[i].dtype = dtype_.encode("utf-8")
            array[i].bytes = size
        o.tensors = ctypes.cast(array, ctypes.c_void_p)
        o.tensor_count = len(tensors)
        keep_array = array  # alive through the call below
    text = _generate(doc, label, o)
    del keep
    if weights is not None:
        del keep_array
    if not analyze:
        return text
    from . import Context  # the package imports this module first

    # Not a `with` block: the analysis keeps its program and context alive, and closes
    # with them when it is collected (or closed).
    ctx = Context()
    program = ctx.parse(ctx.source(text, label="model.vx"))
    if machine is None:
        machine, host = "a100-40", host or "default"

    def load(name: Optional[str]) -> Any:
        if name is None:
            return None
        if "/" in name or name.endswith(".vx"):
            return ctx.machine(name)
        return ctx.builtin_machine("host-default" if name == "default" else name)

    return ctx.analyze(program, machine=load(machine), host=load(host))
