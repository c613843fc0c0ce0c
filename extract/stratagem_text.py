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


def regroup_lists(texts: list[str]) -> tuple[list[int], list[int]]:
    """Put each bullet list back under the labelled part that announced it.

    Pages print a part's list after later parts ('WHEN: ... the following rolls:', then
    TARGET and EFFECT, then the rolls), or print a label twice with its list after the
    repeat. Returns (order, moved): `order` lists the indices of `texts` so that every
    label is followed by its own lines and items, and `moved` the indices of the bullets
    that changed place. A run of bullets belongs to the current part when that part
    announced a list (its text ends with ':'), else to the latest earlier part that
    announced one and has no items yet, else to the current part.
    """
    preamble: list[int] = []
    parts: list[list[int]] = []  # each: [label index, continuation and item indices ...]
    by_label: dict[str, int] = {}
    announced: list[int] = []  # part numbers whose text ends with ':' and that have no items yet
    current: int | None = None
    owner: int | None = None  # part a run of bullets goes to
    moved: list[int] = []
    repeats: list[int] = []
    prose_after_label = False
    for i, raw in enumerate(texts):
        text = raw.strip()
        fm = FIELD.match(text)
        if fm or DESIGNER.match(text):
            key = text if not fm else fm.group("label")
            owner = None
            prose_after_label = False
            if key in by_label and fm and norm_space(texts[parts[by_label[key]][0]]) == norm_space(text):
                current = by_label[key]  # the same label printed again: what follows is its
                repeats.append(i)
                continue
            by_label[key] = len(parts)
            parts.append([i])
            current = len(parts) - 1
            if text.endswith(":"):
                announced.append(current)
            continue
        if current is None:
            preamble.append(i)
            continue
        if text.startswith("- "):
            if owner is None:
                if prose_after_label:
                    owner = current  # the paragraph just above introduced this list
                elif current in announced:
                    owner = current
                elif announced and announced[-1] < current:
                    owner = announced[-1]
                else:
                    owner = current
                if owner in announced:
                    announced.remove(owner)
            if owner != current:
                moved.append(i)
            parts[owner].append(i)
            prose_after_label = False
            continue
        owner = None
        prose_after_label = True
        parts[current].append(i)
    order = preamble + [i for part in parts for i in part] + repeats
    return order, moved


# A list item shaped 'Name: text' ('- Ordered Retreat: If your unit ...'): a name of one to
# five capitalised words (small linking words allowed), then its text.
_NAMED_ITEM = re.compile(
    r"^- (?P<name>[A-Z][\w’'/\-]*(?: (?:[A-Z][\w’'/\-]*|of|the|and|or|to|in|on|at|from|with|a|an)){0,4}):\s+\S")


def item_name(text: str) -> str | None:
    """The name of a list item shaped 'Name: text' ('- Ordered Retreat: ...'), or None."""
    m = _NAMED_ITEM.match(text.strip())
    return m.group("name") if m else None


def lost_labels(texts: list[str]) -> list[tuple[int, int]]:
    """Items of a labelled list that break the list's 'Name: text' shape: (label index, first such item).

    A label announcing a list ('BEFORE MOVING: Select fall-back mode:') whose items open
    with two or more named ones, all names different ('Ordered Retreat: ...', 'Desperate
    Escape: ...'), lists named choices. An item after them that repeats a name or has none
    ('Desperate Escape: ...' again, 'Your unit must be unengaged.') is no such choice: it
    belongs to a part whose label was lost in scraping (the list runs on to the next label).
    Sub-items of an item that itself ends with ':' are no break.
    """
    found = []
    for i, text in enumerate(texts):
        fm = FIELD.match(text.strip())
        if not fm or not text.strip().endswith(":"):
            continue
        items = []
        for item in texts[i + 1:]:
            if not item.strip().startswith("- "):
                break
            items.append(item.strip())
        names: list[str] = []
        for k, item in enumerate(items):
            name = item_name(item)
            if name and name not in names:
                names.append(name)
                continue
            if k >= 2 and len(names) == k and not items[k - 1].endswith(":"):
                found.append((i, i + 1 + k))
            break
    return found


def norm_space(text: str) -> str:
    return " ".join(text.split())


_PHASE_WORDS = ("command", "movement", "shooting", "charge", "fight")
_WHOSE = r"(?:(?P<whose>your opponent['’]?s|your opponents|opponent['’]s|your|the|each|either player['’]s)\s+)?"
_PHASE_RUN = re.compile(
    _WHOSE + r"(?P<first>command|movement|shooting|charge|fight)(?P<more>(?:\s*(?:,|or|and)\s+(?:(?:your opponent['’]?s|your|the)\s+)?"
    r"(?:command|movement|shooting|charge|fight))*)\s+phases?\b", re.I)
_MORE = re.compile(r"(?:(?P<whose>your opponent['’]?s|your|the)\s+)?(?P<phase>command|movement|shooting|charge|fight)", re.I)
_REINFORCEMENTS = re.compile(_WHOSE + r"reinforcements step", re.I)


def _turn(whose: str | None) -> str | None:
    if not whose:
        return None
    whose = whose.lower()
    return "opponent" if "opponent" in whose else "your" if whose == "your" else "either"  # the, each, either player's


def timing(when: str | None) -> tuple[list[str] | None, str | None]:
    """(phases, turn) a stratagem's WHEN names: 'Your opponent’s Movement or Charge phase' ->
    (['movement', 'charge'], 'opponent'); 'Start of any phase' -> (['any'], 'either');
    (None, None) for what it does not say ('End of your opponent’s turn': no phase)."""
    if not when:
        return None, None
    if re.search(r"\bany phase\b", when, re.I):
        return ["any"], "either"
    phases: list[str] = []
    turns: set[str | None] = set()
    for m in _PHASE_RUN.finditer(when):
        first_turn = _turn(m["whose"])
        turns.add(first_turn)
        phases.append(m["first"].lower())
        for part in _MORE.finditer(m["more"]):
            phases.append(part["phase"].lower())
            turns.add(_turn(part["whose"]) or first_turn)
    for m in _REINFORCEMENTS.finditer(when):  # the Reinforcements step is the Movement phase's
        phases.append("movement")
        if m["whose"] and m["whose"].lower() not in ("the", "each"):  # 'the ... step of your Movement phase'
            turns.add(_turn(m["whose"]))
    if not phases:
        return None, None
    said = {t for t in turns if t}
    turn = said.pop() if len(said) == 1 else "either"  # 'Fight phase, just after ...': either player's
    ordered = [p for p in _PHASE_WORDS if p in phases]
    return ordered, turn
