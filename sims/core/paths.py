"""Paths a command writes or reads, checked before any work: a file to write must be new or a regular file, in
a folder that can be written, its name one the filesystem takes; a file to read must be a regular file of a sane
size.  A named pipe, a device, a directory or a symbolic link is refused, never replaced: writing is atomic
(:func:`sims.core.store.atomic_write`), and a rename would put a regular file in place of any of them."""

from __future__ import annotations

import os
import shutil
import stat
import tempfile
from contextlib import contextmanager
from pathlib import Path

TEMPORARY = 16  # bytes a temporary file's name adds to the name it is written beside (atomic_write)


def shown(path, limit: int = 240) -> str:
    """A path as one readable piece of a one-line error: bytes that are not UTF-8 escaped, and a long one cut to
    its last ``limit`` characters (the file's name kept)."""
    text = " ".join(os.fsdecode(path).encode("utf-8", "backslashreplace").decode("utf-8").split())
    return text if len(text) <= limit else "…" + text[1 - limit :]


def file_kind(mode: int) -> str | None:
    """What a file is, when it is not a regular file."""
    for test, kind in (
        (stat.S_ISDIR, "a directory"),
        (stat.S_ISFIFO, "a named pipe"),
        (stat.S_ISCHR, "a device"),
        (stat.S_ISBLK, "a device"),
        (stat.S_ISSOCK, "a socket"),
    ):
        if test(mode):
            return kind
    return None if stat.S_ISREG(mode) else "not a regular file"


def check_length(path, label: str, extra: int = 0) -> None:
    """Refuse a path, or a name in it, longer than the filesystem takes (ENAMETOOLONG), ``extra`` bytes of a
    temporary name included."""
    path = Path(path)
    existing = next((p for p in path.absolute().parents if p.is_dir()), Path("/"))
    try:
        name_max, path_max = os.pathconf(existing, "PC_NAME_MAX"), os.pathconf(existing, "PC_PATH_MAX")
    except (OSError, ValueError):
        name_max, path_max = 255, 4096
    for part in path.parts:
        size = len(os.fsencode(part))
        if size + extra > name_max:
            raise ValueError(f"{label}: a name of {size} bytes, and the filesystem takes at most {name_max - extra}")
    size = len(os.fsencode(path.absolute()))
    if size + extra >= path_max:
        raise ValueError(f"{label}: a path of {size} bytes, and the filesystem takes at most {path_max - 1 - extra}")


def _status(path: Path, label: str):
    """``os.stat`` of ``path`` (None when there is nothing), any other trouble one line."""
    try:
        return path.stat()
    except FileNotFoundError:
        return None
    except OSError as exc:  # a loop of links, a file where a folder should be, no permission
        raise ValueError(f"{label}: {exc.strerror}") from None


def check_output_file(path, flag: str, new_folder: bool = False) -> Path:
    """A file a command will write (``--record``, ``--out``): refused in one line unless it is new or a regular
    file (not through a symbolic link), in an existing folder where a file can be made (``new_folder``: or in a
    folder the command will make), its name not too long."""
    text = os.fspath(path)
    if not text.strip():
        raise ValueError(f"{flag}: an empty path")
    path = Path(text)
    label = f"{flag} {shown(path)}"
    check_length(path, label, TEMPORARY)
    info = _status(path, label)
    if info is not None and file_kind(info.st_mode):
        raise ValueError(f"{label}: is {file_kind(info.st_mode)}, not a file to write")
    if path.is_symlink():
        raise ValueError(f"{label}: leads to {shown(os.readlink(path))}; give the file itself, not a symbolic link")
    folder = path.absolute().parent
    if new_folder and not os.path.lexists(folder):
        folder = next(p for p in folder.parents if os.path.lexists(p))
    if not folder.is_dir():
        raise ValueError(f"{label}: no folder {shown(folder)}")
    try:  # as root, os.access says yes to a read-only /sys: try it
        fd, probe = tempfile.mkstemp(dir=folder, prefix=".sims-", suffix=".tmp")
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        raise ValueError(f"{label}: a file cannot be written in {shown(folder)} ({exc.strerror})") from None
    return path


def check_input_file(path, label: str, limit: int | None = None, what: str = "file") -> Path:
    """A file a command will read: a regular file (a named pipe would block, a device never end) of at most
    ``limit`` bytes; else one line starting with ``label``.  A missing file is FileNotFoundError."""
    path = Path(os.fspath(path))
    check_length(path, label)
    info = _status(path, label)
    if info is None:
        raise FileNotFoundError(2, "No such file or directory", str(path))
    if file_kind(info.st_mode):
        raise ValueError(f"{label}: is {file_kind(info.st_mode)}, not a {what} to read")
    if limit is not None and info.st_size > limit:
        raise ValueError(f"{label}: a {what} of {info.st_size:,} bytes, and at most {limit:,} are read")
    return path


@contextmanager
def removed_on_failure(folder):
    """A folder a command is about to make: if the command fails, the folder is removed again when this command
    made it and it holds no finished work (no Parquet file); a resumed run's folder is left as it was."""
    folder = None if folder is None else Path(folder)
    new = folder is not None and not os.path.lexists(folder)
    try:
        yield
    except BaseException:
        if new and folder.is_dir() and not folder.is_symlink() and not any(folder.rglob("*.parquet")):
            shutil.rmtree(folder, ignore_errors=True)
        raise
