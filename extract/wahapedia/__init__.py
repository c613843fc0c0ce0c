"""The Wahapedia CSV export, both ways: a folder of pipe-separated tables <-> our records.

The export is a folder of ``Name.csv`` files: UTF-8 (a byte-order mark is allowed),
``|`` between fields and after the last one, a header row, no quoting, HTML inside text
fields and newlines inside fields. Columns are found by their header name, never by
position: the set and order of columns changed between editions. docs/formats.md
lists which columns become which record fields.

Reading gives the same records the text pages give (datasheets with their weapons,
stratagems, detachments, enhancements), plus what the text pages lack: model
characteristics. :func:`add_export` merges them into the build's store; a field the
store's record lacks is added, and the provenance entry for it names the fields.

A malformed table costs its own rows, not the export: every problem is reported with
the file, the row, the line it starts on and the column.

One module per step: :mod:`.layout` (file names and columns, shared with the writer
``warscribe.export_csv``), :mod:`.tables` (the files into rows), :mod:`.datasheets` and
:mod:`.detachments` (rows into records, by kind), :mod:`.records` (an export's records,
and their merge into the build's store).
"""

from warscribe.extract.wahapedia.records import Export, add_export, load_export
from warscribe.extract.wahapedia.tables import folder_sha256, read_export

__all__ = ["Export", "add_export", "folder_sha256", "load_export", "read_export"]
