"""The review classifier used as teacher in the smaller-models lesson.

Offline default: a small BERT-architecture model trained from scratch on
the generated review corpus; it stands in for sagorsarker/bangla-bert-base
fine-tuned on real comments.  With ``--model ID_OR_PATH`` the same code
fine-tunes a real checkpoint loaded through ``from_pretrained``.
"""
from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import torch

from gpu_runs import standins
from gpu_runs.data import reviews
from gpu_runs.models import tokenizers_bn
from gpu_runs.util import fnum, macro_f1, seed_everything

STAND_IN_FOR = "sagorsarker/bangla-bert-base"
DATA_STAND_IN_FOR = "Sazzed's Bangla YouTube comments (train 7,510 / val 1,056 / test 2,143)"

# extra_train: additional generated reviews only the teacher sees.  A real
# teacher brings knowledge from pre-training on far more text than the
# labelled split; a from-scratch stand-in trained on 7,510 reviews alone ends
# up weaker than the BiGRU student, which would leave nothing to distil.
FULL = dict(hidden=128, layers=2, heads=4, intermediate=512, vocab=3000, max_len=32, epochs=3, batch=64,
            lr=7e-4, dropout=0.0, extra_train=22000, seed=0)
QUICK = dict(hidden=32, layers=2, heads=2, intermediate=64, vocab=600, max_len=24, epochs=1, batch=64,
             lr=2e-3, dropout=0.0, extra_train=200, seed=0)
CORPUS_FULL = dict(seed=59, n_train=7510, n_val=1056, n_test=2143)
CORPUS_QUICK = dict(seed=59, n_train=400, n_val=120, n_test=160)
GENERATOR_VERSION = "reviews-v2-dedup"  # v2: splits share no review word for word


def corpus(quick: bool) -> dict:
    return reviews.make_corpus(**(CORPUS_QUICK if quick else CORPUS_FULL))


def load(path_or_id: str):
    """The real loading code: any BERT-like classifier (hub id or local folder)."""
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(path_or_id)
    model = AutoModelForSequenceClassification.from_pretrained(path_or_id, num_labels=3)
    return model.eval(), tokenizer


def encode(tokenizer, texts: list[str], max_len: int) -> dict:
    return tokenizer(texts, padding=True, truncation=True, max_length=max_len, return_tensors="pt")


@torch.no_grad()
def logits(model, tokenizer, texts: list[str], max_len: int, batch: int = 64, device=None) -> torch.Tensor:
    """Logits on the CPU; `device`: where the inputs go (the model's device when it is not the CPU)."""
    model.eval()
    out = []
    for start in range(0, len(texts), batch):
        enc = encode(tokenizer, texts[start:start + batch], max_len)
        if device is not None:
            enc = enc.to(device)
        out.append(model(**enc).logits.float().cpu())
    return torch.cat(out)


def teacher_train_split(data: dict, cfg: dict) -> dict:
    """The labelled train split plus the teacher-only extra reviews.  No extra review repeats a
    validation or test review word for word (see reviews.text_key)."""
    held_out = {reviews.text_key(t) for split in ("val", "test") for t in data[split]["text"]}
    extra = reviews.make_corpus(seed=590, n_train=cfg["extra_train"], n_val=0, n_test=0, exclude=held_out)["train"]
    return {"text": data["train"]["text"] + extra["text"], "label": data["train"]["label"] + extra["label"]}


def fine_tune(model, tokenizer, data: dict, cfg: dict, ctx, label: str) -> list[float]:
    """Train *model* on the corpus on ctx.device; return validation macro-F1 per epoch.

    The model is back on the CPU afterwards (the experiments quantise and time it there)."""
    seed_everything(cfg["seed"])
    device = torch.device(getattr(ctx, "device", "cpu"))
    model.to(device)
    train = teacher_train_split(data, cfg)
    texts, labels = train["text"], torch.tensor(train["label"])
    opt = torch.optim.AdamW(model.parameters(), lr=cfg["lr"], weight_decay=0.01)
    steps = cfg["epochs"] * ((len(texts) + cfg["batch"] - 1) // cfg["batch"])
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: min(1.0, (s + 1) / (0.1 * steps)) *
                                              max(0.0, 1 - s / steps))
    gen = torch.Generator().manual_seed(cfg["seed"])
    val_f1 = []
    for epoch in range(cfg["epochs"]):
        model.train()
        order = torch.randperm(len(texts), generator=gen).tolist()
        batches = [order[i:i + cfg["batch"]] for i in range(0, len(order), cfg["batch"])]
        for idx in ctx.track(batches, f"{label} epoch {epoch + 1}/{cfg['epochs']}"):
            enc = encode(tokenizer, [texts[i] for i in idx], cfg["max_len"]).to(device)
            loss = model(**enc, labels=labels[idx].to(device)).loss
            opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            sched.step()
        pred = logits(model, tokenizer, data["val"]["text"], cfg["max_len"], device=device).argmax(1).numpy()
        val_f1.append(macro_f1(data["val"]["label"], pred, 3))
    model.to("cpu")
    return val_f1


OPTIMISER = ("AdamW(lr, weight_decay=0.01), linear warm-up over 10 % of the steps then linear decay to 0, "
             "clip_grad_norm_(1.0), batches in a seeded random order")
FINE_TUNE_LR = 3e-5


def _training(cfg: dict) -> dict:
    """The training settings recorded with a trained or fine-tuned teacher."""
    return dict(cfg, optimiser=OPTIMISER, generator=GENERATOR_VERSION)


def _fingerprint(data: dict, cfg: dict) -> tuple[str, str]:
    """(corpus sha256, code sha256): what, besides cfg, decides the weights."""
    corpus_sha = standins.corpus_sha256({"splits": data, "teacher_train": teacher_train_split(data, cfg)})
    code_sha = standins.code_sha256(fine_tune, teacher_train_split, _train_stand_in, encode,
                                    tokenizers_bn.wordpiece, seed_everything)
    return corpus_sha, code_sha


def _train_stand_in(data: dict, cfg: dict, ctx):
    """The stand-in: a small BERT trained from scratch (tokenizer included)."""
    from transformers import BertConfig, BertForSequenceClassification

    tokenizer = tokenizers_bn.wordpiece(teacher_train_split(data, cfg)["text"], cfg["vocab"])
    seed_everything(cfg["seed"])
    config = BertConfig(vocab_size=len(tokenizer), hidden_size=cfg["hidden"], num_hidden_layers=cfg["layers"],
                        num_attention_heads=cfg["heads"], intermediate_size=cfg["intermediate"],
                        max_position_embeddings=128, num_labels=3, pad_token_id=tokenizer.pad_token_id,
                        hidden_dropout_prob=cfg["dropout"], attention_probs_dropout_prob=cfg["dropout"],
                        id2label=dict(enumerate(reviews.LABELS_EN)),
                        label2id={v: k for k, v in enumerate(reviews.LABELS_EN)})
    model = BertForSequenceClassification(config)
    val_f1 = fine_tune(model, tokenizer, data, cfg, ctx, "teacher")
    return model, tokenizer, val_f1


def get_teacher(ctx) -> tuple:
    """Return (model, tokenizer, info, data, cfg).  Trains (or, with --model, fine-tunes) and caches on first use.

    The cache key covers the training settings, the generated corpus (sha256) and the training code
    (sha256), not the torch version, which is recorded and compared instead (gpu_runs.standins).
    """
    data = corpus(ctx.quick)
    cfg = QUICK if ctx.quick else FULL
    if ctx.model_id:
        cfg = cfg | {"lr": FINE_TUNE_LR}
        name = standins.model_name(ctx.model_id)
        local = Path(ctx.model_id).expanduser()
        origin = standins.folder_fingerprint(local) if local.is_dir() else ctx.model_id
    else:
        name = f"small BERT ({cfg['layers']} layers, hidden {cfg['hidden']}) trained from scratch"
        origin = None
    corpus_sha, code_sha = _fingerprint(data, cfg)
    key = standins.cache_key(cfg=cfg, corpus=corpus_sha, code=code_sha, gen=GENERATOR_VERSION, origin=origin)
    prefix = f"finetuned-{standins.safe_name(name)}-" if ctx.model_id else "teacher-"
    folder = ctx.cache / f"{prefix}{'quick-' if ctx.quick else ''}{key}"
    meta = standins.read_meta(folder)
    if meta is not None:
        model, tokenizer = load(str(folder))
        info = meta | {"cached": True}
    else:
        t0 = time.perf_counter()
        if ctx.model_id:
            model, tokenizer = load(ctx.model_id)
            val_f1 = fine_tune(model, tokenizer, data, cfg, ctx, "fine-tune")
            info = {"name": name, "stand_in": None,
                    "source": f"from_pretrained({name}), fine-tuned on the generated reviews by gpu_runs"}
        else:
            model, tokenizer, val_f1 = _train_stand_in(data, cfg, ctx)
            info = {"name": name, "stand_in": f"replaces {STAND_IN_FOR}",
                    "source": "trained by gpu_runs.models.teacher"}
        seconds = time.perf_counter() - t0
        folder.mkdir(parents=True, exist_ok=True)
        model.save_pretrained(folder)
        tokenizer.save_pretrained(folder)
        info |= {"train_seconds": seconds, "val_f1_per_epoch": val_f1, "trained_on": ctx.device,
                 "train_examples": len(data["train"]["text"]) + cfg["extra_train"],
                 "unknown_token_share_test": (None if ctx.model_id else
                                              tokenizers_bn.unknown_share(tokenizer, data["test"]["text"])),
                 "training": _training(cfg), "corpus_sha256": corpus_sha, "code_sha256": code_sha,
                 "cache_key": key, "trained_with_torch": torch.__version__,
                 "weights_sha256": standins.weights_sha256(folder)}
        standins.write_meta(folder, info)
        model, tokenizer = load(str(folder))   # use exactly what a cached run would load
        info = info | {"cached": False}
    if hasattr(ctx, "record_stand_in"):
        ctx.record_stand_in(standins.provenance_entry("teacher", info, folder))
    return model, tokenizer, info, data, cfg


def describe(res, model, info: dict, role: str = "teacher") -> None:
    n = sum(p.numel() for p in model.parameters())
    res.model(role, info["name"], stand_in=info.get("stand_in"), source=info.get("source", ""), parameters=n,
              train_seconds=round(info.get("train_seconds", 0.0), 2), loaded_from_cache=info.get("cached", False),
              val_f1_per_epoch=info.get("val_f1_per_epoch"), train_examples=info.get("train_examples"),
              training=info.get("training"), corpus_sha256=info.get("corpus_sha256"),
              weights_sha256=info.get("weights_sha256"), trained_with_torch=info.get("trained_with_torch"))


def describe_data(res, data: dict, quick: bool) -> None:
    res.data.update(name="Bangla product reviews (generated)", generator="gpu_runs.data.reviews",
                    stand_in=f"replaces {DATA_STAND_IN_FOR}", labels=reviews.LABELS,
                    sizes={k: len(v["text"]) for k, v in data.items()},
                    test_label_counts=np.bincount(data["test"]["label"], minlength=3).tolist(),
                    corpus_seed=(CORPUS_QUICK if quick else CORPUS_FULL)["seed"])


def batch1_inputs(tokenizer, texts: list[str], max_len: int) -> list[dict]:
    return [encode(tokenizer, [t], max_len) for t in texts]


def f1_of(logit: torch.Tensor, labels) -> float:
    return macro_f1(labels, logit.argmax(1).numpy(), 3)


__all__ = ["get_teacher", "load", "logits", "fine_tune", "describe", "describe_data", "fnum", "Path"]
