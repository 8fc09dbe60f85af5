"""Lesson components (issue 4): steppers, quizzes, hidden answers, progress, glossary, predict, exercises.

``register(config, plugin)`` is called from the py_lessons plugin's on_config; it adds one
superfences custom fence per component and returns a ``Components`` object whose page hooks the
plugin calls. Each block is validated in ``on_page_markdown`` so that an authoring error fails the
build with the file name and line; the fence formatter then renders the same text to HTML.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from mkdocs.exceptions import PluginError
from pymdownx.superfences import SuperFencesException

from . import exercise, glossary, predict, progress, quiz, reveal, stepper
from .math import MathRenderer, plain_toc_titles
from .common import ComponentError, fence_blocks

GLOSSARY_FILE = "glossary.yml"          # inside docs_dir
GLOSSARY_PAGE = "glossary/index.md"     # the page that shows every term


class Components:
    def __init__(self, config, node_modules: Path | None = None):
        self.docs_dir = Path(config.docs_dir)
        self.site_name = config.site_name
        self.site_url = config.site_url or ""
        self.slug = "index"
        self.src = "?"
        self.page_url = ""
        self.files = None
        self.terms: dict = {}
        self.cell_outputs: dict = {}      # cell id -> build result, for predict blocks
        self.code_blocks: list = []       # (name, line, parsed) of this page's predict/exercise blocks
        self.math = MathRenderer(node_modules or Path(config.config_file_path).resolve().parent / "node_modules")
        self.parsers = {
            "stepper": (stepper.parse, stepper.render),
            "mcq": (quiz.parse_mcq, quiz.render_mcq),
            "ordering": (quiz.parse_ordering, quiz.render_ordering),
            "reveal": (reveal.parse, reveal.render),
            "complete": (lambda s: progress.parse_complete(s, self.slug), progress.render_complete),
            "progress": (lambda s: {}, lambda _p: progress.render_progress(progress.lessons(self.files), self.page_url)),
            "glossary": (lambda s: {}, lambda _p: glossary.render_all(self.terms)),
            "predict": (predict.parse, lambda p: predict.render(p, self.cell_outputs)),
            "exercise": (exercise.parse, exercise.render),
        }

    @property
    def storage_namespace(self) -> str:
        """localStorage keys start with this, so two Pathshala sites on one host never collide."""
        digest = hashlib.sha256(f"{self.site_url}\n{self.site_name}".encode("utf-8")).hexdigest()[:10]
        return f"pathshala-{digest}"

    # -- fences --------------------------------------------------------------------------
    def fences(self) -> list[dict]:
        return [{"name": name, "class": f"pz-{name}", "format": self._formatter(name)} for name in self.parsers]

    def _formatter(self, name):
        parse, render = self.parsers[name]

        def format_block(source, language, css_class, options, md, **kwargs):
            try:
                return render(parse(source))
            except ComponentError as exc:  # already reported by check_page; kept as a safety net
                raise SuperFencesException(f"{self.src}: {exc}") from exc

        return format_block

    # -- page hooks ------------------------------------------------------------------------
    def on_config(self):
        try:
            self.terms = glossary.load(self.docs_dir / GLOSSARY_FILE)
        except ComponentError as exc:
            raise PluginError(str(exc)) from exc

    def on_page_markdown(self, markdown: str, page, files) -> None:
        """Remember the page and check every component block on it (errors name file and line)."""
        self.src = page.file.src_uri
        self.slug = progress.page_slug(self.src)
        self.page_url = page.url
        self.files = files
        seen: dict[str, int] = {}
        self.code_blocks = []
        self.cell_outputs = {}
        try:
            for name, line, body in fence_blocks(markdown, set(self.parsers)):
                try:
                    parsed = self.parsers[name][0](body)
                except ComponentError as exc:
                    raise PluginError(f"{self.src}:{line}: {exc}") from exc
                if name in ("predict", "exercise"):
                    self.code_blocks.append((name, line, parsed))
                cid = parsed.get("id") if isinstance(parsed, dict) else None
                if cid:
                    if cid in seen:
                        raise PluginError(f"{self.src}:{line}: component id {cid!r} is already used on line {seen[cid]}")
                    seen[cid] = line
        except ComponentError as exc:
            raise PluginError(f"{self.src}: {exc}") from exc

    def on_page_cells(self, outputs: dict, run_checks) -> None:
        """After the plugin ran the page's cells: ``outputs`` maps cell id to its build result
        (predict blocks show it), ``run_checks(code, checks)`` runs an exercise's code and checks
        in the build's Pyodide. Unknown cells and wrong exercises fail the build here, with the line."""
        self.cell_outputs = outputs
        for name, line, parsed in self.code_blocks:
            try:
                if name == "predict" and parsed["cell"] not in outputs:
                    known = ", ".join(sorted(outputs)) or "none"
                    raise ComponentError(f"predict '{parsed['id']}': there is no pycell with id "
                                         f"'{parsed['cell']}' on this page (cells here: {known})")
                if name == "exercise":
                    exercise.verify(parsed, run_checks)
            except ComponentError as exc:
                raise PluginError(f"{self.src}:{line}: {exc}") from exc

    def on_page_content(self, html: str, page) -> str:
        """Glossary terms become tooltips; a page that used any ends with their list."""
        href = glossary.href_from(page.url, "glossary/" if page.file.use_directory_urls else "glossary/index.html")
        try:
            html, used = glossary.mark_terms(html, self.terms, href, self.slug)
        except ComponentError as exc:
            raise PluginError(f"{page.file.src_uri}: {exc}") from exc
        if used and page.file.src_uri != GLOSSARY_PAGE:
            html += glossary.render_page_list(used, self.terms)
        plain_toc_titles(page.toc)
        try:
            return self.math.render_page(html)
        except ComponentError as exc:
            raise PluginError(f"{page.file.src_uri}: {exc}") from exc

    def site_module(self) -> str:
        return ("// Generated by py_lessons.build.components: settings the components read in the page.\n"
                f'export const storageNamespace = "{self.storage_namespace}";\n')

    def on_post_build(self, site_dir: Path) -> None:
        out = site_dir / "assets" / "pathshala" / "components" / "site.js"
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(self.site_module(), encoding="utf-8")


def register(config, plugin=None) -> Components:
    components = Components(config, getattr(plugin, "node_modules", None))
    components.on_config()
    fences = config.mdx_configs.setdefault("pymdownx.superfences", {}).setdefault("custom_fences", [])
    fences.extend(components.fences())
    return components
