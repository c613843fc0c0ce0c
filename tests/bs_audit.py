"""A second, independent reading of BattleScribe catalogues, to audit a build's datasheets.

It does not use the reader (``warscribe.extract.battlescribe``): it reads the XML with
``xml.etree`` and works out, for a seeded random sample of the units the armies offer,
what a player reads on each datasheet, in its own simpler way: the faction keywords and
keywords (the categories of the unit, its link and its models), the models with their
characteristics and invulnerable saves, every weapon profile (with the modifiers that
say 'BS 2+ when the bearer is a Captain'), the abilities (without what only another army
or a chosen detachment shows), the leader list, the unit's size and its points at each
size, and its transport capacity. Each field of each sampled datasheet that differs from the build is an error.

Run by tests/formats/test_battlescribe_audit.py on the 10e snapshot; as a script it
audits any build folder, which is how the error rate of another version is measured:

    python tests/bs_audit.py OUT_FOLDER ../shared/bsdata/wh40k-10e-801555b.tar.xz [N]

(N datasheets, 80 unless given; 0: every datasheet of the game.)
"""

from __future__ import annotations

import json
import random
import re
import sys
import tarfile
import unicodedata
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path

SAMPLE = 80
SEED = 19
FACTIONS = {"Agents of the Imperium": "Imperial Agents", "Adeptus Astartes": "Space Marines",
            "Heretic Astartes": "Chaos Space Marines", "Asuryani": "Aeldari", "Legiones Daemonica": "Chaos Daemons"}
# 'Warlord' is the roster's choice of its warlord, named so alone: a word of a weapon's name is not
# (a Warlord Titan's 'Warlord feet' are its weapon)
BOOKKEEPING = re.compile(r"\bcrusade\b|enhancement|^\s*warlord\s*$|battle honour|battle scar|weapon modification|"
                         r"requisition|detachment|show/hide|order of battle", re.I)
WEAPON_RULES = {"lethal hits", "sustained hits", "devastating wounds", "anti", "assault", "heavy", "rapid fire",
                "torrent", "twin-linked", "pistol", "melta", "blast", "precision", "ignores cover", "lance",
                "hazardous", "indirect fire", "extra attacks", "one shot", "psychic", "conversion"}
VALUED_CORE = {"feel no pain", "scouts", "deadly demise", "firing deck"}  # printed with a value: 'Feel No Pain 4+'


def clean(text: str) -> str:
    return re.sub(r"\s+", " ", text.replace("\u2011", "-").replace("\u00a0", " ")).strip()


def slug(text: str) -> str:
    text = unicodedata.normalize("NFKD", text.replace("’", "").replace("'", "")).encode("ascii", "ignore").decode()
    return re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-").lower() or "unnamed"


class Data:
    """Every element of every catalogue by id, with its file; namespaces stripped."""

    def __init__(self, archive: Path):
        self.roots: dict[str, ET.Element] = {}
        self.by_id: dict[str, tuple[ET.Element, str]] = {}
        with tarfile.open(archive) as tf:
            for member in sorted(tf.getmembers(), key=lambda m: m.name):
                if member.isfile() and member.name.endswith((".cat", ".gst")):
                    root = ET.fromstring(tf.extractfile(member).read())
                    for el in root.iter():
                        el.tag = el.tag.rsplit("}", 1)[-1]
                    name = member.name.rsplit("/", 1)[-1]
                    self.roots[name] = root
        for name, root in self.roots.items():  # definitions first (shared lists), then nested ones
            for el in root.iter():
                if el.get("id") and el.tag in ("selectionEntry", "selectionEntryGroup", "profile", "rule",
                                                "infoGroup", "categoryEntry") and el.get("id") not in self.by_id:
                    self.by_id[el.get("id")] = (el, name)
        self.catalogues = {root.get("id"): name for name, root in self.roots.items()}
        # The force a matched-play army is: the game system's own force that is neither hidden nor a
        # Crusade force ('Army Roster'). What is hidden in it (a Thousand Sons Chaos Spawn (Flesh
        # Change), which only a Crusade force's flesh-change makes) is no datasheet of the army.
        self.forces = {f.get("id") for root in self.roots.values() if root.tag == "gameSystem"
                       for f in kids(root, "forceEntries", "forceEntry")}
        self.matched = {f.get("id") for root in self.roots.values() if root.tag == "gameSystem"
                        for f in kids(root, "forceEntries", "forceEntry")
                        if f.get("hidden") != "true" and "crusade" not in f.get("name", "").casefold()}
        self.pts = {c.get("id") for root in self.roots.values() for c in root.iter("costType") if c.get("name") == "pts"}
        # The detachments: what a roster chooses for the whole army, never an ancestor of a unit.
        self.detachments = {e.get(k) for root in self.roots.values() for g in root.iter("selectionEntryGroup")
                            if g.get("name", "").strip().lower() in ("detachment", "detachments", "detachment choice")
                            for lst in ("selectionEntries", "entryLinks") for e in kids(g, lst, lst[:-3] + "y")
                            for k in ("id", "targetId") if e.get(k)}

    def serving(self, catalogue: str) -> list[str]:
        """A catalogue and those whose armies import its root entries (importRootEntries), however indirectly."""
        out, todo = [catalogue], [catalogue]
        while todo:
            here = todo.pop()
            for root in self.roots.values():
                if root.get("id") not in out and any(c.get("targetId") == here and c.get("importRootEntries") == "true"
                                                     for c in kids(root, "catalogueLinks", "catalogueLink")):
                    out.append(root.get("id"))
                    todo.append(root.get("id"))
        return out

    def target(self, link: ET.Element) -> ET.Element | None:
        hit = self.by_id.get(link.get("targetId", ""))
        return hit[0] if hit else None


def _all(parts: list) -> bool | None:
    return False if False in parts else None if None in parts else True


def kids(el: ET.Element, list_tag: str, tag: str):
    holder = el.find(list_tag)
    return [] if holder is None else holder.findall(tag)


def faction_of(title: str) -> str:
    return FACTIONS.get(title.rsplit(" - ", 1)[-1].strip(), title.rsplit(" - ", 1)[-1].strip())


def catalogue_faction(root: ET.Element) -> str:
    """The most common 'Faction: X' of a catalogue's entries, the one its title ends with first."""
    counts: dict[str, int] = {}
    for e in kids(root, "sharedSelectionEntries", "selectionEntry"):
        for c in kids(e, "categoryLinks", "categoryLink"):
            if (c.get("name") or "").startswith("Faction: "):
                counts[c.get("name")[9:]] = counts.get(c.get("name")[9:], 0) + 1
    title = root.get("name", "")
    if not counts:
        return faction_of(title)
    best = max(sorted(counts), key=lambda n: (title.rsplit(" - ", 1)[-1].strip() == n, n in title, counts[n]))
    return FACTIONS.get(best, best)


@dataclass
class Expected:
    id: str
    where: str  # catalogue file and link id
    keywords: set[str] = field(default_factory=set)
    faction_keywords: set[str] = field(default_factory=set)
    models: dict[str, tuple] = field(default_factory=dict)  # profile name -> characteristics
    invulnerable: dict[str, int] = field(default_factory=dict)  # model profile name -> save
    name: str = ""  # as printed: without BattleScribe's ' [Legends]'
    legends: bool = False
    conditional: dict[str, set[str]] = field(default_factory=dict)  # wargear ability -> the choices it needs
    weapons: set[tuple] = field(default_factory=set)
    abilities: set[str] = field(default_factory=set)
    leader: set[str] = field(default_factory=set)
    transport: set[str] = field(default_factory=set)  # the Transport profiles' texts
    size: tuple[int, int] = (1, 1)
    sizes: list | None = None  # (choices taken, unit size) where the player picks the unit's size
    points: list[tuple[int, int]] | None = None  # None: the audit does not judge this unit's price


def _number(text: str) -> int | None:
    m = re.search(r"-?\d+", text or "")
    return int(m.group()) if m else None


def _chars(profile: ET.Element) -> dict[str, str]:
    return {c.get("name", "").upper(): (c.text or "").strip() for c in kids(profile, "characteristics", "characteristic")}


def _own_modifiers(el: ET.Element, outer: list | None = None):
    """(modifier, the conditions of the groups around it) for the modifiers of `el` itself, not
    those of what it holds (a rule linked inside a weapon hides the rule, not the weapon)."""
    outer = outer or []
    for mod in kids(el, "modifiers", "modifier"):
        yield mod, outer
    for grp in kids(el, "modifierGroups", "modifierGroup"):
        yield from _own_modifiers(grp, outer + [c for c in grp.findall("conditions/condition")])


class Unit:
    """One unit as one army offers it, read the audit's way."""

    def __init__(self, data: Data, army: ET.Element, link: ET.Element, target: ET.Element):
        self.data, self.army, self.link, self.target = data, army, link, target
        self.cats = {c.get("targetId") for el in (target, link) for c in kids(el, "categoryLinks", "categoryLink")}
        self.cats.add(target.get("id"))
        # the choices the army offers the unit only with (a Chaos Lord among Chaos Daemons: the Shadow
        # Legion detachment): made wherever the unit is, so what they show (its Disciples of Be'lakor) is its
        self.gate = needs(data, target, ids=True) | needs(data, link, ids=True)
        # Categories the unit's own choices add to it (a Kinhost Commander's Exoframe specialism adds
        # EXOFRAME, a Front-line Commander's Noble Steed MOUNTED): whether it is one depends on that
        # choice. Only its own: a Sentinel Commander, which nothing makes MOUNTED, has no lance.
        self.adds: set[str] = set()
        self.via: dict[tuple[int, int], list[ET.Element]] = {}
        for _ in range(8):  # an upgrade offered only to what another makes the unit: read again
            found = self._adds(target, frozenset(self.cats), set()) | self._adds(link, frozenset(self.cats), set())
            if found <= self.adds:
                break
            self.adds |= found
        self.via: dict[tuple[int, int], list[ET.Element]] = {}  # (holder, entry) -> the links between
        self.profiles: list[tuple[ET.Element, frozenset, str]] = []  # (profile, ancestors' ids, owner model)
        self.gear: list[tuple[str, frozenset]] = []  # per profile: the wargear holding it, what that wargear needs
        self.needs: dict[str, set[str]] = {}  # wargear name -> the names of the choices it is offered only with
        self.rules: list[str] = []
        self.linked: list[tuple[int, ET.Element, ET.Element]] = []  # (place in rules, link, rule) to name
        self.taken: set[str] = set()  # the ids of every entry the unit is offered
        self.models: list[ET.Element] = []
        self.seen: set[int] = set()
        self._walk(target, frozenset(self.cats), "", 0, wargear=False)
        self._walk(link, frozenset(self.cats), "", 0, wargear=False)
        for at, lk, t in self.linked:
            self.rules[at] = self._named(lk, t)

    def _named(self, link: ET.Element, rule: ET.Element) -> str:
        """A linked rule's name as a player reads it: its unconditional name modifiers, and those that ask
        only whether the unit took an upgrade it is never offered ('Deadly Demise' + 'D3' unless it took
        an Armoured Shell, which a Genestealer Cults army never offers its Macro Organism). Where an
        offered choice decides, the name as linked."""
        name = _shown(link, rule)
        for mod in kids(link, "modifiers", "modifier"):
            conds = list(mod.iter("condition"))
            if mod.get("field") != "name" or mod.get("type") not in ("set", "append") or not conds \
                    or mod.find("conditionGroups/conditionGroup[@type='or']") is not None:
                continue
            results = []
            for c in conds:
                entry = self.data.by_id.get(c.get("childId") or "")
                never = c.get("field") == "selections" and entry is not None and entry[0].tag == "selectionEntry" \
                    and c.get("childId") not in self.taken and c.get("scope") not in ("roster", "force")
                test = (c.get("type"), c.get("value"))
                results.append(None if not never else True if test in (("lessThan", "1"), ("equalTo", "0"))
                               else False if test in (("atLeast", "1"), ("greaterThan", "0")) else None)
            if _all(results) is True:
                name = mod.get("value", "") if mod.get("type") == "set" else \
                    f"{name}{mod.get('join', ' ')}{mod.get('value', '')}"
        return name

    def _offered(self, el: ET.Element, ancestors: frozenset) -> list[ET.Element]:
        """The entries and groups `el` holds or links that the unit may be offered (bookkeeping and
        what is hidden from it left out)."""
        children = kids(el, "selectionEntries", "selectionEntry") + kids(el, "selectionEntryGroups", "selectionEntryGroup")
        for lk in kids(el, "entryLinks", "entryLink"):
            t = self.data.target(lk)
            if t is not None and not any(BOOKKEEPING.search(x) for x in (lk.get("name", ""), t.get("name", ""))) \
                    and not self._hidden(lk, ancestors, choice=True):
                children.append(t)
                self.via.setdefault((id(el), id(t)), []).append(lk)
        return [c for c in children if not BOOKKEEPING.search(c.get("name", "")) and
                not self._hidden(c, ancestors, choice=True)]

    def _with_links(self, parent: ET.Element, el: ET.Element) -> list[ET.Element]:
        """`el` and the links of `parent` that reach it: what a link holds itself (a Wulfen Dreadnought's
        blizzard shield, linked, holds its own choice of a storm bolter or a heavy flamer) is offered with it."""
        return [el] + [lk for lk in self.via.get((id(parent), id(el)), []) if kids(lk, "selectionEntries", "selectionEntry")
                       or kids(lk, "selectionEntryGroups", "selectionEntryGroup") or kids(lk, "entryLinks", "entryLink")]

    def _adds(self, el: ET.Element, ancestors: frozenset, seen: set) -> set[str]:
        """The categories the upgrades the unit is offered (through groups and links, as the walk goes)
        add, with the categories `self.adds` already found."""
        if id(el) in seen or len(seen) > 5000:
            return set()
        seen.add(id(el))
        out = set()
        for c in self._offered(el, ancestors):
            if c.get("type") == "upgrade":
                out |= {m.get("value") for m, _o in _own_modifiers(c)
                        if m.get("field") == "category" and m.get("type") == "add"}
            ids = {c.get("id")} | {x.get("targetId") for x in kids(c, "categoryLinks", "categoryLink")}
            for x in self._with_links(el, c):
                out |= self._adds(x, ancestors | ids, seen)
        return out

    def _add(self, profile: ET.Element, ancestors: frozenset, owner: str, gear: tuple[str, frozenset]) -> None:
        self.profiles.append((profile, ancestors, owner))
        self.gear.append(gear)

    def _hidden(self, el: ET.Element, ancestors: frozenset = frozenset(), choice: bool = False) -> bool:
        """Hidden outright, or by conditions all known here; `choice`: a unit's wargear, offered if any
        roster could show it (what a detachment unlocks is still wargear of the datasheet)."""
        # offered only with a choice (a detachment, a chapter): wargear with its condition, unless
        # another test hides it anyway (a Blood Chalice: Blood Angels, and only a Champion of the Chapter)
        if el.get("hidden") == "true" and not (choice and needs(self.data, el) and self._may_take(el)):
            return True
        if choice and needs(self.data, el) and not self._may_take(el):
            return True  # offered only with a choice this unit never has (a Jetbike, for a Flesh Crafter)
        for mod, outer in _own_modifiers(el):
            if mod.get("field") != "hidden" or mod.get("value") != "true":
                continue
            # what another army shows, a detachment (roster choices), what the bearer is not: not this
            # datasheet's; an 'or' holds with one part known to hold (not a Champion of the Chapter,
            # whatever its chapter: no Curse of the Wulfen)
            if list(mod.iter("condition")) and \
                    _all([self._holds(mod, ancestors, choice)] + [self._army_condition(c, ancestors, choice) for c in outer]):
                return True
        return False

    def _may_take(self, el: ET.Element) -> bool:
        """Whether a choice `el` is offered only with may be taken in an army this datasheet serves: its
        own army and those importing its root entries (a Space Marines Crucible character serves a Blood
        Angels army too, where its Blood Angels chapter is offered), by what the unit is or may become
        (a Flesh Crafter, never an Archtormentor, never rides the Jetbike). A Daemonic Herald of the Death
        Guard never takes the Daemon of Blood specialism (hidden outside Khorne's and all gods'
        armies), so what only that shows (its Khorne abilities) is never its wargear."""
        wanted = [self.data.by_id.get(x) for x in needs(self.data, el, ids=True)]
        if not wanted or any(w is None for w in wanted):
            return True
        army = self.army
        try:
            for cat in self.data.serving(army.get("id", "")):
                self.army = ET.Element("catalogue", id=cat)
                if any(_all([self._holds(mod, frozenset(self.cats), True)] +
                            [self._army_condition(c, frozenset(self.cats), True) for c in outer]) is not True
                       for w, _f in wanted for mod, outer in _own_modifiers(w)
                       if mod.get("field") == "hidden" and mod.get("value") == "true") or \
                        any(not any(mod.get("field") == "hidden" and mod.get("value") == "true" for mod, _o in _own_modifiers(w))
                            for w, _f in wanted):
                    return True
        finally:
            self.army = army
        return False

    def _holds(self, node: ET.Element, ancestors: frozenset, choice: bool) -> bool | None:
        """A modifier's or condition group's conditions, three-valued (None: not known here)."""
        parts = [self._army_condition(c, ancestors, choice) for c in kids(node, "conditions", "condition")]
        parts += [self._holds(g, ancestors, choice) for g in kids(node, "conditionGroups", "conditionGroup")]
        if node.tag == "conditionGroup" and node.get("type") == "or":
            return True if True in parts else None if None in parts else False
        return _all(parts)

    def _army_condition(self, c: ET.Element, ancestors: frozenset = frozenset(), choice: bool = False) -> bool | None:
        child = self.data.by_id.get(c.get("childId") or "")
        if c.get("scope") == "ancestor" and c.get("type") in ("instanceOf", "notInstanceOf") and child is not None \
                and child[0].tag == "categoryEntry":
            if c.get("childId") not in ancestors and c.get("childId") in self.adds and choice:
                return None  # a category the unit's own choice may add
            return (c.get("childId") in ancestors) == (c.get("type") == "instanceOf")
        if c.get("scope") in ("root-entry", "unit") and c.get("type") in ("instanceOf", "notInstanceOf") \
                and child is not None and child[0].tag == "categoryEntry":
            # what the unit is (an Augmented Bone 'Ead, a Sentinel Commander: Crucible characters share
            # one weapons list, each weapon hidden from who is not its bearer)
            if c.get("childId") not in self.cats and c.get("childId") in self.adds and choice:
                return None
            return (c.get("childId") in self.cats) == (c.get("type") == "instanceOf")
        if c.get("scope") == "ancestor" and c.get("type") in ("instanceOf", "notInstanceOf") \
                and c.get("childId") in self.data.detachments:
            return c.get("type") == "notInstanceOf"  # no unit is inside its army's detachment
        if c.get("scope") == "force" and c.get("type") in ("instanceOf", "notInstanceOf") \
                and c.get("childId") in self.data.forces:
            return (c.get("childId") in self.data.matched) == (c.get("type") == "instanceOf")
        if c.get("scope") == "primary-catalogue":
            hit = c.get("childId") == self.army.get("id")
            return hit if c.get("type") == "instanceOf" else not hit if c.get("type") == "notInstanceOf" else None
        if c.get("scope") in ("roster", "force") and c.get("field") == "selections" and c.get("childId") in self.gate \
                and (c.get("type"), c.get("value")) in (("lessThan", "1"), ("equalTo", "0"), ("atLeast", "1")):
            return c.get("type") == "atLeast"
        if c.get("scope") in ("roster", "force") and c.get("field") == "selections" and choice:
            return None
        if c.get("scope") in ("roster", "force") and c.get("field") == "selections" \
                and (c.get("type"), c.get("value")) in (("lessThan", "1"), ("equalTo", "0")) and c.get("childId") in self.data.by_id \
                and self.data.by_id[c.get("childId")][0].get("type") == "upgrade":
            return True  # a detachment (or another choice of the roster) not made
        if c.get("field") == "forces" and c.get("type") == "lessThan":
            return True  # not a Crusade force
        return None

    def _walk(self, el: ET.Element, ancestors: frozenset, owner: str, depth: int, wargear: bool,
              gear: tuple[str, frozenset] = ("", frozenset())) -> None:
        if depth > 30 or (id(el), owner, gear[0]) in self.seen:
            return
        self.seen.add((id(el), owner, gear[0]))
        weapon = any(p.get("typeName") in ("Ranged Weapons", "Melee Weapons") for p in kids(el, "profiles", "profile"))
        for p in kids(el, "profiles", "profile"):
            if not self._hidden(p, ancestors):
                self._add(p, ancestors, owner if not wargear or p.get("typeName") == "Unit" else "wargear", gear)
        for r in kids(el, "rules", "rule"):
            if not weapon and not self._hidden(r, ancestors):
                self.rules.append(r.get("name", ""))
        for g in kids(el, "infoGroups", "infoGroup"):
            if not self._hidden(g, ancestors):
                self._walk(g, ancestors, owner, depth + 1, wargear, gear)
        for lk in kids(el, "infoLinks", "infoLink"):
            t = self.data.target(lk)
            if t is None or self._hidden(lk, ancestors) or self._hidden(t, ancestors):
                continue
            if t.tag == "rule" and not weapon:
                self.rules.append(_shown(lk, t))
                self.linked.append((len(self.rules) - 1, lk, t))
            elif t.tag == "profile":
                self._add(_as_linked(lk, t), ancestors, owner if not wargear else "wargear", gear)
            elif t.tag == "infoGroup":
                self._walk(t, ancestors, owner, depth + 1, wargear, gear)
        for c in self._offered(el, ancestors):
            self.taken.add(c.get("id"))
            ids = {c.get("id")} | {x.get("targetId") for x in kids(c, "categoryLinks", "categoryLink")}
            if c.get("type") == "model":
                self.models.append(c)
                for x in self._with_links(el, c):
                    self._walk(x, ancestors | ids, c.get("name", ""), depth + 1, False)
            elif c.get("type") == "upgrade":
                wanted = frozenset(needs(self.data, c)) | gear[1]
                if wanted:
                    self.needs.setdefault(c.get("name", "").casefold(), set()).update(wanted)
                for x in self._with_links(el, c):
                    self._walk(x, ancestors | ids, owner, depth + 1, True, (c.get("name", ""), wanted))
            else:
                for x in self._with_links(el, c):
                    self._walk(x, ancestors | ids, owner, depth + 1, wargear, gear)


def needs(data: Data, el: ET.Element, ids: bool = False) -> set[str]:
    """The names of the choices an entry (or category) is offered only with: hidden unless one of them is
    selected in the roster, the force or the unit itself (a detachment: Pantheon of Woe; a chapter of a
    Crucible character: Space Wolves). Read two ways: hidden outright and shown when one is selected;
    or hidden when none is (a lone condition, or one of an 'or' whose other parts ask what the bearer is)."""
    out: set[str] = set()
    # 'parent': the model or unit holding a group shown with one of its own choices (a Daemonic
    # Herald's Nurgle abilities, shown with its Daemon of Plague specialism)
    scopes = ("roster", "force", "root-entry", "unit", "parent")

    def name(child: str) -> str | None:
        hit = data.by_id.get(child)
        return (child if ids else hit[0].get("name")) if hit is not None and hit[0].get("type") == "upgrade" else None

    for mod, outer in _own_modifiers(el):
        if mod.get("field") != "hidden":
            continue
        # a Crusade force's test ('the force is not a Crusade force') holds in matched play
        conds = [c for c in list(mod.iter("condition")) + outer if c.get("field") != "forces"]
        if el.get("hidden") == "true" and mod.get("value") == "false" and conds:
            picked = [name(c.get("childId", "")) for c in conds if c.get("scope") in scopes
                      and c.get("field") == "selections" and c.get("type") in ("atLeast", "greaterThan")
                      and c.get("value") in ("1", "0") and (c.get("type") == "greaterThan") == (c.get("value") == "0")]
            if picked and all(picked) and len(picked) == len(conds):
                out |= set(picked)
        elif el.get("hidden") != "true" and mod.get("value") == "true" and conds:
            missing = [name(c.get("childId", "")) for c in conds if c.get("scope") in scopes
                       and c.get("field") == "selections" and (c.get("type"), c.get("value")) in
                       (("lessThan", "1"), ("equalTo", "0"))]
            group = next(iter(mod.iter("conditionGroup")), None)
            alone = len(conds) == 1 or (group is not None and group.get("type") == "or" and all(
                c.get("scope") == "ancestor" for c in conds if name(c.get("childId", "")) is None))
            if missing and all(missing) and alone and len(missing) == 1:
                out |= set(missing)
    return out


def _shown(link: ET.Element, target: ET.Element, name: str | None = None) -> str:
    """A link's name (or `name`) as its unconditional name modifiers make it ('Deadly Demise' + ' D3')."""
    name = name or link.get("name") or target.get("name", "")
    for mod in kids(link, "modifiers", "modifier"):
        if mod.get("field") == "name" and not list(mod.iter("condition")):
            if mod.get("type") == "set":
                name = mod.get("value", "")
            elif mod.get("type") == "append":
                name = f"{name}{mod.get('join', ' ')}{mod.get('value', '')}"
    return name


def _as_linked(link: ET.Element, profile: ET.Element) -> ET.Element:
    """A profile as a link shows it: named as the link's unconditional name modifiers say (a Cadian
    Recon Squad's models link the squad's profile as 'Recon Sergeant' and 'Recon Trooper')."""
    shown = _shown(link, profile, profile.get("name", ""))
    if shown == profile.get("name", ""):
        return profile
    copy = ET.Element(profile.tag, dict(profile.attrib, name=shown))
    copy.extend(list(profile))
    return copy


def _modified(profile: ET.Element, ancestors: frozenset) -> dict[str, str]:
    """A profile's characteristics with its modifiers whose only conditions ask what the bearer is."""
    chars = _chars(profile)
    names = {c.get("typeId"): c.get("name", "").upper() for c in kids(profile, "characteristics", "characteristic")}
    # with those of its modifier groups, each under its group's conditions too (a Lord Exultant's power
    # fist: 'A 5, WS 2+' in a group asking that the bearer is a Lord Exultant)
    for mod, outer in _own_modifiers(profile):
        name = names.get(mod.get("field"))
        conds = list(mod.iter("condition")) + outer
        if name is None or mod.get("type") != "set":
            continue
        if not conds and mod.find("repeats") is None:
            chars[name] = mod.get("value", "")  # always: what BattleScribe shows (a shield Custodian Guard's W 4)
            continue
        if not all(c.get("scope") == "ancestor" and c.get("type") in ("instanceOf", "notInstanceOf") for c in conds):
            continue
        results = [(c.get("childId") in ancestors) == (c.get("type") == "instanceOf") for c in conds]
        group = next(iter(mod.iter("conditionGroup")), None)
        if any(results) if group is not None and group.get("type") == "or" else all(results):
            chars[name] = mod.get("value", "")
    return chars


def _bounds(el: ET.Element, link: ET.Element | None = None, chosen: set[str] | None = None,
            choices: set[str] = frozenset()) -> tuple[int, int | None]:
    """An entry's least and most selections in the unit; with `chosen`, as the modifiers that
    ask only which of `choices` (a unit's size choices) the player took set them."""
    lo, hi = 0, None
    source = link if link is not None and kids(link, "constraints", "constraint") else el
    ids = {}
    for c in kids(source, "constraints", "constraint"):
        if c.get("field") == "selections" and c.get("scope") not in ("roster", "force"):
            if c.get("type") == "min":
                lo = int(float(c.get("value", "0")))
            elif c.get("type") == "max":
                hi = int(float(c.get("value", "0")))
            ids[c.get("id")] = c.get("type")
    if chosen is None:
        return lo, hi
    for holder in (el, link):
        for mod in kids(holder, "modifiers", "modifier") if holder is not None else []:
            conds = list(mod.iter("condition"))
            if mod.get("field") not in ids or mod.get("type") != "set" or not conds or \
                    not all(c.get("childId") in choices and c.get("value") == "1" and
                            c.get("type") in ("equalTo", "atLeast") for c in conds):
                continue
            results = [c.get("childId") in chosen for c in conds]
            group = mod.find("conditionGroups/conditionGroup")
            if any(results) if group is not None and group.get("type") == "or" else all(results):
                value = int(float(mod.get("value", "0")))
                lo, hi = (value, hi) if ids[mod.get("field")] == "min" else (lo, value)
    return lo, hi


def _holds_models(data: Data, el: ET.Element, depth: int = 0) -> bool:
    if depth > 6:
        return False
    for c in kids(el, "selectionEntries", "selectionEntry") + kids(el, "selectionEntryGroups", "selectionEntryGroup"):
        if c.get("type") == "model" or _holds_models(data, c, depth + 1):
            return True
    for lk in kids(el, "entryLinks", "entryLink"):
        t = data.target(lk)
        if t is not None and (t.get("type") == "model" or (t.get("type") != "upgrade" and _holds_models(data, t, depth + 1))):
            return True
    return False


def _models_of_group(data: Data, g: ET.Element) -> bool:
    """Whether a group's own selections include models: held in it, or in the groups it holds (an
    Indomitor Kill Team's 'Squad Members', 10 models, are in three groups of their own inside it: a
    group counts the selections of the groups it holds, not those inside what it holds)."""
    return any(e.get("type") == "model" for e in kids(g, "selectionEntries", "selectionEntry")) or \
        any((data.target(lk) or lk).get("type") == "model" for lk in kids(g, "entryLinks", "entryLink")) or \
        any(_models_of_group(data, sub) for sub in kids(g, "selectionEntryGroups", "selectionEntryGroup"))


def _add_hi(a: int | None, b: int | None) -> int | None:
    return None if a is None or b is None else a + b


def _models_in(data: Data, el: ET.Element, chosen: set[str], choices: set[str]) -> tuple[int, int | None]:
    """The fewest and most models an entry or group holds: its models' bounds within its own. The most
    is None where nothing bounds it: a model with no maximum of its own (Celestian Sacresants, Agamatus
    Custodians: the models are linked bare into a group of 4 to 9 or 3 to 6) is as many as the group
    around it allows, so only the group's maximum bounds it; read as its minimum, such a unit had one model."""
    lo, hi = 0, 0
    # a count that gives way one for one to other models ('9 Wolf Scouts, one fewer for each Wolf Scout
    # with a special weapon': a decrement repeated per selection of those): the unit's total is that
    # count's, the others taken out of it, so their own bounds add nothing
    traded: dict[str, set[str]] = {"min": set(), "max": set()}
    for e in kids(el, "selectionEntries", "selectionEntry") + kids(el, "entryLinks", "entryLink"):
        own = {c.get("id"): c.get("type") for c in kids(e, "constraints", "constraint")}
        for mod in kids(e, "modifiers", "modifier"):
            reps = mod.findall("repeats/repeat")
            if mod.get("type") == "decrement" and mod.get("value") == "1" and own.get(mod.get("field")) in traded \
                    and reps and all(r.get("value") == "1" and r.get("field") == "selections" for r in reps):
                traded[own[mod.get("field")]] |= {r.get("childId") for r in reps}

    def counted(e: ET.Element, a: int, b: int | None) -> tuple[int, int | None]:
        ids = {e.get("id"), e.get("targetId")}
        return (0 if ids & traded["min"] else a), (0 if ids & traded["max"] else b)

    for e in kids(el, "selectionEntries", "selectionEntry"):
        if e.get("type") == "model" and e.get("hidden") != "true":
            a, b = counted(e, *_bounds(e, None, chosen, choices))
            lo, hi = lo + a, _add_hi(hi, b)
        elif e.get("type") == "upgrade" and e.get("id") in chosen:
            a, b = _models_in(data, e, chosen, choices)
            lo, hi = lo + a, _add_hi(hi, b)
    for lk in kids(el, "entryLinks", "entryLink"):
        t = data.target(lk)
        if t is not None and t.get("type") == "model":
            a, b = counted(lk, *_bounds(t, lk, chosen, choices))
            lo, hi = lo + a, _add_hi(hi, b)
    for g in kids(el, "selectionEntryGroups", "selectionEntryGroup"):
        if not _holds_models(data, g):
            continue
        a, b = _models_in(data, g, chosen, choices)
        glo, ghi = _bounds(g, None, chosen, choices)
        taken = sum(1 for e in kids(g, "selectionEntries", "selectionEntry") if e.get("id") in chosen)
        if _models_of_group(data, g):
            # models of the group, bounded by it (a choice taken in it counts as one of its selections)
            own_lo = a - sum(_models_in(data, e, chosen, choices)[0] for e in kids(g, "selectionEntries", "selectionEntry")
                             if e.get("id") in chosen)
            extra = a - own_lo
            lo += max(own_lo, glo - taken) + extra
            tops = [x for x in (None if b is None else b - extra, None if ghi is None else ghi - taken) if x is not None]
            hi = _add_hi(hi, min(tops) + extra if tops else None)
        else:
            lo, hi = lo + a, _add_hi(hi, b)
    return lo, hi


def _size(data: Data, unit: ET.Element) -> tuple[tuple[int, int], list[int] | None]:
    """The fewest and most models, and where the player picks the unit's size from a group
    ('5 models' or '10 models'), the sizes that gives."""
    if unit.get("type") == "model":
        return (1, 1), None
    # groups of choices that hold models: one of each is taken (or none, where the group may be empty)
    groups = []
    for g in unit.iter("selectionEntryGroup"):
        alts = [e.get("id") for e in kids(g, "selectionEntries", "selectionEntry")
                if e.get("type") == "upgrade" and _holds_models(data, e)]
        if alts:
            optional = _bounds(g)[0] < 1 or any(e.get("type") == "model" for e in kids(g, "selectionEntries", "selectionEntry"))
            groups.append(alts + ([None] if optional else []))
    choices = {a for alts in groups for a in alts if a}
    totals = []
    for combo in __import__("itertools").product(*groups):
        totals.append(_models_in(data, unit, {c for c in combo if c}, choices))
    # nothing bounds the most (a model of the unit with no maximum): read as its least, as before
    totals = [(a, a if b is None else b) for a, b in totals]
    lo, hi = min(t[0] for t in totals), max(t[1] for t in totals)
    combos = [({c for c in combo if c}, t[0]) for combo, t in zip(__import__("itertools").product(*groups), totals)]
    sizes = combos if groups and all(a == b for a, b in totals) else None
    return ((lo, hi) if hi else (1, 1)), sizes


def _points(data: Data, unit: ET.Element, link: ET.Element, pts: set[str], size: tuple[int, int], sizes=None):
    """Price per band of sizes, where every cost modifier asks only how many models the unit has
    (or, where the player picks the unit's size from a group, which choice was taken)."""
    choices = {c for chosen, _n in sizes or [] for c in chosen}
    base = None
    for el in (link, unit):
        for c in kids(el, "costs", "cost"):
            if c.get("typeId") in pts and base is None:
                base = float(c.get("value", "0"))
    mods = [m for el in (unit, link) for m in el.findall("modifiers/modifier") if m.get("field") in pts]
    if base is None or unit.find("modifierGroups") is not None and any(
            m.get("field") in pts for m in unit.iter("modifier") if m not in mods):
        return None
    rules = []
    for m in mods:
        conds = list(m.iter("condition"))
        if m.find("repeats") is not None or m.find("conditionGroups") is not None or len(conds) != 1:
            return None
        c = conds[0]
        if c.get("childId") not in {"model"} | choices or c.get("field") != "selections":
            return None
        rules.append((m.get("type"), float(m.get("value", "0")), c.get("type"), float(c.get("value", "0")),
                      c.get("childId")))
    if any(e.get("type") == "model" and kids(e, "costs", "cost") and
           any(float(c.get("value", "0")) for c in kids(e, "costs", "cost") if c.get("typeId") in pts)
           for e in unit.iter("selectionEntry") if e is not unit):
        return None  # models that carry their own cost
    tests = {"atLeast": lambda n, v: n >= v, "greaterThan": lambda n, v: n > v, "equalTo": lambda n, v: n == v,
             "atMost": lambda n, v: n <= v, "lessThan": lambda n, v: n < v}

    def price(n: int, chosen: set[str] = frozenset()) -> int:
        value = base
        for kind, v, test, threshold, child in rules:
            if tests[test](n if child == "model" else float(child in chosen), threshold):
                value = v if kind == "set" else value + v if kind == "increment" else value - v
        return int(value)

    if sizes is not None:
        priced = sorted({(n, price(n, chosen)) for chosen, n in sizes})
        return priced if len({n for n, _p in priced}) == len(priced) else None
    lo, hi = size
    prices = [(n, price(n)) for n in range(lo, hi + 1)]
    if not prices:
        return None  # bounds that leave no size: the size check reports it
    bands = []
    for i, (n, p) in enumerate(prices):
        last = i == len(prices) - 1
        if last or prices[i + 1][1] != p:
            bands.append([n, p])
    bands[0][0] = lo
    return [tuple(b) for b in bands]


def _leader_units(text: str) -> set[str]:
    units: set[str] = set()
    # a no-break space inside a name ('Bladeguard Veteran\u00a0Squad') is a space to a reader
    text = text.replace("\u00a0", " ")
    lines = [ln.strip() for ln in text.replace("**", "").replace("^^", "").splitlines() if ln.strip()]
    for ln in lines[1:]:
        if ln[:1] in "■-•":
            units.add(ln[1:].strip().rstrip("*").strip().casefold())
    if not units and lines and ":" in lines[0]:
        listed = lines[0].split(":", 1)[1]
        if not listed.strip() and len(lines) > 1:
            listed = lines[1]  # the list on the next line, unbulleted (a Malignant Plaguecaster's)
        for part in re.split(r",|;|\band\b|\bor\b", listed):
            if part.strip().rstrip("."):
                units.add(part.strip().rstrip(".").rstrip("*").strip().casefold())
    return units


def _allied_budget(cat: ET.Element, data: Data) -> bool:
    """'Harlequin Allies', 'Allied Units': a limit on allies' points, not a printed keyword."""
    return re.search(r"\ballie[sd]\b", cat.get("name", ""), re.I) is not None and \
        any(c.get("field") in data.pts for c in cat.iter("constraint"))


def expected(data: Data, army_name: str, link: ET.Element) -> Expected | None:
    army = data.roots[army_name]
    target = data.target(link)
    if target is None or target.get("type") not in ("unit", "model") or link.get("hidden") == "true" \
            or target.get("hidden") == "true":
        return None
    unit = Unit(data, army, link, target)
    # hidden whatever the roster chooses (a Crusade force's unit, in a matched-play army); what a
    # detachment unlocks (Pink Horrors among Thousand Sons, with the Changehost of Deceit) is offered
    if unit._hidden(target, frozenset(unit.cats), choice=True) or unit._hidden(link, frozenset(unit.cats), choice=True):
        return None
    if not any(p.get("typeName") == "Unit" for p, _a, _o in unit.profiles):
        return None
    faction = catalogue_faction(army)
    out = Expected(f"{slug(faction)}/{slug(target.get('name', ''))}", f"{army_name} {link.get('id')}")
    out.name = clean(re.sub(r"\s*\[legends\]\s*", " ", target.get("name", ""), flags=re.I))
    out.legends = re.search(r"\[legends\]", target.get("name", ""), re.I) is not None
    # what the unit itself is offered only with (Chaos Daemons' Shadow Legion units): its categories
    # hidden by the same test are its own
    gated = needs(data, target) | needs(data, link)
    for el in [target, link] + unit.models:
        for c in kids(el, "categoryLinks", "categoryLink"):
            cat = data.by_id.get(c.get("targetId") or "")
            if cat is not None and (cat[0].get("hidden") == "true" or _allied_budget(cat[0], data)
                                    or not needs(data, cat[0]) <= gated):
                continue  # hidden, a points budget, or shown only with a detachment chosen
            name = c.get("name", "")
            if name.startswith("Faction: "):
                out.faction_keywords.add(name[9:].upper())
            else:
                out.keywords.add(name.upper())
    invulnerable: dict[str, int] = {}
    for (p, _anc, owner), (gear, wanted) in zip(unit.profiles, unit.gear):
        name = (p.get("name") or "").lower()
        text = " ".join(_chars(p).values())
        if p.get("typeName") == "Abilities" and re.match(r"invul?nerable save", name) and owner == "wargear" \
                and gear and re.search(r"\d\+", name + text):
            out.abilities.add(clean(gear).casefold())  # the save a wargear choice gives: that wargear's ability
            if wanted:
                out.conditional.setdefault(clean(gear).casefold(), set()).update(wanted)
        if p.get("typeName") == "Abilities" and re.match(r"invul?nerable save", name) and owner != "wargear":
            m = re.search(r"(\d)\+", p.get("name", "")) or re.search(r"(\d)\+\s*invulnerable", text, re.I) \
                or re.search(r"invulnerable save of (\d)\+", text, re.I) or re.fullmatch(r"\s*(\d)\+\s*", text)
            if m:
                invulnerable.setdefault(owner, int(m.group(1)))
    for (p, anc, owner), (_gear, wanted) in zip(unit.profiles, unit.gear):
        kind = p.get("typeName")
        if kind == "Unit":
            c = _modified(p, anc)
            out.models[p.get("name", "")] = tuple(_number(c.get(k, "")) for k in ("M", "T", "SV", "W", "LD", "OC"))
            inv = invulnerable.get(owner, invulnerable.get(""))
            if _number(c.get("INSV", "")):
                inv = _number(c.get("INSV", ""))
            if inv is not None:
                out.invulnerable[p.get("name", "")] = inv
        elif kind in ("Ranged Weapons", "Melee Weapons"):
            c = _modified(p, anc)
            skill = c.get("BS", c.get("WS", ""))
            # the name as printed, its runs of spaces one ('Plasma caliver -  supercharge' in the data);
            # a skill is a roll ('3+'), a bare number the same roll with its '+' lost ('WS 4' on a
            # Malanthrope's grasping tail), anything else ('N/A') none
            out.weapons.add((clean(p.get("name", "").lstrip("➤")).casefold(), "ranged" if kind[0] == "R" else "melee",
                             None if kind[0] == "M" else _number(c.get("RANGE", "")), c.get("A", "").upper(),
                             _number(skill) if re.fullmatch(r"\s*\d\+?\s*", skill) else None, c.get("S", "").upper(),
                             _number(c.get("AP", "")) or 0,
                             c.get("D", "").upper()))
        elif kind == "Abilities" and (p.get("name") or "") == "Leader":
            out.leader |= _leader_units(" \n".join(_chars(p).values()))
        elif kind == "Transport" or (kind == "Abilities" and clean(p.get("name") or "").lower() == "transport") or (
                kind == "Abilities" and clean(p.get("name") or "").casefold() == clean(target.get("name", "")).casefold()
                and " ".join(_chars(p).values()).lower().startswith("this model has a transport capacity")):
            if " ".join(_chars(p).values()).strip():
                out.transport.add(clean(" ".join(_chars(p).values())))
        elif kind in ("Abilities", "Transport") or kind not in ("Unit",):
            name = re.sub(r"\s*\(psychic\)\s*$", "", clean(p.get("name") or ""), flags=re.I).casefold()
            if name and not re.match(r"invul?nerable save", name) and " ".join(_chars(p).values()).strip():
                out.abilities.add(name)
                if wanted and owner == "wargear":
                    out.conditional.setdefault(name, set()).update(wanted)
    for name in unit.rules:
        base = re.sub(r"[\s\-]*(x|\d+\+?)$", "", name.strip(), flags=re.I).casefold()
        if clean(name).casefold() in VALUED_CORE:
            continue  # linked without its value: for reference (an ability gives it for a phase)
        if base not in WEAPON_RULES and not base.startswith("anti-"):
            out.abilities.add(clean(name).casefold())
    if out.leader:
        out.abilities.add("leader")  # the Leader profile is the LEADER ability
    out.size, out.sizes = _size(data, target)
    pts = {c.get("id") for root in data.roots.values() for c in root.iter("costType") if c.get("name") == "pts"}
    out.points = _points(data, target, link, pts, out.size, out.sizes)
    return out


def sample(data: Data, n: int = SAMPLE, seed: int = SEED, pick: str | None = None) -> list[Expected]:
    """`n` datasheets, drawn with a fixed seed from the units the armies link (with `pick`, those whose
    army or unit name it matches)."""
    offers = []
    for name, root in sorted(data.roots.items()):
        if root.tag != "catalogue" or root.get("library") == "true":
            continue
        for link in kids(root, "entryLinks", "entryLink"):
            t = data.target(link)
            if t is not None and t.get("type") in ("unit", "model") and (
                    pick is None or re.search(pick, f"{name} {t.get('name', '')}", re.I)):
                offers.append((name, link))
    rng = random.Random(seed)
    rng.shuffle(offers)
    out, seen = [], set()
    for name, link in offers:
        e = expected(data, name, link)
        if e is not None and e.id not in seen:
            seen.add(e.id)
            out.append(e)
        if len(out) == n:  # 0: every datasheet of the game
            break
    return out


def _plain(name: str) -> str:
    """A name with its apostrophes straight: 'Ancient’s Banner' and 'Ancient's Banner' are one name to a
    reader (a datasheet page the build ranks first prints the curly one, the catalogue the straight)."""
    return name.replace("’", "'").replace("‘", "'")


def _weapon(record: dict) -> tuple:
    skill = record["skill"]
    return (record["name"].casefold(), record["type"], record["range"] if record["type"] == "ranged" else None,
            str(record["attacks"]).upper(), skill, str(record["strength"]).upper(), record["ap"], str(record["damage"]).upper())


_READ: dict[Path, "Data"] = {}


def _data(archive: Path) -> "Data":
    """The catalogues read once per process (several audits of one run read the same archive)."""
    if archive not in _READ:
        _READ[archive] = Data(archive)
    return _READ[archive]


def audit(build: Path, archive: Path, n: int = SAMPLE, pick: str | None = None) -> tuple[int, dict[str, list[str]]]:
    """(datasheets audited, errors by datasheet id) of the build at `build` against the catalogues."""
    data = _data(archive)
    records = {r["id"]: r for kind in ("datasheet", "weapon")
               for r in json.loads((build / "json" / f"{kind}.json").read_text(encoding="utf-8"))["data"]}
    errors: dict[str, list[str]] = {}
    picked = sample(data, n, pick=pick)
    for e in picked:
        wrong = errors.setdefault(e.id, [])
        ds = records.get(e.id)
        if ds is None:
            wrong.append(f"missing ({e.where})")
            continue
        if ds["name"] != e.name or bool(ds.get("legends")) != e.legends:
            wrong.append(f"name {ds['name']!r} (legends {ds.get('legends')}) != {e.name!r} (legends {e.legends})")
        if set(ds["faction_keywords"]) != e.faction_keywords:
            wrong.append(f"faction keywords {sorted(ds['faction_keywords'])} != {sorted(e.faction_keywords)}")
        if set(ds["keywords"]) != e.keywords:
            wrong.append(f"keywords {sorted(set(ds['keywords']) ^ e.keywords)} differ")
        models = {m["name"]: (m.get("M"), m.get("T"), m.get("Sv"), m.get("W"), m.get("Ld"), m.get("OC"))
                  for m in ds.get("models") or []}
        if models != e.models:
            wrong.append(f"models {models} != {e.models}")
        invs = {m["name"]: m["invulnerable"] for m in ds.get("models") or [] if m.get("invulnerable") is not None}
        if invs != e.invulnerable:
            wrong.append(f"invulnerable saves {invs} != {e.invulnerable}")
        weapons = {_weapon(records[w]) for w in ds["weapons"] if w in records}
        if weapons != e.weapons:
            wrong.append(f"weapons: extra {sorted(weapons - e.weapons)[:3]}, missing {sorted(e.weapons - weapons)[:3]}")
        abilities = {_plain(re.sub(r"\s*\(psychic\)$", "", a["name"].casefold())) for a in ds["abilities"]}
        wanted = {_plain(a) for a in e.abilities}
        if abilities != wanted:
            wrong.append(f"abilities: extra {sorted(abilities - wanted)}, missing {sorted(wanted - abilities)}")
        texts = {_plain(re.sub(r"\s*\(psychic\)$", "", a["name"].casefold())): (a.get("text") or "").casefold()
                 for a in ds["abilities"]}
        unsaid = sorted(f"{a} ({', '.join(sorted(w))})" for a, w in e.conditional.items()
                        if _plain(a) in texts and not all(x.casefold() in texts[_plain(a)] for x in w))
        if unsaid:
            wrong.append(f"wargear shown without the choice it needs: {unsaid[:4]}")
        leader = {u.casefold() for u in (ds.get("leader") or {}).get("units", [])}
        if leader != e.leader:
            wrong.append(f"leader {sorted(leader)} != {sorted(e.leader)}")
        def words(text: str) -> list[str]:  # the profiles in any order, markup (^^, **) and case aside
            return sorted(clean(re.sub(r"[\^*]", "", text)).casefold().split())
        transport = words(ds.get("transport") or "")
        if transport != words(" ".join(e.transport)):
            wrong.append(f"transport {ds.get('transport')!r} != {sorted(e.transport)}")
        size = (sum(c["min"] for c in ds["composition"]), sum(c["max"] for c in ds["composition"]))
        if size != e.size:
            wrong.append(f"unit size {size} != {e.size}")
        if e.points is not None:
            pts = [(p["models"], p["points"]) for p in ds["points"] if p["condition"] is None]
            if pts != e.points:
                wrong.append(f"points {pts} != {e.points}")
    return len(picked), {k: v for k, v in errors.items() if v}


if __name__ == "__main__":
    count, found = audit(Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3]) if len(sys.argv) > 3 else SAMPLE)
    total = sum(len(v) for v in found.values())
    for rid, wrong in sorted(found.items()):
        print(rid)
        for w in wrong:
            print("   ", w[:300])
    print(f"{count} datasheets audited: {len(found)} with an error, {total} errors "
          f"({100 * total / max(count, 1):.0f} per 100 datasheets)")
    by_kind: dict[str, int] = {}
    for wrong in found.values():
        for w in wrong:
            kind = re.match(r"[a-z ]+?(?=[:'\[({]| !=| differ|$)", w)
            by_kind[kind.group().strip() if kind else w[:20]] = by_kind.get(kind.group().strip() if kind else w[:20], 0) + 1
    print("errors by field: " + ", ".join(f"{k} {v}" for k, v in sorted(by_kind.items())))
