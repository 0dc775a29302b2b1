"""Programs that fetch, send or copy over the network, and where they write or what they run:
curl, wget, ssh, scp, rsync, nc, socat, httpie, aria2c."""

from __future__ import annotations

from cupcake.programs import paths
from cupcake.programs.reading import tail
from cupcake.programs.spec import DELETES, INTO, POSIX, READS, RUNS, SCRIPT, TOOL, WRITES, program
from cupcake.shell.words import ANY, Word

# Hosts that are this machine: a command "run remotely" there runs here.
LOCAL_HOSTS = frozenset(("localhost", "127.0.0.1", "::1", "0.0.0.0", "ip6-localhost", "localhost.localdomain"))


def _host(word) -> str:
    host = word.value.rsplit("@", 1)[-1]
    return host.split(":", 1)[0].strip("[]").lower() if not host.startswith("[") else host[1:].split("]", 1)[0]


def local_host(word) -> bool:
    """Whether ``word`` (``user@host``) could be this machine: a local name or one not written out."""
    return not word.known or _host(word) in LOCAL_HOSTS or _host(word).startswith("127.")


def _url_name(url) -> Word:
    """The file name curl -O / wget would give the download (``index.html`` for a bare host)."""
    value = url.value.split("?", 1)[0].split("#", 1)[0]
    path = value.split("://", 1)[-1]
    base = path.rsplit("/", 1)[-1] if "/" in path else ""
    if not url.known:
        return Word(base or "…", known=False, tokens=[ANY])
    return Word(base or "index.html")


def _file_url(word):
    """``file:///abs/path`` -> the path (or None)."""
    if word.known and word.value.lower().startswith("file://"):
        rest = word.value[7:]
        return Word(rest[rest.index("/") :] if "/" in rest else "/")
    return None


def _curl_data(r) -> None:
    """Values that name a file to send: ``-d @file``, ``-F x=@file``/``<file``, ``-H @file``, ``-b file``."""
    for opt, value, _i in r.opts:
        if value is None:
            continue
        names = opt.names
        text = value.value
        if any(n in names for n in ("-d", "--data-binary", "--data-ascii", "--json", "-H", "--proxy-header")):
            if text.startswith("@"):
                r.add(READS, tail(value, 1), "curl " + opt.name)
        elif "--data-urlencode" in names:
            at = text.find("@")
            if at >= 0 and "=" not in text[:at]:  # @file or name@file
                r.add(READS, tail(value, at + 1), "curl --data-urlencode")
        elif "-F" in names or "--form" in names:
            for mark in ("=@", "=<"):
                at = text.find(mark)
                if at >= 0:
                    r.add(READS, Word(text[at + 2 :].split(";", 1)[0], known=value.known), "curl -F")
        elif "-b" in names and "=" not in text:
            r.add(READS, value, "curl -b")
        elif "-w" in names or "--write-out" in names:
            at = text.find("%output{")
            while at >= 0:
                end = text.find("}", at)
                target = text[at + 8 : end if end > 0 else len(text)].lstrip(">")
                r.add(WRITES, Word(target, known=value.known), "curl -w %output")
                at = text.find("%output{", at + 1)


def _curl(r) -> None:
    r.drop(READS)
    _curl_data(r)
    upload = r.get("-T", "--upload-file")
    for url in r.operands + r.values("--url"):
        path = _file_url(url)
        if path is not None:
            r.add(WRITES if upload is not None else READS, path, "curl file://")
    if upload is not None:
        r.add(READS, upload, "curl -T")
    if r.has("-O", "--remote-name", "--remote-name-all", "-J", "--remote-header-name"):
        where = r.get("--output-dir") or Word(".")
        for url in r.operands + r.values("--url"):
            name = paths.any_name() if r.has("-J", "--remote-header-name") else _url_name(url)
            r.add(WRITES, paths.join(where, name), "curl -O")


def _wget(r) -> None:
    document = r.get("-O", "--output-document")
    if document is not None and document.value == "-":
        r.effects = [e for e in r.effects if not (e.tag == WRITES and e.word is document)]
    for value in r.values("-e", "--execute"):  # wgetrc commands: output_document = FILE, logfile = FILE…
        key, _eq, setting = value.value.partition("=")
        key = key.strip().replace("-", "_").lower()
        if key in ("output_document", "logfile", "append_output", "save_cookies", "warc_file", "rejected_log"):
            r.add(WRITES, Word(setting.strip(), known=value.known), "wget -e " + key)
        elif key in ("dir_prefix",):
            r.add(INTO, Word(setting.strip(), known=value.known), "wget -e dir_prefix", tree=True)
        elif not value.known:
            r.add(WRITES, Word("…", known=False, tokens=[ANY]), "wget -e")
    if document is not None:
        return
    where = r.get("-P", "--directory-prefix") or Word(".")
    if r.has("-r", "--recursive", "-m", "--mirror", "-x", "--force-directories"):
        r.add(INTO, where, "wget -r", tree=True)
        return
    for url in r.operands:
        r.add(WRITES, paths.join(where, _url_name(url)), "wget")


def _ssh_options(r, values) -> None:
    """``-o ProxyCommand=…`` (and the other settings that run a command here)."""
    for value in values:
        key, _sep, setting = value.value.replace("=", " ", 1).partition(" ")
        key = key.strip().lower()
        setting = setting.strip()
        if key in ("proxycommand", "localcommand", "knownhostscommand"):
            if setting.lower() != "none":
                r.add(RUNS, Word(setting, known=value.known), "ssh -o " + key)
        elif key == "include":
            r.add(SCRIPT, Word(setting, known=value.known), "ssh -o Include").language = "ssh-config"
        elif key in ("controlpath", "userknownhostsfile") and setting.lower() != "none":
            r.add(WRITES, Word(setting, known=value.known), "ssh -o " + key)
        elif not value.known:
            r.add(RUNS, Word(value.value, known=False, tokens=[ANY]), "ssh -o")


def _ssh(r) -> None:
    _ssh_options(r, r.values("-o"))
    for effect in r.of(SCRIPT):
        effect.language = "ssh-config"
    if not r.operands:
        return
    host = r.operands[0]
    command = r.operands[1:]
    if not command:
        return
    known = all(w.known for w in command)
    text = " ".join(w.value if known else w.raw for w in command)
    if local_host(host):
        r.add(RUNS, Word(text, known=known), "ssh " + host.value)
    else:  # the other host's shell runs the words joined: read by the rule packs, not this machine's paths
        r.elsewhere = (Word("sh"), Word("-c"), Word(text, known=known))


def _remote(word) -> bool:
    head = word.value.split("/", 1)[0]
    return ":" in head and not head.startswith("[")


def _scp(r) -> None:
    _ssh_options(r, r.values("-o"))
    operands = r.operands
    if len(operands) < 2:
        return
    dest = operands[-1]
    if _remote(dest) and not local_host(Word(dest.value.split(":", 1)[0], known=dest.known)):
        return
    if _remote(dest):
        dest = Word(dest.value.split(":", 1)[1] or ".", known=dest.known)
    sources = [w for w in operands[:-1] if not _remote(w)]
    for source in sources:
        r.add(READS, source, "scp", tree=r.has("-r"))
    into = len(operands) > 2 or dest.value.endswith("/")
    if not into:
        r.add(WRITES, dest, "scp", tree=r.has("-r"))
    for source in operands[:-1]:
        r.add(
            WRITES,
            paths.join(dest, paths.last(Word(source.value.split(":", 1)[-1], known=source.known))),
            "scp",
            tree=r.has("-r"),
        )


def _rsync(r) -> None:
    local = [w for w in r.operands if not _remote(w) or local_host(Word(w.value.split(":", 1)[0], known=w.known))]
    if len(r.operands) < 2 or _remote(r.operands[-1]) and r.operands[-1] not in local:
        for word in local:
            r.add(READS, word, "rsync", tree=True)
        return
    r.operands = [Word(w.value.split(":", 1)[1], known=w.known) if _remote(w) else w for w in local]
    removing = r.has("--remove-source-files", "--remove-sent-files")
    paths.copy(r, "rsync", True, sources_effect=DELETES if removing else READS, slash_means_contents=True)


def _nc(r) -> None:
    for effect in r.of(RUNS):
        effect.language = "sh"


def _socat(r) -> None:
    """``EXEC:cmd``/``SYSTEM:cmd`` run a command; ``OPEN:f``/``CREATE:f``/``GOPEN:f``/a path write it."""
    for word in r.operands:
        head, colon, rest = word.value.partition(":")
        kind = head.upper()
        target = rest.split(",", 1)[0]
        if kind in ("EXEC", "SYSTEM", "SHELL"):
            r.add(RUNS, Word(target, known=word.known), "socat " + kind)
        elif kind in ("OPEN", "CREATE", "CREAT", "GOPEN", "PIPE", "UNIX-LISTEN", "UNIX-CONNECT", "FILE"):
            r.add(WRITES, Word(target, known=word.known), "socat " + kind)
        elif not colon and word.value not in ("-", "STDIO", "STDIN", "STDOUT", "STDERR"):
            r.add(WRITES, Word(word.value.split(",", 1)[0], known=word.known), "socat")
        elif not word.known:
            r.add(RUNS, Word(word.value, known=False, tokens=[ANY]), "socat")


_CURL = (
    "-o,--output=:writes -O,--remote-name --remote-name-all --output-dir= --create-dirs -D,--dump-header=:writes "
    "-c,--cookie-jar=:writes --trace=:writes --trace-ascii=:writes --stderr=:writes --etag-save=:writes "
    "--etag-compare=:reads --libcurl=:writes --hsts=:writes --alt-svc=:writes -K,--config=:script -q,--disable "
    "-b,--cookie= -d,--data= --data-binary= --data-raw= --data-ascii= --data-urlencode= --json= -F,--form= "
    "--form-string= -T,--upload-file= -u,--user= -H,--header= --proxy-header= -A,--user-agent= -e,--referer= "
    "-X,--request= -x,--proxy= --url= -m,--max-time= --connect-timeout= -w,--write-out= -E,--cert= --key= "
    "--cacert=:reads --capath= --crlfile=:reads --pinnedpubkey= -n,--netrc --netrc-file=:reads --netrc-optional "
    "-r,--range= -C,--continue-at= -y,--speed-time= -Y,--speed-limit= -z,--time-cond= -J,--remote-header-name "
    "--unix-socket= --abstract-unix-socket= --resolve= --connect-to= --interface= --local-port= --retry= "
    "--retry-delay= --retry-max-time= --retry-all-errors --retry-connrefused --limit-rate= --max-filesize= "
    "--max-redirs= --parallel-max= -Z,--parallel --parallel-immediate -s,--silent -S,--show-error -L,--location "
    "-f,--fail --fail-with-body -k,--insecure -I,--head -i,--include -v,--verbose -G,--get -N,--no-buffer "
    "-#,--progress-bar --compressed -g,--globoff -l,--list-only -a,--append -B,--use-ascii -j,--junk-session-cookies "
    "-0,--http1.0 --http1.1 --http2 --http3 -4,--ipv4 -6,--ipv6 -p,--proxytunnel -R,--remote-time --raw "
    "--tr-encoding --no-keepalive --no-sessionid --no-progress-meter --show-headers --ssl --ssl-reqd "
    "--tlsv1.2 --tlsv1.3 -1,--tlsv1 -3,--sslv3 -P,--ftp-port= -Q,--quote= -t,--telnet-option= -U,--proxy-user= "
    "--oauth2-bearer= --aws-sigv4= --basic --digest --ntlm --negotiate --anyauth --location-trusted "
    "--post301 --post302 --post303 --request-target= --path-as-is --variable= --expand-url= --expand-data= "
    "--expand-output= --expand-header= --ciphers= --curves= --cert-type= --key-type= --pass= --noproxy= "
    "--proxy-cacert=:reads --doh-url= --dns-servers= --mail-from= --mail-rcpt= --ftp-create-dirs -M,--manual "
    "-V,--version -h,--help=?"
)

SPECS = (
    program(
        "curl",
        TOOL,
        options=_CURL,
        handler=_curl,
        language="curl-config",
        complete=False,
        examples=(
            "curl -o out.html https://x/y => writes out.html",
            "curl -sSLO https://x/a.tgz => writes ./a.tgz",
            "curl -K cfg https://x => script cfg",
            "curl -d @data.json https://x => reads data.json",
            "curl -T f file:///tmp/y => writes /tmp/y; reads f",
            "curl file:///etc/passwd => reads /etc/passwd",
            "curl -w '%output{out.txt}' https://x => writes out.txt",
            "curl https://x => passes",
        ),
    ),
    program(
        "wget",
        TOOL,
        options="-O,--output-document=:writes -o,--output-file=:writes -a,--append-output=:writes "
        "-P,--directory-prefix= -i,--input-file=:reads -e,--execute= --config=:script -q,--quiet -nv,--no-verbose "
        "-v,--verbose -d,--debug -b,--background -r,--recursive -m,--mirror -l,--level= -k,--convert-links "
        "-p,--page-requisites -np,--no-parent -nH,--no-host-directories -nd,--no-directories -x,--force-directories "
        "--cut-dirs= -A,--accept= -R,--reject= -D,--domains= -I,--include-directories= -X,--exclude-directories= "
        "-U,--user-agent= -t,--tries= -T,--timeout= -w,--wait= -c,--continue -N,--timestamping -S,--server-response "
        "--spider --post-data= --post-file=:reads --body-data= --body-file=:reads --method= --header= "
        "--load-cookies=:reads --save-cookies=:writes --keep-session-cookies --warc-file=:writes --rejected-log=:writes "
        "--user= --password= --ask-password --no-check-certificate --ca-certificate=:reads --certificate=:reads "
        "--private-key=:reads --limit-rate= --no-clobber,-nc --content-disposition --trust-server-names "
        "--default-page= -E,--adjust-extension -H,--span-hosts -L,--relative -F,--force-html -B,--base= "
        "--progress= --show-progress --no-cache --no-cookies -4,--inet4-only -6,--inet6-only --retry-connrefused "
        "-Q,--quota= --restrict-file-names= --backups= --https-only --max-redirect= -h,--help -V,--version",
        operands="value...",
        handler=_wget,
        complete=False,
        examples=(
            "wget https://x/a.tgz => writes ./a.tgz",
            "wget -O out https://x => writes out",
            "wget -qO- https://x => passes",
            "wget -e output_document=f https://x/y => writes f; writes ./y",
            "wget -r -P site https://x => into site (tree)",
        ),
    ),
    program(
        "ssh",
        TOOL,
        options="-4 -6 -A -a -C -f -G -g -K -k -M -N -n -q -s -T -t -V -v -X -x -Y -y -B= -b= -c= -D= -E=:writes "
        "-e= -F=:script -I= -i=:reads -J= -L= -l= -m= -O= -o= -P= -p= -Q= -R= -S= -W= -w=",
        style=POSIX,
        operands="value...",
        handler=_ssh,
        language="sh",
        examples=(
            "ssh -o ProxyCommand='rm x' host => runs rm x",
            "ssh host 'ls -la' => elsewhere sh -c ls -la",
            "ssh -p 2222 db.example.com psql -c 'DROP TABLE t' => elsewhere sh -c psql -c DROP TABLE t",
            "ssh localhost 'rm x' => runs rm x",
            "ssh -F cfg host => script cfg",
        ),
    ),
    program(
        "scp",
        TOOL,
        options="-3 -4 -6 -A -B -C -O -p -q -R -r -s -T -v -c= -D=:runs -F=:script -i=:reads -J= -l= -o= -P= -S=:runs -X=",
        style=POSIX,
        handler=_scp,
        language="sh",
        examples=(
            "scp host:a.txt . => writes .; writes ./a.txt",
            "scp a.txt host:/tmp/ => passes",
            "scp -S 'rm x' a b:c => runs rm x",
        ),
    ),
    program(
        "rsync",
        TOOL,
        options="-v,--verbose -q,--quiet -c,--checksum -a,--archive -r,--recursive -R,--relative -b,--backup "
        "--backup-dir=:into --suffix= -u,--update --inplace --append -d,--dirs -l,--links -L,--copy-links -k,--copy-dirlinks "
        "-K,--keep-dirlinks -H,--hard-links -p,--perms -E,--executability -A,--acls -X,--xattrs -o,--owner -g,--group "
        "-D --devices --specials -t,--times -O,--omit-dir-times -S,--sparse -n,--dry-run -W,--whole-file "
        "-x,--one-file-system -B,--block-size= -e,--rsh=:runs --rsync-path=:runs --existing --ignore-existing "
        "--remove-source-files --remove-sent-files --del --delete --delete-before --delete-during --delete-delay "
        "--delete-after --delete-excluded --force --max-delete= --max-size= --min-size= --partial --partial-dir=:into "
        "--delay-updates -m,--prune-empty-dirs --numeric-ids --timeout= --contimeout= -I,--ignore-times --size-only "
        "--modify-window= -T,--temp-dir=:into -y,--fuzzy --compare-dest=:reads --copy-dest=:reads --link-dest=:reads "
        "-z,--compress --compress-level= --skip-compress= -C,--cvs-exclude -f,--filter= -F --exclude= "
        "--exclude-from=:reads --include= --include-from=:reads --files-from=:reads -0,--from0 --address= --port= "
        "--sockopts= --blocking-io --stats -8,--8-bit-output -h,--human-readable --progress -P -i,--itemize-changes "
        "--out-format= --log-file=:writes --log-file-format= --password-file=:reads --list-only --bwlimit= "
        "--write-batch=:writes --only-write-batch=:writes --read-batch=:reads --protocol= --iconv= --checksum-seed= "
        "-4,--ipv4 -6,--ipv6 --chmod= --chown= --usermap= --groupmap= --info= --debug= --mkpath --open-noatime "
        "--no-implied-dirs --ignore-errors --safe-links --munge-links --copy-unsafe-links -U,--atimes -N,--crtimes "
        "--super --fake-super -s,--secluded-args --trust-sender --copy-as= --early-input=:reads --outbuf= "
        "--preallocate --no-motd --version --help",
        handler=_rsync,
        language="sh",
        examples=(
            "rsync -a src/ dst => reads src/ (tree); into dst (tree)",
            "rsync -a src dst/ => reads src (tree); writes dst/src (tree)",
            "rsync -e 'rm x' a h:b => runs rm x; reads a (tree)",
            "rsync --remove-source-files a b/ => deletes a (tree); writes b/a (tree)",
        ),
    ),
    program(
        "nc",
        TOOL,
        aliases=("ncat", "netcat"),
        options="-e,--exec=:runs -c,--sh-exec=:runs --lua-exec=:script -o,--output=:writes -x,--hex-dump=:writes "
        "--append-output -l,--listen -k,--keep-open -u,--udp -v,--verbose -n,--nodns -z -w,--wait= -p,--source-port= "
        "-s,--source= -q= -N -4 -6 -U,--unixsock --ssl --send-only --recv-only -i,--idle-timeout= -m,--max-conns= "
        "-d,--delay= --allow= --deny= --proxy= --proxy-type=",
        handler=_nc,
        language="sh",
        complete=False,
        examples=("nc -l -p 9 -e /bin/sh => runs /bin/sh", "nc host 80 => passes"),
    ),
    program(
        "socat",
        TOOL,
        options="-V -h -d -D -ly=? -lf=:writes -ls -lm=? -lp= -lu -lh -v -x -b= -s -t= -T= -u -U -g -L=:writes -W=:writes -4 -6",
        style=POSIX,
        handler=_socat,
        language="sh",
        examples=(
            "socat - EXEC:'rm x' => runs rm x",
            "socat TCP-LISTEN:8080 TCP:host:80 => passes",
            "socat - OPEN:f,creat => writes f",
        ),
    ),
    program(
        "http",
        TOOL,
        aliases=("https", "xh", "xhs"),
        options="-o,--output=:writes -d,--download -c,--continue --session=:writes --session-read-only=:reads "
        "-a,--auth= -A,--auth-type= -v,--verbose -h,--headers -b,--body -p,--print= -f,--form -j,--json --offline "
        "--timeout= --verify= --cert=:reads --cert-key=:reads -F,--follow -I,--ignore-stdin",
        complete=False,
        examples=("http -d -o out https://x => writes out",),
    ),
    program(
        "aria2c",
        TOOL,
        options="-d,--dir=:into -o,--out=:writes -i,--input-file=:reads -l,--log=:writes --conf-path=:script "
        "--on-download-complete=:runs --on-download-start=:runs --on-download-error=:runs --on-download-pause=:runs "
        "--on-download-stop=:runs --on-bt-download-complete=:runs -x,--max-connection-per-server= -s,--split= "
        "-c,--continue -q,--quiet -j,--max-concurrent-downloads=",
        complete=False,
        language="sh",
        examples=("aria2c --on-download-complete='rm x' u => runs rm x",),
    ),
)
