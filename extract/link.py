"""From parsed pages to records: joins lists with texts, names blocks, merges sightings.

Datasheet pages print names apart from their texts (the stratagem list at the top,
full texts later; enhancement names and costs in one place, their texts elsewhere and
without the names). This stage joins them, says how, and reports whatever it could
not join rather than guessing silently.
"""

from __future__ import annotations

import itertools
import re

from warscribe.schema.abilities import ABILITIES, find_mentions
from warscribe.extract.blocks import Block
from warscribe.schema.diagnostics import Report
from warscribe.extract.extracts import Passage
from warscribe.extract.lines import Document, Line
from warscribe.extract.page import PageParse, Weapon
from warscribe.extract.store import Store, provenance
from warscribe.schema.values import parse_ap, parse_dice, parse_range, parse_skill
from warscribe.extract.text import check_text
from warscribe.schema.text import join_paragraphs, norm, number_slug, slugify

# Core abilities by name, in both editions (datasheets list them as 'CORE: ...').
CORE_ABILITIES = {"deadly demise", "deep strike", "feel no pain", "fights first", "firing deck", "hover",
                  "infiltrators", "leader", "lone operative", "scouts", "stealth", "support"}

_ABILITY_BY_NAME = {norm(name.replace("-", " ")): aid for aid, (name, _k) in ABILITIES.items()}


class Linker:
    def __init__(self, report: Report, store: Store):
        self.report = report
        self.store = store
        self.pages: list[PageParse] = []
        # Names of CORE:/FACTION: abilities per ruleset, to tell abilities from rules.
        self.named_abilities: dict[tuple[str, str], tuple[str, str]] = {}
        self.keyword_usage: list[tuple[Document, Block]] = []

    # -- pages -------------------------------------------------------------------

    def add_page(self, page: PageParse) -> None:
        self.pages.append(page)
        for kind, name, _text, _lines in page.abilities:
            if kind in ("core", "faction"):
                self.named_abilities[(page.doc.ruleset, norm(name))] = (kind, page.faction)

    def link_pages(self) -> None:
        for page in self.pages:
            self._page(page)

    def _page(self, page: PageParse) -> None:
        doc = page.doc
        faction_slug = slugify(page.faction)
        ds_id = f"{faction_slug}/{slugify(page.name)}"

        full_detachments = sorted({b.data["detachment"] for b in page.blocks
                                   if b.kind in ("detachment-rule", "enhancement-text")})

        def detachment_name(short: str) -> str:
            matches = [f for f in full_detachments if f == short or f.endswith(" " + short)]
            return matches[0] if len(matches) == 1 else short

        # Rules and abilities first: datasheet abilities link to them.
        for block in page.blocks:
            if block.kind == "rule":
                self._rule_block(doc, block, page.faction)
        weapon_ids = [self._weapon(doc, page, ds_id, w) for w in page.weapons]
        weapon_ids = list(dict.fromkeys(w for w in weapon_ids if w))
        self._datasheet(page, ds_id, weapon_ids)

        stratagem_ids = self._stratagems(page, faction_slug, detachment_name)
        enhancement_ids = self._enhancements(page, faction_slug, detachment_name)

        # Detachments: every detachment the page names, with its rule where given.
        names = set(full_detachments)
        names.update(detachment_name(s.origin) for s in page.stratagems if s.origin not in ("Core", "Boarding Actions"))
        names.update(detachment_name(b.data["origin"]) for b in page.blocks
                     if b.kind == "stratagem" and b.data["origin"] not in ("Core", "Boarding Actions"))
        listed_rules = {norm(ln.text): ln for ln in page.detachment_rules}
        for det in sorted(names):
            det_id = f"{faction_slug}/{slugify(det)}"
            rule_block = next((b for b in page.blocks if b.kind == "detachment-rule" and b.data["detachment"] == det), None)
            rule = None
            lines: list[Line] = []
            if rule_block is not None:
                rule = {"name": rule_block.title}
                if rule_block.data.get("flavour"):
                    rule["flavour"] = rule_block.data["flavour"]
                paragraphs = list(rule_block.data["paragraphs"])
                note = [p for p in paragraphs if p.startswith("Designer’s Note:")]
                paragraphs = [p for p in paragraphs if p not in note]
                text = join_paragraphs(paragraphs)
                rule["text"] = text
                if note:
                    rule["designer_note"] = note[0][len("Designer’s Note:"):].strip()
                self._mentions(doc, rule_block.lines, rule, text)
                lines = rule_block.lines
                listed = listed_rules.pop(norm(rule_block.title), None)
                if listed is not None:
                    lines = lines + [listed]
                else:
                    self.report.warning(doc.path, rule_block.first, "unlisted-detachment-rule",
                                        f"detachment rule {rule_block.title!r} is not in the page's DETACHMENT ABILITY list",
                                        expected="a listed name", found=rule_block.title)
            else:
                self.report.warning(doc.path, page.title_line.no, "missing-detachment-rule",
                                    f"detachment {det!r} is named on the page but its rule is not given",
                                    expected=f"a '<rule name>' / '{det} Detachment' block", found="nothing")
            record = {
                "id": det_id, "kind": "detachment", "name": det, "ruleset": doc.ruleset,
                "faction": page.faction, "rule": rule,
                "stratagems": sorted(s for s in stratagem_ids if s.startswith(det_id + "/")),
                "enhancements": sorted(e for e in enhancement_ids.get(det, [])),
            }
            self.store.add(record, doc, lines or [page.title_line], merge=_merge_detachment)
        for key, ln in listed_rules.items():
            self.report.warning(doc.path, ln.no, "detachment-rule-without-text",
                                f"DETACHMENT ABILITY lists {ln.text!r} but the page has no text for it",
                                expected=f"a block headed {ln.text!r}", found="nothing")
            ln.classify("heading")

        for block in page.blocks:
            if block.kind == "keyword-usage":
                self.keyword_usage.append((doc, block))

    # -- datasheets and weapons --------------------------------------------------

    def _datasheet(self, page: PageParse, ds_id: str, weapon_ids: list[str]) -> None:
        doc = page.doc
        lines: list[Line] = [page.title_line]
        abilities = []
        for kind, name, text, alines in page.abilities:
            entry: dict = {"name": name.replace(" (Psychic)", ""), "type": kind, "text": text}
            if name.endswith(" (Psychic)"):
                entry["psychic"] = True
            ref = self._ability_ref(doc.ruleset, kind, name, page.faction)
            if ref:
                entry["ref"] = ref
            abilities.append(entry)
            lines += alines
        notes = [b for b in page.blocks if b.kind == "points-note"]
        conditions = list(dict.fromkeys(p.condition for p in page.points if p.condition))
        condition_text = {}
        for cond, note in zip(conditions, notes):
            condition_text[cond] = note.data["text"]
            lines += note.lines
        if notes and len(notes) != len(conditions):
            self.report.warning(doc.path, notes[0].first, "points-notes", "points notes and cost conditions differ in number",
                                expected=f"{len(conditions)} notes", found=f"{len(notes)} notes")
        points = []
        for p in page.points:
            row = {"models": p.models, "points": p.points, "condition": p.condition}
            if p.condition in condition_text:
                row["condition_text"] = condition_text[p.condition]
            points.append(row)
            lines += p.lines
        record = {
            "id": ds_id, "kind": "datasheet", "name": page.name, "ruleset": doc.ruleset,
            "faction": page.faction,
            "keywords": page.keywords,
            "faction_keywords": list(dict.fromkeys(page.faction_keywords)),
            "composition": [{"name": n, "min": lo, "max": hi} for n, lo, hi, _l in page.composition],
            "points": points,
            "abilities": abilities,
            "weapons": weapon_ids,
            "wargear_options": wargear_options(page.wargear_options),
        }
        lines += [ln for w in page.weapons for ln in w.lines]
        lines += [ln for *_x, ln in page.composition] + page.wargear_options + page.keyword_lines + page.faction_keyword_lines
        for key, value in (("leader", page.leader), ("led_by", page.led_by)):
            if value is not None:
                text, units, used = value
                record[key] = {"text": text, "units": units}
                lines += used
        for ln in page.wargear_options:
            check_text(self.report, doc.path, ln.no, ln.text, ln.col)
        self.store.add(record, doc, lines)

    def _ability_ref(self, ruleset: str, kind: str, name: str, faction: str) -> str | None:
        if kind == "core":
            return f"{ruleset}/abilities/{slugify(name)}"
        if kind == "faction":
            return f"{slugify(faction)}/abilities/{slugify(name)}"
        return None

    def _weapon(self, doc: Document, page: PageParse, ds_id: str, w: Weapon) -> str | None:
        line = w.lines[-1]
        for p in w.problems:
            self.report.warning(doc.path, line.no, "weapon-ability", p.message, expected="a known weapon ability", found=p.text)
        if len(w.cells) != 6:
            self.report.error(doc.path, line.no, "bad-weapon-row", f"weapon {w.name!r} has no complete profile row; skipped",
                              expected="| name | range | A | BS/WS | S | AP | D |", found=line.text)
            for ln in w.lines:
                ln.classify("lost-table")
            return None
        rng, a, skill, s, ap, d = w.cells
        try:
            record = {
                "id": f"{ds_id}/{slugify(w.name)}", "kind": "weapon", "name": w.name, "ruleset": doc.ruleset,
                "datasheet": ds_id, "type": w.type,
                "range": parse_range(rng), "attacks": parse_dice(a, "A"), "skill": parse_skill(skill),
                "strength": parse_dice(s, "S"), "ap": parse_ap(ap), "damage": parse_dice(d, "D"),
                "abilities": w.abilities,
            }
        except ValueError as exc:
            self.report.error(doc.path, line.no, "bad-weapon-value", f"weapon {w.name!r}: {exc}; skipped",
                              expected="range, A, BS/WS, S, AP, D values", found=line.text)
            return None
        self.store.add(record, doc, w.lines)
        return record["id"]

    # -- stratagems ----------------------------------------------------------------

    def _stratagems(self, page: PageParse, faction_slug: str, detachment_name) -> list[str]:
        doc = page.doc
        texts = {}
        for b in page.blocks:
            if b.kind == "stratagem":
                key = (b.title.upper(), detachment_name(b.data["origin"]))
                if key in texts:
                    self.report.warning(doc.path, b.first, "duplicate-stratagem", f"stratagem {b.title} printed twice",
                                        expected="one text", found=f"also at line {texts[key].first}")
                    continue
                texts[key] = b
        ids = []
        for listed in page.stratagems:
            key = (listed.name.upper(), detachment_name(listed.origin))
            block = texts.pop(key, None)
            ids.append(self._stratagem(doc, faction_slug, detachment_name, listed.name, listed, block))
        for key, block in sorted(texts.items(), key=lambda kv: kv[1].first):
            self.report.warning(doc.path, block.first, "unlisted-stratagem",
                                f"stratagem {block.title} has a text but is not in the page's STRATAGEMS list",
                                expected="a listed stratagem", found=block.title)
            ids.append(self._stratagem(doc, faction_slug, detachment_name, block.title, None, block))
        return ids

    def _stratagem(self, doc, faction_slug, detachment_name, name, listed, block) -> str:
        origin_raw = (block.data["origin"] if block else listed.origin)
        if origin_raw == "Core":
            origin, det_id, prefix = "core", None, f"core-{doc.ruleset}"
        elif origin_raw == "Boarding Actions":
            origin, det_id, prefix = "boarding-actions", None, "boarding-actions"
        else:
            origin = "detachment"
            det_id = f"{faction_slug}/{slugify(detachment_name(origin_raw))}"
            prefix = det_id
        category = (block.data["category"] if block else None) or (listed.category if listed else None)
        if block and listed and listed.category and block.data["category"] and listed.category != block.data["category"]:
            self.report.warning(doc.path, block.first, "stratagem-mismatch",
                                f"{name}: category differs between the list and the text",
                                expected=listed.category, found=block.data["category"])
        if block and listed and listed.cp != block.data["cp"]:
            self.report.warning(doc.path, block.first, "stratagem-mismatch", f"{name}: CP differs between the list and the text",
                                expected=f"{listed.cp}CP", found=f"{block.data['cp']}CP")
        record = {
            "id": f"{prefix}/{slugify(name)}", "kind": "stratagem", "name": name, "ruleset": doc.ruleset,
            "cp": block.data["cp"] if block else listed.cp,
            "category": category, "origin": origin, "detachment": det_id,
            "when": None, "target": None, "effect": None, "restrictions": None, "flavour": None,
        }
        lines: list[Line] = list(listed.lines) if listed else []
        if block:
            if block.number:
                record["number"] = block.number
            for key in ("when", "target", "effect", "restrictions", "flavour"):
                record[key] = block.data.get(key)
            if block.data.get("designer_note"):
                record["designer_note"] = block.data["designer_note"]
            text = " ".join(v for v in (record["when"], record["target"], record["effect"], record["restrictions"]) if v)
            self._mentions(doc, block.lines, record, text)
            lines += block.lines
        else:
            self.report.warning(doc.path, listed.lines[0].no, "stratagem-without-text",
                                f"stratagem {name} is listed but its text is not on the page",
                                expected="WHEN / TARGET / EFFECT text", found="nothing")
        self.store.add(record, doc, lines, merge=_merge_stratagem(self.report, doc, lines))
        return record["id"]

    # -- enhancements --------------------------------------------------------------

    def _enhancements(self, page: PageParse, faction_slug: str, detachment_name) -> dict[str, list[str]]:
        doc = page.doc
        texts = [b for b in page.blocks if b.kind == "enhancement-text"]
        names = page.enhancements
        by_detachment: dict[str, list[str]] = {}
        if not names and not texts:
            return by_detachment
        assignment = align_enhancements([n for n, _c, _l in names], texts)
        groups = [detachment_name(t.data["detachment"]) for t in texts]
        for t_index, block in enumerate(texts):
            if t_index not in assignment.values():
                self.report.warning(doc.path, block.first, "enhancement-without-name",
                                    f"enhancement text for {groups[t_index]} matches no listed name; kept out of the records",
                                    expected="a name in the ENHANCEMENTS list", found=block.data.get("text", "")[:60])
                for ln in block.lines:
                    ln.classify("heading")
        for n_index, (name, cost, nlines) in enumerate(names):
            t_index = assignment.get(n_index)
            block = texts[t_index] if t_index is not None else None
            if block is not None:
                det = groups[t_index]
            else:
                before = [groups[assignment[j]] for j in range(n_index) if j in assignment]
                after = [groups[assignment[j]] for j in range(n_index + 1, len(names)) if j in assignment]
                det = before[-1] if before and after and before[-1] == after[0] else None
                self.report.warning(doc.path, nlines[0].no, "enhancement-without-text",
                                    f"enhancement {name!r} is listed without a text on the page"
                                    + ("" if det else "; its detachment is unknown"),
                                    expected="an enhancement text block", found="nothing")
            det_id = f"{faction_slug}/{slugify(det)}" if det else None
            eid = f"{det_id or faction_slug}/enhancements/{slugify(name)}"
            record = {
                "id": eid, "kind": "enhancement", "name": name, "ruleset": doc.ruleset,
                "detachment": det_id, "points": cost,
                "text": block.data["text"] if block else None,
                "restriction": block.data["restriction"] if block else None,
            }
            lines = list(nlines)
            if block is not None:
                if block.data.get("flavour"):
                    record["flavour"] = block.data["flavour"]
                self._mentions(doc, block.lines, record, block.data["text"])
                lines += block.lines
            self.store.add(record, doc, lines)
            if det:
                by_detachment.setdefault(det, []).append(eid)
        return by_detachment

    # -- rules and abilities ---------------------------------------------------------

    def _rule_block(self, doc: Document, block: Block, faction: str) -> str:
        title = block.title
        bare = title.strip("[]").strip()
        paragraphs = block.data["paragraphs"]
        body = " ".join(paragraphs)
        weapon_id = None
        if title.startswith("[") or re.search(r"Weapons with \[", body):
            weapon_id = _ABILITY_BY_NAME.get(norm(bare.replace("-", " ")))
        named = self.named_abilities.get((doc.ruleset, norm(bare)))
        if weapon_id:
            rid, kind = f"{doc.ruleset}/abilities/{weapon_id}", "ability"
            ability_type = "weapon"
        elif named or norm(bare) in CORE_ABILITIES or (block.number or "").startswith("24."):
            ability_type = named[0] if named else "core"
            owner = slugify(named[1]) if named and named[0] == "faction" else doc.ruleset
            rid, kind = f"{owner}/abilities/{slugify(bare)}", "ability"
        else:
            slug = slugify(bare)
            rid = f"{doc.ruleset}/rules/" + (f"{number_slug(block.number)}-{slug}" if block.number else slug)
            kind = "rule"
        record: dict = {"id": rid, "kind": kind, "name": bare, "ruleset": doc.ruleset}
        if kind == "ability":
            record["type"] = ability_type
            if weapon_id:
                record["ability_id"] = weapon_id
            if block.number:
                record["number"] = block.number
            record["heading"] = "printed"
        else:
            record.update({"number": block.number, "title": bare})
        if block.data.get("flavour"):
            record["flavour"] = block.data["flavour"]
        record["text"] = join_paragraphs(paragraphs)
        if kind == "rule" or block.data["bullets"]:
            record["bullets"] = block.data["bullets"]
        if kind == "rule":
            record["see_also"] = block.data["see_also"]
        for ln in block.lines:
            check_text(self.report, doc.path, ln.no, ln.text, ln.col)
        self._mentions(doc, block.lines, record, record["text"] + " " + " ".join(block.data["bullets"]))
        if not record["text"] and not block.data["bullets"]:
            self.report.warning(doc.path, block.first, "empty-rule", f"heading {title!r} has no text under it",
                                expected="rule text", found="nothing")
            record["text"] = ""
        self.store.add(record, doc, block.lines, merge=_merge_prose(self.report, doc, block))
        return rid

    def _mentions(self, doc: Document, lines: list[Line], record: dict, text: str) -> None:
        mentions, problems = find_mentions(text)
        if mentions:
            record["mentions"] = mentions
        for p in problems:
            line = next((ln for ln in lines if p.text in ln.text), lines[0])
            self.report.warning(doc.path, line.no, "scraping-typo", f"ability {p.text!r}: {p.message}",
                                expected="[ABILITY] as printed in weapon profiles", found=p.text,
                                column=line.col + max(line.text.find(p.text), 0))

    # -- rules extracts ------------------------------------------------------------

    def link_passages(self, doc: Document, title: str, passages: list[Passage]) -> None:
        """Attach headingless passages to the records they repeat, or keep them as their own."""
        index = [(rid, _searchable(rec)) for rid, rec in self.store.records.items() if rec["kind"] in ("rule", "ability")]
        for passage in passages:
            key = norm(passage.text)
            hits = [rid for rid, text in index if key and key in text and self.store.records[rid]["ruleset"] == doc.ruleset]
            for ln in passage.lines:
                check_text(self.report, doc.path, ln.no, ln.text, ln.col)
            if hits:
                rid = sorted(hits, key=lambda r: (len(index[[i for i, _ in index].index(r)][1]), r))[0]
                record = self.store.records[rid]
                for ln in passage.lines:
                    ln.mark(rid)
                self.store.add_provenance(record, provenance(doc, passage.lines))
                continue
            defined = _defining_mention(passage.text)
            if defined:
                rid = f"{doc.ruleset}/abilities/{defined}"
                record = {"id": rid, "kind": "ability", "name": ABILITIES[defined][0], "ruleset": doc.ruleset,
                          "type": "weapon", "ability_id": defined, "heading": "inferred", "text": passage.display_text}
                self._mentions(doc, passage.lines, record, passage.text)
                self.report.warning(doc.path, passage.lines[0].no, "heading-inferred",
                                    f"heading lost in scraping; passage read as the rule of [{ABILITIES[defined][0]}] "
                                    "from the ability it defines",
                                    expected="a heading", found=passage.text[:60])
                self.store.add(record, doc, passage.lines, merge=_merge_prose(self.report, doc, None))
                continue
            first_words = " ".join(re.findall(r"[A-Za-z0-9]+", passage.text)[:6])
            rid = f"{doc.ruleset}/rules/{slugify(title)}-{slugify(first_words)}"
            record = {"id": rid, "kind": "rule", "name": f"{title}: {_sentence_start(passage.text)}",
                      "ruleset": doc.ruleset, "number": None, "title": None,
                      "text": passage.display_text, "bullets": passage.bullets, "see_also": []}
            self._mentions(doc, passage.lines, record, passage.text)
            self.report.warning(doc.path, passage.lines[0].no, "heading-lost",
                                "passage has no heading and repeats no known rule; kept as an untitled rule",
                                expected="a heading", found=passage.text[:60])
            self.store.add(record, doc, passage.lines)

    # -- keywords ------------------------------------------------------------------

    def link_keywords(self) -> None:
        usage: dict[tuple[str, str], list[dict]] = {}
        usage_lines: dict[tuple[str, str], list[tuple[Document, Block]]] = {}
        for doc, block in self.keyword_usage:
            kws = block.data["keywords"]
            for kw in kws:
                entry = {"faction": block.data["faction"], "categories": block.data["categories"]}
                others = [k for k in kws if k != kw]
                if others:
                    entry["together_with"] = others
                entries = usage.setdefault((doc.ruleset, kw), [])
                if entry not in entries:  # identical lists on several pages say it once
                    entries.append(entry)
                usage_lines.setdefault((doc.ruleset, kw), []).append((doc, block))
        carried: dict[tuple[str, str], tuple[set[str], bool]] = {}
        sightings: dict[tuple[str, str], list[tuple[Document, list[Line]]]] = {}
        for page in self.pages:
            ds_id = f"{slugify(page.faction)}/{slugify(page.name)}"
            for kw, lines, faction in [(k, page.keyword_lines, False) for k in page.keywords] + \
                                      [(k, page.faction_keyword_lines, True) for k in page.faction_keywords]:
                ds, fk = carried.get((page.doc.ruleset, kw), (set(), False))
                ds.add(ds_id)
                carried[(page.doc.ruleset, kw)] = (ds, fk or faction)
                sightings.setdefault((page.doc.ruleset, kw), []).append((page.doc, lines))
        for key in sorted(set(usage) | set(carried)):
            ruleset, kw = key
            ds, fk = carried.get(key, (set(), False))
            record = {"id": f"{ruleset}/keywords/{slugify(kw)}", "kind": "keyword", "name": kw, "ruleset": ruleset,
                      "faction_keyword": fk, "datasheets": sorted(ds), "usage": usage.get(key, [])}
            places = [(d, ls) for d, ls in sightings.get(key, [])] + [(d, b.lines) for d, b in usage_lines.get(key, [])]
            first_doc, first_lines = places[0]
            self.store.add(record, first_doc, first_lines)
            for d, ls in places[1:]:
                for ln in ls:
                    ln.mark(record["id"])
                self.store.add_provenance(self.store.records[record["id"]], provenance(d, ls))


# -- helpers -----------------------------------------------------------------------

def wargear_options(lines: list[Line]) -> list[dict]:
    """'- ... one of the following:' followed by '- 1 incinerator' lines is one option with choices."""
    options: list[dict] = []
    for ln in lines:
        text = ln.text.strip()
        item = text[2:].strip() if text.startswith("- ") else text
        parent = options[-1] if options else None
        if parent is not None and parent["text"].endswith(":") and re.match(r"^\d+ [^.:]*$", item):
            parent.setdefault("choices", []).append(item)
        else:
            options.append({"text": item})
    return options


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


def _merge_stratagem(report: Report, doc: Document, lines: list[Line]):
    def merge(old: dict, new: dict) -> None:
        for key in ("when", "target", "effect", "restrictions"):
            if old.get(key) is None and new.get(key) is not None:
                old[key] = new[key]
            elif new.get(key) is not None and norm(old[key]) != norm(new[key]):
                first = old["source"][0]
                report.warning(doc.path, lines[0].no if lines else 1, "conflicting-duplicate",
                               f"{old['id']}: {key.upper()} differs from {first['file']}:{first['first_line']}; the first is kept",
                               expected=old[key][:80], found=new[key][:80])
    return merge


def _merge_detachment(old: dict, new: dict) -> None:
    if old["rule"] is None:
        old["rule"] = new["rule"]
    old["stratagems"] = sorted(set(old["stratagems"]) | set(new["stratagems"]))
    old["enhancements"] = sorted(set(old["enhancements"]) | set(new["enhancements"]))


# -- enhancement join ------------------------------------------------------------------

_STOP = {"with", "that", "this", "from", "their", "them", "they", "have", "which", "into", "upon", "even", "such",
         "model", "models", "unit", "units", "only", "your", "army", "bearer", "each", "time", "other", "those"}


def _stems(text: str) -> set[str]:
    return {w[:4].lower() for w in re.findall(r"[A-Za-z]{4,}", text) if w.lower() not in _STOP}


def _similarity(name: str, block: Block) -> int:
    body = (block.data.get("flavour") or "") + " " + (block.data.get("text") or "")
    score = len(_stems(name.replace("(Aura)", "")) & _stems(body))
    if "(Aura)" in name and re.search(r'While an? (?:enemy |friendly )?unit is within \d+"', body):
        score += 2
    return score


def align_enhancements(names: list[str], texts: list[Block]) -> dict[int, int]:
    """Join listed enhancement names to their texts (which lost the names): name index -> text index.

    Both lists are in page order, and a page may drop texts, so this is an order-keeping
    alignment. Among alignments, the best is the one whose names share the most words
    with their texts (an '(Aura)' name with an aura text counts double); on a tie, a
    name left without text sits between two detachments' texts rather than inside one
    detachment's run, and later rather than earlier.
    """
    n, t = len(names), len(texts)
    if t == 0:
        return {}
    if t > n or n > 24:
        return {i: i for i in range(min(n, t))}
    groups = [b.data["detachment"] for b in texts]
    similarity = [[_similarity(name, block) for block in texts] for name in names]
    best_key = None
    best: dict[int, int] = {}
    for chosen in itertools.combinations(range(n), t):
        score = sum(similarity[ni][ti] for ti, ni in enumerate(chosen))
        gaps = [ni for ni in range(n) if ni not in chosen]
        at_boundary = 0
        for g in gaps:
            before = [ti for ti, ni in enumerate(chosen) if ni < g]
            after = [ti for ti, ni in enumerate(chosen) if ni > g]
            if not before or not after or groups[before[-1]] != groups[after[0]]:
                at_boundary += 1
        key = (score, at_boundary, gaps)
        if best_key is None or key > best_key:
            best_key, best = key, {ni: ti for ti, ni in enumerate(chosen)}
    return best
