"""The card pictures shipped with the bot: all there, small enough for Discord, reproducible."""

from __future__ import annotations

import io
import itertools
import re
from pathlib import Path

from PIL import Image, ImageChops, ImageStat

from bot.engine.cards import DECK
from cogs.table.card_art import card_images, code_of, emoji_name, wanted_names
from scripts.draw_cards import OUT_DIR, write_cards

#: Discord's limit on an emoji image.
EMOJI_MAX_BYTES = 256 * 1024


def test_every_card_and_the_back_ship_as_128_pixel_pngs_under_discords_limit() -> None:
    images = card_images()
    assert set(images) == {code_of(str(card)) for card in DECK} | {"back"}
    assert len(images) == 53
    for code, data in images.items():
        assert len(data) < EMOJI_MAX_BYTES, code
        with Image.open(io.BytesIO(data)) as image:
            assert (image.format, image.size, image.mode) == ("PNG", (128, 128), "RGBA"), code


def test_the_shipped_pictures_are_the_ones_the_script_draws(tmp_path: Path) -> None:
    written = write_cards(tmp_path)
    assert len(written) == 53
    for path in written:
        assert path.read_bytes() == (OUT_DIR / path.name).read_bytes(), path.name
    # And drawing twice gives the same bytes.
    again = write_cards(tmp_path / "again")
    assert [p.read_bytes() for p in again] == [p.read_bytes() for p in written]


def test_red_suits_are_drawn_red_and_black_suits_black() -> None:
    def ink(code: str) -> tuple[int, int, int]:
        with Image.open(io.BytesIO(card_images()[code])) as image:
            rgba = image.convert("RGBA")
            # The suit's middle, well inside the card.
            r, g, b, _ = rgba.getpixel((64, 100))  # type: ignore[misc]
            return r, g, b

    for red in ("7H", "7D"):
        r, g, _ = ink(red)
        assert (r > 150, g < 80) == (True, True), red
    assert max(ink("7S")) < 80
    assert max(ink("7C")) < 80


def test_emoji_names_follow_discords_rules_and_change_with_the_picture() -> None:
    names = wanted_names()
    assert len(names) == 53
    for name in names:
        assert re.fullmatch(r"[A-Za-z0-9_]{2,32}", name), name
    assert emoji_name("AS", b"one picture") != emoji_name("AS", b"another picture")
    assert emoji_name("AS", b"one picture").startswith("bj_AS_")


def test_every_two_ranks_of_a_suit_tell_apart_at_discords_inline_size() -> None:
    """At 22 px (an emoji in an embed) two ranks of a suit differ by at least 4.5 grey
    levels a pixel on average: 5 and 6, 3 and 8, 9 and Q no longer blur together (the
    earlier, heavier faces had 3 and 8 at 1.9 and 5 and 6 at 3.2)."""

    def at_22_px(code: str) -> Image.Image:
        with Image.open(io.BytesIO(card_images()[code])) as image:
            on_white = Image.new("RGBA", image.size, (255, 255, 255, 255))
            on_white.alpha_composite(image.convert("RGBA"))
        return on_white.convert("L").resize((22, 22), Image.Resampling.LANCZOS)

    ranks = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
    for suit in "SHDC":
        small = {rank: at_22_px(rank + suit) for rank in ranks}
        for one, other in itertools.combinations(ranks, 2):
            difference = ImageChops.difference(small[one], small[other])
            per_pixel = sum(ImageStat.Stat(difference).sum) / (22 * 22)
            assert per_pixel >= 4.5, (one + suit, other + suit, per_pixel)
