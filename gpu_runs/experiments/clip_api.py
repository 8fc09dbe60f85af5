"""What torch's clipping functions return and raise (lesson vanishing-gradients, section 7)."""
from __future__ import annotations

import torch
from torch import nn

from gpu_runs.util import fnum

DEFAULT_SEEDS = [0]
# 64-wide layers are too small to gain from a second thread; on a shared
# 2-core machine a second thread made this run several times slower.
THREADS = 1


def _param(grad: list) -> nn.Parameter:
    p = nn.Parameter(torch.zeros(torch.tensor(grad).shape))
    p.grad = torch.tensor(grad, dtype=torch.float32)
    return p


def run(ctx) -> None:
    res = ctx.result
    rows = []
    cases = [  # (label, gradients of the parameters, max_norm)
        ("g = [3, 4, 12], max_norm 5", [[3.0, 4.0, 12.0]], 5.0),
        ("g = [6, 8], max_norm 5", [[6.0, 8.0]], 5.0),
        ("g = [0.3, 0.4], max_norm 5 (ছোট)", [[0.3, 0.4]], 5.0),
        ("W.grad [[6,0],[0,8]] + b.grad [0,0], max_norm 1", [[[6.0, 0.0], [0.0, 8.0]], [0.0, 0.0]], 1.0),
        ("W.grad [[2,0],[0,1]] + b.grad [2,4], max_norm 2.5", [[[2.0, 0.0], [0.0, 1.0]], [2.0, 4.0]], 2.5),
    ]
    for i, (label, grads, max_norm) in enumerate(cases):
        params = [_param(g) for g in grads]
        returned = nn.utils.clip_grad_norm_(params, max_norm=max_norm)
        after = [p.grad.tolist() for p in params]
        new_norm = fnum(torch.sqrt(sum((p.grad ** 2).sum() for p in params)))
        # the table shows the numbers (its column's format); the value keeps their full repr
        rows.append({"case": label, "function": f"clip_grad_norm_(max_norm={max_norm:g})",
                     "returned": fnum(returned), "after": after, "new_norm": new_norm})
        res.values[f"norm_case{i}_returned"] = fnum(returned)
        res.values[f"norm_case{i}_new_norm"] = new_norm
        res.values[f"norm_case{i}_after"] = repr(after)
    for i, (grad, c) in enumerate([([3.0, 4.0, 12.0], 2.0), ([-3.0, 0.5, 2.0], 1.0)]):
        p = _param(grad)
        returned = nn.utils.clip_grad_value_([p], clip_value=c)
        # the label writes a minus as the number formatter does (−3), so one row does not show '-3'
        rows.append({"case": f"g = [{', '.join(f'{g:g}'.replace('-', chr(0x2212)) for g in grad)}]",
                     "function": f"clip_grad_value_(clip_value={c:g})",
                     "returned": None if returned is None else repr(returned), "after": [p.grad.tolist()],
                     "new_norm": fnum(p.grad.norm())})
        res.values[f"value_case{i}_after"] = repr(p.grad.tolist())
        res.values[f"value_case{i}_returns_none"] = returned is None
    res.table("clip_table", ("হাতে বানানো gradient-এ clip_grad_norm_ আর clip_grad_value_",
                           "clip_grad_norm_ and clip_grad_value_ on hand-made gradients"), [
        ("case", "gradient", "gradient"),
        ("function", "function", "function", "code"),   # the call, shown as code
        ("returned", "ফেরত মান", "returned"),
        ("after", "ছাঁটার পরে gradient", "gradient after", ".7g"),   # float32: about 7 digits
        ("new_norm", "নতুন norm", "new norm", ".6g"),
    ], rows)
    # The safety switch: a non-finite gradient with error_if_nonfinite=True.
    for label, bad in (("nan", float("nan")), ("inf", float("inf"))):
        p = _param([1.0, bad])
        try:
            nn.utils.clip_grad_norm_([p], max_norm=1.0, error_if_nonfinite=True)
            res.values[f"error_{label}"] = None
            res.values[f"error_{label}_type"] = None
        except Exception as exc:  # record the exact error text torch gives
            res.values[f"error_{label}"] = str(exc)
            res.values[f"error_{label}_type"] = type(exc).__name__
        p = _param([1.0, bad])
        returned = nn.utils.clip_grad_norm_([p], max_norm=1.0)
        res.values[f"default_{label}_returned"] = fnum(returned)
        res.values[f"default_{label}_after"] = repr(p.grad.tolist())
    res.config.update(error_if_nonfinite_default=False)
    res.notes.append("Without error_if_nonfinite the non-finite total norm is returned and the gradient is "
                     "multiplied by a non-finite factor.")
