""""Bazarghar": a made-up shop's customer table, generated from a seed.

16 numeric features, 3 customer segments, 4096 rows.  The segments overlap
and a share of labels is flipped, so a good model stays well below 100%
accuracy: the lessons need a problem that is learnable but not trivial.
"""
from __future__ import annotations

import numpy as np

FEATURES = [
    "monthly_spend", "visits_per_month", "basket_size", "discount_share", "night_orders",
    "returns", "app_minutes", "cash_share", "delivery_km", "fresh_share", "snack_share",
    "brand_loyalty", "complaints", "referrals", "account_age", "festival_spend",
]
SEGMENTS = ["budget", "family", "premium"]


def make(seed: int = 17, n_rows: int = 4096, label_noise: float = 0.12) -> tuple[np.ndarray, np.ndarray]:
    """Return standardised features (float32, n_rows x 16) and segment labels (int64)."""
    rng = np.random.default_rng(seed)
    y = rng.choice(3, size=n_rows, p=[0.37, 0.33, 0.30])
    # Each segment has its own centre in a 6-dim taste space; the 16 observed
    # features are a fixed random mix of that space plus two curved terms.
    centres = rng.normal(0.0, 0.9, size=(3, 6))
    taste = centres[y] + rng.normal(0.0, 1.0, size=(n_rows, 6))
    mix = rng.normal(0.0, 1.0, size=(6, 16)) / np.sqrt(6)
    x = taste @ mix + 0.6 * rng.normal(0.0, 1.0, size=(n_rows, 16))
    x[:, 4] += 0.5 * taste[:, 0] * taste[:, 1]
    x[:, 9] += 0.4 * np.abs(taste[:, 2])
    flip = rng.random(n_rows) < label_noise
    y = np.where(flip, rng.integers(0, 3, size=n_rows), y)
    x = (x - x.mean(0)) / x.std(0)
    return x.astype(np.float32), y.astype(np.int64)


def split(seed: int = 17, n_rows: int = 4096, n_train: int = 3072):
    x, y = make(seed, n_rows)
    return (x[:n_train], y[:n_train]), (x[n_train:], y[n_train:])
