"""The app's core files: the core rules (with their numbers), Chapter Approved, Combat Patrol's
rules, the Event Companion, the weapon abilities' rules (``keywords.json``) and the errata and
FAQ (:mod:`.faq`); the mission cards are no record of ours and are reported as ignored.

A core-rules document is ``sections`` of ``containers``: a container is a numbered rule
(``subTitle`` "01.02", ``title`` "Units and Models") whose text is its parts but its
``accordion`` parts, each a rule of its own ("01.02.04 - Not On The Battlefield" is number
01.02.04, title "Not On The Battlefield"); a ``behaviourType`` container is a move or a kind
of shooting, its text the labelled fields of its ``behaviour`` (ELIGIBLE IF:, EFFECT: ...).
Rules get the ids every 11th-edition rule gets (``11e/rules/01-02-04-not-on-the-battlefield``).

In the section on core abilities, each container but the two general ones is an ability: a
weapon ability where its title is bracketed ("[LETHAL HITS]": ``11e/abilities/lethal-hits``),
a core ability otherwise (Deep Strike); ``keywords.json`` gives the weapon abilities' rules
again (and the faction weapons' own, [LINKED FIRE]), read as the same records. The core
stratagems are only named in the app's core rules (their cards are not in the data): they
are reported, not made records.

Combat Patrol's rules are of that game mode, under ids of their own. A container without a
number (Chapter Approved, the Event Companion) is named after its document and section, as
several sections repeat titles ("INTRODUCTION").
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath

from warscribe.extract.app import armies, faq
from warscribe.extract.app.entries import Entry, line_of, name_of, names_of
from warscribe.extract.app.markup import english, is_text, plain
from warscribe.extract.app.rules_text import PICTURES, ordered, rule_text
from warscribe.extract.app.source import AppFile
from warscribe.schema import ids, records
from warscribe.schema.diagnostics import Report
from warscribe.schema.records import OMIT
from warscribe.schema.text import norm, slugify

COMBAT_PATROL = "combat-patrol"
# "01.02.04 - Not On The Battlefield", "5.3.2 - Attacks ...", "24.37.01" (a number alone).
_NUMBERED = re.compile(r"^(?P<n>\d{1,2}(?:\.\d{1,2}){0,3})(?:\s*[-\u2013\u2014:]\s*(?P<title>.*))?$", re.S)
_ABILITY_SECTION = re.compile(r"\bcore abilities\b", re.I)
# The core-abilities section's containers that are rules about abilities, not abilities.
_GENERAL = {"abilities", "duplicated abilities"}
_BRACKETED = re.compile(r"^\[(?P<inner>[^\[\]]+)\]$")
# A behaviour's labelled fields, in the order a card prints them.
_BEHAVIOUR = (("eligibleIf", "ELIGIBLE IF"), ("maximumDistance", "MAXIMUM DISTANCE"),
              ("setupDistance", "SET-UP DISTANCE"), ("beforeMoving", "BEFORE MOVING"),
              ("whileMoving", "WHILE MOVING"), ("afterMoving", "AFTER MOVING"),
              ("whileShooting", "WHILE SHOOTING"), ("afterShooting", "AFTER SHOOTING"), ("effect", "EFFECT"))
_BEHAVIOUR_META = {"id", "name", "ruleReference", "$line"}
_BULLET = re.compile(r"^[■◦]\s+")


def read(files: list[AppFile], report: Report) -> list[tuple[dict, list[dict]]]:
    """Rules, core and weapon abilities, and FAQ entries of the core files; mission files reported as ignored."""
    items: list[tuple[dict, list[dict]]] = []
    abilities = _Abilities()
    containers: dict[str, str] = {}  # a container's app id -> the id of the record it became
    for file in files:
        if file.role == "core":
            items += _document(file, report, abilities, containers)
        elif file.role == "mission":
            report.warning(file.name, 1, "ignored-file", "mission cards (missions, deployments, layouts, twists) "
                           "are not records of Warscribe; file not read", expected="rules, datasheets, stratagems",
                           found="mission cards")
    for file in files:
        if file.role == "keywords":
            _keywords(file, report, abilities)
    items += abilities.records(report)
    index = faq.Index(containers)
    for file in files:
        if file.role in ("faction", "combat-patrol"):
            index.add_army(file, armies.named(file, COMBAT_PATROL if file.role == "combat-patrol" else None))
    for file in files:
        if file.role == "faqs":
            items += faq.read(file, report, index)
    return items


def number_of(entry: Entry, raw: str) -> str | None:
    """A rule number as printed ("01.02.04"); one printed without its zeros ("5.3.2") is read so, reported."""
    parts = raw.split(".")
    if len(parts) > 4 or not all(p.isdigit() and len(p) <= 2 for p in parts):
        entry.warn("bad-app-data", f"rule number {raw!r} cannot be read; the rule is kept without one",
                   expected="01.02 or 01.02.03", found=raw)
        return None
    number = ".".join(p.zfill(2) for p in parts)
    if number != raw:
        entry.warn("bad-app-data", f"rule number {raw!r} is written without its zeros; read as {number}",
                   expected=number, found=raw)
    return number


def _words(value) -> str:
    return plain(english(value)) if is_text(value) else ""


def _bullets(text: str) -> list[str]:
    return [_BULLET.sub("", ln) for ln in text.split("\n") if _BULLET.match(ln)]


class _Rules:
    """The rule records of one document, each id once (a repeated one reported and numbered on)."""

    def __init__(self, file: AppFile, report: Report, game_mode: str | None):
        self.file, self.report, self.game_mode = file, report, game_mode
        self.items: list[tuple[dict, list[dict]]] = []
        self.taken: dict[str, str] = {}  # id -> title
        self.numbers: dict[str, str] = {}  # number -> title
        self.empty: list[tuple[Entry, str]] = []  # rules without words (pictures only)

    def flush(self) -> None:
        """One finding for the rules of the document that have no words."""
        if self.empty:
            entry, _name = self.empty[0]
            names = ", ".join(repr(n) for _e, n in self.empty[:3]) + (", ..." if len(self.empty) > 3 else "")
            entry.warn("empty-rule", f"{len(self.empty)} rule(s) of this file have no words in the app (a picture, "
                       f"a heading over nothing): not made records, e.g. {names}", expected="a text",
                       found=f"{len(self.empty)} without")

    def add(self, entry: Entry, number: str | None, title: str | None, name: str, text: str,
            key_title: str) -> str | None:
        rid = ids.in_game_mode(self.game_mode, ids.rule(self.file.ruleset, key_title, number))
        if rid in self.taken:
            base, n = rid, 2
            while f"{base}-{n}" in self.taken:
                n += 1
            rid = f"{base}-{n}"
            entry.warn("id-collision", f"rule {name!r} has the id of another rule of this file ({base}); given {rid}",
                       expected="rules that differ in number or title", found=name)
        if number and number in self.numbers and self.numbers[number] != name:
            entry.warn("number-collision", f"rule number {number} is printed for {self.numbers[number]!r} and {name!r}",
                       expected="one rule per number", found=name)
        if number:
            self.numbers.setdefault(number, name)
        self.taken[rid] = name
        if not text:  # a layout's picture, a heading over nothing: counted, reported by `flush`
            self.empty.append((entry, name))
            return None
        record = records.rule(id=rid, name=name, ruleset=self.file.ruleset, number=number, title=title, text=text,
                              bullets=_bullets(text), see_also=[], game_mode=self.game_mode or OMIT)
        self.items.append((record, [entry.prov()]))
        return rid


def _document(file: AppFile, report: Report, abilities: "_Abilities",
              containers: dict[str, str]) -> list[tuple[dict, list[dict]]]:
    doc = file.doc
    base = PurePosixPath(file.path).name
    game_mode = COMBAT_PATROL if base == "combat_patrol.json" else None
    rules = _Rules(file, report, game_mode)
    doc_name = _words(doc.get("name")) or base
    root = line_of(doc)
    sections = doc.get("sections")
    if not isinstance(sections, list):
        report.warning(file.name, root, "bad-app-data", "a core file without sections; not read",
                       expected="sections: [...]", found=type(sections).__name__)
        return []
    pictures = 0
    for section in sections:
        if not isinstance(section, dict):
            continue
        section_name = _words(section.get("name"))
        ability_section = bool(_ABILITY_SECTION.search(section_name))
        for c in section.get("containers") or []:
            if not isinstance(c, dict):
                continue
            pictures += sum(1 for p in c.get("components") or [] if isinstance(p, dict) and p.get("type") in PICTURES)
            made = _container(file, report, rules, abilities, c, section_name, doc_name, ability_section, root)
            if made and isinstance(c.get("id"), str):
                containers[c["id"]] = made
    if pictures:
        report.warning(file.name, root, "app-unused", f"{pictures} picture(s) (diagrams) in the rules; not kept",
                       expected="text", found="image")
    rules.flush()
    return rules.items


def _container(file: AppFile, report: Report, rules: _Rules, abilities: "_Abilities", c: dict, section: str,
               doc_name: str, ability_section: bool, root: int) -> str | None:
    """The record(s) of one container; the id of the one the container itself became (None: none)."""
    title = _words(c.get("title"))
    raw_number = _words(c.get("subTitle"))
    entry = Entry(file, report, line_of(c, root), f"rule {raw_number} {title!r}".replace("  ", " "))
    number = number_of(entry, raw_number) if raw_number else None
    kind = c.get("type")
    if kind == "stratagem":
        entry.warn("stratagem-without-text", f"core stratagem {title!r} ({number}) is only named in the app's core "
                   "rules (its card is not in the data); not made a record", expected="its CP, WHEN, TARGET, EFFECT",
                   found="a title")
        return None
    parts = ordered(c.get("components"))
    own = [p for p in parts if p.get("type") != "accordion"]
    if kind == "behaviourType":
        text = "\n\n".join(t for t in (_behaviour(entry, c.get("behaviour")), rule_text(entry, own, pictures=False)) if t)
    else:
        text = rule_text(entry, own, pictures=False)
    if not title:
        entry.warn("heading-lost", "container without a title; named by its number", expected="a title",
                   found=raw_number or "nothing")
    name = title or number or doc_name
    made: str | None
    if ability_section and kind == "standard" and title.casefold() not in _GENERAL:
        made = abilities.from_rules(entry, title, number, text, c.get("title"))
    else:
        made = rules.add(entry, number, title or None, name, text, _key_title(doc_name, section, title, number))
    for part in parts:
        if part.get("type") == "accordion":
            _accordion(entry, rules, part, title or name, doc_name, section)
    return made


def _key_title(doc_name: str, section: str, title: str, number: str | None) -> str:
    """What a rule's id is made of besides its number: its title; for a rule without a number, its
    document's and section's names before it (sections repeat titles: "INTRODUCTION")."""
    if number:
        return title
    words: list[str] = []
    for part in (doc_name, section, title):
        if not part or any(slugify(part) in slugify(w) for w in words):
            continue  # said already ("Introduction" of the section "Introduction")
        # A part that says an earlier one takes its place ("Doubles Event Companion" for "Event Companion").
        words = [w for w in words if slugify(w) not in slugify(part)] + [part]
    return " ".join(words) or title


def _accordion(parent: Entry, rules: _Rules, part: dict, parent_title: str, doc_name: str, section: str) -> None:
    head = _words(part.get("title"))
    m = _NUMBERED.match(head)
    entry = Entry(parent.file, parent.report, parent.line, f"rule {head!r}")
    number = number_of(entry, m["n"]) if m else None
    title = (m["title"] or "").strip() if m else head
    body = _words(part.get("text"))
    if not title:
        entry.warn("heading-lost", f"a passage of {parent_title!r} printed with its number only; named after "
                   f"{parent_title!r}", expected="'01.02.03 - Title'", found=head)
    name = title or parent_title
    rules.add(entry, number, title or None, name, body, _key_title(doc_name, section, title or parent_title, number))


def _behaviour(entry: Entry, behaviour) -> str:
    """A move's or a shooting type's card: its labelled fields, one paragraph each."""
    if not isinstance(behaviour, dict):
        return ""
    lines = []
    for key, label in _BEHAVIOUR:
        words = _words(behaviour.get(key))
        if words:
            lines.append(f"{label}: {words}")
    unknown = sorted(k for k in behaviour if k not in _BEHAVIOUR_META and k not in dict(_BEHAVIOUR))
    if unknown:
        entry.warn("app-unused", f"behaviour field(s) {', '.join(unknown)} not known to the reader; not kept",
                   expected=", ".join(k for k, _l in _BEHAVIOUR), found=", ".join(unknown))
    return "\n\n".join(lines)


class _Abilities:
    """Core and weapon abilities from the core rules' section on them and from keywords.json: one record
    per id, the core rules' (numbered) text first, keywords.json's place beside it."""

    def __init__(self):
        self.found: dict[str, dict] = {}  # id -> {fields..., "provs": [...], "entry": Entry}
        self.order: list[str] = []

    def from_rules(self, entry: Entry, title: str, number: str | None, text: str, title_value) -> str:
        m = _BRACKETED.match(title)
        ruleset = entry.file.ruleset
        if m:
            ability_id = slugify(m["inner"])
            rid = ids.weapon_ability(ruleset, ability_id)
            fields = dict(name=m["inner"].strip(), type="weapon", ability_id=ability_id)
        else:
            rid = ids.core_ability(ruleset, title)
            fields = dict(name=title, type="core")
        if rid in self.found:
            entry.warn("id-collision", f"ability {title!r} is printed twice in the core rules; the first is kept",
                       expected="one container per ability", found=title)
            return rid
        other = names_of(title_value)
        if m and other is not OMIT:  # the other languages bracket the name too
            other = {k: v.strip("[]［］ ") for k, v in other.items()}
        self.found[rid] = dict(fields, number=number, text=text, names=other, provs=[entry.prov()], entry=entry)
        self.order.append(rid)
        return rid

    def from_keywords(self, entry: Entry, key: str, name: str, text: str, applies: str, name_value) -> None:
        ruleset = entry.file.ruleset
        if applies == "weapons":
            rid = ids.weapon_ability(ruleset, key)
            fields = dict(name=name, type="weapon", ability_id=key)
        else:
            rid = ids.core_ability(ruleset, name)
            fields = dict(name=name, type="core")
        known = self.found.get(rid)
        if known is None:
            self.found[rid] = dict(fields, number=None, text=text, names=names_of(name_value), provs=[entry.prov()],
                                   entry=entry)
            self.order.append(rid)
            return
        if norm(known["text"]) != norm(text):
            entry.warn("conflicting-text", f"the rule of {name!r} differs from the core rules' "
                       f"({known['entry'].file.path}, line {known['entry'].line}); the core rules' is kept",
                       expected=known["text"][:80], found=text[:80])
        known["provs"].append(entry.prov())

    def records(self, report: Report) -> list[tuple[dict, list[dict]]]:
        out = []
        for rid in self.order:
            f = self.found[rid]
            if not f["text"]:
                f["entry"].warn("empty-rule", f"ability {f['name']!r} has no text; not made a record",
                                expected="its rule", found="nothing")
                continue
            record = records.ability(id=rid, name=f["name"], ruleset=f["entry"].file.ruleset, type=f["type"],
                                     text=f["text"], ability_id=f.get("ability_id", OMIT),
                                     number=f["number"] or OMIT, names=f["names"])
            out.append((record, f["provs"]))
        return out


def _keywords(file: AppFile, report: Report, abilities: _Abilities) -> None:
    """keywords.json: {keywords: [{key, name, description, appliesTo, nameLoc?, descriptionLoc?}]}."""
    root = line_of(file.doc)
    found = file.doc.get("keywords")
    if not isinstance(found, list):
        report.warning(file.name, root, "bad-app-data", "keywords is not a list; not read", expected="a list",
                       found=type(found).__name__)
        return
    for k in found:
        if not isinstance(k, dict):
            continue
        key = k.get("key")
        name = name_of(k.get("nameLoc")) or name_of(k.get("name"))
        entry = Entry(file, report, line_of(k, root), f"keyword rule {name or key!r}")
        applies = k.get("appliesTo") if isinstance(k.get("appliesTo"), list) else []
        text = _words(k.get("descriptionLoc")) or _words(k.get("description"))
        if not isinstance(key, str) or slugify(key) != key or not name:
            entry.warn("bad-app-data", "a keyword rule without a key or a name; not read", expected="key: 'lethal-hits'",
                       found=repr(key)[:40])
            continue
        if applies not in (["weapons"], ["abilities"]):
            entry.warn("bad-app-data", f"appliesTo {applies!r} is neither weapons nor abilities; not read",
                       expected="['weapons'] or ['abilities']", found=repr(applies)[:60])
            continue
        abilities.from_keywords(entry, key, name, text, applies[0], k.get("nameLoc") or k.get("name"))
