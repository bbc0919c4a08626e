"""Read one Python file into facts: decode it as Python does, parse it, extract the Redis calls.

A file that cannot be read, decoded or parsed gives a `ParseProblem` (path, line, column, reason) instead
of facts; the caller reports it in one line and goes on with the other files.
"""

from __future__ import annotations

import ast
import io
import tokenize
import warnings
from dataclasses import dataclass

from rediscipline.model.code import FileDirectives
from rediscipline.sources.code.directives import read_directives
from rediscipline.sources.code.extract import Facts, ModuleExtractor
from rediscipline.sources.code.files import SourceFile
from rediscipline.sources.code.receivers import may_use_redis


@dataclass(frozen=True, slots=True)
class ParseProblem:
    """Why a file gave no facts: it could not be read, decoded or parsed."""

    path: str
    line: int | None
    column: int | None
    reason: str

    def __str__(self) -> str:
        where = self.path
        if self.line is not None:
            where += f":{self.line}" + (f":{self.column}" if self.column is not None else "")
        return f"{where}: {self.reason}"


@dataclass(frozen=True, slots=True)
class FileFacts:
    facts: Facts
    directives: FileDirectives


def read_python(source: SourceFile) -> FileFacts | ParseProblem:
    """The facts and suppression comments of one Python file, or why there are none."""
    try:
        data = source.path.read_bytes()
    except OSError as error:
        return ParseProblem(source.shown, None, None, f"cannot read: {error.strerror or error}")
    try:
        encoding, _lines = tokenize.detect_encoding(io.BytesIO(data).readline)
        text = data.decode(encoding)
    except (SyntaxError, LookupError, UnicodeDecodeError) as error:
        return ParseProblem(source.shown, None, None, f"cannot decode: {error}")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # invalid escape sequences and the like are not ours to report
            tree = ast.parse(text, filename=source.shown)
    except SyntaxError as error:
        message = error.msg or "invalid syntax"
        return ParseProblem(source.shown, error.lineno, error.offset, f"does not parse: {message}")
    except (ValueError, RecursionError, MemoryError) as error:
        return ParseProblem(source.shown, None, None, f"does not parse: {type(error).__name__}: {error}")
    if not may_use_redis(text):
        return FileFacts(Facts(), read_directives(text, source.shown))
    lines = text.splitlines()
    try:
        facts = ModuleExtractor(tree, source.shown, lines).run()
    except RecursionError:
        return ParseProblem(source.shown, None, None, "nested too deeply to analyse")
    return FileFacts(facts, read_directives(text, source.shown))
