"""Scraping damage found by general means, reported where it is (file, line, column).

Words glued together ('theyfightforthe') and apostrophes lost ('The bearers ranged
weapons') are found against two vocabularies: the knowledge base's own (every word the
sources use more than once, so faction names and coined terms are words) and an English
word list (pyspellchecker's, with its frequencies). Option tables flattened into prose
('...to apply:Eliminate At All Costs Select one enemy unit...') are found by their shape.
None of these has one reading, so the text is kept and every finding is reported, except
a flattened table whose rows all split the same way (:func:`rebuild_tables`): that one
has a single reading, a list of 'Name: text' options, and is rebuilt so (reported, with
each row as printed kept in provenance).
"""

from __future__ import annotations

import functools
import itertools
import re
from collections import Counter

from warscribe.extract.lines import Document, Line
from warscribe.schema import words
from warscribe.schema.diagnostics import Report

# Lines that are no text of a record: nothing to check there.
_SKIPPED = {"class:navigation", "class:advert", "class:duplicate", "class:blank", "class:lost-table"}
_WORD = re.compile(r"[A-Za-z]+(?:[’'][a-z]+)?")
COMMON = 10_000  # occurrences in the word list's corpus for a piece of a glued word
# A possessive's head is followed by a noun phrase; these words follow a plural instead.
_AFTER_PLURAL = {
    "a", "about", "above", "across", "after", "against", "all", "along", "also", "an", "and", "are", "around",
    "as", "at", "be", "been", "before", "behind", "below", "beneath", "beside", "between", "but", "by", "can",
    "cannot", "could", "do", "down", "during", "each", "every", "for", "from", "had", "has", "have", "if", "in",
    "into", "is", "may", "might", "must", "near", "nor", "not", "of", "off", "on", "onto", "or", "out", "over",
    "that", "the", "their", "them", "then", "these", "they", "this", "those", "through", "to", "toward",
    "towards", "under", "until", "up", "upon", "was", "were", "when", "which", "while", "who", "will", "with",
    "within", "without", "would", "you", "your",
}
# An option table flattened into a line: a Title Case name of two to five words run into
# its text, which starts a sentence ('Eliminate At All Costs Select one enemy unit').
_FLATTENED = re.compile(
    r"(?:^|(?<=:))(?P<name>(?:[A-Z][a-z]+ ){1,4}[A-Z][a-z]+) (?P<text>[A-Z][a-z]+ (?:one|a|an|the|your|each|up|until)\b)")


def _english():
    return words.english().word_frequency


def _known(word: str, vocabulary: Counter) -> bool:
    """A word of English (British spellings and inflections too) or of the sources' own vocabulary."""
    english = _english()
    w = word.lower()
    variants = {w, w.replace("is", "iz"), w.replace("our", "or"), w.replace("tre", "ter"), w.replace("ll", "l")}
    for suffix in ("s", "es", "ed", "d", "ing", "ly", "ally"):
        if w.endswith(suffix):
            variants.add(w[: -len(suffix)])
    return any(v in english or vocabulary[v] >= 2 for v in variants)


def split_glued(word: str) -> tuple[str, ...] | None:
    """The fewest common English words `word` is made of, if any (pieces of two letters or more, or 'a')."""
    english = _english()
    w = word.lower()

    @functools.lru_cache(maxsize=None)
    def best(i: int) -> tuple[str, ...] | None:
        if i == len(w):
            return ()
        found = None
        for j in range(i + (1 if w[i] == "a" else 2), min(len(w), i + 14) + 1):
            if english[w[i:j]] >= COMMON:
                rest = best(j)
                if rest is not None and (found is None or len(rest) + 1 < len(found)):
                    found = (w[i:j],) + rest
        return found

    return best(0)


def vocabulary(documents: list[Document]) -> Counter:
    """Every word of the sources, lower case, with its count (possessives kept as written)."""
    # Counted as printed, then folded to lower case: a few distinct words, and findall in C
    # (a 200,000-line source spends its time here otherwise).
    printed: Counter = Counter()
    for doc in documents:
        for ln in doc.lines:
            printed.update(_WORD.findall(ln.text))
    counts: Counter = Counter()
    for word, n in printed.items():
        counts[word.lower()] += n
    return counts


def scan(documents: list[Document], report: Report) -> None:
    """Report glued words, lost apostrophes and flattened tables in every line a record uses."""
    vocab = vocabulary(documents)
    # Heads written as possessives more often than as plurals ('bearer’s' against one 'bearers'):
    # there a plural before a noun is more likely a possessive that lost its apostrophe.
    owned = Counter()
    for w, n in vocab.items():
        if w.endswith(("’s", "'s")):
            owned[w[:-2]] += n
    possessed = {head for head, n in owned.items() if n >= 3 and vocab[head + "s"] < n}
    for doc in documents:
        seen: set[str] = set()
        for ln in doc.lines:
            if ln.use in _SKIPPED or ln.cells is not None or ln.text in seen:
                continue
            seen.add(ln.text)
            _glued(doc, ln, vocab, report)
            _apostrophes(doc, ln, possessed, vocab, report)
            _flattened(doc, ln, report)


def _glued(doc: Document, ln: Line, vocab: Counter, report: Report) -> None:
    for m in re.finditer(r"\b[A-Za-z][a-z]{7,}\b", ln.text):
        word = m.group(0)
        if _known(word, vocab):
            continue
        pieces = split_glued(word)
        # Two pieces are as often a coined compound ('realspace') as lost spaces: only three or more are reported.
        if pieces and len(pieces) >= 3:
            report.warning(doc.path, ln.no, "glued-words", "words run together (spaces lost in scraping)",
                           expected=" ".join(pieces), found=word, column=ln.col + m.start())


def _apostrophes(doc: Document, ln: Line, possessed: set[str], vocab: Counter, report: Report) -> None:
    for m in re.finditer(r"\b(?P<head>[a-z]{3,})s (?P<next>[a-z]+)\b", ln.text):
        head, nxt = m.group("head"), m.group("next")
        if head in possessed and nxt not in _AFTER_PLURAL and not nxt.endswith("ly"):
            report.warning(doc.path, ln.no, "lost-apostrophe",
                           f"'{head}s {nxt}' reads as a possessive the sources write '{head}’s' elsewhere",
                           expected=f"{head}’s {nxt}", found=m.group(0), column=ln.col + m.start())


def _flattened(doc: Document, ln: Line, report: Report) -> None:
    for m in _FLATTENED.finditer(ln.text):
        report.warning(doc.path, ln.no, "flattened-table",
                       "a table's name column run into its text (table lost in scraping)",
                       expected=f"{m.group('name')} | {m.group('text')}...", found=m.group(0),
                       column=ln.col + m.start())


# A flattened row's trailing cell separator ('... add 1 to the Hit roll. |').
_CELL_END = re.compile(r"\s*\|\s*$")


def _table_at(lines: list[Line], i: int) -> tuple[int, list[tuple[Line, re.Match]]] | None:
    """The flattened table starting at lines[i]: (where its intro ends on that line, 0 when the
    intro is the line before; its rows with their splits), if every row splits consistently."""
    first = lines[i]
    if first.cells is not None:
        return None
    m = _FLATTENED.search(first.text)
    if m is None:
        return None
    cut = m.start()
    if cut == 0 and not (i and lines[i - 1].cells is None and lines[i - 1].text.rstrip().endswith(":")):
        return None  # a row with no intro: not an option table
    piped = bool(_CELL_END.search(first.text))
    rows = [(first, m)]
    for ln in itertools.islice(lines, i + 1, None):
        if ln.cells is not None or bool(_CELL_END.search(ln.text)) != piped:
            break
        row = _FLATTENED.match(ln.text)
        if row is None:
            if piped:
                return None  # a row that does not split like the others: no single reading
            break
        rows.append((ln, row))
    names = [row.group("name") for _ln, row in rows]
    if len(rows) < 2 or len(set(names)) < len(names):
        return None
    return cut, rows


def rebuild_tables(doc: Document, report: Report) -> None:
    """Flattened option tables whose rows all split consistently, rebuilt as '- Name: text' lists.

    A table is an intro ending with ':' (run into its first row, or the line before it)
    and two or more rows, each a line that splits into a Title Case name and its text,
    all ending with the cell separator or none of them, with no name twice. The intro
    keeps its line (the first row becomes a piece of it, at its column); each row keeps
    its line and column, and provenance keeps it as printed. A table with a row that does
    not split so is left as printed (``scan`` reports it).
    """
    i = 0
    while i < len(doc.lines):
        table = _table_at(doc.lines, i)
        if table is None:
            i += 1
            continue
        cut, rows = table
        first = doc.lines[i]
        new: list[Line] = []
        if cut:
            # The intro and the first row become two pieces of the line, as a run-on line's are.
            col = first.col + cut
            new.append(Line(first.no, first.text[:cut].rstrip(), first.col,
                            repairs=[r for r in first.repairs if r[0] < col]))
            rows[0] = (Line(first.no, first.text[cut:], col, repairs=[r for r in first.repairs if r[0] >= col]),
                       _FLATTENED.match(first.text[cut:]))
        for ln, m in rows:
            name = m.group("name")
            rebuilt = f"- {name}: {_CELL_END.sub('', ln.text[len(name):]).strip()}"
            new.append(Line(ln.no, rebuilt, ln.col, repairs=ln.repairs + [(ln.col, ln.text, rebuilt)]))
            report.warning(doc.path, ln.no, "flattened-table",
                           "a table's name column run into its text (table lost in scraping); rebuilt as a "
                           "'- Name: text' list, the row as printed kept in provenance",
                           expected=f"- {name}: {m.group('text')}...", found=m.group(0), column=ln.col)
        doc.lines[i:i + len(rows)] = new
        doc.forget_pieces()
        i += len(new)
