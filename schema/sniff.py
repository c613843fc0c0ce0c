"""What a file handed to a command is, said in a few words, for the error when it is not what was asked for.

A player passes a manifest where a build is expected, a binary where a TSV is, an empty
file or a folder: the message must say what was found and what was expected, on one line,
never a parser's traceback or its "Expecting value: line 1 column 1 (char 0)".
"""

from __future__ import annotations

from pathlib import Path

# How much of a file is looked at to tell what it is.
_HEAD = 4096


def what_is(path: Path) -> str | None:
    """A short description of what `path` is when it is plainly not a text of the kind wanted
    ('a folder', 'an empty file', 'binary data', 'YAML'), or None when it reads as text."""
    if not path.exists():
        return "nothing (no such file)"
    if path.is_dir():
        return "a folder"
    if not path.is_file():
        return "not a regular file"
    with path.open("rb") as fh:
        head = fh.read(_HEAD)
    if not head.strip():
        return "an empty file"
    if b"\x00" in head:
        return "binary data"
    try:
        text = head.decode("utf-8")
    except UnicodeDecodeError as exc:
        if exc.start < len(head) - 4:  # not a character cut at the end of the sample
            return f"binary data (not UTF-8 at byte {exc.start})"
        text = head[:exc.start].decode("utf-8")
    first = text.lstrip("\ufeff \t\r\n")
    # Comment lines (a manifest's header) say YAML, never JSON, which has no comments.
    while first.startswith("#"):
        first = first.partition("\n")[2].lstrip(" \t\r\n")
    if not first.startswith(("{", "[")) and (first.startswith(("---", "%YAML", "- ")) or _yaml_key(first)):
        return "YAML"
    return None


def _yaml_key(text: str) -> bool:
    """The first line is a YAML mapping's key ('sources:', 'attacker: ...')."""
    line = text.split("\n", 1)[0]
    key, colon, _rest = line.partition(":")
    return bool(colon) and bool(key.strip()) and all(c.isalnum() or c in "_- " for c in key.strip())
