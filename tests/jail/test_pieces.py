"""The jail's pieces on their own: the quoting and its strict inverse, reading a jailed command line back,
the description's records and what they bind, the index's seal, the macOS profile (written and tested
here; it cannot run on Linux), and the causes the launcher names."""

from __future__ import annotations

import os
import subprocess

import pytest

from cupcake.jail import decide, launch, spec, unwrap
from cupcake.jail.quote import quote, split_quoted, unquote

TEXTS = ["", "plain", "it's", "''", "'\\''", "a\nb", "$'x'", "tab\there", "é 🙂", "\x01\x1b[0m", "\\", "a' 'b"]


@pytest.mark.parametrize("text", TEXTS)
def test_quoting_is_read_back_exactly_by_bash_and_by_its_inverse(text):
    quoted = quote(text)
    assert unquote(quoted) == text
    printed = subprocess.run(["/bin/bash", "-c", f"printf %s {quoted}"], capture_output=True).stdout
    assert printed == text.encode()


@pytest.mark.parametrize("word", ["'a'b'", "a", "'a", "'a'\\'", "''x''", "'a''b'"])
def test_unquote_refuses_what_quote_never_writes(word):
    assert unquote(word) is None


def test_split_quoted_reads_only_plain_and_quoted_words():
    assert split_quoted("'/x y' -I -S 'z' bash 'it'\\''s'") == ["/x y", "-I", "-S", "z", "bash", "it's"]
    for bad in ("a  b", "a;b", "'a' $HOME", "a ", "'unclosed", "a\nb"):
        assert split_quoted(bad) is None


def test_a_jailed_command_line_is_read_back_only_when_it_is_exactly_this_installations(tmp_path):
    root = str(tmp_path)
    from cupcake.jail import runtime

    spec_path = os.path.join(root, ".cupcake", "jail", "0" * 32 + ".spec")
    line = " ".join(
        [
            quote(runtime.interpreter()),
            "-I",
            "-S",
            quote(runtime.launcher()),
            "--agent",
            "codex",
            quote(spec_path),
            "bash",
        ]
        + [quote("echo 'hi'")]
    )
    assert unwrap.inner(line, root) == "echo 'hi'"
    forged = [
        line.replace(quote(runtime.launcher()), quote("/tmp/x/cupcake/jail/launch.py")),  # another launcher
        line.replace(quote(runtime.interpreter()), "'/usr/bin/python3'")
        if runtime.interpreter() != "/usr/bin/python3"
        else "",
        line.replace(quote(spec_path), quote("/tmp/elsewhere/.cupcake/jail/x.spec")),  # another project's
        line + " extra",
        line.replace("--agent codex", "--evil"),
    ]
    for text in forged:
        if text:
            assert unwrap.inner(text, root) is None, text


def test_records_keep_each_policy_files_state_and_the_launcher_refuses_when_it_changed(tmp_path):
    policy = tmp_path / "cupcake.toml"
    policy.write_text("x")
    records = spec.protected_records({"files": [str(policy)]}, str(tmp_path), {"HOME": str(tmp_path / "h")})
    assert records[0] == (launch.POLICY, str(policy)) and records[1][0] == launch.STATE
    assert launch.changed_policies(records) == []
    policy.write_text("changed")
    assert launch.changed_policies(records) == [str(policy)]


def test_an_agents_missing_directory_gets_a_placeholder_only_for_the_agent_that_runs(tmp_path):
    root, home = tmp_path / "p", tmp_path / "h"
    root.mkdir()
    home.mkdir()
    protected = {"agent_config": [str(root / ".codex" / "hooks.json"), str(root / ".gemini" / "settings.json")]}
    records = spec.protected_records(protected, str(root), {"HOME": str(home)}, "codex")
    assert (launch.DIR, str(root / ".codex")) in records
    assert (launch.EXISTING, str(root / ".gemini")) in records
    (root / ".gemini").mkdir()
    records = spec.protected_records(protected, str(root), {"HOME": str(home)}, "codex")
    assert (launch.DIR, str(root / ".gemini")) in records  # there: read-only whole


def test_an_imports_folder_is_kept_whole_only_when_it_holds_nothing_but_policies(tmp_path):
    root = tmp_path
    (root / "policies").mkdir()
    (root / "policies" / "a.toml").write_text("")
    assert spec._policy_folder(str(root / "policies"), ["*.toml"], str(root), str(tmp_path / "h"))
    (root / "policies" / "notes.md").write_text("")
    assert not spec._policy_folder(str(root / "policies"), ["*.toml"], str(root), str(tmp_path / "h"))
    assert not spec._policy_folder(str(root), ["*.toml"], str(root), str(tmp_path / "h"))  # the root: never


def test_mounts_pin_each_renamable_directory_above_and_cover_a_missing_path_at_its_first_missing_part(tmp_path):
    root = tmp_path / "p"
    root.mkdir()
    (root / "cupcake.toml").write_text("")
    empty_file, empty_dir = tmp_path / "e", tmp_path / "e.d"
    empty_file.write_text("")
    empty_dir.mkdir()
    records = [
        (launch.POLICY, str(root / "cupcake.toml")),
        (launch.DIR, str(root / "missing" / "deeper")),
        (launch.EXISTING, str(root / "absent")),
        (launch.EMPTY_FILE, str(empty_file)),
        (launch.EMPTY_DIR, str(empty_dir)),
    ]
    binds, pins = launch.mounts(records)
    assert ("--ro-bind", str(root / "cupcake.toml"), str(root / "cupcake.toml")) in binds
    assert ("--ro-bind", str(empty_dir), str(root / "missing")) in binds  # not "deeper": it could be made
    assert not any(dest == str(root / "absent") for _, _, dest in binds)  # EXISTING: no placeholder
    assert str(root) in pins and str(tmp_path) in pins
    assert pins == sorted(pins, key=lambda p: p.count("/"))  # outermost first


def test_the_index_is_trusted_only_under_its_seal(tmp_path):
    env = {"HOME": str(tmp_path / "h")}
    secret = tmp_path / "h" / ".cache" / "cupcake" / "cache-secret"
    root = tmp_path / "p"
    (root / ".cupcake" / "jail").mkdir(parents=True)
    target = root / ".cupcake" / "jail" / "x.spec"
    target.write_text("")
    found = ("/usr/bin/python3", "/x/launch.py", str(target))
    decide._index(str(root), "k" * 32, env, found)
    assert decide.indexed(str(root), "k" * 32, env) is None  # no secret: nothing was kept
    secret.parent.mkdir(parents=True)
    secret.write_bytes(b"s" * 32)
    decide._index(str(root), "k" * 32, env, found)
    assert decide.indexed(str(root), "k" * 32, env) == found
    entry = root / ".cupcake" / "jail" / ("k" * 32 + ".index")
    entry.write_bytes(entry.read_bytes().replace(b"/x/launch.py", b"/y/launch.py"))  # planted
    assert decide.indexed(str(root), "k" * 32, env) is None
    secret.write_bytes(b"t" * 32)  # another user's secret
    decide._index(str(root), "k" * 32, {"HOME": str(tmp_path / "other")}, found)
    assert decide.indexed(str(root), "k" * 32, env) is None


def test_the_seatbelt_profile_denies_writing_protected_paths_renaming_above_them_and_reading_secrets():
    records = [
        (launch.POLICY, "/p/cupcake.toml"),
        (launch.STATE, "1:2:3:4"),
        (launch.DIR, "/p/.cupcake"),
        (launch.EXISTING, "/h/.codex"),
        (launch.HIDE, "/h/.cache/cupcake/cache-secret"),
        (launch.FILE, '/odd "name\\'),
        (launch.BWRAP, "/usr/bin/bwrap"),
    ]
    profile = launch.seatbelt_profile(records)
    assert profile.startswith("(version 1)\n(allow default)\n")
    write = profile[profile.index("(deny file-write*") : profile.index("(deny file-write-unlink")]
    assert '(literal "/p/cupcake.toml")' in write and '(subpath "/p/.cupcake")' in write
    assert '(subpath "/h/.codex")' in write and '(literal "/odd \\"name\\\\")' in write
    assert "/usr/bin/bwrap" not in profile and "1:2:3:4" not in profile
    above = profile[profile.index("(deny file-write-unlink") : profile.index("(deny file-read*")]
    assert '(literal "/p")' in above and '(literal "/h/.cache")' in above
    assert profile.rstrip().endswith('(deny file-read*\n    (literal "/h/.cache/cupcake/cache-secret"))')
    argv = launch.seatbelt_argv(records, "/bin/zsh", "echo 'x'")
    assert argv[:2] == [launch.SANDBOX_EXEC, "-p"] and argv[3:] == ["/bin/zsh", "-c", "echo 'x'"]


@pytest.mark.parametrize(
    ("files", "euid", "cause"),
    [
        ({"/proc/sys/user/max_user_namespaces": "0"}, 0, "user.max_user_namespaces = 0"),
        ({"/proc/sys/kernel/unprivileged_userns_clone": "0"}, 1000, "kernel.unprivileged_userns_clone = 0"),
        ({"/proc/sys/kernel/apparmor_restrict_unprivileged_userns": "1"}, 1000, "AppArmor"),
        ({"/proc/self/status": "Seccomp:\t2\n"}, 1000, "already runs inside another sandbox"),
        ({"/proc/self/uid_map": "0 1000 1"}, 0, "already runs inside another sandbox"),
        ({}, 0, "bubblewrap could not set up the jail"),
    ],
)
def test_the_launcher_names_why_the_jail_did_not_start(monkeypatch, files, euid, cause):
    monkeypatch.setattr(launch, "_read", lambda path: files.get(path, "0 0 4294967295" if "uid_map" in path else ""))
    found, fix = launch.diagnose(euid)
    assert cause in found and fix


def test_a_shell_is_found_by_name_in_fixed_places_only(tmp_path, monkeypatch):
    assert launch.resolve_shell("bash") in ("/bin/bash", "/usr/bin/bash")
    with pytest.raises(launch.Refused):
        launch.resolve_shell("python3")  # not a shell the jail runs commands with
    monkeypatch.setenv("PATH", str(tmp_path))
    (tmp_path / "bash").write_text("#!/bin/sh\necho planted\n")
    assert not launch.resolve_shell("bash").startswith(str(tmp_path))  # never PATH


def test_a_run_that_breaks_under_the_os_layer_blocks_whatever_fail_mode_says():
    from cupcake.cli.last_resort import last_resort
    from cupcake.cli.run import closed_anyway

    assert closed_anyway(["--event", "PreToolUse", "--jail"]) and closed_anyway(["--jail-unshare-net"])
    assert not closed_anyway(["--event", "PreToolUse"])
    stdout, stderr, code = last_resort(RuntimeError("boom"), closed_anyway(["--jail"]))
    assert code == 2 and b"blocked" in stderr and stdout == b""


def test_the_installed_launcher_blocks_when_cupcake_cannot_import_under_the_os_layer(tmp_path):
    """bin/cupcake's own last resort: an installation that cannot import its modules still blocks."""
    import sys
    from pathlib import Path

    launcher = Path(__file__).resolve().parents[2] / "bin" / "cupcake"
    broken = tmp_path / "cupcake"
    broken.mkdir()
    (broken / "__init__.py").write_text("raise ImportError('broken on purpose')\n")
    env = {"PYTHONPATH": str(tmp_path), "PATH": "/usr/bin:/bin"}
    args = [sys.executable, "-S", str(launcher), "run", "--event", "PreToolUse"]
    jailed = subprocess.run([*args, "--jail"], env=env, input=b"{}", capture_output=True)
    assert jailed.returncode == 2 and b"blocked" in jailed.stderr
    plain = subprocess.run(args, env=env, input=b"{}", capture_output=True)
    assert plain.returncode == 0 and plain.stdout == (
        b'{"systemMessage":"Cupcake: cannot start, no policy was enforced for this event (fail_mode \\"open\\"): '
        b'ImportError: broken on purpose"}\n'
    )


# ## The launcher's refusals, in process (the launcher runs out of process, where coverage does not see it) ##


def _spec(tmp_path, records) -> str:
    data = launch.encode(records)
    path = tmp_path / f"{launch.digest(data)}.spec"  # a spec is named by the digest of its bytes
    path.write_bytes(data)
    return str(path)


@pytest.mark.parametrize(
    "argv, cause",
    [
        (["--evil", "s", "sh", "ls"], "the launcher was given an unknown option '--evil'"),
        (["--agent", "codex", "s", "sh"], "the launcher was not given SPEC SHELL COMMAND"),
        (["/nonexistent/x.spec", "sh", "ls"], "the jail's description /nonexistent/x.spec cannot be read"),
    ],
)
def test_the_launcher_refuses_what_it_was_not_given_and_says_how_to_turn_the_layer_off(argv, cause, capsys):
    assert launch.main(argv) == launch.REFUSED
    said = capsys.readouterr().err
    assert said.startswith("Cupcake jail: the command was not run: ") and cause in said
    off = (
        "cupcake sync --agent codex --sandbox --uninstall" if "codex" in argv else "cupcake sync --sandbox --uninstall"
    )
    assert f"a person runs `{off}`" in said


def test_the_launcher_refuses_when_a_policy_file_changed_or_the_shell_is_not_known(tmp_path, capsys):
    policy = tmp_path / "cupcake.toml"
    policy.write_text("x")
    records = spec.protected_records({"files": [str(policy)]}, str(tmp_path), {"HOME": str(tmp_path / "h")})
    path = _spec(tmp_path, records)
    assert launch.main([path, "fish-of-the-day", "ls"]) == launch.REFUSED
    assert "the shell 'fish-of-the-day' is not one the jail runs commands with" in capsys.readouterr().err
    policy.write_text("changed")
    assert launch.main(["--unshare-net", path, "sh", "ls"]) == launch.REFUSED
    assert "policy files changed after the hook approved this command" in capsys.readouterr().err
    forged = tmp_path / "x.spec"
    forged.write_bytes(launch.encode(records))
    assert launch.main([str(forged), "sh", "ls"]) == launch.REFUSED
    assert "does not match its name (it was changed)" in capsys.readouterr().err


def test_without_bubblewrap_the_jail_does_not_start(tmp_path):
    records = [(launch.BWRAP, str(tmp_path / "no-bwrap"))]
    with pytest.raises(launch.Refused) as refused:
        launch.run_linux(records, "/bin/sh", "true", False)
    assert refused.value.cause == f"bubblewrap is not installed at {tmp_path / 'no-bwrap'}"
