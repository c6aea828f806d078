"""The `toolform` command's verbs, run as a person runs them."""

from __future__ import annotations

import json
import platform
import subprocess
from pathlib import Path

from support.cli import toolform
from support.evidence_files import evidence_json
from support.evidence_sets import copy_evidence
from support.serving import OUR_TOOLFORM
from toolform import __version__


def test_version() -> None:
    done = toolform("version")
    assert done.returncode == 0
    assert done.stdout.strip() == f"toolform {__version__}, evidence 2026-09-25.3, Python {platform.python_version()}"
    assert json.loads(toolform("version", "--json").stdout) == {
        "framework": __version__, "evidence": "2026-09-25.3", "python": platform.python_version()
    }


def test_doctor_passes_on_the_fetched_evidence() -> None:
    done = toolform("doctor", "--json")
    assert done.returncode == 0, done.stdout
    report = json.loads(done.stdout)
    assert report["ok"] is True
    checks = {check["name"]: check for check in report["checks"]}
    assert checks["evidence"]["status"] == "ok"
    assert "2026-09-25.3" in checks["evidence"]["detail"] and "19 files match" in checks["evidence"]["detail"]
    assert checks["formats"]["detail"] == "133 registered (129 in the study)"
    assert checks["protocols"]["detail"] == "31 registered"
    assert "all checks passed" in toolform("doctor").stdout


def test_doctor_names_each_file_that_fails_its_check(tmp_path: Path) -> None:
    folder = copy_evidence(tmp_path)
    (folder / "tiers.json").write_text("{}")
    (folder / "cost.json").unlink()
    done = toolform("doctor", "--study-dir", str(folder))
    assert done.returncode == 1
    assert "fail evidence file tiers.json" in done.stdout and "sha256" not in done.stdout.split("tiers.json")[0]
    assert "fail evidence file cost.json missing" in " ".join(done.stdout.split())
    assert "versions     toolform" in done.stdout and "evidence 2026-09-25.3" in done.stdout


def test_doctor_on_missing_evidence_is_a_clear_failure(tmp_path: Path) -> None:
    done = toolform("doctor", env={"TOOLFORM_STUDY_DIR": str(tmp_path)})
    assert done.returncode == 1
    assert "no study evidence at" in done.stdout and "make toolform-evidence" in done.stdout
    assert "Traceback" not in done.stdout + done.stderr


def test_evidence_lists_facts_files_and_one_fact() -> None:
    facts = toolform("evidence")
    assert facts.returncode == 0 and "measure_eight" in facts.stdout and "paper:tab_selection" in facts.stdout
    listing = toolform("evidence", "--list")
    assert "zoo" in listing.stdout and "21,119" in listing.stdout and "configs:models" in listing.stdout
    fact = toolform("evidence", "--fact", "measure_eight")
    expected = "measure_eight: 69.18%  measure eight formats on the target model  (paper:tab_selection)"
    assert fact.stdout.strip() == expected
    assert json.loads(toolform("evidence", "zoo", "--json").stdout) == evidence_json("zoo")
    table = toolform("evidence", "zoo")
    assert table.returncode == 0 and "zoo.models" in table.stdout and "arc/GLM-5.3" in table.stdout


def test_evidence_errors_exit_3_with_one_line() -> None:
    unknown = toolform("evidence", "nope")
    assert unknown.returncode == 3
    assert unknown.stderr.startswith("error: no evidence file 'nope'; known: manifest, facts")
    assert toolform("evidence", "--fact", "nope").stderr.startswith("error: no fact 'nope'")


def test_evidence_without_evidence_says_how_to_fetch_it(tmp_path: Path) -> None:
    done = toolform("evidence", "--study-dir", str(tmp_path))
    assert done.returncode == 3 and "make toolform-evidence" in done.stderr


def test_serve_rejects_a_port_out_of_range() -> None:
    done = toolform("serve", "--port", "70000")
    assert done.returncode == 2 and "70000 is not a port" in done.stderr


def test_convert_reads_a_missing_file_as_an_error() -> None:
    done = toolform("convert", "no-such-file.json", "--to", "mcp")
    assert done.returncode == 3 and done.stderr.strip() == "error: no such file (no-such-file.json)"


def test_convert_refuses_a_json_file_that_is_not_json_with_its_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('[{"a": 1,\n  oops]')
    for source in ("openai", "auto"):
        done = toolform("convert", str(bad), "--from", source, "--to", "mcp")
        assert done.returncode == 3
        assert done.stderr.strip() == (
            f"error: the file is not valid JSON: Expecting property name enclosed in double quotes ({bad}, line 2)"
        )


def _write_tools(tmp_path: Path) -> Path:
    tools = [{"type": "function", "function": {"name": "a", "description": "Do a.", "parameters": {
        "type": "object", "properties": {"x": {"type": "strin"}, "n": {"type": "integer"}}, "required": ["n"]}}}]
    path = tmp_path / "tools.json"
    path.write_text(json.dumps(tools))
    return path


def test_convert_writes_the_shape_and_warns_on_stderr(tmp_path: Path) -> None:
    done = toolform("convert", str(_write_tools(tmp_path)), "--to", "mcp")
    assert done.returncode == 0, done.stderr
    written = json.loads(done.stdout)
    assert [tool["name"] for tool in written["tools"]] == ["a"]
    assert written["tools"][0]["inputSchema"]["required"] == ["n"]
    assert "warning: tool 'a' at $.x: unknown JSON Schema type 'strin', read as any value" in done.stderr


def test_convert_out_and_stdin_agree(tmp_path: Path) -> None:
    source = _write_tools(tmp_path)
    out = tmp_path / "out.json"
    assert toolform("convert", str(source), "--to", "anthropic", "--out", str(out)).returncode == 0
    piped = subprocess.run([str(OUR_TOOLFORM), "convert", "-", "--to", "anthropic"], input=source.read_text(),
                           capture_output=True, text=True, timeout=60, check=False)
    assert piped.returncode == 0, piped.stderr
    assert json.loads(out.read_text()) == json.loads(piped.stdout)
    assert json.loads(piped.stdout)[0]["input_schema"]["properties"]["n"] == {"type": "integer"}


def test_convert_reads_typescript_and_python_files_by_their_suffix(tmp_path: Path) -> None:
    ts = tmp_path / "tools.ts"
    ts.write_text("/** Read a file. */\nexport declare function read_file(path: string): void;\n")
    assert json.loads(toolform("convert", str(ts), "--to", "mcp").stdout)["tools"][0]["name"] == "read_file"
    py = tmp_path / "tools.py"
    py.write_text('def get_x(city: str, days: int = 1) -> str:\n    """Get x."""\n    return city\n')
    done = toolform("convert", str(py), "--to", "ir", "--trust-code")
    assert done.returncode == 0, done.stderr
    (tool,) = json.loads(done.stdout)["tools"]
    assert tool["name"] == "get_x" and [p["name"] for p in tool["params"]] == ["city", "days"]
