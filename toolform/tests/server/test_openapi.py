"""/openapi.json: valid OpenAPI, titled, every request body with a worked example that fits its schema,
and schemathesis's generated requests never meet a 5xx or an undocumented answer."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from openapi_schema_validator import OAS31Validator
from openapi_schema_validator import validate as validate_instance
from openapi_spec_validator import validate

from support.serving import Server
from toolform import __version__

ROUTES = {
    ("get", "/api/v1/health"), ("get", "/api/v1/version"), ("get", "/api/v1/formats"),
    ("get", "/api/v1/formats/{format_id}"), ("get", "/api/v1/protocols"), ("get", "/api/v1/models"),
    ("post", "/api/v1/tools/load"), ("post", "/api/v1/tools/export"), ("get", "/api/v1/evidence"),
    ("get", "/api/v1/evidence/{name}"), ("get", "/api/v1/facts"), ("post", "/api/v1/guard"),
    ("post", "/api/v1/render"), ("post", "/api/v1/render/compare"),
    ("post", "/api/v1/parse"),
    ("post", "/api/v1/recommend"),
    ("post", "/api/v1/ab-test"), ("get", "/api/v1/ab-test/{job_id}"), ("delete", "/api/v1/ab-test/{job_id}"),
    ("get", "/api/v1/ab-test"), ("get", "/api/v1/ab-test/{job_id}/records"), ("get", "/api/v1/ab-test/{job_id}/report"),
    ("post", "/api/v1/catalogue/plan"), ("post", "/api/v1/catalogue/retrieve"),
    ("post", "/api/v1/catalogue/two-stage/prompt"),
}
SCHEMATHESIS_EXAMPLES = int(os.environ.get("TOOLFORM_SCHEMATHESIS_EXAMPLES", "25"))


@pytest.fixture(scope="module")
def document(ours: Server) -> dict[str, Any]:
    reply = ours.get("/openapi.json")
    assert reply.status == 200
    spec: dict[str, Any] = reply.json()
    return spec


def _operations(document: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, Any]]]:
    for path, item in document["paths"].items():
        for method, operation in item.items():
            yield method, path, operation


def test_the_document_is_valid_openapi(document: dict[str, Any]) -> None:
    validate(document)
    assert document["openapi"].startswith("3.1")


def test_the_title_and_version(document: dict[str, Any]) -> None:
    assert document["info"]["title"] == "ToolForm API"
    assert document["info"]["version"] == __version__


def test_it_documents_every_route_of_these_groups(document: dict[str, Any]) -> None:
    assert {(method, path) for method, path, _ in _operations(document)} == ROUTES


def test_every_request_body_has_a_worked_example_that_fits_its_schema(document: dict[str, Any]) -> None:
    bodies = 0
    for method, path, operation in _operations(document):
        if "requestBody" not in operation:
            continue
        bodies += 1
        schema = operation["requestBody"]["content"]["application/json"]["schema"]
        name = schema["$ref"].rsplit("/", 1)[1]
        examples = document["components"]["schemas"][name].get("examples", [])
        assert examples, f"{method} {path}: no example"
        rooted = {"$ref": schema["$ref"], "components": document["components"]}
        for example in examples:
            validate_instance(example, rooted, cls=OAS31Validator)
    assert bodies == sum(1 for method, _ in ROUTES if method == "post")


def test_every_operation_documents_the_error_statuses(document: dict[str, Any]) -> None:
    for method, path, operation in _operations(document):
        statuses = set(operation["responses"])
        # Starting a measurement answers 202 (the job is queued), every other route 200.
        success = "202" if (method, path) == ("post", "/api/v1/ab-test") else "200"
        assert {success, "400", "413", "421", "422", "500"} <= statuses, f"{method} {path}"
        error = operation["responses"]["421"]["content"]["application/json"]["schema"]
        assert error == {"$ref": "#/components/schemas/ErrorBody"}


def test_schemathesis_finds_no_server_error_and_no_undocumented_answer(ours: Server, tmp_path: Path) -> None:
    schemathesis = Path(sys.executable).parent / "schemathesis"
    command = [
        str(schemathesis), "run", f"{ours.base_url}/openapi.json",
        "--checks", "not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance",
        "--max-examples", str(SCHEMATHESIS_EXAMPLES), "--seed", "20261201", "--workers", "1",
        "--phases", "examples,coverage,fuzzing", "--request-timeout", "30", "--no-color",
    ]
    done = subprocess.run(command, capture_output=True, text=True, cwd=tmp_path, timeout=300, check=False)
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-2000:]
