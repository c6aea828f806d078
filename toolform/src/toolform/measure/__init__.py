"""Measuring formats on a real model endpoint: the task set, the requests, the grading, the verdict, the jobs.

>>> task_set = TaskSet(toolset, tasks_from_examples(examples, toolset), "examples")
>>> spec = MeasureSpec(model="Qwen/Qwen3-8B", base_url="http://127.0.0.1:8000/v1", task_set=task_set)
>>> report = asyncio.run(measure(spec, Progress(spec.total)))
>>> report.verdict.verdict, report.scores[0].interval
"""

from toolform.measure.endpoint import ChatEndpoint, Completion, TransportFailure, default_thinking
from toolform.measure.grading import Grade, grade_reply
from toolform.measure.jobs import Job, JobManager
from toolform.measure.report import FormatScore, MeasureReport, Record, Verdict, verdict_of
from toolform.measure.run import CORE_FORMATS, Cancelled, MeasureSpec, Progress, measure
from toolform.measure.start import AbTestOptions, StartedJob, build_spec
from toolform.measure.tasks import ExpectedCall, Task, TaskSet, generated_tasks, tasks_from_examples

__all__ = [
    "CORE_FORMATS",
    "AbTestOptions",
    "Cancelled",
    "ChatEndpoint",
    "Completion",
    "ExpectedCall",
    "FormatScore",
    "Grade",
    "Job",
    "JobManager",
    "MeasureReport",
    "MeasureSpec",
    "Progress",
    "Record",
    "StartedJob",
    "Task",
    "TaskSet",
    "TransportFailure",
    "Verdict",
    "build_spec",
    "default_thinking",
    "generated_tasks",
    "grade_reply",
    "measure",
    "tasks_from_examples",
    "verdict_of",
]
