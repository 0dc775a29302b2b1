"""``cupcake doctor --live``: the agent the user has installed, run headless against a scripted model on
127.0.0.1, with Cupcake as its hook in a throwaway project, to prove that a sample deny blocks and an
allow runs (no API key, no network).

- ``loopback``: the HTTP server every stand-in shares (an ephemeral port, a watchdog).
- ``messages_api``: a stand-in for the Anthropic Messages API (Claude Code).
- ``standin`` and ``gemini_api``: a stand-in for the Gemini API (Gemini CLI), on the shared base the
  real-client tests also use for the other agents' APIs.
- ``check``: the check itself; each agent it can run has a ``live`` module in its adapter
  (``cupcake/agents/<agent>/live.py``: its headless command, environment and stand-in).
"""

KEY = "cupcake-doctor-live-placeholder"  # no real key is ever used: the stand-ins check none
DEFAULT_TIMEOUT = 120.0  # seconds one agent's run may take, unless --timeout says otherwise
