"""Containers, clusters and infrastructure: docker/podman, kubectl, helm, terraform. Their global
options (so the subcommand is found: ``docker -H x run``), the subcommands, and the few that write
local files (``docker cp``, ``kubectl cp``, ``helm template --output-dir``, ``terraform plan -out``).
What a container does inside is not read; a bind mount is a program the reader cannot see into."""

from __future__ import annotations

from cupcake.programs.spec import POSIX, READS, TOOL, WRITES, program


def _cp(r) -> None:
    """``docker cp SRC DEST`` / ``kubectl cp SRC DEST``: a local DEST (no ``name:``) is written."""
    if len(r.operands) != 2:
        return
    source, dest = r.operands
    if ":" not in dest.value.split("/", 1)[0]:
        r.add(WRITES, dest, " ".join(r.path), tree=True)
    if ":" not in source.value.split("/", 1)[0]:
        r.add(READS, source, " ".join(r.path), tree=True)


_DOCKER_SUBS = {
    "cp": ("cp", TOOL, {"options": "-a,--archive -L,--follow-link -q,--quiet", "handler": _cp}),
    "build": (
        "build",
        TOOL,
        {
            "options": "-f,--file=:reads -o,--output= --iidfile=:writes --metadata-file=:writes -t,--tag= --build-arg= --target= --platform= --no-cache --pull -q,--quiet --progress= --secret= --ssh= --network= --label= --cache-from= --cache-to= --load --push",
            "complete": False,
        },
    ),
    "save": ("save", TOOL, {"options": "-o,--output=:writes", "complete": False}),
    "export": ("export", TOOL, {"options": "-o,--output=:writes", "complete": False}),
    "load": ("load", TOOL, {"options": "-i,--input=:reads -q,--quiet", "complete": False}),
    "compose": (
        "compose",
        TOOL,
        {
            "options": "-f,--file=:reads -p,--project-name= --project-directory=:chdir --env-file=:reads --profile= --ansi= --progress= --parallel=",
            "complete": False,
            "subcommands": {
                n: (n, TOOL, {"complete": False})
                for n in (
                    "up",
                    "down",
                    "run",
                    "exec",
                    "build",
                    "pull",
                    "push",
                    "ps",
                    "logs",
                    "start",
                    "stop",
                    "restart",
                    "rm",
                    "kill",
                    "config",
                    "create",
                    "events",
                    "images",
                    "ls",
                    "pause",
                    "unpause",
                    "port",
                    "top",
                    "version",
                    "wait",
                    "watch",
                    "cp",
                    "attach",
                    "scale",
                    "stats",
                    "alpha",
                    "commit",
                    "export",
                    "volumes",
                )
            },
        },
    ),
}
for _name in (
    "run",
    "exec",
    "ps",
    "images",
    "image",
    "logs",
    "pull",
    "push",
    "rm",
    "rmi",
    "stop",
    "start",
    "restart",
    "kill",
    "inspect",
    "volume",
    "network",
    "system",
    "buildx",
    "login",
    "logout",
    "tag",
    "commit",
    "create",
    "attach",
    "stats",
    "top",
    "events",
    "info",
    "version",
    "container",
    "context",
    "plugin",
    "search",
    "history",
    "port",
    "rename",
    "update",
    "wait",
    "pause",
    "unpause",
    "diff",
    "import",
    "manifest",
    "builder",
    "scout",
    "init",
    "trust",
    "swarm",
    "service",
    "stack",
    "node",
    "secret",
    "config",
    "machine",
    "pod",
    "kube",
    "generate",
    "play",
    "healthcheck",
    "unshare",
    "mount",
    "umount",
):
    _DOCKER_SUBS.setdefault(_name, (_name, TOOL, {"complete": False}))

_KUBECTL_SUBS = {"cp": ("cp", TOOL, {"options": "-c,--container= --no-preserve --retries=", "handler": _cp})}
for _name in (
    "apply",
    "delete",
    "get",
    "describe",
    "logs",
    "exec",
    "port-forward",
    "rollout",
    "scale",
    "create",
    "edit",
    "patch",
    "run",
    "debug",
    "top",
    "config",
    "auth",
    "label",
    "annotate",
    "expose",
    "set",
    "autoscale",
    "certificate",
    "cluster-info",
    "cordon",
    "uncordon",
    "drain",
    "taint",
    "attach",
    "proxy",
    "replace",
    "wait",
    "kustomize",
    "diff",
    "explain",
    "api-resources",
    "api-versions",
    "version",
    "plugin",
    "events",
    "completion",
    "alpha",
):
    _KUBECTL_SUBS[_name] = (
        _name,
        TOOL,
        {
            "options": "-f,--filename=:reads -k,--kustomize= -R,--recursive -o,--output= -l,--selector= -c,--container= --dry-run=?",
            "complete": False,
        },
    )

# ``docker exec CONTAINER CMD…`` and ``kubectl exec POD -- CMD…`` run a command (in the container):
# the rule packs read it like any command (``docker exec db psql -c 'DROP TABLE t'``).
_DOCKER_SUBS["exec"] = (
    "exec",
    TOOL,
    {
        "options": "-d,--detach -i,--interactive -t,--tty --privileged -e,--env= --env-file= -u,--user= "
        "-w,--workdir= --detach-keys=",
        "operands": "value command",
        "style": POSIX,
        "examples": ("docker exec -it db psql -c 'select 1' => code select 1",),
    },
)
_KUBECTL_SUBS["exec"] = (
    "exec",
    TOOL,
    {
        "options": "-i,--stdin -t,--tty -c,--container= -n,--namespace= -q,--quiet --pod-running-timeout= "
        "-f,--filename=",
        "operands": "value command",
        "examples": ("kubectl exec -it web -- rm -rf /data => deletes /data (tree)",),
    },
)


SPECS = (
    program(
        "docker",
        TOOL,
        aliases=("podman", "nerdctl", "finch"),
        options="-c,--context= --config= -H,--host= -l,--log-level= --tls --tlscacert= --tlscert= --tlskey= --tlsverify "
        "-D,--debug --connection= --root= --runroot= --url= --identity= --storage-driver= --remote -r",
        style=POSIX,
        subcommands=_DOCKER_SUBS,
        examples=(
            "docker cp ctr:/etc/x ./x => writes ./x (tree)",
            "docker run --rm -it alpine sh => passes",
            "docker -H tcp://h:2375 ps => passes",
            "docker save -o img.tar app => writes img.tar",
        ),
    ),
    program(
        "kubectl",
        TOOL,
        aliases=("oc",),
        options="-n,--namespace= --context= --kubeconfig=:reads --cluster= --user= -s,--server= --token= --as= --as-group= "
        "--as-uid= --request-timeout= --cache-dir= --certificate-authority=:reads --client-certificate=:reads "
        "--client-key=:reads --tls-server-name= -v,--v= --profile= --profile-output=:writes --username= --password= "
        "--insecure-skip-tls-verify --match-server-version --warnings-as-errors --disable-compression",
        style=POSIX,
        subcommands=_KUBECTL_SUBS,
        examples=(
            "kubectl -n prod get pods => passes",
            "kubectl cp pod:/x ./x => writes ./x (tree)",
            "kubectl apply -f k.yaml => reads k.yaml",
        ),
    ),
    program(
        "helm",
        TOOL,
        options="-n,--namespace= --kube-context= --kubeconfig=:reads --registry-config= --repository-config= --repository-cache= --debug --burst-limit= --qps=",
        style=POSIX,
        subcommands={
            **{
                n: (
                    n,
                    TOOL,
                    {
                        "options": "-f,--values=:reads --set= --set-string= --set-file= --output-dir= -d,--destination= --untar --untardir= --version= --wait --atomic --dry-run=? --create-namespace -i,--install",
                        "complete": False,
                    },
                )
                for n in ("install", "upgrade", "template", "pull", "fetch", "package", "lint")
            },
            **{
                n: (n, TOOL, {"complete": False})
                for n in (
                    "uninstall",
                    "delete",
                    "list",
                    "ls",
                    "status",
                    "rollback",
                    "history",
                    "get",
                    "show",
                    "repo",
                    "dependency",
                    "dep",
                    "search",
                    "registry",
                    "env",
                    "version",
                    "verify",
                    "test",
                    "create",
                    "plugin",
                    "push",
                    "completion",
                )
            },
        },
        examples=("helm -n prod upgrade --install app ./chart => passes",),
    ),
    program(
        "terraform",
        TOOL,
        aliases=("tofu", "terragrunt"),
        options="-chdir=:chdir -help -version",
        style=POSIX,
        single_dash=True,
        subcommands={
            "plan": (
                "plan",
                TOOL,
                {
                    "options": "-out=:writes -var= -var-file=:reads -target= -destroy -refresh-only -input= -lock= -no-color -detailed-exitcode -compact-warnings -parallelism= -json -replace= -state=",
                    "single_dash": True,
                    "complete": False,
                },
            ),
            "fmt": (
                "fmt",
                TOOL,
                {
                    "options": "-check -diff -list= -write= -recursive -no-color",
                    "operands": "writes...",
                    "single_dash": True,
                },
            ),
            **{
                n: (
                    n,
                    TOOL,
                    {
                        "options": "-var= -var-file=:reads -target= -auto-approve -input= -lock= -no-color -json -parallelism= -state=",
                        "single_dash": True,
                        "complete": False,
                    },
                )
                for n in (
                    "init",
                    "apply",
                    "destroy",
                    "validate",
                    "output",
                    "state",
                    "import",
                    "taint",
                    "untaint",
                    "workspace",
                    "providers",
                    "console",
                    "graph",
                    "show",
                    "login",
                    "logout",
                    "force-unlock",
                    "refresh",
                    "test",
                    "get",
                    "version",
                    "metadata",
                    "modules",
                )
            },
        },
        examples=(
            "terraform -chdir=infra plan -out=tf.plan => writes tf.plan",
            "terraform apply -auto-approve => passes",
        ),
    ),
)
