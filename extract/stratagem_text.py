"""The labelled parts of a stratagem's text (WHEN:, TARGET:, EFFECT: ...), for every reader.

Text pages, HTML pages and the Wahapedia export print a stratagem as labelled
paragraphs; this module is the one list of labels and the one way to split them.
"""

from __future__ import annotations

import re

#: Labels that start a part of a stratagem (or of an 11th-edition move) text.
LABELS = ("WHEN", "TARGET", "EFFECT", "RESTRICTIONS", "MAXIMUM DISTANCE", "ELIGIBLE IF", "BEFORE MOVING",
          "AFTER MOVING", "WHILE MOVING", "WHILE SHOOTING", "SET-UP DISTANCE")

_LABEL = "|".join(re.escape(label) for label in LABELS)
#: A line starting with a label: 'WHEN: Your Shooting phase.'
FIELD = re.compile(rf"^(?P<label>{_LABEL}):\s*(?P<text>.*)$")
#: A designer's note, to the end of the text.
DESIGNER = re.compile(r"^Designer[’']s Note:\s*(?P<text>.*)$", re.S)
#: A label by itself (as an HTML page prints it in bold before its text).
LABEL_ONLY = re.compile(rf"^(?:{_LABEL}|Designer[’']s Note):$")


def stratagem_fields(texts: list[str]) -> tuple[dict[str, str], str | None, list[str]]:
    """WHEN / TARGET / EFFECT / RESTRICTIONS (and a designer's note) from a stratagem's lines.

    Returns (fields, flavour, stray): the flavour is a first line before any field;
    bullets and stray cells after a field belong to the field that announced a list
    (its text ends with ':'), else to the last field; `stray` lists anything else.
    """
    fields: dict[str, str] = {}
    order: list[str] = []
    flavour = None
    stray: list[str] = []
    for text in (t.strip() for t in texts):
        if not text:
            continue
        fm = FIELD.match(text)
        dm = DESIGNER.match(text)
        if fm:
            key = fm.group("label").lower()
            fields[key] = fm.group("text").strip()
            order.append(key)
        elif dm:
            fields["designer_note"] = dm.group("text").strip()
        elif not order and flavour is None:
            flavour = text
        elif order:
            target = next((k for k in reversed(order) if fields[k].rstrip().endswith(":")), order[-1])
            fields[target] = fields[target] + "\n" + text
        else:
            stray.append(text)
    return fields, flavour, stray
