"""Inside the jail, nothing a command tries changes Cupcake's protected files: each command below runs as
an agent would run it (the installed ``cupcake run --jail`` answers, real bash runs the answer), as the
user the tests run as (root in CI, as agents often are in containers), and the protected file is the
same afterwards. The commands are the families a hostile agent tries: undo the mount (umount, remount,
a new mount or user namespace, nsenter), go around it (another path to the same file: /proc, a hard
link, the project renamed), replace it (mv, rm, sed -i, a symlink), change its metadata, wait in the
background, or change what builds the next jail."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
import time

import pytest


def state(path) -> tuple:
    """What a change to the file would show: content, type and mode, owner, modification time."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return ("missing",)
    content = open(path, "rb").read() if os.path.isfile(path) and not os.path.islink(path) else None
    return (st.st_mode, st.st_uid, st.st_mtime_ns, content)


def _same(jail, before) -> None:
    assert state(jail.policy) == before, "the policy file changed"


HOSTILE = {
    "redirect": "echo '# gone' > cupcake.toml",
    "opaque script": "python3 tool.py",
    "umount": "umount cupcake.toml; umount -l cupcake.toml; echo '# gone' > cupcake.toml",
    "remount read-write": "mount -o remount,rw cupcake.toml; mount -o remount,bind,rw cupcake.toml; "
    "echo '# gone' > cupcake.toml",
    "new mount namespace": "unshare -m sh -c 'umount cupcake.toml; echo gone > cupcake.toml'",
    "new user and mount namespace": "unshare -Urm sh -c 'umount cupcake.toml; echo gone > cupcake.toml'",
    "nsenter another process's namespaces": 'nsenter -t $OUTSIDE -m -U sh -c \'echo gone > "$0"/cupcake.toml\' "$PWD"; '
    'nsenter -t $OUTSIDE -m sh -c \'echo gone > "$0"/cupcake.toml\' "$PWD"',
    "mv over": "echo gone > new.toml; mv -f new.toml cupcake.toml",
    "rm then create": "rm -f cupcake.toml; echo gone > cupcake.toml",
    "sed -i": "sed -i 's/policy/gone/' cupcake.toml",
    "symlink over": "ln -sf /etc/hostname cupcake.toml",
    "hard link": "ln cupcake.toml hard.toml && echo gone >> hard.toml",
    "bind another file over": "echo gone > other; mount --bind other cupcake.toml; echo gone > cupcake.toml",
    "chmod": "chmod 666 cupcake.toml; chmod 000 cupcake.toml",
    "chown": "chown 65534 cupcake.toml",
    "truncate": "truncate -s 0 cupcake.toml",
    "touch": "touch -d 2000-01-01 cupcake.toml",
    "cp over": "cp /etc/hostname cupcake.toml",
    "dd": "dd if=/dev/zero of=cupcake.toml bs=1 count=4 conv=notrunc",
    "through /proc/self/root": 'echo gone > /proc/self/root"$PWD"/cupcake.toml',
    "through /proc/self/cwd": "echo gone > /proc/self/cwd/cupcake.toml",
    # $OUTSIDE: a process of the same user outside the jail, working in the project (the agent, say).
    "through another process's /proc root": 'echo gone > /proc/$OUTSIDE/root"$PWD"/cupcake.toml; '
    "echo gone > /proc/$OUTSIDE/cwd/cupcake.toml",
    "chroot": 'chroot / sh -c \'echo gone > "$0"/cupcake.toml\' "$PWD"',
    "project renamed": "cd .. && mv project project.old && mkdir project && echo gone > project/cupcake.toml",
    "parent of the project renamed": 'p=$(dirname "$PWD"); cd "$(dirname "$p")" && mv "$p" "$p.moved" && '
    'mkdir -p "$p/project" && echo gone > "$p/project/cupcake.toml"',
    "project removed": "cd .. && rm -rf project",
    "git checkout": "git init -q . 2>/dev/null; git checkout -- cupcake.toml 2>/dev/null; git stash -q 2>/dev/null; "
    "echo gone > cupcake.toml",
    "python os.replace": 'python3 -c \'import os; open("n","w").write("gone"); os.replace("n", "cup" "cake.toml")\'',
}


@pytest.fixture
def outside(jail):
    """A process of the same user outside any jail, working in the project (as the agent does)."""
    helper = subprocess.Popen(["sleep", "60"], cwd=jail.project.root)
    yield {"OUTSIDE": str(helper.pid)}
    helper.kill()
    helper.wait()


@pytest.mark.parametrize("how", sorted(HOSTILE))
def test_a_command_cannot_change_the_policy_file(jail, how, outside):
    before = state(jail.policy)
    time.sleep(0.01)  # a write now would show in the modification time
    ran = jail.run(HOSTILE[how], env=outside)
    _same(jail, before)
    assert "Cupcake jail: the command was not run" not in ran.stderr, ran  # it ran, and failed to change it


# Commands that change nothing outside their own mount namespace even where they work.
NO_CONTROL = {"bind another file over"}
NEEDS_ROOT = {"chown", "nsenter another process's namespaces", "chroot", "new user and mount namespace"}


@pytest.mark.parametrize("how", sorted(set(HOSTILE) - NO_CONTROL))
def test_without_the_jail_the_same_command_does_change_it(jail, how, outside):
    """The control: each command above is one that works, so the jail is what stopped it."""
    if how in NEEDS_ROOT and os.geteuid() != 0:
        pytest.skip("works outside the jail only as root")
    before = state(jail.policy)
    time.sleep(0.01)
    if os.geteuid() == 0:  # in a mount namespace of its own: a mount it makes must not outlive the test
        jail.bash(f"unshare -m --propagation private /bin/bash -c {shlex.quote(HOSTILE[how])}", env=outside)
    else:
        jail.bash(HOSTILE[how], env=outside)
    assert state(jail.policy) != before


def test_the_opaque_script_runs_writes_ordinary_files_and_its_exit_status_comes_back(jail):
    ran = jail.run("python3 tool.py")
    assert ran.code == 7
    assert ran.stdout.startswith("REFUSED Read-only file system"), ran
    assert (jail.project.root / "ordinary.txt").read_text() == "ok\n"


def test_cupcakes_directories_and_the_agents_settings_cannot_be_written_or_created(jail):
    root, home = jail.project.root, jail.project.home
    (root / ".claude").mkdir()
    (root / ".claude" / "settings.json").write_text("{}\n")
    (home / ".claude").mkdir()
    secret = home / ".cache" / "cupcake" / "cache-secret"
    secret.parent.mkdir(parents=True)
    secret.write_bytes(b"k" * 32)
    jail.run("true")  # .cupcake/ exists once the hook has run
    commands = [
        "echo x > .cupcake/forged",
        "rm -rf .cupcake",
        "echo '{\"disableAllHooks\": true}' > .claude/settings.local.json",
        "mv .claude .claude.old",
        "echo x > ~/.claude/cupcake.toml",
        "mkdir -p .codex && echo x > .codex/hooks.json",
        "echo x > ~/.cache/cupcake/cache-secret",
        'for f in .cupcake/jail/*.spec; do echo x >> "$f"; done',
    ]
    for command in commands:
        jail.run(command)
    assert not (root / ".cupcake" / "forged").exists()
    assert (root / ".cupcake" / "jail").is_dir()
    assert not (root / ".claude" / "settings.local.json").exists()
    assert (root / ".claude" / "settings.json").read_text() == "{}\n"
    assert not (home / ".claude" / "cupcake.toml").exists()
    assert not (root / ".codex" / "hooks.json").exists()
    assert secret.read_bytes() == b"k" * 32
    for spec in (root / ".cupcake" / "jail").glob("*.spec"):
        assert not spec.read_bytes().endswith(b"x\n")


def test_a_secret_reads_as_empty_inside(jail):
    secret = jail.project.home / ".cache" / "cupcake" / "cache-secret"
    secret.parent.mkdir(parents=True)
    secret.write_bytes(b"s3cret-key-" * 4)
    ran = jail.run("cat ~/.cache/cupcake/cache-secret | wc -c; cat ~/.cache/cupcake/cache-secret")
    assert ran.stdout.split() == ["0"], ran
    assert "s3cret" not in ran.stdout + ran.stderr


def test_a_process_left_running_in_the_background_stays_jailed(jail):
    before = state(jail.policy)
    ran = jail.run("(sleep 1; echo gone > cupcake.toml; echo done > bg.txt) >/dev/null 2>&1 & echo started")
    assert ran.stdout == "started\n"
    deadline = time.monotonic() + 10
    while not (jail.project.root / "bg.txt").exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert (jail.project.root / "bg.txt").read_text() == "done\n"  # it kept running after the command
    _same(jail, before)


def test_another_process_of_the_same_user_cannot_be_traced_or_entered(jail):
    """A process outside the jail runs as the same user: neither ptrace nor its /proc entries lead out."""
    helper = subprocess.Popen(["sleep", "30"], cwd=jail.project.root)
    try:
        script = (
            "import ctypes, os, sys\n"
            "pid = int(sys.argv[1])\n"
            "libc = ctypes.CDLL(None, use_errno=True)\n"
            "print('attach', libc.ptrace(16, pid, None, None))\n"
            "for path in (f'/proc/{pid}/mem', f'/proc/{pid}/root' + os.getcwd() + '/cupcake.toml',"
            " f'/proc/{pid}/cwd/cupcake.toml'):\n"
            "    try:\n"
            "        open(path, 'r+b').close(); print('OPENED', path)\n"
            "    except OSError as exc:\n"
            "        print('refused', exc.errno)\n"
        )
        (jail.project.root / "trace.py").write_text(script)
        before = state(jail.policy)
        ran = jail.run(f"python3 trace.py {helper.pid}; kill -0 {helper.pid} && echo signal-ok")
        assert "attach -1" in ran.stdout, ran
        assert "OPENED" not in ran.stdout, ran
        assert "signal-ok" in ran.stdout  # signals reach other processes as before
        _same(jail, before)
    finally:
        helper.kill()
        helper.wait()


@pytest.mark.skipif(os.geteuid() != 0, reason="as root, the jail's own programs and libraries are writable outside")
def test_as_root_what_builds_the_next_jail_cannot_be_changed(jail):
    """Run as root, a command could otherwise replace bubblewrap, the interpreter or its standard library,
    or the dynamic loader's preload list, and so switch off the next jail or the next hook from outside.
    (Only harmless changes are tried: a new file, a modification time; each undone if it ever happened.)"""
    stdlib = os.path.dirname(os.__file__)
    planted = os.path.join(stdlib, "cupcake_jail_test_plant.py")
    touched = ["/usr/bin/bwrap", os.path.realpath(sys.executable), os.path.join(stdlib, "os.py")]
    if os.path.exists("/etc/ld.so.preload"):
        touched.append("/etc/ld.so.preload")
    before = {path: os.stat(path).st_mtime_ns for path in touched}
    try:
        for path in touched:
            jail.run(f"touch -d 2001-01-01 '{path}'")
        jail.run(f"echo 'raise SystemExit' > '{planted}'")
        assert {path: os.stat(path).st_mtime_ns for path in touched} == before
        assert not os.path.exists(planted)
    finally:
        for path, mtime in before.items():
            if os.stat(path).st_mtime_ns != mtime:
                os.utime(path, ns=(mtime, mtime))
        if os.path.exists(planted):
            os.unlink(planted)
