"""Giving time on the table: two people at a Cronberg table, the one who is
not to act gives the other an hour with the page's form, each choice said in
a sentence; both logs say it by names, and the giver reads what he gave.
The game keeps a time bank of each seat: time is given on a seat's clock.""" 

from __future__ import annotations

import json

from .accessibility import serious_violations
from .composing import two_at_a_table, words_not_data


def test_the_player_not_to_act_gives_the_other_an_hour_and_both_logs_say_it_by_names(person, base_url):
    (ada, host), (brune, guest), _ = two_at_a_table(lambda: person(bypass_csp=True), base_url, "cronberg",
                                                           bank="3600")  # a clock of each seat
    to_act = json.loads(host.get_attribute("#table", "data-view"))["to_act"]
    giver, taker, names = (guest, host, ("Brune", "Ada")) if to_act == ["p1"] else (host, guest, ("Ada", "Brune"))
    # The player to act has nobody to give time to; the other opens the form with the keyboard
    taker.wait_for_selector("#agreement-propose")
    assert not taker.locator("#give-time-open").count()
    giver.focus("#give-time-open")
    giver.keyboard.press("Enter")
    giver.wait_for_selector("#give-time-form")
    assert giver.inner_text("#give-time-form legend >> nth=0") == "To whom?"
    assert giver.inner_text(f"label[for=give-time-to-{to_act[0]}]") == names[1]
    assert "deadline moves an hour later" in giver.inner_text("label[for=give-time-much-3600] + p")
    assert [v for v in serious_violations(giver) if not v.endswith(" at #log")] == [], "the give-time form"
    words_not_data(giver)
    giver.check("#give-time-much-3600")
    giver.click("#give-time-send")
    # Then the giver reads what he gave, and both logs say it with the players' names
    giver.wait_for_selector("#give-time-said")
    assert giver.inner_text("#give-time-said") == f"You gave {names[1]} an hour more."
    for page in (host, guest):
        page.wait_for_function(f"document.querySelector('#log').innerText.includes('{names[0]} gave {names[1]} 3600 s more')")
    for watched in (ada, brune):
        assert watched.console_errors == []
