"""Keep numba's on-disk cache honest for a changed source tree.

numba keys each cached function on its own file's timestamp only, so a kernel whose
callee in another module changed would load stale machine code.  At import we
fingerprint every source file of the package; when the fingerprint differs from the
one stored beside the cache, the package's cached kernels are dropped and recompiled.
"""
from __future__ import annotations

import hashlib
from pathlib import Path

_ROOT = Path(__file__).resolve().parent
_STAMP = _ROOT / "__pycache__" / "numba-sources.sha1"


def _fingerprint() -> str:
    digest = hashlib.sha1()
    for path in sorted(_ROOT.rglob("*.py")):
        stat = path.stat()
        digest.update(f"{path.relative_to(_ROOT)}:{stat.st_mtime_ns}:{stat.st_size}\n".encode())
    return digest.hexdigest()


def drop_stale_kernels() -> None:
    """Delete this package's numba cache files if any source file changed since they were written."""
    current = _fingerprint()
    try:
        if _STAMP.read_text() == current:
            return
    except OSError:
        pass
    for pattern in ("*.nbi", "*.nbc"):
        for path in _ROOT.rglob(pattern):
            path.unlink(missing_ok=True)
    try:
        _STAMP.parent.mkdir(exist_ok=True)
        tmp = _STAMP.with_suffix(".tmp")
        tmp.write_text(current)
        tmp.replace(_STAMP)
    except OSError:  # a read-only install: nothing was cached there either
        pass
