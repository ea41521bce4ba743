"""Settings from the environment, with embedded defaults for one machine."""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class Settings:
    data_dir: Path = field(default_factory=lambda: Path(os.environ.get("DATA_DIR", "var")))
    host: str = field(default_factory=lambda: os.environ.get("HOST", "127.0.0.1"))
    port: int = field(default_factory=lambda: int(os.environ.get("PORT", "8000")))
    redis_url: str | None = field(default_factory=lambda: os.environ.get("REDIS_URL") or None)
    admin_key: str | None = field(default_factory=lambda: os.environ.get("HERALD_ADMIN_KEY") or None)
    # "inline": each worker projects after its own commands; "separate": `herald project` processes do
    project_inline: bool = field(default_factory=lambda: os.environ.get("HERALD_PROJECTOR", "inline") != "separate")
    max_body: int = 64 * 1024

    def event_store_env(self) -> dict:
        """eventsourcing's persistence settings: PostgreSQL when PERSISTENCE_MODULE says so, else SQLite."""
        module = os.environ.get("PERSISTENCE_MODULE", "eventsourcing.sqlite")
        env = {"PERSISTENCE_MODULE": module}
        if module == "eventsourcing.sqlite":
            self.data_dir.mkdir(parents=True, exist_ok=True)
            env["SQLITE_DBNAME"] = os.environ.get("SQLITE_DBNAME") or str(self.data_dir / "events.sqlite")
        return env

    def describe_event_store(self, env: dict) -> str:
        if env["PERSISTENCE_MODULE"] == "eventsourcing.sqlite":
            return f"sqlite {env['SQLITE_DBNAME']}"
        host = os.environ.get("POSTGRES_HOST", "127.0.0.1")
        return f"postgres {host}:{os.environ.get('POSTGRES_PORT', '5432')}/{os.environ.get('POSTGRES_DBNAME', '')}"
