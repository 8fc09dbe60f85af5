"""The BiGRU student of the smaller-models lesson: embedding, bidirectional GRU, mean+max pooling, Linear."""
from __future__ import annotations

import torch
from torch import nn


class BiGRUStudent(nn.Module):
    def __init__(self, vocab: int, emb: int = 64, hidden: int = 64, n_classes: int = 3, pad_id: int = 0) -> None:
        super().__init__()
        self.pad_id = pad_id
        self.emb = nn.Embedding(vocab, emb, padding_idx=pad_id)
        self.gru = nn.GRU(emb, hidden, batch_first=True, bidirectional=True)
        self.head = nn.Linear(4 * hidden, n_classes)

    def forward(self, input_ids: torch.Tensor, attention_mask: torch.Tensor | None = None) -> torch.Tensor:
        if attention_mask is None:
            attention_mask = (input_ids != self.pad_id).long()
        out, _ = self.gru(self.emb(input_ids))
        mask = attention_mask.unsqueeze(-1).to(out.dtype)
        mean = (out * mask).sum(1) / mask.sum(1).clamp(min=1.0)
        mx = out.masked_fill(mask == 0, float("-inf")).max(1).values
        return self.head(torch.cat([mean, mx], dim=1))
