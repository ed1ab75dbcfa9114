#!/bin/sh
# Claude Code hook for validate-workflow: Claude Code writes the event's JSON payload to standard input; this passes
# it on to `validate-workflow claude-hook`, which answers with JSON on standard output (deny an edit, block a stop,
# recovery context at session start) or with nothing (allow).
# Run from the project so the locally installed package is the one found. The local bin is used directly when it is
# there: npx costs a few hundred milliseconds on every edit the agent makes.
cd "${CLAUDE_PROJECT_DIR:-.}" 2>/dev/null || true
if [ -x node_modules/.bin/validate-workflow ]; then
  node_modules/.bin/validate-workflow claude-hook
else
  npx --no-install validate-workflow claude-hook
fi
status=$?
# Exit 2 would make Claude Code treat stderr as a refusal; a hook that could not run must not refuse anything.
# Exit 1 is Claude Code's non-blocking error: the user sees the hook is broken, the agent goes on.
if [ "$status" -ne 0 ]; then
  echo "validate-workflow claude-hook could not run (exit $status); is validate-workflow installed in this project?" >&2
  exit 1
fi
exit 0
