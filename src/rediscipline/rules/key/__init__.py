"""KEY: key naming rules, one module each."""

from __future__ import annotations

from rediscipline.rules.base import Rule
from rediscipline.rules.key.length import KeyLength

# -- group A imports (characters and case) --
from rediscipline.rules.key.camel_case import CamelCase
from rediscipline.rules.key.forbidden_character import ForbiddenCharacter
from rediscipline.rules.key.glob_character import GlobCharacter
from rediscipline.rules.key.non_ascii import NonAscii
from rediscipline.rules.key.operator_separator import OperatorSeparator
from rediscipline.rules.key.special_character import SpecialCharacter
from rediscipline.rules.key.uppercase import Uppercase
# -- end group A imports --
# -- group B imports (hierarchy, hashtags, split keys) --
from rediscipline.rules.key.empty_segment import EmptySegment
from rediscipline.rules.key.hashtag_malformed import HashtagMalformed
from rediscipline.rules.key.hashtag_slot_skew import HashtagSlotSkew
from rediscipline.rules.key.hashtag_unneeded import HashtagUnneeded
from rediscipline.rules.key.segment_count import SegmentCount
from rediscipline.rules.key.split_key_form import SplitKeyForm
# -- end group B imports --
# -- group C imports (abbreviations, type and time segments, namespaces) --
from rediscipline.rules.key.abbreviation import Abbreviation
from rediscipline.rules.key.time_segment import TimeSegment
from rediscipline.rules.key.type_segment import TypeSegment
from rediscipline.rules.key.undeclared_namespace import UndeclaredNamespace
# -- end group C imports --

ALL: tuple[type[Rule], ...] = tuple(
    sorted(
        (
            KeyLength,
            # -- group A rules --
            ForbiddenCharacter,
            NonAscii,
            GlobCharacter,
            SpecialCharacter,
            Uppercase,
            CamelCase,
            OperatorSeparator,
            # -- end group A rules --
            # -- group B rules --
            SegmentCount,
            EmptySegment,
            HashtagMalformed,
            HashtagUnneeded,
            HashtagSlotSkew,
            SplitKeyForm,
            # -- end group B rules --
            # -- group C rules --
            Abbreviation,
            TypeSegment,
            TimeSegment,
            UndeclaredNamespace,
            # -- end group C rules --
        ),
        key=lambda cls: cls.meta.id,
    )
)
