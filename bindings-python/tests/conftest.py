"""Shared fixtures: the repository's paths and built binaries."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
WEATHER_LISTING = REPO / "tests" / "examples" / "weather.tools.json"
EXAMPLE = REPO / "examples" / "python"


def binary(name: str) -> Path:
    """A workspace binary, built by `make test` before pytest runs."""
    target = Path(os.environ.get("CARGO_TARGET_DIR", REPO / "target"))
    for profile in ("debug", "release"):
        path = target / profile / name
        if path.exists():
            return path
    found = shutil.which(name)
    if found is None:
        pytest.fail(f"{name} is not built: run `cargo build --bin {name}` (make test does)")
    return Path(found)


@pytest.fixture(scope="session")
def weather_text() -> str:
    return WEATHER_LISTING.read_text(encoding="utf-8")


@pytest.fixture(scope="session")
def venv_path() -> str:
    """PATH with this interpreter's folder first, so `python3` in flow.toml is it."""
    import sys

    return os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])
