"""VAL: value sizes, encodings and formats, one module each."""

from __future__ import annotations

from typing import Any

from rediscipline.rules.base import Rule
from rediscipline.rules.value.big_element import BigElement
from rediscipline.rules.value.collection_bytes import CollectionBytes
from rediscipline.rules.value.collection_elements import CollectionElements
from rediscipline.rules.value.compact_encoding_lost import CompactEncodingLost
from rediscipline.rules.value.compressible_value import CompressibleValue
from rediscipline.rules.value.object_as_strings import ObjectAsStrings
from rediscipline.rules.value.serialized_value import SerializedValue
from rediscipline.rules.value.string_size import StringSize

#: Every VAL rule, in rule-id order.
ALL: tuple[type[Rule[Any]], ...] = (
    StringSize,  # VAL001
    CollectionElements,  # VAL002
    CollectionBytes,  # VAL003
    CompactEncodingLost,  # VAL004
    ObjectAsStrings,  # VAL005
    SerializedValue,  # VAL006
    CompressibleValue,  # VAL007
    BigElement,  # VAL008
)
