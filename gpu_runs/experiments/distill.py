"""Knowledge distillation: review-classifier teacher -> small BiGRU student (lesson smaller-models, section 7).

Loss for a labelled example:  a*CE(y, softmax(z_s)) + (1-a)*T^2*KL(p_T || q_T);
an example without a label keeps only the second term.  The teacher's
logits are computed once, so the teacher never runs during student training.
"""
from __future__ import annotations

import copy

import torch
import torch.nn.functional as F

from gpu_runs.experiments.int8_dynamic import TIMING_NOTE
from gpu_runs.models import teacher as teacher_mod
from gpu_runs.models.student import BiGRUStudent
from gpu_runs.util import (
    MIN_REPEATS,
    faster,
    fnum,
    macro_f1,
    mean_sd,
    seed_everything,
    state_dict_mib,
    time_interleaved,
    timing_columns,
)
from py_lessons.runtime.numbers import format_number

DEFAULT_SEEDS = [0, 1, 2]
ALPHA = 0.5
SETTINGS = [  # key, Bangla label, labels used (None = all), temperature (None = hard labels only),
    #            train for as many optimiser steps as this setting (None = cfg["epochs"] epochs of its own data)
    ("hard", "শুধু hard label", None, None, None),
    ("kd_t2", "KD, T = 2", None, 2.0, None),
    ("kd_t4", "KD, T = 4", None, 4.0, None),
    ("hard_1000", "শুধু hard label ({n} label)", 1000, None, None),
    ("kd_t2_1000", "KD, T = 2 ({n} label, soft target সবগুলোতে)", 1000, 2.0, None),
    # control: as many optimiser steps (and validation checks) as the KD student, over the same 1,000 labels
    ("hard_1000_equal_steps", "শুধু hard label ({n} label, KD-র সমান ধাপ)", 1000, None, "kd_t2_1000"),
]


class _Tok:
    """Pre-tokenised ids, cut per batch to the longest example in it."""

    def __init__(self, tokenizer, texts, max_len):
        enc = tokenizer(texts, padding="max_length", truncation=True, max_length=max_len, return_tensors="pt")
        self.ids, self.mask = enc["input_ids"], enc["attention_mask"]

    def batch(self, idx):
        ids, mask = self.ids[idx], self.mask[idx]
        width = int(mask.sum(1).max())
        return ids[:, :width], mask[:, :width]


def kd_loss(student_logits, teacher_logits, labels, has_label, T: float | None, alpha: float):
    ce = F.cross_entropy(student_logits, labels, reduction="none")
    if T is None:
        return (ce * has_label).sum() / has_label.sum().clamp(min=1)
    kl = F.kl_div(F.log_softmax(student_logits / T, 1), F.log_softmax(teacher_logits / T, 1),
                  reduction="none", log_target=True).sum(1)
    return (alpha * ce * has_label + (1 - alpha) * T * T * kl).mean()


def predict(model, tok: _Tok, batch: int = 256) -> torch.Tensor:
    model.eval()
    out = []
    with torch.no_grad():
        for s in range(0, len(tok.ids), batch):
            idx = torch.arange(s, min(s + batch, len(tok.ids)))
            out.append(model(*tok.batch(idx)))
    return torch.cat(out)


def epoch_batches(use: torch.Tensor, lengths: torch.Tensor, batch: int, gen: torch.Generator) -> list:
    """One epoch of batches: shuffle, bucket by length inside chunks of 8 batches so padding stays
    small, then shuffle the batches."""
    perm = use[torch.randperm(len(use), generator=gen)]
    chunks = [perm[i:i + 8 * batch] for i in range(0, len(perm), 8 * batch)]
    batches = []
    for c in chunks:
        c = c[torch.argsort(lengths[c])]
        batches += [c[i:i + batch] for i in range(0, len(c), batch)]
    return [batches[b] for b in torch.randperm(len(batches), generator=gen).tolist()]


def batches_per_epoch(n: int, batch: int) -> int:
    return sum(-(-min(8 * batch, n - i) // batch) for i in range(0, n, 8 * batch))


def train_student(setting, seed, tokenizer, tr: _Tok, va: _Tok, y_tr, y_va, t_logits, cfg, ctx,
                  steps: int | None = None, eval_every: int | None = None):
    """Train one student; keep the state with the best validation macro-F1.

    By default: cfg["epochs"] epochs over the examples the setting uses, validated after each.
    With *steps*: exactly that many optimiser steps (as many epochs as it takes), validated
    every *eval_every* steps.  Returns (model, best val F1, best check (1-based), steps taken)."""
    key, _, n_labels, T, _ = setting
    seed_everything(seed)
    model = BiGRUStudent(len(tokenizer), cfg["emb"], cfg["hidden"], pad_id=tokenizer.pad_token_id)
    opt = torch.optim.Adam(model.parameters(), lr=cfg["lr"])
    gen = torch.Generator().manual_seed(seed)
    n = len(y_tr)
    has_label = torch.zeros(n)
    if n_labels is None:
        has_label[:] = 1.0
    else:
        has_label[torch.randperm(n, generator=gen)[:n_labels]] = 1.0
    use = torch.arange(n) if T is not None else has_label.nonzero().flatten()
    lengths = tr.mask.sum(1)
    best = [-1.0, None, 0]
    checks = 0

    def check():
        nonlocal checks
        checks += 1
        f1 = macro_f1(y_va.numpy(), predict(model, va).argmax(1).numpy(), 3)
        if f1 > best[0]:
            best[:] = [f1, copy.deepcopy(model.state_dict()), checks]
        model.train()

    step = 0
    for epoch in range(cfg["epochs"] if steps is None else 10**9):
        model.train()
        for idx in epoch_batches(use, lengths, cfg["batch"], gen):
            logits = model(*tr.batch(idx))
            loss = kd_loss(logits, t_logits[idx], y_tr[idx], has_label[idx], T, ALPHA)
            opt.zero_grad()
            loss.backward()
            opt.step()
            step += 1
            if steps is not None and (step % eval_every == 0 or step == steps):
                check()
                if step == steps:
                    break
        if steps is None:
            check()
        elif step >= steps:
            break
    model.load_state_dict(best[1])
    return model, best[0], best[2], step


def run(ctx) -> None:
    model, tokenizer, info, data, tcfg = teacher_mod.get_teacher(ctx)
    res = ctx.result
    teacher_mod.describe(res, model, info)
    teacher_mod.describe_data(res, data, ctx.quick)
    cfg = dict(emb=64, hidden=64, epochs=8, batch=128, lr=2e-3, alpha=ALPHA, max_len=tcfg["max_len"],
               optimizer="Adam", selection="best validation epoch")
    if ctx.quick:
        cfg.update(epochs=1)
    res.config.update(cfg, settings=[s[0] for s in SETTINGS], seeds=ctx.seeds)
    max_len = tcfg["max_len"]
    tr, va, te = (_Tok(tokenizer, data[s]["text"], max_len) for s in ("train", "val", "test"))
    y_tr, y_va = torch.tensor(data["train"]["label"]), torch.tensor(data["val"]["label"])
    y_te = data["test"]["label"]
    t_train = teacher_mod.logits(model, tokenizer, data["train"]["text"], max_len)
    t_test = teacher_mod.logits(model, tokenizer, data["test"]["text"], max_len)
    teacher_f1 = teacher_mod.f1_of(t_test, y_te)
    res.values["teacher_test_f1"] = teacher_f1
    for T in (1.0, 2.0, 4.0):
        p = F.softmax(t_train / T, 1)
        res.values[f"teacher_train_mean_max_prob_T{int(T)}"] = fnum(p.max(1).values.mean())
        res.values[f"teacher_train_share_max_prob_over_099_T{int(T)}"] = fnum((p.max(1).values > 0.99).float().mean())
    n_labels_small = 1000 if not ctx.quick else 100
    n_bn = format_number(n_labels_small, ",", bangla=True)  # the site's one number formatter
    settings = [(k, bn.format(n=n_bn), (n_labels_small if n else None), T, like) for k, bn, n, T, like in SETTINGS]
    n_train = len(y_tr)
    # optimiser steps of a setting trained for cfg["epochs"] epochs over the examples it uses
    own_steps = {k: cfg["epochs"] * batches_per_epoch(n_train if (T is not None or n is None) else n, cfg["batch"])
                 for k, _, n, T, _ in settings}
    rows = []
    student = None
    for setting in settings:
        key, label_bn, n_lab, _, like = setting
        steps = own_steps[like] if like else None
        eval_every = batches_per_epoch(n_train, cfg["batch"]) if like else None
        scores, epochs_best, steps_done = [], [], []
        for seed in ctx.track(ctx.seeds, f"distill {key}"):
            model_s, _, best_check, n_steps = train_student(setting, seed, tokenizer, tr, va, y_tr, y_va, t_train,
                                                            cfg, ctx, steps=steps, eval_every=eval_every)
            scores.append(macro_f1(y_te, predict(model_s, te).argmax(1).numpy(), 3))
            epochs_best.append(best_check)
            steps_done.append(n_steps)
            if key == "kd_t2":
                student = model_s
        mean, sd = mean_sd(scores)
        rows.append({"setting": label_bn, "labels": n_lab if n_lab else n_train, "steps": steps_done[0],
                     "per_seed": ", ".join(f"{s:.4f}" for s in scores), "mean": mean, "sd": sd,
                     "best_epochs": ", ".join(map(str, epochs_best))})
        res.values[f"{key}_mean"] = mean
        res.values[f"{key}_sd"] = sd
        res.values[f"{key}_scores"] = repr(scores)
        res.values[f"{key}_best_epochs"] = repr(epochs_best)
        res.values[f"{key}_steps"] = steps_done[0]
    res.table("kd_table", ("প্রতি seed-এ student-এর test macro-F1", "Student test macro-F1 over seeds"), [
        ("setting", "student যা থেকে শেখে", "student learns from"),
        ("labels", "label-এর সংখ্যা", "labels", ","),   # "," groups the Indian way: ৭,৫১০
        ("steps", "optimizer-এর ধাপ", "optimiser steps"),
        ("per_seed", "প্রতি seed-এ test macro-F1", "test macro-F1 per seed"),
        ("mean", "গড়", "mean", ".4f"),
        ("sd", "SD", "SD", ".4f"),
        ("best_epochs", "সেরা epoch", "best epochs"),
    ], rows)
    res.values["kd_t2_minus_hard"] = res.values["kd_t2_mean"] - res.values["hard_mean"]
    res.values["kd_t4_minus_hard"] = res.values["kd_t4_mean"] - res.values["hard_mean"]
    res.values["low_label_gain"] = res.values["kd_t2_1000_mean"] - res.values["hard_1000_mean"]
    res.values["low_label_gain_equal_steps"] = (res.values["kd_t2_1000_mean"]
                                                - res.values["hard_1000_equal_steps_mean"])
    res.values["equal_steps_minus_hard_1000"] = (res.values["hard_1000_equal_steps_mean"]
                                                 - res.values["hard_1000_mean"])
    res.notes.append("Optimiser steps differ between settings trained for the same number of epochs: "
                     f"{cfg['epochs']} epochs over {n_labels_small} labelled reviews are "
                     f"{res.values['hard_1000_steps']} steps, over all {n_train} reviews (KD uses soft targets on "
                     f"every one) {res.values['kd_t2_1000_steps']}.  hard_1000_equal_steps is the control: hard "
                     f"labels on the same {n_labels_small} reviews for {res.values['hard_1000_equal_steps_steps']} "
                     "steps, validated every epoch-equivalent of the KD run (best_epochs counts those checks).")
    # size and speed of a KD student against the teacher, measured the same way, interleaved
    n_single, repeats = (20, 2) if ctx.quick else (200, MIN_REPEATS)
    res.config.update(batch1_examples=n_single, repeats=repeats,
                      timing="gpu_runs.util.time_interleaved: warm-up, teacher/student interleaved in rotating "
                             "order, median over rounds with min/max")
    times = _cost_timings(model, student, tokenizer, data["test"]["text"], max_len, n_single, repeats, ctx.device)
    cost_rows = []
    for label, k, m in (("teacher", "teacher", model), ("student (BiGRU)", "student", student)):
        b1, ft = times[k]["batch1"].fields("batch1_ms", 1000), times[k]["full"].fields("full_test_s")
        n_params = sum(p.numel() for p in m.parameters())
        cost_rows.append({"model": label, "parameters": n_params, "size_mib": state_dict_mib(m),
                          **{c: v for c, v in (b1 | ft).items() if not c.endswith("_runs")}})
        res.values[f"{k}_parameters"] = n_params
        for c, v in (b1 | ft).items():
            res.values[f"{k}_{c}"] = v
        res.values[f"{k}_size_mib"] = cost_rows[-1]["size_mib"]
    res.values["faster_student_than_teacher_batch1"] = faster(times["student"]["batch1"], times["teacher"]["batch1"])
    res.values["faster_student_than_teacher_full_test"] = faster(times["student"]["full"], times["teacher"]["full"])
    res.model("student", f"BiGRU (emb {cfg['emb']}, hidden {cfg['hidden']} per direction, mean+max pooling)",
              parameters=cost_rows[1]["parameters"], source="gpu_runs.models.student")
    res.table("cost_table", (f"আকার আর CPU-তে latency, teacher বনাম student (পালা করে "
                            f"{format_number(repeats, bangla=True)} দফা মাপার median, সর্বনিম্ন, সর্বোচ্চ)",
                            f"Size and CPU latency, teacher vs student (median, min, max over {repeats} "
                            "interleaved rounds)"), [
        ("model", "model", "model"),
        ("parameters", "parameter-এর সংখ্যা", "parameters", ","),
        ("size_mib", "আকার (MiB)", "size (MiB)", ".2f"),
        *timing_columns(".3f"),
    ], cost_rows)
    res.notes.append("The teacher is a small stand-in trained from scratch; its F1 is far below the seed "
                     "lesson's Bangla BERT, so the comparison is about the method, not about that model.")
    extra = tcfg["extra_train"]
    res.data.update(teacher_train_examples=n_train + extra, teacher_extra_train_examples=extra,
                    student_train_examples=n_train,
                    tokenizer_built_from="the teacher's training texts (student train split + teacher-only extra)")
    res.notes.append(f"The stand-in teacher was trained on the {n_train:,} training reviews plus {extra:,} extra "
                     "generated reviews that the student never trains on (standing in for a real teacher's "
                     "pre-training knowledge); none of them repeats a validation or test review.  The student "
                     "uses the teacher's WordPiece tokenizer, whose vocabulary was built from those same texts.")
    res.notes.append(TIMING_NOTE.format(repeats=repeats, n_single=n_single))


def _cost_timings(teacher, student, tokenizer, texts, max_len, n_single, repeats, device) -> dict:
    """Batch-1 and full-test timings of the teacher and a student, interleaved (see time_models)."""
    teacher.eval()
    student.eval()
    t_single = [teacher_mod.encode(tokenizer, [t], max_len) for t in texts[:n_single]]
    t_full = [teacher_mod.encode(tokenizer, texts[i:i + 64], max_len) for i in range(0, len(texts), 64)]
    s_single = [_Tok(tokenizer, [t], max_len).batch(torch.tensor([0])) for t in texts[:n_single]]
    full = _Tok(tokenizer, texts, max_len)
    s_full = [full.batch(torch.arange(s, min(s + 64, len(texts)))) for s in range(0, len(texts), 64)]

    def teacher_call(inputs):
        def call():
            for enc in inputs:
                teacher(**enc)
        return call

    def student_call(inputs):
        def call():
            for ids, mask in inputs:
                student(ids, mask)
        return call

    with torch.inference_mode():
        b1 = time_interleaved({"teacher": teacher_call(t_single), "student": student_call(s_single)},
                              repeats=repeats, device=device, per_call=n_single)
        ft = time_interleaved({"teacher": teacher_call(t_full), "student": student_call(s_full)},
                              repeats=repeats, device=device)
    return {k: {"batch1": b1[k], "full": ft[k]} for k in ("teacher", "student")}
