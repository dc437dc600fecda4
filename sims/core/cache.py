"""A numba on-disk cache that cannot load a kernel compiled from other sources.

numba keys a cached function on its own file only, so a kernel whose callee in
another file changed would load stale machine code.  :func:`install` puts a cache
locator in front of numba's: a function defined in a file of the package lives in
``<cache root>/<part>-<hash>/...``, where ``part`` is the file's top-level folder
(``core``, ``cribbage``, ``allfours``, ...; ``_root`` for top-level modules) and
``hash`` covers every source file that part can call: the top-level modules, the
shared folders (``core``) and the part's own folder.  Editing a callee anywhere
that a kernel can reach moves the kernel to a new directory, so it recompiles;
editing one game leaves the other games' kernels cached.  Nothing is deleted, so
several processes (pytest-xdist, Dask workers) can start at once: numba writes
each cache file atomically.

The cache root is ``$SIMS_CACHE_DIR``, else ``$NUMBA_CACHE_DIR/sims``, else
``$XDG_CACHE_HOME/sims/numba`` (``~/.cache/sims/numba``).
"""
from __future__ import annotations

import hashlib
import os
from functools import lru_cache
from pathlib import Path

from numba.core import caching

SHARED = ("core",)


def cache_root() -> Path:
    if os.environ.get("SIMS_CACHE_DIR"):
        return Path(os.environ["SIMS_CACHE_DIR"])
    if os.environ.get("NUMBA_CACHE_DIR"):
        return Path(os.environ["NUMBA_CACHE_DIR"]) / "sims"
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "sims" / "numba"


@lru_cache(maxsize=None)
def part_key(root: Path, part: str, shared: tuple[str, ...]) -> str:
    """Hash of the sources a kernel in ``part`` can reach: top-level modules, shared folders, the part."""
    files = sorted(root.glob("*.py"))
    for folder in (*shared, part):
        if folder != "_root":
            files += sorted((root / folder).rglob("*.py"))
    digest = hashlib.sha256()
    for path in dict.fromkeys(files):
        digest.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


class _Locator(caching.UserProvidedCacheLocator):
    """Caches functions of files under ``ROOTS`` by source-tree hash (module docstring)."""

    ROOTS: dict[Path, tuple[Path, tuple[str, ...]]] = {}   # package root -> (cache root, shared folders)

    def __init__(self, py_func, py_file, package: Path):
        super().__init__(py_func, py_file)
        cache, shared = self.ROOTS[package]
        relative = Path(py_file).resolve().relative_to(package)
        part = relative.parts[0] if len(relative.parts) > 1 else "_root"
        self._cache_path = str(cache / f"{part}-{part_key(package, part, shared)}" / relative.parent)

    @classmethod
    def from_function(cls, py_func, py_file):
        path = Path(py_file).resolve()
        for package in cls.ROOTS:
            if path.is_relative_to(package) and path.exists():
                self = cls(py_func, py_file, package)
                try:
                    self.ensure_cache_path()
                except OSError:   # not writable: numba's other locators decide
                    return None
                return self
        return None


def install(package: Path, cache: Path | None = None, shared: tuple[str, ...] = SHARED) -> None:
    """Cache the kernels of ``package`` by source-tree hash (call before its first ``@njit(cache=True)``)."""
    _Locator.ROOTS[Path(package).resolve()] = (Path(cache) if cache else cache_root(), tuple(shared))
    impl = getattr(caching, "CacheImpl", None) or caching._CacheImpl   # public from numba 0.61
    if _Locator not in impl._locator_classes:
        impl._locator_classes.insert(0, _Locator)
