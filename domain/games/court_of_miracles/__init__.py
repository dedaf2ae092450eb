"""The Court of Miracles (La Cour des Miracles): a placement game for 2-5 players
with face-down rogue tokens, secret Plot cards, Standoffs and the Penniless King.

Modules: data (board.json, cards.json), messages (commands, events), fields
(what their fields mean, for the API's document), state, evolve (the fold),
flow (effects, Standoffs, automatic steps), legal (legal_commands, to_act),
decide (refusals and effects), plots (the Plot cards), refusals (the refusals
commands share), views, shapes (the view's declaration), twin (a history a
viewer cannot tell from another), rules (options, versions, setup, timeouts,
standings).

Decisions where the rulebook and the brief are silent:
- The controller's coin (step 3) is paid only when the action is taken.
- One Plot card per turn ("Play a Plot card (optional)" is one step of the
  turn). Rules version 2 (the newest): it may be played at any moment of the
  player's own turn outside a Standoff: in step 1, after the placement, while
  the Wrath neighbourhood or the order of several Standoffs is being chosen,
  and while a drawn rogue waits for its discard (Strength excepted then: one
  drawn rogue at a time). A timed-out turn never plays one. Rules version 1
  (games created before it) refused it at those three moments.
- The first player is the option first_player (the seat of the last to have
  visited Notre-Dame de Paris); 0, the default, draws him at random. The Devil and the Magician act "when you place",
  so they may only be played before placing. After the action, the turn ends
  by itself when the hand is empty or the turn's card was played (public facts:
  ending on "no playable card" would reveal the hand); otherwise the player
  sends EndTurn.
- Taverne and Strength are one mechanism: the drawn rogue joins the player's
  rogues out of play and the player discards one of those (the drawn one
  included) face down to the Seine.
- The Wrath choice may name any neighbourhood; naming the indicated one (or an
  already full one) settles it once. All Standoffs at the end of a turn are
  fixed when the turn ends; with two or more the active player picks the order.
- Swordsman payments are asked of every player with a Swordsman in the
  Standoff and at least 2 coins, all at once, as sealed answers: nobody sees
  another's answer (nor his coins drop) until all have answered; then the
  payments are made public and the winner is computed.
- Several Swordsmen of one player may be paid for separately (count).
- Courtesan: the winner names any neighbourhood (the Standoff's own included).
- The Empress's freed line may be used again, but line 3 never (the Right-Hand
  was taken back already).
- Death may take any card of the discard pile, another Death included.
- Justice and the Chariot may hit the neighbourhood of the rogue just placed;
  the action of that neighbourhood stays available.

Leaving the game (domain.lifecycle): a seat that resigns leaves the standings
ranked last (after every seat still playing; of two that resigned, the later
ranks higher) and a bot plays its turns to the end. When every seat but one
has resigned, the game ends at once and that seat wins.
"""

from pathlib import Path

from ...kit import Game, Traits
from . import rules
from .bot import BOTS
from .decide import decide
from .evolve import evolve
from .fields import FIELD_DESCRIPTIONS, FIELD_NAMES
from .legal import legal_commands, to_act
from .messages import COMMANDS, EVENTS
from .shapes import HAND, STANDING_DETAIL, VIEW
from .twin import twin
from .views import outcome, view, visible
from .words import COMMAND_SENTENCES, SENTENCES

RULES = Game(
    name="court-of-miracles",
    title="The Court of Miracles",
    min_seats=2,
    max_seats=rules.MAX_SEATS,
    # Simultaneous: every player asked about his Swordsmen answers at once,
    # sealed (rare: the bag's two Swordsmen recruited by two players and met
    # in one Standoff; no random playout of 400 reached it, so
    # test_standoffs.py sets it up). Chance: the shuffled pile and bag, and a
    # pile re-made from the discards. Hidden: hands, rogues face down, the
    # drawn rogue, the Seine, sealed answers, the order of pile and bag.
    traits=Traits(simultaneous=True, chance=True, hidden_information=True, teams=False),
    options=rules.OPTIONS,
    commands=COMMANDS,
    events=EVENTS,
    seats=rules.seats,
    setup=rules.setup,
    evolve=evolve,
    decide=decide,
    to_act=to_act,
    legal_commands=legal_commands,
    on_timeout=rules.on_timeout,
    view=view,
    visible=visible,
    outcome=outcome,
    score=rules.score,
    view_shape=VIEW,
    standing_detail=STANDING_DETAIL,
    twin=twin,
    bots=BOTS,
    sentences=SENTENCES,
    field_descriptions=FIELD_DESCRIPTIONS,
    command_sentences=COMMAND_SENTENCES,
    field_names=FIELD_NAMES,
    hand=HAND,
    data=Path(__file__).parent,
    versions=rules.VERSIONS,
    switches=rules.switches,
    state_version=rules.STATE_VERSION,
)

__all__ = ["RULES"]
