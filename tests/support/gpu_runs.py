"""Helpers shared by the gpu_runs tests."""
import os
import subprocess
import sys
from pathlib import Path


ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "gpu_runs" / "results"


def run_cli(*args: str, env_extra: dict | None = None, timeout: int = 600) -> subprocess.CompletedProcess:
    env = dict(os.environ, **(env_extra or {}))
    return subprocess.run([sys.executable, "-m", "gpu_runs", *args], cwd=ROOT, capture_output=True, text=True,
                          env=env, timeout=timeout)


def save_tiny_bert(folder: Path, data: dict, vocab_size: int):
    """A tiny Bangla BERT classifier and its WordPiece tokenizer, built from ``data``'s training
    texts and saved to ``folder`` with save_pretrained; returns (model, tokenizer)."""
    import torch
    from transformers import BertConfig, BertForSequenceClassification

    from gpu_runs.models import tokenizers_bn

    tok = tokenizers_bn.wordpiece(data["train"]["text"], vocab_size=vocab_size)
    torch.manual_seed(0)
    model = BertForSequenceClassification(BertConfig(vocab_size=len(tok), hidden_size=32, num_hidden_layers=1,
                                                     num_attention_heads=2, intermediate_size=64, num_labels=3,
                                                     max_position_embeddings=64))
    model.save_pretrained(folder)
    tok.save_pretrained(folder)
    return model, tok
