"""A datasheet's model lines, points and wargear options in the app's data.

- ``composition``: "**1 Assault Intercessor Sergeant**", "**4-9 Assault Intercessors**" (any dash),
  "1 Adrax Agatone – EPIC HERO", Combat Patrol's "• 1 Intercessor Sergeant model"; alternatives
  apart by a line "OR" ("1 Sergeant and 9 Troopers" OR "2 Sergeants and 18 Troopers") are one line
  per model kind with the least and the most of either. A line that is no model line (a note, a
  loadout written there) is reported and left out.
- ``points``: ``{cost, models, keyword, detachment}`` (Combat Patrol's units: a null cost, no price); ``keyword`` (the price when the unit is taken
  as an ally into an army of that keyword, "IMPERIUM") or ``detachment`` (the price in that
  detachment) is the entry's condition. ``additionalCost`` ``{cost, afterSelections: N}`` is 11th
  edition's requisition: from the (N+1)th unit of the datasheet on, each size costs `cost` more.
  The app gives some sizes twice with different prices and no condition (Space Marines' file holds
  the chapters' prices: Assault Intercessor Squad 5 models 75, and 80 as Blood Angels pay): the
  first is kept and the other reported.
- ``wargear``: each option as printed, its choices the "◦" items of "one of the following:";
  ``wargearOptions`` (the app's builder) prices choices, matched to the option by its instruction.
"""

from __future__ import annotations

import re

from warscribe.extract.app.sheet import Sheet, name_of
from warscribe.extract.wargear import tie_footnotes

_DASHES = str.maketrans({"\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2013": "-", "\u2014": "-", "\u2212": "-"})
_LINE = re.compile(r"^(?P<min>\d+)(?:\s*-\s*(?P<max>\d+))?\s+(?P<name>\S.*?)$")
_BULLET = re.compile(r"^[\s•▪■◦·*-]*(?=\d)")
_EPIC = re.compile(r"\s*-?\s*(?:-\s*)?\bEPIC HERO\b\s*$", re.I)
_MODELS_WORD = re.compile(r"\s+models?$", re.I)
_MARKS = re.compile(r"\s*(?:\*{1,3}|†|‡)$")
_CHOICE = re.compile(r"^◦\s*(?P<choice>.+?)\s*$")
_COUNT = re.compile(r"^\d+\s+")


def composition(sheet: Sheet, ds: dict) -> list[dict]:
    lines = ds.get("composition")
    if not isinstance(lines, list):
        sheet.warn("bad-composition", "its composition is not a list; left out", expected="a list of model lines",
                   found=type(lines).__name__)
        return []
    ways: list[list[dict]] = [[]]
    for raw in lines:
        text = sheet.text(raw, "a composition line")
        if text.strip().upper() == "OR":
            ways.append([])
            continue
        read = _model_lines(text)
        if read is None:
            sheet.warn("bad-composition", "a composition line that is not a model line ('1-5 Name'); left out",
                       expected="'N Name' or 'N-M Name'", found=text[:120])
            continue
        ways[-1] += read
    ways = [w for w in ways if w]
    if not ways:
        return []
    first = ways[0]
    for other in ways[1:]:
        if len(other) != len(first):
            sheet.warn("bad-composition", "alternative compositions list different model kinds; the first is kept",
                       expected=f"{len(first)} model lines in each alternative", found=str(len(other)))
            continue
        for line, alt in zip(first, other):
            line["min"], line["max"] = min(line["min"], alt["min"]), max(line["max"], alt["max"])
    return first


def _model_lines(text: str) -> list[dict] | None:
    """'1 Sergeant and 9 Troopers', '1 Pack Leader, 1 Dishonoured and 8 Jakhals' -> a line each; None
    where `text` is not model lines."""
    text = _BULLET.sub("", text.translate(_DASHES).strip())
    out = []
    for part in re.split(r"\s*,\s+(?=\d)|\s+and\s+(?=\d)", text):
        m = _LINE.match(part.strip())
        if m is None:
            return None
        name = _MODELS_WORD.sub("", _EPIC.sub("", _MARKS.sub("", m.group("name").strip()))).strip(" -")
        lo = int(m.group("min"))
        hi = int(m.group("max") or lo)
        if not name or hi < 1 or hi < lo or name.lower().startswith(("model", "unit")):
            return None
        out.append({"name": name.replace("\u2019", "'"), "min": lo, "max": hi})
    return out


def points(sheet: Sheet, ds: dict, unpriced: bool = False) -> list[dict]:
    """The unit's prices; `unpriced`: a game mode whose units have none (a null cost is no finding)."""
    listed = ds.get("points")
    if not isinstance(listed, list):
        sheet.error("bad-cost", "its points are not a list; no points", expected="a list of {cost, models}",
                    found=type(listed).__name__)
        return []
    base: list[dict] = []
    for entry in listed:
        if not isinstance(entry, dict):
            sheet.error("bad-cost", "a points entry is not an object; left out", expected="{cost, models}",
                        found=str(entry)[:80])
            continue
        for extra in sorted(set(entry) - {"cost", "models", "keyword", "detachment", "$line"}):
            sheet.warn("unknown-section", f"a points entry has {extra!r}, which the reader does not know; left out",
                       expected="cost, models, keyword, detachment", found=extra)
        cost, models = _whole(entry.get("cost")), _whole(entry.get("models"))
        if entry.get("cost") in (None, "null") and unpriced:
            continue  # Combat Patrol's forces are not bought with points
        if cost is None or models is None or models < 1:
            sheet.error("bad-cost", "a points entry's cost or model count is not a whole number; left out",
                        expected="cost and models as whole numbers (models at least 1)",
                        found=f"cost {entry.get('cost')!r}, models {entry.get('models')!r}")
            continue
        condition = _condition(sheet, entry)
        same = next((p for p in base if (p["models"], p["condition"]) == (models, condition)), None)
        if same is not None:
            if same["points"] != cost:
                sheet.warn("conflicting-duplicate", f"{models} model(s) cost {same['points']} and again {cost} points"
                           + (f" ({condition})" if condition else " with no condition (keyword or detachment) "
                              "telling them apart") + f"; {same['points']} is kept",
                           expected="one price per size and condition", found=f"{same['points']} and {cost}")
            continue
        base.append({"models": models, "points": cost, "condition": condition, "from_copy": None})
    extra = ds.get("additionalCost")
    out = list(base)
    if extra is not None:
        cost = _whole(extra.get("cost")) if isinstance(extra, dict) else None
        after = _whole(extra.get("afterSelections")) if isinstance(extra, dict) else None
        if cost is None or after is None or after < 1:
            sheet.error("bad-cost", "its additional cost cannot be read; left out",
                        expected="{cost: N, afterSelections: N} as whole numbers", found=str(extra)[:80])
        else:
            out += [{**p, "points": p["points"] + cost, "from_copy": after + 1} for p in base]
    out.sort(key=lambda p: (p["condition"] is not None, p["condition"] or "", p["from_copy"] or 0, p["models"]))
    return out


def _whole(value) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if value >= 0 else None
    if isinstance(value, str) and re.fullmatch(r"\s*\d+\s*", value):
        return int(value)
    return None


def _condition(sheet: Sheet, entry: dict) -> str | None:
    parts = []
    if entry.get("keyword") is not None:
        word = sheet.text(entry["keyword"], "a points entry's keyword")
        if word:
            parts.append(word.upper())
    if entry.get("detachment") is not None:
        name = name_of(entry["detachment"]) if sheet.text(entry["detachment"], "a points entry's detachment") else ""
        if name:
            parts.append(name)
    return "; ".join(parts) or None


def wargear_options(sheet: Sheet, ds: dict) -> list[dict]:
    listed = ds.get("wargear")
    if listed is None:
        return []
    if not isinstance(listed, list):
        sheet.warn("empty-field", "its wargear options are not a list; left out", expected="a list of texts",
                   found=type(listed).__name__)
        return []
    options = []
    for raw in listed:
        text = sheet.text(raw, "a wargear option")
        if not text or text.strip().rstrip(".").casefold() == "none":
            continue
        options.append(_option(text))
    options, _resolved = tie_footnotes(options)
    _costs(sheet, ds, options)
    return options


def _option(text: str) -> dict:
    """One option: its text up to the list; the list's items its choices; footnotes a line of the text each."""
    head: list[str] = []
    choices: list[str] = []
    notes: list[str] = []
    for line in text.split("\n"):
        line = line.strip()
        m = _CHOICE.match(line)
        if m:
            # A footnote run on after the last item: '◦ 1 storm bolter.* * This model's ...'
            item, note = _split_note(m.group("choice"))
            choices.append(item)
            if note:
                notes.append(note)
        elif line:
            if choices or re.match(r"^(?:\*{1,3}|†|‡)\s", line):
                notes.append(line)
            else:
                first, note = _split_note(line)
                head.append(first)
                if note:
                    notes.append(note)
    if not head and notes:  # a footnote given as an option of its own ('* That model's shotgun ...')
        head = [notes.pop(0)]
    option = {"text": "\n".join([" ".join(head)] + notes)}
    if choices:
        option["choices"] = [c.rstrip(".").strip() if not _MARKS.search(c) else _strip_dot(c) for c in choices]
    return option


def _split_note(text: str) -> tuple[str, str]:
    """'... storm bolter.*  * This model's storm bolter cannot be replaced.' -> the item, the note."""
    parts = re.split(r"(?<=\S)\s+(?=(?:\*{1,3}|†|‡)\s+\S)", text, maxsplit=1)
    return (parts[0].strip(), parts[1].strip()) if len(parts) == 2 else (text.strip(), "")


def _strip_dot(choice: str) -> str:
    """'1 storm bolter.*' -> '1 storm bolter*' (the marker stays for the footnote to find)."""
    m = re.match(r"^(.*?)[.]?\s*((?:\*{1,3}|†|‡))$", choice)
    return f"{m.group(1).strip()}{m.group(2)}" if m else choice


def _folded(name: str) -> str:
    return _COUNT.sub("", _MARKS.sub("", name.strip().rstrip("."))).casefold().replace("\u2019", "'")


def _costs(sheet: Sheet, ds: dict, options: list[dict]) -> None:
    """Non-zero prices of the app's builder (``wargearOptions``), on the option whose text its
    instruction is, by choice; a price that matches no option or choice is reported."""
    groups = ds.get("wargearOptions")
    if groups is None:
        return
    if not isinstance(groups, list):
        sheet.warn("bad-cost", "its wargear prices are not a list; left out", expected="a list",
                   found=type(groups).__name__)
        return
    for group in groups:
        if not isinstance(group, dict) or not isinstance(group.get("options"), list):
            sheet.warn("bad-cost", "a wargear price group without options; left out", expected="{instruction, options}",
                       found=str(group)[:80])
            continue
        instruction = sheet.text(group.get("instruction"), "a wargear price group's instruction")
        for item in group["options"]:
            cost = _whole(item.get("cost")) if isinstance(item, dict) else None
            name = name_of(item.get("name")) if isinstance(item, dict) else ""
            if cost is None or not name:
                sheet.error("bad-cost", "a wargear price is not a name with a whole-number cost; left out",
                            expected="{name, cost}", found=str(item)[:80])
                continue
            if cost == 0:
                continue
            option = _option_of(instruction, options)
            choice = None
            if option is not None:
                choice = next((c for c in option.get("choices", []) if _folded(c) == _folded(name)), None) or \
                    next((c for c in option.get("choices", []) if _folded(c).startswith(_folded(name))), None)
                if choice is None and not option.get("choices"):
                    choice = name  # an option of one item ('... replaced with 1 ferrumite cannon.')
            if choice is None:
                sheet.warn("bad-cost", f"wargear {name!r} costs {cost} points under {instruction[:60]!r}, which is no "
                           "option (or choice) of the datasheet; the price is left out",
                           expected="the instruction of a wargear option and one of its choices", found=f"{name}: {cost}")
                continue
            costs = option.setdefault("costs", {})
            if costs.get(choice, cost) != cost:
                sheet.warn("conflicting-duplicate", f"wargear {name!r} is priced {costs[choice]} and {cost}; "
                           f"{costs[choice]} is kept", expected="one price per choice", found=f"{costs[choice]}, {cost}")
                continue
            costs[choice] = cost


def _option_of(instruction: str, options: list[dict]) -> dict | None:
    head = _norm(next((ln for ln in instruction.split("\n") if ln.strip()), "").split("◦")[0])
    if not head or head == "default wargear":
        return None
    for option in options:
        if _norm(option["text"].split("\n")[0]) == head:
            return option
    return None


def _norm(text: str) -> str:
    """An option's text as a key: a leading bullet ('■ This model's ...'), a marker, spacing and case aside."""
    return re.sub(r"\s+", " ", _MARKS.sub("", text.strip().lstrip("■").strip())).strip().casefold().replace("\u2019", "'")
