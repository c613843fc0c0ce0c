"""BattleScribe entries as records: datasheets, weapons, abilities, detachments, enhancements.

A datasheet is a root unit (or single-model) entry with a ``Unit`` profile. Its tree is
walked through links (entry links, info links, shared groups), statically hidden
entries left out and reported, a link cycle cut and reported. What the walk does not
understand (an unknown profile type, a cost modifier other than a model-count price,
a characteristic that does not parse) is reported by file and entry id.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from warscribe.extract import provenance
from warscribe.schema import ids, records
from warscribe.schema.abilities import ABILITIES, parse_ability_list
from warscribe.schema.diagnostics import Report
from warscribe.schema.text import clean_name
from warscribe.schema.values import parse_ap, parse_dice, parse_inches, parse_int, parse_plus, parse_range, parse_skill
from warscribe.extract.battlescribe.index import DataFile, Index, Target

MAX_DEPTH = 40  # link chains deeper than this are cycles in all but name

# BattleScribe's faction names where the knowledge base (and the rules site) uses another.
FACTION_NAMES = {
    "Agents of the Imperium": "Imperial Agents", "Adeptus Astartes": "Space Marines",
    "Heretic Astartes": "Chaos Space Marines", "Asuryani": "Aeldari", "Legiones Daemonica": "Chaos Daemons",
}
WEAPON_TYPES = {"Ranged Weapons": "ranged", "Melee Weapons": "melee"}
# A weapon ability's rule by its name without the parameter: 'SUSTAINED HITS' -> sustained-hits.
_WEAPON_RULES = {name.replace("-", " "): ability_id for ability_id, (name, _kind) in ABILITIES.items()}
# Army-building bookkeeping reached through units' links; not part of a datasheet.
_NOT_WARGEAR = re.compile(r"enhancement|crusade|battle honour|battle scar|weapon modification|^warlord$|"
                          r"requisition|detachment", re.I)
_KEYWORD = re.compile(r"^[A-Z0-9][A-Z0-9 '’\-]*$")
_COUNT_PREFIX = re.compile(r"^\s*\d+(?:\s*-\s*\d+)?\s+")
_BULLET = re.compile(r"^\s*(?:[-■•*]|\d+\.)\s*")


def flag(value) -> bool:
    return value is True or str(value).lower() == "true"


def number(value, default: float = 0) -> float:
    try:
        return float(value)
    except (TypeError, ValueError):
        return default


def plain(text: str) -> str:
    """BattleScribe markup as the rules print it: ^^**Paladin Squad**^^ -> PALADIN SQUAD."""
    text = re.sub(r"\^\^(.*?)\^\^", lambda m: m.group(1).replace("*", "").upper(), text, flags=re.S)
    text = text.replace("**", "").replace("\u00a0", " ")
    return re.sub(r"[ \t]+\n", "\n", text).strip()


@dataclass
class Walk:
    """What a unit's tree holds, gathered through its links."""

    profiles: list[tuple[dict, str, DataFile]] = field(default_factory=list)  # (profile, context, file)
    rules: list[tuple[str, Target]] = field(default_factory=list)  # (shown name, rule)
    options: list[dict] = field(default_factory=list)  # wargear options


class Reader:
    """Records of all files of one build's BattleScribe data."""

    def __init__(self, index: Index, report: Report):
        self.index = index
        self.report = report
        self.out: list[tuple[dict, dict]] = []  # (record, provenance)
        self._emitted: dict[str, tuple[dict, dict]] = {}  # id -> (record, provenance)
        # (ruleset, KEYWORD) -> the category links that gave it: (file, link, a faction keyword?)
        self._categories: dict[tuple[str, str], list[tuple[DataFile, dict, bool]]] = {}
        self._unknown_types: set[tuple[str, str]] = set()
        # Entries an army list offers: the root entries and root links of every file.
        self.offered = {str(e.get(key)) for f in index.files for group, key in (("entryLinks", "targetId"), ("selectionEntries", "id"))
                        for e in f.root.get(group) or [] if isinstance(e, dict)}
        self.pts: set[str] = set()
        for f in index.files:
            for cost in f.root.get("costTypes") or []:
                if isinstance(cost, dict) and str(cost.get("name", "")).strip().lower() in ("pts", "points"):
                    self.pts.add(str(cost.get("id")))

    # -- helpers ------------------------------------------------------------------------

    def prov(self, data: DataFile, obj: dict) -> dict:
        line = int(obj.get("$line", 1))
        return provenance.entry(data.name, line, line, data.ruleset,
                                item={"catalogue": data.title, "id": str(obj.get("id", ""))})

    def emit(self, record: dict, data: DataFile, obj: dict) -> None:
        prov = self.prov(data, obj)
        earlier = self._emitted.get(record["id"])
        if earlier is None:
            self._emitted[record["id"]] = (record, prov)
            self.out.append((record, prov))
            return
        first, first_prov = earlier
        if first_prov["entry"] == prov["entry"] or first == record:
            return  # a shared rule reached from several units; a unit both a library and a faction define alike
        differing = sorted(k for k in record if first.get(k) != record[k])
        self.report.warning(data.name, prov["first_line"], "conflicting-duplicate",
                            f"{record['id']} is defined again (entry {prov['entry']['id']} in {data.title}), differing "
                            f"from {first_prov['file']}:{first_prov['first_line']} in {', '.join(differing)}; the first is kept",
                            expected="the same values", found=", ".join(differing))

    def warn(self, data: DataFile, obj: dict, code: str, message: str, expected: str = "", found: str = "") -> None:
        self.report.warning(data.name, int(obj.get("$line", 1)), code,
                            f"{message} (entry {obj.get('id', '?')} in {data.title})", expected=expected, found=found)

    def pts_of(self, obj: dict) -> float | None:
        for cost in obj.get("costs") or []:
            if isinstance(cost, dict) and str(cost.get("typeId")) in self.pts:
                return number(cost.get("value"))
        return None

    # -- whole data ---------------------------------------------------------------------

    def read(self) -> list[tuple[dict, dict]]:
        self.index.missing_catalogues()
        for data in self.index.files:
            if data.kind == "gameSystem":
                self.shared_rules(data, None)
        for data in self.index.files:
            if data.kind != "catalogue":
                continue
            faction = self.catalogue_faction(data)
            self.shared_rules(data, faction)
            for key in ("sharedSelectionEntries", "selectionEntries"):
                for entry in data.root.get(key) or []:
                    if not isinstance(entry, dict) or entry.get("type") not in ("unit", "model"):
                        continue
                    # A shared model no army list offers is a model of other units (a squad's sergeant).
                    if entry["type"] == "model" and key == "sharedSelectionEntries" and str(entry.get("id")) not in self.offered:
                        continue
                    self.datasheet(data, entry)
            self.detachments(data, faction)
        self.led_by()
        self.keywords()
        return self.out

    def catalogue_faction(self, data: DataFile) -> str:
        counts: dict[str, int] = {}
        for key in ("sharedSelectionEntries", "selectionEntries"):
            for entry in data.root.get(key) or []:
                for link in (entry.get("categoryLinks") or []) if isinstance(entry, dict) else []:
                    name = str(link.get("name", ""))
                    if name.startswith("Faction: "):
                        counts[name[9:]] = counts.get(name[9:], 0) + 1
        if counts:
            best = max(sorted(counts), key=lambda n: (_specificity(n, data.title), counts[n]))
            return FACTION_NAMES.get(best, best)
        return data.title.split(" - ")[-1].strip()

    def shared_rules(self, data: DataFile, faction: str | None) -> None:
        """Game-system rules are core (or weapon) abilities; a catalogue's are its faction's."""
        for rule in data.root.get("sharedRules") or []:
            if not isinstance(rule, dict) or flag(rule.get("hidden")):
                continue
            record = self.rule_record(data, rule, faction)
            if record:
                self.emit(record, data, rule)

    def rule_record(self, data: DataFile, rule: dict, faction: str | None) -> dict | None:
        name = clean_name(str(rule.get("name", "")))
        text = plain(str(rule.get("description") or ""))
        if not name or not text:
            self.warn(data, rule, "empty-rule", "rule without a name or text; not made a record",
                      expected="a name and a description", found=name or "no name")
            return None
        if faction is None:
            ability_id = _WEAPON_RULES.get(re.sub(r"[\s\-]*(?:X|\d+\+?)?$", "", name).upper().replace("-", " "))
            if ability_id:  # 'Melta', 'Anti-', 'Sustained Hits': the rule of a weapon ability
                return records.ability(id=ids.weapon_ability(data.ruleset, ability_id), name=name,
                                       ruleset=data.ruleset, type="weapon", ability_id=ability_id, text=text)
            return records.ability(id=ids.core_ability(data.ruleset, name), name=name, ruleset=data.ruleset,
                                   type="core", text=text)
        return records.ability(id=ids.faction_ability(faction, name), name=name, ruleset=data.ruleset,
                               type="faction", text=text)

    # -- walking a unit -----------------------------------------------------------------

    def walk(self, walk: Walk, data: DataFile, obj: dict, context: str, trail: tuple[str, ...], depth: int,
             owner: str = "") -> None:
        """Gather `obj`'s profiles, rules, models and options, following links.

        `owner` is the nearest entry (model or unit) the options found belong to.
        """
        if "type" in obj:  # an entry, not a group
            owner = clean_name(str(obj.get("name", ""))) if obj.get("type") != "upgrade" else owner
        if depth > MAX_DEPTH:
            self.warn(data, obj, "deep-link-chain", f"links nested deeper than {MAX_DEPTH}; not followed")
            return
        for profile in obj.get("profiles") or []:
            if isinstance(profile, dict) and not flag(profile.get("hidden")):
                walk.profiles.append((profile, context, data))
        # A weapon's links to its abilities' rules ([RAPID FIRE]) are not the unit's abilities.
        weapon = any(isinstance(p, dict) and p.get("typeName") in WEAPON_TYPES for p in obj.get("profiles") or [])
        for rule in obj.get("rules") or []:
            if isinstance(rule, dict) and not flag(rule.get("hidden")) and not weapon:
                walk.rules.append((clean_name(str(rule.get("name", ""))), Target("rule", rule, data)))
        for group in obj.get("infoGroups") or []:
            if isinstance(group, dict) and not flag(group.get("hidden")):
                self.walk(walk, data, group, context, trail, depth + 1, owner)
        for link in obj.get("infoLinks") or []:
            if not isinstance(link, dict) or flag(link.get("hidden")):
                continue
            target = self.index.resolve(data, link, ("profile", "rule", "infoGroup"))
            if target is None:
                continue
            shown = self.linked_name(link, target.obj)
            if target.what == "rule":
                if not weapon:
                    walk.rules.append((shown, target))
            elif target.what == "profile":
                walk.profiles.append((dict(target.obj, name=shown), context, target.file))
            else:
                self.walk(walk, target.file, target.obj, context, trail, depth + 1, owner)
        children = [(c, data) for c in obj.get("selectionEntries") or [] if isinstance(c, dict)]
        groups = [(g, data) for g in obj.get("selectionEntryGroups") or [] if isinstance(g, dict)]
        for link in obj.get("entryLinks") or []:
            if not isinstance(link, dict) or _NOT_WARGEAR.search(str(link.get("name", ""))):
                continue
            if str(link.get("targetId")) in trail:
                self.warn(data, link, "cyclic-link", f"link {link.get('name', '')!r} leads back to an entry it is "
                          "inside; not followed", expected="a link to another entry", found=str(link.get("targetId")))
                continue
            target = self.index.resolve(data, link, ("selectionEntry", "selectionEntryGroup"))
            if target is None or _NOT_WARGEAR.search(str(target.obj.get("name", ""))):
                continue
            merged = dict(target.obj, **{k: v for k, v in link.items()
                                          if k in ("name", "hidden", "constraints") and v not in (None, [])})
            merged["$via"] = target.file
            merged["$trail"] = str(link.get("targetId"))
            (groups if target.what == "selectionEntryGroup" else children).append((merged, target.file))
        for child, cdata in children:
            if flag(child.get("hidden")):
                self.warn(cdata, child, "hidden-entry", f"{child.get('name', '?')!r} is hidden; left out")
                continue
            if _NOT_WARGEAR.search(str(child.get("name", ""))):
                continue
            ctx = "wargear" if child.get("type") == "upgrade" else context
            self.walk(walk, cdata, child, ctx, trail + (str(child.get("id")), child.get("$trail", "")), depth + 1, owner)
        for group, gdata in groups:
            if flag(group.get("hidden")) or _NOT_WARGEAR.search(str(group.get("name", ""))):
                continue
            self.option(walk, group, owner)
            self.walk(walk, gdata, group, context, trail + (str(group.get("id")), group.get("$trail", "")), depth + 1, owner)

    def linked_name(self, link: dict, target: dict) -> str:
        name = str(link.get("name") or target.get("name") or "")
        for mod in link.get("modifiers") or []:
            if isinstance(mod, dict) and mod.get("field") == "name" and not mod.get("conditions") \
                    and not mod.get("conditionGroups"):
                if mod.get("type") == "set":
                    name = str(mod.get("value"))
                elif mod.get("type") == "append":
                    name = f"{name}{mod.get('join', ' ')}{mod.get('value')}"
        return clean_name(name)

    def option(self, walk: Walk, group: dict, owner_name: str) -> None:
        """A choice group whose options carry weapons or wargear, as readable text."""
        names = [clean_name(str(e.get("name", ""))) for e in (group.get("selectionEntries") or []) + (group.get("entryLinks") or [])
                 if isinstance(e, dict) and not flag(e.get("hidden")) and not _NOT_WARGEAR.search(str(e.get("name", "")))]
        if len(names) < 2 or any(isinstance(e, dict) and e.get("type") == "model" for e in group.get("selectionEntries") or []):
            return
        lo, hi = self.bounds(group)
        count = "one" if hi == 1 else f"up to {hi}" if hi else "any"
        text = f"{owner_name}: {clean_name(str(group.get('name', 'options')))}: {count} of the following"
        if lo == 0 and hi:
            text += " (optional)"
        walk.options.append({"text": text + ":", "choices": names})

    def bounds(self, obj: dict) -> tuple[int, int | None]:
        lo, hi = 0, None
        for c in obj.get("constraints") or []:
            if not isinstance(c, dict) or c.get("field") != "selections" or c.get("scope") not in ("parent", "self", None):
                continue
            value = int(number(c.get("value")))
            if c.get("type") == "min":
                lo = value
            elif c.get("type") == "max":
                hi = value
        return lo, hi

    # -- a datasheet ---------------------------------------------------------------------

    def datasheet(self, data: DataFile, entry: dict) -> None:
        name = clean_name(str(entry.get("name", "")))
        if flag(entry.get("hidden")):
            self.warn(data, entry, "hidden-entry", f"unit {name!r} is hidden in the data; not made a datasheet")
            return
        walk = Walk()
        self.walk(walk, data, entry, "datasheet", (str(entry.get("id")),), 0)
        units = [p for p, ctx, _f in walk.profiles if p.get("typeName") == "Unit"]
        if not units:
            if entry.get("type") == "unit":
                self.warn(data, entry, "no-unit-profile", f"unit {name!r} has no Unit profile; not made a datasheet",
                          expected="a profile of type Unit", found="none")
            return
        factions = [str(c.get("name"))[9:] for c in entry.get("categoryLinks") or []
                    if isinstance(c, dict) and str(c.get("name", "")).startswith("Faction: ")]
        faction_keywords, keywords = [], []
        for c in entry.get("categoryLinks") or []:
            cname = clean_name(str(c.get("name", ""))) if isinstance(c, dict) else ""
            word = (cname[9:] if cname.startswith("Faction: ") else cname).upper()
            if not _KEYWORD.match(word):
                self.warn(data, c, "bad-keyword", f"category {cname!r} is not a keyword; left out",
                          expected="letters, digits, spaces, hyphens", found=cname)
                continue
            target = faction_keywords if cname.startswith("Faction: ") else keywords
            if word not in target:
                target.append(word)
                self._categories.setdefault((data.ruleset, word), []).append((data, c, cname.startswith("Faction: ")))
        if not factions:
            factions = [self.catalogue_faction(data)]
        bs_faction = max(factions, key=lambda n: _specificity(n, data.title))
        faction = FACTION_NAMES.get(bs_faction, bs_faction)
        ds_id = ids.datasheet(faction, name)
        composition, model_costs = self.composition(data, entry)
        abilities, leader, models = self.abilities(walk, data, faction, units)
        weapons = self.weapons(walk, data, ds_id)
        record = records.datasheet(
            id=ds_id, name=name, ruleset=data.ruleset, faction=faction, keywords=keywords,
            faction_keywords=faction_keywords, composition=composition,
            points=self.points(data, entry, composition, model_costs), abilities=abilities, weapons=weapons,
            wargear_options=walk.options, leader=leader or records.OMIT, models=models)
        self.emit(record, data, entry)

    def composition(self, data: DataFile, entry: dict) -> tuple[list[dict], list[float | None]]:
        """Model lines with their min/max, and each line's points per model where its models cost any."""
        if entry.get("type") == "model":
            return [{"name": clean_name(str(entry.get("name"))), "min": 1, "max": 1}], [None]
        out, costs = [], []

        def models_in(obj: dict, file: DataFile, depth: int) -> list[tuple[dict, DataFile]]:
            found = [(e, file) for e in obj.get("selectionEntries") or [] if isinstance(e, dict)]
            for link in obj.get("entryLinks") or []:
                if isinstance(link, dict) and depth < 3:
                    t = self.index.resolve(file, link, ("selectionEntry", "selectionEntryGroup"))
                    if t and t.what == "selectionEntry":
                        found.append((dict(t.obj, **{k: v for k, v in link.items() if k == "constraints" and v}), t.file))
            return [(e, f) for e, f in found if e.get("type") == "model" and not flag(e.get("hidden"))]

        def line(name: str, lo: int, hi: int | None, models: list[dict]) -> None:
            out.append({"name": name, "min": lo, "max": max(hi or lo or 1, 1)})
            prices = {self.pts_of(m) for m in models}
            costs.append(prices.pop() if len(prices) == 1 else None)

        for model, _f in models_in(entry, data, 0):
            line(clean_name(str(model.get("name"))), *self.bounds(model), [model])
        for group in entry.get("selectionEntryGroups") or []:
            if not isinstance(group, dict) or flag(group.get("hidden")):
                continue
            inner = models_in(group, data, 0)
            if not inner:
                continue
            lo, hi = self.bounds(group)
            if hi is not None:
                line(_COUNT_PREFIX.sub("", clean_name(str(group.get("name")))) or str(group.get("name")), lo, hi,
                     [m for m, _f in inner])
            else:
                for model, _f in inner:
                    line(clean_name(str(model.get("name"))), *self.bounds(model), [model])
        return out, costs

    def points(self, data: DataFile, entry: dict, composition: list[dict], model_costs: list[float | None]) -> list[dict]:
        """The unit's price, the price per model count its modifiers set, and prices under an army condition.

        Where the models carry the cost (War Walkers: 85 each), the price of the smallest and the
        largest unit.
        """
        base = self.pts_of(entry)
        smallest = max(sum(c["min"] for c in composition), 1)
        largest = max(sum(c["max"] for c in composition), smallest)
        per_model = bool(model_costs) and all(c is not None for c in model_costs) and any(model_costs)
        if per_model:
            tiers = {n: int((base or 0) + sum(c[key] * cost for c, cost in zip(composition, model_costs)))
                     for n, key in ((smallest, "min"), (largest, "max"))}
            base = tiers[smallest]
        elif base is None:
            return []
        else:
            tiers = {smallest: int(base)}
        conditional: list[dict] = []
        mods = [m for m in entry.get("modifiers") or [] if isinstance(m, dict)]
        for group in entry.get("modifierGroups") or []:
            if isinstance(group, dict):
                mods += [dict(m, conditions=(m.get("conditions") or []) + (group.get("conditions") or []))
                         for m in group.get("modifiers") or [] if isinstance(m, dict)]
        for mod in mods:
            if str(mod.get("field")) not in self.pts:
                continue
            conditions = mod.get("conditions") or []
            simple = len(conditions) == 1 and not mod.get("conditionGroups") and not mod.get("repeats")
            c = conditions[0] if simple else {}
            value = int(number(mod.get("value")))
            if mod.get("type") == "set" and c.get("field") == "selections" and c.get("childId") == "model":
                n = int(number(c.get("value")))
                models = {"atLeast": n, "equalTo": n, "greaterThan": n + 1}.get(str(c.get("type")))
                if models and models >= 1:
                    tiers[models] = value
                    continue
            army = self.army_condition(c) if simple else None
            if army and mod.get("type") in ("set", "increment", "decrement"):
                price = {"set": value, "increment": int(base) + value, "decrement": int(base) - value}[mod["type"]]
                conditional.append({"models": smallest, "points": price, "condition": army})
                continue
            # Modifiers carry no id of their own: the unit's entry locates them.
            self.warn(data, entry, "unsupported-modifier",
                      f"{entry.get('name')!r}: cost modifier ({mod.get('type')} {mod.get('value')}) under conditions "
                      "other than a model count or the army's faction; not read into points",
                      expected="set pts when at least N models, or a price when the army is (not) a faction",
                      found=_describe(mod))
        return [{"models": n, "points": p, "condition": None} for n, p in sorted(tiers.items())] + conditional

    def army_condition(self, condition: dict) -> str | None:
        """'Army Faction is not Imperium - Agents of the Imperium' from an (not)instanceOf primary-catalogue test."""
        if condition.get("scope") != "primary-catalogue" or condition.get("type") not in ("instanceOf", "notInstanceOf"):
            return None
        catalogue = self.index.by_id.get(str(condition.get("childId")))
        if catalogue is None:
            return None
        return f"Army Faction is {'not ' if condition['type'] == 'notInstanceOf' else ''}{catalogue.title}"

    def abilities(self, walk: Walk, data: DataFile, faction: str, units: list[dict]):
        abilities: list[dict] = []
        seen: set[str] = set()
        leader = None
        invulnerable: int | None = None
        for shown, target in walk.rules:
            if not shown or shown.lower() in seen:
                continue
            seen.add(shown.lower())
            core = target.file.kind == "gameSystem"
            record = self.rule_record(target.file, target.obj, None if core else faction)
            if record is None:
                continue
            self.emit(record, target.file, target.obj)
            abilities.append({"name": shown, "type": "core" if core else "faction", "text": None, "ref": record["id"]})
        for profile, context, pfile in walk.profiles:
            type_name = str(profile.get("typeName", ""))
            pname = clean_name(str(profile.get("name", "")))
            chars = {str(c.get("name")): plain(str(c.get("$text", ""))) for c in profile.get("characteristics") or []
                     if isinstance(c, dict)}
            if type_name in ("Unit", *WEAPON_TYPES):
                continue
            if type_name not in ("Abilities", "Transport"):
                if (pfile.name, type_name) not in self._unknown_types:
                    self._unknown_types.add((pfile.name, type_name))
                    self.warn(pfile, profile, "unknown-profile-type",
                              f"profile type {type_name!r} is not a known one; its profiles are kept as ability text",
                              expected="Unit, Ranged Weapons, Melee Weapons, Abilities or Transport", found=type_name)
            text = "\n".join(v if len(chars) == 1 else f"{k}: {v}" for k, v in chars.items() if v)
            if pname == "Leader" and type_name == "Abilities":
                head, units_led = _leader(text)
                leader = {"text": head, "units": units_led}
                continue
            if pname.startswith("Invulnerable Save") and type_name == "Abilities":
                m = re.search(r"(\d)\+", pname) or re.search(r"(\d)\+ invulnerable save", text)
                if m:
                    invulnerable = int(m.group(1))
                    continue
            if not pname or not text or pname.lower() in seen:
                continue
            seen.add(pname.lower())
            item = {"name": re.sub(r"\s*\(Psychic\)\s*$", "", pname) or pname,
                    "type": "wargear" if context == "wargear" else "datasheet", "text": text}
            if pname.endswith("(Psychic)"):
                item["psychic"] = True
            abilities.append(item)
        models: list[dict] = []
        for p in units:  # one profile per model kind, though every model entry may repeat it
            model = self.model(data, p, invulnerable)
            if model and model not in models:
                models.append(model)
        return abilities, leader, models

    def model(self, data: DataFile, profile: dict, invulnerable: int | None) -> dict | None:
        chars = {str(c.get("name", "")).upper(): str(c.get("$text", "")).strip()
                 for c in profile.get("characteristics") or [] if isinstance(c, dict)}
        # Aircraft: '20+"' in the data, '20"+' as printed.
        chars["M"] = re.sub(r'^(\d+)\+(["”″])$', r"\1\2+", chars.get("M", "-"))
        try:
            model = {"name": clean_name(str(profile.get("name", ""))), "M": parse_inches(chars.get("M", "-"), "M"),
                     "T": parse_int(chars.get("T", ""), "T"), "Sv": parse_plus(chars.get("SV", ""), "Sv"),
                     "W": parse_int(chars.get("W", ""), "W"), "Ld": parse_plus(chars.get("LD", "-"), "Ld", allow_none=True),
                     "OC": None if chars.get("OC", "-") in ("-", "") else parse_int(chars["OC"], "OC")}
        except ValueError as exc:
            self.warn(data, profile, "bad-characteristic", f"unit profile {profile.get('name')!r}: {exc}; model left out",
                      expected="M, T, SV, W, LD, OC values", found=", ".join(f"{k}={v}" for k, v in chars.items()))
            return None
        inv = chars.get("INSV", "")
        if re.fullmatch(r"\d\+?", inv):
            invulnerable = int(inv[0])
        if invulnerable is not None:
            model["invulnerable"] = invulnerable
        return model

    def weapons(self, walk: Walk, data: DataFile, ds_id: str) -> list[str]:
        out: list[str] = []
        for profile, _ctx, pfile in walk.profiles:
            kind = WEAPON_TYPES.get(str(profile.get("typeName", "")))
            if not kind:
                continue
            name = clean_name(str(profile.get("name", "")).lstrip("➤").strip())
            chars = {str(c.get("name", "")).upper(): str(c.get("$text", "")).strip()
                     for c in profile.get("characteristics") or [] if isinstance(c, dict)}
            try:
                skill_raw = chars.get("BS", chars.get("WS", ""))
                values = dict(range=parse_range(chars.get("RANGE", "")) if kind == "ranged" else None,
                              attacks=parse_dice(chars.get("A", ""), "A"), skill=parse_skill(skill_raw),
                              strength=parse_dice(chars.get("S", ""), "S"), ap=parse_ap(chars.get("AP", "")),
                              damage=parse_dice(chars.get("D", ""), "D"))
            except ValueError as exc:
                self.warn(pfile, profile, "bad-characteristic", f"weapon {name!r}: {exc}; weapon left out",
                          expected="Range, A, BS/WS, S, AP, D values", found=", ".join(f"{k}={v}" for k, v in chars.items()))
                continue
            abilities, problems = parse_ability_list(chars.get("KEYWORDS", ""))
            for problem in problems:  # kept as written (a weapon-specific rule is `custom`), and said
                self.warn(pfile, profile, "weapon-ability", f"weapon {name!r}: {problem.text!r}: {problem.message}",
                          expected="an ability of the vocabulary (schema/abilities.py)", found=problem.text)
            wid = ids.weapon(ds_id, name)
            if wid in out:
                continue
            out.append(wid)
            record = records.weapon(id=wid, name=name, ruleset=data.ruleset, datasheet=ds_id, type=kind,
                                    abilities=abilities, **values)
            self.emit(record, pfile, profile)
        return out

    def led_by(self) -> None:
        """A unit a leader names is led by that leader (the data states only one side)."""
        by_name: dict[tuple[str, str, str], dict] = {}
        for record, _p in self.out:
            if record["kind"] == "datasheet":
                by_name.setdefault((record["ruleset"], record["faction"], record["name"].lower()), record)
        for record, _p in self.out:
            if record["kind"] != "datasheet" or "leader" not in record:
                continue
            for unit in record["leader"]["units"]:
                led = by_name.get((record["ruleset"], record["faction"], unit.lower()))
                if led is not None:
                    entry = led.setdefault("led_by", {"text": "This unit can be led by the following units:", "units": []})
                    if record["name"] not in entry["units"]:
                        entry["units"].append(record["name"])
        for record, _p in self.out:
            if "led_by" in record:
                record["led_by"]["units"].sort()
                record["models"] = record.pop("models")  # key order: as the constructor gives it

    def keywords(self) -> None:
        """A keyword record per category the datasheets carry, sourced at its category entry."""
        carriers: dict[tuple[str, str], set[str]] = {}
        for record, _p in self.out:
            if record["kind"] == "datasheet":
                for word in record["keywords"] + record["faction_keywords"]:
                    carriers.setdefault((record["ruleset"], word), set()).add(record["id"])
        for (ruleset, word), links in sorted(self._categories.items()):
            data, link, faction = links[0]
            target = self.index.resolve(data, link, ("categoryEntry",))
            where, obj = (target.file, target.obj) if target else (data, link)
            record = records.keyword(id=ids.keyword(ruleset, word), name=word, ruleset=ruleset,
                                     faction_keyword=any(f for _d, _l, f in links),
                                     datasheets=sorted(carriers.get((ruleset, word), ())), usage=[])
            self.emit(record, where, obj)

    # -- detachments and enhancements -----------------------------------------------------

    def detachments(self, data: DataFile, faction: str) -> None:
        found: dict[str, dict] = {}
        enhancement_groups: list[dict] = []
        for what, obj in data.defs.values():
            if what != "selectionEntryGroup":
                continue
            gname = clean_name(str(obj.get("name", "")))
            if gname in ("Detachment", "Detachments", "Detachment Choice"):
                for entry in obj.get("selectionEntries") or []:
                    if isinstance(entry, dict) and not flag(entry.get("hidden")):
                        found.setdefault(clean_name(str(entry.get("name", ""))), entry)
            elif gname == "Enhancements":
                enhancement_groups.append(obj)
        enhancements: dict[str, list[str]] = {}
        for group in enhancement_groups:
            subgroups = [g for g in group.get("selectionEntryGroups") or [] if isinstance(g, dict)]
            for sub in subgroups or [group]:
                det_name = re.sub(r"\s*Enhancements?$", "", clean_name(str(sub.get("name", ""))))
                det_id = ids.detachment(faction, det_name) if det_name in found else None
                for entry in sub.get("selectionEntries") or []:
                    if not isinstance(entry, dict) or flag(entry.get("hidden")):
                        continue
                    record = self.enhancement(data, entry, det_id, faction)
                    if record:
                        enhancements.setdefault(det_name, []).append(record["id"])
        for det_name, entry in sorted(found.items()):
            rules = [r for r in entry.get("rules") or [] if isinstance(r, dict)]
            rule = None
            if rules:
                rule = {"name": clean_name(str(rules[0].get("name", ""))),
                        "text": plain(str(rules[0].get("description") or ""))}
            record = records.detachment(id=ids.detachment(faction, det_name), name=det_name, ruleset=data.ruleset,
                                        faction=faction, rule=rule, stratagems=[],
                                        enhancements=enhancements.get(det_name, []))
            self.emit(record, data, entry)

    def enhancement(self, data: DataFile, entry: dict, det_id: str | None, faction: str) -> dict | None:
        name = clean_name(str(entry.get("name", "")))
        texts = [plain(str(c.get("$text", ""))) for p in entry.get("profiles") or [] if isinstance(p, dict)
                 for c in p.get("characteristics") or [] if isinstance(c, dict)]
        text = "\n\n".join(t for t in texts if t) or None
        restriction = None
        if text:
            m = re.match(r"^(?P<r>[^.]*?\bmodels? only\.)\s*(?P<t>.*)$", text, re.S)
            if m:
                restriction, text = m.group("r"), m.group("t") or text
        # In BattleScribe an entry without a points cost costs nothing (Boarding Actions' enhancements).
        pts = self.pts_of(entry) or 0
        key = re.sub(r"\s*\(Psychic\)$", "", name)  # the rules print the tag apart from the name
        record = records.enhancement(id=ids.enhancement(key, det_id, faction), name=name, ruleset=data.ruleset,
                                     detachment=det_id, points=int(pts), text=text,
                                     restriction=restriction)
        self.emit(record, data, entry)
        return record


def _specificity(faction: str, title: str) -> tuple[bool, bool]:
    """'Black Templars' before 'Adeptus Astartes' in 'Imperium - Adeptus Astartes - Black Templars'."""
    return title.rsplit(" - ", 1)[-1].strip() == faction, faction in title


def _leader(text: str) -> tuple[str, list[str]]:
    """'This model can be attached to the following units:' and the units, listed or inline."""
    lines = [ln for ln in text.splitlines() if ln.strip()]
    head = lines[0].strip() if lines else text
    listed = [_BULLET.sub("", ln) for ln in lines[1:] if _BULLET.match(ln)]
    if not listed and ":" in head:
        head, inline = head.split(":", 1)
        head += ":"
        listed = inline.split(",")
    units = []
    for raw in listed:
        unit = re.sub(r"\s*\*+$", "", raw.strip().rstrip("."))
        if unit and unit.upper() == unit:
            unit = " ".join(w.capitalize() if not w.startswith("[") else w for w in unit.split())
        if unit:
            units.append(unit)
    return head, units


def _describe(mod: dict) -> str:
    parts = []
    for c in mod.get("conditions") or []:
        if isinstance(c, dict):
            parts.append(f"{c.get('type')} {c.get('value')} {c.get('field')} of {c.get('childId')} in {c.get('scope')}")
    if mod.get("conditionGroups"):
        parts.append("condition groups")
    if mod.get("repeats"):
        parts.append("repeats")
    return "; ".join(parts) or "no condition"
