"""One checked `claude plugin eval` case as a ponybench task: pure, no file is read or written.

What maps (task.toml keys as the graders spec and the per-task policy name them):

| CPE | here |
|---|---|
| prompt (execution.prompt, prompt.md's body) | prompt.md |
| name | the task folder's name (`names.task_id`) |
| description, tags | description, tags (tags as identifiers) |
| runs, max_turns, timeout_seconds | runs, max_turns, cell_timeout (CPE's defaults 3, 10, 300 written out) |
| allowed_tools (a grant), disallowed_tools | allowed_tools: what CPE's session is offered (tools.py) |
| append_system_prompt, env | the same keys (env names checked) |
| add_dirs, scaffold_script (with --allow-scaffold) | files under seed/ (laid by the importer) |
| plugins (or the plugin the suite sits in) | an arm named after the plugin; baseline is without it |
| model | a `--models` hint (models are the grid's, not a task's) |
| regex on last_message / a file | regex on reply / files (glob = the path) |
| tool_used, tool_order | tool_used, tool_order (input_match `"key":"value"` on that field) |
| regex on trace `"key":"value"` (a tool input's field, or `"name"` a tool) | tool_used / tool_absent |
| file_exists (exists: false) | file_exists (file_absent) |
| llm on last_message / a file / files | llm on reply / files / diff |
| baseline (baseline_file) | llm_reference against the baseline's final reply |
| weight, arm: with-only (and a bare `tool_used: Skill`) | weight, arm = "arms-only" |

| an llm or baseline grader (CPE's judge votes 3 times) | judge_runs = 3 |

Everything else is an `Item` of the checklist: not imported (no equivalent), imported with a
difference to review, a grader that never passes (in CPE either), or something to do before a
run. No key is dropped without one.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import Any

from pytest_ponybench.core.names import MAX_NAME_CHARS
from pytest_ponybench.core.policy import env_name_problem, listed_tool_problem
from pytest_ponybench.cpe import tomlw
from pytest_ponybench.cpe.cases import Case, Grader
from pytest_ponybench.cpe.jsontext import TRACE_TOOL_KEY, FieldMatch, field_match, tool_names
from pytest_ponybench.cpe.jsregex import translate
from pytest_ponybench.cpe.names import tag_name, task_id
from pytest_ponybench.cpe.tools import BUILTIN_TOOLS, FILE_WRITERS, SHELLS, Offer, cpe_offer

__all__ = [
    "AXES",
    "CPE_JUDGE_VOTES",
    "DIFFERS",
    "Draft",
    "GRADER_NAME",
    "GraderMapping",
    "IMAGE_SUFFIXES",
    "INPUT_FIELD",
    "Item",
    "KINDS",
    "LABELS",
    "MAPPERS",
    "NEVER",
    "NOT_IMPORTED",
    "Plugin",
    "REFERENCES_DIR",
    "SKILL",
    "TODO",
    "TRACE_KEYS",
    "TaskFolder",
    "draft",
    "fnmatch_literal",
    "grader_name",
    "imported_md",
    "map_grader",
    "never_passes",
    "policy_toml",
]

NOT_IMPORTED = "not imported"
DIFFERS = "differs"
NEVER = "never passes"
TODO = "to do"
KINDS = (NEVER, NOT_IMPORTED, DIFFERS, TODO)
LABELS = {
    NEVER: "Never passes, in CPE either (fix the case)",
    NOT_IMPORTED: "Not imported (no equivalent here)",
    DIFFERS: "Imported with a difference (review)",
    TODO: "To do",
}
CPE_JUDGE_VOTES = 3  # CPE's llm and baseline graders pass on 2 of 3 judge votes
SKILL = "Skill"
AXES = ("score", "correct")
# The field of a tool's input that CPE's input_match most likely meant (it matched the whole
# input as JSON text); tools whose input has no one such field are not mapped.
INPUT_FIELD = {
    "Skill": "skill",
    "Read": "file_path",
    "Write": "file_path",
    "Edit": "file_path",
    "MultiEdit": "file_path",
    "NotebookEdit": "notebook_path",
    "Glob": "pattern",
    "Grep": "pattern",
    "Bash": "command",
    "WebFetch": "url",
    "WebSearch": "query",
    "SlashCommand": "command",
}
# Keys of a tool call's input a trace regex may name (`"skill":"..."`), with the tool that owns
# it where one does; the rest ("content", "type", "path", "prompt"...) stand in other events too.
TRACE_KEYS: dict[str, str] = {
    "skill": "Skill",
    "subagent_type": "Agent",
    "command": "Bash",
    "url": "WebFetch",
    "query": "WebSearch",
    "notebook_path": "NotebookEdit",
    "file_path": "*",
    "old_string": "*",
    "new_string": "*",
    "pattern": "*",
}
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".gif", ".webp")
GRADER_NAME = re.compile(r"[^A-Za-z0-9_-]+")
REFERENCES_DIR = "references"


@dataclass(frozen=True)
class Item:
    """One line of the checklist."""

    kind: str  # not imported | differs | to do
    text: str


@dataclass(frozen=True)
class Plugin:
    """A plugin a case runs with: its manifest name and folder (as the arm snippet spells it),
    and what its Skill tool can invoke (skills and commands by name; None: not known)."""

    name: str
    path: str
    skills: tuple[str, ...] | None = None


@dataclass(kw_only=True)
class TaskFolder:
    """A task folder an importer writes: its id, its task.toml table, its files and the
    checklist of what did not map as it was."""

    task: str
    toml: dict[str, Any]
    files: dict[str, bytes]
    items: list[Item] = field(default_factory=list)

    def task_toml(self, source: str) -> bytes:
        """task.toml, headed by where it was imported from."""
        return tomlw.dumps(self.toml, [f"Imported from {source}; see IMPORTED.md"]).encode()

    def ref_tomls(self, notes: Mapping[str, str]) -> dict[str, bytes]:
        """With graders, a ref.toml to fill in per reference (`notes`: reference -> what it
        declares); the suites imported have no references."""
        if not self.toml.get("graders"):
            return {}
        return {f"{ref}/ref.toml": tomlw.dumps({"note": note}).encode() for ref, note in notes.items()}


@dataclass(kw_only=True)
class Draft(TaskFolder):
    """A case's task folder, and the plugins the case runs with."""

    case: Case
    plugins: tuple[Plugin, ...] = ()


def grader_name(name: str) -> str:
    """A grader's name in the characters ponybench's allow, at most 64 of them (a baseline
    grader's reference file is named after it)."""
    return GRADER_NAME.sub("_", name).strip("_")[:MAX_NAME_CHARS].rstrip("_") or "grader"


def fnmatch_literal(tool: str) -> str:
    """A tool name as a ponybench tool glob that matches only itself."""
    return "".join(f"[{c}]" if c in "*?[" else c for c in tool)


def _glob(path: str) -> tuple[str | None, str | None]:
    """CPE's file glob (`*`, `**`, `?`) as a workspace glob: (glob, why not) and a difference."""
    if path.startswith("/") or ".." in PurePosixPath(path).parts or not path.strip():
        return None, f"path {path!r} is not inside the workspace (relative, no '..')"
    if "[" in path:
        return None, f"path {path!r}: '[' is a literal in CPE and a character class here"
    return path.removeprefix("./"), None


def _field_regex(found: FieldMatch, flags: str = "") -> tuple[str | None, str]:
    """A JSON-text field's value regex as the Python regex of an `input = { path, regex }`."""
    done = translate(found.value, flags)
    if done.pattern is None:
        return None, done.why or ""
    inline = "".join(f for f in done.flags if f in "ims")
    return (f"(?{inline}){done.pattern}" if inline else done.pattern), ""


def _input_match(tool: str, pattern: str) -> tuple[dict[str, str] | None, str]:
    """CPE's input_match (a JS regex over the tool input's JSON text) on one field of the input:
    the field a `"key":"value"` pattern names (CPE's skill-fired idiom among them), else, for a
    plain pattern, the tool's main field."""
    if '"' in pattern:
        found, why = field_match(pattern)
        if found is None:
            return None, f"input_match {pattern!r} reads the input's JSON text: {why}"
        regex, why = _field_regex(found)
        if regex is None:
            return None, f"input_match {pattern!r}: {why}"
        return {"path": found.key, "regex": regex}, ""
    name = INPUT_FIELD.get(tool)
    if name is None:
        return (
            None,
            f"input_match on {tool}: its input has no one field to match here "
            "(write `input = { path, regex }` by hand)",
        )
    if re.search(r"[{}]", pattern) or re.search(r"(?<!\\)[\^$]", pattern):
        return None, f"input_match {pattern!r} reads the input's JSON text (braces or anchors)"
    done = translate(pattern)
    if done.pattern is None:
        return None, f"input_match {pattern!r}: {done.why}"
    return {"path": name, "regex": done.pattern}, ""


def _step(ref: Mapping[str, Any]) -> tuple[dict[str, Any] | None, str]:
    step: dict[str, Any] = {"tool": fnmatch_literal(str(ref["tool"]))}
    if ref.get("input_match") is not None:
        match, why = _input_match(str(ref["tool"]), str(ref["input_match"]))
        if match is None:
            return None, why
        step["input"] = match
    return step, ""


@dataclass
class GraderMapping:
    """What mapping one grader gives: its table (or None) and checklist lines."""

    table: dict[str, Any] | None = None
    items: list[Item] = field(default_factory=list)
    files: dict[str, bytes] = field(default_factory=dict)

    def refuse(self, g: Grader, why: str) -> GraderMapping:
        self.table = None
        self.items.append(Item(NOT_IMPORTED, f"grader {g.name!r} ({g.type}, {g.where}): {why}"))
        return self

    def differs(self, g: Grader, why: str) -> None:
        self.items.append(Item(DIFFERS, f"grader {g.name!r} ({g.type}): {why}"))


@dataclass(frozen=True)
class _Context:
    """What a grader's mapping needs beyond the grader itself."""

    name: str  # the grader's name here
    baseline_reply: str | None
    baseline_why: str
    seeded: Sequence[str]
    mocked: frozenset[str] = frozenset()  # the tools the task's mocks answer for


# A mapper fills the table in place and says why the grader has no equivalent, or None.
_Mapper = Callable[[Grader, dict[str, Any], GraderMapping, _Context], str | None]


def _map_regex(g: Grader, table: dict[str, Any], out: GraderMapping, ctx: _Context) -> str | None:
    k = g.keys
    target = k["target"]
    if target == "last_message":
        table.update(type="regex", target="reply")
    elif isinstance(target, Mapping):
        glob, why = _glob(str(target["path"]))
        if glob is None:
            return why or ""
        table.update(type="regex", target="files", glob=glob)
        if k["match"] == "not_contains" or k["match"] == "count:0":
            out.differs(g, f"when {glob} is missing CPE fails the grader; here nothing matches, so it passes")
    elif target == "trace":
        return _map_trace(g, table, out)
    elif target == "files":
        return (
            "target files is the list of file names the run created; a regex over names has no "
            "equivalent here (file_exists takes a glob; regex on files reads their content)"
        )
    elif ctx.mocked:
        table.update(type="regex", target="mock_calls")
    else:
        return "target mock_calls reads the calls of MCP mocks, and no mocks/ folder applies to the case"
    done = translate(str(k["pattern"]), str(k["flags"]))
    if done.pattern is None:
        return f"pattern {k['pattern']!r}: {done.why}"
    table["pattern"] = done.pattern
    if done.flags:
        table["flags"] = done.flags
    match = str(k["match"])
    if match == "not_contains":
        table["mode"] = "not_contains"
    elif match.startswith("count:"):
        n = int(match.split(":", 1)[1])
        table.update(mode="count", min=n, max=n)
    return None


def _map_trace(g: Grader, table: dict[str, Any], out: GraderMapping) -> str | None:
    """A regex over the trace that names one field of a tool call (`"skill":"..."`) or a call's
    tool (`"name":"Skill"`), as tool_used (contains, count:N) or tool_absent (not_contains)."""
    k = g.keys
    pattern, flags, match = str(k["pattern"]), str(k["flags"]), str(k["match"])
    found, why = field_match(pattern)
    key = found.key if found is not None else None
    if key == TRACE_TOOL_KEY:
        names = tool_names(found) if found is not None else None
        if (
            names is None
            or "i" in flags
            or not all(n in BUILTIN_TOOLS or n.startswith("mcp__") for n in names)
        ):
            found, why = None, "its value is not one or more tool names"
    elif key is not None and key not in TRACE_KEYS:
        found, why = None, f"key {key!r} is not one a tool call's input alone has"
    if found is None:
        return (
            f"target trace is every stream-json event as JSON (hooks, the tool list, calls and results), "
            f"and this pattern is not one field of a tool call ({why}); here regex reads the reply or the "
            'assistant text (target = "transcript"): use tool_used with input for tool calls'
        )
    if found.key == TRACE_TOOL_KEY:
        names = tool_names(found) or ()
        call: dict[str, Any] = {"tool": [fnmatch_literal(n) for n in names] if len(names) > 1 else names[0]}
        what = f"a call of {' or '.join(names)}"
    else:
        regex, why = _field_regex(found, flags)
        if regex is None:
            return f"pattern {pattern!r}: {why}"
        call = {"tool": TRACE_KEYS[found.key], "input": {"path": found.key, "regex": regex}}
        what = f"a tool call's input.{found.key}"
    if match == "not_contains":
        table.update(type="tool_absent", **call)
    else:
        table.update(type="tool_used", **call)
        if match.startswith("count:"):
            n = int(match.split(":", 1)[1])
            table.update(min=n, max=n)
    out.differs(
        g,
        f"a regex over the trace (every event as JSON); here {what}, where it matched in CPE too "
        + (
            "(CPE counted every event it appeared in)" if match.startswith("count:") else "(not other events)"
        ),
    )
    return None


def _map_tool_used(g: Grader, table: dict[str, Any], out: GraderMapping, ctx: _Context) -> str | None:
    k = g.keys
    tool = str(k["tool"])
    table.update(type="tool_used", tool=fnmatch_literal(tool))
    if k.get("input_match") is not None:
        match_table, why = _input_match(tool, str(k["input_match"]))
        if match_table is None:
            return why
        table["input"] = match_table
        if '"' not in str(k["input_match"]):  # a plain pattern: anywhere in CPE, one field here
            out.differs(
                g,
                "input_match matched the whole input as JSON in CPE; "
                f"here it matches input.{match_table['path']}",
            )
    for bound in ("min", "max"):
        if k.get(bound) is not None:
            table[bound] = k[bound]
    return None


def _map_tool_order(g: Grader, table: dict[str, Any], out: GraderMapping, ctx: _Context) -> str | None:
    steps = []
    for side in ("before", "after"):
        step, why = _step(g.keys[side])
        if step is None:
            return f"{side}: {why}"
        steps.append(step)
    table.update(type="tool_order", steps=steps)
    out.differs(
        g,
        "CPE passes when the first 'before' call comes before the first 'after' call; here, when some "
        "'after' call follows a 'before' call (an 'after' call before both no longer fails it)",
    )
    return None


def _map_file_exists(g: Grader, table: dict[str, Any], out: GraderMapping, ctx: _Context) -> str | None:
    k = g.keys
    glob, why = _glob(str(k["path"]))
    if glob is None:
        return why or ""
    table.update(type="file_exists" if k["exists"] else "file_absent", path=glob)
    if "?" in glob:
        out.differs(g, "'?' also matches '/' in CPE, one character within a folder here")
    hits = [p for p in ctx.seeded if _matches(glob, p)]
    if hits:
        out.differs(
            g,
            f"{glob} matches seeded file(s) ({', '.join(hits[:3])}): CPE counts only files the run "
            "creates, here every file of the workspace counts",
        )
    return None


def _map_llm(g: Grader, table: dict[str, Any], out: GraderMapping, ctx: _Context) -> str | None:
    k = g.keys
    focus = k["focus"]
    table.update(type="llm", criteria=str(k["criteria"]))
    if focus == "last_message":
        return None  # on = "reply", the default
    if isinstance(focus, Mapping):
        glob, why = _glob(str(focus["path"]))
        if glob is None:
            return why or ""
        if glob.lower().endswith(IMAGE_SUFFIXES):
            return f"the judge reads {glob} as an image in CPE; here it reads text files"
        table.update(on="files", files=[glob])
        return None
    if focus == "files":
        table["on"] = "diff"
        out.differs(g, "CPE showed the judge the names of the files the run created; here, the diff")
        return None
    if focus == "trace":
        return (
            "focus trace (the whole trajectory) has no equivalent: the judge reads the reply, diff or files"
        )
    return (
        "focus mock_calls: a judge here reads the reply, the diff or files, not the mock calls "
        "(a regex on target mock_calls reads them)"
    )


def _map_baseline(g: Grader, table: dict[str, Any], out: GraderMapping, ctx: _Context) -> str | None:
    k = g.keys
    if ctx.baseline_reply is None:
        return ctx.baseline_why or f"baseline_file {k['baseline_file']!r} holds no final reply"
    ref = f"{REFERENCES_DIR}/{ctx.name}.md"
    out.files[ref] = ctx.baseline_reply.encode()
    table.update(type="llm_reference", reference=ref, criteria=str(k["criteria"]), pass_if="not_worse")
    out.differs(
        g,
        "CPE compared whole trajectories; here the reply is judged against "
        f"the baseline's final reply ({ref})",
    )
    return None


# Each CPE grader type (cases.GRADER_TYPES, whose keys cases.py checked) and how it becomes a
# `[[graders]]` table; a test keeps the two lists equal.
MAPPERS: dict[str, _Mapper] = {
    "regex": _map_regex,
    "tool_used": _map_tool_used,
    "tool_order": _map_tool_order,
    "file_exists": _map_file_exists,
    "llm": _map_llm,
    "baseline": _map_baseline,
}


def map_grader(
    g: Grader,
    *,
    arms_only: bool,
    axis: str,
    baseline_reply: str | None = None,
    baseline_why: str = "",
    seeded: Sequence[str] = (),
    mocked: frozenset[str] = frozenset(),
) -> GraderMapping:
    """One CPE grader as a `[[graders]]` table (or the reason it has none)."""
    out = GraderMapping()
    name = grader_name(g.name)
    table: dict[str, Any] = {"name": name, "type": ""}
    if name != g.name:
        out.differs(g, f"renamed {name!r} (grader names are letters, digits, _ and -)")
    why = MAPPERS[g.type](g, table, out, _Context(name, baseline_reply, baseline_why, seeded, mocked))
    if why is not None:
        return out.refuse(g, why)
    if axis != "score" and not arms_only:
        table["axis"] = axis
    if g.weight != 1.0:
        table["weight"] = g.weight
    if arms_only:
        table["arm"] = "arms-only"
    out.table = table
    return out


def _matches(glob: str, path: str) -> bool:
    parts = []
    for token in re.findall(r"\*\*/|\*\*|\*|\?|[^*?]+", glob):
        parts.append({"**/": "(?:.*/)?", "**": ".*", "*": "[^/]*", "?": "[^/]"}.get(token, re.escape(token)))
    return re.fullmatch("".join(parts), path) is not None


def _arms_only(case: Case) -> set[str]:
    """CPE's with-only graders: `arm: with-only`, and a `tool_used: Skill` with no arm; when every
    grader is one, CPE scores them all in both arms."""
    marked = {
        g.name
        for g in case.graders
        if g.arm == "with-only" or (g.arm is None and g.type == "tool_used" and g.keys["tool"] == SKILL)
    }
    return set() if len(marked) == len(case.graders) else marked


def policy_toml(
    case: Case, items: list[Item], grants: Sequence[str] = (), withheld: Sequence[str] = ()
) -> dict[str, Any]:
    """The per-task policy keys of the case, each checked as the task loader checks it: the
    tools are what CPE's session is offered (`tools.cpe_offer`, with the operator's `grants`
    and `withheld` tools), never the case's list as a whitelist."""
    out: dict[str, Any] = {
        "runs": case.runs,
        "max_turns": case.max_turns,
        "cell_timeout": case.timeout_seconds,
    }
    offer = cpe_offer(case.allowed_tools, case.disallowed_tools, grants, withheld)
    out["allowed_tools"] = list(offer.tools)
    if offer.not_granted:
        shells = [t for t in offer.not_granted if t.split("(")[0] in SHELLS]
        items.append(
            Item(
                TODO,
                f"allowed_tools lists {', '.join(offer.not_granted)}, which CPE offers only when the "
                "operator grants it (claude plugin eval --allow-tools), and so does this task: import with "
                "--allow-tools to mirror a run that granted it"
                + (
                    f" (never {', '.join(shells)}: no ponybench session is offered a shell)" if shells else ""
                ),
            )
        )
    kept: list[str] = []
    for t in dict.fromkeys(case.disallowed_tools):
        why = listed_tool_problem("disallowed_tools", t)
        if why is None:
            kept.append(t)
        else:
            items.append(Item(NOT_IMPORTED, f"disallowed_tools: {why}"))
    if kept:
        out["disallowed_tools"] = kept
    if case.append_system_prompt:
        out["append_system_prompt"] = case.append_system_prompt
    env: dict[str, str] = {}
    for var, text in case.env.items():
        why = env_name_problem(var)
        if why is None:
            env[var] = text
        else:
            items.append(Item(NOT_IMPORTED, f"env: {why}"))
    if env:
        out["env"] = env
    return out


def _skill_value(g: Grader) -> str | None:
    """The Python regex a Skill call's `skill` field must match for this grader, if it names one."""
    match = g.keys.get("input_match")
    if g.type != "tool_used" or g.keys["tool"] != SKILL or match is None or '"' not in str(match):
        return None
    found, _ = field_match(str(match))
    if found is None or found.key != "skill":
        return None
    regex, _ = _field_regex(found)
    return regex


def never_passes(
    g: Grader, offer: Offer, plugins: Sequence[Plugin], mocked: frozenset[str] | None = None
) -> str | None:
    """Why a grader cannot pass in any run of the case, in CPE or here, or None: bounds no count
    meets, a tool the session is never offered, a skill none of its plugins has, a file no
    offered tool can write (CPE warns of that one itself), the mock calls of a case no mock
    answers for (`mocked`: the mocked tools; None: not known)."""
    k = g.keys
    read = k.get("target") if g.type == "regex" else k.get("focus") if g.type == "llm" else None
    if read == "mock_calls" and mocked is not None and not mocked and g.type == "regex":
        return "it reads mock_calls, and no mocks/ folder applies to the case: no stand-in is ever called"
    if g.type == "tool_used":
        lo, hi = k.get("min"), k.get("max")
        if hi is not None and (1 if lo is None else lo) > hi:
            if lo is None:
                return f"max: {hi} with no min: min stays 1 (write min: 0 for 'never called')"
            return f"min {lo} is more than max {hi}"
        if lo == 0:
            return None
    tools = (
        [str(k["tool"])]
        if g.type == "tool_used"
        else [str(k[s]["tool"]) for s in ("before", "after")]
        if g.type == "tool_order"
        else []
    )
    for tool in tools:
        if not offer.offers(tool) and not tool.startswith("mcp__"):
            here = " (nor is any ponybench session)" if tool in SHELLS else ""
            return (
                f"its session is never offered {tool}{here}: CPE offers {', '.join(offer.tools)} "
                "(claude plugin eval --allow-tools grants more)"
            )
    skill = _skill_value(g)
    known = [p for p in plugins if p.skills is not None]
    if skill is not None and known and len(known) == len(plugins):
        names = [f"{p.name}:{n}" for p in known for n in p.skills or ()] + [
            n for p in known for n in p.skills or ()
        ]
        if not any(re.search(skill, n) for n in names):
            have = ", ".join(sorted({n for p in known for n in p.skills or ()})) or "none"
            return f"it names a skill none of the case's plugins has (theirs: {have})"
    target = k.get("target") if g.type == "regex" else k.get("focus") if g.type == "llm" else None
    needs_file = (g.type == "file_exists" and k["exists"]) or isinstance(target, Mapping)
    if needs_file and not set(FILE_WRITERS) & set(offer.tools):
        return (
            "it needs a file the run creates, and no tool its session is offered can write one (a plugin "
            "hook still could): grant Write (claude plugin eval --allow-tools Write; here import-cpe "
            "--allow-tools Write)"
        )
    return None


def draft(
    case: Case,
    *,
    axis: str = "score",
    plugins: Sequence[Plugin] = (),
    baseline_replies: Mapping[str, tuple[str | None, str]] | None = None,
    seeded: Sequence[str] = (),
    scaffolded: bool = False,
    grants: Sequence[str] = (),
    withheld: Sequence[str] = (),
    mocked: frozenset[str] = frozenset(),
    history: str | None = None,
) -> Draft:
    """The task folder for one case. `baseline_replies` maps a baseline grader's name to the final
    reply read from its baseline_file (or None and why); `seeded` are the seed/ paths laid;
    `scaffolded`: the case's scaffold_script was run and its files are among them; `grants` and
    `withheld`: the operator's --allow-tools and --disallow-tools of the CPE run it mirrors;
    `mocked`: the tools the task's mocks answer for; `history`: task.toml's history, a copy of
    the case's history_file among the task's files."""
    if axis not in AXES:
        raise ValueError(f"axis {axis!r}; expected one of {', '.join(AXES)}")
    items: list[Item] = []
    tid = task_id(case.name)
    if tid != case.name:
        items.append(
            Item(DIFFERS, f"case {case.name!r} is task {tid} (task names are letters, digits, _ and -)")
        )
    toml: dict[str, Any] = {"kind": "open"}
    if axis == "correct":
        toml["axis"] = "correct"
    if case.description:
        toml["description"] = case.description
    tags = [tag_name(t) for t in case.tags]
    for t, new in zip(case.tags, tags, strict=True):
        if t != new:
            items.append(Item(DIFFERS, f"tag {t!r} is {new!r} (tags are identifiers, usable with -m)"))
    if tags:
        toml["tags"] = list(dict.fromkeys(tags))
    if history is not None:
        toml["history"] = history
    toml.update(policy_toml(case, items, grants, withheld))
    offer = cpe_offer(case.allowed_tools, case.disallowed_tools, grants, withheld)
    arms_only = _arms_only(case)
    implicit = [g.name for g in case.graders if g.name in arms_only and g.arm is None]
    if implicit:
        items.append(
            Item(
                DIFFERS,
                f"grader(s) {', '.join(implicit)}: a bare `tool_used: Skill` is with-only in CPE, "
                "arms-only here",
            )
        )
    tables: list[dict[str, Any]] = []
    files: dict[str, bytes] = {}
    replies = baseline_replies or {}
    for g in case.graders:
        never = never_passes(g, offer, plugins, mocked)
        if never is not None:
            items.append(Item(NEVER, f"grader {g.name!r} ({g.type}, {g.where}): {never}"))
            if never.startswith(("max:", "min ")):  # bounds ponybench refuses as written
                items.append(
                    Item(NOT_IMPORTED, f"grader {g.name!r}: its bounds never pass, so it is left out")
                )
                continue
        reply, why = replies.get(g.name, (None, ""))
        out = map_grader(
            g,
            arms_only=g.name in arms_only,
            axis=axis,
            baseline_reply=reply,
            baseline_why=why,
            seeded=seeded,
            mocked=mocked,
        )
        items += out.items
        files.update(out.files)
        if out.table is not None:
            if out.table["name"] in {t["name"] for t in tables}:
                items.append(
                    Item(NOT_IMPORTED, f"grader {g.name!r}: its name {out.table['name']!r} is taken")
                )
                continue
            tables.append(out.table)
    if tables:
        toml["graders"] = tables
    if any(t["type"] in ("llm", "llm_reference") for t in tables):
        toml["judge_runs"] = CPE_JUDGE_VOTES
    _case_items(case, items, imported=len(tables), axis=axis, scaffolded=scaffolded)
    return Draft(case=case, task=tid, toml=toml, files=files, items=items, plugins=tuple(plugins))


def _case_items(case: Case, items: list[Item], *, imported: int, axis: str, scaffolded: bool) -> None:
    """The checklist lines of the case's own keys that have no equivalent."""
    if case.scaffold_script is not None and not scaffolded:
        items.append(
            Item(
                NOT_IMPORTED,
                f"context.scaffold_script {case.scaffold_script!r}: not run "
                "(--allow-scaffold runs it once and seeds its files)",
            )
        )
    if case.growthbook_overrides:
        keys = ", ".join(sorted(case.growthbook_overrides))
        items.append(
            Item(
                NOT_IMPORTED,
                f"execution.growthbook_overrides ({keys}): feature flags of the CLI have no equivalent",
            )
        )
    if case.artifact_publish:
        items.append(
            Item(
                NOT_IMPORTED,
                "execution.artifact_publish: publishing artifacts to claude.ai has no equivalent",
            )
        )
    if case.expected_outcome:
        items.append(Item(NOT_IMPORTED, "expected_outcome: kept in IMPORTED.md as a note (nothing reads it)"))
    for key in case.ignored:
        items.append(Item(NOT_IMPORTED, f"{key}: unknown to CPE's schema (CPE ignores it too)"))
    for path in case.skipped_files:
        items.append(Item(NOT_IMPORTED, f"{path}: no front matter, so not a grader (CPE skips it too)"))
    if case.model:
        items.append(Item(TODO, f"the case's model is {case.model}: run with --models {case.model}"))
    if imported:
        if axis == "score":
            items.append(
                Item(
                    TODO,
                    "graders count in the cell's score only (CPE's pass, a score of 1, is correct "
                    "with --axis correct); "
                    "prove each grader on a reference that passes it and one that fails it "
                    "(good/ref.toml, bad/ref.toml: reply, tool_calls, graders = {...})",
                )
            )
        else:
            items.append(
                Item(
                    TODO,
                    "the graders decide correct: before the selftest passes, good/ref.toml needs the "
                    "reply and "
                    "tool_calls that pass them all and bad/ref.toml what fails one (graders = {...})",
                )
            )
    else:
        items.append(Item(TODO, "no grader was imported: the task measures cost, time and turns only"))


def imported_md(d: Draft, source: str) -> str:
    """IMPORTED.md: where the task came from and its checklist, for whoever opens the folder."""
    lines = [
        "# Imported from `claude plugin eval`",
        "",
        f"Case {d.case.name!r} from `{source}` ({d.case.source.replace('_', '.')}), "
        f"schema_version {d.case.schema_version}.",
    ]
    if d.plugins:
        lines.append(
            "Arm: the plugin(s) the case ran with, "
            + ", ".join(f"`{p.name}` ({p.path})" for p in d.plugins)
            + "; `baseline` is the run without."
        )
    if d.case.model:
        lines.append(f"Model: `{d.case.model}`.")
    if d.case.expected_outcome:
        lines += ["", "Expected outcome (CPE's note):", "", d.case.expected_outcome.strip()]
    for kind in KINDS:
        mine = [i.text for i in d.items if i.kind == kind]
        if mine:
            lines += ["", f"## {LABELS[kind]}", "", *(f"- [ ] {t}" for t in mine)]
    return "\n".join(lines) + "\n"
