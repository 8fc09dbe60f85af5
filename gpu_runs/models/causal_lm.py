"""A tiny Qwen2-architecture causal LM trained on generated Bangla fables.

It stands in for Qwen/Qwen2.5-0.5B in the smaller-models low-bit loading run.
The weights are saved with save_pretrained so the experiment loads them the
same way it would load the real model: AutoModelForCausalLM.from_pretrained
with a BitsAndBytesConfig.
"""
from __future__ import annotations

import time
from pathlib import Path

import torch

from gpu_runs import standins
from gpu_runs.data import reviews
from gpu_runs.models import tokenizers_bn
from gpu_runs.util import fnum, seed_everything

STAND_IN_FOR = "Qwen/Qwen2.5-0.5B"
FULL = dict(hidden=256, layers=4, heads=4, kv_heads=2, intermediate=768, vocab=2000, stories=6000,
            held_out_stories=400, seq=128, batch=8, steps=400, lr=2e-3, seed=0)
QUICK = dict(hidden=64, layers=2, heads=2, kv_heads=1, intermediate=128, vocab=400, stories=300,
             held_out_stories=60, seq=64, batch=4, steps=30, lr=3e-3, seed=0)
GENERATOR_VERSION = "stories-v1"


def texts(cfg: dict) -> tuple[list[str], list[str]]:
    train = reviews.make_stories(1000 + cfg["seed"], cfg["stories"])
    held = reviews.make_stories(5000 + cfg["seed"], cfg["held_out_stories"])
    return train, held


OPTIMISER = ("AdamW(lr, weight_decay=0.01), OneCycleLR(max_lr=lr, pct_start=0.1), clip_grad_norm_(1.0), "
             "random windows of the token stream (seeded)")


def _fingerprint(cfg: dict, train: list[str], held: list[str]) -> tuple[str, str]:
    """(corpus sha256, code sha256): what, besides cfg, decides the weights."""
    corpus_sha = standins.corpus_sha256({"train": train, "held_out": held})
    code_sha = standins.code_sha256(_train, tokenizers_bn.byte_bpe, seed_everything)
    return corpus_sha, code_sha


def cache_folder_name(cfg: dict, quick: bool, train: list[str], held: list[str]) -> str:
    """The stand-in's folder under the cache: independent of the torch version (see gpu_runs.standins)."""
    corpus_sha, code_sha = _fingerprint(cfg, train, held)
    key = standins.cache_key(cfg=cfg, corpus=corpus_sha, code=code_sha, gen=GENERATOR_VERSION)
    return f"lm-{'quick-' if quick else ''}{key}"


def _train(cfg: dict, train: list[str], ctx):
    """Train the stand-in from scratch; return (model, tokenizer, token count, losses)."""
    from transformers import Qwen2Config, Qwen2ForCausalLM

    tok = tokenizers_bn.byte_bpe(train, cfg["vocab"])
    ids = []
    for enc in tok(train, add_special_tokens=False)["input_ids"]:
        ids.extend(enc + [tok.eos_token_id])
    stream = torch.tensor(ids)
    seed_everything(cfg["seed"])
    config = Qwen2Config(vocab_size=len(tok), hidden_size=cfg["hidden"], intermediate_size=cfg["intermediate"],
                         num_hidden_layers=cfg["layers"], num_attention_heads=cfg["heads"],
                         num_key_value_heads=cfg["kv_heads"], max_position_embeddings=1024,
                         tie_word_embeddings=True, bos_token_id=tok.eos_token_id, eos_token_id=tok.eos_token_id,
                         pad_token_id=tok.eos_token_id)
    model = Qwen2ForCausalLM(config)
    opt = torch.optim.AdamW(model.parameters(), lr=cfg["lr"], weight_decay=0.01)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=cfg["lr"], total_steps=cfg["steps"], pct_start=0.1)
    gen = torch.Generator().manual_seed(cfg["seed"])
    losses = []
    model.train()
    for _ in ctx.track(range(cfg["steps"]), "train stand-in LM"):
        starts = torch.randint(0, len(stream) - cfg["seq"] - 1, (cfg["batch"],), generator=gen)
        batch = torch.stack([stream[s:s + cfg["seq"]] for s in starts.tolist()])
        loss = model(input_ids=batch, labels=batch).loss
        opt.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        sched.step()
        losses.append(fnum(loss))
    return model, tok, len(ids), losses


def get_lm(ctx) -> tuple[str, dict, list[str]]:
    """Return (folder or model id, info, held-out texts); trains and caches the stand-in.

    Trained on the CPU whatever ctx.device is, so the weights are the same for the CPU and the
    CUDA run (`python -m gpu_runs prepare-gpu` ships this folder to the GPU machine).
    """
    cfg = QUICK if ctx.quick else FULL
    train, held = texts(cfg)
    if ctx.model_id:
        name = standins.model_name(ctx.model_id)
        info = {"name": name, "stand_in": None, "source": f"from_pretrained({name})", "cached": False}
        local = Path(ctx.model_id).expanduser()
        if hasattr(ctx, "record_stand_in"):
            ctx.record_stand_in(standins.provenance_entry("language model", info, local if local.is_dir() else None))
        return ctx.model_id, info, held
    folder = ctx.cache / cache_folder_name(cfg, ctx.quick, train, held)
    meta = standins.read_meta(folder)
    if meta is not None:
        info = meta | {"cached": True}
    else:
        t0 = time.perf_counter()
        model, tok, n_tokens, losses = _train(cfg, train, ctx)
        folder.mkdir(parents=True, exist_ok=True)
        model.save_pretrained(folder)
        tok.save_pretrained(folder)
        corpus_sha, code_sha = _fingerprint(cfg, train, held)
        info = {"name": f"tiny Qwen2-architecture LM ({cfg['layers']} layers, hidden {cfg['hidden']}) trained here",
                "stand_in": f"replaces {STAND_IN_FOR}", "source": "trained by gpu_runs.models.causal_lm",
                "train_seconds": time.perf_counter() - t0, "train_tokens": n_tokens,
                "final_train_loss": sum(losses[-20:]) / len(losses[-20:]), "config": cfg,
                "training": dict(cfg, optimiser=OPTIMISER, generator=GENERATOR_VERSION), "trained_on": "cpu",
                "corpus_sha256": corpus_sha, "code_sha256": code_sha, "cache_key": folder.name.rsplit("-", 1)[-1],
                "trained_with_torch": torch.__version__, "weights_sha256": standins.weights_sha256(folder)}
        standins.write_meta(folder, info)
        info = info | {"cached": False}
    if hasattr(ctx, "record_stand_in"):
        ctx.record_stand_in(standins.provenance_entry("language model", info, folder))
    return str(folder), info, held
