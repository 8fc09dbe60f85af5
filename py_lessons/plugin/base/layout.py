"""Where things are in a course's docs folder and in the built site: what the renderers link to
and the page's scripts find (the generated ``assets/pathshala/site.js`` carries it to them)."""

from __future__ import annotations

from dataclasses import dataclass

ASSETS_URL = "assets/pathshala"     # the plugin's front end in the site
VENDOR_URL = "assets/vendor"        # third-party front-end files (ship/vendor.py)
FIGURES_URL = f"{ASSETS_URL}/figures"  # the build's figures, out of the pages (render/figure_files.py)


@dataclass(frozen=True)
class SiteLayout:
    lessons_folder: str = "lessons/"     # lessons live in <lessons_folder><slug>/index.md
    runs_page: str = "runs/"             # the page that lists every real run
    glossary_file: str = "glossary.yml"  # the terms, in the docs folder
    glossary_page: str = "glossary/"     # the page that shows every term
    pyodide: str = "pyodide"             # the staged Pyodide, in the site

    def lesson_url(self, slug: str) -> str:
        return f"{self.lessons_folder}{slug}/"

    def glossary_source(self) -> str:
        """The glossary page's Markdown file in the docs folder."""
        return f"{self.glossary_page}index.md"

    def glossary_url(self, use_directory_urls: bool = True) -> str:
        return self.glossary_page if use_directory_urls else f"{self.glossary_page}index.html"
