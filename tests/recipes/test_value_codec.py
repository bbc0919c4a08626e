"""ValueCodec: large values compressed behind a header and read back exactly, through a real server; small,
incompressible and foreign values unchanged; the optional packages imported only when used."""

from __future__ import annotations

import json
import os
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import pytest
import redis

from rediscipline.recipes import ValueCodec, available_algorithms, set_with_ttl
from rediscipline.recipes.value_codec import HEADER_SIZE, MAGIC
from tests.recipes.oracle import Raw

ROOT = Path(__file__).resolve().parents[2]
ALGORITHMS = ("zlib", "zstd", "snappy")
#: A product's JSON, about 40 KB, as 003 §数据压缩's example (text that compresses well).
DOCUMENT = json.dumps(
    [{"id": i, "title": f"商品 {i}", "tags": ["new", "hot"], "price": i * 1.5} for i in range(500)]
).encode()


def test_every_algorithm_is_installed_for_the_tests() -> None:
    assert available_algorithms() == ALGORITHMS  # the dev extra installs rediscipline[compression]


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_a_large_value_is_compressed_and_read_back_through_the_server(
    client: redis.Redis, raw: Raw, algorithm: str
) -> None:
    codec = ValueCodec(algorithm)
    set_with_ttl(client, b"product:detail:10001", codec.encode(DOCUMENT), 3600)
    stored = raw.call("GET", b"product:detail:10001")
    assert stored[:3] == MAGIC
    assert struct.unpack(">I", stored[4:8]) == (len(DOCUMENT),)
    assert len(stored) < len(DOCUMENT) // 4
    assert codec.decode(client.get(b"product:detail:10001")) == DOCUMENT


@pytest.mark.parametrize("written_with", ALGORITHMS)
def test_any_codec_decodes_what_any_other_wrote(written_with: str) -> None:
    encoded = ValueCodec(written_with).encode(DOCUMENT)
    assert {ValueCodec(reader).decode(encoded) for reader in ALGORITHMS} == {DOCUMENT}


def test_the_algorithm_byte_names_the_codec() -> None:
    assert [ValueCodec(name).encode(DOCUMENT)[3] for name in ALGORITHMS] == [1, 2, 3]
    assert ValueCodec("zlib").encode(DOCUMENT)[HEADER_SIZE:] == zlib.compress(DOCUMENT)


def test_small_values_pass_through_both_ways() -> None:
    codec = ValueCodec(threshold=4096)
    small = DOCUMENT[:4095]
    assert codec.encode(small) == small
    assert codec.decode(small) == small
    assert codec.encode(DOCUMENT[:4096])[:3] == MAGIC
    assert codec.encode(b"") == b""
    assert ValueCodec(threshold=0).encode(b"") == b""


def test_an_incompressible_value_is_written_as_it_is() -> None:
    noise = os.urandom(10_000)
    for name in ALGORITHMS:
        assert ValueCodec(name).encode(noise) == noise


@pytest.mark.parametrize("value", [MAGIC, MAGIC + b"\x01\x00\x00\x00\x05hello", MAGIC + os.urandom(5000)])
def test_a_plain_value_that_starts_like_a_header_reads_back_exactly(value: bytes) -> None:
    codec = ValueCodec()
    encoded = codec.encode(value)
    assert encoded == MAGIC + b"\x00" + struct.pack(">I", len(value)) + value
    assert codec.decode(encoded) == value


@pytest.mark.parametrize(
    "foreign",
    [
        b"",
        b"plain text",
        "中文".encode(),
        b"\xff",
        MAGIC,
        MAGIC + b"\x01\x00\x00",  # shorter than a header
        MAGIC + b"\x09\x00\x00\x00\x05hello",  # an algorithm byte no codec writes
        MAGIC + b"\x01\x00\x00\x00\x05hello",  # a zlib header over data that is not zlib
        MAGIC + b"\x01\x00\x00\x00\x04" + zlib.compress(b"hello"),  # the wrong length
        MAGIC + b"\x01\x00\x00\x00\x05" + zlib.compress(b"hello") + b"tail",  # data after the stream
        MAGIC + b"\x02\x00\x00\x00\x05hello",  # not zstd
        MAGIC + b"\x03\x00\x00\x00\x05hello",  # not snappy
        MAGIC + b"\x00\x00\x00\x00\x09hello",  # stored, but shorter than announced
    ],
)
def test_data_the_codec_did_not_write_comes_back_unchanged(foreign: bytes) -> None:
    assert ValueCodec().decode(foreign) == foreign


def test_none_and_buffers() -> None:
    codec = ValueCodec("zstd", threshold=10, level=19)
    assert codec.decode(None) is None
    assert codec.decode(memoryview(codec.encode(bytearray(DOCUMENT)))) == DOCUMENT


@pytest.mark.parametrize(
    ("args", "options", "error", "message"),
    [
        (("lz4",), {}, ValueError, "unknown algorithm 'lz4': one of zlib, zstd, snappy"),
        (("zlib",), {"threshold": -1}, ValueError, "threshold must be a whole number of bytes >= 0"),
        (("snappy",), {"level": 1}, ValueError, "snappy has no compression level"),
    ],
)
def test_bad_codecs(args: tuple[str, ...], options: dict[str, int], error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message):
        ValueCodec(*args, **options)


def test_text_is_refused() -> None:
    with pytest.raises(TypeError, match="encode text to bytes first"):
        ValueCodec().encode("text")  # type: ignore[arg-type]


#: Run in a fresh interpreter where zstandard and cramjam cannot be imported (None in sys.modules).
WITHOUT_OPTIONAL = """
import sys
sys.modules["zstandard"] = None
sys.modules["cramjam"] = None
from rediscipline.recipes import CodecUnavailable, ValueCodec, available_algorithms
assert available_algorithms() == ("zlib",), available_algorithms()
document = bytes.fromhex(sys.argv[1])
zstd_value = bytes.fromhex(sys.argv[2])
assert ValueCodec().decode(ValueCodec().encode(document)) == document
for name in ("zstd", "snappy"):
    try:
        ValueCodec(name)
    except CodecUnavailable as error:
        print(error)
try:
    ValueCodec().decode(zstd_value)
except CodecUnavailable as error:
    print(error)
"""


def test_without_the_optional_packages_zlib_works_and_the_others_say_what_to_install() -> None:
    zstd_value = ValueCodec("zstd").encode(DOCUMENT)
    done = subprocess.run(
        [sys.executable, "-c", WITHOUT_OPTIONAL, DOCUMENT.hex(), zstd_value.hex()],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    install = "(or pip install 'rediscipline[compression]')"
    assert done.stdout.splitlines() == [
        f"the zstd codec needs the 'zstandard' package: pip install zstandard {install}",
        f"the snappy codec needs the 'cramjam' package: pip install cramjam {install}",
        f"the zstd codec needs the 'zstandard' package: pip install zstandard {install}",
    ]
