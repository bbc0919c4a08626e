"""What a module may ask of the project it is checked with: other modules' exports, classes and evidence.

A protocol of its own, so that the module reader (module.py) and the project tables (project.py) do not
import each other.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from rediscipline.sources.code.definitions import Definitions
    from rediscipline.sources.code.evidence import Evidence
    from rediscipline.sources.code.kinds import Kind
    from rediscipline.sources.code.module import ClassInfo


class Project(Protocol):
    def resolve(self, importer: str, module: str | None, level: int) -> str | None:
        """The project module an import names (see `ProjectExports.resolve`)."""

    def defined(self, module: str) -> Definitions | None:
        """The constants, key builders and classes a project module offers."""

    def global_kind(self, module: str, name: str) -> Kind | None:
        """What a module-level name of a project module holds."""

    def function_kind(self, module: str, name: str) -> Kind | None:
        """What a function of a project module returns."""

    def type_alias(self, qualified: str) -> Kind | None:
        """What a type alias of a project module names (`pkg._typing.ClientType` → a client)."""

    def class_info(self, qualname: str) -> ClassInfo | None:
        """A class of the project, by qualified name."""

    def evidence(self, identity: str) -> Evidence | None:
        """The evidence on a receiver, over every module of the project."""

    def is_own(self, package: str) -> bool:
        """Whether a top-level name is a package or module of the checked project."""

    def is_module(self, qualified: str) -> bool:
        """Whether a dotted name is a module of the checked project."""

    def constructed_kinds(self, qualname: str, parameter: str) -> set[Kind]:
        """The kinds of the arguments the run's modules pass for a parameter of a project class's `__init__`."""

    def fixture_kind(self, name: str) -> Kind | None:
        """What the pytest fixture of that name in a `conftest.py` provides (one kind for all of them)."""
