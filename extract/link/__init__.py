"""From parsed pages to records: joins lists with texts, names blocks, merges sightings.

Datasheet pages print names apart from their texts (the stratagem list at the top,
full texts later; enhancement names and costs in one place, their texts elsewhere and
without the names). This stage joins them, says how, and reports whatever it could
not join rather than guessing silently.

One module per kind of record: :mod:`.datasheets` (datasheets and their weapons),
:mod:`.stratagems`, :mod:`.detachments` (detachments and enhancements),
:mod:`.rules` (rules and abilities, from pages and from rules extracts),
:mod:`.keywords`; :mod:`.linker` runs them in order.
"""

from warscribe.extract.link.linker import Linker

__all__ = ["Linker"]
