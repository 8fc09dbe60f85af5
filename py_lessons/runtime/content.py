"""The course's own modules (``py_lessons_content``): its steppers, explorables and course.py.

At build time the plugin loads them from their files (:func:`load_content`); in the reader's
Pyodide they are installed with the runtime wheel and imported the first time a registry is asked
for a name it does not hold (:func:`lookup`). The registries (steppers.STEPPERS,
explorables.EXPLORABLES) register themselves here, so that reloading a module (a rebuild under
``mkdocs serve``) first forgets what it registered. Standard library only.
"""

from __future__ import annotations

import difflib
import importlib
import importlib.util
import sys
import types

# Every ``steppers.py``, ``explorables.py`` and ``course.py`` of a course becomes a module of this package.
CONTENT_PACKAGE = "py_lessons_content"

_REGISTRIES: list[dict] = []  # name -> definition with a ``func``: what the content modules register


def registry(table: dict) -> dict:
    """Declare ``table`` a registry the content modules fill in (returns it)."""
    _REGISTRIES.append(table)
    return table


def _forget(module: str) -> None:
    """Drop what ``module`` registered."""
    for table in _REGISTRIES:
        for key in [k for k, d in table.items() if d.func.__module__ == module]:
            del table[key]


def load_content(modules: dict[str, str]) -> None:
    """Load a course's content modules, ``{module name: file path}``, registering what they
    define: these and no others (a module loaded before and not named now is forgotten, with what
    it registered, so a file deleted under ``mkdocs serve`` is gone from the next build)."""
    package = sys.modules.get(CONTENT_PACKAGE)
    if package is None:
        package = types.ModuleType(CONTENT_PACKAGE)
        package.__path__ = []
        sys.modules[CONTENT_PACKAGE] = package
    wanted = {f"{CONTENT_PACKAGE}.{name}" for name in modules}
    for full in [name for name in sys.modules if name.startswith(CONTENT_PACKAGE + ".") and name not in wanted]:
        _forget(full)
        del sys.modules[full]
        if hasattr(package, full.rsplit(".", 1)[1]):
            delattr(package, full.rsplit(".", 1)[1])
    for name, path in sorted(modules.items()):
        full = f"{CONTENT_PACKAGE}.{name}"
        _forget(full)
        spec = importlib.util.spec_from_file_location(full, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[full] = module
        with open(path, "rb") as file:
            source = file.read()
        # run the bytes read here and keep them: what the build keys its caches on (an explorable's
        # figure) is then what it ran, even when the author saves the file during a build
        exec(compile(source, path, "exec"), module.__dict__)
        module.__source__ = source.decode("utf-8")
        setattr(package, name, module)


def load_installed_content() -> None:
    """In the reader's Pyodide the content modules are installed with the runtime wheel."""
    if CONTENT_PACKAGE not in sys.modules:
        try:
            importlib.import_module(CONTENT_PACKAGE)
        except ImportError:
            pass


def lookup(table: dict, name: str):
    """``table[name]``, importing the installed content first when it is not there yet; KeyError
    when no content module registered it."""
    if name not in table:
        load_installed_content()
    return table[name]


def did_you_mean(table: dict, name: str) -> str:
    """The catalogue's " did you mean …?" for the registered name closest to ``name``, or ""."""
    from .catalogue import t  # the catalogue imports nothing of this module; late to keep it so

    close = difflib.get_close_matches(name, list(table), n=1)
    return t("content.did_you_mean", name=close[0]) if close else ""
