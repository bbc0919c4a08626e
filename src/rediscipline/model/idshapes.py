"""Identifier shapes pattern inference recognises whole before it splits a key into runs.

Libraries write ids in shapes that contain separators of their own: a UUID has dashes, an e-mail address dots
and an `@`, an IPv6 address colons, a base64 token `+` and `/`, an ISO timestamp dashes and colons. Split
first at those characters, such ids break into pieces whose number and kind depend on the id's bytes (a UUID
whose first group is all letters, an e-mail with a dot in its local part), and one family of keys becomes
many patterns. So the shapes are found first, each as one span, and only the text between them is split.

What decides a shape is what every id of a family has (its alphabet, its length, its structure), never what
most of them have (a digit somewhere): one key of a family read as a word where the others read as an id
would be a pattern of its own.

A key holds few of these characters, so each search runs only when the key contains the byte it needs:
most keys cost one `bytes.translate` and nothing else.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterator

from rediscipline.model.keyname import (
    SLOT_DATE_DASHED,
    SLOT_DATETIME,
    SLOT_EMAIL,
    SLOT_IP,
    SLOT_TEXT,
    SLOT_TOKEN,
    SLOT_UUID,
    SLOT_WEEK,
)

_BOUNDARY = rb"(?<![0-9A-Za-z])"
_END = rb"(?![0-9A-Za-z])"
#: A UUID of any case, and an ISO date: read whole here, and by the run rules of `keypattern` too.
UUID = rb"[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}"
DATE = rb"(?:19|20)[0-9]{2}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01])"
_TIME = rb"[T ][0-2][0-9]:[0-5][0-9](?::[0-5][0-9](?:[.,][0-9]{1,9})?)?(?:Z|[+-][0-2][0-9]:?[0-5][0-9])?"
#: Shapes with a dash: a UUID of any case (any first group), an ISO date or timestamp, an ISO week.
_DASHED = re.compile(
    _BOUNDARY
    + rb"(?:(?P<uuid>"
    + UUID
    + rb")|(?P<datetime>"
    + DATE
    + _TIME
    + rb")|(?P<date>"
    + DATE
    + rb")|(?P<week>(?:19|20)[0-9]{2}-?W(?:0[1-9]|[1-4][0-9]|5[0-3])))"
    + _END
)
#: An e-mail address: the local part may hold bytes outside ASCII and one dot (`anna.meyer`): a dotted prefix
#: before it is the key's (`account:email.absolute.anna@x.io`).
_LOCAL = rb"[A-Za-z0-9_%+'\x80-\xff-]"
_EMAIL = re.compile(
    rb"(?<![A-Za-z0-9_%+'\x80-\xff-])"
    + _LOCAL
    + rb"+(?:\."
    + _LOCAL
    + rb"+)?@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
    + rb"(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.[A-Za-z]{2,24}"
    + _END
)
_IPV4 = re.compile(
    rb"(?<![0-9A-Za-z.])(?:(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])\.){3}"
    + rb"(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])(?![0-9]|\.[0-9])"
)
#: An IPv6 candidate: hex groups and colons with a `::` or all eight groups; `ipaddress` decides. A short
#: form needs a group of three digits or more (`fe80::1`) or, after a byte other than `:`, a leading `::`
#: and a group (`/::1/`): `a::1`, `a:::1` and a `::` between two parts of a code template are empty levels.
_IPV6 = re.compile(
    rb"(?<![0-9A-Za-z])(?:(?:[0-9A-Fa-f]{1,4}:){7}[0-9A-Fa-f]{1,4}"
    + rb"|(?:[0-9A-Fa-f]{1,4}(?::[0-9A-Fa-f]{1,4}){0,6})?::(?:[0-9A-Fa-f]{1,4}(?::[0-9A-Fa-f]{1,4}){0,6})?)"
    + rb"(?![0-9A-Za-z])"
)
#: A run of the standard base64 alphabet with a `+` or `/`, long enough to be a token (`=` padding allowed).
_BASE64 = re.compile(rb"(?<![A-Za-z0-9+/])[A-Za-z0-9+/]{16,}={0,2}(?![A-Za-z0-9+/=])")
#: A run of the base64url alphabet with a `-` or `_`.
_BASE64URL = re.compile(rb"(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{16,}={0,2}(?![A-Za-z0-9_=-])")
#: The values of `name=value` pairs, in a query string (`?q=shoes&page=2` keeps `q` and `page`) or a level
#: (`conj:auth_group:name=billing`): the names are the key's, the values vary.
_QUERY_VALUE = re.compile(rb"(?:(?<=[?&;:|,/#])|^)[A-Za-z_][A-Za-z0-9_.%\[\]-]*=([^=&;#?:|,/][^&;#?:|,/]*)")
#: A piece of a token that reads as a word: lower case, Capitalised, camelCase or ACRONYM, digits after.
_WORDLIKE = re.compile(rb"(?:[A-Za-z][a-z]*(?:[A-Z][a-z]+)*|[A-Z]+)?[0-9]*")
_HUMPS = re.compile(rb"[A-Z]?[a-z]+")
_VOWEL = re.compile(rb"[aeiouAEIOU]")
_TOKEN_PIECES = re.compile(rb"[+/_=-]+")
_HEX_OR_DIGITS = re.compile(rb"[0-9a-f]+|[0-9A-F]+")
_LOWER_WORD = re.compile(rb"[a-z]+")
HEX_RUN = re.compile(rb"[0-9A-Fa-f]+")
#: Hex digest widths: MD5, SHA-1, SHA-224, SHA-256, SHA-384, SHA-512 (and 16 for a half MD5).
DIGEST_WIDTHS = (128, 96, 64, 56, 40, 32, 16)
_MIN_TOKEN = 16
#: Lengths generated tokens have: base64url of 8, 12, 16, 24, 32, 48 and 64 bytes (`secrets.token_urlsafe`),
#: nanoid's 21, a UUID's 16 bytes in base64 (22, 24 padded), a KSUID's 27.
_TOKEN_LENGTHS = (86, 64, 43, 32, 27, 24, 22, 21, 16, 11)
#: The key's words before a token: lower-case letters and digits, joined by `_` or `-`, each word starting
#: with a letter.
_WORDS_PREFIX = re.compile(rb"[a-z][a-z0-9]*(?:[_-]+[a-z][a-z0-9]*)*[_-]*")
_LOWER_WORDS_PREFIX = re.compile(rb"(?:[a-z]+[_-])+")
#: Levels of a path around a token: lower-case words (two letters or more before it, three after) and numbers
#: after it. A token's own first or last piece is such a word or number once in hundreds of keys.
_LEADING_PATH_LEVEL = re.compile(rb"[a-z]{2,}")
_TRAILING_PATH_LEVEL = re.compile(rb"[a-z]{3,}|[0-9]+")
_DASHED_SLOTS = {"uuid": SLOT_UUID, "datetime": SLOT_DATETIME, "date": SLOT_DATE_DASHED, "week": SLOT_WEEK}

_DASH, _AT, _DOT, _COLON, _PLUS_SLASH, _UNDERSCORE, _EQUALS = 1, 2, 4, 8, 16, 32, 64


def _features(name: bytes) -> int:
    """Which searches a key needs, from the bytes it contains."""
    found = 0
    if b"-" in name:
        found |= _DASH
    if b"@" in name:
        found |= _AT
    if b"." in name:
        found |= _DOT
    if b"::" in name or name.count(b":") >= 7:
        found |= _COLON
    if b"+" in name or b"/" in name or b"=" in name:
        found |= _PLUS_SLASH
    if b"_" in name:
        found |= _UNDERSCORE
    if b"=" in name:
        found |= _EQUALS
    return found


def random_looking(run: bytes, *, words_allowed: bool = False) -> bool:
    """Whether a run of token characters reads as generated rather than written by a person.

    Its generated pieces (between `+ / _ - =`: three characters or more that are neither word-like, nor a hex
    or decimal number, nor a word with a hex digest glued on) are at least as long as its lower-case words: a
    token glued to a word (`token_0tD4rjxXM_2Z4wyPh6L3AQ`) is a token, a path with an id (`/api/items/Ab3x`)
    is not, and hex ids are left to the run rules (`session_5f3a2c9b_data` keeps its words). With
    `words_allowed` (a run with a `+` or `=` padding, which paths do not have, or of a length generators
    write) one generated piece, or upper and lower case, is enough.
    """
    generated = words = 0
    for piece in _TOKEN_PIECES.split(run):
        if len(piece) < 3:
            continue
        if _LOWER_WORD.fullmatch(piece) is not None:
            words += len(piece)
        elif not word_like(piece) and _HEX_OR_DIGITS.fullmatch(piece) is None and word_then_digest(piece) is None:
            generated += len(piece)
    if words_allowed:
        return generated >= 1 or (run.lower() != run and run.upper() != run)
    return generated >= max(words, 1)


def word_then_digest(run: bytes) -> int | None:
    """Where the hex digest starts in a run that is a word followed by a digest of a common length (MD5, SHA-1,
    SHA-256...): the same cut for every key of a family, whatever letters the digest starts with."""
    for width in DIGEST_WIDTHS:
        cut = len(run) - width
        if cut > 0 and run[:cut].isalpha() and HEX_RUN.fullmatch(run, cut) is not None:
            digest = run[cut:]
            digits = sum(48 <= byte <= 57 for byte in digest)
            # a digest mixes digits and letters, of many values (`AAAA…A10` is a word and a number)
            if width // 8 <= digits <= width - width // 8 and len(set(digest)) >= min(width // 2, 10):
                return cut
    return None


def mixed_case_token(run: bytes) -> bool:
    """A long run of letters only that mixes cases unlike any camelCase word (a base62 id without digits)."""
    return len(run) >= _MIN_TOKEN and run.isalpha() and run.lower() != run != run.upper() and not word_like(run)


def word_like(piece: bytes) -> bool:
    """Lower case, Capitalised, camelCase or an ACRONYM, digits after, and every hump of four letters or more
    has a vowel: random letters fall into camelCase humps now and then (`pBgGipeWpjy`), seldom with vowels in
    every long one (short humps are abbreviations: `msgId`, `cfgKey`), and a long name's humps are three
    letters long on average (`getUserProfileByIdAndName`)."""
    if _WORDLIKE.fullmatch(piece) is None:
        return False
    humps = _HUMPS.findall(piece)
    if len(humps) >= 6 and sum(map(len, humps)) < 3 * len(humps):
        return False  # many short humps: `MPeGpJtHxthqoVlOfFcqQw`
    return all(_VOWEL.search(hump) for hump in humps if len(hump) >= 4)


def find_shapes(name: bytes) -> list[tuple[int, int, str]]:
    """Spans `(start, end, slot)` of whole identifiers in `name`, in order and not overlapping."""
    features = _features(name)
    if not features:
        return []
    spans: list[tuple[int, int, str]] = []
    if features & _DASH:
        for match in _DASHED.finditer(name):
            spans.append((match.start(), match.end(), _DASHED_SLOTS[str(match.lastgroup)]))
    if features & _AT:
        spans.extend((m.start(), m.end(), SLOT_EMAIL) for m in _EMAIL.finditer(name))
    if features & _DOT:
        spans.extend((m.start(), m.end(), SLOT_IP) for m in _IPV4.finditer(name))
    if features & _COLON:
        spans.extend((m.start(), m.end(), SLOT_IP) for m in _IPV6.finditer(name) if _is_ipv6(name, m.start(), m.end()))
    if features & _EQUALS:
        spans.extend((m.start(1), m.end(1), SLOT_TEXT) for m in _QUERY_VALUE.finditer(name))
    if features & _PLUS_SLASH:
        spans.extend(_tokens(name, _BASE64, b"+/="))
    if features & (_DASH | _UNDERSCORE):
        spans.extend(_tokens(name, _BASE64URL, b"-_"))
    return _disjoint(spans) if len(spans) > 1 else spans


def _tokens(name: bytes, pattern: re.Pattern[bytes], marks: bytes) -> Iterator[tuple[int, int, str]]:
    for match in pattern.finditer(name):
        start, end = match.span()
        if marks == b"-_":
            start += _token_start(match.group())
        else:
            start, end = _between_path_words(name, start, end)
        token = name[start:end]
        if len(token.translate(None, marks)) == len(token):
            continue  # no separator of its own: the run rules judge it
        plain = b"+" in token or token.endswith(b"=") or (marks == b"-_" and end - start in _TOKEN_LENGTHS)
        if random_looking(token, words_allowed=plain):
            yield (start, end, SLOT_TOKEN)


def _between_path_words(name: bytes, start: int, end: int) -> tuple[int, int]:
    """A base64 candidate without the path levels around it (`gw/search/apikey/<token>/30/10/minute`): two
    or more `/`-separated lower-case words before it (the empty level of a leading `/` counts), and words or
    numbers after it, belong to the key. One short word before a `/` is as likely the token's own start, and a
    candidate glued to a word by `_` or `-` starts with its token."""
    pieces = name[start:end].split(b"/")
    first, last = 0, len(pieces)
    if not pieces[0]:
        first = 1  # the leading `/` of a path
    words = 0
    while first < last - 1 and _LEADING_PATH_LEVEL.fullmatch(pieces[first]):
        first += 1
        words += 1
    glued = start > 0 and name[start - 1] in b"_-"  # `flask_cache_<token>`: the token starts here
    if words < 2 or glued:
        first = 0
    start += sum(len(piece) + 1 for piece in pieces[:first])
    while last - 1 > first and _TRAILING_PATH_LEVEL.fullmatch(pieces[last - 1]):
        end -= len(pieces[last - 1]) + 1
        last -= 1
    return start, end


def _token_start(run: bytes) -> int:
    """Where the token starts in a base64url run that may begin with the key's words (`token_`, `flask_cache_`).

    `_` and `-` are both the key's separators and token characters, so no reading of the bytes can tell where
    a token glued to a word starts. Generators write tokens of fixed lengths, though: the token is the run's
    tail of the longest usual length after which only words and a separator remain, the same cut for every
    key of a family whatever its token's bytes. A token of another length starts after the lower-case words
    the run begins with (a token that itself begins with such a word and a `_` loses it to the key: rare).
    """
    if len(run) in _TOKEN_LENGTHS:
        return 0
    for length in _TOKEN_LENGTHS:
        cut = len(run) - length
        if cut > 1 and run[cut - 1] in b"_-" and _WORDS_PREFIX.fullmatch(run, 0, cut - 1) is not None:
            return cut
    words = _LOWER_WORDS_PREFIX.match(run)
    if words is not None and len(run) - words.end() >= _MIN_TOKEN:
        return words.end()
    return 0


def _is_ipv6(name: bytes, start: int, end: int) -> bool:
    text = name[start:end]
    if not any(48 <= byte <= 57 for byte in text):
        return False  # `abc::`, `cafe::beef`: words and empty levels
    if text.endswith(b"::") and end < len(name) and name[end] != 0x2F:
        return False  # `2024::` before more levels: empty levels after a number
    if text.startswith(b"::"):
        if text == b"::" or start == 0 or name[start - 1] == 0x3A:
            return False
    elif not any(len(group) >= 3 for group in text.split(b":")):
        return False
    try:
        ipaddress.IPv6Address(text.decode("ascii"))
    except ValueError:
        return False
    return True


def _disjoint(spans: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    """Keep the spans found first (the searches run from the most specific shape: whole identifiers, base64
    tokens, then base64url ones) that overlap no kept one."""
    kept: list[tuple[int, int, str]] = []
    for span in spans:
        if all(span[1] <= other[0] or span[0] >= other[1] for other in kept):
            kept.append(span)
    kept.sort()
    return kept
