"""The key that signs the console's session cookie and its forms' CSRF tokens: SECRET_KEY from the environment, else
one generated once and kept (mode 0600) under DATA_DIR, so that every worker process, and the next start, signs alike."""
from __future__ import annotations

import os
import secrets
from pathlib import Path

FILE = "secret_key"


def secret_key(data_dir: Path) -> str:
    """SECRET_KEY, else DATA_DIR/secret_key, written by whichever process gets there first."""
    if os.environ.get("SECRET_KEY"):
        return os.environ["SECRET_KEY"]
    path = Path(data_dir) / FILE
    if not path.exists():
        create(path)
    return path.read_text().strip()


def create(path: Path) -> None:
    """Write a new key to a file of our own, then link it into place: a process starting at the same moment finds
    either no key yet or a whole one, never a half-written one, and the first link wins."""
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    draft = path.with_name(f".{FILE}.{os.getpid()}.{secrets.token_hex(4)}")
    fd = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "w") as out:
            out.write(secrets.token_urlsafe(48))
        os.link(draft, path)
    except FileExistsError:
        pass  # another worker linked its key first: that one is kept
    finally:
        draft.unlink(missing_ok=True)
