"""A datasheet's abilities in the app's data, by the kind the app files them under.

- ``core``: a core ability, by reference to the core rule's record (``11e/abilities/deep-strike``,
  :func:`warscribe.schema.ids.core_ability`); printed with its value ('Deadly Demise D3',
  'Feel No Pain 5+', 'Scouts 6"'), the value stays in the name and the reference is the rule's.
- ``faction``: the army rule, by reference to the faction ability the army's file defines
  (:func:`warscribe.schema.ids.faction_ability` of the army, as BattleScribe's reader names it).
  A ``restriction`` ('Szarekh model only') is kept in the name, as BattleScribe's data writes it.
- ``other`` and ``special`` (with their text) are the datasheet's own; ``special`` "Support" is the
  SUPPORT box (`support`: the units a Support model can be attached to), as ``leader`` is LEADER.
- ``primarch``: a named set of abilities to choose from, each kept as a datasheet ability
  named "<set> - <ability>" (BattleScribe's "Relic of the Matriarch - The Fiery Heart (Aura)").
- ``wargear``: wargear abilities.
- ``damaged``: the damaged profile, kept as BattleScribe's records keep it: a datasheet ability
  "Damaged: 1-4 Wounds Remaining".
- ``invul``: the models' invulnerable save (``value``), with ``info`` (a condition) as its text.
"""

from __future__ import annotations

import re

from warscribe.extract.app.sheet import Sheet, name_of
from warscribe.extract.battlescribe.abilities import leader as attachment
from warscribe.schema import ids

# The keys of the abilities object, in the order their abilities are listed.
KINDS = ("core", "faction", "damaged", "other", "special", "primarch", "wargear")
# Keys of one ability the reader does not make a field of, and why: isAura, isPain and isBondsman
# are the app's badges (the name says "(Aura)"; Power from Pain and Bondsman are the army rules the
# text names); isPsychic is read (`psychic`).
IGNORED_FLAGS = frozenset({"isAura", "isPain", "isBondsman"})
_ABILITY_KEYS = frozenset({"name", "description", "isPsychic", "restriction", "abilities"}) | IGNORED_FLAGS
# A core ability's value as printed after its name: 'D3', '2D6+6', '5+', '6"', '11'.
_CORE_VALUE = re.compile(r"\s+(?:\d*D\d+(?:\+\d+)?|\d+\+?|\d+\s*[\"\u201d\u2033])$", re.I)
_INV = re.compile(r"^\s*(\d)\+?\s*$")
_INV_IN_TEXT = re.compile(r"\b(\d)\+")


def core_rule_name(name: str) -> str:
    """The core rule an ability printed with its value is ('Feel No Pain 5+' -> 'Feel No Pain')."""
    return _CORE_VALUE.sub("", name).strip() or name


def abilities(sheet: Sheet, ds: dict, army: str, army_rules: set[str] | None, ruleset: str
              ) -> tuple[list[dict], dict | None, dict | None, tuple[int, str | None] | None]:
    """The unit's abilities, its LEADER and SUPPORT boxes (or None), and its invulnerable save
    (the number, and its condition where the app gives one). `army_rules`: the ids of the army
    rules the file defines, which a faction ability should name (None: the file defines none, as
    Combat Patrol's, whose units name matched play's army rules)."""
    items: list[dict] = []
    support: dict | None = None
    groups = ds.get("abilities")
    if groups is None:
        groups = {}
    if not isinstance(groups, dict):
        sheet.warn("bad-ability", "abilities are not an object; left out", expected="{core, faction, other, ...}",
                   found=type(groups).__name__)
        groups = {}
    for key in sorted(set(groups) - set(KINDS) - {"invul", "$line"}):
        sheet.warn("unknown-section", f"abilities of kind {key!r}, which the reader does not know; left out",
                   expected=", ".join(KINDS + ("invul",)), found=key)
    for kind in KINDS:
        listed = groups.get(kind)
        if listed is None:
            continue
        if kind == "damaged":
            item = _damaged(sheet, listed)
            if item:
                items.append(item)
            continue
        if not isinstance(listed, list):
            sheet.warn("bad-ability", f"{kind} abilities are not a list; left out", expected="a list",
                       found=type(listed).__name__)
            continue
        for ability in listed:
            if not isinstance(ability, dict):
                sheet.warn("bad-ability", f"a {kind} ability is not an object; left out", expected="{name, ...}",
                           found=str(ability)[:80])
                continue
            name = name_of(ability.get("name"))
            if not name:
                sheet.warn("bad-ability", f"a {kind} ability has no name; left out", expected="a name",
                           found=str(ability.get("name"))[:80])
                continue
            for extra in sorted(set(ability) - _ABILITY_KEYS - {"$line"}):
                sheet.warn("unknown-section", f"{kind} ability {name!r} has {extra!r}, which the reader does not "
                           "know; left out", expected=", ".join(sorted(_ABILITY_KEYS)), found=extra)
            if kind in ("core", "faction"):
                items.append(_rule(sheet, kind, name, ability, army, army_rules, ruleset))
            elif kind == "special" and name.casefold() == "support":
                text = sheet.text(ability.get("description"), "the Support ability")
                if support is not None:
                    sheet.warn("conflicting-duplicate", "a second Support ability; the first is kept",
                               expected="one Support ability", found=text[:80])
                elif text:
                    support = attachment([_marker_last(text)])
            elif kind == "primarch":
                items += _primarch(sheet, name, ability)
            else:
                item = _own(sheet, kind, name, ability)
                if item:
                    items.append(item)
    leader = None
    if ds.get("leader") is not None:
        text = sheet.text(ds.get("leader"), "the Leader text")
        if text:
            leader = attachment([_marker_last(text)])
        else:
            sheet.warn("empty-field", "its Leader text is empty; no leader list", expected="the units it can lead",
                       found=str(ds.get("leader"))[:80])
    for box, what in ((leader, "Leader"), (support, "Support")):
        if box is not None and not box["units"]:
            sheet.warn("empty-list", f"its {what} text names no unit", expected="a list of units", found=box["text"][:80])
    return _unique(sheet, items), leader, support, _invulnerable(sheet, groups.get("invul"))


def _marker_last(text: str) -> str:
    """A listed unit's footnote marker after its name ('■ *CRUSADERS' -> '■ CRUSADERS*'), where the
    list reader takes markers off; and a paragraph the app runs into the last listed unit
    ('■ WARLOCK CONCLAVE If this model is not already attached ...') put on a line of its own,
    so it stays in the box's text and out of the unit's name."""
    text = re.sub(r"(?m)^(■\s*)(\*{1,3}|†|‡)\s*(\S.*?)\s*$", r"\1\3\2", text)
    return _RUN_ON.sub(r"\1\n\2", text)


# A listed unit (in capitals) followed on its line by a sentence (a capital, then small letters).
_RUN_ON = re.compile(r"(?m)^(■\s*[A-Z0-9][A-Z0-9 '’\-*†‡]*?[A-Z0-9*†‡])\s+([A-Z][a-z].*)$")


def _rule(sheet: Sheet, kind: str, name: str, ability: dict, army: str, army_rules: set[str] | None,
          ruleset: str) -> dict:
    if kind == "core":
        ref = ids.core_ability(ruleset, core_rule_name(name))
    else:
        ref = ids.faction_ability(army, name)
        if army_rules is not None and ref not in army_rules:
            sheet.warn("unresolved-reference", f"faction ability {name!r} is not an army rule of its file; its "
                       f"reference ({ref}) may not resolve", expected="an army rule of the file: "
                       + (", ".join(sorted(army_rules)) or "none"), found=name)
    restriction = sheet.text(ability.get("restriction"), f"the restriction of {name!r}").strip()
    if restriction:
        name = f"{name} ({restriction.strip('()').strip()})"
    if ability.get("description") is not None:
        sheet.warn("unknown-section", f"{kind} ability {name!r} has a text of its own; the rule's record holds the "
                   "rule, its text left out", expected="a name only", found=str(ability.get("description"))[:80])
    return {"name": name, "type": kind, "text": None, "ref": ref}


def _own(sheet: Sheet, kind: str, name: str, ability: dict) -> dict | None:
    text = sheet.text(ability.get("description"), f"ability {name!r}")
    if not text:
        sheet.warn("bad-ability", f"{kind} ability {name!r} has no text; left out", expected="a description",
                   found=str(ability.get("description"))[:80])
        return None
    item = {"name": name, "type": "wargear" if kind == "wargear" else "datasheet", "text": text}
    psychic = ability.get("isPsychic")
    if psychic is True:
        item["psychic"] = True
    elif psychic not in (None, False):
        sheet.warn("bad-ability", f"ability {name!r}: isPsychic is not true or false; not read",
                   expected="true or false", found=str(psychic)[:40])
    return item


def _primarch(sheet: Sheet, name: str, ability: dict) -> list[dict]:
    items = []
    if ability.get("description") is not None:
        item = _own(sheet, "primarch", name, ability)
        if item:
            items.append(item)
    listed = ability.get("abilities")
    if not isinstance(listed, list) or not listed:
        if not items:
            sheet.warn("bad-ability", f"ability set {name!r} lists no abilities; left out", expected="abilities",
                       found=str(listed)[:80])
        return items
    for sub in listed:
        sub_name = name_of(sub.get("name")) if isinstance(sub, dict) else ""
        if not sub_name:
            sheet.warn("bad-ability", f"an ability of set {name!r} has no name; left out", expected="a name",
                       found=str(sub)[:80])
            continue
        item = _own(sheet, "primarch", f"{name} - {sub_name}", sub)
        if item:
            items.append(item)
    return items


def _damaged(sheet: Sheet, damaged) -> dict | None:
    if not isinstance(damaged, dict):
        sheet.warn("bad-damaged-profile", "its damaged profile is not an object; left out",
                   expected="{range, description}", found=type(damaged).__name__)
        return None
    wounds = sheet.text(damaged.get("range"), "the damaged profile's range")
    text = sheet.text(damaged.get("description"), "the damaged profile's text")
    if not wounds or not text:
        sheet.warn("bad-damaged-profile", "its damaged profile lacks its wounds range or its text; left out",
                   expected="a range ('1-4 WOUNDS REMAINING') and a text", found=f"{wounds!r}, {text[:60]!r}")
        return None
    # As the datasheet prints it, in the words' case BattleScribe's records use: "1-4 Wounds Remaining".
    return {"name": f"Damaged: {wounds.title()}", "type": "datasheet", "text": text}


def _invulnerable(sheet: Sheet, invul) -> tuple[int, str | None] | None:
    if invul is None:
        return None
    value = invul.get("value") if isinstance(invul, dict) else None
    m = _INV.match(value) if isinstance(value, str) else None
    info = sheet.text(invul.get("info"), "the invulnerable save's condition").strip("* \n") \
        if isinstance(invul, dict) and invul.get("info") is not None else ""
    if m is None and value is None and _INV_IN_TEXT.search(info):
        # No value, the save in the condition ('*4+ against melee attacks only*': Wyches).
        m = _INV_IN_TEXT.search(info)
        sheet.warn("bad-characteristic", "its invulnerable save has no value; read from its condition",
                   expected="{value: 'N+', info}", found=info[:80])
    if m is None:
        sheet.error("bad-characteristic", "its invulnerable save cannot be read; left out",
                    expected="{value: 'N+'}", found=str(invul)[:80])
        return None
    for extra in sorted(set(invul) - {"value", "info", "$line"}):
        sheet.warn("unknown-section", f"its invulnerable save has {extra!r}, which the reader does not know; left out",
                   expected="value, info", found=extra)
    return int(m.group(1)), (info or None)


def _unique(sheet: Sheet, items: list[dict]) -> list[dict]:
    """One ability per name: a second of one name and kind is reported unless it is the same."""
    out: list[dict] = []
    for item in items:
        same = next((o for o in out if o["name"].casefold() == item["name"].casefold()), None)
        if same is None:
            out.append(item)
        elif same != item:
            sheet.warn("conflicting-duplicate", f"ability {item['name']!r} is given twice, differing; the first is kept",
                       expected="one ability of a name", found=str(item.get("text") or item.get("ref"))[:80])
    return out
