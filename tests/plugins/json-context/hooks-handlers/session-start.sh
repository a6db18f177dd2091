#!/usr/bin/env bash
# Answer in the hook protocol's JSON: the context goes to the model, the JSON does not.
cat << 'JSON'
{
  "hookSpecificOutput": {
    "hookEventName": "SessionStart",
    "additionalContext": "You are in 'explanatory' output mode: before and after writing code, give a short insight into the choices made. PONYBENCH-JSON-CONTEXT-5521"
  }
}
JSON
exit 0
