"""Detachments and enhancements: rules, stratagem and enhancement lists, names joined to texts."""

from __future__ import annotations

import itertools
import re
from typing import Callable

from warscribe.extract.blocks import Block
from warscribe.extract.lines import Line
from warscribe.extract.link.common import mentions
from warscribe.extract.page import PageParse
from warscribe.extract.store import Store
from warscribe.schema import ids, records
from warscribe.schema.diagnostics import Report
from warscribe.schema.text import join_paragraphs, norm

_NOTE = "Designer’s Note:"


def link_detachments(report: Report, store: Store, page: PageParse, names: dict[str, list[Line]],
                     stratagem_ids: list[str], enhancement_ids: dict[str, list[str]]) -> None:
    """Every detachment the page names (with the lines naming it), with its rule where given."""
    doc = page.doc
    listed_rules = {norm(ln.text): ln for ln in page.detachment_rules}
    for det in sorted(names):
        det_id = ids.detachment(page.faction, det)
        rule_block = next((b for b in page.blocks if b.kind == "detachment-rule" and b.data["detachment"] == det), None)
        rule = None
        lines: list[Line] = []
        if rule_block is not None:
            rule = {"name": rule_block.title}
            if rule_block.data.get("flavour"):
                rule["flavour"] = rule_block.data["flavour"]
            paragraphs = list(rule_block.data["paragraphs"])
            note = [p for p in paragraphs if p.startswith(_NOTE)]
            paragraphs = [p for p in paragraphs if p not in note]
            text = join_paragraphs(paragraphs)
            rule["text"] = text
            if note:
                rule["designer_note"] = note[0][len(_NOTE):].strip()
            found = mentions(report, doc, rule_block.lines, text)
            if found:
                rule["mentions"] = found
            lines = rule_block.lines
            listed = listed_rules.pop(norm(rule_block.title), None)
            if listed is not None:
                lines = lines + [listed]
            else:
                report.warning(doc.path, rule_block.first, "unlisted-detachment-rule",
                               f"detachment rule {rule_block.title!r} is not in the page's DETACHMENT ABILITY list",
                               expected="a listed name", found=rule_block.title)
        else:
            lines = names[det]
            where = lines[0] if lines else page.title_line
            report.warning(doc.path, where.no, "missing-detachment-rule",
                           f"detachment {det!r} is named on the page but its rule is not given",
                           expected=f"a '<rule name>' / '{det} Detachment' block", found="nothing",
                           column=where.col)
        record = records.detachment(
            id=det_id, name=det, ruleset=doc.ruleset, faction=page.faction, rule=rule,
            stratagems=sorted(s for s in stratagem_ids if s.startswith(det_id + "/")),
            enhancements=sorted(e for e in enhancement_ids.get(det, [])))
        store.add(record, doc, lines or [page.title_line], merge=_merge_detachment)
    for key, ln in listed_rules.items():
        report.warning(doc.path, ln.no, "detachment-rule-without-text",
                       f"DETACHMENT ABILITY lists {ln.text!r} but the page has no text for it",
                       expected=f"a block headed {ln.text!r}", found="nothing")
        ln.classify("heading")


def _merge_detachment(old: dict, new: dict) -> None:
    if old["rule"] is None:
        old["rule"] = new["rule"]
    old["stratagems"] = sorted(set(old["stratagems"]) | set(new["stratagems"]))
    old["enhancements"] = sorted(set(old["enhancements"]) | set(new["enhancements"]))


def link_enhancements(report: Report, store: Store, page: PageParse,
                      detachment_name: Callable[[str], str]) -> dict[str, list[str]]:
    """The page's enhancements; their ids by detachment name."""
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
            report.warning(doc.path, block.first, "enhancement-without-name",
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
            report.warning(doc.path, nlines[0].no, "enhancement-without-text",
                           f"enhancement {name!r} is listed without a text on the page"
                           + ("" if det else "; its detachment is unknown"),
                           expected="an enhancement text block", found="nothing")
        det_id = ids.detachment(page.faction, det) if det else None
        eid = ids.enhancement(name, det_id, page.faction)
        lines = list(nlines)
        flavour = found = records.OMIT
        if block is not None:
            flavour = block.data.get("flavour") or records.OMIT
            found = mentions(report, doc, block.lines, block.data["text"])
            lines += block.lines
        record = records.enhancement(
            id=eid, name=name, ruleset=doc.ruleset, detachment=det_id, points=cost,
            text=block.data["text"] if block else None,
            restriction=block.data["restriction"] if block else None,
            flavour=flavour, mentions=found)
        store.add(record, doc, lines)
        if det:
            by_detachment.setdefault(det, []).append(eid)
    return by_detachment


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
