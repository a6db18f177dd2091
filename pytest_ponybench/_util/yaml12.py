"""YAML as Claude Code's own parser reads it, for the files of its formats that ponybench reads
as they are (a `claude plugin eval` case, its prose graders, its MCP mocks' front matter).

YAML 1.2: `yes`, `no`, `on`, `off` are strings, not booleans; an integer is decimal (`010` is
10), `0o` octal or `0x` hex (`0b1`, `1_000` and `1:30` are strings); a key given twice is an error.
A document whose aliases would expand to more than MAX_YAML_NODES values (a "billion laughs" of
a few lines) or that nests deeper than MAX_YAML_DEPTH is refused before anything is built of it
(`YamlProblem.hostile`). Problems come without the file's name: the caller names it.
"""

from __future__ import annotations

import re
from typing import Any

import yaml

from pytest_ponybench.errors import excerpt

__all__ = ["FRONT_MATTER", "MAX_YAML_DEPTH", "MAX_YAML_NODES", "YamlProblem", "read", "split_front_matter"]

# What a file may build: values counted as the document would read with every alias expanded
# (a case is a few hundred), and nesting (a case is five deep).
MAX_YAML_NODES = 100_000
MAX_YAML_DEPTH = 64
FRONT_MATTER = re.compile(r"\A---[ \t]*\r?\n(.*?)(?:\r?\n)?^---[ \t]*(?:\r?\n|\Z)", re.S | re.M)


class YamlProblem(Exception):
    """Why a text is not YAML this reader builds; `hostile` when it was made to exhaust memory
    or the stack (a caller refuses more than the one file then)."""

    def __init__(self, message: str, hostile: bool = False) -> None:
        super().__init__(message)
        self.hostile = hostile


class _TooBig(Exception):
    """A document refused before it is built: its expanded size or its depth."""


def _measure(root: yaml.Node) -> None:
    """Refuse a node graph over MAX_YAML_NODES once aliases are expanded, or over MAX_YAML_DEPTH
    deep. Each distinct node is visited once (sizes are memoised), without recursion, so a bomb
    of nested aliases is measured in the time of its few lines."""
    size: dict[int, int] = {}
    stack: list[tuple[yaml.Node, int, bool]] = [(root, 1, False)]
    on_path: set[int] = set()
    while stack:
        node, depth, done = stack.pop()
        if depth > MAX_YAML_DEPTH:
            raise _TooBig(f"nests deeper than {MAX_YAML_DEPTH} levels")
        children = _children(node)
        if done:
            on_path.discard(id(node))
            total = 1 + sum(size[id(c)] for c in children)
            if total > MAX_YAML_NODES:
                raise _TooBig(f"expands to more than {MAX_YAML_NODES} values (aliases of aliases?)")
            size[id(node)] = total
            continue
        if id(node) in size:
            continue
        if id(node) in on_path:
            raise _TooBig("holds an alias to itself")
        on_path.add(id(node))
        stack.append((node, depth, True))
        stack += [(c, depth + 1, False) for c in children if id(c) not in size]


def _children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    if isinstance(node, yaml.MappingNode):
        return [n for pair in node.value for n in pair]
    return []


class _Yaml12Loader(yaml.SafeLoader):
    """PyYAML's safe loader with YAML 1.2 booleans and duplicate keys refused, and every
    document measured (`_measure`) before it is built."""

    _depth = 0

    def fetch_flow_collection_start(self, TokenClass: Any) -> None:  # noqa: N803 (PyYAML's name)
        # The scanner looks ahead over every open `[`/`{` for each token (quadratic in the
        # depth), before the composer sees the first: stop it at the cap too.
        if self.flow_level >= MAX_YAML_DEPTH:
            raise _TooBig(f"nests deeper than {MAX_YAML_DEPTH} levels")
        super().fetch_flow_collection_start(TokenClass)

    def compose_node(self, parent: yaml.Node | None, index: Any) -> yaml.Node | None:
        # The composer recurses once per level: stop at the cap, long before Python's limit.
        self._depth += 1
        try:
            if self._depth > MAX_YAML_DEPTH:
                raise _TooBig(f"nests deeper than {MAX_YAML_DEPTH} levels")
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1

    def get_single_node(self) -> yaml.Node | None:
        node: yaml.Node | None = super().get_single_node()
        if node is not None:
            _measure(node)
        return node


_BOOL = "tag:yaml.org,2002:bool"
_INT = "tag:yaml.org,2002:int"
# The 1.2 core schema's integers; PyYAML's (1.1) read a leading 0 as octal, and 0b, _ and : too.
_INT_12 = re.compile(r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$")

_Yaml12Loader.yaml_implicit_resolvers = {
    first: [(tag, rx) for tag, rx in resolvers if tag not in (_BOOL, _INT)]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
_Yaml12Loader.add_implicit_resolver(
    _BOOL, re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF")
)
_Yaml12Loader.add_implicit_resolver(_INT, _INT_12, list("-+0123456789"))


def _int(loader: yaml.SafeLoader, node: yaml.ScalarNode) -> int:
    text = str(loader.construct_scalar(node))
    if not _INT_12.match(text):
        raise yaml.constructor.ConstructorError(
            None, None, f"{excerpt(text)} is not a YAML 1.2 integer", node.start_mark
        )
    if text.startswith("0o"):
        return int(text[2:], 8)
    if text.startswith("0x"):
        return int(text[2:], 16)
    return int(text, 10)


_Yaml12Loader.add_constructor(_INT, _int)


def _mapping(loader: yaml.SafeLoader, node: yaml.MappingNode) -> dict[Any, Any]:
    seen: set[Any] = set()
    for key_node, _ in node.value:
        key = loader.construct_object(key_node, deep=True)
        if isinstance(key, str | int | float | bool) and key in seen:
            raise yaml.constructor.ConstructorError(
                None, None, f"key {excerpt(key)} is given twice", key_node.start_mark
            )
        seen.add(key if isinstance(key, str | int | float | bool) else id(key_node))
    return loader.construct_mapping(node, deep=True)


_Yaml12Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _mapping)


def read(text: str) -> Any:
    """The document in text; YamlProblem says why it is not one (with the line, where known)."""
    try:
        return yaml.load(text, Loader=_Yaml12Loader)  # noqa: S506 (a SafeLoader subclass)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        at = f" at line {mark.line + 1}" if mark is not None else ""
        raise YamlProblem(f"not valid YAML{at}: {exc.problem or exc.context}") from exc
    except yaml.YAMLError as exc:
        raise YamlProblem(f"not valid YAML: {' '.join(str(exc).split())[:200]}") from exc
    except _TooBig as exc:
        raise YamlProblem(f"refused: the YAML {exc}", hostile=True) from None
    except RecursionError:  # the parser's own recursion, below MAX_YAML_DEPTH's check
        raise YamlProblem("refused: the YAML nests too deep to read", hostile=True) from None
    except ValueError as exc:  # e.g. an integer of more digits than Python converts
        raise YamlProblem(f"not valid YAML: {' '.join(str(exc).split())[:200]}") from None


def split_front_matter(text: str) -> tuple[str | None, str]:
    """(the front matter's YAML text, the body) of a Markdown file; None when it has none. An
    opening `---` with no closing one is a YamlProblem."""
    match = FRONT_MATTER.match(text)
    if match is None:
        if re.match(r"\A---[ \t]*\r?\n", text):
            raise YamlProblem("unterminated front matter (an opening '---' with no closing '---')")
        return None, text
    return match[1], text[match.end() :]
