"""Draw the card faces the bot uploads as its application emojis: 52 faces and one back.

``python scripts/draw_cards.py`` writes ``cogs/table/cards/{code}.png`` (``AS``, ``10H``,
``back``). Drawing is deterministic: the rank uses the font bundled inside Pillow and the
suits are plain geometry, so running it again gives the same bytes (a test checks this).

Each image is 128×128 (Discord scales emoji images to that) with a card nearly as wide
as it is high: in an embed the card is about 22 px high, so the rank takes the top two
thirds, as wide as the card allows, with a stroke thin enough to keep the holes of 6, 8,
9 and Q open at that size; a small suit sits under it, and nothing else is drawn. A dark
border keeps the white card apart from a light theme, the white face keeps it apart from
a dark one. Drawn at four times the size, then scaled down, for smooth edges.
"""

from __future__ import annotations

import argparse
import io
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

SIZE = 128
SCALE = 4
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("S", "H", "D", "C")
RED = (200, 16, 32, 255)
BLACK = (20, 20, 24, 255)
BORDER = (60, 60, 66, 255)
FACE = (255, 255, 255, 255)
BACK = (31, 78, 156, 255)
OUT_DIR = Path(__file__).resolve().parents[1] / "cogs" / "table" / "cards"

# The card, in 128-px units: centred, rounded, a little higher than wide.
CARD_BOX = (8, 2, 120, 126)
RADIUS = 12
BORDER_WIDTH = 4
# Where the rank and the suit go (left, top, right, bottom), in 128-px units.
RANK_BOX = (14, 8, 114, 82)
SUIT_BOX = (42, 86, 86, 121)
# The rank's extra stroke, in 128-px units: bolder, yet thin enough to keep counters open.
RANK_STROKE = 2


def _scaled(box: tuple[float, float, float, float]) -> tuple[int, int, int, int]:
    left, top, right, bottom = box
    return (round(left * SCALE), round(top * SCALE), round(right * SCALE), round(bottom * SCALE))


def _card(draw: ImageDraw.ImageDraw, fill: tuple[int, int, int, int]) -> None:
    draw.rounded_rectangle(
        _scaled(CARD_BOX),
        radius=RADIUS * SCALE,
        fill=fill,
        outline=BORDER,
        width=BORDER_WIDTH * SCALE,
    )


def _rank(image: Image.Image, rank: str, colour: tuple[int, int, int, int]) -> None:
    """The rank, bold, scaled to fill its box (``10`` is squeezed to fit the width)."""
    font = ImageFont.load_default(size=60 * SCALE)
    stroke = RANK_STROKE * SCALE
    left, top, right, bottom = font.getbbox(rank, stroke_width=stroke)
    mask = Image.new("L", (right - left, bottom - top), 0)
    ImageDraw.Draw(mask).text(
        (-left, -top), rank, font=font, fill=255, stroke_width=stroke, stroke_fill=255
    )
    box_left, box_top, box_right, box_bottom = _scaled(RANK_BOX)
    box_w, box_h = box_right - box_left, box_bottom - box_top
    height = box_h
    width = min(box_w, round(mask.width * height / mask.height))
    mask = mask.resize((width, height), Image.Resampling.LANCZOS)
    ink = Image.new("RGBA", mask.size, colour)
    image.paste(ink, (box_left + (box_w - width) // 2, box_top), mask)


def _suit(draw: ImageDraw.ImageDraw, suit: str, colour: tuple[int, int, int, int]) -> None:
    """A suit as geometry in its box: circles, triangles and a diamond."""
    left, top, right, bottom = _scaled(SUIT_BOX)
    w, h = right - left, bottom - top

    def at(x: float, y: float) -> tuple[float, float]:
        return (left + x * w, top + y * h)

    def circle(x: float, y: float, r: float) -> None:
        cx, cy = at(x, y)
        draw.ellipse((cx - r * w, cy - r * w, cx + r * w, cy + r * w), fill=colour)

    if suit == "D":
        draw.polygon([at(0.5, 0.0), at(0.92, 0.5), at(0.5, 1.0), at(0.08, 0.5)], fill=colour)
    elif suit == "H":
        circle(0.28, 0.3, 0.27)
        circle(0.72, 0.3, 0.27)
        draw.polygon([at(0.03, 0.42), at(0.97, 0.42), at(0.5, 1.0)], fill=colour)
    elif suit == "S":
        circle(0.28, 0.6, 0.25)
        circle(0.72, 0.6, 0.25)
        draw.polygon([at(0.05, 0.5), at(0.95, 0.5), at(0.5, 0.0)], fill=colour)
        draw.polygon([at(0.5, 0.6), at(0.7, 1.0), at(0.3, 1.0)], fill=colour)
    else:  # clubs
        circle(0.5, 0.24, 0.23)
        circle(0.26, 0.6, 0.23)
        circle(0.74, 0.6, 0.23)
        draw.polygon([at(0.5, 0.4), at(0.68, 1.0), at(0.32, 1.0)], fill=colour)


def face(rank: str, suit: str) -> Image.Image:
    """One card face, 128×128 with a transparent background."""
    big = Image.new("RGBA", (SIZE * SCALE, SIZE * SCALE), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    _card(draw, FACE)
    colour = RED if suit in ("H", "D") else BLACK
    _rank(big, rank, colour)
    _suit(draw, suit, colour)
    return big.resize((SIZE, SIZE), Image.Resampling.LANCZOS)


def back() -> Image.Image:
    """The card back (the dealer's hole card): blue, a white frame and a lattice."""
    big = Image.new("RGBA", (SIZE * SCALE, SIZE * SCALE), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    _card(draw, BACK)
    left, top, right, bottom = _scaled((17, 11, 111, 117))
    draw.rectangle((left, top, right, bottom), outline=FACE, width=3 * SCALE)
    step = 12 * SCALE
    for offset in range(-(bottom - top), right - left, step):
        draw.line(
            (left + offset, top, left + offset + (bottom - top), bottom),
            fill=FACE,
            width=2 * SCALE,
        )
        draw.line(
            (left + offset, bottom, left + offset + (bottom - top), top),
            fill=FACE,
            width=2 * SCALE,
        )
    # Lines run past the frame: clear what lies outside it, keep the card's border.
    outside = Image.new("L", big.size, 255)
    ImageDraw.Draw(outside).rectangle((left, top, right, bottom), fill=0)
    plain = Image.new("RGBA", big.size, (0, 0, 0, 0))
    _card(ImageDraw.Draw(plain), BACK)
    big.paste(plain, (0, 0), outside)
    draw.rectangle((left, top, right, bottom), outline=FACE, width=3 * SCALE)
    return big.resize((SIZE, SIZE), Image.Resampling.LANCZOS)


def png_bytes(image: Image.Image) -> bytes:
    """The image as PNG, with nothing that changes from run to run (no time, no text chunks)."""
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


def every_card() -> dict[str, Image.Image]:
    """``{"AS": ..., "10H": ..., "back": ...}``: the 53 images."""
    images = {f"{rank}{suit}": face(rank, suit) for suit in SUITS for rank in RANKS}
    images["back"] = back()
    return images


def write_cards(out_dir: Path = OUT_DIR) -> list[Path]:
    """Draw every card into ``out_dir``; the files written."""
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for code, image in every_card().items():
        path = out_dir / f"{code}.png"
        path.write_bytes(png_bytes(image))
        written.append(path)
    return written


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT_DIR, help="where to write the PNGs")
    args = parser.parse_args()
    written = write_cards(args.out)
    print(f"wrote {len(written)} cards to {args.out}")


if __name__ == "__main__":
    main()
