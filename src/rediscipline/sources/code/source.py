"""Read one Python file into facts: decode it as Python does, parse it, extract the Redis calls.

A file that cannot be read, decoded or parsed gives a `ParseProblem` (path, line, column, reason) instead
of facts; the caller reports it in one line and goes on with the other files. `CodeSource` is the Source of
a run over Python files.
"""

from __future__ import annotations

import ast
import io
import tokenize
import warnings
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from rediscipline.model.code import FileDirectives
from rediscipline.model.location import SOURCE_CODE
from rediscipline.model.note import note
from rediscipline.model.plan import ProbePlan
from rediscipline.model.source import Fact, SourceOutcome
from rediscipline.sources.code.declarations import ReadCache, read_module
from rediscipline.sources.code.definitions import Definitions, module_definitions
from rediscipline.sources.code.directives import read_directives
from rediscipline.sources.code.extract import Facts, ModuleExtractor
from rediscipline.sources.code.files import SourceFile
from rediscipline.sources.code.module import ModuleInfo
from rediscipline.sources.code.project import ProjectExports, module_name
from rediscipline.sources.code.receivers import may_use_redis

#: How many times the project's modules are read against each other's exports, at most.
PROJECT_PASSES = 3


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


@dataclass(frozen=True, slots=True)
class ParsedFile:
    """A Python file read and parsed; `tree` is None when nothing in it can concern Redis (see
    `receivers.may_use_redis`), so only its suppression comments are kept."""

    source: SourceFile
    directives: FileDirectives
    tree: ast.Module | None
    lines: list[str]  # only kept with a tree
    module: str  # its dotted name in the project (`shop.extensions`)
    #: without a tree: its top-level `from X import a, b` as (X, level, names), to notice imported clients
    #: without a tree: its top-level `from X import a as b` as (X, level, ((a, b), ...)), to notice imported
    #: clients and to follow names a package re-exports (`from .client import Redis` in `__init__.py`)
    imports: tuple[tuple[str | None, int, tuple[tuple[str, str], ...]], ...] = ()
    definitions: Definitions | None = None  # constants and key builders it offers to other modules

    def imports_client(self, project: ProjectExports) -> bool:
        """Whether this module imports from another module of the project something that is or leads to a
        client (a client, a factory, a class holding one)."""
        for module, level, names in self.imports:
            source = project.resolve(self.module, module, level)
            if source is not None and any(project.leads_to_clients(source, name) for name, _local in names):
                return True
        return False

    def facts(
        self, project: ProjectExports | None = None, info: ModuleInfo | None = None, forced: ForcedFiles | None = None
    ) -> FileFacts | ParseProblem:
        """The module's facts; `info` is its declarations when the project pass already read them, from the
        tree in `forced` when the project pass had to parse it again (see `read_project`)."""
        reparsed = forced.get(self.source.shown) if forced is not None else None
        if self.tree is None and reparsed is not None:
            return reparsed.facts(project, info)
        if self.tree is None and project is not None and self.imports_client(project):
            again = parse_python(self.source, force=True)  # rare: read it again rather than keep every tree
            return again.facts(project) if isinstance(again, ParsedFile) else again
        if self.tree is None:
            return FileFacts(Facts(), self.directives)
        try:
            info = info if info is not None else read_module(self.tree, self.module, project)
            facts = ModuleExtractor(self.tree, self.source.shown, self.lines, info).run()
        except RecursionError:
            return ParseProblem(self.source.shown, None, None, "nested too deeply to analyse")
        return FileFacts(facts, self.directives)


#: Files the project pass parsed again, by path: their text names nothing of Redis, but the project builds
#: one of their classes with a client (`PageFilter(conn)`), so what their `__init__` stores is followed.
ForcedFiles = dict[str, "ParsedFile"]


def read_project(files: Sequence[ParsedFile]) -> tuple[ProjectExports, dict[str, ModuleInfo], ForcedFiles]:
    """Read the declarations of every module that may concern Redis, against each other's exports, until
    the project's tables stop changing (at most PROJECT_PASSES times); then, once, the modules whose
    classes the others build with a client. Return the tables, each module's declarations by path, and
    the files parsed again."""
    project = ProjectExports()
    for file in files:
        project.add_module(file.module, package=file.source.path.stem == "__init__")
        if file.definitions is not None:
            project.record_definitions(file.module, file.definitions)
    for file in files:
        if file.tree is not None or file.source.path.stem != "__init__":
            continue  # a package re-exports what its modules define (walked modules record their own)
        for module, level, names in file.imports:
            source = project.resolve(file.module, module, level)
            for name, local in names:
                if source is not None:
                    project.record_reexport(file.module, local, f"{source}.{name}")
    infos: dict[str, ModuleInfo] = {}
    caches: dict[str, ReadCache] = {}  # what each tree gives whatever the project knows, read once
    walked = [file for file in files if file.tree is not None]
    forced: ForcedFiles = {}
    _read_passes(project, walked, infos, caches)
    built = project.built_with_clients()
    for file in files:
        if file.tree is None and file.module in built:
            again = parse_python(file.source, force=True)
            if isinstance(again, ParsedFile):
                forced[file.source.shown] = again
    if forced:
        _read_passes(project, [*walked, *forced.values()], infos, caches)
    return project, infos, forced


def _read_passes(
    project: ProjectExports, walked: list[ParsedFile], infos: dict[str, ModuleInfo], caches: dict[str, ReadCache]
) -> None:
    for number in range(PROJECT_PASSES):
        changed = False
        for file in walked:
            assert file.tree is not None
            known = infos.get(file.source.shown)
            try:
                cache = caches.setdefault(file.source.shown, ReadCache())
                info = read_module(file.tree, file.module, project, known.receivers if known else None, cache)
            except RecursionError:
                continue  # reported when its facts are read
            if known is None:
                project.record_receivers(info.receivers)
            changed = project.record(file.module, info) or changed
            infos[file.source.shown] = info
        if not changed and number:
            break


def parse_python(source: SourceFile, *, force: bool = False) -> ParsedFile | ParseProblem:
    """Read, decode (PEP 263) and parse one Python file, or say why it cannot be.

    The tree is kept only when the text may concern Redis (or `force`); otherwise only the directives and
    the top-level imports, which the project pass needs.
    """
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
    directives = read_directives(text, source.shown)
    definitions = module_definitions(tree)
    if not force and not may_use_redis(text):
        imports = tuple(
            (node.module, node.level, tuple((alias.name, alias.asname or alias.name) for alias in node.names))
            for node in tree.body
            if isinstance(node, ast.ImportFrom)
        )
        return ParsedFile(source, directives, None, [], module_name(source.shown), imports, definitions or None)
    return ParsedFile(source, directives, tree, text.splitlines(), module_name(source.shown), (), definitions or None)


class CodeSource:
    """Python files as a source: key templates, commands and call sites of each file, and its suppression
    comments. Files that cannot be read or parsed are listed in `problems` (after the facts were read).

    `count_note`: say how many Python files were checked even when there were none (no config file either).
    """

    place = SOURCE_CODE
    counts_keys = False

    def __init__(self, files: Sequence[SourceFile], *, count_note: bool = True) -> None:
        self.files = tuple(files)
        self.inputs = tuple(f.shown for f in self.files)
        self.count_note = count_note
        self.problems: list[ParseProblem] = []

    def facts(self, plan: ProbePlan) -> Iterator[Fact]:
        """Two passes: the first parses every file and reads the declarations of the modules that may concern
        Redis against each other's (what each exports: clients, factories, classes, receiver evidence), so
        that the second resolves `from shop.extensions import cache` in the modules that import them."""
        self.problems = []
        parsed: list[ParsedFile] = []
        for source in self.files:
            read = parse_python(source)
            if isinstance(read, ParseProblem):
                self.problems.append(read)
                continue
            parsed.append(read)
        project, declarations, forced = read_project(parsed)
        for file in parsed:
            facts = file.facts(project, declarations.get(file.source.shown), forced)
            if isinstance(facts, ParseProblem):
                self.problems.append(facts)
                continue
            yield facts.directives
            yield from facts.facts.keys
            yield from facts.facts.commands
            yield from facts.facts.calls

    def outcome(self) -> SourceOutcome:
        notes = [note("python-files", files=len(self.files))] if self.files or self.count_note else []
        if self.problems:
            notes.append(note("unparsed-files", files=len(self.problems)))
        return SourceOutcome(tuple(notes))
