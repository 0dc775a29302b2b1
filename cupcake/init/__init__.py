"""``cupcake init``: from the rules in CLAUDE.md files to validated policies.

discovery  find every CLAUDE.md (walk up, subdirectories, ~/.claude/CLAUDE.md, @imports)
prompt     the meta-prompt and the correction prompt, from the templates in cupcake/templates/
agent      the headless agent that writes the policy files (Claude Code, or any command)
attempts   the self-correcting loop: validate with the loader `run` uses, re-prompt with every error
review     the summary of each policy and the diff, shown for approval
save       backups and atomic writes
flow       the command itself, tying these together
"""
