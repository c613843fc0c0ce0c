"""decode_utf8: the one UTF-8 decoding of source bytes, with the first bad byte located."""

from warscribe.extract.encoding import BadBytes, decode_utf8


def test_valid_utf8_decodes_without_a_location():
    assert decode_utf8("Designer’s Note\nline".encode()) == ("Designer’s Note\nline", None)


def test_first_bad_byte_is_located_by_line_and_byte_column():
    text, bad = decode_utf8(b"first\nab\xffcd\n\xfe")
    assert text == "first\nab\ufffdcd\n\ufffd"
    assert bad == BadBytes(line=2, column=3, found=repr(b"\xffcd\n\xfe"))


def test_columns_count_bytes_not_characters():
    _text, bad = decode_utf8("é".encode() + b"\x80")
    assert (bad.line, bad.column) == (1, 3)
