"""The tooltip part of a page: a run of self-contained blocks in no useful order.

Each block starts with a recognisable first line (a stratagem name over its CP cost,
a numbered rule heading, 'X Detachment', 'The X keyword is used in ...', a short
title) and runs to the next such line. :func:`parse_blocks` only cuts and labels;
what a block becomes is decided by :mod:`extract.link`, which sees every page.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from warscribe.schema.diagnostics import Report
from warscribe.extract.lines import Document, Line
from warscribe.extract.stratagem_text import (DESIGNER, FIELD, item_name, lost_labels, regroup_lists,
                                             stratagem_fields)
from warscribe.schema.text import clean_name, norm

_CP = re.compile(r"^(\d+)\s*CP$")
_STRAT_NAME = re.compile(r"^(?P<name>[A-Z‘’'\-\u2011 !,]*[A-Z])(?P<num>\d\d\.\d\d)?$")
_STRAT_ORIGIN = re.compile(
    r"^(?P<det>.*?\S)(?:\s+[–-]\s+(?P<cat>Battle Tactic|Strategic Ploy|Epic Deed|Wargear))?\s+Stratagem$")
_NUM_PREFIX = re.compile(r"^(?P<num>\d\d(?:\.\d\d){0,3})\s+(?P<title>\S.*)$")
_NUM_SUFFIX = re.compile(
    r"^(?P<title>\S.*?)(?P<num>\d\d\.\d\d(?:\.\d\d)?)(?:\s*/\s*(?P<alias>.+?)(?P<alias_num>\d\d\.\d\d(?:\.\d\d)?))?$")
# A step of a sequence printed as its heading ('2. Battle-shock'): the step's place is no part of its name.
_STEP = re.compile(r"^\d{1,2}\.\s+(?P<title>\S.*)$")
_USAGE = re.compile(r"^The (?P<kws>.+?) keywords? (?:is|are) used in the following (?P<faction>.+?) datasheets:$")
_DETACHMENT = re.compile(r"^(?P<det>[A-Z][A-Za-z’' \-]+) Detachment$")
_ONLY_PIPES = re.compile(r"^[|\s]+$")

# Datasheet categories that the pages' keyword-usage lists and army-list menus name.
_CATEGORY = re.compile(
    r"^(?:(?:Infantry|Mounted|Vehicle|Monster|Beast|Swarm|Walker)(?: (?:Epic Hero|Character))?"
    r"|Characters|Epic Heroes|Battleline|Dedicated Transports?|Transports?|Other|Fortifications?"
    r"|Vehicles|Monsters|Allied Units|Aircraft)$")

# Tooltips the pages print without a heading, known by their whole text: each is one rule of the
# game (the multi-profile weapon rule, shown beside every weapon with several profiles) whose
# heading the page never had. Its own block, so no heading's text takes it in.
HEADINGLESS_TOOLTIPS = (
    "Before selecting targets for this weapon, select one of its profiles to make attacks with.",
)


@dataclass
class Block:
    kind: str  # stratagem, rule, untitled, detachment-rule, enhancement-text, keyword-usage, points-note
    lines: list[Line]
    title: str | None = None
    number: str | None = None
    data: dict = field(default_factory=dict)

    @property
    def first(self) -> int:
        return min(ln.no for ln in self.lines)

    @property
    def last(self) -> int:
        return max(ln.no for ln in self.lines)


def is_category(text: str) -> bool:
    return bool(_CATEGORY.match(text.strip()))


def _is_title(text: str, ruleset: str) -> bool:
    text = text.strip()
    if not text or len(text) > 60 or len(text.split()) > 8:
        return False
    if text[-1] in ".,;:|" or text.startswith(("- ", "+", "|")) or FIELD.match(text) or _CP.match(text):
        return False
    if not (text[0].isupper() or text[0].isdigit() or text[0] == "["):
        return False
    letters = [c for c in text if c.isalpha()]
    # In 11th edition pages all-caps lines without a number are boxed asides inside a rule.
    if ruleset == "11e" and letters and all(c.isupper() for c in letters):
        return False
    return True


def starter(lines: list[Line], i: int, ruleset: str) -> str | None:
    """What kind of block line i starts, or None if it continues the current one."""
    text = lines[i].text.strip()
    nxt = lines[i + 1].text.strip() if i + 1 < len(lines) else ""
    nxt2 = lines[i + 2].text.strip() if i + 2 < len(lines) else ""
    if _STRAT_NAME.match(text) and _CP.match(nxt) and _STRAT_ORIGIN.match(nxt2):
        return "stratagem"
    if text == "Army List" or text.startswith("Datasheets collated"):
        return "navigation"
    if text.startswith("Alternative models by"):
        return "advert"
    if _USAGE.match(text):
        return "keyword-usage"
    if text.startswith("Use this value if"):
        return "points-note"
    if text in HEADINGLESS_TOOLTIPS:
        return "untitled"
    if _DETACHMENT.match(nxt) and _is_title(text, "10e") and not is_category(text):
        return "detachment-rule"
    if _DETACHMENT.match(text):
        return "enhancement-text"
    numbered = len(text) <= 80 and not text.endswith(".") and not text.startswith("- ")
    if numbered and (_NUM_PREFIX.match(text) or _NUM_SUFFIX.match(text)):
        return "rule"
    if _is_title(text, ruleset) and nxt:
        return "rule"
    return None


def parse_blocks(doc: Document, lines: list[Line], report: Report) -> list[Block]:
    blocks: list[Block] = []
    i = 0
    current: Block | None = None
    while i < len(lines):
        line = lines[i]
        text = line.text.strip()
        if _ONLY_PIPES.match(text) or (line.cells is not None and not any(line.cells)):
            line.classify("lost-table")
            report.warning(doc.path, line.no, "lost-table", "table lost in scraping (only cell separators remain)",
                           expected="table rows", found=text)
            i += 1
            continue
        kind = starter(lines, i, doc.ruleset)
        if kind is None:
            if current is None:
                report.warning(doc.path, line.no, "orphan-text", "text before any recognisable heading",
                               expected="a rule, stratagem or detachment heading", found=text)
                i += 1
                continue
            current.lines.append(line)
            i += 1
            continue
        if kind in ("navigation", "advert"):
            line.classify(kind)
            i += 1
            if kind == "navigation":
                # The menu's category links follow it ('Datasheets collatedCharacters', 'Battleline').
                while i < len(lines) and is_category(lines[i].text):
                    lines[i].classify("navigation")
                    i += 1
            current = None
            continue
        if kind == "untitled":
            # One line, its text whole: what follows it is another tooltip's, or reported.
            blocks.append(Block(kind, [line]))
            current = None
            i += 1
            continue
        if (kind == "rule" and current is not None and current.kind == "rule"
                and len(current.lines) == 1 and norm(current.lines[0].text) == norm(text)):
            # 'Feel No Pain' then 'FEEL NO PAIN': one heading printed twice.
            line.classify("duplicate")
            i += 1
            continue
        current = Block(kind, [line])
        blocks.append(current)
        i += 1
        if kind == "stratagem":
            current.lines.extend(lines[i:i + 2])
            i += 2
        elif kind == "detachment-rule":
            current.lines.append(lines[i])
            i += 1
        elif kind == "keyword-usage":
            while i < len(lines) and is_category(lines[i].text) and starter(lines, i, doc.ruleset) != "stratagem":
                current.lines.append(lines[i])
                i += 1
            current = None
    for block in blocks:
        _interpret(doc, block, report)
    _summaries_to_their_tooltip(doc, blocks, report)
    return blocks


def _stem(text: str) -> str:
    """A title compared loosely: case, punctuation and plural endings aside ('Fall Back Moves' ~ 'Fall Back Move')."""
    return " ".join(w[:-1] if w.endswith("s") and len(w) > 3 else w for w in re.findall(r"[a-z0-9]+", text.lower()))


def _summary_subject(bullet: str) -> str | None:
    """What a summary bullet is about: 'Fall Back Move: Models move up to M"' -> 'Fall Back Move'."""
    m = re.match(r"^(?P<subject>[A-Z][^:()]{2,40}?)\s*(?:\([^)]*\))?:\s", bullet)
    return m.group("subject") if m else None


def _summaries_to_their_tooltip(doc: Document, blocks: list[Block], report: Report) -> None:
    """A tooltip's sub-heading read as a heading takes the tooltip's summary box: give it back.

    A 10th-edition tooltip ends with a box of summary bullets, the first naming the
    tooltip's rule ('- Fall Back Move: Models move up to M"'). When a rule block right
    after another holds a box whose first bullet names the block before and not itself,
    the block is a sub-heading inside that tooltip ('Desperate Escape Tests' inside Fall
    Back Moves): the box goes back to the tooltip, the sub-heading keeps its own text.
    """
    for i, block in enumerate(blocks):
        if block.kind != "rule" or not block.data.get("bullets"):
            continue
        j = i - 1  # past the sub-heading's own earlier print ('Desperate Escape Tests' twice)
        while j > 0 and blocks[j].kind == "rule" and _stem(blocks[j].title) == _stem(block.title):
            j -= 1
        if j < 0:
            continue
        before = blocks[j]  # the block right before: line numbers are an HTML page's, not the text's
        if before.kind != "rule" or before.data.get("bullets"):
            continue
        subject = _summary_subject(block.data["bullets"][0])
        if not subject or _stem(subject) != _stem(before.title) or _stem(subject) == _stem(block.title):
            continue
        box = [ln for ln in block.lines if ln.text.strip().startswith("- ")]
        block.lines = [ln for ln in block.lines if ln not in box]
        before.lines.extend(box)
        before.data["bullets"] = block.data["bullets"]
        before.data["paragraphs"] = before.data["paragraphs"] + ["- " + b for b in block.data["bullets"]]
        block.data["paragraphs"] = [p for p in block.data["paragraphs"] if not p.startswith("- ")]
        block.data["bullets"] = []
        report.warning(doc.path, box[0].no, "subheading-split",
                       f"{block.title!r} is a sub-heading inside the {before.title!r} tooltip; "
                       f"its summary bullets were given back to {before.title!r}",
                       expected=f"the summary of {block.title!r}", found=box[0].text.strip(), column=box[0].col)


def _dedupe(doc: Document, block: Block, body: list[Line]) -> list[Line]:
    """Drop lines repeated inside one block (stratagem texts print TARGET/EFFECT twice)."""
    seen: set[str] = set()
    out = []
    for ln in body:
        key = norm(ln.text)
        if key in seen and len(key) > 3:
            ln.classify("duplicate")
            continue
        seen.add(key)
        out.append(ln)
    return out


def _regroup(doc: Document, block: Block, body: list[Line], report: Report) -> list[Line]:
    """Labelled parts with their lists printed after later parts: each list back under its label."""
    order, moved = regroup_lists([ln.text for ln in body])
    moved_set = set(moved)
    for k, i in enumerate(moved):
        if k and moved[k - 1] == i - 1:
            continue  # one report per run of moved bullets
        ln = body[i]
        owner = next(body[j] for j in reversed(order[:order.index(i)]) if j not in moved_set
                     and not body[j].text.lstrip().startswith("- "))
        report.warning(doc.path, ln.no, "list-regrouped",
                       f"{block.title or 'block'}: a list printed after later parts was put back under "
                       f"{owner.text.split(':')[0]!r}",
                       expected=f"the list right after {owner.text.strip()[:60]!r}", found=ln.text, column=ln.col)
    return [body[i] for i in order]


#: What stands in a text where a list's items stop being its items: the label of the part
#: they belong to was lost in scraping, and is not guessed.
LOST_LABEL = "(Label lost in the source: the items below are not part of {label}.)"


def _set_apart_lost_labels(doc: Document, block: Block, body: list[Line], report: Report) -> list[Line]:
    """Items that break their labelled list's 'Name: text' shape, set apart under a lost-label note.

    The note is a line of its own before the first such item (at that item's place); the
    item's line keeps, in provenance, the text as printed and as the record shows it.
    """
    out = list(body)
    for label_at, item_at in reversed(lost_labels([ln.text for ln in body])):
        label = FIELD.match(body[label_at].text.strip()).group("label")
        item = body[item_at]
        note = LOST_LABEL.format(label=label)
        printed = item.text.strip()
        item.repairs.append((item.col, printed, f"{note}\n\n{printed}"))
        out.insert(item_at, Line(item.no, note, item.col))
        names = [item_name(ln.text) for ln in body[label_at + 1:item_at]]
        name = item_name(printed)
        why = f"repeats the name {name!r}" if name else "has no name"
        report.warning(doc.path, item.no, "label-lost",
                       f"{block.title or 'block'}: the list under {label!r} names its items ({', '.join(names)}); "
                       f"this one {why}, so it and the items after it probably belong to a label lost in "
                       f"scraping: set apart under a note, no label guessed",
                       expected="an item 'Name: text' with a name not used before", found=printed, column=item.col)
    return out


def _interpret(doc: Document, block: Block, report: Report) -> None:
    head = block.lines[0].text.strip()
    if block.kind == "stratagem":
        m = _STRAT_NAME.match(head)
        block.title = clean_name(m.group("name"))
        block.number = m.group("num")
        block.data["cp"] = int(_CP.match(block.lines[1].text.strip()).group(1))
        om = _STRAT_ORIGIN.match(block.lines[2].text.strip())
        block.data["origin"] = om.group("det").strip()
        block.data["category"] = om.group("cat")
        body = _place_cost_cells(doc, block, _dedupe(doc, block, _regroup(doc, block, block.lines[3:], report)),
                                 report)
        _stratagem_body(doc, block, _set_apart_lost_labels(doc, block, body, report), report)
    elif block.kind == "keyword-usage":
        m = _USAGE.match(head)
        kws = [k.strip().upper() for k in re.split(r",| and ", m.group("kws")) if k.strip()]
        block.data = {"keywords": kws, "faction": m.group("faction"), "categories": [ln.text.strip() for ln in block.lines[1:]]}
    elif block.kind == "points-note":
        block.data["text"] = head
        if len(block.lines) > 1:
            for ln in block.lines[1:]:
                report.warning(doc.path, ln.no, "orphan-text", "unexpected text after a points note",
                               expected="another heading", found=ln.text)
    elif block.kind == "detachment-rule":
        block.title = clean_name(head)
        block.data["detachment"] = _DETACHMENT.match(block.lines[1].text.strip()).group("det")
        _prose_body(doc, block, _place_cost_cells(doc, block, _dedupe(doc, block, block.lines[2:]), report), report)
    elif block.kind == "enhancement-text":
        block.data["detachment"] = _DETACHMENT.match(head).group("det")
        body = _place_cost_cells(doc, block, _dedupe(doc, block, block.lines[1:]), report)
        _prose_body(doc, block, body, report)
        paragraphs = block.data.get("paragraphs", [])
        if len(paragraphs) >= 2 and "flavour" not in block.data:
            # An enhancement's text opens with its flavour line, then 'X model only.' and its rules.
            signal = rules_signal(paragraphs[0])
            if signal is None:
                block.data["flavour"] = paragraphs.pop(0)
            else:
                report.warning(doc.path, body[0].no, "flavour-undecided",
                               f"enhancement text for {block.data['detachment']}: the paragraph where flavour sits "
                               f"is kept as rules text: {signal}",
                               expected="a flavour line", found=paragraphs[0], column=body[0].col)
        text = "\n\n".join(paragraphs)
        m = re.match(r"^(?P<restr>[^.]*?\bmodel only\.)\s*(?P<text>.*)$", text, re.S)
        block.data["restriction"] = m.group("restr") if m else None
        block.data["text"] = m.group("text") if m else text
    elif block.kind == "rule":
        m = _NUM_PREFIX.match(head) if not head.endswith(".") else None
        s = _NUM_SUFFIX.match(head) if not m else None
        if m:
            block.number, block.title = m.group("num"), m.group("title").strip()
        elif s:
            block.number, block.title = s.group("num"), s.group("title").strip()
            if s.group("alias"):
                # 'LEADER24.22 / SUPPORT24.23': one text defines two rules.
                block.data["alias"] = s.group("alias").strip()
                block.data["alias_number"] = s.group("alias_num")
        else:
            step = _STEP.match(head)
            block.title = step.group("title").strip() if step else head
        body = _place_cost_cells(doc, block, _dedupe(doc, block, _regroup(doc, block, block.lines[1:], report)),
                                 report)
        _prose_body(doc, block, _set_apart_lost_labels(doc, block, body, report), report)


_LONE_CELL = re.compile(r"^[+\-−]?\d+\s*(?:CP|\"|\+)?$")
# A mode's added cost ('+1CP') and the line of a mode ('- Into the Fray:', '- Name: text').
_COST_CELL = re.compile(r"^\+\d+\s*CP$")
_MODE_LINE = re.compile(r"^- (?P<name>[A-Z][^:()]{0,60}?):(?P<rest>(?:\s.*)?)$")


def _place_cost_cells(doc: Document, block: Block, body: list[Line], report: Report) -> list[Line]:
    """A lone cost cell right before a mode's line is that mode's added cost: put back on its line.

    A mode's extra cost is a cell of the mode's row; scraped, the cell stands alone on the line
    above the mode ('+1CP', then '- Into the Fray:'), which is where a cost heading its row lands.
    The mode's line then says it ('- Into the Fray (+1CP):'); provenance keeps both lines as
    printed, and the cell is reported. A cell before anything but a mode's line stays where it
    is (reported by :func:`_table_debris`): nothing says whose it is.
    """
    out: list[Line] = []
    k = 0
    while k < len(body):
        cell = body[k]
        mode = body[k + 1] if k + 1 < len(body) else None
        m = _MODE_LINE.match(mode.text.strip()) if mode is not None else None
        if not (_COST_CELL.match(cell.text.strip()) and m):
            out.append(cell)
            k += 1
            continue
        cost, printed = cell.text.strip(), mode.text.strip()
        placed = f"- {m.group('name').strip()} ({cost}):{m.group('rest')}"
        cell.repairs.append((cell.col, cost, ""))
        mode.repairs.append((mode.col, printed, placed))
        out.append(Line(mode.no, placed, mode.col))
        report.warning(doc.path, cell.no, "table-debris",
                       f"{block.title or 'block'}: a lone table cell inside the text, the added cost of the mode "
                       f"{m.group('name').strip()!r} printed right after it; put on that mode's line",
                       expected="a table row or a sentence", found=cost, column=cell.col)
        k += 2
    return out


def _table_debris(doc: Document, block: Block, body: list[Line], report: Report) -> None:
    """A line that is one table cell ('+1CP') inside a text: the rest of its row was lost."""
    for ln in body:
        if _LONE_CELL.match(ln.text.strip()):
            report.warning(doc.path, ln.no, "table-debris",
                           f"{block.title or 'block'}: a lone table cell inside the text; its row was lost in scraping",
                           expected="a table row or a sentence", found=ln.text.strip(), column=ln.col)


def _stratagem_body(doc: Document, block: Block, body: list[Line], report: Report) -> None:
    _table_debris(doc, block, body, report)
    fields, flavour, stray = stratagem_fields([ln.text for ln in body])
    for text in stray:
        line = next(ln for ln in body if ln.text.strip() == text)
        report.warning(doc.path, line.no, "stratagem-text", "stratagem text line before WHEN:",
                       expected="WHEN: / TARGET: / EFFECT:", found=text)
    block.data.update(fields)
    block.data["flavour"] = flavour
    for key in ("when", "target", "effect"):
        if key not in fields:
            report.warning(doc.path, block.first, "stratagem-text", f"stratagem {block.title} has no {key.upper()}:",
                           expected=f"{key.upper()}: ...", found="nothing")


def _looks_like_flavour(text: str, rules_follow: bool = False) -> bool:
    """Whether `text` reads as flavour: no rules words; a few sentences, or, where rules text
    follows it, narrative sentences however many (a story told, not addressed to the player)."""
    if FIELD.match(text) or DESIGNER.match(text):
        return False
    if re.search(r"\b(roll|rolls|D6|D3|each time|must|you can|cannot|characteristic|subtract|add 1|if|Engagement Range)\b|\"",
                 text, re.I):
        return False
    if re.match(r"^(When|If|Each|While|In|Before|After|Once|Unlike|During|At)\b", text):
        return False
    if len(re.findall(r"[.!?](?:\s|$)", text)) <= 3:
        return True
    return rules_follow and not _ADDRESSED.search(text)


# Rules speak to the player and count; a story does neither.
_ADDRESSED = re.compile(r"\b(?:you|your|yours)\b|\d", re.I)


# What marks a paragraph as rules text on these pages, whatever its words: it introduces
# what follows (ends with ':'), names a KEYWORD in capitals or a rule by number, or has a
# sentence that states a condition or an instruction.
_RULES_SENTENCE = re.compile(
    r"(?:^|[.!?]\s+)(?:Each time|If |When |Until |Add |Subtract |Roll |Select |At the (?:start|end) |In (?:your|the) "
    r"|While (?:this|that|a|an|your) (?:unit|model))")


def rules_signal(text: str) -> str | None:
    """Why `text` must be rules text rather than flavour, or None."""
    if text.rstrip().endswith(":"):
        return "it introduces a list"
    if re.search(r"\b[A-Z]{4,}\b", text):
        return "it names a KEYWORD"
    if re.search(r"\(\d\d(?:\.\d\d)*\)", text):
        return "it cites a rule number"
    if _RULES_SENTENCE.search(text):
        return "a sentence states a condition or an instruction"
    return None


def _prose_body(doc: Document, block: Block, body: list[Line], report: Report) -> None:
    _table_debris(doc, block, body, report)
    paragraphs: list[str] = []
    bullets: list[str] = []
    see_also: list[dict] = []
    in_see_also = False
    for ln in body:
        text = ln.text.strip()
        if text == "SEE ALSO":
            in_see_also = True
            continue
        if text.startswith("- "):
            item = text[2:].strip()
            if in_see_also:
                m = re.match(r"^(?P<title>.+?)\s+(?P<num>\d\d(?:\.\d\d){0,3})$", item)
                see_also.append({"title": m.group("title"), "number": m.group("num")} if m else {"title": item})
            else:
                bullets.append(item)
                paragraphs.append("- " + item)
            continue
        in_see_also = False
        paragraphs.append(text)
    prose = [p for p in paragraphs if not p.startswith("- ")]
    if len(prose) >= 2 and paragraphs[0] == prose[0]:
        first = paragraphs[0]
        signal = rules_signal(first)
        # Where flavour sits: a detachment rule's first paragraph of several is its flavour line
        # (the page's layout); in other tooltips the first paragraph is flavour when it reads so,
        # however long it is when the next paragraph is plainly rules text (the first rules sentence).
        by_place = block.kind == "detachment-rule"
        reads = by_place or _looks_like_flavour(first, rules_follow=rules_signal(prose[1]) is not None)
        if block.kind == "enhancement-text":
            pass  # decided with the enhancement's restriction line, in _interpret
        elif signal is None and reads:
            block.data["flavour"] = paragraphs.pop(0)
        elif signal is not None and reads:
            line = next((ln for ln in body if ln.text.strip() and first.startswith(ln.text.strip()[:40])), block.lines[0])
            report.warning(doc.path, line.no, "flavour-undecided",
                           f"{block.title}: the paragraph where flavour sits is kept as rules text: {signal}",
                           expected="a flavour line", found=first, column=line.col)
    block.data["paragraphs"] = paragraphs
    block.data["bullets"] = bullets
    block.data["see_also"] = see_also
