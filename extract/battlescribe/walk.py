"""A unit's tree walked through its links: the profiles, rules and wargear options it holds.

Entry links, info links, info groups and entry groups are followed across files;
statically hidden entries are left out and reported, a link back into an entry being
walked is cut and reported, and army-building bookkeeping (enhancements, Crusade,
detachment choices) is not followed.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from warscribe.extract.battlescribe.common import NOT_WARGEAR, WEAPON_TYPES, bounds, flag
from warscribe.extract.battlescribe.index import DataFile, Target
from warscribe.extract.battlescribe.output import Output
from warscribe.schema.text import clean_name

MAX_DEPTH = 40  # link chains deeper than this are cycles in all but name


@dataclass
class Walk:
    """What a unit's tree holds, gathered through its links."""

    profiles: list[tuple[dict, str, DataFile]] = field(default_factory=list)  # (profile, context, file)
    rules: list[tuple[str, Target]] = field(default_factory=list)  # (shown name, rule)
    options: list[dict] = field(default_factory=list)  # wargear options


def walk_unit(out: Output, data: DataFile, entry: dict) -> Walk:
    """What the unit `entry` holds, through all its links."""
    found = Walk()
    walk(out, found, data, entry, "datasheet", (str(entry.get("id")),), 0)
    return found


def walk(out: Output, found: Walk, data: DataFile, obj: dict, context: str, trail: tuple[str, ...], depth: int,
         owner: str = "") -> None:
    """Gather `obj`'s profiles, rules, models and options into `found`, following links.

    `owner` is the nearest entry (model or unit) the options found belong to.
    """
    if "type" in obj:  # an entry, not a group
        owner = clean_name(str(obj.get("name", ""))) if obj.get("type") != "upgrade" else owner
    if depth > MAX_DEPTH:
        out.warn(data, obj, "deep-link-chain", f"links nested deeper than {MAX_DEPTH}; not followed")
        return
    for profile in obj.get("profiles") or []:
        if isinstance(profile, dict) and not flag(profile.get("hidden")):
            found.profiles.append((profile, context, data))
    # A weapon's links to its abilities' rules ([RAPID FIRE]) are not the unit's abilities.
    weapon = any(isinstance(p, dict) and p.get("typeName") in WEAPON_TYPES for p in obj.get("profiles") or [])
    for rule in obj.get("rules") or []:
        if isinstance(rule, dict) and not flag(rule.get("hidden")) and not weapon:
            found.rules.append((clean_name(str(rule.get("name", ""))), Target("rule", rule, data)))
    for group in obj.get("infoGroups") or []:
        if isinstance(group, dict) and not flag(group.get("hidden")):
            walk(out, found, data, group, context, trail, depth + 1, owner)
    for link in obj.get("infoLinks") or []:
        if not isinstance(link, dict) or flag(link.get("hidden")):
            continue
        target = out.index.resolve(data, link, ("profile", "rule", "infoGroup"))
        if target is None:
            continue
        shown = linked_name(link, target.obj)
        if target.what == "rule":
            if not weapon:
                found.rules.append((shown, target))
        elif target.what == "profile":
            found.profiles.append((dict(target.obj, name=shown), context, target.file))
        else:
            walk(out, found, target.file, target.obj, context, trail, depth + 1, owner)
    children = [(c, data) for c in obj.get("selectionEntries") or [] if isinstance(c, dict)]
    groups = [(g, data) for g in obj.get("selectionEntryGroups") or [] if isinstance(g, dict)]
    for link in obj.get("entryLinks") or []:
        if not isinstance(link, dict) or NOT_WARGEAR.search(str(link.get("name", ""))):
            continue
        if str(link.get("targetId")) in trail:
            out.warn(data, link, "cyclic-link", f"link {link.get('name', '')!r} leads back to an entry it is "
                     "inside; not followed", expected="a link to another entry", found=str(link.get("targetId")))
            continue
        target = out.index.resolve(data, link, ("selectionEntry", "selectionEntryGroup"))
        if target is None or NOT_WARGEAR.search(str(target.obj.get("name", ""))):
            continue
        merged = dict(target.obj, **{k: v for k, v in link.items()
                                      if k in ("name", "hidden", "constraints") and v not in (None, [])})
        merged["$via"] = target.file
        merged["$trail"] = str(link.get("targetId"))
        (groups if target.what == "selectionEntryGroup" else children).append((merged, target.file))
    for child, cdata in children:
        if flag(child.get("hidden")):
            out.warn(cdata, child, "hidden-entry", f"{child.get('name', '?')!r} is hidden; left out")
            continue
        if NOT_WARGEAR.search(str(child.get("name", ""))):
            continue
        ctx = "wargear" if child.get("type") == "upgrade" else context
        walk(out, found, cdata, child, ctx, trail + (str(child.get("id")), child.get("$trail", "")), depth + 1, owner)
    for group, gdata in groups:
        if flag(group.get("hidden")) or NOT_WARGEAR.search(str(group.get("name", ""))):
            continue
        option(found, group, owner)
        walk(out, found, gdata, group, context, trail + (str(group.get("id")), group.get("$trail", "")), depth + 1, owner)


def linked_name(link: dict, target: dict) -> str:
    """The name a link shows: its own, or its target's, as its unconditional name modifiers set it."""
    name = str(link.get("name") or target.get("name") or "")
    for mod in link.get("modifiers") or []:
        if isinstance(mod, dict) and mod.get("field") == "name" and not mod.get("conditions") \
                and not mod.get("conditionGroups"):
            if mod.get("type") == "set":
                name = str(mod.get("value"))
            elif mod.get("type") == "append":
                name = f"{name}{mod.get('join', ' ')}{mod.get('value')}"
    return clean_name(name)


def option(found: Walk, group: dict, owner_name: str) -> None:
    """A choice group whose options carry weapons or wargear, as readable text."""
    names = [clean_name(str(e.get("name", ""))) for e in (group.get("selectionEntries") or []) + (group.get("entryLinks") or [])
             if isinstance(e, dict) and not flag(e.get("hidden")) and not NOT_WARGEAR.search(str(e.get("name", "")))]
    if len(names) < 2 or any(isinstance(e, dict) and e.get("type") == "model" for e in group.get("selectionEntries") or []):
        return
    lo, hi = bounds(group)
    count = "one" if hi == 1 else f"up to {hi}" if hi else "any"
    text = f"{owner_name}: {clean_name(str(group.get('name', 'options')))}: {count} of the following"
    if lo == 0 and hi:
        text += " (optional)"
    found.options.append({"text": text + ":", "choices": names})
