"""Wargear options, for every reader: footnotes tied to what their markers mark.

A datasheet prints a footnote under its options ('* That model's storm bolter cannot be
replaced.') for an option or a choice that ends with the same marker ('1 storm bolter and
1 Ancient's banner*'). The note belongs to that choice; it is not an option of its own,
and the marker is not a stray '*'.
"""

from __future__ import annotations

import re

FOOTNOTE = re.compile(r"^(?P<mark>\*{1,3}|†|‡)\s*(?P<text>\S.*)$")
MARKED = re.compile(r"^(?P<text>.*?\S)\s*(?P<mark>\*{1,3}|†|‡)$")


def _mark(text: str) -> str | None:
    m = MARKED.match(text.strip())
    return m.group("mark") if m else None


def tie_footnotes(options: list[dict]) -> tuple[list[dict], set[str]]:
    """Options with each footnote moved onto what its marker ends; the markers resolved.

    A footnote is an option of its own, or a line of an option's text after the first. A
    footnote whose marker ends nothing stays where it was (and a marker without a footnote
    stays in its text), so the text checks still report them.
    """
    marked = {_mark(o["text"]) for o in options} | {_mark(c) for o in options for c in o.get("choices", [])}
    marked.discard(None)
    notes: dict[str, str] = {}
    kept: list[dict] = []
    for o in options:
        lines = o["text"].split("\n")
        first = FOOTNOTE.match(lines[0])
        if first and first.group("mark") in marked and first.group("mark") not in notes and not o.get("choices"):
            notes[first.group("mark")] = " ".join([first.group("text")] + lines[1:])
            continue
        rest = []
        for line in lines[1:]:
            m = FOOTNOTE.match(line)
            if m and m.group("mark") in marked and m.group("mark") not in notes:
                notes[m.group("mark")] = m.group("text")
            else:
                rest.append(line)
        kept.append({**o, "text": "\n".join([lines[0]] + rest)})
    for o in kept:
        mark = _mark(o["text"].split("\n")[0])
        if mark in notes:
            head, _, tail = o["text"].partition("\n")
            o["text"] = MARKED.match(head.strip()).group("text") + ("\n" + tail if tail else "")
            o.setdefault("notes", []).append({"marker": mark, "text": notes[mark]})
        for i, choice in enumerate(o.get("choices", [])):
            mark = _mark(choice)
            if mark in notes:
                o["choices"][i] = MARKED.match(choice.strip()).group("text")
                o.setdefault("notes", []).append({"marker": mark, "choice": o["choices"][i], "text": notes[mark]})
    return kept, set(notes)


def without_marker(text: str, resolved: set[str]) -> str:
    """`text` with a resolved footnote marker (at its start or end) taken off, for the text checks."""
    stripped = text.strip()
    m = MARKED.match(stripped)
    if m and m.group("mark") in resolved:
        return m.group("text")
    m = FOOTNOTE.match(stripped.removeprefix("- "))
    if m and m.group("mark") in resolved:
        return m.group("text")
    return text
