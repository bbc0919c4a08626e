"""KEY015 abbreviation."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cached_property
from types import MappingProxyType

from rediscipline.model.finding import Violation
from rediscipline.model.keyname import KeyTemplate
from rediscipline.model.severity import Severity
from rediscipline.model.text import Text
from rediscipline.rules.base import NameRule, RuleContext, Span, rule
from rediscipline.rules.key.overlaps import NAME_OVERLAPS
from rediscipline.rules.key.template_parts import (
    NAMING_CHECKS,
    level_extents,
    literal_pieces,
    quoted,
    segment_word_spans,
    show,
)
from rediscipline.rules.options import RuleOptions, option

#: Short forms every developer reads without a glossary: they never count as cryptic. Two-letter English
#: words (`by`, `at`) are here too: they are words, not abbreviations.
KNOWN = (
    # two letters
    "id", "ip", "ts", "uv", "pv", "db", "ok", "os", "ui", "qr", "io", "im", "ad", "ai", "ab", "pc", "tv",
    "kv", "mq", "en", "zh", "cn", "us",
    "at", "by", "to", "in", "on", "of", "up", "no", "or", "is", "me", "my", "do", "go",
    # longer ones, listed so that a team's `ambiguous` table can never catch them
    "vip", "sms", "api", "url", "uri", "uid", "pid", "sku", "gid", "oid", "mid", "msg", "num", "cnt", "img",
    "ugc", "ttl", "qps", "cdn", "otp", "pwd", "cfg", "env", "app", "max", "min", "avg", "seq", "idx", "tmp",
    "addr", "info", "config", "stat", "stats", "desc", "txn", "gps",
)  # fmt: skip

#: Vowel-dropped or truncated forms that 004 §5.2 calls ambiguous (`usr:prf`), with the word they hide.
AMBIGUOUS = MappingProxyType(
    {
        "usr": "user",
        "prf": "profile",
        "prfl": "profile",
        "ordr": "order",
        "ord": "order",
        "prd": "product",
        "prdt": "product",
        "prod": "product / production",
        "cstmr": "customer",
        "cust": "customer",
        "acc": "account / access",
        "acct": "account",
        "sess": "session",
        "tkn": "token",
        "itm": "item",
        "pmt": "payment",
        "pymt": "payment",
        "inv": "inventory / invoice",
        "stk": "stock",
        "ctgy": "category",
        "lvl": "level",
        "cmt": "comment",
        "rcd": "record",
        "hst": "history",
        "ntf": "notification",
        "grp": "group",
        "mbr": "member",
        "chnl": "channel",
        "rnk": "rank",
        "scr": "score",
    }
)

#: Team abbreviations used by `policy = "abbreviate"` (the documents' own examples plus common ones).
ABBREVIATIONS = MappingProxyType(
    {
        "economic": "ec",  # 000
        "file_path": "fp",  # 000
        "address": "addr",  # 001
        "unique_visitor": "uv",  # 002
        "page_view": "pv",
        "information": "info",
        "identifier": "id",
        "configuration": "config",
        "message": "msg",
        "number": "num",
    }
)


@dataclass(frozen=True)
class AbbreviationOptions(RuleOptions):
    policy: str = option(
        "readable",
        "`readable`: report cryptic abbreviations; `abbreviate`: report words that have a team abbreviation; "
        "`off`: no abbreviation check (the verbose-segment check still applies).",
        choices=("readable", "abbreviate", "off"),
    )
    max_cryptic: int = option(1, "readable: cryptic words allowed in one key.", minimum=0)
    min_readable: int = option(
        1, "readable: a key with a cryptic word needs at least this many readable words (0 = off).", minimum=0
    )
    known: tuple[str, ...] = option(KNOWN, "Well-known short forms that are never cryptic.")
    extend_known: tuple[str, ...] = option((), "More well-known short forms, added to `known`.")
    ambiguous: Mapping[str, str] = option(AMBIGUOUS, "Ambiguous abbreviations (→ the word they stand for).")
    abbreviations: Mapping[str, str] = option(ABBREVIATIONS, "abbreviate: team abbreviations (word → short form).")
    max_word_bytes: int = option(32, "Report a segment whose literal text is longer than this (0 = off).", minimum=0)

    # Normalised lookup tables, built once per options object (not per template). A frozen dataclass
    # without slots keeps an instance __dict__, which is where cached_property stores its value.
    @cached_property
    def known_words(self) -> frozenset[str]:
        return frozenset(_norm(w) for w in (*self.known, *self.extend_known))

    @cached_property
    def ambiguous_words(self) -> dict[str, str]:
        return {_norm(k): v for k, v in self.ambiguous.items()}

    @cached_property
    def abbreviation_table(self) -> dict[str, str]:
        return {_norm(k): v for k, v in self.abbreviations.items()}


def _norm(text: str) -> str:
    """Mapping keys compare case-insensitively, and `file path`, `file-path` and `file_path` are one phrase."""
    return text.strip().lower().replace(" ", "_").replace("-", "_").replace(".", "_")


@rule(
    "KEY015",
    "abbreviation",
    title=("Cryptic or missing abbreviation", "缩写含义模糊或未使用约定缩写"),
    severity=Severity.NOTE,
    where=NAMING_CHECKS,
    sources=(
        "000 §Key 名字如何设计 — 命名",
        "001 §1.3 简洁性",
        "002 §规范一：key 的命名规范",
        "003 §Key设计原则 — 1. 可读性优先",
        "003 §Key设计原则 — 3. 简洁性",
        "004 §5.2 避免的问题 — 避免缩写模糊",
    ),
    overlaps=NAME_OVERLAPS,
)
class Abbreviation(NameRule[AbbreviationOptions]):
    """Checks that abbreviations in key names are readable, or that the team's abbreviations are used.

    ## What it does
    The documents disagree, so the rule has a policy. With `readable` (the default) it reports a key whose
    words are cryptic: a word of one or two letters that is not a well-known short form (`u`, `p`), or a
    known ambiguous abbreviation (`usr`, `prf`). One cryptic word is tolerated when the key also has a
    readable word (`u:{uid}:addr:{name}`, `uv:page:1024`); two cryptic words, or a key made of cryptic words
    only (`o:20231201001`), are reported. With `abbreviate` it reports long words that have a team
    abbreviation (`economic` where the team writes `ec`). With both policies, and with `off`, it reports a
    single level longer than `max-word-bytes` (`user_session_authentication_token_for_mobile_app`).
    Only wholly literal levels are read: `u12345` or `abc123` are values, not words.

    At run time (the guard), every key the application sends is judged by its name, as a key read from a
    server is.

    ## Why is this bad?
    A key is read by people during incidents: `u:p:10086` or `usr:prf:id:12345` must be decoded from
    memory, and two teams may decode `prd` as product and production. Abbreviations do save memory on
    millions of keys, so 000, 001 and 002 encourage the team's own short forms; the point is that they are
    agreed, not invented per key. A single very long level (a sentence joined by underscores) costs memory
    on every key and is no easier to read than a short namespaced one.

    ## Example
    ```
    u:p:10086
    usr:prf:id:12345
    o:20231201001
    user_session_authentication_token_for_mobile_app:abc123
    ```

    ## Use instead
    ```
    user:profile:10086
    user:profile:id:12345
    order:20231201001
    session:token:abc123
    ```

    ## Options
    - `policy`: `readable` (default, 003 and 004), `abbreviate` (000, 001, 002: use the team's short forms) or `off`.
    - `max-cryptic`: cryptic words allowed in one key (default 1, so 001's `u:{uid}:addr:{name}` passes).
    - `min-readable`: a key with a cryptic word needs this many readable words (default 1; 0 = off).
    - `known`: well-known short forms, never cryptic (`id`, `ip`, `ts`, `uv`, `pv`, `sms`, `uid`, `sku`, …).
    - `extend-known`: more well-known short forms, added to `known` without repeating it.
    - `ambiguous`: ambiguous abbreviations and the words they stand for (`usr` → user, `prf` → profile, …).
    - `abbreviations`: with `abbreviate`, the team's short forms (`economic` → `ec`, `file_path` → `fp`, …).
    - `max-word-bytes`: longest literal level in bytes (default 32; 0 = off).

    ## Source
    - 000 §Key 名字如何设计 — 命名: use English short forms for common words (economic → ec, file path → fp).
    - 001 §1.3 简洁性: `user:{uid}:address:{name}` → `u:{uid}:addr:{name}`.
    - 002 §规范一：key 的命名规范: initials or abbreviations (user → u, message → m, unique visitor → uv).
    - 003 §Key设计原则 — 1. 可读性优先: `u:p:10086` and `o:20231201001` are not recommended.
    - 003 §Key设计原则 — 3. 简洁性: `user_session_authentication_token_for_mobile_app:abc123` is too verbose.
    - 004 §5.2 避免的问题 — 避免缩写模糊: `usr:prf:id:12345` is not recommended.
    """

    Options = AbbreviationOptions

    def check(
        self, key: KeyTemplate, key_type: str | None, ctx: RuleContext[AbbreviationOptions]
    ) -> Iterator[Violation]:
        opts = ctx.options
        if opts.policy == "readable":
            yield from self._cryptic(key, opts)
        elif opts.policy == "abbreviate":
            yield from self._abbreviate(key, opts)
        if opts.max_word_bytes:
            yield from self._verbose(key, opts)

    def _cryptic(self, key: KeyTemplate, opts: AbbreviationOptions) -> Iterator[Violation]:
        known, ambiguous = opts.known_words, opts.ambiguous_words
        cryptic: list[str] = []
        spans: list[Span] = []
        readable = 0
        for level in _words(key):
            for word, span in level:
                lower = word.lower()
                if lower in known:
                    readable += 1
                elif lower in ambiguous:
                    cryptic.append(f"{word} ({ambiguous[lower]})")
                    spans.append(span)
                elif len(word) <= 2 and word.isascii() and word.isalpha():
                    cryptic.append(word)
                    spans.append(span)
                elif any(ch.isalpha() for ch in word):
                    readable += 1
        too_many = len(cryptic) > opts.max_cryptic
        unreadable = bool(cryptic) and readable < opts.min_readable
        if too_many or unreadable:
            yield Violation(
                "cryptic",
                Text(
                    f"cryptic abbreviations {quoted(cryptic)}: spell the words out (user:profile, not u:p)",
                    f"含义模糊的缩写 {quoted(cryptic)}：请写出完整单词（user:profile，而不是 u:p）",
                ),
                value=len(cryptic),
                spans=tuple(spans),
            )

    def _abbreviate(self, key: KeyTemplate, opts: AbbreviationOptions) -> Iterator[Violation]:
        table = opts.abbreviation_table
        if not table:
            return
        longest = max(k.count("_") for k in table) + 1
        found: list[str] = []
        spans: list[Span] = []
        for level in _words(key):
            words = [word.lower() for word, _span in level]
            start = 0
            while start < len(words):
                for size in range(min(longest, len(words) - start), 0, -1):
                    phrase = "_".join(words[start : start + size])
                    short = table.get(phrase)
                    if short is not None and short != phrase:
                        found.append(f"{phrase} → {short}")
                        spans.append((level[start][1][0], level[start + size - 1][1][1]))
                        start += size
                        break
                else:
                    start += 1
        if found:
            yield Violation(
                "abbreviate",
                Text(
                    f"use the team abbreviations: {quoted(found)}",
                    f"请使用团队约定的缩写：{quoted(found)}",
                ),
                value=len(found),
                spans=tuple(spans),
            )

    def _verbose(self, key: KeyTemplate, opts: AbbreviationOptions) -> Iterator[Violation]:
        longest, span = max(literal_pieces(key), key=_length, default=(b"", (0, 0)))
        size = len(longest)
        if size > opts.max_word_bytes:
            yield Violation(
                "verbose",
                Text(
                    f"level `{show(longest)}` is {size} bytes, above {opts.max_word_bytes}: split it into "
                    "namespaced levels or shorten it (session:token:abc123)",
                    f"层级 `{show(longest)}` 长 {size} 字节，超过 {opts.max_word_bytes}："
                    "请拆成带命名空间的层级或缩短（如 session:token:abc123）",
                ),
                value=size,
                spans=(span,),
            )


def _length(piece: tuple[bytes, Span]) -> int:
    return len(piece[0])


def _words(key: KeyTemplate) -> Iterator[list[tuple[str, Span]]]:
    """The words of each wholly literal level, with their spans; words glued to a value (`u12345`,
    `abc123`) are values."""
    extents = level_extents(key)
    for segment in key.segments():
        literal = segment.literal
        if literal is not None:
            start = extents[segment.index][0]
            yield [(word.decode("utf-8", errors="replace"), span) for word, span in segment_word_spans(literal, start)]
