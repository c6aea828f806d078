"""The Study and Measure views in a real headless Chromium, at 420 and 1,600 pixels wide, offline.

Each test fails on a request to any host but the server, on a console error and on
an uncaught exception (browser.audited_page). Screenshots of each view at both
widths are written under toolform/tests/artefacts/ (gitignored), or under
TOOLFORM_DASHBOARD_ARTEFACTS, for a person to look at.
"""

from __future__ import annotations

import csv
import io
import json
import os
from pathlib import Path

import pytest
from playwright.sync_api import Browser, FilePayload, Page, expect

from support.browser import Audit, audited_page
from support.paths import TESTS
from support.serving import OUR_TOOLFORM, Server

ARTEFACTS = Path(os.environ.get("TOOLFORM_DASHBOARD_ARTEFACTS", TESTS / "artefacts" / "dashboard"))
WIDTHS = (420, 1600)
#: Long enough for a few requests on a busy machine; a test never times anything.
WAIT_MS = 60_000

EXAMPLES = [
    {"request": "Will it rain in Denver?", "calls": [{"name": "get_forecast", "arguments": {"city": "Denver"}}]},
    {"request": "Write a haiku about rain.", "calls": []},
    {"request": "Find coffee near the station.", "calls": [{"name": "search_maps", "arguments": {"query": "coffee"}}]},
]


def _open(page: Page, server: Server, width: int) -> None:
    page.set_viewport_size({"width": width, "height": 900})
    answer = page.goto(server.base_url + "/")
    assert answer is not None and answer.status == 200
    expect(page.locator("body")).to_have_attribute("data-ready", "true", timeout=WAIT_MS)


def _clean(audit: Audit) -> None:
    assert audit.outside == [], "the page sent requests beyond the server"
    assert audit.exceptions == []
    assert audit.console_errors == []


def _no_overflow(page: Page) -> None:
    """Nothing wider than the window: the page does not scroll sideways, and no panel sticks out."""
    widths = page.evaluate(
        """() => ({
            page: [document.documentElement.scrollWidth, document.documentElement.clientWidth],
            wide: [...document.querySelectorAll("main > section, main > section *")]
              .filter((node) => node.getBoundingClientRect().right > document.documentElement.clientWidth + 1
                && !node.closest('.scroll'))
              .map((node) => node.id || node.className || node.tagName).slice(0, 10),
        })"""
    )
    scroll, client = widths["page"]
    assert scroll <= client, f"the page is {scroll} px wide in a {client} px window: {widths['wide']}"
    assert widths["wide"] == []


def _shoot(page: Page, name: str, selector: str, width: int) -> None:
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    page.locator(selector).screenshot(path=str(ARTEFACTS / f"{name}-{width}.png"))


def _load_example_tools(page: Page) -> None:
    page.click("#tools-example")
    page.click("#tools-load")
    expect(page.locator("#tools-result .ok")).to_contain_text("Loaded 3 tools")


def js_number(value: float) -> str:
    """A number as JavaScript writes it: 896.0 is ``896``."""
    return str(int(value)) if float(value).is_integer() else str(value)


def _front(points: list[tuple[str, float, float]]) -> list[str]:
    """The formats no other beats on both: fewer or as many tokens and a higher accuracy."""
    kept, best = [], float("-inf")
    for format_id, _, accuracy in sorted(points, key=lambda p: (p[1], -p[2])):
        if accuracy > best:
            kept.append(format_id)
            best = accuracy
    return kept


@pytest.mark.parametrize("width", WIDTHS)
def test_the_study_draws_every_study_format_with_its_source(browser: Browser, server: Server, width: int) -> None:
    with audited_page(browser, server.base_url) as (page, audit):
        _open(page, server, width)
        formats = server.get("/api/v1/formats?in_study=true").json()["formats"]
        measured = [f for f in formats if f["measured"] is not None]
        assert len(measured) == 129
        points = page.locator("#study-chart svg.scatter g.format")
        expect(points).to_have_count(len(measured))
        assert sorted(points.evaluate_all("gs => gs.map((g) => g.dataset.format)")) == sorted(f["id"] for f in measured)
        # Every point sits where its figures say: its title names them and their source.
        titles = dict(
            points.evaluate_all("gs => gs.map((g) => [g.dataset.format, g.querySelector('title').textContent])")
        )
        for entry in measured:
            m = entry["measured"]
            assert titles[entry["id"]].startswith(f"{entry['id']} (")
            figures = f"{js_number(m['call_exact'])}% exact calls, {js_number(m['mean_schema_tokens'])} schema tokens"
            assert figures in titles[entry["id"]]
            assert m["source"] in titles[entry["id"]]
        front = _front([(f["id"], f["measured"]["mean_schema_tokens"], f["measured"]["call_exact"]) for f in measured])
        on_front = page.locator("#study-chart g.format.on-front")
        assert sorted(on_front.evaluate_all("gs => gs.map((g) => g.dataset.format)")) == sorted(front)
        expect(page.locator("#study-chart .front-list code")).to_have_text(front)
        families = sorted({f["family"] for f in measured})
        expect(page.locator("#study-chart ul.study-legend li[data-family]")).to_have_text(families)
        expect(page.locator("#study-chart .source-line .badge")).to_contain_text("export:format_leaderboard")

        core = server.get("/api/v1/evidence/core_main").json()
        rows = page.locator("#study-result table.core-table tbody tr")
        expect(rows).to_have_count(len(core["data"]["rows"]))
        expect(page.locator("#study-result .table-note .badge")).to_have_text(", ".join(core["source"]))
        for index, row in enumerate(core["data"]["rows"]):
            expect(rows.nth(index).locator("td").nth(1)).to_have_text(f"{js_number(row['main'])}%")
        facts = server.get("/api/v1/facts").json()["facts"]
        expect(page.locator("#study-result .facts-list li .source")).to_have_text([fact["source"] for fact in facts])
        zoo = server.get("/api/v1/evidence/zoo").json()
        expect(page.locator("#study-result details.zoo tbody tr")).to_have_count(len(zoo["data"]["models"]))

        # The loaded tools' cost, marked where their tokens in the core formats fall.
        expect(page.locator("#study-chart .yours-band")).to_have_count(0)
        _load_example_tools(page)
        expect(page.locator("#study-chart .yours-band")).to_have_count(1)
        tools = {"source": "openai", "payload": json.loads(page.input_value("#tools-text"))}
        core_ids = [f["id"] for f in server.get("/api/v1/formats?core=true").json()["formats"]]
        tokens = [row["tokens_estimate"] for row in server.post(
            "/api/v1/render/compare", {"tools": tools, "formats": core_ids}).json()["rows"]]
        expect(page.locator("#study-chart .source-line")).to_contain_text(
            f"your tools: {min(tokens)} to {max(tokens)} tokens (estimated by this server) in the 8 core formats"
        )
        _no_overflow(page)
        page.click("#study-result details.facts summary")
        _shoot(page, "study", "#study", width)
        _clean(audit)


@pytest.mark.parametrize("width", WIDTHS)
def test_every_panel_fits_the_window_with_no_console_error(browser: Browser, server: Server, width: int) -> None:
    with audited_page(browser, server.base_url) as (page, audit):
        _open(page, server, width)
        _load_example_tools(page)
        page.click("#compare-run")
        expect(page.locator("#compare-result svg.chart")).to_have_count(1)
        page.click("#parse-run")
        expect(page.locator("#parse-result .verdict")).to_have_text("accepted")
        page.click("#guard-run")
        expect(page.locator("#guard-result article.finding")).to_have_count(1)
        page.click("#catalogue-run")
        expect(page.locator("#catalogue-result ol.ranking li").first).to_be_visible()
        page.click("#recommend-run")
        expect(page.locator("#recommend-result .headline")).to_be_visible()
        _no_overflow(page)
        # Each label stands on the line of its control.
        for control in ("render-protocol", "parse-protocol", "parse-rule", "measure-rule", "recommend-rule"):
            label, box = page.locator(f"label[for={control}]"), page.locator(f"#{control}")
            label_box, control_box = label.bounding_box(), box.bounding_box()
            assert label_box is not None and control_box is not None
            assert abs((label_box["y"] + label_box["height"] / 2) - (control_box["y"] + control_box["height"] / 2)) < 8
        page.screenshot(path=str(_artefact(f"page-{width}.png")), full_page=True)
        _clean(audit)


def _artefact(name: str) -> Path:
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    return ARTEFACTS / name


def test_the_parse_table_words_a_read_but_invalid_call_honestly(browser: Browser, server: Server) -> None:
    with audited_page(browser, server.base_url) as (page, audit):
        _open(page, server, 1100)
        _load_example_tools(page)
        page.select_option("#parse-protocol", "xml_call")
        page.fill(
            "#parse-text",
            '<function_calls>\n  <invoke name="get_forecast">\n    <parameter name="city">Denver</parameter>\n'
            '    <parameter name="days">twelve</parameter>\n  </invoke>\n</function_calls>',
        )
        page.click("#parse-run")
        answer = server.post("/api/v1/parse", {
            "tools": {"source": "openai", "payload": json.loads(page.input_value("#tools-text"))},
            "text": page.input_value("#parse-text"), "protocol": "xml_call", "rule": "main",
        }).json()
        call = answer["calls"][0]
        assert (call["accepted"], call["valid"], answer["ok"]) == (True, False, False)
        expect(page.locator("#parse-result .verdict")).to_have_text("rejected")
        expect(page.locator("#parse-result tbody td").nth(1)).to_have_text("syntax read, arguments invalid")
        expect(page.locator("#parse-result p").first).not_to_contain_text("·")
        _clean(audit)


def test_the_recommendation_describes_the_loaded_tools(browser: Browser, server: Server) -> None:
    with audited_page(browser, server.base_url) as (page, audit):
        _open(page, server, 1100)
        _load_example_tools(page)
        tools = {"source": "openai", "payload": json.loads(page.input_value("#tools-text"))}
        summary = server.post("/api/v1/tools/load", {"tools": tools}).json()["summary"]
        page.click("#recommend-run")
        expect(page.locator("#recommend-result .situation")).to_have_text(
            f"For Qwen/Qwen3-8B at {summary['n_tools']} tools, tier {summary['tier_estimate']}, objective accuracy, "
            "rule main."
        )
        _clean(audit)


@pytest.mark.parametrize("width", WIDTHS)
def test_a_measurement_of_pasted_examples_shows_its_eta_records_and_report(
    browser: Browser, server: Server, width: int
) -> None:
    with audited_page(browser, server.base_url) as (page, audit):
        _open(page, server, width)
        expect(page.locator("#measure-start")).to_be_enabled()
        expect(page.locator("#measure-endpoint")).to_be_hidden()
        _load_example_tools(page)
        boxes = page.locator("#measure-formats-boxes input[type=checkbox]")
        expect(boxes).to_have_count(8)
        for box in boxes.all():
            if box.get_attribute("value") not in ("xml_schema", "json_minimal"):
                box.uncheck()
        page.fill("#measure-more-formats", "names_only")
        page.fill("#measure-examples", "\n".join(json.dumps(example) for example in EXAMPLES * 3))
        page.fill("#measure-concurrency", "1")
        page.select_option("#measure-rule", "main")
        # What the progress line said each time records were added to the page.
        page.evaluate(
            """() => { window.stateAtRecords = [];
                new MutationObserver(() => window.stateAtRecords.push(
                  document.getElementById('measure-state').textContent)
                ).observe(document.getElementById('measure-records'), { childList: true, subtree: true }); }"""
        )
        page.click("#measure-start")
        # While it runs: the time left, and the requests graded so far, each with its reason.
        state = page.locator("#measure-state")
        expect(state).to_contain_text("left", timeout=WAIT_MS)
        expect(state).to_contain_text("running: ")
        rows = page.locator("#measure-records table.records tbody tr")
        expect(rows.first).to_be_visible(timeout=WAIT_MS)
        expect(state).to_have_text("done: 27 of 27 requests", timeout=WAIT_MS)
        seen = page.evaluate("window.stateAtRecords")
        assert any(text.startswith("running: ") and "left" in text for text in seen), seen
        expect(rows).to_have_count(27)
        job_id = page.inner_text("#measure-result .job-id")
        job = server.get(f"/api/v1/ab-test/{job_id}?records=true").json()
        result = job["result"]
        assert (result["source"], result["rule"], result["n_requests"]) == ("examples", "main", 9)
        assert sorted(score["format_id"] for score in result["scores"]) == ["json_minimal", "names_only", "xml_schema"]
        graded = server.get(f"/api/v1/ab-test/{job_id}/records").json()["records"]
        expect(rows.locator("td.why")).to_have_text([record["reason"] for record in graded])
        expect(rows.locator("td").nth(2)).to_have_text(graded[0]["request"])
        assert {record["reason"] for record in graded} >= {
            "no call expected and none made", "no call read in xml_call's syntax; expected get_forecast"
        }

        # The report downloads as JSON (the job with every record) and as CSV (one row a request).
        with page.expect_download() as caught:
            page.click("#measure-result a.download-json")
        downloaded = json.loads(Path(caught.value.path()).read_text())
        assert downloaded == job
        with page.expect_download() as caught:
            page.click("#measure-result a.download-csv")
        table = list(csv.reader(io.StringIO(Path(caught.value.path()).read_text())))
        assert len(table) == 28 and table[0][:3] == ["format_id", "protocol_id", "instance_id"]
        assert [row[3] for row in table[1:]] == [record["request"] for record in graded]

        # The history lists it, from the job store, with the local evidence store's file.
        expect(page.locator(f"#measure-history tr[data-job='{job_id}']")).to_contain_text("done, 27 of 27")
        expect(page.locator("#measure-history ul.stored .source").first).to_contain_text("local:")
        _no_overflow(page)
        _shoot(page, "measure", "#measure", width)
        _clean(audit)


def test_examples_load_from_a_file_and_a_mistake_is_named_by_line(browser: Browser, server: Server) -> None:
    with audited_page(browser, server.base_url) as (page, audit):
        _open(page, server, 1100)
        text = json.dumps(EXAMPLES[0]) + "\n{not json\n"
        page.set_input_files(
            "#measure-examples-file",
            files=[FilePayload(name="examples.jsonl", mimeType="application/json", buffer=text.encode())],
        )
        expect(page.locator("#measure-examples")).to_have_value(text)
        _load_example_tools(page)
        page.click("#measure-start")
        detail = page.locator("#measure-result .error .error-detail")
        expect(detail).to_contain_text("line 2 of the examples is not JSON")
        _clean(audit)


@pytest.mark.parametrize("width", WIDTHS)
def test_without_an_endpoint_start_is_disabled_with_the_reason(browser: Browser, width: int) -> None:
    with Server(OUR_TOOLFORM) as bare, audited_page(browser, bare.base_url) as (page, audit):
        _open(page, bare, width)
        expect(page.locator("#measure-endpoint")).to_be_visible()
        expect(page.locator("#measure-endpoint")).to_have_text(
            "Start is disabled: this server has no model endpoint. Start it with --endpoint URL --endpoint-model ID "
            "to measure."
        )
        expect(page.locator("#measure-start")).to_be_disabled()
        _no_overflow(page)
        _shoot(page, "measure-no-endpoint", "#measure", width)
        _clean(audit)


@pytest.mark.parametrize("width", WIDTHS)
def test_redoc_works_offline_with_no_console_error(browser: Browser, server: Server, width: int) -> None:
    with audited_page(browser, server.base_url) as (page, audit):
        page.set_viewport_size({"width": width, "height": 900})
        page.goto(server.base_url + "/redoc")
        expect(page.get_by_text("API docs by Redocly")).to_be_attached(timeout=WAIT_MS)
        expect(page.locator("img[alt='redocly logo']")).to_have_attribute("src", "/docs-assets/redoc-logo.svg")
        page.screenshot(path=str(_artefact(f"redoc-{width}.png")))
        _clean(audit)


def test_a_job_running_when_the_page_opens_is_followed(browser: Browser, server: Server) -> None:
    started = server.post("/api/v1/ab-test", {"n_requests": 200, "concurrency": 1, "formats": ["xml_schema"]})
    assert started.status == 202, started.body
    job_id = started.json()["job_id"]
    with audited_page(browser, server.base_url) as (page, audit):
        _open(page, server, 1100)
        expect(page.locator("#measure-state")).to_contain_text("running: ", timeout=WAIT_MS)
        expect(page.locator("#measure-start")).to_be_disabled()
        expect(page.locator("#measure-records table.records tbody tr").first).to_be_visible(timeout=WAIT_MS)
        page.click("#measure-cancel")
        expect(page.locator("#measure-state")).to_contain_text("cancelled:", timeout=WAIT_MS)
        expect(page.locator("#measure-start")).to_be_enabled()
        assert server.get(f"/api/v1/ab-test/{job_id}").json()["status"] == "cancelled"
        _clean(audit)
