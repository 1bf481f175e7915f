"""Output to a terminal of any encoding: what it cannot show is spelled in letters, never a crash.

The drawing, the rules and the help use a few characters beyond ASCII (suit symbols,
dashes, "Коврик").  Under a terminal encoding that lacks them (``PYTHONIOENCODING=latin-1``,
``ascii``, a Windows code page) :func:`fit_output` makes stdout and stderr write each one as
letters instead: a card ``7♥`` becomes ``7H`` (the same two columns, so boards stay
aligned), ``—`` becomes ``-``, Cyrillic is transliterated, anything else ``?``.  Rich
chooses ASCII box lines for such a terminal by itself.  JSON stays exact: its non-ASCII
characters are written as ``\\uXXXX`` escapes (:func:`json_for`).
"""

from __future__ import annotations

import codecs
import sys

ERRORS = "carpet-letters"

#: characters the program prints, and their letters
LETTERS = {
    "♣": "C", "♠": "S", "♥": "H", "♦": "D", "♧": "C", "♤": "S", "♡": "H", "♢": "D",
    "·": ".", "×": "x", "…": "...", "∞": "inf", "—": "-", "–": "-", "→": "->", "←": "<-",
    "‘": "'", "’": "'", "“": '"', "”": '"', "≤": "<=", "≥": ">=", "•": "*",
    "─": "-", "━": "-", "│": "|", "┃": "|", "╭": "+", "╮": "+", "╰": "+", "╯": "+",
}
_CYRILLIC = dict(zip("абвгдеёжзийклмнопрстуфхцчшщъыьэюя",
                     "a b v g d e yo zh z i y k l m n o p r s t u f kh ts ch sh shch _ y _ e yu ya".split()))


def letters(char: str) -> str:
    """ASCII for one character: the table above, Cyrillic transliterated, accents dropped, else '?'."""
    found = LETTERS.get(char)
    if found is not None:
        return found
    low = char.lower()
    if low in _CYRILLIC:
        latin = _CYRILLIC[low].strip("_")
        return latin.capitalize() if char != low else latin
    import unicodedata

    plain = "".join(c for c in unicodedata.normalize("NFKD", char) if c.isascii())
    return plain or "?"


def _in_letters(exc: UnicodeError) -> tuple[str, int]:
    if not isinstance(exc, UnicodeEncodeError):
        raise exc
    return "".join(letters(c) for c in exc.object[exc.start:exc.end]), exc.end


codecs.register_error(ERRORS, _in_letters)


def _is_utf(stream) -> bool:
    return (getattr(stream, "encoding", None) or "utf-8").lower().replace("_", "-").startswith("utf")


def fit_output() -> None:
    """Make stdout and stderr write what their encoding lacks as letters (a no-op under UTF-8)."""
    for stream in (sys.stdout, sys.stderr):
        if stream is not None and not _is_utf(stream) and hasattr(stream, "reconfigure"):
            stream.reconfigure(errors=ERRORS)


def fit(text: str, encoding: str | None) -> str:
    """``text`` as a terminal of ``encoding`` would show it after :func:`fit_output`."""
    if not encoding or text.isascii():
        return text
    return text.encode(encoding, errors=ERRORS).decode(encoding)


def json_for(stream, text: str) -> str:
    r"""A JSON document for ``stream``: unchanged under UTF-8, else non-ASCII as ``\uXXXX``."""
    if text.isascii() or _is_utf(stream):
        return text
    return "".join(c if c.isascii() else _escape(c) for c in text)


def _escape(char: str) -> str:
    code = ord(char)
    if code < 0x10000:
        return f"\\u{code:04x}"
    code -= 0x10000  # a surrogate pair, as JSON spells characters beyond the BMP
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
