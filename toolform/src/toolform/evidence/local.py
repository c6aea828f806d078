"""The local evidence store: measurements this installation made, one JSON file each.

A finished ab-test is written here (``--evidence-dir``, else ``TOOLFORM_EVIDENCE_DIR``,
else ``$XDG_DATA_HOME/toolform/evidence``) so that ``recommend`` can rest on it
(basis ``local:<file>``) and ``/evidence`` and ``/facts`` can list it beside the
study's evidence.

The folder holds one file per measurement and ``manifest.json``, which lists every
file with its sha256 and size. Both are written atomically (a temporary file in
the same folder, flushed, then renamed), under a lock, so that a reader never sees
half a file and two writers never lose each other's entries. Reading checks every
file against the manifest and re-validates it; a damaged, unlisted or invalid file
is reported as a problem and never served.

>>> score = FormatScore("json_schema_openai", "json_object", n=40, correct=31,
...                     prompt_tokens=52000, completion_tokens=2400)
>>> measurement = LocalMeasurement(model="Qwen/Qwen3-8B", endpoint_host="127.0.0.1:8000",
...     date="2026-12-01T23:40:00Z", toolset_fingerprint="ab12...", rule="main", seed=7,
...     formats=(score,))
>>> stored = write_measurement(store_dir, measurement)   # -> StoredMeasurement
>>> open_store(store_dir).measurements                   # (stored,)
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import math
import os
import re
import tempfile
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlsplit

from toolform.errors import BadRequest

#: The environment variable that names the store when no ``--evidence-dir`` does.
STORE_ENV_VAR = "TOOLFORM_EVIDENCE_DIR"
#: The store's manifest, beside the measurement files.
STORE_MANIFEST = "manifest.json"
#: The ``kind`` member that marks a manifest as a local store's (not the study's).
STORE_KIND = "toolform-local-evidence"
#: The ``kind`` member of one measurement file.
MEASUREMENT_KIND = "toolform-local-measurement"
SCHEMA_VERSION = 1
#: The source label of a figure read from one stored measurement.
LOCAL_PREFIX = "local:"

_LOCK_FILE = ".lock"
#: The normal quantile for a two-sided 95% interval, as the reference rounds it (1.96), so that a
#: measurement's intervals equal the reference's to the last digit (9 of 9 gives 70.08, not 70.09).
_Z95 = 1.96
_RULES = ("main", "symmetric", "as_written")
_FILE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*\.json$")
_HOST = re.compile(r"^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+)(:[0-9]{1,5})?$")

StoreStatus = Literal["ok", "empty", "failed"]


def wilson_interval(correct: int, n: int) -> tuple[float, float]:
    """The 95% Wilson score interval of ``correct`` out of ``n``, in percent, to two decimals.

    Wilson rather than the normal approximation because measurements are small
    (tens of tasks) and often near 0% or 100%, where the normal interval leaves [0, 100].
    """
    if n <= 0:
        raise ValueError(f"n must be positive to have an interval; got {n}")
    if not 0 <= correct <= n:
        raise ValueError(f"correct must be between 0 and n ({n}); got {correct}")
    p = correct / n
    z2 = _Z95 * _Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = _Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return (round(max(0.0, centre - half) * 100, 2), round(min(1.0, centre + half) * 100, 2))


def endpoint_host_of(base_url: str) -> str:
    """The host (and port, if any) of an endpoint's base URL: what a measurement may record.

    User names, passwords, paths and queries are dropped, because any of them may
    carry a key.
    """
    parts = urlsplit(base_url if "//" in base_url else f"//{base_url}")
    if not parts.hostname:
        raise BadRequest(f"endpoint {base_url!r} has no host; give a URL such as http://127.0.0.1:8000/v1")
    host = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname
    return f"{host}:{parts.port}" if parts.port is not None else host


class MeasurementError(ValueError):
    """A measurement document that does not follow the store's schema; ``path`` names the member."""

    def __init__(self, path: str, rule: str) -> None:
        super().__init__(f"{path}: {rule}")
        self.path = path
        self.rule = rule


@dataclass(frozen=True)
class FormatScore:
    """One format's result in one measurement: n tasks, how many were correct, tokens spent.

    Token totals are what the endpoint reported in its ``usage`` over the n
    requests; None when the endpoint reported none.
    """

    format_id: str
    protocol_id: str
    n: int
    correct: int
    prompt_tokens: int | None = None
    completion_tokens: int | None = None

    def __post_init__(self) -> None:
        _check_score(self, "$")

    @property
    def accuracy(self) -> float:
        """Percent correct, to two decimals."""
        return round(100 * self.correct / self.n, 2)

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% Wilson interval of the accuracy, in percent."""
        return wilson_interval(self.correct, self.n)

    def to_dict(self) -> dict[str, Any]:
        """The score as stored: the counts, the accuracy and interval derived from them, tokens."""
        return {
            "format_id": self.format_id,
            "protocol_id": self.protocol_id,
            "n": self.n,
            "correct": self.correct,
            "accuracy": self.accuracy,
            "interval": list(self.interval),
            "interval_kind": "wilson95",
            "prompt_tokens": self.prompt_tokens,
            "completion_tokens": self.completion_tokens,
        }


@dataclass(frozen=True)
class LocalMeasurement:
    """One finished measurement of one model: what was measured, where, when, and each format's score.

    ``endpoint_host`` is a host name or address with an optional port, never a URL
    with credentials or a key; ``date`` is an ISO 8601 UTC time (``...Z``);
    ``toolset_fingerprint`` is the tool set's summary fingerprint.
    """

    model: str
    endpoint_host: str
    date: str
    toolset_fingerprint: str
    rule: str
    seed: int | None
    formats: tuple[FormatScore, ...]
    n_tools: int | None = None
    tier: int | None = None
    job_id: str | None = None

    def __post_init__(self) -> None:
        _check_measurement(self)

    def best(self) -> FormatScore:
        """The format with the most correct answers (fewest prompt tokens, then listed order, on ties)."""
        return min(
            self.formats,
            key=lambda score: (-score.accuracy, score.prompt_tokens if score.prompt_tokens is not None else 0),
        )

    def to_dict(self) -> dict[str, Any]:
        """The measurement as written to its file."""
        return {
            "schema_version": SCHEMA_VERSION,
            "kind": MEASUREMENT_KIND,
            "model": self.model,
            "endpoint_host": self.endpoint_host,
            "date": self.date,
            "toolset_fingerprint": self.toolset_fingerprint,
            "rule": self.rule,
            "seed": self.seed,
            "n_tools": self.n_tools,
            "tier": self.tier,
            "job_id": self.job_id,
            "formats": [score.to_dict() for score in self.formats],
        }

    @classmethod
    def from_dict(cls, document: object) -> LocalMeasurement:
        """A measurement read back; every member checked, the derived figures against the counts.

        Raises MeasurementError naming the member (``$.formats[2].correct``) and the rule broken.
        """
        root = _object(document, "$")
        _expect(root, "$", "schema_version", SCHEMA_VERSION)
        _expect(root, "$", "kind", MEASUREMENT_KIND)
        raw_formats = root.get("formats")
        if not isinstance(raw_formats, list):
            raise MeasurementError("$.formats", "must be a list of format scores")
        scores = tuple(_score_from_dict(item, f"$.formats[{i}]") for i, item in enumerate(raw_formats))
        try:
            return cls(
                model=_string(root, "$", "model"),
                endpoint_host=_string(root, "$", "endpoint_host"),
                date=_string(root, "$", "date"),
                toolset_fingerprint=_string(root, "$", "toolset_fingerprint"),
                rule=_string(root, "$", "rule"),
                seed=_optional_int(root, "$", "seed"),
                formats=scores,
                n_tools=_optional_int(root, "$", "n_tools"),
                tier=_optional_int(root, "$", "tier"),
                job_id=_optional_string(root, "$", "job_id"),
            )
        except BadRequest as error:
            member, _, rule = error.detail.partition(": ")
            raise MeasurementError(member, rule) from error


@dataclass(frozen=True)
class StoredMeasurement:
    """A measurement as the store holds it: its file name (the ``local:<file>`` label) and sha256."""

    file: str
    sha256: str
    measurement: LocalMeasurement

    @property
    def source(self) -> str:
        """The source label every figure from this measurement carries."""
        return f"{LOCAL_PREFIX}{self.file}"

    def to_dict(self) -> dict[str, Any]:
        """The manifest-style entry with the measurement itself."""
        return {"file": self.file, "source": self.source, "sha256": self.sha256, **self.measurement.to_dict()}


@dataclass(frozen=True)
class StoreProblem:
    """A file of the store that is not served, and why."""

    file: str
    reason: str

    def __str__(self) -> str:
        return f"{self.file}: {self.reason}"


@dataclass(frozen=True)
class LocalStore:
    """What a store folder held when it was read: the measurements that passed, and the problems."""

    directory: Path
    chosen_by: str
    measurements: tuple[StoredMeasurement, ...]
    problems: tuple[StoreProblem, ...] = field(default=())

    @property
    def status(self) -> StoreStatus:
        """ok: measurements and no problems; empty: nothing stored; failed: some file is not served."""
        if self.problems:
            return "failed"
        return "ok" if self.measurements else "empty"

    @property
    def detail(self) -> str:
        """One sentence on the store, for /health, doctor and the evidence listing."""
        where = f"{self.directory} (chosen by {self.chosen_by})"
        if self.status == "empty":
            return f"no local measurements at {where}"
        served = f"{len(self.measurements)} local measurement(s) at {where}"
        if self.problems:
            listed = "; ".join(str(problem) for problem in self.problems)
            return f"{served}; not served: {listed}"
        return served

    def for_model(self, *names: str | None, rule: str | None = None) -> list[StoredMeasurement]:
        """The measurements of a model known by any of ``names`` (case-insensitive), newest first.

        With ``rule``, only those graded under it.
        """
        wanted = {name.casefold() for name in names if name}
        found = [
            stored
            for stored in self.measurements
            if stored.measurement.model.casefold() in wanted and (rule is None or stored.measurement.rule == rule)
        ]
        return sorted(found, key=lambda stored: (stored.measurement.date, stored.file), reverse=True)

    def get(self, file: str) -> StoredMeasurement | None:
        """The measurement stored under ``file``, if it was served."""
        return next((stored for stored in self.measurements if stored.file == file), None)

    def to_dict(self) -> dict[str, Any]:
        """The store's listing: where it is, each measurement's entry, and what is not served."""
        return {
            "directory": str(self.directory),
            "status": self.status,
            "detail": self.detail,
            "files": [
                {
                    "name": stored.file,
                    "source": stored.source,
                    "sha256": stored.sha256,
                    "model": stored.measurement.model,
                    "date": stored.measurement.date,
                    "rule": stored.measurement.rule,
                }
                for stored in self.measurements
            ],
            "problems": [{"file": problem.file, "reason": problem.reason} for problem in self.problems],
        }


def local_facts(store: LocalStore) -> list[dict[str, Any]]:
    """Each stored format score as a fact in the shape of the study's facts, labelled ``local:<file>``."""
    facts: list[dict[str, Any]] = []
    for stored in store.measurements:
        m = stored.measurement
        for score in m.formats:
            facts.append(
                {
                    "id": f"{stored.source}:{score.format_id}",
                    "value": score.accuracy,
                    "interval": list(score.interval),
                    "unit": "%",
                    "text": (
                        f"{m.model}: {score.format_id} with {score.protocol_id}, {score.correct} of {score.n} "
                        f"correct under the {m.rule} rule, measured {m.date} at {m.endpoint_host}"
                    ),
                    "source": stored.source,
                    "check": {"file": stored.file, "sha256": stored.sha256},
                }
            )
    return facts


def default_store_dir() -> Path:
    """``$XDG_DATA_HOME/toolform/evidence``, else ``~/.local/share/toolform/evidence``."""
    data_home = os.environ.get("XDG_DATA_HOME", "")
    base = Path(data_home).expanduser() if data_home else Path.home() / ".local" / "share"
    return base / "toolform" / "evidence"


def locate_store(override: str | os.PathLike[str] | None = None) -> tuple[Path, str]:
    """The store folder and what chose it: ``--evidence-dir``, else the environment, else the default."""
    if override is not None and str(override) != "":
        return Path(override).expanduser(), "--evidence-dir"
    from_env = os.environ.get(STORE_ENV_VAR, "")
    if from_env:
        return Path(from_env).expanduser(), STORE_ENV_VAR
    return default_store_dir(), "the default"


def write_measurement(directory: str | os.PathLike[str], measurement: LocalMeasurement) -> StoredMeasurement:
    """Write one finished measurement into the store at ``directory`` and list it in the manifest.

    The folder is created if needed. The file name is new (date, model, fingerprint,
    and a counter if that name is taken); an existing file is never overwritten.
    Entries of the manifest are kept as they were, even for files that are now damaged,
    so that the damage stays visible to readers.
    """
    folder = Path(directory)
    folder.mkdir(parents=True, exist_ok=True)
    content = _canonical(measurement.to_dict())
    digest = hashlib.sha256(content).hexdigest()
    with _locked(folder):
        manifest = _read_manifest_for_update(folder)
        taken = {entry["name"] for entry in manifest["files"]} | {p.name for p in folder.iterdir()}
        name = _new_name(measurement, taken)
        _atomic_write(folder / name, content)
        manifest["files"].append({"name": name, "sha256": digest, "bytes": len(content)})
        _atomic_write(folder / STORE_MANIFEST, _canonical(manifest))
    return StoredMeasurement(name, digest, measurement)


def open_store(directory: str | os.PathLike[str] | None = None, chosen_by: str | None = None) -> LocalStore:
    """Read the store (``directory``, else located as ``locate_store`` does), checking every file.

    Never raises for a damaged store: each file that is missing, fails its sha256,
    is not valid, or is not listed in the manifest becomes a problem and is not served.
    """
    if directory is None or str(directory) == "":
        folder, chooser = locate_store(None)
    else:
        folder, chooser = Path(directory).expanduser(), chosen_by or "--evidence-dir"
    manifest_path = folder / STORE_MANIFEST
    if not folder.is_dir():
        return LocalStore(folder, chooser, ())
    listed = sorted(p.name for p in folder.iterdir() if p.suffix == ".json" and p.name != STORE_MANIFEST)
    try:
        raw = manifest_path.read_bytes()
    except FileNotFoundError:
        unlisted = tuple(StoreProblem(name, "not listed in the store's manifest (no manifest.json)") for name in listed)
        return LocalStore(folder, chooser, (), unlisted)
    except OSError as error:
        return LocalStore(folder, chooser, (), (StoreProblem(STORE_MANIFEST, f"cannot be read: {error.strerror}"),))
    try:
        entries = _parse_manifest(raw)
    except MeasurementError as error:
        return LocalStore(folder, chooser, (), (StoreProblem(STORE_MANIFEST, str(error)),))
    measurements: list[StoredMeasurement] = []
    problems: list[StoreProblem] = []
    for name, sha256, size in entries:
        try:
            content = (folder / name).read_bytes()
        except FileNotFoundError:
            problems.append(StoreProblem(name, "missing, though the manifest lists it"))
            continue
        except OSError as error:
            problems.append(StoreProblem(name, f"cannot be read: {error.strerror}"))
            continue
        actual = hashlib.sha256(content).hexdigest()
        if actual != sha256 or len(content) != size:
            problems.append(
                StoreProblem(name, f"sha256 {actual} ({len(content)} bytes) differs from the manifest's {sha256} "
                             f"({size} bytes); the file was changed after it was written")
            )
            continue
        try:
            measurement = LocalMeasurement.from_dict(json.loads(content))
        except (UnicodeDecodeError, json.JSONDecodeError) as error:
            problems.append(StoreProblem(name, f"not JSON: {error}"))
            continue
        except MeasurementError as error:
            problems.append(StoreProblem(name, str(error)))
            continue
        measurements.append(StoredMeasurement(name, sha256, measurement))
    known = {name for name, _, _ in entries}
    problems.extend(
        StoreProblem(name, "not listed in the store's manifest; write measurements with write_measurement")
        for name in listed
        if name not in known
    )
    return LocalStore(folder, chooser, tuple(measurements), tuple(problems))


def utc_now() -> str:
    """The current UTC time as a measurement's ``date``."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


# --- validation -------------------------------------------------------------------


def _check_score(score: FormatScore, path: str) -> None:
    for name in ("format_id", "protocol_id"):
        value = getattr(score, name)
        if not isinstance(value, str) or not value:
            raise BadRequest(f"{path}.{name}: must be a non-empty string; give the registry's id")
    for name in ("n", "correct"):
        if not _is_int(getattr(score, name)):
            raise BadRequest(f"{path}.{name}: must be an integer")
    if score.n < 1:
        raise BadRequest(f"{path}.n: must be at least 1; a format with no tasks has no score")
    if not 0 <= score.correct <= score.n:
        raise BadRequest(f"{path}.correct: must be between 0 and n ({score.n}); got {score.correct}")
    for name in ("prompt_tokens", "completion_tokens"):
        value = getattr(score, name)
        if value is not None and (not _is_int(value) or value < 0):
            raise BadRequest(f"{path}.{name}: must be a non-negative integer or null (no usage reported)")


def _check_measurement(measurement: LocalMeasurement) -> None:
    if not isinstance(measurement.model, str) or not measurement.model.strip():
        raise BadRequest("$.model: must be the model's name as the endpoint serves it")
    host = measurement.endpoint_host
    if not isinstance(host, str) or not _HOST.match(host):
        raise BadRequest(
            f"$.endpoint_host: {host!r} is not a bare host[:port]; record endpoint_host_of(base_url), "
            "never a URL, user name or key"
        )
    try:
        parsed = datetime.strptime(measurement.date, "%Y-%m-%dT%H:%M:%SZ")
    except (TypeError, ValueError):
        raise BadRequest(f"$.date: {measurement.date!r} is not a UTC time like 2026-12-01T23:40:00Z") from None
    del parsed
    if not isinstance(measurement.toolset_fingerprint, str) or not measurement.toolset_fingerprint:
        raise BadRequest("$.toolset_fingerprint: must be the tool set's summary fingerprint")
    if measurement.rule not in _RULES:
        raise BadRequest(f"$.rule: {measurement.rule!r} is not a grading rule; use one of {', '.join(_RULES)}")
    if measurement.seed is not None and not _is_int(measurement.seed):
        raise BadRequest("$.seed: must be an integer or null")
    for name in ("n_tools", "tier"):
        value = getattr(measurement, name)
        if value is not None and (not _is_int(value) or value < 1):
            raise BadRequest(f"$.{name}: must be a positive integer or null")
    if not isinstance(measurement.formats, tuple) or not measurement.formats:
        raise BadRequest("$.formats: must hold at least one format's score (a tuple of FormatScore)")
    seen: set[tuple[str, str]] = set()
    for index, score in enumerate(measurement.formats):
        if not isinstance(score, FormatScore):
            raise BadRequest(f"$.formats[{index}]: must be a FormatScore")
        key = (score.format_id, score.protocol_id)
        if key in seen:
            raise BadRequest(f"$.formats[{index}]: {score.format_id}/{score.protocol_id} is listed twice")
        seen.add(key)


def _score_from_dict(item: object, path: str) -> FormatScore:
    raw = _object(item, path)
    try:
        score = FormatScore(
            format_id=_string(raw, path, "format_id"),
            protocol_id=_string(raw, path, "protocol_id"),
            n=_int(raw, path, "n"),
            correct=_int(raw, path, "correct"),
            prompt_tokens=_optional_int(raw, path, "prompt_tokens"),
            completion_tokens=_optional_int(raw, path, "completion_tokens"),
        )
    except BadRequest as error:
        member, _, rule = error.detail.partition(": ")
        raise MeasurementError(path + member[1:], rule) from error
    # The derived figures are written for readers of the file; they must agree with the counts.
    if raw.get("accuracy") != score.accuracy:
        raise MeasurementError(f"{path}.accuracy", f"must be {score.accuracy}, correct/n in percent")
    if raw.get("interval") != list(score.interval):
        raise MeasurementError(f"{path}.interval", f"must be {list(score.interval)}, the Wilson interval of the counts")
    return score


def _parse_manifest(raw: bytes) -> list[tuple[str, str, int]]:
    try:
        document = json.loads(raw)
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise MeasurementError("$", f"manifest is not JSON: {error}") from error
    root = _object(document, "$")
    _expect(root, "$", "kind", STORE_KIND)
    files = root.get("files")
    if not isinstance(files, list):
        raise MeasurementError("$.files", "must be a list of {name, sha256, bytes}")
    entries: list[tuple[str, str, int]] = []
    for index, item in enumerate(files):
        path = f"$.files[{index}]"
        entry = _object(item, path)
        name = _string(entry, path, "name")
        if not _FILE_NAME.match(name) or name == STORE_MANIFEST:
            raise MeasurementError(f"{path}.name", f"{name!r} is not a measurement file name in this folder")
        sha256 = _string(entry, path, "sha256")
        if not re.fullmatch(r"[0-9a-f]{64}", sha256):
            raise MeasurementError(f"{path}.sha256", "must be 64 lowercase hex digits")
        entries.append((name, sha256, _int(entry, path, "bytes")))
    return entries


def _read_manifest_for_update(folder: Path) -> dict[str, Any]:
    path = folder / STORE_MANIFEST
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return {"schema_version": SCHEMA_VERSION, "kind": STORE_KIND, "files": []}
    try:
        entries = _parse_manifest(raw)
    except MeasurementError as error:
        # Rewriting a manifest we cannot read would hide every earlier measurement's check.
        raise BadRequest(
            f"the evidence store's manifest {path} is damaged ({error}); move it aside and write again"
        ) from error
    return {
        "schema_version": SCHEMA_VERSION,
        "kind": STORE_KIND,
        "files": [{"name": name, "sha256": sha, "bytes": size} for name, sha, size in entries],
    }


def _new_name(measurement: LocalMeasurement, taken: set[str]) -> str:
    stamp = measurement.date.replace("-", "").replace(":", "")
    model = re.sub(r"[^a-z0-9]+", "-", measurement.model.casefold()).strip("-")[:48] or "model"
    fingerprint = re.sub(r"[^a-z0-9]+", "", measurement.toolset_fingerprint.casefold())[:12] or "tools"
    base = f"{stamp}-{model}-{fingerprint}"
    name, counter = f"{base}.json", 2
    while name in taken:
        name, counter = f"{base}-{counter}.json", counter + 1
    return name


@contextlib.contextmanager
def _locked(folder: Path) -> Iterator[None]:
    with open(folder / _LOCK_FILE, "a+b") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _atomic_write(path: Path, content: bytes) -> None:
    handle, temporary = tempfile.mkstemp(prefix=".tmp-", dir=path.parent)
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(content)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)
        raise


def _canonical(document: Mapping[str, Any]) -> bytes:
    return (json.dumps(document, indent=2, ensure_ascii=False, allow_nan=False) + "\n").encode()


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _object(value: object, path: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise MeasurementError(path, "must be an object")
    return value


def _expect(root: dict[str, Any], path: str, key: str, wanted: object) -> None:
    if root.get(key) != wanted:
        raise MeasurementError(f"{path}.{key}", f"must be {wanted!r}; got {root.get(key)!r}")


def _string(root: dict[str, Any], path: str, key: str) -> str:
    value = root.get(key)
    if not isinstance(value, str):
        raise MeasurementError(f"{path}.{key}", "must be a string")
    return value


def _optional_string(root: dict[str, Any], path: str, key: str) -> str | None:
    value = root.get(key)
    if value is not None and not isinstance(value, str):
        raise MeasurementError(f"{path}.{key}", "must be a string or null")
    return value


def _int(root: dict[str, Any], path: str, key: str) -> int:
    value = root.get(key)
    if not _is_int(value):
        raise MeasurementError(f"{path}.{key}", "must be an integer")
    assert isinstance(value, int)
    return value


def _optional_int(root: dict[str, Any], path: str, key: str) -> int | None:
    value = root.get(key)
    if value is not None and not _is_int(value):
        raise MeasurementError(f"{path}.{key}", "must be an integer or null")
    return value
