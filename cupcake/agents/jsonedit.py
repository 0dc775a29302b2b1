"""Edit a JSON document in place: every byte outside the edited values stays as it was.

The document is parsed into nodes that know their spans in the text. An edit either replaces a
node's value or rewrites a container's list of children (keeping some, adding new ones); rendering
copies every untouched span verbatim, keeps the original separators between children that stay
neighbours, and writes new values in the style of the place they go (indentation, line endings,
one-line containers stay on one line).

Call ``parse`` only on text that ``json.loads`` accepted: it does not report syntax errors itself.
"""

from __future__ import annotations

import json

_WS = " \t\n\r"
_scan_string = json.decoder.scanstring  # type: ignore[attr-defined]  # public at run time, not in typeshed
_decoder = json.JSONDecoder()


class Node:
    """A JSON value and its span ``text[start:end]``; containers hold their children."""

    __slots__ = ("kind", "start", "end", "members", "items", "parent")

    def __init__(self, kind: str, start: int, parent):
        self.kind = kind  # "object", "array" or "scalar"
        self.start = start
        self.end = start
        self.members: list[Member] = []
        self.items: list[Node] = []
        self.parent = parent

    def children(self) -> list:
        """Members of an object, items of an array (what a rewrite keeps or drops)."""
        return self.members if self.kind == "object" else self.items

    def find(self, key: str) -> list[Member]:
        """Every member named ``key`` (JSON allows repeats; readers take the last)."""
        return [m for m in self.members if m.key == key]


class Member:
    """``"key": value`` inside an object; its span runs from the key's quote to the value's end."""

    __slots__ = ("key", "key_start", "key_end", "value")

    def __init__(self, key: str, key_start: int, key_end: int, value: Node):
        self.key = key
        self.key_start = key_start
        self.key_end = key_end
        self.value = value

    @property
    def start(self) -> int:
        return self.key_start

    @property
    def end(self) -> int:
        return self.value.end


class New:
    """A child to add in a rewrite: a member (with ``key``) or an array item (``key`` None)."""

    __slots__ = ("key", "value")

    def __init__(self, key, value):
        self.key = key
        self.value = value


def _skip(text: str, i: int) -> int:
    while i < len(text) and text[i] in _WS:
        i += 1
    return i


def _parse_value(text: str, i: int, parent) -> Node:
    i = _skip(text, i)
    char = text[i]
    if char == "{":
        node = Node("object", i, parent)
        i = _skip(text, i + 1)
        if text[i] == "}":
            node.end = i + 1
            return node
        while True:
            key_start = i
            key, i = _scan_string(text, i + 1)
            key_end = i
            i = _skip(text, i)  # at ':'
            value = _parse_value(text, i + 1, node)
            node.members.append(Member(key, key_start, key_end, value))
            i = _skip(text, value.end)
            if text[i] == ",":
                i = _skip(text, i + 1)
                continue
            node.end = i + 1  # '}'
            return node
    if char == "[":
        node = Node("array", i, parent)
        i = _skip(text, i + 1)
        if text[i] == "]":
            node.end = i + 1
            return node
        while True:
            item = _parse_value(text, i, node)
            node.items.append(item)
            i = _skip(text, item.end)
            if text[i] == ",":
                i = _skip(text, i + 1)
                continue
            node.end = i + 1  # ']'
            return node
    node = Node("scalar", i, parent)
    _, node.end = _decoder.raw_decode(text, i)
    return node


class Document:
    """A parsed JSON text and the edits planned on it; ``render()`` gives the edited text."""

    def __init__(self, text: str):
        self.text = text
        self.root = _parse_value(text, 0, None)
        self.newline = "\r\n" if "\r\n" in text else "\n"
        self.unit = self._indent_unit()
        self._patches: dict[int, tuple] = {}
        self._dirty: set[int] = set()

    # -- reading ---------------------------------------------------------------------------------

    def value(self, node: Node):
        """The node's value as Python data (as it stands in the original text)."""
        return json.loads(self.text[node.start : node.end])

    def line_of(self, offset: int) -> int:
        return self.text.count("\n", 0, offset) + 1

    def _line_indent(self, offset: int) -> str:
        """The whitespace that starts the line holding ``offset``."""
        line_start = self.text.rfind("\n", 0, offset) + 1
        end = line_start
        while end < len(self.text) and self.text[end] in " \t":
            end += 1
        return self.text[line_start:end]

    def _indent_unit(self):
        """The file's indentation step (spaces or a tab); None when the file is written on one line."""
        stack = [self.root]
        while stack:
            node = stack.pop(0)
            children = node.children() if node.kind != "scalar" else []
            if not children:
                continue
            leading = self.text[node.start + 1 : children[0].start]
            if "\n" in leading:
                inner = leading.rsplit("\n", 1)[1]
                outer = self._line_indent(node.start)
                if inner.startswith(outer) and len(inner) > len(outer):
                    return inner[len(outer) :]
            stack.extend(c.value if isinstance(c, Member) else c for c in children)
        if (
            self.root.kind != "scalar"
            and self.root.children()
            and "\n" not in self.text[self.root.start : self.root.end]
        ):
            return None
        return "  "

    # -- planning edits --------------------------------------------------------------------------

    def replace(self, node: Node, value) -> None:
        """Put ``value`` where ``node`` stands."""
        self._patch(node, ("replace", value))

    def rewrite(self, node: Node, children: list) -> None:
        """Give a container these children, in this order: kept Members/Nodes and New ones."""
        self._patch(node, ("rewrite", children))

    def _patch(self, node: Node, patch) -> None:
        self._patches[id(node)] = (node, patch)
        parent = node.parent
        while parent is not None:
            self._dirty.add(id(parent))
            parent = parent.parent

    @property
    def changed(self) -> bool:
        return bool(self._patches)

    # -- rendering -------------------------------------------------------------------------------

    def render(self) -> str:
        root = self.root
        return self.text[: root.start] + self._render(root) + self.text[root.end :]

    def _render(self, node: Node) -> str:
        patched = self._patches.get(id(node))
        if patched is not None:
            kind, arg = patched[1]
            if kind == "replace":
                if self._on_one_line(node):
                    return self._dump_flat(arg)
                return self._dump(arg, self._line_indent(node.start))
            return self._render_rewrite(node, arg)
        if id(node) not in self._dirty:
            return self.text[node.start : node.end]
        out, cursor = [], node.start
        for child in node.children():
            value = child.value if isinstance(child, Member) else child
            out.append(self.text[cursor : value.start])
            out.append(self._render(value))
            cursor = value.end
        out.append(self.text[cursor : node.end])
        return "".join(out)

    def _on_one_line(self, node: Node) -> bool:
        """A replacement keeps the replaced value's style: a container written on one line stays on
        one line; a scalar or empty container follows its surroundings."""
        around = node
        if node.kind == "scalar" or not node.children():
            around = node.parent if node.parent is not None else node
        return "\n" not in self.text[around.start : around.end]

    def _render_child(self, child) -> str:
        if isinstance(child, Member):
            return self.text[child.key_start : child.value.start] + self._render(child.value)
        return self._render(child)

    def _render_rewrite(self, node: Node, wanted: list) -> str:
        text = self.text
        original = node.children()
        if original:
            leading = text[node.start + 1 : original[0].start]
            trailing = text[original[-1].end : node.end - 1]
            if len(original) >= 2:
                sep = text[original[-2].end : original[-1].start]
            else:
                sep = "," + leading if "\n" in leading else ", "
        elif self.unit is None:
            leading, trailing, sep = "", "", ", "
        else:
            outer = self._line_indent(node.start)
            leading = self.newline + outer + self.unit
            trailing = self.newline + outer
            sep = "," + leading
        if not wanted:
            return text[node.start] + text[node.end - 1]
        indent = leading.rsplit("\n", 1)[1] if "\n" in leading else None
        colon = text[original[0].key_end : original[0].value.start] if node.kind == "object" and original else ": "
        position = {id(c): i for i, c in enumerate(original)}
        parts: list[str] = []
        previous = None
        for child in wanted:
            here = position.get(id(child)) if not isinstance(child, New) else None
            if parts:
                if here is not None and previous is not None and here == previous + 1:
                    parts.append(text[original[previous].end : original[here].start])
                else:
                    parts.append(sep)
            if isinstance(child, New):
                value = self._dump(child.value, indent) if indent is not None else self._dump_flat(child.value)
                parts.append(value if child.key is None else json.dumps(child.key, ensure_ascii=False) + colon + value)
            else:
                parts.append(self._render_child(child))
            previous = here
        return text[node.start] + leading + "".join(parts) + trailing + text[node.end - 1]

    def _dump(self, value, indent: str) -> str:
        if self.unit is None:
            return self._dump_flat(value)
        dumped = json.dumps(value, indent=self.unit, ensure_ascii=False)
        return dumped.replace("\n", self.newline + indent)

    @staticmethod
    def _dump_flat(value) -> str:
        return json.dumps(value, ensure_ascii=False)
