"""Package managers and the launchers that come with them: what they install, and the commands
they run for you (``npx``, ``uv run``, ``poetry run``, ``bundle exec``, ``npm exec``…), read as
wrappers so the command inside is read too. Cupcake itself is here (its set-up is for a person)."""

from __future__ import annotations

from cupcake.programs.spec import POSIX, TOOL, WRAPPER, program


def _launcher(options: str = "", operands: str = "command", **extra) -> tuple:
    """A subcommand that runs the command that follows (``uv run …``, ``poetry run …``)."""
    return ("run", WRAPPER, {"options": options, "operands": operands, "style": POSIX, **extra})


def _npx(r) -> None:
    """``npx -c 'cmd'`` runs a shell line; ``npx -p PKG cmd`` runs cmd; ``npx PKG args`` runs PKG."""
    if r.get("-c", "--call") is not None:  # the option's own effect says what runs
        r.inner = None


_PIP_INSTALL = (
    "-r,--requirement=:reads -c,--constraint=:reads -e,--editable= -t,--target= --prefix= --root= --src= -U,--upgrade "
    "--upgrade-strategy= --force-reinstall -I,--ignore-installed --ignore-requires-python --no-deps --pre "
    "--no-build-isolation --use-pep517 --no-use-pep517 --check-build-dependencies --break-system-packages "
    "-C,--config-settings= --global-option= --compile --no-compile --no-warn-script-location --no-warn-conflicts "
    "--no-binary= --only-binary= --prefer-binary --require-hashes --progress-bar= --root-user-action= --report=:writes "
    "--no-clean -i,--index-url= --extra-index-url= --no-index -f,--find-links= --user --dry-run -q,--quiet -v,--verbose "
    "--python= --system -y,--yes --no-input --trusted-host= --cert= --proxy= --timeout= --retries= --cache-dir= "
    "--no-cache-dir --disable-pip-version-check --isolated --log=:writes"
)
_PIP_SUBS = {
    "install": ("install", TOOL, {"options": _PIP_INSTALL, "complete": False}),
    "uninstall": (
        "uninstall",
        TOOL,
        {
            "options": "-r,--requirement=:reads -y,--yes --root-user-action= --break-system-packages -q -v --python= --system",
            "complete": False,
        },
    ),
    "download": (
        "download",
        TOOL,
        {"options": "-d,--dest=:into " + _PIP_INSTALL.replace("-t,--target= ", ""), "complete": False},
    ),
    "wheel": (
        "wheel",
        TOOL,
        {"options": "-w,--wheel-dir=:into " + _PIP_INSTALL.replace("-t,--target= ", ""), "complete": False},
    ),
    "freeze": (
        "freeze",
        TOOL,
        {
            "options": "-r,--requirement=:reads -l,--local --user --path= --all --exclude-editable --exclude=",
            "complete": False,
        },
    ),
}
for _name in (
    "list",
    "show",
    "check",
    "config",
    "search",
    "cache",
    "index",
    "inspect",
    "debug",
    "hash",
    "completion",
    "help",
    "compile",
    "sync",
    "tree",
    "lock",
):
    _PIP_SUBS[_name] = (_name, TOOL, {"complete": False})
_PIP_GLOBAL = "--python= --log=:writes --proxy= --cert= --client-cert= --cache-dir= --timeout= --retries= -q,--quiet -v,--verbose --isolated --no-input --disable-pip-version-check --no-color --require-virtualenv --no-cache-dir --trusted-host= -h,--help -V,--version"

_UV_RUN = (
    "--with= --with-editable= --with-requirements=:reads --python=,-p= --project= --directory=:chdir --env-file=:reads "
    "--no-env-file --no-project --isolated --module,-m --script,-s --gui-script --frozen --locked --no-sync --group= "
    "--extra= --all-extras --no-dev --only-dev --package= --all-packages --from= -q -v --offline --no-cache --active --exact"
)

SPECS = (
    program(
        "pip",
        TOOL,
        aliases=("pip3",),
        versioned=True,
        options=_PIP_GLOBAL,
        style=POSIX,
        subcommands=_PIP_SUBS,
        complete=False,
        examples=(
            "pip install -r requirements.txt => reads requirements.txt",
            "pip install -e . => passes",
            "pip download -d wheels x => into wheels",
        ),
    ),
    program(
        "uv",
        TOOL,
        options="--directory=:chdir --project= --config-file=:reads --no-config -q,--quiet -v,--verbose --color= --native-tls --offline --no-cache --cache-dir= --python-preference= --no-python-downloads --no-progress -n",
        style=POSIX,
        subcommands={
            "run": _launcher(_UV_RUN),
            "pip": ("pip", TOOL, {"options": _PIP_GLOBAL, "subcommands": _PIP_SUBS, "complete": False}),
            "tool": (
                "tool",
                TOOL,
                {
                    "subcommands": {
                        "run": _launcher(_UV_RUN),
                        "install": ("install", TOOL, {"complete": False}),
                        "uninstall": ("uninstall", TOOL, {}),
                        "upgrade": ("upgrade", TOOL, {"complete": False}),
                        "list": ("list", TOOL, {}),
                        "dir": ("dir", TOOL, {}),
                        "update-shell": ("update-shell", TOOL, {}),
                    }
                },
            ),
            **{
                name: (
                    name,
                    TOOL,
                    {"options": "-o,--output-file=:writes --directory=:chdir --project=", "complete": False},
                )
                for name in (
                    "sync",
                    "add",
                    "remove",
                    "lock",
                    "venv",
                    "build",
                    "publish",
                    "init",
                    "python",
                    "self",
                    "cache",
                    "export",
                    "tree",
                    "version",
                    "help",
                    "format",
                )
            },
        },
        examples=("uv run pytest => passes", "uv pip install x => passes", "uv export -o r.txt => writes r.txt"),
    ),
    program(
        "uvx", WRAPPER, options=_UV_RUN, style=POSIX, operands="command", examples=("uvx ruff check . => reads .",)
    ),
    program(
        "pipx",
        TOOL,
        style=POSIX,
        subcommands={
            "run": _launcher("--spec= --python= --pip-args= --no-cache --path"),
            **{
                name: (name, TOOL, {"complete": False})
                for name in (
                    "install",
                    "uninstall",
                    "reinstall",
                    "upgrade",
                    "upgrade-all",
                    "uninstall-all",
                    "reinstall-all",
                    "list",
                    "inject",
                    "uninject",
                    "ensurepath",
                    "environment",
                    "completions",
                    "runpip",
                    "pin",
                    "unpin",
                    "interpreter",
                    "upgrade-shared",
                )
            },
        },
        complete=False,
        examples=("pipx run black . => writes .",),
    ),
    program(
        "poetry",
        TOOL,
        options="-C,--directory=:chdir -P,--project= -q,--quiet -v,--verbose -n,--no-interaction --no-plugins --no-cache --ansi --no-ansi",
        style=POSIX,
        subcommands={
            "run": _launcher(),
            **{
                name: (name, TOOL, {"complete": False})
                for name in (
                    "install",
                    "add",
                    "remove",
                    "update",
                    "lock",
                    "build",
                    "publish",
                    "new",
                    "init",
                    "show",
                    "check",
                    "config",
                    "env",
                    "export",
                    "shell",
                    "self",
                    "version",
                    "source",
                    "cache",
                    "search",
                    "sync",
                    "debug",
                    "about",
                    "list",
                    "help",
                    "python",
                )
            },
        },
        examples=("poetry run pytest => passes",),
    ),
    program(
        "pipenv",
        TOOL,
        style=POSIX,
        subcommands={
            "run": _launcher(),
            **{
                n: (n, TOOL, {"complete": False})
                for n in (
                    "install",
                    "uninstall",
                    "lock",
                    "sync",
                    "update",
                    "graph",
                    "shell",
                    "check",
                    "clean",
                    "requirements",
                    "scripts",
                    "verify",
                    "upgrade",
                    "open",
                )
            },
        },
        examples=("pipenv run pytest => passes",),
    ),
    program(
        "pdm",
        TOOL,
        aliases=("hatch", "rye"),
        style=POSIX,
        subcommands={
            "run": _launcher(),
            **{
                n: (n, TOOL, {"complete": False})
                for n in (
                    "install",
                    "add",
                    "remove",
                    "update",
                    "lock",
                    "sync",
                    "build",
                    "publish",
                    "init",
                    "new",
                    "env",
                    "shell",
                    "test",
                    "fmt",
                    "version",
                    "python",
                    "list",
                    "show",
                    "info",
                    "config",
                    "self",
                    "fetch",
                    "toolchain",
                    "tools",
                    "pin",
                )
            },
        },
        examples=("hatch run test => passes",),
    ),
    program(
        "conda",
        TOOL,
        aliases=("mamba", "micromamba"),
        style=POSIX,
        subcommands={
            "run": _launcher(
                "-n,--name= -p,--prefix= --cwd=:chdir --no-capture-output --live-stream -v,--verbose --dev"
            ),
            **{
                n: (n, TOOL, {"complete": False})
                for n in (
                    "install",
                    "create",
                    "remove",
                    "uninstall",
                    "update",
                    "upgrade",
                    "list",
                    "info",
                    "env",
                    "activate",
                    "deactivate",
                    "clean",
                    "config",
                    "search",
                    "init",
                )
            },
        },
        examples=("conda run -n env pytest => passes",),
    ),
    program(
        "npm",
        TOOL,
        options="--prefix=:chdir -C= -w,--workspace= --workspaces --registry= --userconfig=:reads --cache= --loglevel= -g,--global -s,--silent -q,--quiet -d -dd -ddd -y,--yes --no-audit --no-fund --save-dev,-D --save,-S --save-exact,-E --save-optional,-O --no-save --omit= --include= --ignore-scripts --legacy-peer-deps --force -f --dry-run --json --script-shell=:runs --node-options=:code --if-present --foreground-scripts",
        subcommands={
            "exec": (
                "exec",
                WRAPPER,
                {
                    "options": "-p,--package= -c,--call=:runs -y,--yes --no -w,--workspace=",
                    "operands": "command",
                    "style": POSIX,
                    "handler": _npx,
                    "language": "sh",
                },
            ),
            "x": "exec",
            **{
                n: (n, TOOL, {"complete": False})
                for n in (
                    "install",
                    "i",
                    "add",
                    "ci",
                    "uninstall",
                    "rm",
                    "remove",
                    "un",
                    "run",
                    "run-script",
                    "test",
                    "t",
                    "start",
                    "stop",
                    "restart",
                    "init",
                    "create",
                    "publish",
                    "pack",
                    "link",
                    "ln",
                    "audit",
                    "update",
                    "up",
                    "outdated",
                    "ls",
                    "list",
                    "view",
                    "info",
                    "config",
                    "set",
                    "get",
                    "pkg",
                    "cache",
                    "rebuild",
                    "prune",
                    "dedupe",
                    "version",
                    "explain",
                    "fund",
                    "doctor",
                    "login",
                    "logout",
                    "whoami",
                    "owner",
                    "dist-tag",
                    "deprecate",
                    "unpublish",
                    "search",
                    "help",
                    "root",
                    "bin",
                    "prefix",
                    "sbom",
                    "query",
                    "diff",
                    "edit",
                    "explore",
                    "shrinkwrap",
                    "star",
                    "team",
                    "token",
                )
            },
        },
        examples=(
            "npm test => passes",
            "npm exec -- rm x => deletes x",
            "npm run build --script-shell='rm x' => runs rm x",
        ),
    ),
    program(
        "npx",
        WRAPPER,
        options="-p,--package= -c,--call=:runs -y,--yes --no -q,--quiet --prefer-offline --prefer-online --ignore-existing -w,--workspace=",
        style=POSIX,
        operands="command",
        language="sh",
        handler=_npx,
        examples=("npx prettier --write x => writes x", "npx -c 'rm x' => runs rm x"),
    ),
    program(
        "bunx",
        WRAPPER,
        options="--bun -p,--package=",
        style=POSIX,
        operands="command",
        examples=("bunx tsc => passes",),
    ),
    program(
        "pnpm",
        TOOL,
        options="-C,--dir=:chdir -F,--filter= -w,--workspace-root -r,--recursive --prefix= -g,--global --silent -s --reporter= --shell-emulator --script-shell=:runs --ignore-scripts --frozen-lockfile --offline --prefer-offline",
        subcommands={
            "exec": (
                "exec",
                WRAPPER,
                {
                    "operands": "command",
                    "style": POSIX,
                    "options": "-c,--shell-mode -r,--recursive --parallel --no-bail --resume-from= --report-summary",
                },
            ),
            "dlx": (
                "dlx",
                WRAPPER,
                {"operands": "command", "style": POSIX, "options": "--package= -c,--shell-mode --silent -s"},
            ),
            **{
                n: (n, TOOL, {"complete": False})
                for n in (
                    "install",
                    "i",
                    "add",
                    "remove",
                    "rm",
                    "uninstall",
                    "un",
                    "update",
                    "up",
                    "run",
                    "test",
                    "t",
                    "start",
                    "build",
                    "publish",
                    "pack",
                    "link",
                    "unlink",
                    "audit",
                    "outdated",
                    "list",
                    "ls",
                    "why",
                    "store",
                    "env",
                    "setup",
                    "init",
                    "create",
                    "import",
                    "fetch",
                    "rebuild",
                    "prune",
                    "patch",
                    "patch-commit",
                    "deploy",
                    "licenses",
                    "config",
                    "root",
                    "bin",
                    "server",
                    "doctor",
                    "dedupe",
                    "approve-builds",
                )
            },
        },
        examples=("pnpm exec rm x => deletes x", "pnpm -C web install => passes"),
    ),
    program(
        "yarn",
        TOOL,
        options="--cwd=:chdir --silent -s --verbose --offline --frozen-lockfile --immutable --ignore-scripts --production --json --mutex=",
        subcommands={
            "dlx": ("dlx", WRAPPER, {"operands": "command", "style": POSIX, "options": "-p,--package= -q,--quiet"}),
            "exec": ("exec", WRAPPER, {"operands": "command", "style": POSIX}),
            **{
                n: (n, TOOL, {"complete": False})
                for n in (
                    "install",
                    "add",
                    "remove",
                    "upgrade",
                    "up",
                    "run",
                    "test",
                    "start",
                    "build",
                    "publish",
                    "pack",
                    "link",
                    "unlink",
                    "audit",
                    "outdated",
                    "list",
                    "why",
                    "info",
                    "init",
                    "create",
                    "workspace",
                    "workspaces",
                    "config",
                    "cache",
                    "global",
                    "bin",
                    "dedupe",
                    "constraints",
                    "npm",
                    "plugin",
                    "set",
                    "version",
                    "node",
                    "rebuild",
                    "patch",
                    "patch-commit",
                    "explain",
                    "stage",
                    "unplug",
                )
            },
        },
        examples=("yarn dlx create-x app => passes",),
    ),
    program(
        "bun",
        TOOL,
        options="-e,--eval=:code -p,--print=:code --cwd=:chdir --env-file=:reads -r,--preload=:code --bun --hot --watch --smol --silent",
        style=POSIX,
        subcommands={
            "x": ("x", WRAPPER, {"operands": "command", "style": POSIX, "options": "--bun -p,--package="}),
            "exec": ("exec", TOOL, {"operands": "runs", "language": "sh"}),
            **{
                n: (n, TOOL, {"complete": False, "operands": "value..."})
                for n in (
                    "run",
                    "test",
                    "install",
                    "i",
                    "add",
                    "a",
                    "remove",
                    "rm",
                    "update",
                    "outdated",
                    "link",
                    "unlink",
                    "pm",
                    "build",
                    "init",
                    "create",
                    "c",
                    "upgrade",
                    "publish",
                    "patch",
                    "patch-commit",
                    "audit",
                    "info",
                    "why",
                    "repl",
                )
            },
        },
        language="javascript",
        examples=("bun x tsc => passes", "bun exec 'rm x' => runs rm x", "bun -e 'x' => code x"),
    ),
    program(
        "deno",
        TOOL,
        style=POSIX,
        subcommands={
            "eval": (
                "eval",
                TOOL,
                {"operands": "code", "options": "-p,--print --ext=", "language": "javascript", "complete": False},
            ),
            "fmt": (
                "fmt",
                TOOL,
                {"options": "--check --config=:reads --ext= --watch", "operands": "writes...", "complete": False},
            ),
            **{
                n: (n, TOOL, {"operands": "script args", "style": POSIX, "language": "javascript", "complete": False})
                for n in (
                    "run",
                    "test",
                    "task",
                    "compile",
                    "install",
                    "cache",
                    "lint",
                    "bundle",
                    "serve",
                    "check",
                    "repl",
                    "info",
                    "doc",
                    "bench",
                    "add",
                    "remove",
                    "upgrade",
                    "publish",
                    "init",
                    "coverage",
                    "jupyter",
                    "uninstall",
                    "outdated",
                    "clean",
                )
            },
        },
        examples=("deno eval 'x' => code x", "deno fmt src => writes src"),
    ),
    program(
        "gem",
        TOOL,
        style=POSIX,
        subcommands={
            n: (n, TOOL, {"complete": False})
            for n in (
                "install",
                "uninstall",
                "update",
                "list",
                "build",
                "push",
                "search",
                "sources",
                "env",
                "query",
                "which",
                "cleanup",
                "contents",
                "dependency",
                "fetch",
                "info",
                "open",
                "outdated",
                "owner",
                "pristine",
                "rdoc",
                "specification",
                "yank",
            )
        },
        examples=("gem install rake => passes",),
    ),
    program(
        "bundle",
        TOOL,
        aliases=("bundler",),
        style=POSIX,
        subcommands={
            "exec": (
                "exec",
                WRAPPER,
                {"operands": "command", "style": POSIX, "options": "--keep-file-descriptors --gemfile="},
            ),
            **{
                n: (n, TOOL, {"complete": False})
                for n in (
                    "install",
                    "update",
                    "add",
                    "remove",
                    "lock",
                    "check",
                    "config",
                    "list",
                    "show",
                    "outdated",
                    "package",
                    "binstubs",
                    "init",
                    "gem",
                    "platform",
                    "clean",
                    "doctor",
                    "info",
                    "open",
                    "cache",
                    "console",
                    "viz",
                    "pristine",
                    "plugin",
                    "version",
                    "help",
                )
            },
        },
        examples=("bundle exec rake test => passes",),
    ),
    program(
        "brew",
        TOOL,
        aliases=(
            "apt",
            "apt-get",
            "aptitude",
            "dnf",
            "yum",
            "microdnf",
            "apk",
            "pacman",
            "zypper",
            "snap",
            "flatpak",
            "port",
            "pkg",
            "winget",
            "choco",
            "scoop",
        ),
        operands="value...",
        complete=False,
        examples=("apt-get install -y jq => passes",),
    ),
    program(
        "cupcake",
        TOOL,
        subcommands={
            n: (n, TOOL, {"complete": False})
            for n in (
                "init",
                "sync",
                "run",
                "validate",
                "explain",
                "test",
                "replay",
                "doctor",
                "audit",
                "systems",
                "export",
                "allow",
                "version",
                "trust",
                "packs",
                "rules",
                "inspect",
                "status",
                "shadow",
            )
        },
        complete=False,
        examples=("cupcake validate => passes",),
    ),
)
