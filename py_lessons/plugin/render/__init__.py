"""Turning the read page into HTML: a cell with its build output, the components (one class per
kind), run tables and charts, the glossary's tooltips and formulas (KaTeX) in the page's HTML,
and the lesson as a notebook to take away. Imports base/ and page/."""
