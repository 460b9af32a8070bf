from hypothesis import given
from hypothesis import strategies as st

from engine.cards import BLACK_JOKER, RED_JOKER, format_face, parse_face, parse_faces
from engine.errors import InvalidEvent


def test_fixed_codes_per_conventions():
    assert parse_face("As") == 0
    assert parse_face("Ks") == 12
    assert parse_face("Ah") == 13
    assert parse_face("Kd") == 51
    assert parse_face("Th") == 13 + 9
    assert parse_face("BJ") == BLACK_JOKER == 52
    assert parse_face("RJ") == RED_JOKER == 53


@given(st.integers(0, 53))
def test_round_trip(code):
    assert parse_face(format_face(code)) == code


@given(st.text(max_size=4))
def test_parse_any_text_parses_or_raises_typed(text):
    try:
        code = parse_face(text)
    except InvalidEvent:
        return
    assert format_face(code) == text


def test_parse_faces_string():
    assert parse_faces("As Th RJ") == (0, 22, 53)


def test_packs_as_face_counts():
    from engine.cards import N_FACES, face_counts, pack
    p = pack({0: 2, 53: 3, 22: 1})
    assert p == (0, 0, 22, 53, 53, 53)
    counts = face_counts(p)
    assert len(counts) == N_FACES and counts[0] == 2 and counts[53] == 3 and sum(counts) == 6


def test_colours_and_pretty_faces():
    from engine.cards import is_red, pretty_face
    assert is_red(parse_face("Th")) and is_red(parse_face("2d")) and is_red(parse_face("RJ"))
    assert not is_red(parse_face("As")) and not is_red(parse_face("BJ"))
    assert pretty_face(parse_face("Th")) == "T♥"
