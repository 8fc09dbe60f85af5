"""Deep MLPs for the vanishing-gradients lesson: plain, residual and pre-norm residual blocks."""
from __future__ import annotations

import torch
from torch import nn

ACTS = {"sigmoid": nn.Sigmoid, "tanh": nn.Tanh, "relu": nn.ReLU}


class Block(nn.Module):
    """One hidden layer.  kind: plain  h -> act(W h + b)
                                residual  h -> h + act(W h + b)
                                prenorm   h -> h + act(W LN(h) + b)"""

    def __init__(self, width: int, act: str, kind: str) -> None:
        super().__init__()
        self.kind = kind
        self.norm = nn.LayerNorm(width) if kind == "prenorm" else nn.Identity()
        self.linear = nn.Linear(width, width)
        self.act = ACTS[act]()

    def forward(self, h: torch.Tensor) -> torch.Tensor:
        out = self.act(self.linear(self.norm(h)))
        return out if self.kind == "plain" else h + out


class DeepMLP(nn.Module):
    def __init__(self, depth: int, width: int = 64, act: str = "relu", kind: str = "plain",
                 n_in: int = 16, n_out: int = 3) -> None:
        super().__init__()
        self.inp = nn.Linear(n_in, width)
        self.blocks = nn.ModuleList(Block(width, act, kind) for _ in range(depth))
        self.out = nn.Linear(width, n_out)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = self.inp(x)
        for block in self.blocks:
            h = block(h)
        return self.out(h)
