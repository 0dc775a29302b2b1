"""The newest well-formed ``eval-*.json`` of the eval directory, by modification time.

As seed 004: ``eval-campaign-*`` files are campaign summaries, not evals, and are skipped; the newest
eval may be about an earlier feature (the evaluator runs asynchronously), and is used all the same.
A file that is not a JSON object (or not a regular file, or too large) is skipped with a note, and the
next newest is used."""

from __future__ import annotations

from cupcake import lean_os as os
from cupcake import speedups
from cupcake.inject_context.files import FileProblem, open_regular, read_fd

MAX_EVAL_BYTES = 1 << 20  # an eval file larger than this is not read
MAX_SKIPPED = 20  # malformed files looked past before giving up


def eval_dir(root: str, folder: str) -> str:
    return folder if os.path.isabs(folder) else os.path.join(root, folder)


def candidates(directory: str, notes: list) -> list:
    """``(mtime_ns, name)`` of the eval files, newest first; [] when the directory does not exist."""
    found = []
    try:
        with os.scandir(directory) as entries:
            for entry in entries:
                name = entry.name
                if not (name.startswith("eval-") and name.endswith(".json")) or name.startswith("eval-campaign-"):
                    continue
                try:
                    st = entry.stat(follow_symlinks=False)
                except OSError:
                    continue  # gone since it was listed
                found.append((st.st_mtime_ns, name))
    except FileNotFoundError:
        return []
    except OSError as exc:
        notes.append(f"cannot list the eval directory {directory}: {exc.strerror or exc}")
        return []
    found.sort(reverse=True)
    return found


def newest_eval(directory: str, shown_dir: str, notes: list):
    """``(shown path, findings dict)`` of the newest well-formed eval, or ``(None, None)``."""
    for skipped, (_mtime, name) in enumerate(candidates(directory, notes)):
        if skipped >= MAX_SKIPPED:
            notes.append(f"gave up after {MAX_SKIPPED} unusable eval files in {shown_dir}")
            break
        shown = f"{shown_dir}/{name}"
        try:
            findings = read_eval(os.path.join(directory, name))
        except FileProblem as exc:
            notes.append(f"skipped {shown}: {exc}")
            continue
        return shown, findings
    return None, None


def read_eval(path: str) -> dict:
    data, more = read_fd(open_regular(path), MAX_EVAL_BYTES)
    if more:
        raise FileProblem(f"larger than {MAX_EVAL_BYTES} bytes")
    try:
        findings = speedups.json_loads(data)
    except ValueError as exc:  # UnicodeDecodeError is a ValueError too
        raise FileProblem(f"not valid JSON ({exc})") from None
    except RecursionError:
        raise FileProblem("not valid JSON (nested too deeply)") from None
    if not isinstance(findings, dict):
        raise FileProblem(f"not a JSON object (a {type(findings).__name__})")
    return findings
