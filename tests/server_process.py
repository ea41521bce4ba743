"""`../shared/peer-bench/herald_load.py` imports `tests.server_process.Server` (its contract with Herald): the same
class as tests/helpers/server.py's, so that its patch of Server.start reaches the server `bench` starts."""
from tests.helpers.server import Server

__all__ = ["Server"]
