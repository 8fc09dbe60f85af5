"""The course's one small model and data set, the thread through all four lessons.

Lesson 1 sweeps its learning rate, lesson 2 traces a NaN in it, lesson 3 makes it deep and saves
it with residual connections and clipping, lesson 4 makes it smaller; the final exercise debugs a
broken run of it. Cells import it: ``from py_lessons_content.course import spiral_data, ...``.

NumPy is imported inside each function: the reader's Python imports this file before it loads
any package.
"""

ACTIVATIONS = ("tanh", "sigmoid", "relu")


def spiral_data(per_class=60, classes=3, noise=0.2, seed=0):
    """Three interleaved spiral arms in the plane: ``X`` (n, 2) float64, ``y`` (n,) class numbers."""
    import numpy as np

    rng = np.random.default_rng(seed)
    radius = np.tile(np.linspace(0.05, 1.0, per_class), classes)
    label = np.repeat(np.arange(classes), per_class)
    angle = label * (2 * np.pi / classes) + 4.0 * radius + rng.normal(0.0, noise, radius.size)
    X = np.column_stack([radius * np.cos(angle), radius * np.sin(angle)])
    return X, label


def init_mlp(sizes=(2, 32, 3), seed=1, gain=1.0):
    """Weights ``[[W, b], ...]`` for a fully connected network with layer widths ``sizes``:
    W ~ N(0, gain²/fan_in), b = 0."""
    import numpy as np

    rng = np.random.default_rng(seed)
    return [[rng.normal(0.0, gain / np.sqrt(fan_in), (fan_in, fan_out)), np.zeros(fan_out)]
            for fan_in, fan_out in zip(sizes[:-1], sizes[1:])]


def _activate(z, activation):
    import numpy as np

    if activation == "tanh":
        return np.tanh(z)
    if activation == "sigmoid":
        return 1.0 / (1.0 + np.exp(-z))
    if activation == "relu":
        return np.maximum(z, 0.0)
    raise ValueError(f"activation: one of {ACTIVATIONS}, not {activation!r}")


def _slope(a, z, activation):
    """The activation's derivative at z, from its output a."""
    if activation == "tanh":
        return 1.0 - a * a
    if activation == "sigmoid":
        return a * (1.0 - a)
    return (z > 0).astype(z.dtype)


def _is_residual(W, residual, index, last):
    """A hidden layer whose input and output widths match adds its input back when ``residual``."""
    return residual and 0 < index < last and W.shape[0] == W.shape[1]


def forward(params, X, activation="tanh", residual=False):
    """The logits (n, classes): hidden layers apply ``activation``; with ``residual`` a square
    hidden layer computes h + activation(h W + b) instead of activation(h W + b)."""
    h = X
    last = len(params) - 1
    for index, (W, b) in enumerate(params):
        z = h @ W + b
        if index == last:
            return z
        a = _activate(z, activation)
        h = h + a if _is_residual(W, residual, index, last) else a
    return h


def softmax_cross_entropy(logits, y):
    """Mean cross-entropy of integer labels ``y`` under softmax(logits), computed stably
    (the largest logit of each row is subtracted first), and the class probabilities."""
    import numpy as np

    shifted = logits - logits.max(axis=1, keepdims=True)
    log_p = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
    return float(-log_p[np.arange(len(y)), y].mean()), np.exp(log_p)


def loss_and_grads(params, X, y, activation="tanh", residual=False):
    """The loss and ``[[dW, db], ...]`` (same shapes as ``params``) by backpropagation."""
    import numpy as np

    inputs, outputs, pre = [], [], []
    h = X
    last = len(params) - 1
    for index, (W, b) in enumerate(params):
        inputs.append(h)
        z = h @ W + b
        if index == last:
            logits = z
            break
        a = _activate(z, activation)
        pre.append(z)
        outputs.append(a)
        h = h + a if _is_residual(W, residual, index, last) else a
    loss, probs = softmax_cross_entropy(logits, y)
    g = probs
    g[np.arange(len(y)), y] -= 1.0
    g /= len(y)  # dLoss/dlogits
    grads = [None] * len(params)
    for index in range(last, -1, -1):
        W, _ = params[index]
        if index < last:  # g is dLoss/d(output of this hidden layer)
            through = g * _slope(outputs[index], pre[index], activation)
            skip = g if _is_residual(W, residual, index, last) else 0.0
        else:
            through, skip = g, 0.0
        grads[index] = [inputs[index].T @ through, through.sum(axis=0)]
        g = through @ W.T + skip
    return loss, grads


def global_norm(grads):
    """The length of all gradients taken together as one long vector."""
    import numpy as np

    return float(np.sqrt(sum(float((part * part).sum()) for pair in grads for part in pair)))


def train(params, X, y, lr, steps, activation="tanh", residual=False, clip=None):
    """Full-batch gradient descent on ``params`` (changed in place). With ``clip``, gradients whose
    global norm exceeds it are scaled down to that norm, all together. Returns the history:
    ``{"loss": [...], "grad_norm": [...]}`` (norm before clipping), one entry per step."""
    history = {"loss": [], "grad_norm": []}
    for _ in range(steps):
        loss, grads = loss_and_grads(params, X, y, activation, residual)
        norm = global_norm(grads)
        history["loss"].append(loss)
        history["grad_norm"].append(norm)
        scale = clip / norm if clip is not None and norm > clip else 1.0
        for pair, grad_pair in zip(params, grads):
            pair[0] = pair[0] - lr * scale * grad_pair[0]
            pair[1] = pair[1] - lr * scale * grad_pair[1]
    return history


def accuracy(params, X, y, activation="tanh", residual=False):
    """The share of points whose largest logit is their own class."""
    return float((forward(params, X, activation, residual).argmax(axis=1) == y).mean())
