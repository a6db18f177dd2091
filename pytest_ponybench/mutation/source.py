"""A source file's text as the mutators edit it: an `Edit` replaces one span of it, and a
`Source` turns ast positions (lines from 1, columns in UTF-8 bytes) into offsets."""

from __future__ import annotations

import ast
from dataclasses import dataclass

__all__ = ["Edit", "Source"]


@dataclass(frozen=True)
class Edit:
    """Replace text[start:end] with `text`: one mutation of one source file."""

    operator: str
    start: int
    end: int
    text: str


class Source:
    """A file's text with ast positions (lines from 1, columns in UTF-8 bytes) as offsets."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.lines = text.splitlines(keepends=True)
        self.starts = [0]
        for line in self.lines:
            self.starts.append(self.starts[-1] + len(line))

    def offset(self, lineno: int, col: int) -> int:
        line = self.lines[lineno - 1] if lineno - 1 < len(self.lines) else ""
        return self.starts[lineno - 1] + len(line.encode("utf-8")[:col].decode("utf-8", "replace"))

    def span(self, node: ast.AST) -> tuple[int, int]:
        """(start, end) offsets of a node that has positions (an expr, stmt or keyword)."""
        lineno, col, end_lineno, end_col = (
            getattr(node, key) for key in ("lineno", "col_offset", "end_lineno", "end_col_offset")
        )
        return self.offset(lineno, col), self.offset(end_lineno, end_col)

    def segment(self, node: ast.AST) -> str:
        start, end = self.span(node)
        return self.text[start:end]

    def line_of(self, offset: int) -> int:
        """1-based line of a character offset."""
        lo, hi = 0, len(self.starts) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if self.starts[mid] <= offset:
                lo = mid
            else:
                hi = mid - 1
        return lo + 1
