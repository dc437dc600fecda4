"""The import graph of Python packages, read from their sources (``ast``), never by importing them.

An edge ``a -> b`` means module ``a`` imports module ``b``: an ``import`` or ``from ... import``
anywhere in ``a`` (at the top or inside a function), with relative imports resolved and
``from package import submodule`` counted as the submodule; with ``strings=True`` also a
string constant ``"b"`` / ``"b:attribute"`` (the form :func:`sims.core.policies.load` imports
on first use).  Only modules of the packages asked about count.  :mod:`sims.core.cache` keys
a kernel on the modules its module imports (a kernel can only call what its module imported
when it was defined); the layering test also counts the strings, to check that the core
names no game even lazily.

Parsing is the slow part (a quarter of a second for the modules one command reaches), so
:func:`imports` may be given a ``memo`` directory: what a file imports is kept there under the
SHA-256 of the module's name, the file's bytes and this module's own source, and read back
instead of parsed.  An entry names its content, so it is never stale; one edit of a file or
of this parser simply makes new entries.
"""

from __future__ import annotations

import ast
import hashlib
import importlib.util
import os
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

_DOTTED = re.compile(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)+(:[\w.]+)?")


@cache
def package_root(top: str) -> Path | None:
    """The folder of top-level package ``top``, found without importing it (None: not a package)."""
    try:
        spec = importlib.util.find_spec(top)
    except (ImportError, ValueError):
        return None
    locations = spec and spec.submodule_search_locations
    return Path(next(iter(locations))).resolve() if locations else None


_FOUND: dict[tuple[Path, str], Path] = {}


def module_file(name: str) -> Path | None:
    """The source file of module ``name`` (``a.b`` -> ``<root of a>/b.py`` or ``b/__init__.py``); a file once
    found under its package's root is remembered (a missing one is looked for again)."""
    top, *rest = name.split(".")
    root = package_root(top)
    if root is None:
        return None
    if (root, name) in _FOUND:
        return _FOUND[root, name]
    if len(rest) > 1:  # most names asked for are attributes of a module (kernel keys): a plain module has none
        parent = module_file(name.rpartition(".")[0])
        if parent is not None and parent.name != "__init__.py":
            return None
    base = os.path.join(root, *rest)  # strings, not Paths (most names asked for are no module)
    for path in (base + ".py" if rest else None, os.path.join(base, "__init__.py")):
        if path is not None and os.path.isfile(path):
            _FOUND[root, name] = found = Path(path)
            return found
    return None


def module_of(path: Path, tops: frozenset[str]) -> str | None:
    """The name of the module whose source is ``path``, within packages ``tops`` (None: outside them)."""
    path = Path(path).resolve()
    for top in sorted(tops):
        root = package_root(top)
        if root is not None and path.is_relative_to(root) and path.suffix == ".py":
            parts = path.relative_to(root).with_suffix("").parts
            name = ".".join((top, *(parts[:-1] if parts[-1] == "__init__" else parts)))
            return name if module_file(name) == path else None
    return None


@dataclass(frozen=True)
class Module:
    name: str
    path: Path

    @property
    def is_package(self) -> bool:
        return self.path.name == "__init__.py"


def _absolute(module: Module, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    parts = module.name.split(".")
    base = parts if module.is_package else parts[:-1]
    base = base[: len(base) - node.level + 1]
    return ".".join(base + ([node.module] if node.module else []))


@cache
def _named(path: Path, name: str, strings: bool, stamp: tuple, memo: Path | None = None) -> tuple[str, ...]:
    """Every module name a source file imports (and names in dotted strings), unfiltered; read from ``memo``
    when it holds them (module docstring), else parsed (and kept there)."""
    source = path.read_bytes()
    if memo is None:
        return _parsed(Module(name, path), source, strings)
    entry = memo / _memo_key(name, path.name == "__init__.py", strings, source)
    try:
        names = tuple(entry.read_text(encoding="utf-8").split())
    except OSError:
        names = None
    if names is not None and all(_NAME.fullmatch(n) for n in names):
        return names
    names = _parsed(Module(name, path), source, strings)
    try:  # written whole, then renamed: a reader never sees half an entry
        memo.mkdir(mode=0o700, exist_ok=True)
        partial = entry.with_name(f"{entry.name}.{os.getpid()}.tmp")
        partial.write_text("\n".join(names), encoding="utf-8")
        os.replace(partial, entry)
    except OSError:  # a read-only cache: parsed again next time
        pass
    return names


_NAME = re.compile(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*")


@cache
def _parser_digest() -> bytes:
    """The SHA-256 of this module's own source (a memo entry's key holds it: an edit of the parser is new entries)."""
    return hashlib.sha256(Path(__file__).read_bytes()).digest()


def _memo_key(name: str, is_package: bool, strings: bool, source: bytes) -> str:
    """The memo entry of a module's imports: everything they depend on, hashed."""
    head = f"{name}\0{int(is_package)}\0{int(strings)}\0".encode()
    return hashlib.sha256(head + _parser_digest() + source).hexdigest()


def _parsed(module: Module, source: bytes, strings: bool) -> tuple[str, ...]:
    names = []
    for node in ast.walk(ast.parse(source, str(module.path))):
        if isinstance(node, ast.Import):
            for alias in node.names:  # ``import a.b.c`` binds ``a``: a, a.b and a.b.c are reachable
                parts = alias.name.split(".")
                names += (
                    [".".join(parts[:i]) for i in range(1, len(parts) + 1)] if alias.asname is None else [alias.name]
                )
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(module, node)
            names += [base] + [f"{base}.{alias.name}" for alias in node.names]
        elif (
            strings and isinstance(node, ast.Constant) and isinstance(node.value, str) and _DOTTED.fullmatch(node.value)
        ):
            names.append(node.value.partition(":")[0])
    return tuple(dict.fromkeys(names))


def imports(name: str, tops: frozenset[str], strings: bool = False, memo: Path | None = None) -> list[str]:
    """The modules of packages ``tops`` that module ``name`` imports (see the module docstring; ``memo``: a
    directory to keep what each file imports in)."""
    path = module_file(name)
    if path is None:
        return []
    stat = path.stat()
    found = [
        n
        for n in _named(path, name, strings, (stat.st_mtime_ns, stat.st_size), memo)
        if n.split(".")[0] in tops and n != name and module_file(n) is not None
    ]
    return list(dict.fromkeys(found))


def reach(
    name: str, tops: frozenset[str], stop: frozenset[str] = frozenset(), strings: bool = False, memo: Path | None = None
) -> list[str]:
    """``name`` and every module of packages ``tops`` it reaches through imports, sorted; the modules in
    ``stop`` are not entered (nor counted); ``memo`` as :func:`imports` takes it."""
    seen, todo = {name}, [name]
    while todo:
        for other in imports(todo.pop(), tops, strings, memo):
            if other in stop:
                continue
            if other not in seen:
                seen.add(other)
                todo.append(other)
    return sorted(seen)


def modules(top: str) -> list[str]:
    """Every module of package ``top``, from its files (``__main__`` excluded)."""
    root = package_root(top)
    if root is None:
        return []
    found = []
    for path in sorted(root.rglob("*.py")):
        parts = path.relative_to(root).with_suffix("").parts
        parts = parts[:-1] if parts[-1] == "__init__" else parts
        if parts[-1:] != ("__main__",) and all(p.isidentifier() for p in parts):
            found.append(".".join((top, *parts)))
    return found
