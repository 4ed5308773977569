"""GPT-2's printable alphabet for bytes, so every byte string is written as visible characters.

The 188 printable Latin-1 bytes ('!'..'~', '¡'..'¬', '®'..'ÿ') stand for themselves; the other 68
bytes (controls, space, DEL, no-break space, soft hyphen, ...) take U+0100 upward in byte order, so
a space byte is 'Ġ' (U+0120). Radford et al. 2019's encoder defines the same table.
"""


def _byte_symbols():
    printable = [*range(ord("!"), ord("~") + 1), *range(ord("¡"), ord("¬") + 1), *range(ord("®"), ord("ÿ") + 1)]
    symbols, next_extra = [], 0x100
    for byte in range(256):
        if byte in printable:
            symbols.append(chr(byte))
        else:
            symbols.append(chr(next_extra))
            next_extra += 1
    return symbols


BYTE_SYMBOLS = _byte_symbols()  # index: byte value
SYMBOL_BYTES = {symbol: byte for byte, symbol in enumerate(BYTE_SYMBOLS)}


def to_symbols(data):
    """bytes -> the string of their symbols."""
    return "".join(BYTE_SYMBOLS[byte] for byte in data)


def from_symbols(text):
    """The inverse of to_symbols."""
    return bytes(SYMBOL_BYTES[symbol] for symbol in text)
