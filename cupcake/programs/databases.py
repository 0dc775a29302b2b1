"""Database clients: the SQL (or other query text) they run — given inline (``psql -c``, ``mysql -e``,
``sqlite3 DB SQL``), from a file (``-f``), or on standard input — and the files they write. The
query text is ``code`` with the client's language ("sql", "sqlite", "psql", "mysql", "redis",
"mongo"), so a rule can read what runs and self-protection can look for the client's commands
that write files or run programs (``\\!``, ``.shell``, ``\\o``, ``.output``…)."""

from __future__ import annotations

from cupcake.programs.spec import CODE, SCRIPT, STDIN_CODE, TOOL, WRITES, program


def _stdin_unless(*given):
    """Queries come on standard input unless one of ``given`` supplies them."""

    def handler(r) -> None:
        if not r.has(*given) and not r.of(CODE, SCRIPT):
            r.add(STDIN_CODE, None, r.path[0])

    return handler


def _sqlite(r) -> None:
    """``sqlite3 [DB [SQL...]]``: the database file is written (unless ``-readonly``); each SQL
    operand runs; without SQL, queries come on standard input."""
    r.drop(WRITES, CODE)
    for value in r.values("-cmd", "--cmd"):
        r.add(CODE, value, "sqlite3 -cmd")
    ops = r.operands
    if ops and not r.has("-readonly", "--readonly", "-safe", "--safe") and ops[0].value not in (":memory:", ""):
        r.add(WRITES, ops[0], "sqlite3")
    for word in ops[1:]:
        r.add(CODE, word, "sqlite3")
    if len(ops) < 2:
        r.add(STDIN_CODE, None, "sqlite3")


def _duckdb(r) -> None:
    r.drop(WRITES)
    ops = r.operands
    if ops and not r.has("-readonly") and ops[0].value not in (":memory:", ""):
        r.add(WRITES, ops[0], "duckdb")
    if not r.has("-c", "-s", "-cmd"):
        r.add(STDIN_CODE, None, "duckdb")


_SQLITE = (
    "-cmd,--cmd=:code -init,--init=:script -bail,--bail -batch,--batch -csv,--csv -json,--json -line,--line "
    "-list,--list -column,--column -box,--box -table,--table -markdown,--markdown -html,--html -header,--header "
    "-noheader,--noheader -readonly,--readonly -safe,--safe -echo,--echo -nullvalue,--nullvalue= -separator,--separator= "
    "-newline,--newline= -interactive,--interactive -memtrace -nofollow,--nofollow -append,--append "
    "-deserialize,--deserialize -A= -lookaside= -maxsize= -mmap= -pagecache= -stats -version -help -vfs= -zip -quote -ascii -tabs"
)

SPECS = (
    program(
        "psql",
        TOOL,
        options="-c,--command=:code -f,--file=:script -o,--output=:writes -L,--log-file=:writes -d,--dbname= -h,--host= "
        "-p,--port= -U,--username= -w,--no-password -W,--password -v,--set,--variable= -X,--no-psqlrc -A,--no-align "
        "-t,--tuples-only -q,--quiet -1,--single-transaction -e,--echo-queries -E,--echo-hidden -a,--echo-all "
        "-b,--echo-errors -n,--no-readline -s,--single-step -S,--single-line -x,--expanded -z,--field-separator-zero "
        "-0,--record-separator-zero -F,--field-separator= -R,--record-separator= -P,--pset= -T,--table-attr= --csv "
        "-H,--html -l,--list -V,--version -?,--help=?",
        language="psql",
        handler=_stdin_unless("-c", "--command", "-f", "--file", "-l", "--list", "-V", "--version"),
        examples=(
            "psql -c 'select 1' => code select 1",
            "psql -f q.sql db => script q.sql",
            "psql db => stdin code",
            "psql -o out.txt -c 'x' => writes out.txt; code x",
        ),
    ),
    program(
        "mysql",
        TOOL,
        aliases=("mariadb",),
        options="-e,--execute=:code --init-command=:code --tee=:writes -D,--database= -h,--host= -u,--user= -p,--password=? "
        "-P,--port= -S,--socket= --defaults-file=:script --defaults-extra-file=:script --no-defaults -B,--batch "
        "-N,--skip-column-names -s,--silent -v,--verbose -t,--table -E,--vertical -r,--raw -X,--xml -H,--html "
        "-A,--no-auto-rehash --ssl-mode= --protocol= -f,--force -c,--comments --local-infile=? --binary-mode",
        language="mysql",
        handler=_stdin_unless("-e", "--execute"),
        examples=("mysql -e 'drop table t' db => code drop table t", "mysql db => stdin code"),
    ),
    program(
        "sqlite3",
        TOOL,
        aliases=("sqlite",),
        options=_SQLITE,
        single_dash=True,
        language="sqlite",
        handler=_sqlite,
        examples=(
            "sqlite3 app.db 'select 1' => writes app.db; code select 1",
            "sqlite3 -readonly app.db => stdin code",
            "sqlite3 x.db '.shell rm y' => writes x.db; code .shell rm y",
        ),
    ),
    program(
        "duckdb",
        TOOL,
        options="-c=:code -s=:code -cmd=:code -init=:script -readonly -csv -json -line -list -markdown -box -table -header -noheader -nullvalue= -separator= -bail -echo -unsigned",
        single_dash=True,
        language="sql",
        handler=_duckdb,
        examples=("duckdb x.db -c 'select 1' => code select 1; writes x.db",),
    ),
    program(
        "mongosh",
        TOOL,
        aliases=("mongo",),
        options="--eval=:code -f,--file=:script --quiet --nodb --norc --shell --host= --port= -u,--username= -p,--password= --authenticationDatabase= --tls --json=?",
        operands="value script...",
        language="mongo",
        examples=("mongosh db --eval 'db.x.drop()' => code db.x.drop()",),
    ),
    program(
        "redis-cli",
        TOOL,
        options="-h= -p= -s= -a= -u= -n= -r= -i= -d= -D= --user= --pass= --eval=:script -x -c --raw --no-raw --csv --json --tls --rdb=:writes --functions-rdb=:writes --pipe --scan --pattern= --count= --bigkeys --memkeys --latency --stat --ldb --no-auth-warning -3 -e",
        operands="code...",
        language="redis",
        examples=(
            "redis-cli config set dir /tmp => code config; code set; code dir; code /tmp",
            "redis-cli --rdb dump.rdb => writes dump.rdb",
        ),
    ),
    program(
        "clickhouse-client",
        TOOL,
        aliases=("clickhouse",),
        options="-q,--query=:code --queries-file=:script -d,--database= -h,--host= --port= -u,--user= --password= -m,--multiline -n,--multiquery -f,--format= -t,--time --stacktrace",
        language="sql",
        handler=_stdin_unless("-q", "--query", "--queries-file"),
        examples=("clickhouse-client -q 'select 1' => code select 1",),
    ),
    program(
        "pg_dump",
        TOOL,
        aliases=("pg_dumpall",),
        options="-f,--file=:writes -d,--dbname= -h,--host= -p,--port= -U,--username= -F,--format= -t,--table= -T,--exclude-table= -n,--schema= -N,--exclude-schema= -a,--data-only -s,--schema-only -c,--clean -C,--create -j,--jobs= -Z,--compress= -v,--verbose -w -W -x -O --if-exists --inserts",
        operands="value",
        examples=("pg_dump -f dump.sql db => writes dump.sql",),
    ),
    program(
        "pg_restore",
        TOOL,
        options="-f,--file=:writes -d,--dbname= -h,--host= -p,--port= -U,--username= -F,--format= -t,--table= -n,--schema= -a,--data-only -s,--schema-only -c,--clean -C,--create -j,--jobs= -l,--list -L,--use-list=:reads -v,--verbose -w -W -x -O --if-exists -1,--single-transaction",
        operands="reads",
        examples=("pg_restore -d db dump.bin => reads dump.bin",),
    ),
    program(
        "mysqldump",
        TOOL,
        aliases=("mariadb-dump",),
        options="-r,--result-file=:writes -h,--host= -u,--user= -p,--password=? -P,--port= --defaults-file=:script --databases -B --all-databases -A --no-data -d --single-transaction --routines --triggers --where= -w=",
        operands="value...",
        examples=("mysqldump -r out.sql db => writes out.sql",),
    ),
    program(
        "sqlcmd",
        TOOL,
        options="-Q=:code -q=:code -i=:script -o=:writes -S= -d= -U= -P= -E -b -h= -s= -W -C",
        single_dash=True,
        language="sql",
        examples=("sqlcmd -Q 'select 1' => code select 1",),
    ),
)
