"""The offers file (``.cupcake/approval-offers.jsonl``), where a blocked call appends its code, against
what a hostile writer of it could try: a forged line, a cut line, a huge file, a line written again
after its code was used, something that is not a file. None of them grants anything, and none stops
a person's real code from working (through the installed executable). Then the lock the append shares
with the store's fold, and the store as a hook reads it for a grant, without that lock."""

from __future__ import annotations

import json
import os

import pytest

from cupcake.approvals.codes import approval_key, code_hash, new_code
from tests.approvals.test_approvals import POLICY, blocked, code_of, offered, person

OFFERS = ".cupcake/approval-offers.jsonl"


@pytest.fixture
def guarded(project):
    project.write_policy(POLICY)
    person(project, "validate")  # a person's command: it creates the per-user secret
    return project


def _append(project, data: bytes) -> None:
    with open(project.root / OFFERS, "ab") as f:
        f.write(data)


def test_a_blocked_call_only_appends_one_line(guarded):
    code_of(blocked(guarded))
    assert not (guarded.root / ".cupcake" / "approvals.json").exists()  # no store read, rewritten or renamed
    code_of(blocked(guarded))
    lines = offered(guarded)
    assert len(lines) == 2 and all(set(e) >= {"code", "call", "rule", "seal", "expires"} for e in lines)


def test_a_forged_line_grants_nothing(guarded):
    code_of(blocked(guarded))
    first = offered(guarded)[0]
    mine = new_code()
    made_up_key = approval_key(os.urandom(32))  # the forger does not hold the per-user secret
    forged = dict(first, id="abcdef", code=code_hash(made_up_key, mine), seal="0" * 64)
    as_grant = dict(first, scope="always", until=None, by="agent", reason="trust me")  # a grant among offers
    _append(guarded, b"\n" + json.dumps(forged).encode() + b"\n" + json.dumps(as_grant).encode() + b"\n")
    done = person(guarded, "allow", f"{mine[:4]}-{mine[4:]}")
    assert done.returncode == 1 and "no pending approval has this code" in done.stderr, done
    assert blocked(guarded).specific["permissionDecision"] == "deny"


def test_a_cut_line_loses_nothing_after_it(guarded):
    code_of(blocked(guarded))
    line = (guarded.root / OFFERS).read_bytes().strip()
    _append(guarded, line[: len(line) // 2])  # a write cut short, with no newline
    code = code_of(blocked(guarded))
    person(guarded, "allow", code, check=True)
    assert blocked(guarded).specific["permissionDecision"] == "allow"


def test_a_huge_offers_file_is_bounded_and_codes_still_work(guarded):
    code_of(blocked(guarded))
    _append(guarded, (b'{"junk": "' + b"x" * 1000 + b'"}\n') * 3000)  # 3 MB of lines no one sealed
    code = code_of(blocked(guarded))  # past the bound: folded into the store, the file emptied
    assert (guarded.root / OFFERS).stat().st_size == 0
    assert (guarded.root / ".cupcake" / "approvals.json").stat().st_size < 64 << 10
    person(guarded, "allow", code, check=True)
    assert blocked(guarded).specific["permissionDecision"] == "allow"


def test_a_used_code_written_again_is_not_taken_back(guarded):
    code = code_of(blocked(guarded))
    line = (guarded.root / OFFERS).read_bytes()
    person(guarded, "allow", code, check=True)
    assert blocked(guarded).specific["permissionDecision"] == "allow"  # the once grant, used up
    _append(guarded, line)  # the same sealed line, replayed
    done = person(guarded, "allow", code)
    assert done.returncode == 1 and "no pending approval has this code" in done.stderr, done
    assert blocked(guarded).specific["permissionDecision"] == "deny"


def test_withdrawn_codes_written_again_are_not_taken_back(guarded):
    code = code_of(blocked(guarded))
    line = (guarded.root / OFFERS).read_bytes()
    for n in range(5):
        person(guarded, "allow", f"ZZZZ-ZZZ{n}")
    _append(guarded, line)
    done = person(guarded, "allow", code)
    assert done.returncode == 1, done
    assert blocked(guarded).specific["permissionDecision"] == "deny"


def test_something_other_than_a_file_there_never_hangs_and_the_block_stands(guarded):
    (guarded.root / ".cupcake").mkdir(exist_ok=True)
    os.mkfifo(guarded.root / OFFERS)  # opening a FIFO for writing would wait for a reader
    answer = blocked(guarded)
    assert answer.specific["permissionDecision"] == "deny"
    assert "cupcake allow" not in answer.stdout.decode()  # no code that could not be kept
    os.unlink(guarded.root / OFFERS)
    os.symlink(guarded.root / "elsewhere", guarded.root / OFFERS)
    answer = blocked(guarded)
    assert answer.specific["permissionDecision"] == "deny" and not (guarded.root / "elsewhere").exists()


HOLD_LOCK = (
    "import sys, time\n"
    "from cupcake.approvals.files import folder, lock\n"
    "fd = lock(folder(sys.argv[1], True))\n"
    "print('held', flush=True)\n"
    "time.sleep(60)\n"
)


def test_an_offer_takes_the_stores_lock_and_a_lock_held_too_long_leaves_no_code(guarded):
    """The append takes the lock every fold of the offers file holds (see ``cupcake.approvals.files``):
    while another process holds it past the wait, the block stands and no code is shown that no file keeps."""
    import subprocess
    import sys

    holder = subprocess.Popen([sys.executable, "-c", HOLD_LOCK, str(guarded.root)], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        answer = blocked(guarded)
        assert answer.specific["permissionDecision"] == "deny"
        assert "cupcake allow" not in answer.stdout.decode()
        assert "was held by another process for too long" in answer.json["systemMessage"]
        assert not (guarded.root / OFFERS).exists() or offered(guarded) == []
    finally:
        holder.kill()
        holder.wait()
    code = code_of(blocked(guarded))  # the lock let go: codes are offered again, and they work
    person(guarded, "allow", code, check=True)
    assert blocked(guarded).specific["permissionDecision"] == "allow"


APPEND = (
    "import sys, time\n"
    "from cupcake.approvals import files\n"
    "root, key, me = sys.argv[1], bytes.fromhex(sys.argv[2]), sys.argv[3]\n"
    "for n in range(int(sys.argv[4])):\n"
    "    entry = {'id': f'{me}-{n}', 'code': f'{me}-{n}', 'call': 'c', 'rule': 'r', 'expires': time.time() + 900}\n"
    "    assert files.add_offer(root, key, entry)\n"
)
FOLD = (
    "import os, sys\n"
    "from cupcake.approvals import store\n"
    "root, key = sys.argv[1], bytes.fromhex(sys.argv[2])\n"
    "while not os.path.exists(os.path.join(root, 'stop')):\n"
    "    with store.Locked(root, key) as held:\n"
    "        held.save()  # the offers folded into the store, the offers file emptied\n"
)


def test_no_offer_is_lost_while_the_offers_are_folded_into_the_store(tmp_path):
    """Blocked calls append while a person's `cupcake allow` folds the offers file into the store and
    empties it: every code offered is kept, in the store or in the file."""
    import subprocess
    import sys

    from cupcake.approvals import store

    key = approval_key(os.urandom(32))
    (tmp_path / ".cupcake").mkdir()
    root, writers, each = str(tmp_path), 4, 20  # 80 codes: within the store's MAX_PENDING
    folder = subprocess.Popen([sys.executable, "-c", FOLD, root, key.hex()])
    try:
        appenders = [
            subprocess.Popen([sys.executable, "-c", APPEND, root, key.hex(), f"w{w}", str(each)])
            for w in range(writers)
        ]
        assert [p.wait(timeout=60) for p in appenders] == [0] * writers
    finally:
        (tmp_path / "stop").touch()
        assert folder.wait(timeout=60) == 0
    with store.Locked(root, key) as held:
        kept = {e["code"] for e in held.data["pending"]}
    assert held.dropped == 0
    assert kept == {f"w{w}-{n}" for w in range(writers) for n in range(each)}


def test_a_grant_is_read_without_the_lock_and_a_once_grant_is_used_up_only_under_it(guarded):
    """The store is only ever replaced whole, so looking for a grant takes no lock: a grant for a while
    lets the call through while another process holds the lock. Using up a "once" grant needs the lock:
    held too long, the block stands and the grant is kept."""
    import subprocess
    import sys

    person(guarded, "allow", code_of(blocked(guarded)), "--for", "1h", check=True)
    once = code_of(blocked(guarded, "git push --force origin"))
    person(guarded, "allow", once, check=True)
    holder = subprocess.Popen([sys.executable, "-c", HOLD_LOCK, str(guarded.root)], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        answer = blocked(guarded)
        assert answer.specific["permissionDecision"] == "allow", answer
        answer = blocked(guarded, "git push --force origin")
        assert answer.specific["permissionDecision"] == "deny", answer
        assert "a person's approval could not be used, so the block stands" in answer.json["systemMessage"]
    finally:
        holder.kill()
        holder.wait()
    assert blocked(guarded, "git push --force origin").specific["permissionDecision"] == "allow"  # kept
    assert blocked(guarded, "git push --force origin").specific["permissionDecision"] == "deny"  # once


STORE = ".cupcake/approvals.json"


def _linked(path):
    os.rename(path, path.with_name("elsewhere.json"))
    os.symlink(path.with_name("elsewhere.json"), path)


def _fifo(path):
    os.unlink(path)
    os.mkfifo(path)


@pytest.mark.parametrize(
    "spoil",
    [
        _linked,  # a link to a store with a real grant: never read through
        _fifo,  # never waits for a writer
        lambda path: path.write_bytes(path.read_bytes()[: path.stat().st_size // 2]),  # cut short
        lambda path: path.write_bytes(b" " * (1 << 20) + path.read_bytes()),  # past the bound
        lambda path: path.write_bytes(b'{"grants": {"not": "a list"}}'),
    ],
    ids=["link", "fifo", "cut", "huge", "grants-not-a-list"],
)
def test_a_store_read_without_the_lock_still_grants_nothing_it_should_not(guarded, spoil):
    person(guarded, "allow", code_of(blocked(guarded)), "--for", "1h", check=True)
    assert blocked(guarded).specific["permissionDecision"] == "allow"
    spoil(guarded.root / STORE)
    answer = blocked(guarded)
    assert answer.specific["permissionDecision"] == "deny", answer
