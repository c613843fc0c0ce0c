"""Both forms of BattleScribe data parsed into one shape: the JSON form's.

An XML element becomes an object of its attributes; a child holding a list
(``<costs>``, ``<selectionEntries>`` ...) becomes a list under its tag; a text-only child
(``<description>``) becomes a string, and an element with attributes and text
(``<characteristic name="M">5"</characteristic>``) keeps its text as ``$text``, as the
JSON form does. Attribute values stay strings in the XML form; readers coerce them.
Every object with an ``id`` carries ``$line``, the line it starts on (XML) or its id's
line (JSON), so provenance and errors can point at it.

The XML is untrusted: a document type declaration (the door to external and
expanding entities) is refused outright, and nesting is bounded.
"""

from __future__ import annotations

import json
import re
from xml.parsers import expat

from warscribe.extract.encoding import decode_utf8

MAX_DEPTH = 128


class DataError(Exception):
    """A located parse failure: the file is skipped and the build goes on."""

    def __init__(self, message: str, line: int = 1, column: int = 0, expected: str = "", found: str = ""):
        super().__init__(message)
        self.line, self.column, self.expected, self.found = line, column, expected, found


def _is_list_tag(tag: str, attrs: dict) -> bool:
    # <costs>, <selectionEntries>, <conditionGroups>: plural and attribute-less.
    return not attrs and tag.endswith("s")


def parse_xml(data: bytes) -> dict:
    """The document as ``{root tag: object}``; DataError on malformed or dangerous input."""
    parser = expat.ParserCreate()
    # one frame per open element: [tag, node, text parts, is_list, tags repeated in it]
    stack: list[list] = []
    root: dict = {}

    def refuse_dtd(*_args):
        raise DataError("document type declaration refused (BattleScribe data never has one; "
                        "entities could expand or read other files)", parser.CurrentLineNumber,
                        parser.CurrentColumnNumber, expected="no <!DOCTYPE>", found="<!DOCTYPE ...>")

    def start(tag, attrs):
        if len(stack) >= MAX_DEPTH:
            raise DataError(f"elements nested deeper than {MAX_DEPTH}", parser.CurrentLineNumber,
                            parser.CurrentColumnNumber, expected=f"at most {MAX_DEPTH} levels", found=tag)
        is_list = _is_list_tag(tag, attrs)
        node: list | dict = [] if is_list else dict(attrs)
        if not is_list:
            node["$line"] = parser.CurrentLineNumber
        stack.append([tag, node, [], is_list, set()])

    def end(tag):
        tag, node, text, is_list, _ = stack.pop()
        content = "".join(text)
        if not is_list and content.strip():
            if len(node) == 1:  # only $line: a text element such as <description>
                node = content
            else:
                node["$text"] = content
        elif not is_list and len(node) == 1 and tag in ("description", "comment", "readme", "alias"):
            node = ""
        if not stack:
            root[tag] = node
            return
        parent = stack[-1][1]
        if isinstance(parent, list):
            parent.append(node)
        elif tag in parent:  # a repeated child (<alias>): a list of them
            repeated = stack[-1][4]
            if tag not in repeated:
                parent[tag] = [parent[tag]]
                repeated.add(tag)
            parent[tag].append(node)
        else:
            parent[tag] = node

    def chars(text):
        if stack:
            stack[-1][2].append(text)

    parser.StartDoctypeDeclHandler = refuse_dtd
    parser.EntityDeclHandler = refuse_dtd
    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = chars
    parser.buffer_text = True
    try:
        parser.Parse(data, True)
    except expat.ExpatError as exc:
        raise DataError(f"malformed XML: {expat.ErrorString(exc.code)}", exc.lineno, exc.offset + 1,
                        expected="well-formed XML", found=_snippet(data, exc.lineno)) from None
    return root


def _snippet(data: bytes, line: int) -> str:
    lines = data.split(b"\n", line)
    text = lines[line - 1] if 0 < line <= len(lines) else b""
    return text.decode("utf-8", "replace").strip()[:100]


_ID_LINE = re.compile(rb'"id"\s*:\s*"([^"\\]*)"')


def parse_json(data: bytes) -> dict:
    """The JSON form; objects with an id get ``$line`` from where their id is written."""
    text, bad = decode_utf8(data)
    if bad is not None:
        raise DataError("not UTF-8", bad.line, bad.column, expected="UTF-8 text", found=bad.found)
    try:
        doc = json.loads(text.removeprefix("\ufeff"))
    except json.JSONDecodeError as exc:
        raise DataError(f"malformed JSON: {exc.msg}", exc.lineno, exc.colno, expected="a JSON document",
                        found=_snippet(data, exc.lineno)) from None
    except RecursionError:
        raise DataError("JSON nested too deeply", expected=f"at most {MAX_DEPTH} levels") from None
    if not isinstance(doc, dict):
        raise DataError("not a BattleScribe JSON document", expected="an object with 'gameSystem' or 'catalogue'",
                        found=type(doc).__name__)
    # One pass over the bytes: each id's line (ids are unique enough; a repeated id keeps
    # its first line, which still points into the right file).
    lines: dict[str, int] = {}
    line, pos = 1, 0
    for m in _ID_LINE.finditer(data):
        line += data.count(b"\n", pos, m.start())
        pos = m.start()
        lines.setdefault(m.group(1).decode("utf-8", "replace"), line)
    _number(doc, lines, 0)
    return doc


def _number(node, lines: dict[str, int], depth: int) -> None:
    if depth > MAX_DEPTH:
        raise DataError("JSON nested too deeply", expected=f"at most {MAX_DEPTH} levels")
    if isinstance(node, dict):
        ident = node.get("id")
        if isinstance(ident, str):
            node["$line"] = lines.get(ident, 1)
        for value in node.values():
            if isinstance(value, (dict, list)):
                _number(value, lines, depth + 1)
    elif isinstance(node, list):
        for value in node:
            if isinstance(value, (dict, list)):
                _number(value, lines, depth + 1)


def parse(name: str, data: bytes) -> dict:
    """The root object (``gameSystem`` or ``catalogue``) of a .gst/.cat/.json file, with its kind."""
    doc = parse_json(data) if name.endswith(".json") else parse_xml(data)
    for kind in ("gameSystem", "catalogue"):
        if isinstance(doc.get(kind), dict):
            root = doc[kind]
            root["$kind"] = kind
            return root
    raise DataError("neither a game system nor a catalogue", expected="<gameSystem> or <catalogue>",
                    found=", ".join(sorted(doc))[:100] or "nothing")
