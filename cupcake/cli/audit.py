"""The ``cupcake audit`` commands as plain functions: options in, lines out, an exit code back.

``out`` and ``err`` write one line each (the CLI passes ``typer.echo``)."""

from __future__ import annotations

import os

from cupcake.project import WORK_DIR
from cupcake.stores.audit.query import Filters
from cupcake.stores.audit.reader import Entry, file_entries, read_trail, trail_files

TABLE_LIMIT = 20  # rows the table shows unless --limit says otherwise


def shown(path: str) -> str:
    rel = os.path.relpath(path)
    return rel if not rel.startswith("..") else path


def missing(path: str, env=os.environ) -> str:
    """Why there is no audit log at ``path``, and what to do: it is off, the folder cannot be written,
    or it is on and nothing has been logged yet."""
    where = f"No audit log at {shown(path)}"
    folder = os.path.dirname(os.path.abspath(path))
    if os.path.basename(folder) != WORK_DIR:
        return f"{where}."  # a log named with --log: nothing more is known about it
    root = os.path.dirname(folder)
    from cupcake.stores.policies.loader import load

    loaded = load(root, env, use_cache=False)
    if loaded is None:
        return f"{where}: there is no policy file here, so Cupcake does nothing and logs nothing."
    if loaded.compiled["settings"].get("audit_logging") is not True:
        return f"{where}. Turn it on with `audit_logging = true` under [settings] in cupcake.toml."
    if os.path.lexists(folder):
        from cupcake.stores.workdir import unusable

        reason = unusable(root)
        if reason is not None:
            return (
                f"{where}: audit_logging is on, but {WORK_DIR}/ cannot be written ({reason}), so nothing can be"
                " logged. Make it a directory this user can write (`cupcake doctor` checks it)."
            )
    return (
        f"{where} yet: audit_logging is on, and no run has been logged so far (a run is logged when a policy"
        " matched, a command ran or something failed; with audit_allows = true, every run is)."
    )


def _matching(entries, filters: Filters, err) -> list[Entry]:
    found = []
    for entry in entries:
        if entry.record is None:
            if entry.raw.strip():
                err(f"cupcake audit: skipped {entry.where}: {entry.error} (see `cupcake audit verify`)")
            continue
        if filters.match(entry.record):
            found.append(entry)
    return found


def _history_and_tail(path: str):
    """Every line so far, and a Tail that goes on from exactly where the current file was read."""
    from cupcake.stores.audit.follow import Tail

    tail = Tail(path)
    entries = []
    for file in trail_files(path):
        if file == path:
            continue
        try:
            with open(file, "rb") as f:
                if tail.ino is not None and os.fstat(f.fileno()).st_ino == tail.ino:
                    continue  # rotated since the tail opened it: the tail reads it
                entries.extend(file_entries(file, f.read()))
        except OSError:
            continue
    entries.extend(tail.read())
    return entries, tail


def show(
    path: str, filters: Filters, *, limit=None, follow=False, json_out=False, width=0, out=print, err=print
) -> int:
    from cupcake.stores.audit import table

    if not trail_files(path) and not follow:
        err(missing(path))
        return 1
    if follow:
        entries, tail = _history_and_tail(path)
    else:
        entries, tail = read_trail(path), None
    found = _matching(entries, filters, err)
    limit = (None if json_out else TABLE_LIMIT) if limit is None else limit
    if limit:
        found = found[-limit:]

    def emit(entry: Entry) -> None:
        assert entry.record is not None  # _matching keeps only the lines that are records
        out(entry.raw.decode("utf-8", "replace") if json_out else table.row(entry.record, width))

    if not json_out and (found or follow):
        out(table.header(width))
    for entry in found:
        emit(entry)
    if not found and not json_out and not follow:
        out("No audit records match." if filters else "The audit log is empty.")
    if follow:
        from cupcake.stores.audit.follow import follow as follow_tail

        if tail.fh is None:
            err(f"Waiting for {shown(path)} to be written (Ctrl-C to stop).")
        follow_tail(tail, lambda entry: emit(entry) if _matching([entry], filters, err) else None)
    return 0


def stats(path: str, filters: Filters, *, json_out=False, out=print, err=print) -> int:
    from cupcake.stores.audit.stats import render, summarize

    if not trail_files(path):
        err(missing(path))
        return 1
    summary = summarize([e.record for e in _matching(read_trail(path), filters, err) if e.record is not None])
    if json_out:
        from cupcake import jsonio

        out(jsonio.dumps(summary))
    else:
        for line in render(summary):
            out(line)
    return 0


def verify(path: str, *, json_out=False, out=print, err=print) -> int:
    import os

    from cupcake.stores.audit.verify import verify as walk
    from cupcake.stores.audit.writer import merge_pending

    try:  # records kept aside while the lock was held join the chain first
        left = merge_pending(os.path.dirname(path))
    except Exception as exc:  # noqa: BLE001 - verify what is there, and say what could not be merged
        err(f"cupcake audit: could not add the pending records: {exc}")
        left = None
    if left:
        err(f"cupcake audit: {left} pending records are still waiting (the audit lock is held)")
    if not trail_files(path):
        err(missing(path))
        return 1
    verdict = walk(path)
    if json_out:
        from cupcake import jsonio

        out(jsonio.dumps(verdict.as_dict()))
    else:
        out(verdict.text())
    return 0 if verdict.ok else 1


def report(logs: list[str], filters: Filters, output: str, *, out=print, err=print) -> int:
    """``cupcake audit report -o FILE.html``: one self-contained page from one or more projects' trails."""
    from cupcake.stores.audit.html_report import collect, render

    found = []
    for path in logs:
        if not trail_files(path):
            err(missing(path))
            return 1
        records = [e.record for e in _matching(read_trail(path), filters, err) if e.record is not None]
        found.append((_project_of(path), records))
    page = render(collect(found))
    try:
        with open(output, "w", encoding="utf-8") as f:
            f.write(page)
    except OSError as exc:
        err(f"cupcake audit report: cannot write {output}: {exc.strerror or exc}")
        return 1
    runs = sum(len(records) for _p, records in found)
    out(
        f"Wrote {shown(output)}: {runs} decision{'s' if runs != 1 else ''} from {len(found)} project{'s' if len(found) != 1 else ''}."
    )
    return 0


def _project_of(log: str) -> str:
    """The project a trail belongs to: the directory holding its ``.cupcake/`` (else the log's folder)."""
    folder = os.path.dirname(os.path.abspath(log))
    return os.path.dirname(folder) if os.path.basename(folder) == ".cupcake" else folder
