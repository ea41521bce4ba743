"""DATA_DIR holds secrets (the SQLite store's unrevealed server seeds, the embedded Redis's referee views): it is kept
to its owner (the folder 0700, its files 0600) and used by one server at a time.

The claim is a POSIX record lock (fcntl.lockf) on DATA_DIR/herald.lock: the kernel drops it with a dead process and a
forked worker does not inherit it. The file names its holder (pid, command, port, Redis) for a process finding it taken.
"""
from __future__ import annotations

import errno
import fcntl
import json
import logging
import os
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

log = logging.getLogger("herald")
LOCK = "herald.lock"
OWNER_ONLY = 0o077  # the umask while Herald creates files: no access for group and others
SHOWN = 6  # tightened entries a log line names


@contextmanager
def private() -> Iterator[None]:
    """Files and folders this process (and its children) create meanwhile are its owner's only."""
    before = os.umask(OWNER_ONLY)
    try:
        yield
    finally:
        os.umask(before)


def tighten(folder: Path, also: Iterable[Path] = ()) -> None:
    """Take group and other access off the folder, everything under it and the paths `also` (the event store kept
    elsewhere), with one log line naming what was changed."""
    changed = []
    for path in [folder, *folder.rglob("*"), *also]:
        try:
            mode = path.lstat().st_mode
        except FileNotFoundError:  # gone meanwhile, or an `also` not made yet
            continue
        if path.is_symlink() or not mode & OWNER_ONLY:
            continue
        path.chmod(mode & (0o700 if path.is_dir() else 0o600))
        name = "the folder" if path == folder else path.relative_to(folder) if path.is_relative_to(folder) else path
        changed.append(f"{name} ({mode & 0o777:04o})")
    if changed:
        more = f" and {len(changed) - SHOWN} more" if len(changed) > SHOWN else ""
        log.warning("DATA_DIR %s was open to other users: tightened to owner-only (folders 0700, files 0600): %s%s",
                    folder, ", ".join(changed[:SHOWN]), more)


class Held(Exception):
    """DATA_DIR is claimed by another live process, which `holder` describes."""

    def __init__(self, folder: Path, holder: dict):
        self.folder, self.holder = folder, holder
        super().__init__(self.sentence())

    def sentence(self) -> str:
        """One line for a server refused: who holds the folder and what to do."""
        pid = self.holder.get("pid", "?")
        if "command" not in self.holder:
            return (f"herald: DATA_DIR {self.folder} is already served by Herald (pid {pid}, port "
                    f"{self.holder.get('port', '?')}); stop that server, or give this one its own DATA_DIR")
        return (f"herald: DATA_DIR {self.folder} is held by `{self.holder['command']}` (pid {pid}) and the embedded "
                "Redis it started; stop it and start the server first (tools started after a server use its Redis)")


class DataDir:
    """DATA_DIR, created owner-only, and the claim on it."""

    def __init__(self, path: str | Path):
        self.path = Path(path).resolve()
        self.fd: int | None = None

    def claim(self, **holder) -> None:
        """Hold the folder for this process's life (or until release), recording `holder`; Held if a live process
        holds it."""
        self.path.mkdir(mode=0o700, parents=True, exist_ok=True)
        fd = os.open(self.path / LOCK, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        try:
            fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as error:
            if error.errno not in (errno.EACCES, errno.EAGAIN):
                raise
            holder = self._holder(fd)
            os.close(fd)
            raise Held(self.path, holder) from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, json.dumps(holder).encode(), 0)
        self.fd = fd

    @staticmethod
    def _holder(fd: int) -> dict:
        """The holder's record; read again for up to a second while the holder, which has just taken the lock, is
        writing it."""
        deadline = time.monotonic() + 1
        while True:
            try:
                return json.loads(os.pread(fd, 4096, 0))
            except ValueError:
                if time.monotonic() > deadline:
                    return {}
                time.sleep(0.02)

    def release(self) -> None:
        if self.fd is not None:
            os.ftruncate(self.fd, 0)
            os.close(self.fd)  # closing drops the lock
            self.fd = None
