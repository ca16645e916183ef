# SPDX-License-Identifier: Apache-2.0
"""test_models.py - vxpeak.model: the program of a config.json, its parameter count, its
analysis, and configurations refused with the field named."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Dict

import pytest

import vxpeak

ROOT = Path(__file__).resolve().parents[3]
MODELS = ROOT / "examples" / "models"


def _role_bytes(analysis: Any, role: str) -> int:
    assert isinstance(analysis, vxpeak.Analysis)
    return sum(r.bytes for r in analysis.records if r.function == "main" and r.role == role)


def test_model_text_is_what_the_command_writes(root: Path) -> None:
    text = vxpeak.model(MODELS / "llama-2-7b.json")
    assert isinstance(text, str)
    shipped = (MODELS / "llama-2-7b.decode.vx").read_text()
    # The shipped file quotes its command; the text from Python quotes none.
    body = text[text.index("// Parameters") :]
    assert body in shipped


def test_parameters_of_each_family() -> None:
    assert vxpeak.model_parameters(MODELS / "llama-2-70b.json") == 68_976_648_192
    assert vxpeak.model_parameters(MODELS / "mistral-7b.json") == 7_241_732_096
    assert vxpeak.model_parameters(MODELS / "qwen2-7b.json") == 7_615_616_512
    assert vxpeak.model_parameters(MODELS / "mixtral-8x7b.json") == 46_702_792_704


def test_analysis_gives_the_roles_bytes() -> None:
    config = json.loads((MODELS / "llama-3-8b.json").read_text())
    report = vxpeak.model(config, context=1, batch=2, analyze=True, machine="h200", host="default")
    weights = _role_bytes(report, "layer weights") + _role_bytes(report, "embeddings")
    assert weights == 2 * 8_030_261_248
    assert _role_bytes(report, "KV cache") == 2 * 131_072


def test_train_places_gradients_and_optimizer_state() -> None:
    report = vxpeak.model(
        MODELS / "llama-2-7b.json", workload="train", context=256, optimizer="sgd",
        analyze=True, machine="mi300x", host="default",
    )
    assert _role_bytes(report, "gradients") == 2 * 6_738_415_616
    assert _role_bytes(report, "optimizer state") == 4 * 6_738_415_616


@pytest.mark.parametrize(
    "change, field",
    [
        ({"hidden_size": "4096"}, "hidden_size"),
        ({"num_hidden_layers": -1}, "num_hidden_layers"),
        ({"vocab_size": True}, "vocab_size"),
        ({"model_type": "gpt2"}, "llama, mistral, qwen2, mixtral"),
        ({"num_attention_heads": 30}, "num_attention_heads (30)"),
        ({"intermediate_size": None}, "intermediate_size"),
    ],
)
def test_bad_configurations_name_the_field(change: Dict[str, Any], field: str) -> None:
    config = json.loads((MODELS / "llama-2-7b.json").read_text())
    config.update(change)
    with pytest.raises(vxpeak.InvalidArgument, match=field.replace("(", r"\(").replace(")", r"\)")):
        vxpeak.model(config)


def test_bad_options_are_refused() -> None:
    with pytest.raises(vxpeak.InvalidArgument, match="workload"):
        vxpeak.model(MODELS / "llama-2-7b.json", workload="serve")
    with pytest.raises(vxpeak.InvalidArgument, match="--dtype 'f12'"):
        vxpeak.model(MODELS / "llama-2-7b.json", dtype="f12")


def test_closed_sets_are_enums_equal_to_the_words() -> None:
    assert vxpeak.Workload.PREFILL == "prefill"
    assert vxpeak.Optimizer.SGD == "sgd"
    text = vxpeak.model(MODELS / "mistral-7b.json", workload=vxpeak.Workload.PREFILL)
    assert isinstance(text, str) and "A prefill of the mistral model" in text


def test_weights_from_a_safetensors_header(root: Path) -> None:
    fixtures = root / "tests" / "golden" / "model-weights"
    analysis = vxpeak.model(MODELS / "stories15m.json", weights=fixtures / "quantized.safetensors",
                            context=256, analyze=True)
    text = vxpeak.model(MODELS / "stories15m.json", weights=fixtures / "quantized.safetensors")
    assert isinstance(text, str) and "model.rotary_emb.inv_freq" in text
    # 4-bit projections and F16 embeddings and norms: the checkpoint's bytes, not f32's.
    weights = _role_bytes(analysis, "layer weights") + _role_bytes(analysis, "embeddings")
    assert weights == 21_764_160
    sharded = vxpeak.model(MODELS / "stories15m.json",
                           weights=fixtures / "sharded" / "model.safetensors.index.json")
    assert isinstance(sharded, str) and "The checkpoint's 56 tensors" in sharded
    with pytest.raises(vxpeak.InvalidArgument, match="byte 29: truncated"):
        vxpeak.model(MODELS / "stories15m.json", weights=fixtures / "short.safetensors")
