"""Real-run blocks (```run-table```, ```run-chart```, ```run-claim```, ...) from gpu_runs.

gpu_runs.site renders them; this adapter makes every failure a build error that names the page
and line (superfences would otherwise swallow a formatter's exception and leave a code block),
and renders each block once: checked in on_page_markdown, reused by the fence formatter.
"""

from __future__ import annotations

from pathlib import Path

from mkdocs.exceptions import PluginError
from pymdownx.superfences import SuperFencesException

from .components.common import fence_blocks


class RunBlocks:
    def __init__(self, results_dir: Path):
        from gpu_runs import site as runs  # no torch: gpu_runs.site imports only the standard library + yaml

        self.formatters = {entry["name"]: entry["format"] for entry in runs.make_fences(results_dir)}
        self._rendered: dict[tuple[str, str], str] = {}
        self._src = "?"

    def fences(self) -> list[dict]:
        return [{"name": name, "class": name, "format": self._formatter(name)} for name in self.formatters]

    def check_page(self, markdown: str, src: str) -> None:
        """Render every run block of the page now, so a bad one fails with its line."""
        self._src = src
        self._rendered.clear()
        for name, line, body in fence_blocks(markdown, set(self.formatters)):
            try:
                self._rendered[(name, body.strip())] = self.formatters[name](body, name, name, {}, None)
            except Exception as exc:  # noqa: BLE001 - RunError, YAML errors, a claim that no longer holds
                raise PluginError(f"{src}:{line}: {name}: {exc}") from exc

    def _formatter(self, name):
        def format_block(source, language, css_class, options, md, **kwargs):
            key = (name, source.strip())
            if key in self._rendered:
                return self._rendered[key]
            try:
                return self.formatters[name](source, language, css_class, options, md)
            except Exception as exc:  # noqa: BLE001
                raise SuperFencesException(f"{self._src}: {name}: {exc}") from exc

        return format_block
