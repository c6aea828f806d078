"""The request and response bodies of the API, as pydantic models: every route's, here and nowhere else.

Requests are validated by these models (unknown members refused, ``RequestBody``); a
request's text members are checked against the size limits by its ``check_limits``
before its tools are read. Responses are the SDK objects' ``to_dict()``; their models
here document them in /openapi.json and keep the members they list, allowing more
(``ResponseBody``). One module per tag of the API; ``common`` holds the tools object,
the bases and the error shape.
"""

from __future__ import annotations

from toolform.server.schemas.advisor import (
    RecommendationBody,
    RecommendRequest,
    SituationBody,
)
from toolform.server.schemas.catalogue import (
    CataloguePlanModel,
    CataloguePlanRequest,
    FigureModel,
    RetrievalModel,
    RetrieveRequest,
    TwoStagePromptRequest,
    TwoStagePromptResponse,
)
from toolform.server.schemas.common import (
    TOOLS_EXAMPLE,
    ErrorBody,
    RequestBody,
    ResponseBody,
    ToolsInput,
)
from toolform.server.schemas.guard import (
    GUARD_EXAMPLE,
    GuardReportModel,
    GuardRequest,
)
from toolform.server.schemas.measure import (
    AB_TEST_EXAMPLE,
    AbTestJob,
    AbTestJobs,
    AbTestJobSummary,
    AbTestRecords,
    AbTestRequest,
    AbTestStarted,
)
from toolform.server.schemas.meta import (
    EvidenceState,
    FactsResponse,
    HealthResponse,
    IndexResponse,
    VersionResponse,
)
from toolform.server.schemas.parse import (
    PARSE_EXAMPLE,
    ParsedReplyBody,
    ParseRequest,
)
from toolform.server.schemas.registry import (
    FormatDetail,
    FormatSample,
    FormatsResponse,
    ModelsResponse,
    ProtocolsResponse,
)
from toolform.server.schemas.render import (
    CompareBody,
    RenderCompareRequest,
    RenderedPromptBody,
    RenderOptionsBody,
    RenderRequest,
)
from toolform.server.schemas.tools import (
    ToolsExportRequest,
    ToolsExportResponse,
    ToolsLoadRequest,
    ToolsLoadResponse,
)

__all__ = [
    "AB_TEST_EXAMPLE",
    "AbTestJob",
    "AbTestJobSummary",
    "AbTestJobs",
    "AbTestRecords",
    "AbTestRequest",
    "AbTestStarted",
    "CataloguePlanModel",
    "CataloguePlanRequest",
    "CompareBody",
    "ErrorBody",
    "EvidenceState",
    "FactsResponse",
    "FigureModel",
    "FormatDetail",
    "FormatSample",
    "FormatsResponse",
    "GUARD_EXAMPLE",
    "GuardReportModel",
    "GuardRequest",
    "HealthResponse",
    "IndexResponse",
    "ModelsResponse",
    "PARSE_EXAMPLE",
    "ParseRequest",
    "ParsedReplyBody",
    "ProtocolsResponse",
    "RecommendRequest",
    "RecommendationBody",
    "RenderCompareRequest",
    "RenderOptionsBody",
    "RenderRequest",
    "RenderedPromptBody",
    "RequestBody",
    "ResponseBody",
    "RetrievalModel",
    "RetrieveRequest",
    "SituationBody",
    "TOOLS_EXAMPLE",
    "ToolsExportRequest",
    "ToolsExportResponse",
    "ToolsInput",
    "ToolsLoadRequest",
    "ToolsLoadResponse",
    "TwoStagePromptRequest",
    "TwoStagePromptResponse",
    "VersionResponse",
]
