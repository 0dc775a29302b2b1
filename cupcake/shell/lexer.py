"""Character-level reading of Bash: blanks, comments, words and their parts, here-document bodies.

A word is returned as a ``RawWord``: its source text and its parts, each a tuple:
``("u", text)`` unquoted text (glob and brace characters live), ``("q", text)`` quoted or escaped
text (ANSI-C ``$'…'`` already decoded), ``("$", name|None, raw, quoted, inner, form)`` a parameter
(``name`` None for a form the reader cannot read, ``inner`` then the parts inside it, walked for the
substitutions they run; ``form`` for ``${…}`` with an operator: (prefix ``!``/``#`` or None, name,
subscript parts or None, operator or None, operand parts), see ``param_form``), ``("c", node, raw,
quoted)`` a command substitution (``$(…)`` or backticks, parsed as commands), ``("a", raw, nodes,
quoted)`` arithmetic ``$((…))`` or ``$[…]`` (with the substitutions inside it),
``("p", node, raw)`` a process substitution, ``("g", raw)`` an extended-glob group.
The grammar (``grammar.Parser``) subclasses ``Reader`` and supplies ``parse_sub`` / ``parse_text``.
"""

from __future__ import annotations

from cupcake.shell.limits import MAX_DEPTH
from cupcake.shell.model import RawWord

TYPE_CHECKING = False  # not typing's: the Bash reader is on the hot path
if TYPE_CHECKING:  # annotations only
    from cupcake.shell.model import Redir, Seq

META = " \t\n;&|()<>"
_SPECIAL = META + "\\'\"$`"
_NAME_START = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_"
_NAME_CHARS = _NAME_START + "0123456789"
_C_ESCAPES = {
    "a": "\a",
    "b": "\b",
    "e": "\x1b",
    "E": "\x1b",
    "f": "\f",
    "n": "\n",
    "r": "\r",
    "t": "\t",
    "v": "\v",
    "\\": "\\",
    "'": "'",
    '"': '"',
    "?": "?",
}
_HEX = "0123456789abcdefABCDEF"
_PARAM_OPS = (
    ":-",
    ":=",
    ":+",
    ":?",
    "-",
    "=",
    "+",
    "?",
    "%%",
    "%",
    "##",
    "#",
    "//",
    "/#",
    "/%",
    "/",
    "^^",
    "^",
    ",,",
    ",",
    "~~",
    "~",
    "@",
    ":",
)


def _substitutions(part) -> list:
    """The command substitutions inside a ``${…}`` part (its operand and subscript)."""
    out = []
    pieces = list(part[4] or ())
    form = part[5]
    if form is not None:
        pieces += list(form[2] or ()) + list(form[4] or ())
    for piece in pieces:
        if piece[0] == "c":
            out.append(piece[1])
        elif piece[0] == "a":
            out.extend(piece[2])
        elif piece[0] == "$":
            out.extend(_substitutions(piece))
    return out


def decode_ansi_c(text: str) -> str:
    """The value of a ``$'…'`` body: ``\\n``, ``\\x63``, ``\\143``, ``\\u0063``, ``\\cA``, …"""
    out = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch != "\\" or i + 1 >= n:
            out.append(ch)
            i += 1
            continue
        esc = text[i + 1]
        i += 2
        if esc in _C_ESCAPES:
            out.append(_C_ESCAPES[esc])
        elif esc in "01234567":
            j = i
            while j < n and j < i + 2 and text[j] in "01234567":
                j += 1
            out.append(chr(int(esc + text[i:j], 8) & 0xFF))
            i = j
        elif esc in "xuU":
            limit = {"x": 2, "u": 4, "U": 8}[esc]
            j = i
            while j < n and j < i + limit and text[j] in _HEX:
                j += 1
            if j == i:
                out.append("\\" + esc)
            else:
                code = int(text[i:j], 16)
                out.append(chr(code) if code <= 0x10FFFF else "\ufffd")
            i = j
        elif esc == "c" and i < n:
            out.append(chr(ord(text[i]) & 0x1F))
            i += 1
        else:
            out.append("\\" + esc)
    return "".join(out)


class Reader:
    """The reading position over one source text, with the shared budget and nesting depth."""

    __slots__ = ("src", "pos", "n", "budget", "depth", "pending", "errors")

    def __init__(self, src: str, budget, depth: int = 0, errors=None):
        self.src = src
        self.pos = 0
        self.n = len(src)
        self.budget = budget
        self.depth = depth
        self.pending: list[Redir] = []  # here-documents whose bodies start after the next newline
        self.errors = errors if errors is not None else []

    # hooks supplied by the grammar
    def parse_sub(self):  # pragma: no cover - overridden
        raise NotImplementedError

    def parse_text(self, text: str):  # pragma: no cover - overridden
        raise NotImplementedError

    def error(self, message: str) -> None:
        if len(self.errors) < 20:
            self.errors.append(message)

    def halt(self, reason: str) -> None:
        """A bound was passed: stop reading here."""
        self.budget.stop(reason)
        self.pos = self.n

    def enter(self) -> bool:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            self.halt("nesting too deep")
            return False
        return True

    def leave(self) -> None:
        self.depth -= 1

    # ## blanks ##

    def skip_blanks(self) -> None:
        """Spaces, tabs, line continuations and a comment (up to, not including, its newline)."""
        src, n = self.src, self.n
        pos = self.pos
        while pos < n:
            ch = src[pos]
            if ch == " " or ch == "\t":
                pos += 1
            elif ch == "\\" and pos + 1 < n and src[pos + 1] == "\n":
                pos += 2
            elif ch == "#":
                end = src.find("\n", pos)
                pos = n if end < 0 else end
            else:
                break
        self.pos = pos

    def skip_newlines(self) -> None:
        """Blanks and newlines; each newline ends the line that may have opened here-documents."""
        while True:
            self.skip_blanks()
            if self.pos < self.n and self.src[self.pos] == "\n":
                self.pos += 1
                if self.pending:
                    self.read_heredocs()
            else:
                return

    def at(self, text: str) -> bool:
        return self.src.startswith(text, self.pos)

    # ## words ##

    def read_word(self, extra_stop: str = ""):
        """The word at the reading position, or None when there is none."""
        src, n = self.src, self.n
        start = self.pos
        parts = []
        special = _SPECIAL + extra_stop
        if src.startswith("<(", start) or src.startswith(">(", start):
            parts.append(self._process_substitution())
        while self.pos < n:
            pos = self.pos
            ch = src[pos]
            if ch not in special:
                j = pos + 1
                while j < n and src[j] not in special:
                    j += 1
                self._text(parts, src[pos:j])
                self.pos = j
                continue
            if ch == "(" and parts and parts[-1][0] == "u" and parts[-1][1][-1:] in "?*+@!":
                self._extglob(parts)
                continue
            if ch in META or ch in extra_stop:
                break
            if ch == "\\":
                if pos + 1 < n:
                    if src[pos + 1] != "\n":
                        parts.append(("q", src[pos + 1]))
                    self.pos = pos + 2
                else:
                    self._text(parts, "\\")
                    self.pos = pos + 1
            elif ch == "'":
                end = src.find("'", pos + 1)
                if end < 0:
                    self.error("unterminated single quote")
                    end = n
                parts.append(("q", src[pos + 1 : end]))
                self.pos = end + 1
            elif ch == '"':
                self.pos = pos + 1
                self._double(parts)
            elif ch == "$":
                self._dollar(parts, False)
            else:  # "`"
                parts.append(self._backtick(False))
        if self.pos > self.n:
            self.pos = self.n
        if self.pos == start:
            return None
        self.budget.spend(self.pos - start)
        return RawWord(parts, src[start : self.pos])

    @staticmethod
    def _text(parts: list, text: str) -> None:
        if parts and parts[-1][0] == "u":
            parts[-1] = ("u", parts[-1][1] + text)
        else:
            parts.append(("u", text))

    def _extglob(self, parts: list) -> None:
        """``?(…)``, ``*(…)``, ``+(…)``, ``@(…)``, ``!(…)``: one unknown pattern part."""
        last = parts.pop()
        lead = last[1][-1]
        if last[1][:-1]:
            parts.append(("u", last[1][:-1]))
        depth, j = 0, self.pos
        while j < self.n:
            if self.src[j] == "(":
                depth += 1
            elif self.src[j] == ")":
                depth -= 1
                if depth == 0:
                    break
            j += 1
        parts.append(("g", lead + self.src[self.pos : j + 1]))
        self.pos = min(j + 1, self.n)

    def _double(self, parts: list) -> None:
        """The inside of ``"…"`` (the opening quote already read)."""
        src, n = self.src, self.n
        buf = []
        before = len(parts)
        while self.pos < n:
            pos = self.pos
            ch = src[pos]
            if ch == '"':
                self.pos = pos + 1
                break
            if ch == "\\" and pos + 1 < n and src[pos + 1] in '$`"\\\n':
                if src[pos + 1] != "\n":
                    buf.append(src[pos + 1])
                self.pos = pos + 2
            elif ch == "$" or ch == "`":
                if buf:
                    parts.append(("q", "".join(buf)))
                    buf = []
                if ch == "$":
                    self._dollar(parts, True)
                else:
                    parts.append(self._backtick(True))
            else:
                j = pos + 1
                while j < n and src[j] not in '"\\$`':
                    j += 1
                buf.append(src[pos:j])
                self.pos = j
        else:
            self.error("unterminated double quote")
        if buf or len(parts) == before:
            parts.append(("q", "".join(buf)))

    def _dollar(self, parts: list, quoted: bool) -> None:
        src, pos = self.src, self.pos
        nxt = src[pos + 1 : pos + 2]
        if nxt == "'" and not quoted:
            end = pos + 2
            while end < self.n and src[end] != "'":
                end += 2 if src[end] == "\\" else 1
            if end >= self.n:
                self.error("unterminated $'…'")
            parts.append(("q", decode_ansi_c(src[pos + 2 : min(end, self.n)])))
            self.pos = end + 1
        elif nxt == '"' and not quoted:
            self.pos = pos + 2
            self._double(parts)
        elif src.startswith("$((", pos):
            parts.append(self._arithmetic(pos, quoted))
        elif nxt == "(":
            self.pos = pos + 2
            node = self.parse_sub()
            parts.append(("c", node, src[pos : self.pos], quoted))
        elif nxt == "[":  # $[…]: the old arithmetic, substitutions inside it run
            self.pos = pos + 1
            nodes = self.scan_arithmetic("[", "]")
            parts.append(("a", src[pos : self.pos], nodes, quoted))
        elif nxt == "{":
            parts.append(self._braced(pos, quoted))
        elif nxt and nxt in _NAME_START:
            end = pos + 2
            while end < self.n and src[end] in _NAME_CHARS:
                end += 1
            parts.append(("$", src[pos + 1 : end], src[pos:end], quoted, None, None))
            self.pos = end
        elif nxt and nxt in "?$!#*@-0123456789":
            parts.append(("$", nxt, src[pos : pos + 2], quoted, None, None))
            self.pos = pos + 2
        else:
            if quoted:
                parts.append(("q", "$"))
            else:
                self._text(parts, "$")
            self.pos = pos + 1

    def _braced(self, pos: int, quoted: bool):
        """``${NAME}`` (known if NAME is) or any other ``${…}`` form (unknown, operand read)."""
        src = self.src
        j = pos + 2
        k = j
        while k < self.n and src[k] in _NAME_CHARS:
            k += 1
        if k < self.n and src[k] == "}" and k > j:
            self.pos = k + 1
            name = src[j:k]
            return (
                "$",
                name if (name[0] in _NAME_START or len(name) == 1) else None,
                src[pos : k + 1],
                quoted,
                None,
                None,
            )
        self.pos = j
        inner: list[tuple] = []  # parts, as described above
        depth = 0
        buf = []
        while self.pos < self.n:
            ch = src[self.pos]
            if ch == "}" and depth == 0:
                self.pos += 1
                break
            if ch == "{":
                depth += 1
            elif ch == "}":
                depth -= 1
            if ch == "\\" and self.pos + 1 < self.n:
                buf.append(src[self.pos + 1])
                self.pos += 2
            elif ch == "'":
                end = src.find("'", self.pos + 1)
                end = self.n if end < 0 else end
                buf.append(src[self.pos + 1 : end])
                self.pos = end + 1
            elif ch == '"':
                self.pos += 1
                self._double(inner)
            elif ch == "$":
                self._dollar(inner, True)
            elif ch == "`":
                inner.append(self._backtick(True))
            else:
                buf.append(ch)
                self.pos += 1
        else:
            self.error("unterminated ${…}")
        self.pos = min(self.pos, self.n)
        raw = src[pos : self.pos]
        form = self.param_form(raw) if raw.endswith("}") else None
        if form is not None:
            return ("$", form[1], raw, quoted, None, form)
        return ("$", None, raw, quoted, inner, None)

    def param_form(self, raw: str):
        """``${!x}``, ``${#x}``, ``${x[i]}``, ``${x:-w}``, ``${x%p}``, ``${x@P}``…: (prefix, name,
        subscript parts, operator, operand parts), or None when it is none of those."""
        body = raw[2:-1]
        prefix = None
        if (
            body[:1] in ("!", "#")
            and len(body) > 1
            and body[1] not in "}:=-+?%/^,@"
            or body[:2] in ("!@", "!*", "#@", "#*")
        ):
            prefix, body = body[0], body[1:]
        j = 0
        if body[:1] and body[0] in _NAME_START:
            while j < len(body) and body[j] in _NAME_CHARS:
                j += 1
        elif body[:1].isdigit():
            while j < len(body) and body[j].isdigit():
                j += 1
        elif body[:1] and body[0] in "@*#?$!-0":
            j = 1
        if j == 0:
            return None
        name, rest = body[:j], body[j:]
        subscript = None
        if rest.startswith("["):
            depth, k = 0, 0
            while k < len(rest):
                if rest[k] == "[":
                    depth += 1
                elif rest[k] == "]":
                    depth -= 1
                    if depth == 0:
                        break
                k += 1
            if k >= len(rest):
                return None
            subscript = self.operand_parts(rest[1:k])
            rest = rest[k + 1 :]
        if prefix == "!" and rest in ("*", "@"):
            return ("!", name, subscript, rest, [])
        for op in _PARAM_OPS:
            if rest.startswith(op):
                return (prefix, name, subscript, op, self.operand_parts(rest[len(op) :]))
        if rest:
            return None
        return (prefix, name, subscript, None, [])

    def operand_parts(self, text: str) -> list:
        """The parts of the text inside ``${x:-…}`` (or a subscript): quotes and expansions read,
        blanks kept as text."""
        if not text:
            return []
        reader = self.__class__(text, self.budget, self.depth + 1, self.errors)
        parts: list = []
        while reader.pos < reader.n and not self.budget.stopped:
            word = reader.read_word()
            if word is not None:
                parts.extend(word.parts)
            elif reader.pos < reader.n:
                parts.append(("q", text[reader.pos]))
                reader.pos += 1
        return parts

    def _backtick(self, quoted: bool):
        src, start = self.src, self.pos
        j = start + 1
        out = []
        while j < self.n and src[j] != "`":
            if src[j] == "\\" and j + 1 < self.n and src[j + 1] in ("`$\\" + ('"' if quoted else "")):
                out.append(src[j + 1])
                j += 2
            else:
                out.append(src[j])
                j += 1
        if j >= self.n:
            self.error("unterminated backquote")
        self.pos = min(j + 1, self.n)
        node = self.parse_text("".join(out))
        return ("c", node, src[start : self.pos], quoted)

    def _process_substitution(self):
        start = self.pos
        self.pos += 2
        node = self.parse_sub()
        return ("p", node, self.src[start : self.pos])

    def _arithmetic(self, pos: int, quoted: bool):
        """``$((…))``: scanned for the substitutions inside it (they run)."""
        self.pos = pos + 1
        nodes = self.scan_arithmetic()
        return ("a", self.src[pos : self.pos], nodes, quoted)

    def scan_arithmetic(self, opening: str = "(", closing: str = ")") -> list:
        """From an opening ``(`` to its match; the ``$(…)`` and backticks inside, parsed."""
        src = self.src
        nodes: list[Seq] = []
        depth = 0
        while self.pos < self.n:
            ch = src[self.pos]
            if ch == opening:
                depth += 1
            elif ch == closing:
                depth -= 1
                if depth == 0:
                    self.pos += 1
                    return nodes
            elif ch == "$" and src.startswith("$(", self.pos) and not src.startswith("$((", self.pos):
                self.pos += 2
                nodes.append(self.parse_sub())
                continue
            elif ch == "`":
                nodes.append(self._backtick(False)[1])
                continue
            elif ch == "$" and src.startswith("${", self.pos):
                part = self._braced(self.pos, True)
                nodes.extend(_substitutions(part))
                continue
            self.pos += 1
        self.error("unterminated arithmetic")
        return nodes

    # ## here-documents ##

    def read_heredocs(self) -> None:
        """Read the bodies of the here-documents opened on the line just ended."""
        pending, self.pending = self.pending, []
        src = self.src
        for redir in pending:
            delimiter, strip = redir.delimiter, redir.op == "<<-"
            lines = []
            closed = False
            while self.pos < self.n:
                end = src.find("\n", self.pos)
                end = self.n if end < 0 else end
                line = src[self.pos : end]
                self.pos = min(end + 1, self.n)
                if strip:
                    line = line.lstrip("\t")
                if line == delimiter:
                    closed = True
                    break
                lines.append(line)
            if not closed:
                self.error(f"here-document delimited by end of input (wanted {delimiter!r})")
            body = "\n".join(lines) + ("\n" if lines else "")
            self.budget.spend(len(body))
            redir.body = [("q", body)] if redir.quoted_delimiter else self.heredoc_parts(body)

    def heredoc_parts(self, body: str) -> list:
        """An unquoted here-document body: ``$`` and backticks expand, ``\\$`` escapes; no quoting."""
        if "$" not in body and "`" not in body and "\\" not in body:
            return [("q", body)]
        sub = self.__class__(body, self.budget, self.depth + 1, self.errors)
        parts = []
        buf = []
        while sub.pos < sub.n:
            ch = body[sub.pos]
            if ch == "\\" and sub.pos + 1 < sub.n and body[sub.pos + 1] in "$`\\\n":
                if body[sub.pos + 1] != "\n":
                    buf.append(body[sub.pos + 1])
                sub.pos += 2
            elif ch == "$" or ch == "`":
                if buf:
                    parts.append(("q", "".join(buf)))
                    buf = []
                if ch == "$":
                    sub._dollar(parts, True)
                else:
                    parts.append(sub._backtick(True))
            else:
                buf.append(ch)
                sub.pos += 1
        if buf or not parts:
            parts.append(("q", "".join(buf)))
        return parts
