"""Army lists: read what players export, resolve it against a knowledge base, re-price it and check it.

The stages, one module each, in the order a list goes through them:

- ``source``: bytes from a file, standard input or a .rosz, bounded (size, members, ratio).
- ``detect``: which builder wrote it, by signature, then by shape.
- ``gwapp``, ``newrecruit``, ``battlescribe``: one reader per format, all filling ``model``.
- ``names`` (with ``aliases.yaml``): names as keys, and the table of known renames.
- ``resolve``: every name to a record of the list's edition (``warscribe.schema.bundle`` only).
- ``reprice``: declared points against the knowledge base's; what changed between two builds.
- ``rules`` (with ``rules.yaml``) and ``check``: each edition's muster rules, each finding cited.
- ``examine``: the above for one list, against the build of its edition; ``report``: text and JSON.

``from warscribe.roster import read_path, examine`` is the Python API.
"""

from warscribe.roster.examine import Result, examine
from warscribe.roster.read import read_data, read_path

__all__ = ["Result", "examine", "read_data", "read_path"]
