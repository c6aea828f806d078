"""The server's settings: one object, built from `toolform serve`'s flags and the environment."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields, replace
from typing import Any

from toolform.environment import env_flag, env_list
from toolform.limits import Limits

#: Host names every server answers to, besides its bound address and the allowed hosts.
LOOPBACK_HOSTS: tuple[str, ...] = ("localhost", "127.0.0.1", "::1")
#: ``*`` in the allowed hosts turns the Host check off (behind a proxy that checks it).
ANY_HOST = "*"


@dataclass(frozen=True)
class Settings:
    """Everything `toolform serve` is configured with."""

    host: str = "127.0.0.1"
    port: int = 8765
    endpoint: str | None = None
    endpoint_model: str | None = None
    endpoint_api_key_env: str = "OPENAI_API_KEY"
    allow_client_endpoints: bool = False
    #: Variables a request with its own base_url may name as its key (never the operator's by default).
    client_key_envs: tuple[str, ...] = ()
    #: Seconds one attempt at the endpoint may take, connection to last byte.
    endpoint_attempt_timeout_s: float = 120.0
    #: Seconds one request to the endpoint may take over all its attempts.
    endpoint_request_deadline_s: float = 300.0
    #: The most bytes one completion may hold.
    endpoint_max_reply_bytes: int = 4_000_000
    #: Seconds a client has to send a request's head and body once it starts one (slow clients are cut off).
    request_read_timeout_s: float = 30.0
    #: Seconds parsing one request may take in a worker process; past it the worker is killed (413).
    parse_timeout_s: float = 30.0
    #: Finished measurement jobs kept in memory; the oldest beyond it are dropped.
    max_finished_jobs: int = 64
    cors_origins: tuple[str, ...] = ()
    allowed_hosts: tuple[str, ...] = ()
    #: The study's evidence folder (None: TOOLFORM_STUDY_DIR, else the package's).
    study_dir: str | None = None
    #: The local evidence store (None: TOOLFORM_EVIDENCE_DIR, else the XDG data folder).
    evidence_dir: str | None = None
    debug: bool = False
    limits: Limits = field(default_factory=Limits)

    @property
    def host_check_enabled(self) -> bool:
        return ANY_HOST not in self.allowed_hosts

    def answered_hosts(self) -> frozenset[str]:
        """Host names (lowercase, no port) the Host check lets through."""
        names = {*LOOPBACK_HOSTS, self.host, *self.allowed_hosts}
        return frozenset(name.lower().strip("[]") for name in names)

    def to_dict(self) -> dict[str, object]:
        """The settings as `serve --json` prints them: limits flattened, never a key's value."""
        flat = asdict(self)
        limits = flat.pop("limits")
        flat["cors_origins"] = list(self.cors_origins)
        flat["allowed_hosts"] = list(self.allowed_hosts)
        flat["client_key_envs"] = list(self.client_key_envs)
        return {**flat, **limits}

    @classmethod
    def from_dict(cls, flat: dict[str, Any]) -> Settings:
        """The settings ``to_dict`` printed, read back."""
        limit_names = {f.name for f in fields(Limits)}
        limits = Limits(**{k: v for k, v in flat.items() if k in limit_names})
        rest = {k: v for k, v in flat.items() if k not in limit_names}
        rest["cors_origins"] = tuple(rest.get("cors_origins", ()))
        rest["allowed_hosts"] = tuple(rest.get("allowed_hosts", ()))
        rest["client_key_envs"] = tuple(rest.get("client_key_envs", ()))
        return cls(limits=limits, **rest)


def with_environment(settings: Settings) -> Settings:
    """``settings`` with TOOLFORM_ALLOWED_HOSTS (comma-separated) before the --allowed-host names, and TOOLFORM_DEBUG.

    The order is the reference's: the environment's names first, then the flags', without repeats.
    """
    hosts = tuple(dict.fromkeys([*env_list("TOOLFORM_ALLOWED_HOSTS"), *settings.allowed_hosts]))
    return replace(settings, allowed_hosts=hosts, debug=settings.debug or env_flag("TOOLFORM_DEBUG"))
