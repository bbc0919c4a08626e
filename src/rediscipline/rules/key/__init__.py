"""KEY: key naming rules, one module each."""

from __future__ import annotations

from typing import Any

from rediscipline.rules.base import Rule
from rediscipline.rules.key.abbreviation import Abbreviation
from rediscipline.rules.key.camel_case import CamelCase
from rediscipline.rules.key.empty_segment import EmptySegment
from rediscipline.rules.key.forbidden_character import ForbiddenCharacter
from rediscipline.rules.key.glob_character import GlobCharacter
from rediscipline.rules.key.hashtag_malformed import HashtagMalformed
from rediscipline.rules.key.hashtag_slot_skew import HashtagSlotSkew
from rediscipline.rules.key.hashtag_unneeded import HashtagUnneeded
from rediscipline.rules.key.length import KeyLength
from rediscipline.rules.key.non_ascii import NonAscii
from rediscipline.rules.key.operator_separator import OperatorSeparator
from rediscipline.rules.key.segment_count import SegmentCount
from rediscipline.rules.key.special_character import SpecialCharacter
from rediscipline.rules.key.split_key_form import SplitKeyForm
from rediscipline.rules.key.time_segment import TimeSegment
from rediscipline.rules.key.type_segment import TypeSegment
from rediscipline.rules.key.undeclared_namespace import UndeclaredNamespace
from rediscipline.rules.key.uppercase import Uppercase

#: Every KEY rule, in rule-id order.
ALL: tuple[type[Rule[Any]], ...] = (
    ForbiddenCharacter,  # KEY001
    NonAscii,  # KEY002
    GlobCharacter,  # KEY003
    SpecialCharacter,  # KEY004
    KeyLength,  # KEY005
    Uppercase,  # KEY006
    CamelCase,  # KEY007
    SegmentCount,  # KEY008
    EmptySegment,  # KEY009
    OperatorSeparator,  # KEY010
    HashtagMalformed,  # KEY011
    HashtagUnneeded,  # KEY012
    HashtagSlotSkew,  # KEY013
    SplitKeyForm,  # KEY014
    Abbreviation,  # KEY015
    TypeSegment,  # KEY016
    TimeSegment,  # KEY017
    UndeclaredNamespace,  # KEY018
)
