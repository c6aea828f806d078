"""The HTTP API: a thin FastAPI layer over the SDK (``create_app``), served by ``toolform serve``."""

from toolform.server.app import create_app
from toolform.server.settings import Settings, with_environment

__all__ = ["Settings", "create_app", "with_environment"]
