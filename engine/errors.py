"""The one exception the engine raises for bad input."""

from __future__ import annotations

from warscribe.schema.diagnostics import code_info


class ScenarioError(ValueError):
    """A scenario (or the knowledge base it refers to) cannot be evaluated.

    The message names the offending field, e.g. ``target.save: 9 is greater than the
    maximum of 7``; callers show it as is, without a traceback. ``code`` is the
    diagnostics vocabulary's code (schema/diagnostics.py), as extraction uses.
    """

    def __init__(self, message: str, code: str = "bad-scenario"):
        code_info(code)
        super().__init__(message)
        self.code = code
