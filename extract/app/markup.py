"""The app's texts into the project's text: languages picked, markup turned into plain words.

The app's data (Game Datacards' JSON) writes every text as ``{"en": ..., "fr": ...}`` (or,
in a few files, a bare string) with light markup: ``**BOLD**`` and ``<k>Keyword</k>`` for
keywords, ``<b>term</b>`` for a rules term, ``*italic*``, ``<ul><li>...</li></ul>`` lists,
``■`` and ``◦`` bullets, ``\\r`` line ends. The project's text is plain: keywords in capitals
(as the printed datasheets give them, so the compiler reads them as keywords), a list item
a line of its own beginning with ``■``, paragraphs split by one blank line.
"""

from __future__ import annotations

import html
import re

# A language code as the app writes them (en, fr, de, es, it, ja, ko, zh).
_LANG = re.compile(r"^[a-z]{2}$")
_KEYWORD_TAG = re.compile(r"<k>(.*?)</k>", re.DOTALL | re.IGNORECASE)
_BOLD_STARS = re.compile(r"\*\*(.+?)\*\*", re.DOTALL)
_ITALIC_STARS = re.compile(r"(?<![*\w])\*(?!\s)([^*\n]+?)(?<!\s)\*(?![*\w])")
_LIST_ITEM = re.compile(r"\s*<li>\s*", re.IGNORECASE)
_TAG = re.compile(r"</?(?:b|i|em|strong|u|span|p|br|ul|ol|li|k)\b[^>]*>", re.IGNORECASE)
_STRAY = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_SPACES = re.compile(r"[ \t\u00a0\u2009]+")
_BLANKS = re.compile(r"\n{3,}")
# A bullet glued to the text before it ("units:  ■ A ■ B"): each bullet starts a line.
_INLINE_BULLET = re.compile(r"[ \t]*([■◦])[ \t]*")


def is_text(value) -> bool:
    """`value` is one of the app's texts: a string, or a map of language codes to strings."""
    return isinstance(value, str) or (isinstance(value, dict) and bool(value)
                                      and all(isinstance(k, str) and _LANG.match(k) for k in value))


def english(value) -> str:
    """The English text of `value` as the app wrote it (markup kept); '' where there is none."""
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        en = value.get("en")
        return en if isinstance(en, str) else ""
    return ""


def names(value) -> dict[str, str]:
    """The other languages' plain texts of `value` (a name), by language code; those equal to English left out."""
    if not isinstance(value, dict):
        return {}
    en = plain(english(value))
    out = {}
    for lang in sorted(value):
        text = value[lang]
        if lang != "en" and _LANG.match(lang) and isinstance(text, str):
            cleaned = plain(text)
            if cleaned and cleaned != en:
                out[lang] = cleaned
    return out


def plain(markup: str) -> str:
    """The project's text of one of the app's marked-up texts."""
    text = markup.replace("\r\n", "\n").replace("\r", "\n")
    # The app's texts carry stray BEL and BS characters (a lost bullet glyph: "\x07Terror of
    # Khorne: ...", "1.\x08 SELECT WEAPONS"); they stand for no letter, so they go.
    text = _STRAY.sub("", text)
    text = _KEYWORD_TAG.sub(lambda m: _upper(m.group(1)), text)
    text = _BOLD_STARS.sub(lambda m: _bold(m.group(1)), text)
    text = _LIST_ITEM.sub("\n■ ", text)
    text = re.sub(r"</li>\s*", "\n", text, flags=re.IGNORECASE)
    text = re.sub(r"<br\s*/?>", "\n", text, flags=re.IGNORECASE)
    text = _TAG.sub("", text)
    text = _ITALIC_STARS.sub(r"\1", text)
    text = html.unescape(text)
    text = _INLINE_BULLET.sub(lambda m: f"\n{m.group(1)} ", text)
    lines = [_SPACES.sub(" ", ln).strip() for ln in text.split("\n")]
    out: list[str] = []
    for ln in lines:
        if ln in ("■", "◦"):
            continue
        # A list's items stay together; a blank line between paragraphs stays one blank line.
        if ln.startswith(("■ ", "◦ ")) and out and out[-1] == "" and len(out) > 1 and out[-2].startswith(("■ ", "◦ ")):
            out.pop()
        out.append(ln)
    return _BLANKS.sub("\n\n", "\n".join(out)).strip()


def _upper(words: str) -> str:
    """A keyword in capitals, as datasheets print them ('<k>Speeder</k>' -> 'SPEEDER')."""
    inner = _TAG.sub("", words)
    return inner.upper() if not inner.startswith("[") else inner.upper()


def _bold(words: str) -> str:
    """`**X**`: keywords (capitals already) stay as they are; a bold phrase in mixed case is kept as written."""
    return words
