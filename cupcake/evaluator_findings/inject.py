"""Pass 1's part of evaluator feedback: read the newest eval, add its repeated mistakes to the
cumulative list, and inject both sections as context. Never an error for the agent: a malformed eval
is skipped with a note (``ctx.ext[EXT_KEY]["notes"]``, for the audit trail); a list that cannot be
written is a warning for the user, and the context is injected all the same."""

from __future__ import annotations

from cupcake import lean_os as os
from cupcake.errors import DeadlineExceeded
from cupcake.evaluator_findings import EXT_KEY
from cupcake.evaluator_findings.evals import eval_dir, newest_eval
from cupcake.evaluator_findings.findings import feedback_block, mistakes_of, warning_lines
from cupcake.evaluator_findings.mistakes import FILE_NAME, add_mistakes, list_path, read_mistakes
from cupcake.inject_context.files import FileProblem
from cupcake.project import WORK_DIR

LIST_SHOWN = f"{WORK_DIR}/{FILE_NAME}"


def record_of(ctx) -> dict:
    """What eval feedback did in this run, kept for the audit trail (see ``EXT_KEY``)."""
    record = ctx.ext.get(EXT_KEY)
    if record is None:
        record = ctx.ext[EXT_KEY] = {
            "eval": None,
            "findings": None,
            "notes": [],
            "added": [],
            "gate": None,
            "read": False,
        }
    return record


def newest(ctx, settings: dict, record: dict):
    """The newest well-formed eval's findings (or None), read once per run."""
    if not record["read"]:
        folder = settings["dir"]
        shown_dir = folder if os.path.isabs(folder) else os.path.normpath(folder)
        record["eval"], record["findings"] = newest_eval(eval_dir(ctx.root, folder), shown_dir, record["notes"])
        record["read"] = True
    return record["findings"]


def inject_eval_feedback(ctx, settings: dict) -> None:
    record = record_of(ctx)
    try:
        findings = newest(ctx, settings, record) or {}
        path = list_path(ctx.root)
        try:
            known = read_mistakes(path)
        except FileProblem as exc:
            ctx.warnings.append(f"Cupcake: cannot read {LIST_SHOWN}: {exc}")
            known = None
        if known is not None:
            try:
                writes = ctx.options.get("rehearsal") is None
                record["added"] = add_mistakes(path, known, mistakes_of(findings), writes)
            except OSError as exc:
                ctx.warnings.append(f"Cupcake: could not add to {LIST_SHOWN}: {exc.strerror or exc}")
        text = feedback_block(warning_lines(findings), known or [])
    except DeadlineExceeded:
        raise
    except Exception as exc:  # noqa: BLE001 - context never decides: a bug here must not block the agent
        record["notes"].append(f"eval feedback failed: {type(exc).__name__}: {exc}")
        ctx.warnings.append(f"Cupcake: eval feedback was not injected: {type(exc).__name__}: {exc}")
        return
    if text:
        ctx.contexts.append(text)
