"""Which friendly Bangla explanation fits an error: a key into the string catalogue.

Decided in Python (build and browser alike) so the page that was built and the page a reader
runs show the same note; the Bangla text itself lives in the catalogue.
"""

from __future__ import annotations

import re

_SHAPE_WORDS = re.compile(r"broadcast|shapes? |not aligned|core dimension|size \d+ is different|dimension mismatch")
_NETWORK_MODULES = {"requests", "urllib3", "httpx", "aiohttp", "socket"}
_OUT_OF_PAGE_MODULES = {"torch", "tensorflow", "jax", "transformers", "torchvision"}
_SIMPLE = {
    "NameError", "TypeError", "ValueError", "IndexError", "KeyError", "AttributeError",
    "ZeroDivisionError", "ModuleNotFoundError", "MemoryError", "RecursionError",
}


def _missing_module(message: str) -> str:
    match = re.search(r"No module named '([^'.]+)", message)
    return match.group(1) if match else ""


def explanation_key(error: str, message: str = "", input_reason: str = "") -> str | None:
    """Catalogue key (``explain.*``) for an error name and its message, or None; ``input_reason``:
    why input() could not wait (execute.INPUT_*)."""
    if error in ("SyntaxError", "IndentationError", "TabError"):
        return "explain.SyntaxError"
    if error == "ValueError" and re.search(r"Maximum allowed dimension exceeded|array is too big", message):
        return "explain.MemoryError"  # 32-bit WebAssembly: the array is too big to even describe
    if error == "ValueError" and _SHAPE_WORDS.search(message):
        return "explain.ValueError.shape"
    if error in ("ModuleNotFoundError", "ImportError"):
        module = _missing_module(message)
        if module in _OUT_OF_PAGE_MODULES:
            return "explain.ModuleNotFoundError.torch"
        if module in _NETWORK_MODULES:
            return "explain.ModuleNotFoundError.network"
        return "explain.ModuleNotFoundError"
    if error == "InputNotAvailable":
        return {"restart": "explain.input.restart", "reload": "explain.input.reload",
                "impossible": "explain.input.impossible"}.get(input_reason, "explain.input")
    if error in ("OSError", "URLError", "ConnectionError") and re.search(r"network|connect|urlopen|host", message, re.I):
        return "explain.network"
    if error in _SIMPLE:
        return f"explain.{error}"
    return None
