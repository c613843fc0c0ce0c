"""Size limits on untrusted sources: how big a source and how long a line may be.

A source over a limit is refused with a located error rather than parsed: parsing is
linear, but a 2 GB download or a minified megabyte on one line is a mistake (or an
attack), not a rules document. Both limits are set on the command line
(``--max-source-bytes``, ``--max-line-length``); 0 means no limit.
"""

from __future__ import annotations

from dataclasses import dataclass

from warscribe.schema.diagnostics import Report

MiB = 1 << 20


@dataclass(frozen=True)
class Limits:
    max_source_bytes: int = 64 * MiB  # per file (a CSV export: per file of the folder)
    max_line_length: int = 1 * MiB  # per line of text, per field of a CSV export (characters)

    def source_too_large(self, report: Report, path: str, size: int) -> bool:
        """True (reported) when a file of `size` bytes is over the limit."""
        if not self.max_source_bytes or size <= self.max_source_bytes:
            return False
        report.error(path, 1, "source-too-large", f"source is {size:,} bytes, over the limit of "
                     f"{self.max_source_bytes:,}; not read (raise it with --max-source-bytes)",
                     expected=f"at most {self.max_source_bytes:,} bytes", found=f"{size:,} bytes")
        return True

    def too_long(self, length: int) -> bool:
        return bool(self.max_line_length) and length > self.max_line_length

    def long_line(self, report: Report, path: str, data: bytes | str) -> bool:
        """True (reported at the first one) when a line of `data` is over the limit (bytes count for bytes)."""
        if not self.too_long(len(data)):
            return False
        newline = b"\n" if isinstance(data, bytes) else "\n"
        start, no = 0, 1
        while start <= len(data):
            end = data.find(newline, start)
            end = len(data) if end < 0 else end
            if self.too_long(end - start):
                self.report_line(report, path, no, end - start, data[start:start + 60])
                return True
            start, no = end + 1, no + 1
        return False

    def report_line(self, report: Report, path: str, line: int, length: int, excerpt: bytes | str,
                    what: str = "line", consequence: str = "source not read") -> None:
        if isinstance(excerpt, bytes):
            excerpt = excerpt.decode("utf-8", errors="replace")
        report.error(path, line, "line-too-long", f"{what} is {length:,} characters long, over the limit of "
                     f"{self.max_line_length:,}; {consequence} (raise it with --max-line-length)",
                     expected=f"at most {self.max_line_length:,} characters", found=excerpt[:60],
                     column=self.max_line_length + 1)
