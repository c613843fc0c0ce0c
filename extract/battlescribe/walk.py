"""A unit's tree walked through its links: the models, profiles, rules and choice groups it holds.

Links of every kind (entry links, info links, info groups, entry groups, shared profiles)
form graphs, not trees: many units link one weapon, a group may link the same group twice
(a diamond), a careless or hostile file links an info group to itself (a cycle). The walk
resolves each link once (the index caches it), expands each node at most once per model
of the unit (a diamond costs its size, not its paths), cuts a link back into a node being
expanded and reports it (``cyclic-link``, with file and entry), and stops a unit whose
tree holds more than :data:`MAX_NODES` nodes or one record more than
:data:`MAX_PROFILES` profiles (``link-budget``), so time is linear in the catalogue's size
and a record's size is bounded.

What the data hides for the unit in its army (evaluated by :mod:`.conditions`: a rule
shown only in another army or with a detachment chosen) is left out and listed in
``left_out``; what is hidden outright is reported (``hidden-entry``); army-building
bookkeeping (Crusade, Warlord, detachment choices) is not followed, and the enhancement
groups a unit links are noted, not walked.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from warscribe.extract.battlescribe import conditions
from warscribe.extract.battlescribe.common import NOT_WARGEAR, WEAPON_TYPES, flag
from warscribe.extract.battlescribe.conditions import Army, Frame, Scope
from warscribe.extract.battlescribe.index import DataFile, Target
from warscribe.extract.battlescribe.output import Output
from warscribe.schema.text import clean_name

MAX_DEPTH = 40  # link chains deeper than this are cycles in all but name
MAX_NODES = 20_000  # nodes one unit's walk expands
MAX_PROFILES = 2_000  # profiles one datasheet may hold
ENHANCEMENTS = "enhancement"


@dataclass
class Group:
    """A choice group the tree reaches, its members resolved (entry, file, link or None)."""

    obj: dict  # with its link's name and constraints over its own
    file: DataFile
    link: dict | None
    members: list[tuple[dict, DataFile, dict | None]]
    owner: "Model"
    scope: Scope
    within: str = ""  # the wargear choice that holds it (a Captain's 'Pistol and Melee Weapon'), if any
    parent: "Group | None" = None  # the group it sits in directly ('Special Weapons' inside '9-19 Boyz')


@dataclass(eq=False)
class Choice:
    """An entry of a choice group that holds models: one way the data lets a player field the
    unit ('5 models' or '10 models' of a Kill Team, '8 chainblades' of Jakhals)."""

    group: Group
    obj: dict
    link: dict | None
    name: str

    def ids(self) -> set[str]:
        """The ids a condition may name it by: the entry's, its link's."""
        out = {str(self.obj.get("id", ""))}
        if self.link is not None:
            out |= {str(self.link.get("id", "")), str(self.link.get("targetId", ""))}
        return out - {""}


@dataclass
class Model:
    """A model entry of the unit (or the unit itself, owner of what is not a model's)."""

    name: str
    obj: dict
    file: DataFile
    scope: Scope
    link: dict | None = None
    group: Group | None = None  # the entry group it was found in
    choice: Choice | None = None  # the choice of a group that holds it, where the unit's size is chosen so


@dataclass
class Found:
    """A profile the tree reaches, with where: its scope, owning model, and whether wargear holds it."""

    profile: dict
    file: DataFile
    scope: Scope
    owner: Model
    context: str  # "datasheet" or "wargear"
    shown: str
    within: str = ""  # the wargear choice that holds it ('Conversion Field'), if any
    needs: tuple[str, ...] = ()  # the choices that wargear is offered only with ('Pantheon of Woe'), if any


@dataclass
class Walk:
    unit: Model
    models: list[Model] = field(default_factory=list)
    profiles: list[Found] = field(default_factory=list)
    rules: list[tuple[str, Target, Model, str]] = field(default_factory=list)  # (shown, rule, owner, context)
    groups: list[Group] = field(default_factory=list)
    # enhancement groups the unit links: (group, the link, the scope it is linked in)
    enhancements: list[tuple[Target, dict, Scope]] = field(default_factory=list)
    left_out: list[tuple[str, str, DataFile, tuple[dict, ...]]] = field(default_factory=list)  # (what, name, file, objs)
    # id() of an entry shown only with a choice made (a detachment, the unit's chapter) -> those choices' names
    needs: dict[int, tuple[str, ...]] = field(default_factory=dict)
    gate: tuple[str, ...] = ()  # the choices the unit itself is offered only with (Chaos Daemons' Shadow Legion)
    nodes: int = 0
    stopped: bool = False


def frame(obj: dict, link: dict | None = None) -> Frame:
    ids = {str(obj.get("id", ""))}
    cats = {str(c.get("targetId")) for c in obj.get("categoryLinks") or [] if isinstance(c, dict)}
    if link is not None:
        ids |= {str(link.get("id", "")), str(link.get("targetId", ""))}
        cats |= {str(c.get("targetId")) for c in link.get("categoryLinks") or [] if isinstance(c, dict)}
    return Frame(frozenset(ids - {""}), frozenset(cats))


def linked_name(link: dict, target: dict, scope: Scope | None = None) -> str:
    """The name a link shows: its own, or its target's, as the name modifiers that hold set it."""
    name = str(link.get("name") or target.get("name") or "")
    for obj in (target, link) if link is not target else (link,):
        if not conditions.has_modifiers(obj):
            continue
        for mod in conditions.modifiers(obj):
            if mod.field != "name":
                continue
            holds = mod.applies(scope) if scope is not None else (True if len(mod.guards) == 1 and not (
                mod.mod.get("conditions") or mod.mod.get("conditionGroups")) else None)
            if not holds:
                continue
            if mod.type == "set":
                name = str(mod.mod.get("value"))
            elif mod.type == "append":
                name = f"{name}{mod.mod.get('join', ' ')}{mod.mod.get('value')}"
    return clean_name(name)


def _hiding(obj: dict, scope: Scope):
    """The modifiers of `obj` that hide it in `scope`."""
    if not conditions.has_modifiers(obj):
        return
    for m in conditions.modifiers(obj):
        if m.field == "hidden" and m.type == "set" and flag(m.mod.get("value")) and m.applies(scope):
            yield m


def _test(mod: conditions.Modifier) -> str:
    """What a modifier tests, without the ids and comments that name its parts: two entries hidden by the
    same test give the same string."""
    def bare(x):
        if isinstance(x, dict):
            return {k: bare(v) for k, v in sorted(x.items()) if k not in ("id", "$line", "comment")}
        return [bare(v) for v in x] if isinstance(x, list) else x
    return repr([bare(g) for g in mod.guards])


class Walker:
    """One unit's walk (see the module's docstring)."""

    def __init__(self, out: Output, data: DataFile, entry: dict, scope: Scope, link: dict | None = None,
                 link_file: DataFile | None = None):
        self.out = out
        unit_scope = scope.down(frame(entry, link), is_model=True)
        self._never: frozenset[str] | None = None  # see _count
        if unit_scope.counts is None:
            unit_scope = unit_scope.with_counts(self._count)
        self.found = Walk(Model(clean_name(str(entry.get("name", ""))), entry, data, unit_scope, link))
        self.done: set[tuple] = set()
        self.stack: set[int] = set()
        self.choice: Choice | None = None  # the group's choice the walk is inside, if any
        self.needs: tuple[str, ...] = ()  # the choices the entry the walk is inside is offered only with
        # A unit the army offers only once a choice is made (Chaos Daemons' Shadow Legion units,
        # with the Shadow Legion detachment) holds what the data hides by the same test: where
        # the unit is, so is that (its Disciples of Be'lakor rule).
        self.gate = frozenset(_test(m) for o in ((entry,) if link is None else (entry, link))
                              for m in _hiding(o, unit_scope))
        self.found.gate = tuple(conditions.needed_by((entry,) if link is None else (entry, link), unit_scope,
                                                     out.is_choice))
        self._start = (entry, data, link, link_file or data, unit_scope)
        self._adds: dict[str, tuple[str, ...]] | None = None  # see _added
        if entry.get("type") == "model":
            self.found.models.append(self.found.unit)
        self._node(entry, data, link, unit_scope, self.found.unit, "datasheet", 0, link_file)

    # -- what the unit's own choices make it ---------------------------------------------------

    def _may_become(self, key: str) -> bool:
        """Whether what the unit is 'an instance of' `key` may depend on what the player picks for it:
        a choice of its own (:meth:`Output.is_choice`), or a category one of its own upgrades adds (a
        Front-line Commander's Noble Steed makes it MOUNTED, so its lances are its wargear). A category
        some other unit's upgrade adds is not (a Sentinel Commander, sharing that weapons list, is
        never MOUNTED: no lance)."""
        if self.out.is_choice(key):
            return True
        return key not in self.out.army_choices and key in self.out.added_categories() and key in self._added()

    def _added(self) -> dict[str, tuple[str, ...]]:
        """The categories the unit's own upgrades add -> the names of those upgrades. Read once per unit,
        and only for a unit whose wargear asks what it is: every entry it holds or links, except those
        the unit is never offered (another Crucible character's specialism in a shared list)."""
        if self._adds is not None:
            return self._adds
        # An upgrade may be offered only to what another makes the unit (an Ordo specialism makes a
        # Martial Agent an INQUISITOR, whose Oracular Gifts make it a PSYKER, whose force weapon it
        # then bears): read again with what the last reading found, until nothing is added.
        found: dict[str, tuple[str, ...]] = {}
        for _ in range(8):
            more = self._scan(found)
            grew = not more.keys() <= found.keys()
            found = more
            if not grew:
                break
        self._adds = found
        return found

    def _scan(self, known: dict[str, tuple[str, ...]]) -> dict[str, tuple[str, ...]]:
        """One reading for :meth:`_added`, with the categories `known` its upgrades add."""
        adds: dict[str, list[str]] = {}
        for child, clink, objs, hidden in self._tree(lambda key: self.out.is_choice(key) or key in known):
            if child.get("type") == "upgrade" and not hidden:
                cname = linked_name(clink, child) if clink is not None else clean_name(str(child.get("name", "")))
                for o in objs:
                    for mod in conditions.modifiers(o) if conditions.has_modifiers(o) else ():
                        if mod.field == "category" and mod.type == "add" and mod.mod.get("value"):
                            adds.setdefault(str(mod.mod["value"]), []).append(cname)
        return {k: tuple(dict.fromkeys(v)) for k, v in adds.items()}

    def _count(self, child: str, _scope: str) -> float | None:
        """How many of `child` the unit holds, where that is known before the player picks: none of an
        upgrade its army never offers it (a Daemonic Herald in a Death Guard army: its Daemon of Blood
        specialism is hidden outside the armies of Khorne and of all gods, so what only that
        specialism shows, the Khorne group of abilities, is never the unit's). Else unknown."""
        if not hasattr(self, "_start"):
            return None  # the unit's own hiding, read before its walk starts
        if self._never is None:
            hidden: set[str] = set()
            offered: set[str] = set()
            # what any upgrade may make the unit is not known here: only what no choice changes hides
            may = (lambda key: self.out.is_choice(key) or key in self.out.added_categories())
            # the datasheet is also that of the armies importing this one's (a Space Marines Crucible
            # character in a Blood Angels army, with the Blood Angels chapter): never in any of them
            army = self._start[4].army
            for catalogue in sorted(self._serving(army.catalogue)):
                for entry, clink, _objs, is_hidden in self._tree(may, Army(catalogue, army.force, army.chosen, army.open)):
                    if entry.get("type") == "upgrade":
                        ids = {str(entry.get("id", ""))} | ({str(clink.get("id", "")), str(clink.get("targetId", ""))}
                                                            if clink is not None else set())
                        (hidden if is_hidden else offered).update(ids - {""})
            self._never = frozenset(hidden - offered)
        return 0.0 if child in self._never else None

    def _serving(self, catalogue: str) -> set[str]:
        """A catalogue and those whose armies import its root entries, however indirectly."""
        out, todo = {catalogue}, [catalogue]
        while todo:
            here = todo.pop()
            for f in self.out.index.files:
                if f.id not in out and here in f.imports():
                    out.add(f.id)
                    todo.append(f.id)
        return out

    def _tree(self, choice, army: Army | None = None):
        """(entry or group, its link, both, hidden) for what the unit holds or links, through groups and
        links, as far as what its army never offers it (reported, not followed); `choice` says which
        ids name what the player may yet pick. Bookkeeping and enhancements left out."""
        entry, data, link, link_file, unit_scope = self._start
        seen: set[int] = set()
        unit_scope = unit_scope.with_counts(None).with_choice(choice)
        if army is not None:
            unit_scope = unit_scope.with_army(army)
        todo = [(entry, data, link, link_file, unit_scope, 0)]
        while todo and len(seen) < MAX_NODES:
            obj, f, lk, lf, scope, depth = todo.pop()
            if id(obj) in seen or depth > MAX_DEPTH:
                continue
            seen.add(id(obj))
            holders = ((obj, f),) if lk is None else ((obj, f), (lk, lf))
            for holder, hfile in holders:
                members = [(c, hfile, None) for c in holder.get("selectionEntries") or []] + \
                          [(g, hfile, None) for g in holder.get("selectionEntryGroups") or []]
                for x in holder.get("entryLinks") or []:
                    target = self.out.index.find(hfile, str(x.get("targetId", "")) if isinstance(x, dict) else "",
                                                 ("selectionEntry", "selectionEntryGroup"))
                    if target is not None:
                        members.append((target.obj, target.file, x))
                for child, cfile, clink in members:
                    if not isinstance(child, dict):
                        continue
                    name = str((clink or child).get("name", "")) + " " + str(child.get("name", ""))
                    if NOT_WARGEAR.search(name) or ENHANCEMENTS in name.lower():
                        continue
                    objs = (child,) if clink is None else (child, clink)
                    down = scope.down(frame(child, clink), is_model=child.get("type") == "model")
                    hidden = conditions.hidden(objs, down.with_army(down.army.opened())) is True
                    yield child, clink, objs, hidden
                    if not hidden:
                        todo.append((child, cfile, clink, hfile, down, depth + 1))

    def _made_by(self, objs: tuple[dict, ...], scope: Scope) -> tuple[str, ...]:
        """The unit's own upgrades an entry is offered only with, by the category they add (the lances
        of a Front-line Commander: only with Noble Steed, which makes it MOUNTED)."""
        wanted = conditions.referenced(objs)
        if not wanted or not any(k in self.out.added_categories() for k in wanted):
            return ()
        wanted &= self._added().keys()
        opened = scope.with_army(scope.army.opened()).with_choice(self.out.is_choice)
        if not wanted or conditions.hidden(objs, opened) is not True:
            return ()
        return tuple(dict.fromkeys(n for cat in sorted(wanted)
                                   if conditions.hidden(objs, opened.with_category(cat)) is False
                                   for n in self._added()[cat]))

    # -- the walk --------------------------------------------------------------------------

    def _node(self, obj: dict, data: DataFile, link: dict | None, scope: Scope, owner: Model, context: str,
              depth: int, link_file: DataFile | None = None, within: str = "") -> None:
        """Gather what `obj` (an entry, group or info group; reached by `link`, written in `link_file`) holds."""
        key = (id(obj), id(owner))
        if key in self.done:
            return  # a diamond: this node's contents are gathered for this model already
        if not self._budget(data, obj):
            return
        self.done.add(key)
        self.stack.add(id(obj))
        try:
            self._contents(obj, data, link, link_file or data, scope, owner, context, depth, within)
        finally:
            self.stack.discard(id(obj))

    def _budget(self, data: DataFile, obj: dict) -> bool:
        found = self.found
        if found.stopped:
            return False
        found.nodes += 1
        if found.nodes > MAX_NODES or len(found.profiles) > MAX_PROFILES:
            found.stopped = True
            self.out.warn(data, obj, "link-budget",
                          f"unit {found.unit.name!r}: its links reach more than {MAX_NODES} entries or "
                          f"{MAX_PROFILES} profiles; the rest of its tree is not read",
                          expected=f"at most {MAX_NODES} entries and {MAX_PROFILES} profiles a unit",
                          found=f"{found.nodes} entries, {len(found.profiles)} profiles")
            return False
        return True

    def _contents(self, obj: dict, data: DataFile, link: dict | None, link_file: DataFile, scope: Scope,
                  owner: Model, context: str, depth: int, within: str = "") -> None:
        if depth > MAX_DEPTH:
            self.out.warn(data, obj, "deep-link-chain", f"links nested deeper than {MAX_DEPTH}; not followed")
            return
        holders = (obj,) if link is None else (obj, link)
        weapon = any(isinstance(p, dict) and p.get("typeName") in WEAPON_TYPES
                     for h in holders for p in h.get("profiles") or [])
        holders = ((obj, data),) if link is None else ((obj, data), (link, link_file))
        for holder, hfile in holders:
            self._info(holder, hfile, scope, owner, context, depth, weapon, within)
        children, groups = self._members(holders, scope)
        for child in children:
            self._child(*child, scope, owner, context, depth, within=within)
        for grp in groups:
            self._group(*grp, scope, owner, context, depth, within)

    def _members(self, holders, scope: Scope) -> tuple[list[tuple], list[tuple]]:
        """The entries and groups the holders hold or link: (object, its file, link or None, the link's file)."""
        children: list[tuple] = []
        groups: list[tuple] = []
        for holder, hfile in holders:
            children += [(c, hfile, None, hfile) for c in holder.get("selectionEntries") or [] if isinstance(c, dict)]
            groups += [(g, hfile, None, hfile) for g in holder.get("selectionEntryGroups") or [] if isinstance(g, dict)]
            for lk in holder.get("entryLinks") or []:
                resolved = self._follow(hfile, lk, ("selectionEntry", "selectionEntryGroup"), scope)
                if resolved is not None:
                    target, tfile = resolved
                    (groups if "type" not in target else children).append((target, tfile, lk, hfile))
        return children, groups

    def _follow(self, data: DataFile, lk: dict, wanted: tuple[str, ...], scope: Scope) -> tuple[dict, DataFile] | None:
        """A link's target, unless it is bookkeeping, unresolved, or leads back into the node being expanded."""
        if not isinstance(lk, dict):
            return None
        name = str(lk.get("name", ""))
        target = self.out.index.resolve(data, lk, wanted)
        if target is None:
            return None
        tname = str(target.obj.get("name", ""))
        if target.what == "selectionEntryGroup" and ENHANCEMENTS in (name + tname).lower():
            self.found.enhancements.append((target, lk, scope))
            return None
        if NOT_WARGEAR.search(name) or NOT_WARGEAR.search(tname):
            return None
        if id(target.obj) in self.stack:
            self.out.warn(data, lk, "cyclic-link", f"link {name!r} leads back to an entry it is inside; not followed",
                          expected="a link to another entry", found=str(lk.get("targetId")))
            return None
        return target.obj, target.file

    def _hidden(self, objs: tuple[dict, ...], data: DataFile, scope: Scope, what: str, name: str) -> bool:
        """Whether to leave a node out; what the army hides is noted in `left_out`, what is hidden outright reported."""
        value = conditions.hidden(objs, scope)
        if value is None or not value:
            return False  # shown, or shown depending on the unit's own choices: kept
        if self.gate and not any(flag(o.get("hidden")) for o in objs) and \
                all(_test(m) in self.gate for o in objs for m in _hiding(o, scope)):
            return False  # hidden only where the unit itself is
        if any(flag(o.get("hidden")) for o in objs) and not any(conditions.has_modifiers(o) for o in objs):
            self.out.warn(data, objs[-1], "hidden-entry", f"{name!r} is hidden; left out")
        else:
            self.found.left_out.append((what, name, data, objs))
        return True

    def _info(self, holder: dict, data: DataFile, scope: Scope, owner: Model, context: str, depth: int,
              weapon: bool, within: str = "") -> None:
        """A holder's own profiles, rules, info groups and info links."""
        found = self.found
        scope = scope.within()
        for profile in holder.get("profiles") or []:
            if isinstance(profile, dict) and not self._hidden((profile,), data, scope, "profile",
                                                              str(profile.get("name", ""))):
                found.profiles.append(Found(profile, data, scope, owner, context,
                                            linked_name(profile, profile, scope), within, self.needs))
        # A weapon's links to its abilities' rules ([RAPID FIRE]) are not the unit's abilities.
        for rule in holder.get("rules") or []:
            if isinstance(rule, dict) and not weapon and not self._hidden((rule,), data, scope, "rule",
                                                                          str(rule.get("name", ""))):
                found.rules.append((linked_name(rule, rule, scope), Target("rule", rule, data), owner, context))
        for grp in holder.get("infoGroups") or []:
            if isinstance(grp, dict) and not self._hidden((grp,), data, scope, "info group", str(grp.get("name", ""))):
                self._node(grp, data, None, scope, owner, context, depth + 1, within=within)
        for lk in holder.get("infoLinks") or []:
            if not isinstance(lk, dict):
                continue
            target = self.out.index.resolve(data, lk, ("profile", "rule", "infoGroup"))
            if target is None:
                continue
            shown = linked_name(lk, target.obj, scope)
            if self._hidden((target.obj, lk), data, scope, target.what, shown):
                continue
            if target.what == "rule":
                if not weapon:
                    found.rules.append((shown, target, owner, context))
            elif target.what == "profile":
                found.profiles.append(Found(target.obj, target.file, scope, owner, context, shown, within, self.needs))
            elif id(target.obj) in self.stack:
                self.out.warn(data, lk, "cyclic-link", f"info link {shown!r} leads back to an info group it is "
                              "inside; not followed", expected="a link to another group", found=str(lk.get("targetId")))
            else:
                self._node(target.obj, target.file, None, scope, owner, context, depth + 1, within=within)

    def _child(self, child: dict, data: DataFile, lk: dict | None, link_file: DataFile, scope: Scope, owner: Model,
               context: str, depth: int, group: Group | None = None, within: str = "") -> None:
        is_model = child.get("type") == "model"
        # A model two of a group's choices hold (a Kill Team's sergeant in its '5 models' and its
        # '10 models') is a model of each.
        key = (id(child), id(owner)) if not is_model or self.choice is None else (id(child), id(owner), id(self.choice))
        if key in self.done:
            return  # a diamond
        name = linked_name(lk, child, scope) if lk is not None else clean_name(str(child.get("name", "")))
        if NOT_WARGEAR.search(name):
            return
        objs = (child,) if lk is None else (child, lk)
        child_scope = scope.down(frame(child, lk), is_model=is_model)
        # An entry is a choice of the unit: whether it is offered at all is asked with the rest of
        # the roster open (wargear one detachment unlocks is wargear of the datasheet).
        # So is wargear offered only to what a choice of the unit makes it (an EXOFRAME, by its specialism).
        if self._hidden(objs, data, child_scope.with_army(child_scope.army.opened()).with_choice(self._may_become),
                        "entry", name):
            return
        outer, outer_needs = self.choice, self.needs
        if child.get("type") == "upgrade":
            needs = tuple(self.out.index.name(x) for x in conditions.unlocked_by(objs, child_scope, self.out.is_choice))
            needs = tuple(dict.fromkeys(needs + self._made_by(objs, child_scope)))
            if needs:
                self.found.needs[id(child)] = needs
                self.needs = tuple(dict.fromkeys(outer_needs + needs))
        if is_model:
            self.done.add(key)
            model = Model(name, child, data, child_scope, lk, group, outer)
            self.found.models.append(model)
            owner = model
            within = ""
            self.choice = None
        elif child.get("type") == "upgrade":
            within = name
            if group is not None and outer is None:
                self.choice = Choice(group, child, lk, name)
        ctx = "wargear" if child.get("type") == "upgrade" else context
        try:
            self._node(child, data, lk, child_scope, owner, ctx, depth + 1, link_file, within)
        finally:
            self.choice, self.needs = outer, outer_needs

    def _group(self, grp: dict, data: DataFile, lk: dict | None, link_file: DataFile, scope: Scope, owner: Model,
               context: str, depth: int, within: str = "", parent: Group | None = None) -> None:
        name = linked_name(lk, grp, scope) if lk is not None else clean_name(str(grp.get("name", "")))
        objs = (grp,) if lk is None else (grp, lk)
        if NOT_WARGEAR.search(name) or self._hidden(objs, data, scope.within().with_army(scope.army.opened()),
                                                    "group", name):
            return
        key = (id(grp), id(owner))
        if key in self.done:
            return
        if id(grp) in self.stack:
            self.out.warn(data, lk or grp, "cyclic-link", f"group {name!r} leads back to a group it is inside; "
                          "not followed", expected="a link to another group", found=str(grp.get("id")))
            return
        if not self._budget(data, grp):
            return
        self.done.add(key)
        self.stack.add(id(grp))
        try:
            holders = ((grp, data),) if lk is None else ((grp, data), (lk, link_file))
            members, subgroups = self._members(holders, scope)
            # a member offered only once a choice of the unit makes it what the member asks (a lance,
            # with the specialism that makes it MOUNTED) is listed, as the walk keeps it
            shown = [(m, f, link) for m, f, link, _lf in members
                     if not conditions.hidden((m,) if link is None else (m, link),
                                              scope.down(frame(m, link)).with_choice(self._may_become))]
            record = Group(grp if lk is None else dict(grp, **_overrides(lk)), data, lk, shown, owner, scope, within, parent)
            self.found.groups.append(record)
            for holder, hfile in holders:
                self._info(holder, hfile, scope, owner, context, depth, False)
            for m, f, link, lf in members:
                self._child(m, f, link, lf, scope, owner, context, depth + 1, group=record, within=within)
            for g, f, link, lf in subgroups:
                self._group(g, f, link, lf, scope, owner, context, depth + 1, within, parent=record)
        finally:
            self.stack.discard(id(grp))


def _overrides(link: dict) -> dict:
    """What a link sets over its target: its name, and its constraints where it has any."""
    return {k: v for k, v in link.items() if k in ("name", "constraints") and v not in (None, [])}


def walk_unit(out: Output, data: DataFile, entry: dict, scope: Scope, link: dict | None = None,
              link_file: DataFile | None = None) -> Walk:
    """What the unit `entry` (offered by `link`, written in `link_file`) holds in `scope`'s army, through all its links."""
    return Walker(out, data, entry, scope, link, link_file).found
