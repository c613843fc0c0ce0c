"""The one exception the engine raises for bad input."""


class ScenarioError(ValueError):
    """A scenario (or the knowledge base it refers to) cannot be evaluated.

    The message names the offending field, e.g. ``target.save: 9 is greater than the
    maximum of 7``; callers show it as is, without a traceback.
    """
