"""System programs whose commands run later or elsewhere (``crontab``, ``at``), or that load code
into the system (``insmod``, ``modprobe``), or run a command in another namespace (``ip netns
exec``). What runs later is not seen when it runs: it is read now, or refused."""

from __future__ import annotations

from cupcake.programs.spec import SCRIPT, STDIN_CODE, TOOL, WRAPPER, program


def _crontab(r) -> None:
    """``crontab FILE`` / ``crontab -`` installs jobs that run later, outside any hook."""
    if r.has("-l", "--list", "-r", "--remove", "-e", "--edit", "-T"):
        if r.has("-e", "--edit"):
            r.add(STDIN_CODE, None, "crontab -e").language = "cron"
        return
    if r.operands and r.operands[0].value != "-":
        r.add(SCRIPT, r.operands[0], "crontab").language = "cron"
    else:
        r.add(STDIN_CODE, None, "crontab").language = "cron"


def _at(r) -> None:
    if r.has("-l", "-d", "-r", "-c"):
        return
    script = r.get("-f")
    if script is not None:
        r.add(SCRIPT, script, "at -f").language = "sh"
    else:
        r.add(STDIN_CODE, None, "at").language = "sh"


SPECS = (
    program(
        "crontab",
        TOOL,
        options="-u= -l,--list -r,--remove -e,--edit -i -T -s -n= -c",
        operands="value...",
        handler=_crontab,
        examples=("crontab -l => passes", "crontab jobs.txt => script jobs.txt", "crontab - => stdin code"),
    ),
    program(
        "at",
        TOOL,
        aliases=("batch",),
        options="-f= -q= -m -M -l -d -r -c -t= -v -V -b -u=",
        operands="value...",
        handler=_at,
        examples=("at now + 1 minute => stdin code", "at -f job.sh now => script job.sh"),
    ),
    program(
        "insmod",
        TOOL,
        aliases=("modprobe",),
        options="-r -v -q -f -n -a -c -C= -d= -S=",
        operands="script value...",
        language="kernel-module",
        examples=("insmod x.ko => script x.ko",),
    ),
    program(
        "ip",
        WRAPPER,
        aliases=("ip-netns",),
        options="-n,-netns= -4 -6 -s -d -j -p -o -c,-color=? -b,-batch=:script -force -br,-brief -a,-all -h,-human -V",
        single_dash=True,
        subcommands={
            "netns": (
                "netns",
                TOOL,
                {
                    "subcommands": {"exec": ("exec", WRAPPER, {"operands": "value command", "style": "posix"})},
                    "complete": False,
                },
            )
        },
        complete=False,
        examples=("ip addr => passes", "ip netns exec ns rm x => deletes x"),
    ),
    program(
        "systemctl",
        TOOL,
        aliases=(
            "service",
            "launchctl",
            "journalctl",
            "loginctl",
            "hostnamectl",
            "timedatectl",
            "shutdown",
            "reboot",
            "poweroff",
            "halt",
            "pkill",
            "killall",
            "renice",
            "sysctl",
            "chsh",
            "passwd",
            "useradd",
            "usermod",
            "userdel",
            "groupadd",
            "visudo",
            "update-alternatives",
            "ldconfig",
            "iptables",
            "nft",
            "ufw",
        ),
        operands="value...",
        complete=False,
        examples=("systemctl status x => passes",),
    ),
)
