"""Where numba caches a kernel: a directory keyed by every source the kernel's module can reach.

numba keys a cached function on its own file only, so a kernel whose callee in
another file changed would load stale machine code.  The locator here puts a kernel
of module ``a.b.c`` in ``<cache root>/a/b/c-<key>/``, where ``key`` hashes the
sources of ``a.b.c`` and of every module it reaches through imports within its own
top-level package and ``sims`` (:func:`sims.core.sources.reach`; a kernel can call only
what its module imported).  Editing a module therefore recompiles exactly the kernels
whose modules can reach it; the others stay cached.  Data files a module reads into
constants are not in the key (as before): a kernel that freezes such a table needs its
module edited, or the cache cleared, when the data change.  Nothing is deleted, so several processes (pytest-xdist, Dask workers) can
start at once: numba writes each cache file atomically.

The locator serves kernels defined through :func:`sims.core.kernel.njit` (which calls
:func:`claim`); numba's own locators serve every other function.

The cache root is ``$SIMS_CACHE_DIR``, else ``$NUMBA_CACHE_DIR/sims``, else
``$XDG_CACHE_HOME/sims/numba`` (``~/.cache/sims/numba``).  numba's cache holds
pickled code, so the root is created readable by its owner only, and nothing is loaded
from it that another user could have written: the root, every folder on the way to a
kernel's folder and the ``.nbi``/``.nbc`` files in it must belong to this user and be
writable by no one else, and no folder or file below the root may be a symbolic link;
anything else is refused in one line naming it and the fix (:class:`CacheDirError`).
The folders are checked once a process, when the first kernel in them is located, and
the files then too (a few ``stat`` calls a folder): later files are written by this
user's processes only, since no one else can write in those folders.
"""

from __future__ import annotations

import hashlib
import os
import stat
from functools import cache
from pathlib import Path
from typing import cast

from .sources import module_file, module_of, reach

# The machinery that defines and places kernels: it forwards to numba.njit unchanged and puts no code in a
# kernel, so editing it recompiles nothing.
MACHINERY = frozenset({"sims.core.kernel", "sims.core.cache", "sims.core.sources"})
IMPORT_GRAPH = "import-graph"  # under the cache root: what each source imports (not a name a package can have)


class CacheDirError(ValueError):
    """The kernel cache directory is unsafe to load code from."""


def cache_root() -> Path:
    if os.environ.get("SIMS_CACHE_DIR"):
        return Path(os.environ["SIMS_CACHE_DIR"])
    if os.environ.get("NUMBA_CACHE_DIR"):
        return Path(os.environ["NUMBA_CACHE_DIR"]) / "sims"
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "sims" / "numba"


def _trusted(path: Path, info: os.stat_result, what: str) -> None:
    """A :class:`CacheDirError` naming ``path`` and the fix unless it belongs to this user and only he can
    write it (``info``: its ``lstat``, or ``stat`` for the root, which may be a link)."""
    if stat.S_ISLNK(info.st_mode):
        raise CacheDirError(
            f"{what} {path} is a symbolic link; numba's cache holds code to load: remove it "
            f"(it is made again) or set SIMS_CACHE_DIR to a directory of your own"
        )
    if hasattr(os, "getuid") and info.st_uid != os.getuid():
        raise CacheDirError(
            f"{what} {path} belongs to another user (uid {info.st_uid}); numba's cache holds code "
            f"to load: chown it to yourself, remove it, or set SIMS_CACHE_DIR to a directory of your "
            f"own"
        )
    if info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        raise CacheDirError(
            f"{what} {path} is writable by other users (mode {stat.S_IMODE(info.st_mode):o}); "
            f"numba's cache holds code to load: chmod go-w {path}, or set SIMS_CACHE_DIR to a "
            f"directory of your own"
        )


def safe_root(root: Path) -> Path:
    """``root``, created owner-only (0700) when missing; one writable by group or others, or owned by another
    user, is a :class:`CacheDirError` (as is its :data:`IMPORT_GRAPH` folder)."""
    root = Path(root).expanduser()
    if root.exists() and not root.is_dir():
        raise CacheDirError(f"kernel cache directory {root} is not a directory")
    try:
        root.mkdir(mode=0o700, parents=True, exist_ok=True)
        info = root.stat()
    except OSError as exc:
        raise CacheDirError(f"kernel cache directory {root}: {exc.strerror or exc}") from None
    _trusted(root, info, "kernel cache directory")
    try:
        graph = os.lstat(root / IMPORT_GRAPH)
    except FileNotFoundError:
        return root
    except OSError as exc:
        raise CacheDirError(f"kernel cache folder {root / IMPORT_GRAPH}: {exc.strerror or exc}") from None
    _trusted(root / IMPORT_GRAPH, graph, "kernel cache folder")
    return root


def trusted_kernel_dir(root: Path, kernel: Path, checked: set) -> None:
    """Create the folders from ``root`` down to ``kernel`` owner-only where missing, then refuse
    (:class:`CacheDirError`) any of them, or any ``.nbi``/``.nbc`` file in ``kernel``, that is not this user's
    alone (:func:`_trusted`).  Folders in ``checked`` were checked before in this process; those checked now are
    added."""
    folder = root
    for part in kernel.relative_to(root).parts:
        folder = folder / part
        if folder in checked:
            continue
        try:
            info = os.lstat(folder)
        except FileNotFoundError:
            try:
                folder.mkdir(mode=0o700)
                info = os.lstat(folder)
            except OSError:  # a cache this process cannot write: numba's other locators decide
                return
        except OSError as exc:
            raise CacheDirError(f"kernel cache folder {folder}: {exc.strerror or exc}") from None
        _trusted(folder, info, "kernel cache folder")
        if folder == kernel:
            try:
                for entry in os.scandir(folder):
                    if entry.name.endswith((".nbi", ".nbc")):
                        _trusted(Path(entry.path), entry.stat(follow_symlinks=False), "kernel cache file")
            except OSError as exc:
                raise CacheDirError(f"kernel cache folder {folder}: {exc.strerror or exc}") from None
        checked.add(folder)


@cache
def source_key(modules: tuple[str, ...], tops: frozenset[str], memo: Path | None = None) -> str:
    """Hash of the sources of ``modules`` and of every module of packages ``tops`` they reach (once a process;
    ``memo``: where to keep what each source imports, :func:`sims.core.sources.imports`)."""
    digest = hashlib.sha256()
    for name in sorted({m for module in modules for m in reach(module, tops, stop=MACHINERY, memo=memo)}):
        digest.update(name.encode() + b"\0" + cast(Path, module_file(name)).read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def kernel_dir(cache: Path, modules: tuple[str, ...]) -> Path:
    """The folder under ``cache`` of the kernels of module ``modules[0]`` (running the code of each of
    ``modules``): ``a/b/c-<key>`` for module ``a.b.c``.  What each source imports is kept in ``cache``'s
    :data:`IMPORT_GRAPH` folder, so that a process does not parse them again."""
    key = source_key(modules, frozenset({"sims", modules[0].split(".")[0]}), Path(cache) / IMPORT_GRAPH)
    *package, leaf = modules[0].split(".")
    if cast(Path, module_file(modules[0])).name == "__init__.py":  # reach() found its file
        package, leaf = [*package, leaf], "__init__"
    return cache.joinpath(*package, f"{leaf}-{key}")


def _make_locator():
    from numba.core import caching

    class Locator(caching.UserProvidedCacheLocator):
        """Caches the functions of claimed packages by the sources their module reaches (module docstring).

        A function's module is its ``__module__``; the file its code comes from is usually that module's,
        but may be another module's (:func:`sims.core.driver.deal_loop` runs a core template with a game's
        globals): the key then covers what both reach, and the directory is the function's module's."""

        ROOTS: dict[str, Path] = {}  # claimed top-level package -> cache root
        READY: set[str] = set()  # kernel directories this process has made and found writable
        CHECKED: set[Path] = set()  # folders found this user's alone (trusted_kernel_dir)

        def __init__(self, py_func, py_file, cache: Path, modules: tuple[str, ...]):
            super().__init__(py_func, py_file)
            self._cache_path = str(kernel_dir(cache, modules))

        @classmethod
        def from_function(cls, py_func, py_file):
            module = getattr(py_func, "__module__", None) or ""
            cache = cls.ROOTS.get(module.split(".")[0])
            source = module_of(Path(py_file), frozenset({"sims", *cls.ROOTS}))
            if cache is None or module_file(module) is None or source is None:
                return None
            self = cls(py_func, py_file, cache, tuple(dict.fromkeys((module, source))))
            if self._cache_path not in cls.READY:  # numba's check writes a file: once a directory
                trusted_kernel_dir(cache, Path(self._cache_path), cls.CHECKED)
                try:
                    self.ensure_cache_path()
                except OSError:  # not writable: numba's other locators decide
                    return None
                cls.READY.add(self._cache_path)
            return self

    impl = getattr(caching, "CacheImpl", None) or caching._CacheImpl  # public from numba 0.61
    impl._locator_classes.insert(0, Locator)
    return Locator


_LOCATOR: list = []


def claim(py_func) -> None:
    """Cache the kernels of ``py_func``'s top-level package here: the first claim of a package checks the
    cache root (:func:`safe_root`), the first claim of all puts the locator in front of numba's."""
    if not _LOCATOR:
        _LOCATOR.append(_make_locator())
    roots = _LOCATOR[0].ROOTS
    top = py_func.__module__.split(".")[0]
    if top not in roots:
        roots[top] = safe_root(cache_root())
