"""``toolform serve``: the HTTP API on loopback (127.0.0.1:8765 by default)."""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace
from typing import Any

from toolform.evidence import open_evidence
from toolform.limits import Limits

DEFAULT_LIMITS = Limits()


def port_number(text: str) -> int:
    value = int(text)
    if not 1 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"{value} is not a port; use 1 to 65535")
    return value


def positive_seconds(text: str) -> float:
    value = float(text)
    if not 0 < value < 1e6:
        raise argparse.ArgumentTypeError(f"{text} is not a number of seconds above 0")
    return value


def positive_int(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text} is not a whole number above 0")
    return value


def add_parser(verbs: Any) -> None:
    parser = verbs.add_parser("serve", help="start the HTTP API")
    parser.add_argument("--host", default="127.0.0.1", help="the address to bind (default 127.0.0.1)")
    parser.add_argument("--port", type=port_number, default=8765, help="the port (default 8765)")
    parser.add_argument("--endpoint", help="OpenAI-compatible base URL for ab-test")
    parser.add_argument("--endpoint-model", help="the model that endpoint serves")
    parser.add_argument("--endpoint-key-env", default="OPENAI_API_KEY", help="the variable holding that endpoint's key")
    parser.add_argument(
        "--allow-client-endpoints", action="store_true", help="let a request name its own base_url (off by default)"
    )
    parser.add_argument(
        "--client-key-env",
        action="append",
        default=[],
        metavar="NAME",
        help="a variable a request with its own base_url may name as that endpoint's key (api_key_env); repeat "
        "for more. Without it such a request is sent no key: the operator's key goes only to --endpoint",
    )
    parser.add_argument(
        "--endpoint-attempt-timeout",
        type=positive_seconds,
        default=120.0,
        metavar="SECONDS",
        help="the most one attempt at the endpoint may take, connection to last byte (default 120)",
    )
    parser.add_argument(
        "--endpoint-request-deadline",
        type=positive_seconds,
        default=300.0,
        metavar="SECONDS",
        help="the most one request to the endpoint may take over its retries (default 300)",
    )
    parser.add_argument(
        "--endpoint-max-reply-bytes",
        type=positive_int,
        default=4_000_000,
        metavar="BYTES",
        help="the most bytes one completion may hold; a larger one fails its request (default 4000000)",
    )
    parser.add_argument(
        "--max-finished-jobs",
        type=positive_int,
        default=64,
        metavar="N",
        help="finished ab-test jobs kept in memory; the oldest beyond it are dropped (default 64)",
    )
    parser.add_argument(
        "--request-read-timeout",
        type=positive_seconds,
        default=30.0,
        metavar="SECONDS",
        help="the most a client may take to send a request, head and body; slower ones are cut off (default 30)",
    )
    parser.add_argument(
        "--parse-timeout",
        type=positive_seconds,
        default=30.0,
        metavar="SECONDS",
        help="the most one request's parsing may take in a worker process (a body over 32 KB); past it the worker "
        "is killed and replaced and the request is 413 (default 30)",
    )
    parser.add_argument(
        "--max-schema-nodes",
        type=positive_int,
        default=DEFAULT_LIMITS.max_schema_nodes,
        metavar="N",
        help="the most schema nodes one request's tools may expand to ($ref and alias expansion included); "
        f"more is 413 (default {DEFAULT_LIMITS.max_schema_nodes})",
    )
    parser.add_argument(
        "--max-rendered-chars",
        type=positive_int,
        default=DEFAULT_LIMITS.max_rendered_chars,
        metavar="N",
        help="the most characters one rendered tool block or prompt may have, on every route that renders; "
        "more is 413 "
        f"(default {DEFAULT_LIMITS.max_rendered_chars})",
    )
    parser.add_argument("--cors", action="append", default=[], help="an allowed browser origin; repeat for more")
    parser.add_argument(
        "--allowed-host",
        action="append",
        default=[],
        help="a host name the server answers to besides localhost, 127.0.0.1, ::1 and its bound address "
        "(a proxy's name, say); repeat for more; * turns the check off; TOOLFORM_ALLOWED_HOSTS adds more",
    )
    parser.add_argument(
        "--study-dir", help="read the study's evidence from this folder (default: TOOLFORM_STUDY_DIR, "
        "else the package's)"
    )
    parser.add_argument(
        "--evidence-dir", help="the local evidence store measurements are written to and recommend reads "
        "(default: TOOLFORM_EVIDENCE_DIR, else ~/.local/share/toolform/evidence)"
    )
    parser.add_argument("--reload", action="store_true", help="restart on code changes (development)")
    parser.add_argument(
        "--json", action="store_true", help="print the settings as JSON instead of the banner, then serve"
    )
    parser.set_defaults(run=run)


def run(arguments: argparse.Namespace) -> int:
    # The server's stack (FastAPI, uvicorn) loads only for this verb: the others start faster.
    from toolform.server.run import serve
    from toolform.server.settings import Settings, with_environment

    settings = with_environment(
        Settings(
            host=arguments.host,
            port=arguments.port,
            endpoint=arguments.endpoint,
            endpoint_model=arguments.endpoint_model,
            endpoint_api_key_env=arguments.endpoint_key_env,
            allow_client_endpoints=arguments.allow_client_endpoints,
            client_key_envs=tuple(arguments.client_key_env),
            endpoint_attempt_timeout_s=arguments.endpoint_attempt_timeout,
            endpoint_request_deadline_s=arguments.endpoint_request_deadline,
            endpoint_max_reply_bytes=arguments.endpoint_max_reply_bytes,
            max_finished_jobs=arguments.max_finished_jobs,
            request_read_timeout_s=arguments.request_read_timeout,
            parse_timeout_s=arguments.parse_timeout,
            limits=replace(
                DEFAULT_LIMITS,
                max_schema_nodes=arguments.max_schema_nodes,
                max_rendered_chars=arguments.max_rendered_chars,
            ),
            cors_origins=tuple(arguments.cors),
            allowed_hosts=tuple(arguments.allowed_host),
            study_dir=arguments.study_dir,
            evidence_dir=arguments.evidence_dir,
            debug=arguments.debug,
        )
    )
    shown_host = f"[{settings.host}]" if ":" in settings.host else settings.host
    url = f"http://{shown_host}:{settings.port}"
    evidence = open_evidence(settings.study_dir)
    if arguments.json:
        print(
            json.dumps(
                {
                    "url": url,
                    "dashboard": f"{url}/",
                    "docs": f"{url}/docs",
                    "openapi": f"{url}/openapi.json",
                    "settings": settings.to_dict(),
                    "evidence": {"status": evidence.status, "version": evidence.version, "detail": evidence.detail},
                },
                indent=2,
            ),
            flush=True,
        )
    else:
        print(f"ToolForm on {url}: the dashboard at {url}/ in a browser, the API under /api/v1 "
              "(docs at /docs and /redoc, OpenAPI at /openapi.json)", file=sys.stderr)
        if evidence.status != "ok":
            print(f"warning: {evidence.detail}; the evidence routes answer 503", file=sys.stderr)
    serve(settings, reload=arguments.reload)
    return 0
