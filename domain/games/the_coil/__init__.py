"""The Coil: a four-round dice area-control game for 2-5 players.

Decisions where the rulebook and the brief are silent (stand-in card values
are in data.json, each named there as an assumption):

- "Each player must choose a nation card": the seats choose one after the
  other in seat order, p1 first (ChooseNation); the option nations=random
  deals them instead. With two players the neutral third nation is then drawn
  at random from the rest and sits after p2 (p1, p2, neutral clockwise).
- Clockwise is seat order; "the player on your left" is the next seat, so a
  seat's western border is the next nation clockwise and its eastern border
  the previous one.
- Expansion, Muster and Conquest are simultaneous: every seat that has
  something to do is to act (Expand, Muster, PlaceRegions). Claimed regions
  must go to their area of the strategy card while it has room ("if
  possible"); when a seat claims more regions for an area than it has room
  for, it chooses which to place (PlaceRegions) and the rest go to its hand as
  tactics; a seat with nothing to choose has its regions placed at once.
  Regions of a nation that borders neither side go to the hand. The dice stay
  on the regions until every seat has placed its regions.
- "If your homeland deck is ever empty" the discard area is shuffled into a new
  deck at once (after the event that emptied the deck or discarded onto an
  empty one); Scout's draw of the last card re-forms the deck before the flip.
  A seat whose deck and discard are both empty skips Expansion, and such a
  deck cannot be scouted.
- Muster takes min(dice on the nation card, population); a seat with no die in
  its population skips Muster.
- Escalation turns: up to the northern die's value in actions; the turn ends
  when they are used up or with EndEscalation. Turn order is fixed when the
  phase begins.
- Battle: a first turn (in this round) must deploy at least one die when one
  can be deployed; a later turn may pass. Stop is allowed only at the start of
  a turn (before any action) once every seat has ended a turn.
  The first-turn reroll happens automatically when the turn begins.
- Dice and tactics name dice by their values (all dice of a nation are alike).
- Resource and area categories count the regions placed on the strategy card,
  not regions taken as tactics: a region placed in the hand is a tactic from
  then on (it may be played and discarded) and counts in Reserves and Tactics. With several strategy cards the newest governs
  capacities during the game, the chosen one the scoring; regions already
  placed stay even beyond the chosen card's capacity.
- End of game: seats with several strategy cards choose one (simultaneous,
  ChooseStrategy); then the game is over and score() ranks by points, ties by
  the highest initiative.
- Dedran's ability (wins ties in Reserves and Tactics) counts as half a point
  more there, so tied rivals fall to the next distinct total.
- Varg'ree's ability keeps the top die of the first region (in Coil order) it
  claims by battle; that die returns to its reserves with its value.
- Claimed regions' faces are hidden in views and feeds of other seats until
  the end; which area each went to is public (cards are placed in sight). At
  the end the chosen strategy cards and claimed regions are face up for all.
- Tactic "swap two dice" (swap_pip, data.json): exchanging two dice of one
  colour in one's own reserves would change nothing, so it moves one pip: the
  first named die +1, the second -1 (both wrap).

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
from .legal import legal_commands, on_timeout
from .messages import COMMANDS, EVENTS
from .scoring import outcome
from .shapes import HAND, STANDING_DETAIL, VIEW
from .unseen import twin
from .views import view, visible
from .words import COMMAND_SENTENCES, SENTENCES

RULES = Game(
    name="the-coil",
    title="The Coil",
    min_seats=2,
    max_seats=5,
    # Expansion, Muster, Conquest and the final choice of a strategy card are
    # simultaneous; dice, shuffles and draws come from the random source;
    # hands, strategy cards and deck orders are hidden; every seat plays alone.
    traits=Traits(simultaneous=True, chance=True, hidden_information=True, teams=False),
    options=rules.OPTIONS,
    commands=COMMANDS,
    events=EVENTS,
    seats=rules.seats,
    setup=rules.setup,
    evolve=evolve,
    decide=decide,
    to_act=rules.to_act,
    legal_commands=legal_commands,
    on_timeout=on_timeout,
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
    state_version=2,
)
