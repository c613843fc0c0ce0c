"""Suspicious text: scraping damage that survived extraction.

* mixed-case words (``COvER``, ``INFANTRy``): a keyword with a letter lost in scraping;
* brackets opened and not closed (``[SUSTAINED HITS liability``), or closed and not opened;
* possible typos: a word that no English dictionary knows (pyspellchecker's word
  list), rare in the build, and one edit (a doubled, dropped, swapped or changed
  letter) from a word of the build at least ``COMMON_RATIO`` times as frequent
  (``Anny`` / ``Any``). Game terms (``Psilencer``) have no such neighbour; plural and
  verb endings are not typos;
* run-ons: a sentence glued to the next (``target.Designer's Note``);
* empty fields: text that is blank, and datasheets without keywords, composition or points;
* text duplicated within one record (the same sentence twice).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator

from spellchecker import SpellChecker

from warscribe.checks.context import Context
from warscribe.schema import words
from warscribe.schema.diagnostics import Diagnostic

COMMON_RATIO = 8  # a typo's neighbour is at least this many times as frequent
MIN_WORD = 3  # shorter words are too often legitimately one letter apart
MIN_SENTENCE_WORDS = 6  # shorter repeated sentences ("Roll one D6.") are normal

_WORD = re.compile(r"[A-Za-z]+")
_RUN_ON = re.compile(r"(?<=[a-z\)\]][.!?])(?=[A-Z][a-z])|(?<=[a-z][a-z])(?=\[[A-Z])|(?<=\])(?=\d)")
_SENTENCE = re.compile(r"[^.!?\n]+[.!?]")
# Endings that make a different word, not a misspelt one (unit/units, move/moved).
_INFLECTIONS = ("s", "es", "d", "ed", "r", "er", "n", "y", "ly")


def run(ctx: Context) -> Iterator[Diagnostic]:
    counts = _word_counts(ctx)
    typos = _typo_candidates(counts)
    for record in ctx.bundle:
        yield from _empty_fields(ctx, record)
        sentences: dict[str, str] = {}
        for path, text in ctx.texts(record):
            yield from _mixed_case(ctx, record, path, text)
            yield from _brackets(ctx, record, path, text)
            yield from _run_ons(ctx, record, path, text)
            for m in _WORD.finditer(text):
                meant = typos.get(m.group(0))
                if meant and not _compound(text, m):
                    yield ctx.finding("possible-typo", f"{path}: '{m.group(0)}' is no English word and is one "
                                      f"letter from '{meant}', common in the build: a scraping typo?", record,
                                      snippet=m.group(0), expected=f"a word, e.g. '{meant}'")
            if not path.startswith("bullets"):  # bullets repeat the text's list items by design
                yield from _duplicates(ctx, record, path, text, sentences)


def _compound(text: str, m: re.Match) -> bool:
    """Part of a hyphenated word ('pre-measure'): its parts need not be words."""
    return text[m.end(): m.end() + 1] == "-" or text[max(0, m.start() - 1): m.start()] == "-"


def _word_counts(ctx: Context) -> Counter:
    counts: Counter = Counter()
    for record in ctx.bundle:
        for _path, text in ctx.texts(record):
            counts.update(_WORD.findall(text))
    return counts


def _typo_candidates(counts: Counter) -> dict[str, str]:
    """Rare word -> the common word one edit away. Linear: deletions index the vocabulary."""
    by_deletion: dict[str, list[str]] = {}
    for word in counts:
        if len(word) >= MIN_WORD:
            for key in _deletions(word):
                by_deletion.setdefault(key, []).append(word)
    out: dict[str, str] = {}
    english = _dictionary()
    for word, n in counts.items():
        if len(word) < MIN_WORD or not (word.islower() or word.istitle()) or word.casefold() in english:
            continue
        best, best_n = None, n * COMMON_RATIO
        for key in _deletions(word):
            for other in by_deletion.get(key, ()):
                if other == word or counts[other] < best_n or not _one_edit(word, other) or _inflected(word, other):
                    continue
                if other.casefold() == word.casefold():
                    continue
                best, best_n = other, counts[other]
        if best:
            out[word] = best
    return out


def _dictionary() -> SpellChecker:
    return words.english()


def _deletions(word: str) -> set[str]:
    return {word} | {word[:i] + word[i + 1:] for i in range(len(word))}


def _one_edit(a: str, b: str) -> bool:
    """One letter doubled, dropped, changed, or two neighbours swapped."""
    if abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        return len(diff) == 1 or (len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]]
                                  and a[diff[1]] == b[diff[0]])
    short, long_ = (a, b) if len(a) < len(b) else (b, a)
    return any(long_[:i] + long_[i + 1:] == short for i in range(len(long_)))


def _inflected(a: str, b: str) -> bool:
    short, long_ = sorted((a.casefold(), b.casefold()), key=len)
    return long_.startswith(short) and long_[len(short):] in _INFLECTIONS or (
        short.endswith("e") and long_.startswith(short[:-1]) and long_[len(short) - 1:] in _INFLECTIONS)


def _mixed_case(ctx, record, path, text) -> Iterator[Diagnostic]:
    for m in _WORD.finditer(text):
        word = m.group(0)
        upper = sum(c.isupper() for c in word)
        if upper >= 2 and any(c.islower() for c in word) and not re.fullmatch(r"[A-Z]+s", word) \
                and not re.fullmatch(r"(?:[A-Z][a-z]+)+", word):
            yield ctx.finding("mixed-case", f"{path}: '{m.group(0)}' is in mixed case; probably {word.upper()}",
                              record, snippet=m.group(0), expected=word.upper())


def _brackets(ctx, record, path, text) -> Iterator[Diagnostic]:
    for line in text.split("\n"):
        depth, opened = 0, -1
        for i, ch in enumerate(line):
            if ch == "[":
                if depth:
                    break  # reported below as the earlier one left open
                depth, opened = 1, i
            elif ch == "]":
                if not depth:
                    yield ctx.finding("broken-bracket", f"{path}: ']' without an opening '['", record,
                                      snippet=line[max(0, i - 30): i + 1], expected="[...]")
                    continue
                depth = 0
        if depth:
            snippet = line[opened: opened + 40].split("\n")[0]
            yield ctx.finding("broken-bracket", f"{path}: '[' opened and never closed", record,
                              snippet=snippet, expected="[ABILITY]")


def _run_ons(ctx, record, path, text) -> Iterator[Diagnostic]:
    for m in _RUN_ON.finditer(text):
        snippet = text[max(0, m.start() - 20): m.start() + 20]
        yield ctx.finding("run-on", f"{path}: no space or line break between '{text[max(0, m.start() - 12):m.start()]}'"
                          f" and '{text[m.start():m.start() + 12]}'", record, snippet=snippet,
                          expected="a space or a new line")


def _empty_fields(ctx, record) -> Iterator[Diagnostic]:
    for path, text in ctx.texts(record):
        if not text.strip():
            yield ctx.finding("empty-field", f"{path} is empty", record, expected="text")
    if record.get("kind") == "datasheet":
        for name in ("keywords", "composition", "points"):
            if not record.get(name):
                yield ctx.finding("empty-field", f"datasheet has no {name}", record, expected=f"its {name}")


def _duplicates(ctx, record, path, text, seen: dict[str, str]) -> Iterator[Diagnostic]:
    for m in _SENTENCE.finditer(text):
        sentence = m.group(0).strip()
        if len(sentence.split()) < MIN_SENTENCE_WORDS:
            continue
        key = re.sub(r"\s+", " ", sentence.casefold())
        if key in seen:
            yield ctx.finding("duplicated-text", f"{path} repeats a sentence of {seen[key]}: '{sentence[:60]}'",
                              record, snippet=sentence[:60], expected="each sentence once")
        else:
            seen[key] = path
