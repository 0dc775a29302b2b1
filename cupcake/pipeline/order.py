"""The one order table of the built-in systems (gaps of 100 leave room for custom stages).

Plain int constants rather than an IntEnum: ``enum`` costs about 4 ms of every hook call."""


class Stage:
    INPUT_PARSE = 100
    POLICY_LOAD = 200
    STATE_LOAD = 300
    FEEDBACK_COLLECTION = 400
    HARD_ACTION_SCAN = 500
    RESPONSE_PREPARATION = 600
    FEEDBACK_GUARANTEE = 700
    RESPONSE_ROUTING = 800
    STATE_WRITE = 900
    SHADOW_EVALUATION = 950
    AUDIT_WRITE = 1000
    TELEMETRY_SPOOL = 1100


# (order, name) of every built-in system, in order: the table the docs and features show. A built-in
# system's name is derived from here (``BaseSystem``), never written twice.
BUILTIN_ORDER = tuple(sorted((value, name.lower()) for name, value in vars(Stage).items() if name.isupper()))
NAME_OF = dict(BUILTIN_ORDER)

# Systems that load and evaluate policies or guarantee the answer: configuration cannot turn them off.
CORE = frozenset(
    {
        Stage.INPUT_PARSE,
        Stage.POLICY_LOAD,
        Stage.FEEDBACK_COLLECTION,
        Stage.HARD_ACTION_SCAN,
        Stage.RESPONSE_PREPARATION,
        Stage.FEEDBACK_GUARANTEE,
        Stage.RESPONSE_ROUTING,
    }
)

# Systems planned only when the compiled policies ask for them (the replan after policy load adds them):
# the shadow candidate and the observed policies (``cupcake.shadow``). Every other run never imports them.
ON_DEMAND = frozenset({Stage.SHADOW_EVALUATION})

# The answer is sealed once the guarantee has run: later systems may add warnings only.
SEALED_AFTER = Stage.FEEDBACK_GUARANTEE
