"""Knowledge distillation: review-classifier teacher -> small BiGRU student (lesson smaller-models, section 7).

Loss for a labelled example:  a*CE(y, softmax(z_s)) + (1-a)*T^2*KL(p_T || q_T);
an example without a label keeps only the second term.  The teacher's
logits are computed once, so the teacher never runs during student training.
"""
from __future__ import annotations

import copy

import torch
import torch.nn.functional as F

from gpu_runs.experiments.int8_dynamic import timings
from gpu_runs.models import teacher as teacher_mod
from gpu_runs.models.student import BiGRUStudent
from gpu_runs.util import fnum, macro_f1, mean_sd, seed_everything, state_dict_mib
from py_lessons.runtime.numbers import format_number

DEFAULT_SEEDS = [0, 1, 2]
ALPHA = 0.5
SETTINGS = [  # key, Bangla label, labels used (None = all), temperature (None = hard labels only)
    ("hard", "শুধু hard label", None, None),
    ("kd_t2", "KD, T = 2", None, 2.0),
    ("kd_t4", "KD, T = 4", None, 4.0),
    ("hard_1000", "শুধু hard label ({n} label)", 1000, None),
    ("kd_t2_1000", "KD, T = 2 ({n} label, soft target সবগুলোতে)", 1000, 2.0),
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


def train_student(setting, seed, tokenizer, tr: _Tok, va: _Tok, y_tr, y_va, t_logits, cfg, ctx):
    key, _, n_labels, T = setting
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
    best = (-1.0, None, 0)
    for epoch in range(cfg["epochs"]):
        model.train()
        perm = use[torch.randperm(len(use), generator=gen)]
        # bucket by length inside chunks so padding stays small, then shuffle the batches
        chunks = [perm[i:i + 8 * cfg["batch"]] for i in range(0, len(perm), 8 * cfg["batch"])]
        batches = []
        for c in chunks:
            c = c[torch.argsort(lengths[c])]
            batches += [c[i:i + cfg["batch"]] for i in range(0, len(c), cfg["batch"])]
        for b in torch.randperm(len(batches), generator=gen).tolist():
            idx = batches[b]
            logits = model(*tr.batch(idx))
            loss = kd_loss(logits, t_logits[idx], y_tr[idx], has_label[idx], T, ALPHA)
            opt.zero_grad()
            loss.backward()
            opt.step()
        f1 = macro_f1(y_va.numpy(), predict(model, va).argmax(1).numpy(), 3)
        if f1 > best[0]:
            best = (f1, copy.deepcopy(model.state_dict()), epoch + 1)
    model.load_state_dict(best[1])
    return model, best[0], best[2]


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
    settings = [(k, bn.format(n=n_bn), (n_labels_small if n else None), T) for k, bn, n, T in SETTINGS]
    rows = []
    student = None
    for setting in settings:
        scores, epochs_best = [], []
        for seed in ctx.track(ctx.seeds, f"distill {setting[0]}"):
            student, _, best_epoch = train_student(setting, seed, tokenizer, tr, va, y_tr, y_va, t_train, cfg, ctx)
            scores.append(macro_f1(y_te, predict(student, te).argmax(1).numpy(), 3))
            epochs_best.append(best_epoch)
        mean, sd = mean_sd(scores)
        key, label_bn, n_lab, _ = setting
        rows.append({"setting": label_bn, "labels": n_lab if n_lab else len(y_tr),
                     "per_seed": ", ".join(f"{s:.4f}" for s in scores), "mean": mean, "sd": sd,
                     "best_epochs": ", ".join(map(str, epochs_best))})
        res.values[f"{key}_mean"] = mean
        res.values[f"{key}_sd"] = sd
        res.values[f"{key}_scores"] = repr(scores)
        res.values[f"{key}_best_epochs"] = repr(epochs_best)
    res.table("kd_table", "Student test macro-F1 over seeds", [
        ("setting", "Student যা থেকে শেখে", "student learns from"),
        ("labels", "Label", "labels"),
        ("per_seed", "Test macro-F1 (প্রতি seed)", "test macro-F1 per seed"),
        ("mean", "গড়", "mean", ".4f"),
        ("sd", "SD", "SD", ".4f"),
        ("best_epochs", "সেরা epoch", "best epochs"),
    ], rows)
    res.values["kd_t2_minus_hard"] = res.values["kd_t2_mean"] - res.values["hard_mean"]
    res.values["kd_t4_minus_hard"] = res.values["kd_t4_mean"] - res.values["hard_mean"]
    res.values["low_label_gain"] = res.values["kd_t2_1000_mean"] - res.values["hard_1000_mean"]
    # size and speed of the last student against the teacher, measured the same way
    n_single, repeats = (20, 1) if ctx.quick else (200, 3)
    cost_rows = []
    for label, m in (("teacher", model), ("student (BiGRU)", student)):
        if label == "teacher":
            t = timings(m, tokenizer, data["test"]["text"], max_len, n_single, repeats)
        else:
            t = _student_timings(m, tokenizer, data["test"]["text"], max_len, n_single, repeats)
        n_params = sum(p.numel() for p in m.parameters())
        cost_rows.append({"model": label, "parameters": n_params, "size_mib": state_dict_mib(m),
                          "batch1_ms": t["batch1_ms"], "full_test_s": t["full_test_s"]})
        k = "teacher" if label == "teacher" else "student"
        res.values[f"{k}_parameters"] = n_params
        res.values[f"{k}_batch1_ms"] = t["batch1_ms"]
        res.values[f"{k}_full_test_s"] = t["full_test_s"]
        res.values[f"{k}_size_mib"] = cost_rows[-1]["size_mib"]
    res.model("student", f"BiGRU (emb {cfg['emb']}, hidden {cfg['hidden']} per direction, mean+max pooling)",
              parameters=cost_rows[1]["parameters"], source="gpu_runs.models.student")
    res.table("cost_table", "Size and CPU latency, teacher vs student", [
        ("model", "মডেল", "model"),
        ("parameters", "Parameter", "parameters"),
        ("size_mib", "আকার (MiB)", "size (MiB)", ".2f"),
        ("batch1_ms", "batch ১ (ms)", "batch 1 (ms)", ".3f"),
        ("full_test_s", "পুরো test (s)", "full test (s)", ".3f"),
    ], cost_rows)
    res.notes.append("The teacher is a small stand-in trained from scratch; its F1 is far below the seed "
                     "lesson's Bangla BERT, so the comparison is about the method, not about that model.")


def _student_timings(model, tokenizer, texts, max_len, n_single, repeats):
    import statistics
    import time

    model.eval()
    singles = [_Tok(tokenizer, [t], max_len).batch(torch.tensor([0])) for t in texts[:n_single]]
    full = _Tok(tokenizer, texts, max_len)
    idxs = [torch.arange(s, min(s + 64, len(texts))) for s in range(0, len(texts), 64)]
    with torch.inference_mode():
        for ids, mask in singles[:10]:
            model(ids, mask)
        medians, fulls = [], []
        for _ in range(repeats):
            per = []
            for ids, mask in singles:
                t0 = time.perf_counter()
                model(ids, mask)
                per.append(time.perf_counter() - t0)
            medians.append(statistics.median(per) * 1000)
        for _ in range(repeats):
            t0 = time.perf_counter()
            for idx in idxs:
                model(*full.batch(idx))
            fulls.append(time.perf_counter() - t0)
    return {"batch1_ms": statistics.median(medians), "full_test_s": statistics.median(fulls)}
