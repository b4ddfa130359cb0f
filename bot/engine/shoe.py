"""The shoe: a seeded, verifiable shuffle of 1 to 8 decks, and a stacked shoe for tests.

The shuffle (documented, so anyone can re-run it from a revealed seed):

1. Start from ``decks`` ordered decks, one after another; each deck is in rank-major
   order (A♠ A♥ A♦ A♣ 2♠ ... K♣), i.e. position ``p`` holds card index ``p % 52``.
2. A stream of random 16-bit numbers comes from HMAC-SHA256 with the seed as key and
   a block counter as message: block ``k`` (k = 0, 1, 2, ...) is
   ``HMAC-SHA256(seed, k as 8 bytes big-endian)``, read as sixteen big-endian 16-bit
   numbers in order.
3. Fisher–Yates from the top: for ``i`` from ``n - 1`` down to 1, take the next number
   ``x`` from the stream; if ``x >= 2**16 - 2**16 % (i + 1)`` discard it and take the
   next (so the choice is exactly uniform); swap positions ``i`` and ``x % (i + 1)``.
4. Cards are dealt from position 0 upwards.

A shoe never runs dry in the middle of a round: if every card has been dealt, the
shoe continues with continuation ``k`` (1, 2, ...), whose seed is
``HMAC-SHA256(seed, b"continuation" + k as 4 bytes big-endian)`` and whose order is
the shuffle above of that seed. ``python -m bot verify`` prints these too.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import struct
from collections.abc import Sequence
from functools import lru_cache
from typing import Any, Final

from bot.engine.cards import DECK, Card

SEED_BYTES: Final = 32
_TWO_16: Final = 1 << 16
#: For each bound b, the first 16-bit number that must be rejected for an exact x % b.
_LIMITS: Final[tuple[int, ...]] = tuple(
    _TWO_16 - _TWO_16 % bound if bound else 0 for bound in range(8 * 52 + 1)
)


class ShoeError(ValueError):
    """A shoe that cannot be built, or a stacked shoe that has run out of cards."""


class ShoeExhausted(ShoeError):
    """A stacked (test) shoe was asked for more cards than it was given."""


@lru_cache(maxsize=4096)
def commitment(seed: bytes) -> str:
    """The SHA-256 hex digest of ``seed``: published before the shoe is dealt.

    Remembered: every table snapshot shows its shoe's, after every change."""
    return hashlib.sha256(seed).hexdigest()


def continuation_seed(seed: bytes, continuation: int) -> bytes:
    """The seed of continuation ``continuation`` of a shoe (0 is the shoe's own seed)."""
    if continuation == 0:
        return seed
    message = b"continuation" + continuation.to_bytes(4, "big")
    return hmac.digest(seed, message, "sha256")


_INNER_PAD: Final = bytes(byte ^ 0x36 for byte in range(256))
_OUTER_PAD: Final = bytes(byte ^ 0x5C for byte in range(256))


class KeyedHmac:
    """HMAC-SHA256 with one key and many messages, the same bytes as ``hmac.digest``.

    The key's pads are hashed once (the standard construction, RFC 2104), which makes
    each message a fraction of a one-shot ``hmac.digest``: OpenSSL 3 looks the digest
    up on every call, a cost that showed in the shuffle's and the simulator's profiles.
    """

    __slots__ = ("_inner", "_outer")

    def __init__(self, key: bytes) -> None:
        key = hashlib.sha256(key).digest() if len(key) > 64 else key
        key = key.ljust(64, b"\0")
        self._inner = hashlib.sha256(key.translate(_INNER_PAD))
        self._outer = hashlib.sha256(key.translate(_OUTER_PAD))

    def digest(self, message: bytes) -> bytes:
        """HMAC-SHA256(key, message)."""
        inner = self._inner.copy()
        inner.update(message)
        outer = self._outer.copy()
        outer.update(inner.digest())
        return outer.digest()


class _Stream:
    """HMAC-SHA256(seed, counter) blocks as 16-bit numbers."""

    __slots__ = ("_mac",)

    def __init__(self, seed: bytes) -> None:
        self._mac = KeyedHmac(seed)

    def words(self, first_block: int, blocks: int) -> tuple[int, ...]:
        """The numbers of blocks ``first_block`` onwards, in order."""
        digest = self._mac.digest
        digests = [
            digest(block.to_bytes(8, "big")) for block in range(first_block, first_block + blocks)
        ]
        return struct.unpack(f">{16 * blocks}H", b"".join(digests))


def shuffled_order(seed: bytes, decks: int) -> list[Card]:
    """The order of a ``decks``-deck shoe shuffled with ``seed`` (see the module docstring)."""
    if not 1 <= decks <= 8:
        raise ShoeError(f"a shoe has 1 to 8 decks, not {decks}")
    order = list(DECK) * decks
    stream = _Stream(seed)
    # Enough numbers for a shuffle without rejections; each rejection (about one in
    # three hundred numbers) may need one more block at the end.
    blocks = (len(order) - 1 + 15) // 16
    i = _fisher_yates(order, stream.words(0, blocks), len(order) - 1)
    while i > 0:
        i = _fisher_yates(order, stream.words(blocks, 1), i)
        blocks += 1
    return order


def _fisher_yates(order: list[Card], words: tuple[int, ...], i: int) -> int:
    """Shuffle steps ``i``, ``i - 1``, ... with ``words``; the next ``i`` still to do."""
    limits = _LIMITS
    for x in words:
        bound = i + 1
        if x < limits[bound]:
            j = x % bound
            order[i], order[j] = order[j], order[i]
            i -= 1
            if i == 0:
                break
    return i


class Shoe:
    """A shuffled shoe of ``decks`` decks with a cut card at ``penetration``.

    ``penetration`` is the fraction of the shoe dealt before the cut card comes out;
    0 means a fresh shuffle every round.
    """

    __slots__ = (
        "_cut",
        "cards",
        "continuation",
        "decks",
        "penetration",
        "position",
        "seed",
        "size",
    )

    def __init__(self, decks: int, penetration: float, seed: bytes) -> None:
        if not isinstance(seed, bytes) or len(seed) != SEED_BYTES:
            raise ShoeError(f"a shoe seed is {SEED_BYTES} bytes")
        if not (penetration == 0 or 0 < penetration < 1):
            raise ShoeError(f"penetration must be 0 or between 0 and 1, not {penetration!r}")
        self.seed = seed
        self.decks = decks
        self.penetration = penetration
        self.continuation = 0
        self.position = 0
        #: The current order (the shoe, or its current continuation); read it, never change it.
        self.cards = shuffled_order(seed, decks)
        self.size = len(self.cards)
        self._cut = int(self.size * penetration)

    @classmethod
    def fresh(cls, decks: int, penetration: float) -> Shoe:
        """A new shoe with a seed from the operating system's CSPRNG."""
        return cls(decks, penetration, secrets.token_bytes(SEED_BYTES))

    @property
    def commitment(self) -> str:
        """SHA-256 hex of the seed, to publish before dealing and check after the reveal."""
        return commitment(self.seed)

    @property
    def cards_left(self) -> int:
        """Cards left before the shoe (or its current continuation) is empty."""
        return self.size - self.position

    @property
    def cut_card_reached(self) -> bool:
        """Whether the table should shuffle a new shoe before the next round."""
        return self.continuation > 0 or (self.position >= self._cut and self.position > 0)

    def draw(self) -> Card:
        """Deal the next card; an empty shoe continues with its continuation shoe."""
        position = self.position
        if position == self.size:
            self._continue()
            position = 0
        self.position = position + 1
        return self.cards[position]

    def _continue(self) -> None:
        self.continuation += 1
        self.cards = shuffled_order(continuation_seed(self.seed, self.continuation), self.decks)
        self.size = len(self.cards)
        self.position = 0

    def to_dict(self) -> dict[str, Any]:
        """The shoe's state: its seed and how far it has been dealt."""
        return {
            "kind": "shuffled",
            "seed": self.seed.hex(),
            "decks": self.decks,
            "penetration": self.penetration,
            "continuation": self.continuation,
            "position": self.position,
        }

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Shoe):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (
            f"Shoe(decks={self.decks}, penetration={self.penetration}, "
            f"commitment={self.commitment[:12]}..., position={self.position})"
        )


class StackedShoe(Shoe):
    """A shoe that deals exactly the given cards in order (for tests and replays)."""

    __slots__ = ()

    def __init__(self, cards: Sequence[Card]) -> None:
        self.seed = b""
        self.decks = 1
        self.penetration = 0.0
        self.continuation = 0
        self.position = 0
        self.cards = [DECK[card.index] for card in cards]
        self.size = len(self.cards)
        self._cut = self.size

    def draw(self) -> Card:
        """Deal the next stacked card; running out raises ShoeExhausted."""
        position = self.position
        if position == self.size:
            raise ShoeExhausted(
                f"the stacked shoe ran out after {self.size} cards; stack more cards"
            )
        self.position = position + 1
        return self.cards[position]

    @property
    def cut_card_reached(self) -> bool:
        """A stacked shoe is never reshuffled: its cut card is its last card."""
        return self.position >= self.size

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": "stacked",
            "cards": [str(card) for card in self.cards],
            "position": self.position,
        }


def shoe_from_dict(data: dict[str, Any]) -> Shoe:
    """Restore a shoe saved with ``to_dict``, at the same position."""
    if data["kind"] == "stacked":
        stacked = StackedShoe([Card.parse(text) for text in data["cards"]])
        stacked.position = int(data["position"])
        return stacked
    if data["kind"] != "shuffled":
        raise ShoeError(f"unknown shoe kind {data['kind']!r}")
    shoe = Shoe(int(data["decks"]), data["penetration"], bytes.fromhex(data["seed"]))
    for _ in range(int(data["continuation"])):
        shoe._continue()
    shoe.position = int(data["position"])
    return shoe
