"""Rules and abilities: headed blocks of pages, and the passages of rules extracts."""

from __future__ import annotations

import re

from warscribe.extract.blocks import Block
from warscribe.extract.extracts import Passage
from warscribe.extract.lines import Document
from warscribe.extract.link.common import mentions
from warscribe.extract import provenance
from warscribe.extract.store import Store
from warscribe.extract.text import check_text
from warscribe.schema import ids, records
from warscribe.schema.abilities import ABILITIES
from warscribe.schema.diagnostics import Report
from warscribe.schema.text import join_paragraphs, norm

# Core abilities by name, in both editions (datasheets list them as 'CORE: ...').
CORE_ABILITIES = {"deadly demise", "deep strike", "feel no pain", "fights first", "firing deck", "hover",
                  "infiltrators", "leader", "lone operative", "scouts", "stealth", "support"}

_ABILITY_BY_NAME = {norm(name.replace("-", " ")): aid for aid, (name, _k) in ABILITIES.items()}

#: (ruleset, normalised name) -> (ability type, faction) of the CORE:/FACTION: abilities datasheets name
NamedAbilities = dict[tuple[str, str], tuple[str, str]]


def link_rule_block(report: Report, store: Store, named_abilities: NamedAbilities, doc: Document, block: Block) -> str:
    """A headed block as a rule, or as an ability when its heading names one."""
    paragraphs = block.data["paragraphs"]
    bullets = block.data["bullets"]
    body = " ".join(paragraphs)
    for ln in block.lines:
        check_text(report, doc.path, ln.no, ln.text, ln.col)
    found = mentions(report, doc, block.lines, join_paragraphs(paragraphs) + " " + " ".join(bullets))
    if not paragraphs and not bullets:
        report.warning(doc.path, block.first, "empty-rule", f"heading {block.title!r} has no text under it",
                       expected="rule text", found="nothing")
    rid = _link_named(report, store, named_abilities, doc, block, block.title, block.number, body, found)
    if block.data.get("alias"):
        _link_named(report, store, named_abilities, doc, block, block.data["alias"], block.data["alias_number"],
                    body, found)
    return rid


def _link_named(report: Report, store: Store, named_abilities: NamedAbilities, doc: Document, block: Block,
                title: str, number: str | None, body: str, found: list[dict]) -> str:
    """The record of one name a heading gives (a heading may name two rules that share a text)."""
    paragraphs = block.data["paragraphs"]
    bullets = block.data["bullets"]
    bare = title.strip("[]").strip()
    weapon_id = None
    if title.startswith("[") or re.search(r"Weapons with \[", body):
        weapon_id = _ABILITY_BY_NAME.get(norm(bare.replace("-", " ")))
    named = named_abilities.get((doc.ruleset, norm(bare)))
    kind = "ability"
    if weapon_id:
        rid, ability_type = ids.weapon_ability(doc.ruleset, weapon_id), "weapon"
    elif named or norm(bare) in CORE_ABILITIES or (number or "").startswith("24."):
        ability_type = named[0] if named else "core"
        if named and named[0] == "faction":
            rid = ids.faction_ability(named[1], bare)
        else:
            rid = ids.core_ability(doc.ruleset, bare)
    else:
        rid, kind = ids.rule(doc.ruleset, bare, number), "rule"
    text = join_paragraphs(paragraphs)
    flavour = block.data.get("flavour") or records.OMIT
    if kind == "ability":
        record = records.ability(
            id=rid, name=bare, ruleset=doc.ruleset, type=ability_type, ability_id=weapon_id or records.OMIT,
            number=number or records.OMIT, heading="printed", flavour=flavour, text=text,
            bullets=bullets or records.OMIT, mentions=found)
    else:
        record = records.rule(
            id=rid, name=bare, ruleset=doc.ruleset, number=number, title=bare, flavour=flavour, text=text,
            bullets=bullets, see_also=block.data["see_also"], mentions=found)
    store.add(record, doc, block.lines, merge=_merge_prose(report, doc, block))
    return rid


def report_number_collisions(report: Report, all_records: list[dict]) -> None:
    """Two different rules printed with one number: reported at each, since a source is wrong."""
    by_number: dict[tuple[str, str, str], list[dict]] = {}
    for rec in all_records:
        if rec["kind"] in ("rule", "ability") and rec.get("number"):
            # Combat Patrol's rules are a booklet of their own, numbered from 01 again.
            by_number.setdefault((rec["ruleset"], rec.get("game_mode", ""), rec["number"]), []).append(rec)
    for (ruleset, _mode, number), recs in sorted(by_number.items()):
        if len(recs) < 2:
            continue
        for rec in recs:
            others = ", ".join(r["id"] for r in recs if r is not rec)
            src = rec["source"][0]
            report.warning(src["file"], src["first_line"], "number-collision",
                           f"{rec['id']}: rule number {number} ({ruleset}) is also printed for {others}",
                           expected=f"one rule numbered {number}", found=f"{len(recs)} rules")


def link_passages(report: Report, store: Store, doc: Document, title: str, passages: list[Passage]) -> None:
    """Attach headingless passages to the records they repeat, or keep them as their own."""
    index = _Repeats(store, doc.ruleset)
    for passage in passages:
        rid = index.shortest_holding(norm(passage.text))
        for ln in passage.lines:
            check_text(report, doc.path, ln.no, ln.text, ln.col)
        if rid is not None:
            record = store.records[rid]
            for ln in passage.lines:
                ln.mark(rid)
            store.add_provenance(record, provenance.from_lines(doc, passage.lines))
            continue
        defined = _defining_mention(passage.text)
        if defined:
            found = mentions(report, doc, passage.lines, passage.text)
            record = records.ability(
                id=ids.weapon_ability(doc.ruleset, defined), name=ABILITIES[defined][0], ruleset=doc.ruleset,
                type="weapon", ability_id=defined, heading="inferred", text=passage.display_text, mentions=found)
            report.warning(doc.path, passage.lines[0].no, "heading-inferred",
                           f"heading lost in scraping; passage read as the rule of [{ABILITIES[defined][0]}] "
                           "from the ability it defines",
                           expected="a heading", found=passage.text[:60])
            store.add(record, doc, passage.lines, merge=_merge_prose(report, doc, None))
            continue
        first_words = " ".join(re.findall(r"[A-Za-z0-9]+", passage.text)[:6])
        found = mentions(report, doc, passage.lines, passage.text)
        faction = doc.meta.get("faction")
        if faction and _about_the_unit(passage.text, title):
            _unit_ability(report, store, doc, title, faction, passage, first_words, found)
            continue
        record = records.rule(
            id=ids.untitled_rule(doc.ruleset, title, first_words), name=f"{title}: {_sentence_start(passage.text)}",
            ruleset=doc.ruleset, number=None, title=None, text=passage.display_text, bullets=passage.bullets,
            see_also=[], mentions=found)
        report.warning(doc.path, passage.lines[0].no, "heading-lost",
                       "passage has no heading and repeats no known rule; kept as an untitled rule",
                       expected="a heading", found=passage.text[:60])
        store.add(record, doc, passage.lines)


class _Repeats:
    """The rules and abilities of one edition a headingless passage may repeat, found by the words inside
    it: a passage's inner words are whole words of any text that holds it, so only the texts holding its
    rarest inner word are searched (time grows with the passages, not with passages times records). Its
    first and last words may be cut in the text ('…sive Fire' in 'Defensive Fire'), so a passage of fewer
    than three words is searched for in every text."""

    def __init__(self, store: Store, ruleset: str):
        self.texts = [(rid, _searchable(rec)) for rid, rec in store.records.items()
                      if rec["kind"] in ("rule", "ability") and rec["ruleset"] == ruleset]
        self.by_word: dict[str, list[int]] = {}
        for i, (_rid, text) in enumerate(self.texts):
            for word in set(text.split()):
                self.by_word.setdefault(word, []).append(i)

    def shortest_holding(self, key: str) -> str | None:
        """The id of the shortest text holding `key` (the first id of those as long), or None."""
        if not key:
            return None
        inner = key.split()[1:-1]
        if inner:
            postings = [self.by_word.get(w, []) for w in inner]
            candidates = min(postings, key=len)
        else:
            candidates = range(len(self.texts))
        best = None
        for i in candidates:
            rid, text = self.texts[i]
            if key in text and (best is None or (len(text), rid) < best):
                best = (len(text), rid)
        return best[1] if best else None


# A passage about the unit whose page the extract comes from speaks of 'this unit' or 'the
# bearer', or names the unit by its keyword ('... one INQUISITORIAL AGENTS unit ...').
_THIS_UNIT = re.compile(r"\b(?:this (?:unit|model)|the bearer)\b")
# A passage that names what it is the ability of: '... for each Tome-skull this unit is
# equipped with', '... while this model is equipped with a Psyber-eagle'.
_EQUIPPED = re.compile(
    r"\b(?:each|a|an|one) (?P<a>[A-Z][A-Za-z’'\-]+(?: [A-Za-z’'\-]+){0,2}?) (?:this|that) (?:unit|model) is equipped with"
    r"|\b(?:this|that) (?:unit|model) is equipped with (?:a|an|one or more) (?P<b>[A-Z][A-Za-z’'\-]+(?: [A-Z][A-Za-z’'\-]+){0,2})")


def _about_the_unit(text: str, title: str) -> bool:
    return bool(_THIS_UNIT.search(text)) or re.search(rf"\b{re.escape(title.upper())}\b", text) is not None


def _unit_ability(report: Report, store: Store, doc: Document, unit: str, faction: str, passage: Passage,
                  first_words: str, found) -> None:
    """A headingless passage of a unit's page: an ability of that unit, named when the text names it."""
    named = _EQUIPPED.search(passage.text)
    if named:
        name, kind, heading = (named.group("a") or named.group("b")).strip(), "wargear", "inferred"
        report.warning(doc.path, passage.lines[0].no, "heading-inferred",
                       f"heading lost in scraping; passage read as the {unit} wargear ability {name!r} it names",
                       expected="a heading", found=passage.text[:60], column=passage.lines[0].col)
    else:
        name, kind, heading = f"{unit}: {_sentence_start(passage.text)}", "datasheet", "lost"
        report.warning(doc.path, passage.lines[0].no, "heading-lost",
                       f"passage has no heading; kept as an untitled ability of {unit}",
                       expected="a heading", found=passage.text[:60], column=passage.lines[0].col)
    rid = ids.unit_ability(faction, unit, name if named else first_words)
    record = records.ability(
        id=rid, name=name, ruleset=doc.ruleset, type=kind, heading=heading, unit=ids.datasheet(faction, unit),
        text=passage.display_text, bullets=passage.bullets or records.OMIT, mentions=found)
    store.add(record, doc, passage.lines)


def _searchable(record: dict) -> str:
    parts = [record.get("flavour", ""), record.get("text", ""), " ".join(record.get("bullets", []))]
    return norm(" ".join(p for p in parts if p))


def _sentence_start(text: str) -> str:
    first = re.split(r"(?<=[.:])\s", text.strip(), maxsplit=1)[0]
    first = first.lstrip("•-0123456789. ").strip()
    return first if len(first) <= 60 else first[:57].rsplit(" ", 1)[0] + "…"


_DEFINING = re.compile(
    r"(?:with an? |made with an? |number of |takes the form |^)\[(?P<name>[A-Z][A-Z \-]*?[A-Z])(?:[ \-](?:X|\d|D\d)[^\]]*)?\]"
    r"(?: weapons?| and \[)")


def _defining_mention(text: str) -> str | None:
    """The weapon ability a headingless passage defines ('... with a [HEAVY] weapon ...')."""
    m = _DEFINING.search(text)
    if not m:
        return None
    return _ABILITY_BY_NAME.get(norm(m.group("name").replace("-", " ")))


def _merge_prose(report: Report, doc: Document, block: Block | None):
    """A heading printed twice: keep every distinct paragraph and bullet, in order."""
    def merge(old: dict, new: dict) -> None:
        changed = False
        old_paras = old["text"].split("\n\n") if old["text"] else []
        known = {norm(p) for p in old_paras}
        searchable = _searchable(old)
        for para in (new["text"].split("\n\n") if new["text"] else []):
            if norm(para) not in known and norm(para) not in searchable:
                old_paras.append(para)
                changed = True
        old["text"] = join_paragraphs(old_paras)
        if new.get("bullets"):
            bullets = old.setdefault("bullets", [])
            known_bullets = {norm(x) for x in bullets}
            for b in new["bullets"]:
                if norm(b) not in known_bullets:
                    known_bullets.add(norm(b))
                    bullets.append(b)
                    changed = True
        if changed:
            where = f"line {block.first}" if block else "this passage"
            report.warning(doc.path, block.first if block else 1, "heading-repeated",
                           f"{old['id']} is printed more than once with different parts ({where}); parts merged",
                           expected="one text", found=old["name"])
    return merge
