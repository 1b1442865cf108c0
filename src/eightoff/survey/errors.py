"""Why a survey could not run or stopped: one family of errors, raised by the survey
and by the ways it runs (local processes, a Dask cluster)."""

from __future__ import annotations


class SurveyError(Exception):
    """A survey could not run; the message says what was wrong."""


class SurveyRangeError(SurveyError, ValueError):
    """START…END is not a range of deal numbers."""


class SurveyUnavailableError(SurveyError):
    """The requested way of running (Dask, a scheduler) is not available."""


class SurveyWorkerError(SurveyError):
    """A worker failed while solving; finished batches are kept."""


__all__ = ["SurveyError", "SurveyRangeError", "SurveyUnavailableError", "SurveyWorkerError"]
