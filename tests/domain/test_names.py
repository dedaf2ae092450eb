"""Where a named thing's colour is in the data (domain.kit.names.Colour):
declared with its Names, checked when declared, carried to the contract by
to_json, which leaves out what is not given."""

from __future__ import annotations

import pytest

from domain.kit.names import Colour, Names


def test_a_colour_held_through_a_table_of_another_list_is_carried_whole_by_to_json():
    names = Names("card", "tactic", "card_names.json", "cards",
                  colour=Colour("nation", table="nations", data="data.json", list="homeland_cards"))
    assert names.to_json() == {
        "kind": "card", "what": "tactic", "data": "card_names.json", "list": "cards", "key": "id", "label": "name",
        "colour": {"field": "nation", "table": "nations", "data": "data.json", "list": "homeland_cards"}}


def test_a_colour_held_by_the_entry_itself_is_its_field_alone_and_names_without_one_say_nothing_of_colour():
    assert Names("card", "nation card", "data.json", "nations", colour=Colour("color")).to_json()["colour"] == {
        "field": "color"}
    assert "colour" not in Names("card", "card", "cards.json", "cards").to_json()


@pytest.mark.parametrize("make,failure", [
    (lambda: Colour(""), "Colour.field names the entry's field"),
    (lambda: Colour("nation", data="data.json"), "Colour.data and Colour.list go together"),
    (lambda: Names("seat", "player", colour=Colour("colour")), "Names.colour is read from a data file"),
    (lambda: Names("card", "card", "cards.json", "cards", colour="colour"), "Names.colour is a Colour"),
], ids=["no-field", "file-without-list", "no-data-file", "not-a-colour"])
def test_a_colour_declaration_that_cannot_lead_to_a_colour_fails_saying_why(make, failure):
    with pytest.raises(ValueError, match=failure):
        make()


def test_a_seat_coloured_from_another_file_needs_no_data_file_of_its_own():
    names = Names("seat", "player", colour=Colour("colour", table="colours", data="seats.json", list="seats"))
    assert names.to_json()["colour"]["data"] == "seats.json"
