"""Datasheets: each unit as an army offers it (:mod:`.armies`), with a ``Unit`` profile; its
keywords and models, and who leads whom.

A datasheet's parts are read by their own modules: :mod:`.walk` gathers what its tree
holds in the army, :mod:`.composition` its model lines and points, :mod:`.abilities`,
:mod:`.weapons` and :mod:`.options` the rest. Keywords are the categories of the unit,
of the link that offers it (a faction keyword the army's link adds) and of its models
(a model's own keywords: GHAZGHKULL THRAKA, WARBOSS, which its profile lists too), with the
category modifiers that hold in the army. A category the data hides until a detachment (or
another army-wide choice) is made is not a keyword of the datasheet (SHADOW LEGION on Chaos
Daemons units, shown with the Shadow Legion detachment; YNNARI alike), except on a unit the
army offers only with that same choice (a Chaos Lord among Chaos Daemons): where it is, so is
the keyword. Such categories are reported (``hidden-entry``), grouped.

A Legends datasheet is named as printed ('Hornet', not BattleScribe's 'Hornet [Legends]')
and marked ``legends``; its id keeps the mark ('aeldari/hornet-legends'), which is where the
sources and releases meet it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from warscribe.extract.battlescribe import composition, conditions
from warscribe.extract.battlescribe.abilities import abilities, invulnerables, model_invulnerable
from warscribe.extract.battlescribe.armies import Offer
from warscribe.extract.battlescribe.common import flag
from warscribe.extract.battlescribe.conditions import Scope
from warscribe.extract.battlescribe.factions import entry_faction
from warscribe.extract.battlescribe.index import DataFile
from warscribe.extract.battlescribe.options import options
from warscribe.extract.battlescribe.output import Output
from warscribe.extract.battlescribe.profiles import characteristics_in, report_pending
from warscribe.extract.battlescribe.walk import Model, Walk, frame, walk_unit
from warscribe.extract.battlescribe.weapons import weapons
from warscribe.extract.attachments import derive_led_by
from warscribe.schema import KEYWORD_PATTERN, ids, records
from warscribe.schema.text import clean_name
from warscribe.schema.values import parse_inches, parse_int, parse_plus

_KEYWORD = re.compile(KEYWORD_PATTERN)
# What a root link may add to the unit it offers, and the fields that changes.
_LINK_GIVES = {"categoryLinks": ["keywords", "faction_keywords"], "costs": ["points"], "modifiers": ["points", "keywords"],
               "modifierGroups": ["points", "keywords"], "infoLinks": ["abilities"], "entryLinks": ["weapons", "wargear_options"],
               "profiles": ["abilities"]}


@dataclass
class Bearer:
    """A datasheet that links enhancement groups, as the detachments module needs it."""

    id: str
    faction: str
    ruleset: str
    scope: Scope
    groups: dict[int, list[tuple[dict, Scope]]]  # id() of each enhancement group it links -> (link, scope) pairs


def datasheet(out: Output, offer: Offer) -> None:
    """Emit the datasheet of `offer` with its weapons and linked rules; a hidden or profile-less unit is reported."""
    entry, data, link = offer.target, offer.target_file, offer.link
    name = clean_name(str(entry.get("name", "")))
    objs = (entry,) if link is None else (entry, link)
    scope = Scope(offer.context, choice=out.is_choice)
    if conditions.hidden(objs, Scope(offer.context.opened(), choice=out.is_choice).down(frame(entry, link), is_model=True)):
        if any(flag(o.get("hidden")) for o in objs) and not any(conditions.has_modifiers(o) for o in objs):
            where, obj = (offer.item_file, link) if link is not None and flag(link.get("hidden")) else (data, entry)
            out.warn(where, obj, "hidden-entry", f"unit {name!r} is hidden in the data; not made a datasheet")
        else:
            out.group("hidden-entry", "a unit hidden in an army that lists it", offer.item_file, offer.item,
                      f"unit {name!r} is hidden in the {offer.army.title} army that lists it; not made a "
                      "datasheet of that army", f"{name} in {offer.army.title}")
        return
    walk = walk_unit(out, data, entry, scope, link, offer.item_file)
    if not any(f.profile.get("typeName") == "Unit" for f in walk.profiles):
        if entry.get("type") == "unit":
            out.warn(data, entry, "no-unit-profile", f"unit {name!r} has no Unit profile; not made a datasheet",
                     expected="a profile of type Unit", found="none")
        return
    faction = offer.faction or entry_faction(data, entry)
    ds_id = ids.datasheet(faction, name)
    printed, legends = legends_name(name)
    if out.get(ds_id) is not None:
        _same_id(out, offer, ds_id)
        return
    keywords, faction_keywords, of_models = _keywords(out, walk, offer)
    ways = composition.fieldings(walk)
    lines = composition.lines(walk, ways)
    unit_abilities, leader, transport = abilities(out, walk, faction)
    record = records.datasheet(
        id=ds_id, name=printed, legends=legends or records.OMIT, ruleset=data.ruleset, faction=faction, keywords=keywords,
        faction_keywords=faction_keywords, composition=[ln.as_record() for ln in lines],
        points=composition.points(out, walk, ways, walk.unit.scope), abilities=unit_abilities,
        transport=transport or records.OMIT,
        weapons=weapons(out, walk, ds_id, data.ruleset), wargear_options=options(walk, lines),
        leader=leader or records.OMIT, models=_models(out, walk, keywords, of_models))
    also = []
    if link is not None and (offer.item_file is not data or any(link.get(k) for k in _LINK_GIVES)):
        # A link from another file (a library's unit in a faction's army), or one that adds to its
        # target: the faction, and what it adds, come from there.
        gives = ["faction"] + [f for k, fields in _LINK_GIVES.items() if link.get(k) for f in fields]
        also.append(out.prov(offer.item_file, link, fields=sorted(set(gives))))
    out.emit(record, data, entry, also)
    _left_out(out, walk, ds_id)
    if walk.enhancements:
        groups: dict[int, list[tuple[dict, Scope]]] = {}
        for target, lk, where in walk.enhancements:
            groups.setdefault(id(target.obj), []).append((lk, where))
        out.bearers.append(Bearer(ds_id, faction, data.ruleset, walk.unit.scope, groups))


def _same_id(out: Output, offer: Offer, ds_id: str) -> None:
    """A second link of one army to a unit (or a unit two files define alike): the first is kept."""
    out.group("conflicting-duplicate", "a unit offered twice", offer.item_file, offer.item,
              f"{ds_id} is offered again by {offer.army.title}; the first is kept", ds_id)


def _left_out(out: Output, walk: Walk, ds_id: str) -> None:
    """What the army hides for the unit, reported grouped: rules by name, other entries by kind."""
    for what, name, data, objs in walk.left_out:
        out.hidden_rules.append((what, name, data, objs))
        if what in ("rule", "profile", "info group"):
            out.group("conditional-rule", name.casefold(), data, objs[-1],
                      f"{what} {name!r} is shown only in other armies or with a detachment (or another "
                      "army-wide choice) made; not made an ability of the datasheets that link it", ds_id)
        else:
            out.group("hidden-entry", f"{what} shown only in other armies", data, objs[-1],
                      f"{what} {name!r} is shown only in other armies or with a detachment made; left out",
                      f"{name} on {ds_id}")


def _keywords(out: Output, walk: Walk, offer: Offer) -> tuple[list[str], list[str], dict[int, set[str]]]:
    """The unit's keywords and faction keywords, each category noted for its keyword record; and
    the keywords each model entry gives itself (by ``id`` of the Model)."""
    unit = walk.unit
    holders: list[tuple[dict, DataFile, Model | None]] = [(unit.obj, unit.file, None)]
    if unit.link is not None:
        holders.append((unit.link, offer.item_file, None))
    for m in walk.models:
        if m is not unit:
            holders.append((m.obj, m.file, m))
            if m.link is not None:
                holders.append((m.link, m.file, m))
    links: list[tuple[dict, DataFile, Model | None]] = []
    for obj, f, m in holders:
        links += [(c, f, m) for c in obj.get("categoryLinks") or [] if isinstance(c, dict) and not flag(c.get("hidden"))]
        links += [(c, cf, m) for c, cf in _modified_categories(out, obj, f, unit.scope)]
    removed = {str(c.get("targetId")) for c, _f, _m in links if c.get("$removed")}
    shown: dict[str, bool] = {}
    faction_keywords, keywords = [], []
    of_models: dict[int, set[str]] = {}
    for c, f, m in links:
        if c.get("$removed") or str(c.get("targetId")) in removed:
            continue
        target = out.index.find(f, str(c.get("targetId")), ("categoryEntry",)) if c.get("targetId") else None
        if target is not None and (flag(target.obj.get("hidden")) or _allied_budget(out, target.obj)):
            continue  # a bookkeeping category: the data hides it, or it counts allies' points
        if target is not None and not _shown_in_army(out, target, unit.scope, walk.gate, shown):
            continue
        cname = clean_name(str(c.get("name") or (target.obj.get("name") if target else "")))
        word = (cname[9:] if cname.startswith("Faction: ") else cname).upper()
        if not _KEYWORD.match(word):
            out.warn(f, c, "bad-keyword", f"category {cname!r} is not a keyword; left out",
                     expected="letters (accented ones too), digits, spaces, hyphens, apostrophes", found=cname)
            continue
        into = faction_keywords if cname.startswith("Faction: ") else keywords
        if m is not None and into is keywords:
            of_models.setdefault(id(m), set()).add(word)
        if word not in into:
            into.append(word)
            out.categories.setdefault((f.ruleset, word), []).append((f, c, cname.startswith("Faction: ")))
    return keywords, faction_keywords, of_models


_LEGENDS = re.compile(r"\s*\[legends\]\s*", re.I)


def legends_name(name: str) -> tuple[str, bool]:
    """A datasheet's printed name and whether it is of Legends: BattleScribe marks those 'Name [Legends]'."""
    bare = _LEGENDS.sub(" ", name).strip()
    return (bare, True) if bare != name.strip() and bare else (name, False)


def _shown_in_army(out: Output, target, scope: Scope, gate: tuple[str, ...], memo: dict[str, bool]) -> bool:
    """Whether a category is shown in the unit's army with nothing else chosen, or with only what
    the unit itself needs (its gate); what a detachment shows is reported, grouped."""
    key = str(target.obj.get("id", ""))
    if key not in memo:
        wanted = conditions.unlocked_by((target.obj,), scope, out.is_choice)
        memo[key] = not wanted or any(x in gate for x in wanted)
        if not memo[key]:
            needs = [out.index.name(x) for x in wanted]
            name = clean_name(str(target.obj.get("name", "")))
            out.group("hidden-entry", "a keyword shown only with a detachment", target.file, target.obj,
                      f"category {name!r} is shown only with {' or '.join(needs)} chosen; not a keyword of the "
                      "datasheets that carry it", name)
    return memo[key]


_ALLIED = re.compile(r"\ballie[sd]\b", re.I)


def _allied_budget(out: Output, category: dict) -> bool:
    """Whether a category is an allied contingent's points budget ('Harlequin Allies', 'Allied Units':
    at most 500 points of them in an army), which no datasheet prints; a faction's own budget
    category ('Faction: Drukhari' among Aeldari) and a real keyword with a budget ('Damned') are kept
    by the name's test."""
    return bool(_ALLIED.search(str(category.get("name", "")))) and any(
        isinstance(c, dict) and str(c.get("field")) in out.pts for c in category.get("constraints") or [])


def _modified_categories(out: Output, obj: dict, data: DataFile, scope: Scope) -> list[tuple[dict, DataFile]]:
    """Categories an entry's modifiers add or remove where their conditions hold in the army."""
    found = []
    if not conditions.has_modifiers(obj):
        return found
    for mod in conditions.modifiers(obj):
        if mod.field != "category" or mod.type not in ("add", "remove") or not mod.applies(scope):
            continue
        key = str(mod.mod.get("value", ""))
        hit = out.index.anywhere.get(key)
        name = str(hit[1].get("name", "")) if hit else ""
        link = {"targetId": key, "name": name, "$line": mod.mod.get("$line", obj.get("$line", 1)), "id": key}
        if mod.type == "remove":
            link["$removed"] = True
        found.append((link, hit[2] if hit else data))
    return found


def _models(out: Output, walk: Walk, keywords: list[str], of_models: dict[int, set[str]]) -> list[dict]:
    """One model per model kind, each with its own invulnerable save (else the unit's) and the
    keywords of its own (``_own_keywords``)."""
    unit = walk.unit
    owners = [m for m in walk.models if m is not unit] or [unit]
    if unit.obj.get("type") == "model":
        owners = [unit]
    by_owner: dict[int, list] = {}
    for f in walk.profiles:
        if f.profile.get("typeName") == "Unit":
            by_owner.setdefault(id(f.owner), []).append(f)
    invs = invulnerables(walk)
    models: list[dict] = []
    owners_of: list[list[Model]] = []  # the model entries each profile stands for

    def add(model: dict | None, owner: Model) -> None:
        if not model:
            return
        if model in models:
            owners_of[models.index(model)].append(owner)
        else:
            models.append(model)
            owners_of.append([owner])

    shared = False  # whether a model without a Unit profile of its own stands for the unit's
    for owner in owners:
        shared |= owner is unit or not by_owner.get(id(owner))
        for f in by_owner.get(id(owner)) or by_owner.get(id(unit)) or []:
            add(_model(out, f, model_invulnerable(invs, owner, unit)), owner)
    if not shared:
        # the unit's own Unit profiles where every model has its own: models the unit may come to hold
        # (Pink Horrors' 'Blue/Brimstone Horror (ref. only)', which its Split ability adds), as its
        # '(ref. only)' weapons are its weapons
        for f in by_owner.get(id(unit)) or []:
            add(_model(out, f, model_invulnerable(invs, unit, unit)), unit)
    for f in walk.profiles:  # a Unit profile of a model not counted above (held by wargear)
        if f.profile.get("typeName") == "Unit" and id(f.owner) not in {id(o) for o in owners} and f.owner is not unit:
            add(_model(out, f, model_invulnerable(invs, f.owner, unit)), f.owner)
    _own_keywords(models, owners_of, keywords, of_models)
    return models


def _own_keywords(models: list[dict], owners_of: list[list[Model]], keywords: list[str],
                  of_models: dict[int, set[str]]) -> None:
    """A keyword the data gives some model entries and not others is those models' own, even
    where the unit's entry lists it too (the Tempestor Prime's Character, and the unit's, in a
    Command Squad of Tempestus Scions); one no model entry repeats is everyone's (Ghazghkull
    Thraka's Character, on the unit alone: Makari is one too). A profile has a keyword of its
    own when every entry it stands for has it."""
    if len(models) < 2:
        return
    own = [set.intersection(*(of_models.get(id(o), set()) for o in group)) for group in owners_of]
    for model, mine in zip(models, own):
        specific = [k for k in keywords if k in mine and any(k not in other for other in own)]
        if specific:
            model["keywords"] = specific


def _model(out: Output, found, invulnerable: tuple[int, str | None] | None) -> dict | None:
    profile = found.profile
    chars, pending = characteristics_in(profile, found.scope)
    name = clean_name(found.shown)
    for mod in pending:
        report_pending(out, found, name, mod)
    # Aircraft: '20+"' in the data, '20"+' as printed.
    chars["M"] = re.sub(r'^(\d+)\+(["”″])$', r"\1\2+", chars.get("M", "-"))
    try:
        model = {"name": name, "M": parse_inches(chars.get("M", "-"), "M"),
                 "T": parse_int(chars.get("T", ""), "T"), "Sv": parse_plus(chars.get("SV", ""), "Sv"),
                 "W": parse_int(chars.get("W", ""), "W"), "Ld": parse_plus(chars.get("LD", "-"), "Ld", allow_none=True),
                 "OC": None if chars.get("OC", "-") in ("-", "") else parse_int(chars["OC"], "OC")}
    except ValueError as exc:
        out.warn(found.file, profile, "bad-characteristic", f"unit profile {profile.get('name')!r}: {exc}; model left out",
                 expected="M, T, SV, W, LD, OC values", found=", ".join(f"{k}={v}" for k, v in chars.items()))
        return None
    inv = chars.get("INSV", "")
    if re.fullmatch(r"\d\+?", inv):
        model["invulnerable"] = int(inv[0])
    elif invulnerable is not None:
        model["invulnerable"] = invulnerable[0]
        if invulnerable[1]:
            model["invulnerable_text"] = invulnerable[1]
    return model


def led_by(out: Output) -> None:
    """A unit a leader names is led by that leader (the data states only one side)."""
    derive_led_by([record for record, _p in out.records])


__all__ = ["Bearer", "Model", "datasheet", "led_by"]
