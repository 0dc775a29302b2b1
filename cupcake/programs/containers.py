"""Containers, clusters and infrastructure: docker/podman, kubectl, helm, terraform, and the cloud
CLIs (aws, gcloud, az, gsutil). Their global options (so the subcommand is found: ``docker -H x run``,
``aws --profile p s3 rm``), the subcommands, and the few that write local files (``docker cp``,
``kubectl cp``, ``helm template --output-dir``, ``terraform plan -out``, ``aws s3 cp``).
What a container does inside is not read; but a folder mounted into it writable (``-v SRC:DST``,
``--mount type=bind,source=SRC``) is written by the container, through the daemon, outside any jail."""

from __future__ import annotations

from cupcake.programs.spec import DELETES, INTO, POSIX, READS, TOOL, WRITES, program
from cupcake.shell.words import ANY, Word


def _cp(r) -> None:
    """``docker cp SRC DEST`` / ``kubectl cp SRC DEST``: a local DEST (no ``name:``) is written."""
    if len(r.operands) != 2:
        return
    source, dest = r.operands
    if ":" not in dest.value.split("/", 1)[0]:
        r.add(WRITES, dest, " ".join(r.path), tree=True)
    if ":" not in source.value.split("/", 1)[0]:
        r.add(READS, source, " ".join(r.path), tree=True)


def _mounts(r) -> None:
    """``docker run``/``create``: each folder mounted writable is written under, whole (the command
    in the container is not read). Every word is looked at, options in clusters too (``-itv``)."""
    words = r.words
    for k in range(1, len(words)):
        word = words[k]
        text = word.value if word.known else ""
        value = None
        if text in ("-v", "--volume", "--mount") or (
            text[:1] == "-" and text[1:2] != "-" and text.endswith("v") and len(text) > 2
        ):
            value = words[k + 1] if k + 1 < len(words) else None
            mount = text == "--mount"
        elif text.startswith(("--volume=", "--mount=")):
            value = Word(text.split("=", 1)[1])
            mount = text.startswith("--mount=")
        elif text.startswith("-v") and len(text) > 2 and not text.startswith("--"):
            value = Word(text[2:])
            mount = False
        if value is None:
            continue
        source = _bind_source(value, mount)
        if source is not None:
            r.add(INTO, source, " ".join(r.path) + (" --mount" if mount else " -v"), tree=True)


def _bind_source(value, mount: bool):
    """The host folder a mount writes into, or None (read-only, a named or anonymous volume)."""
    if not value.known:
        return Word(value.value, known=False, tokens=[ANY])
    text = value.value
    if mount:
        fields = dict((f.split("=", 1) + [""])[:2] for f in text.split(","))
        if fields.get("type", "volume") != "bind" or any(k in fields for k in ("readonly", "ro")):
            return None
        source = fields.get("source") or fields.get("src")
        return Word(source) if source else None
    parts = text.split(":")
    if len(parts) < 2 or not parts[0] or not (parts[0][0] in "/.~" or "/" in parts[0]):
        return None
    if len(parts) > 2 and any(o in ("ro", "readonly") for o in parts[2].split(",")):
        return None
    return Word(parts[0])


def _remote(text: str) -> bool:
    """``s3://b/k``, ``gs://b``, ``host:path``: not a file of this machine."""
    return "://" in text or (":" in text.split("/", 1)[0] and not text.startswith(("/", ".", "~")))


def _cloud_files(r) -> None:
    """The local files a cloud CLI call reads or writes. A value given as ``file://PATH`` (or
    ``fileb://``, ``@PATH``) is read. The copies (``aws s3 cp/mv/sync``, ``gcloud storage cp/mv/rsync``,
    ``gsutil cp/mv/rsync``, ``az storage blob download/upload``) read a local source and write a local
    destination (``mv`` removes its source). Any other operand that looks like a path (a ``/`` or a
    ``.`` in it, a leading ``~``, no ``@``) may be where the call writes its output (``aws s3api get-object …
    out.json``, ``gcloud iam service-accounts keys create key.json``)."""
    for word in r.words[1:]:  # an option's value or not: the options of every service are not listed
        text = word.value.split("=", 1)[1] if word.value.startswith("--") and "=" in word.value else word.value
        for scheme in ("file://", "fileb://", "@"):
            if word.known and text.startswith(scheme) and len(text) > len(scheme):
                r.add(READS, Word(text[len(scheme) :]))
    operands = list(r.operands)
    verb = r.path[-1]
    if operands and operands[0].known and operands[0].value in _COPIES:  # gcloud storage cp
        verb = operands.pop(0).value
    operands = [w for w in operands if not (w.known and (w.value in _CLOUD_VERBS or "@" in w.value))]
    if verb in _COPIES and len(operands) >= 2:
        *sources, dest = operands
        for source in sources:
            if not source.known or not _remote(source.value):
                r.add(DELETES if r.path[-1] == "mv" else READS, source, tree=True)
        if not dest.known or not _remote(dest.value):
            r.add(WRITES, dest, tree=True)
        return
    for word in operands:
        text = word.value
        if not word.known or (not _remote(text) and ("/" in text or "." in text or text.startswith("~"))):
            r.add(WRITES, word)


# Words of a cloud CLI call that name what it does, never a file (``gcloud compute instances delete``).
_CLOUD_VERBS = frozenset(("download", "upload", "upload-batch", "download-batch"))
_COPIES = frozenset(("cp", "mv", "sync", "rsync"))
_CLOUD = {"complete": False}


def _services(*names, **more) -> dict:
    return {**{n: (n, TOOL, _CLOUD) for n in names}, **more}


_RUN = {
    "options": "-v,--volume= --mount= -w,--workdir= -e,--env= --env-file=:reads -p,--publish= --name= "
    "--network,--net= -u,--user= --entrypoint= -l,--label= --label-file=:reads --cidfile=:writes -a,--attach= "
    "--add-host= --cap-add= --cap-drop= --cpus= -m,--memory= --platform= --pull= --restart= --security-opt= "
    "--shm-size= --ulimit= --device= --tmpfs= -h,--hostname= --ipc= --pid= --userns= --volumes-from= --gpus= "
    "--log-driver= --log-opt= --dns= --expose= --health-cmd= --stop-signal= --stop-timeout= --rm -d,--detach "
    "-i,--interactive -t,--tty --privileged -P,--publish-all --read-only --init -q,--quiet",
    "style": POSIX,
    "complete": False,
    "handler": _mounts,
}

_DOCKER_SUBS = {
    "cp": ("cp", TOOL, {"options": "-a,--archive -L,--follow-link -q,--quiet", "handler": _cp}),
    "run": ("run", TOOL, _RUN),
    "create": ("create", TOOL, _RUN),
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
    # The command runs in the container: its paths are the container's (the rule packs read it).
    "exec": (
        "exec",
        TOOL,
        {
            "options": "-d,--detach -i,--interactive -t,--tty --privileged -e,--env= --env-file=:reads -u,--user= "
            "-w,--workdir= --detach-keys=",
            "operands": "value elsewhere",
            "style": POSIX,
        },
    ),
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

_KUBECTL_SUBS = {
    "cp": ("cp", TOOL, {"options": "-c,--container= --no-preserve --retries=", "handler": _cp}),
    # ``kubectl exec POD -- CMD``: the command runs in the pod (the rule packs read it).
    "exec": (
        "exec",
        TOOL,
        {
            "options": "-i,--stdin -t,--tty -c,--container= -q,--quiet --pod-running-timeout= -f,--filename=:reads",
            "operands": "value elsewhere",
        },
    ),
}
for _name in (
    "apply",
    "delete",
    "get",
    "describe",
    "logs",
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
            "docker exec -it db psql -c 'DROP TABLE t' => elsewhere psql -c DROP TABLE t",
            "docker --context prod exec web rm -rf /data => elsewhere rm -rf /data",
            "docker save -o img.tar app => writes img.tar",
            "docker run --rm -v /srv/app:/w alpine rm /w/x => into /srv/app (tree)",
            "docker run -v /srv/app:/w:ro alpine ls /w => passes",
            "docker run -v cache:/data alpine ls => passes",
            "docker run --mount type=bind,source=/srv,target=/w alpine sh => into /srv (tree)",
            "docker run --mount type=bind,src=/srv,dst=/w,readonly alpine sh => passes",
            "podman run -itv /srv:/w alpine sh => into /srv (tree)",
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
            "kubectl exec -it web -- rm -rf /data => elsewhere rm -rf /data",
            "kubectl --context prod exec web -c app -- sh -c 'rm x' => elsewhere sh -c rm x",
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
            "terraform -chdir=infra destroy -auto-approve => passes",
        ),
    ),
    program(
        "aws",
        TOOL,
        options="--profile= --region= --output= --endpoint-url= --query= --ca-bundle=:reads --cli-read-timeout= "
        "--cli-connect-timeout= --color= --cli-binary-format= --debug --no-verify-ssl --no-paginate --no-sign-request "
        "--no-cli-pager --cli-auto-prompt --no-cli-auto-prompt --cli-input-json= --cli-input-yaml=",
        handler=_cloud_files,
        subcommands=_services(
            *("s3api", "ec2", "iam", "sts", "rds", "lambda", "cloudformation", "eks", "ecr", "ecs", "logs", "ssm"),
            *("dynamodb", "sqs", "sns", "route53", "cloudfront", "kms", "secretsmanager", "configure", "sso"),
            *(
                "elbv2",
                "autoscaling",
                "apigateway",
                "cloudwatch",
                "events",
                "kinesis",
                "glue",
                "athena",
                "organizations",
            ),
            s3=(
                "s3",
                TOOL,
                {
                    "options": "--recursive --dryrun --force --quiet --exclude= --include= --delete --acl= "
                    "--storage-class= --sse= --content-type= --exact-timestamps --size-only --follow-symlinks "
                    "--no-follow-symlinks --only-show-errors --expires-in= --page-size= --human-readable --summarize",
                    "complete": False,
                    "subcommands": {
                        n: (n, TOOL, {"complete": False})
                        for n in ("cp", "mv", "sync", "rm", "rb", "mb", "ls", "presign", "website")
                    },
                },
            ),
        ),
        examples=(
            "aws --profile prod s3 rm s3://b --recursive => passes",
            "aws --region us-east-1 --profile p ec2 terminate-instances --instance-ids i-1 => passes",
            "aws s3 cp s3://b/k ./out/k.txt => writes ./out/k.txt (tree)",
            "aws s3 mv ./a.txt s3://b/a.txt => deletes ./a.txt (tree)",
            "aws s3api get-object --bucket b --key k out.json => writes out.json",
            "aws iam put-role-policy --policy-document file://policy.json --role-name r => reads policy.json",
        ),
    ),
    program(
        "gcloud",
        TOOL,
        options="--project= --account= --configuration= --billing-project= --format= --verbosity= "
        "--impersonate-service-account= --flags-file=:reads --flatten= --trace-token= --access-token-file=:reads "
        "-q,--quiet --log-http --no-user-output-enabled --user-output-enabled --zone= --region=",
        handler=_cloud_files,
        subcommands=_services(
            *("compute", "container", "sql", "iam", "projects", "functions", "run", "app", "auth", "config", "pubsub"),
            *("secrets", "kms", "dns", "deployment-manager", "artifacts", "builds", "services", "beta", "alpha"),
            storage=("storage", TOOL, {**_CLOUD, "options": "-r,--recursive --all-versions -R --continue-on-error"}),
        ),
        examples=(
            "gcloud --project p compute instances delete web-1 => passes",
            "gcloud storage cp gs://b/k ./k.txt => writes ./k.txt (tree)",
            "gcloud iam service-accounts keys create key.json --iam-account a@p.iam => writes key.json",
        ),
    ),
    program(
        "az",
        TOOL,
        options="--subscription= -o,--output= --query= --only-show-errors --debug --verbose -y,--yes "
        "-g,--resource-group= -n,--name= -l,--location=",
        handler=_cloud_files,
        subcommands=_services(
            *("group", "vm", "aks", "storage", "webapp", "functionapp", "sql", "keyvault", "network", "account"),
            *("ad", "role", "acr", "cosmosdb", "resource", "deployment", "login", "logout", "monitor", "redis"),
        ),
        examples=(
            "az --subscription s group delete -n prod-rg --yes => passes",
            "az storage blob download -c c -n b -f ./b.txt => writes ./b.txt",
        ),
    ),
    program(
        "gsutil",
        TOOL,
        options="-m -q -D -d -h= -o= -u= -i=",
        style=POSIX,
        handler=_cloud_files,
        subcommands=_services(
            *("ls", "rm", "rb", "mb", "du", "cat", "stat", "acl", "iam", "defacl", "lifecycle", "versioning"),
            cp=("cp", TOOL, {"options": "-r -R -n -p -z= -Z -e -c -D -L= -I -j= -J -A -v -s= -U", "complete": False}),
            mv=("mv", TOOL, {"options": "-p", "complete": False}),
            rsync=("rsync", TOOL, {"options": "-r -R -d -n -c -e -p -x= -C -u -J -U", "complete": False}),
        ),
        examples=(
            "gsutil -m rm -r gs://bucket => passes",
            "gsutil cp gs://b/k ./k.txt => writes ./k.txt (tree)",
        ),
    ),
)
