"""YAML for untrusted files (manifests, scenarios, annotations): safe, bounded, strict.

``yaml.safe_load`` alone constructs no arbitrary objects, but it accepts a duplicated
key (the second silently wins: ``sources:`` twice empties a manifest) and aliases that
expand exponentially (a "billion laughs" file of under a kilobyte). Here the document
is composed into a node graph first (linear in the text; aliases share nodes), its
expanded size and depth are measured on that graph with memoisation, and only a
document within the limits is constructed, with duplicate keys refused.
"""

from __future__ import annotations

from dataclasses import dataclass

import yaml
from yaml.nodes import MappingNode, Node, SequenceNode

MAX_BYTES = 1 << 20  # a manifest or scenario is a few kilobytes
MAX_NODES = 100_000  # after alias expansion
MAX_DEPTH = 64


class YamlError(ValueError):
    """A YAML document that cannot or may not be loaded; ``line``/``column`` are 1-based (0: unknown)."""

    def __init__(self, message: str, line: int = 0, column: int = 0):
        super().__init__(message)
        self.message, self.line, self.column = message, line, column

    def __str__(self) -> str:
        where = f"line {self.line}" + (f", column {self.column}" if self.column else "") if self.line else ""
        return f"{where}: {self.message}" if where else self.message


@dataclass(frozen=True)
class Limits:
    max_bytes: int = MAX_BYTES
    max_nodes: int = MAX_NODES
    max_depth: int = MAX_DEPTH


class _Loader(yaml.SafeLoader):
    def construct_mapping(self, node: MappingNode, deep: bool = False) -> dict:
        seen: dict = {}
        for key_node, _value in node.value:
            key = self.construct_object(key_node, deep=True)
            try:
                hash(key)
            except TypeError:
                raise YamlError("a mapping key must be a plain value", key_node.start_mark.line + 1,
                                key_node.start_mark.column + 1) from None
            if key in seen:
                first = seen[key]
                raise YamlError(f"duplicate key {key!r} (first at line {first + 1})", key_node.start_mark.line + 1,
                                key_node.start_mark.column + 1)
            seen[key] = key_node.start_mark.line
        return super().construct_mapping(node, deep=deep)


def _measure(root: Node, limits: Limits) -> None:
    """Expanded node count and depth of a composed document, without expanding it."""
    sizes: dict[int, int] = {}
    depths: dict[int, int] = {}
    # Iterative post-order walk: a deep document must not exhaust Python's stack.
    stack: list[tuple[Node, bool]] = [(root, False)]
    on_path: set[int] = set()
    while stack:
        node, done = stack.pop()
        key = id(node)
        if key in sizes and not done:
            continue
        children = _children(node)
        if not done:
            if key in on_path:
                raise YamlError("a recursive alias", node.start_mark.line + 1, node.start_mark.column + 1)
            on_path.add(key)
            stack.append((node, True))
            stack.extend((c, False) for c in children if id(c) not in sizes)
            continue
        on_path.discard(key)
        sizes[key] = 1 + sum(sizes[id(c)] for c in children)
        depths[key] = 1 + max((depths[id(c)] for c in children), default=0)
        if sizes[key] > limits.max_nodes:
            raise YamlError(f"the document expands to more than {limits.max_nodes:,} values (aliases?)",
                            node.start_mark.line + 1, node.start_mark.column + 1)
        if depths[key] > limits.max_depth:
            raise YamlError(f"nested deeper than {limits.max_depth} levels", node.start_mark.line + 1,
                            node.start_mark.column + 1)


def _children(node: Node) -> list[Node]:
    if isinstance(node, SequenceNode):
        return list(node.value)
    if isinstance(node, MappingNode):
        return [n for pair in node.value for n in pair]
    return []


class Located(dict):
    """A mapping of a located document: `line` (1-based) where it starts, `last_line` where it
    ends, and `lines`: key -> the line its value starts on."""

    line: int = 0
    last_line: int = 0
    lines: dict


class LocatedList(list):
    """A sequence of a located document: `line` where it starts, `lines`: the line of each item."""

    line: int = 0
    lines: list


def _last_line(node: Node) -> int:
    # A block's end mark is where the next token starts (the next item's line); the end of
    # its last value, a scalar or a flow collection, is where it really ends.
    while isinstance(node, (MappingNode, SequenceNode)) and node.value and not node.flow_style:
        last = node.value[-1]
        node = last[1] if isinstance(node, MappingNode) else last
    mark = node.end_mark
    return max(node.start_mark.line + 1, mark.line if mark.column == 0 else mark.line + 1)


class _LocatedLoader(_Loader):
    def construct_located_map(self, node: MappingNode):
        data = Located()
        data.line, data.last_line = node.start_mark.line + 1, _last_line(node)
        data.lines = {}
        yield data
        data.update(self.construct_mapping(node))
        for key_node, value_node in node.value:
            key = self.construct_object(key_node, deep=True)
            data.lines[key] = value_node.start_mark.line + 1

    def construct_located_seq(self, node: SequenceNode):
        data = LocatedList()
        data.line = node.start_mark.line + 1
        data.lines = [item.start_mark.line + 1 for item in node.value]
        yield data
        data.extend(self.construct_sequence(node))


_LocatedLoader.add_constructor("tag:yaml.org,2002:map", _LocatedLoader.construct_located_map)
_LocatedLoader.add_constructor("tag:yaml.org,2002:seq", _LocatedLoader.construct_located_seq)


def loads(text: str, limits: Limits = Limits()):
    """The document in `text`; YamlError (with line and column) for anything not allowed."""
    return _load(_Loader, text, limits)


def loads_located(text: str, limits: Limits = Limits()):
    """As :func:`loads`, with every mapping a :class:`Located` and every sequence a
    :class:`LocatedList`, so a reader of data files can say on which line a value it refuses is."""
    return _load(_LocatedLoader, text, limits)


def _load(loader_class, text: str, limits: Limits):
    if len(text.encode("utf-8", "surrogatepass")) > limits.max_bytes:
        raise YamlError(f"larger than {limits.max_bytes:,} bytes")
    loader = loader_class(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        _measure(node, limits)
        return loader.construct_document(node)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        raise YamlError(exc.problem or str(exc).splitlines()[0], mark.line + 1 if mark else 0,
                        mark.column + 1 if mark else 0) from None
    except yaml.YAMLError as exc:
        raise YamlError(str(exc).splitlines()[0]) from None
    except RecursionError:
        raise YamlError(f"nested deeper than {limits.max_depth} levels") from None
    finally:
        loader.dispose()


def load_file(path, limits: Limits = Limits()):
    """The document in a file; OSError for a file that cannot be read, YamlError for the rest."""
    from pathlib import Path

    path = Path(path)
    size = path.stat().st_size
    if size > limits.max_bytes:
        raise YamlError(f"the file has {size:,} bytes, more than the {limits.max_bytes:,} allowed")
    data = path.read_bytes()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise YamlError(f"not UTF-8 (byte 0x{data[exc.start]:02x})", line, column) from None
    return loads(text.removeprefix("\ufeff"), limits)


__all__ = ["Limits", "Located", "LocatedList", "YamlError", "load_file", "loads", "loads_located"]
