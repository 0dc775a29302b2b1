"""Bash grammar: lists, and-or chains, pipelines, simple and compound commands, redirections.

``Parser(text, budget).parse()`` returns a ``Seq`` (the tree below), never raises, and records
syntax problems in ``errors``. Nodes:
``Seq.items`` [(AndOr, background)]; ``AndOr.first`` Pipeline, ``AndOr.rest`` [("&&"|"||", Pipeline)];
``Pipeline.cmds`` [Simple|Compound], ``negated``, ``timed``;
``Simple.assigns`` [(name, RawWord|None)], ``words`` [RawWord], ``redirs`` [Redir];
``Compound.kind`` one of subshell, group, if, while, until, for, case, func, coproc, arith, with
``a``/``b``/``c`` (see ``_compound``) and ``redirs``.
"""

from __future__ import annotations

from cupcake.shell.lexer import _NAME_CHARS, _NAME_START, META, Reader
from cupcake.shell.model import AndOr, Compound, Pipeline, RawWord, Redir, Seq, Simple

_REDIRECT_OPS = ("&>>", "&>", "<<<", "<<-", "<<", "<>", "<&", ">>", ">&", ">|", "<", ">")
_OPENERS = {"{", "if", "while", "until", "for", "select", "case", "function", "[[", "coproc"}


class Parser(Reader):
    __slots__ = ()

    def parse(self) -> Seq:
        items = []
        while True:
            seq = self.parse_list(())
            items.extend(seq.items)
            if self.pos >= self.n or self.budget.stopped:
                break
            ch = self.src[self.pos]
            self.error(f"unexpected {ch!r} at {self.pos}")
            self.pos += 2 if self.src.startswith((";;", ";&"), self.pos) else 1
        if self.pending:
            self.read_heredocs()
        return Seq(items)

    def parse_sub(self) -> Seq:
        """The body of ``$(…)``/``<(…)``: a list up to its ``)``."""
        if not self.enter():
            return Seq([])
        seq = self.parse_list(())
        if self.pos < self.n and self.src[self.pos] == ")":
            self.pos += 1
        elif not self.budget.stopped:
            self.error("unterminated $(…)")
        self.leave()
        return seq

    def parse_text(self, text: str) -> Seq:
        """Another text (backticks, ``sh -c``, ``eval``) read as a script of its own."""
        if self.depth + 1 > 40:
            self.budget.stop("nesting too deep")
            return Seq([])
        sub = Parser(text, self.budget, self.depth + 1, self.errors)
        return sub.parse()

    # ## lists ##

    def parse_list(self, stops) -> Seq:
        items = []
        src = self.src
        while True:
            self.skip_newlines()
            if self.pos >= self.n or self.budget.stopped:
                break
            ch = src[self.pos]
            if ch == ")" or (ch == ";" and src.startswith((";;", ";&"), self.pos)):
                break
            if stops and self.reserved() in stops:
                break
            start = self.pos
            node = self.parse_andor(stops)
            if node is None:
                if self.pos == start:
                    self.error(f"unexpected {ch!r} at {self.pos}")
                    self.pos += 1
                continue
            self.skip_blanks()
            background = False
            if self.pos < self.n:
                ch = src[self.pos]
                if ch == "&" and not src.startswith(("&&", "&>"), self.pos):
                    background = True
                    self.pos += 1
                elif ch == ";" and not src.startswith((";;", ";&"), self.pos):
                    self.pos += 1
            items.append((node, background))
            if not self.budget.spend(1):
                self.pos = self.n
        return Seq(items)

    def parse_andor(self, stops):
        first = self.parse_pipeline(stops)
        if first is None:
            return None
        rest = []
        while True:
            self.skip_blanks()
            if self.at("&&") or self.at("||"):
                op = self.src[self.pos : self.pos + 2]
                self.pos += 2
                self.skip_newlines()
                nxt = self.parse_pipeline(stops)
                if nxt is None:
                    self.error(f"nothing after {op}")
                    break
                rest.append((op, nxt))
            else:
                break
        return AndOr(first, rest)

    def parse_pipeline(self, stops):
        negated = timed = False
        while True:
            self.skip_blanks()
            word = self.reserved()
            if word == "!":
                negated = not negated
                self.pos += 1
            elif word == "time":
                timed = True
                self.pos += 4
                self.skip_blanks()
                while self.reserved() in ("-p", "--"):
                    self.pos += 2
                    self.skip_blanks()
            else:
                break
        cmd = self.parse_command(stops)
        if cmd is None:
            return Pipeline([], negated, timed) if (negated or timed) else None
        cmds = [cmd]
        while True:
            self.skip_blanks()
            if self.at("|") and not self.at("||"):
                self.pos += 2 if self.at("|&") else 1
                self.skip_newlines()
                cmd = self.parse_command(stops)
                if cmd is None:
                    self.error("nothing after |")
                    break
                cmds.append(cmd)
            else:
                break
        return Pipeline(cmds, negated, timed)

    def reserved(self):
        """The unquoted word at the reading position if it could be a reserved word, else None."""
        src, n, pos = self.src, self.n, self.pos
        j = pos
        while j < n and src[j] not in META and src[j] not in "'\"\\$`":
            j += 1
            if j - pos > 8:
                return None
        if j < n and src[j] not in META:
            return None
        word = src[pos:j]
        if word == "" and src.startswith(("((", "("), pos):
            return None
        return word or None

    def take(self, word: str) -> bool:
        """Consume reserved word ``word`` (after blanks and newlines), or record its absence."""
        self.skip_newlines()
        if self.reserved() == word:
            self.pos += len(word)
            return True
        if not self.budget.stopped:
            self.error(f"expected {word!r} at {self.pos}")
        return False

    # ## commands ##

    def parse_command(self, stops):
        self.skip_blanks()
        if self.pos >= self.n:
            return None
        src = self.src
        ch = src[self.pos]
        if ch in ";&|)\n":
            return None
        word = self.reserved()
        if ch == "(" or word in _OPENERS:
            if not self.enter():
                return None
            node = self._compound(word)
            self.leave()
            if node is None:
                return None
            while True:
                self.skip_blanks()
                redir = self.redirect()
                if redir is None:
                    break
                node.redirs.append(redir)
            return node
        return self.simple(stops)

    def _compound(self, word):
        src = self.src
        if src.startswith("((", self.pos):
            start = self.pos
            self.pos += 1
            nodes = self.scan_arithmetic()
            if self.pos < self.n and src[self.pos] == ")":
                self.pos += 1
            return Compound("arith", src[start : self.pos], nodes)
        if src[self.pos] == "(":
            self.pos += 1
            body = self.parse_list(())
            if self.pos < self.n and src[self.pos] == ")":
                self.pos += 1
            else:
                self.error("unterminated (")
            return Compound("subshell", body)
        self.pos += len(word)
        if word == "{":
            body = self.parse_list(("}",))
            self.take("}")
            return Compound("group", body)
        if word == "if":
            clauses = []
            cond = self.parse_list(("then",))
            self.take("then")
            body = self.parse_list(("elif", "else", "fi"))
            clauses.append((cond, body))
            other = None
            while True:
                self.skip_newlines()
                nxt = self.reserved()
                if nxt == "elif":
                    self.pos += 4
                    cond = self.parse_list(("then",))
                    self.take("then")
                    clauses.append((cond, self.parse_list(("elif", "else", "fi"))))
                elif nxt == "else":
                    self.pos += 4
                    other = self.parse_list(("fi",))
                else:
                    break
            self.take("fi")
            return Compound("if", clauses, other)
        if word in ("while", "until"):
            cond = self.parse_list(("do",))
            self.take("do")
            body = self.parse_list(("done",))
            self.take("done")
            return Compound(word, cond, body)
        if word in ("for", "select"):
            return self._for()
        if word == "case":
            return self._case()
        if word == "function":
            self.skip_blanks()
            name = self.read_word()
            self.skip_blanks()
            if self.at("("):
                self._empty_parens()
            self.skip_newlines()
            body = self.parse_command(())
            return Compound("func", name.literal() if name else "", body)
        if word == "[[":
            return self._conditional()
        # coproc
        self.skip_blanks()
        if self.pos < self.n and (src[self.pos] == "(" or self.reserved() in _OPENERS):
            return Compound("coproc", None, self.parse_command(()))
        save = self.pos
        name = self.read_word()
        self.skip_blanks()
        if name is not None and name.unquoted() and (self.at("{") or self.at("(")):
            return Compound("coproc", name.raw, self.parse_command(()))
        self.pos = save
        return Compound("coproc", None, self.simple(()))

    def _empty_parens(self) -> bool:
        j = self.pos + 1
        while j < self.n and self.src[j] in " \t":
            j += 1
        if j < self.n and self.src[j] == ")":
            self.pos = j + 1
            return True
        return False

    def _for(self):
        self.skip_blanks()
        if self.at("(("):
            self.pos += 1
            nodes = self.scan_arithmetic()
            if self.at(")"):
                self.pos += 1
            self.skip_blanks()
            if self.at(";"):
                self.pos += 1
            self.skip_newlines()
            body = self._loop_body()
            return Compound("for", None, nodes, body)
        name = self.read_word()
        self.skip_newlines()
        words = None
        if self.reserved() == "in":
            self.pos += 2
            words = []
            while True:
                self.skip_blanks()
                if self.pos >= self.n or self.src[self.pos] in ";\n&|)":
                    break
                word = self.read_word()
                if word is None:
                    break
                words.append(word)
        self.skip_blanks()
        if self.at(";"):
            self.pos += 1
        self.skip_newlines()
        body = self._loop_body()
        return Compound("for", name.literal() if name else None, words, body)

    def _loop_body(self):
        if self.reserved() == "{":
            self.pos += 1
            body = self.parse_list(("}",))
            self.take("}")
            return body
        self.take("do")
        body = self.parse_list(("done",))
        self.take("done")
        return body

    def _case(self):
        self.skip_blanks()
        subject = self.read_word()
        self.take("in")
        arms: list = []
        while self.pos < self.n and not self.budget.stopped:
            self.skip_newlines()
            if self.reserved() == "esac":
                self.pos += 4
                return Compound("case", subject, arms)
            if self.at("("):
                self.pos += 1
            patterns = []
            while self.pos < self.n:
                self.skip_blanks()
                word = self.read_word()
                if word is not None:
                    patterns.append(word)
                self.skip_blanks()
                if self.at("|"):
                    self.pos += 1
                    continue
                if self.at(")"):
                    self.pos += 1
                else:
                    self.error(f"bad case pattern at {self.pos}")
                    self.pos += 1
                break
            body = self.parse_list(("esac",))
            arms.append((patterns, body))
            self.skip_newlines()
            for end in (";;&", ";;", ";&"):
                if self.at(end):
                    self.pos += len(end)
                    break
        self.error("unterminated case")
        return Compound("case", subject, arms)

    def _conditional(self):
        """``[[ … ]]``: words, where ``<``, ``>``, ``&&``, ``||``, ``(``, ``)`` are operators."""
        words = [RawWord([("u", "[[")], "[[")]
        src = self.src
        while self.pos < self.n and not self.budget.stopped:
            self.skip_blanks()
            if self.pos < self.n and src[self.pos] == "\n":
                self.pos += 1
                continue
            if self.reserved() == "]]":
                self.pos += 2
                words.append(RawWord([("u", "]]")], "]]"))
                return Compound("group", Seq([(AndOr(Pipeline([Simple([], words, [])]), []), False)]))
            for op in ("&&", "||", "<", ">", "(", ")", "!", ";", "&", "|"):
                if self.at(op):
                    words.append(RawWord([("q", op)], op))
                    self.pos += len(op)
                    break
            else:
                word = self.read_word()
                if word is None:
                    self.pos += 1
                else:
                    words.append(word)
        self.error("unterminated [[")
        return Compound("group", Seq([(AndOr(Pipeline([Simple([], words, [])]), []), False)]))

    def simple(self, stops):
        assigns: list = []
        words: list = []
        redirs: list = []
        src = self.src
        while self.pos < self.n and not self.budget.stopped:
            self.skip_blanks()
            if self.pos >= self.n:
                break
            redir = self.redirect()
            if redir is not None:
                redirs.append(redir)
                continue
            ch = src[self.pos]
            if ch in ";&|)\n":
                break
            if ch == "(":
                if len(words) == 1 and not assigns and self._empty_parens():
                    self.skip_newlines()
                    body = self.parse_command(())
                    return Compound("func", words[0].literal() or words[0].raw, body)
                self.error(f"unexpected '(' at {self.pos}")
                self.pos += 1
                continue
            word = self.read_word()
            if word is None:
                self.pos += 1
                continue
            if not words:
                assign = self._assignment(word)
                if assign is not None:
                    assigns.append(assign)
                    continue
            words.append(word)
        if not (assigns or words or redirs):
            return None
        return Simple(assigns, words, redirs)

    def _assignment(self, word):
        """``NAME=value`` / ``NAME+=value`` / ``NAME[i]=value`` / ``NAME=(…)``: (name, value)."""
        first = word.parts[0] if word.parts else None
        if first is None or first[0] != "u":
            return None
        text = first[1]
        eq = text.find("=")
        if eq <= 0:
            return None
        name = text[:eq]
        append = name.endswith("+")
        if append:
            name = name[:-1]
        if "[" in name and name.endswith("]"):
            name = name[: name.index("[")]
        if not name or name[0] not in _NAME_START or any(c not in _NAME_CHARS for c in name):
            return None
        if append:
            name += "+"  # NAME+=value: the walker appends
        rest = text[eq + 1 :]
        parts = ([("u", rest)] if rest else []) + word.parts[1:]
        if not parts and self.at("("):  # an array: NAME=(a b c)
            self.pos += 1
            items = []
            while self.pos < self.n:
                self.skip_newlines()
                if self.at(")"):
                    self.pos += 1
                    break
                item = self.read_word()
                if item is None:
                    self.pos += 1
                else:
                    items.append(item)
            return (name, None, items)
        return (name, RawWord(parts, word.raw[eq + 1 :]), None)

    def redirect(self):
        """A redirection at the reading position, or None."""
        src, n, pos = self.src, self.n, self.pos
        j = pos
        fd: int | str | None = None
        while j < n and src[j].isdigit():
            j += 1
        if j > pos:
            fd = int(src[pos:j]) if j - pos < 6 else -1
        elif pos < n and src[pos] == "{":
            k = pos + 1
            while k < n and src[k] in _NAME_CHARS:
                k += 1
            if k > pos + 1 and src.startswith("}", k) and k + 1 < n and src[k + 1] in "<>":
                fd = src[pos + 1 : k]
                j = k + 1
        if j >= n or src[j] not in "<>&":
            return None
        if src.startswith(("<(", ">("), j):
            return None
        for op in _REDIRECT_OPS:
            if src.startswith(op, j):
                break
        else:
            return None
        if op[0] == "&" and fd is not None:
            return None
        self.pos = j + len(op)
        self.skip_blanks()
        word = self.read_word()
        if word is None:
            self.error(f"redirection {op} without a target")
            word = RawWord([], "")
        redir = Redir(fd, op, word)
        if op in ("<<", "<<-"):
            redir.delimiter = "".join(p[1] if p[0] in "uqa" or p[0] == "g" else p[2] for p in word.parts)
            redir.quoted_delimiter = not word.unquoted()
            self.pending.append(redir)
        return redir
