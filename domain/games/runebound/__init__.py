"""Runebound: Crown of the Elder Kings — the adventure variant, on a compact Runebound core.

The base game (Runebound second edition) is not provided, so the server carries a
*compact Runebound core* (a stand-in, see data.json's "assumptions") and the
variant's own rules exactly: Crown cards replacing drawn Runebound encounters and
events, Vassal sets, wild Dragon Lords, Lord Margath, the Endgame and the Elder
King Confrontation.

Decisions where the rulebook and the brief are silent:
- Players choose their heroes from the eight hero cards in seat order (option
  choose_heroes; off: heroes are dealt at random).
- A turn: refresh (ready every card, discard exhaustion), movement (one movement
  die rolled when the turn begins; walk up to that many roads), adventure at a
  wild place that holds a counter, market in a town (heal, buy), experience.
- When a Runebound green/yellow deck is empty, its Crown deck is drawn directly.
  When the Runebound redraw (Crown deck empty) brings another encounter or event,
  the replacement rule applies again: it is discarded (an event still
  replenishes) and the player draws again, until a challenge comes up or the
  deck is empty (then the adventure comes to nothing).
- An undefeated challenge (retreat, knock-out) goes back under its deck; a red
  one goes just above Lord Margath, who stays the last red card.
- An adventure counter is won by defeating the challenge or resolving the
  encounter (passing its test if it has one); an event leaves it on the map.
- Events affect every hero still in play.
- Defending costs 1 exhaustion (plus a Vassal's text); exhaustion beyond stamina
  becomes wounds. Against a card the hero's hit resolves first: an enemy it
  defeats deals no damage that phase. A hero may retreat from an adventure
  combat only before a round begins; there is no retreat in the Endgame.
- Allies fight in every combat while ready and are exhausted after it; a ready
  ally takes the wounds its phase deals to its hero first, and is discarded
  when its wounds reach its life.
- Hero against hero: the challenger declares attack or defend first, secretly,
  then the Elder King chooses; rolls and damage are simultaneous; both suffer
  1 exhaustion of fatigue at the end of each round.
- If the challenger and the Elder King are knocked out together, both are
  eliminated; the next challenger (if any) becomes Elder King without a fight,
  else the most recent Elder King wins.
- The rulebook has no time limit, so by default none applies. An optional stand-in
  doom limit (option doom_rounds, default 0 = off; tests set it to bound games)
  ends a game in which nobody became Elder King after that many rounds:
  Vorakesh raises Margath and nobody wins.
- The stand-in decks are finite: when a turn ends with no adventure counter on
  the map that can be attempted (its decks are empty), nothing can change any
  more (no card can be drawn, so no event refills a counter), and the game ends
  the same way (DoomFell, reason "no_adventure_left").
- Standings: the last Elder King first, then the other heroes by how long they
  lasted in the Endgame.

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
from .legal import legal_commands, on_timeout, to_act
from .messages import COMMANDS, EVENTS
from .shapes import HAND, STANDING_DETAIL, VIEW
from .twin import twin
from .views import outcome, view, visible
from .words import COMMAND_SENTENCES, SENTENCES

RULES = Game(
    name="runebound",
    title="Runebound: Crown of the Elder Kings",
    min_seats=2,
    max_seats=6,
    # One seat acts at a time (a duel's two sides answer one after the other);
    # decks are shuffled and dice rolled; deck orders and a challenger's
    # declared action are hidden; every hero plays for himself.
    traits=Traits(simultaneous=False, chance=True, hidden_information=True, teams=False),
    options=rules.OPTIONS,
    commands=COMMANDS,
    events=EVENTS,
    seats=rules.seats,
    setup=rules.setup,
    evolve=evolve,
    decide=decide,
    to_act=to_act,
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
)
