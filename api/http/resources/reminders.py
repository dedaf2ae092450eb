"""A player's reminders before a deadline or an empty time bank: how long
before, on which channels (api/service/reminders.py)."""

from __future__ import annotations

import marshmallow as ma
from flask.views import MethodView
from flask_smorest import Blueprint

from ..auth import BEARER, current_player
from ..context import service
from ...service import reminders

blp = Blueprint("reminders", __name__, url_prefix="/v1/players/me/reminders",
                description="Reminders before a deadline or before your time bank runs out")

DAY = 86400
_CHANNEL_TEXT = {
    "stream": "on your player stream (GET /v1/players/me/stream), as a `reminder` notice",
    "mail": "by mail, to your confirmed address (unless game mails are off)",
    "webhook": "to your webhooks that subscribe to the `reminder` kind",
    "push": "as a notification on each of your devices with Web Push (/v1/players/me/push-subscriptions)",
}
_OFFSETS_TEXT = (f"seconds before the deadline, each from 1 to {reminders.MAX_OFFSET_SECONDS} (a week), at most "
                 f"{reminders.MAX_OFFSETS}; the default is {list(reminders.DEFAULT_OFFSETS)} (12 h and 1 h); an "
                 "empty list: no reminder on this channel. One reminder per offset and turn; an offset that "
                 "reaches back before your turn began is passed over (you were told your turn then)")
_TOO_EARLY = (f"a reminder comes before the deadline: give a number of seconds from 1 to "
              f"{reminders.MAX_OFFSET_SECONDS} (a week)")
_NOT_SECONDS = "a reminder offset is a whole number of seconds before the deadline"
_TOO_LONG = f"a reminder comes at most a week ({reminders.MAX_OFFSET_SECONDS} s) before the deadline"


def _offsets(channel: str, required: bool) -> ma.fields.List:
    seconds = ma.fields.Integer(strict=True, error_messages={"invalid": _NOT_SECONDS}, validate=[
        ma.validate.Range(min=1, error=_TOO_EARLY), ma.validate.Range(max=reminders.MAX_OFFSET_SECONDS, error=_TOO_LONG),
    ])
    return ma.fields.List(seconds, required=required, validate=ma.validate.Length(
        max=reminders.MAX_OFFSETS, error=f"at most {reminders.MAX_OFFSETS} reminders per channel"),
        metadata={"description": f"reminders {_CHANNEL_TEXT[channel]}: {_OFFSETS_TEXT}"})


class ReminderSettingsSchema(ma.Schema):
    """When you are reminded before a deadline, per channel: seconds before
    it, the earliest first. A reminder says which game, how long is left and
    what the deadline does (the timeout move, or abandonment to a bot). None
    comes for a paused game, a seat away, or after you moved."""

    stream = _offsets("stream", True)
    mail = _offsets("mail", True)
    webhook = _offsets("webhook", True)
    push = _offsets("push", True)


class ReminderSettingsChangeSchema(ma.Schema):
    """The channels to change; those left out stay as they are."""

    stream = _offsets("stream", False)
    mail = _offsets("mail", False)
    webhook = _offsets("webhook", False)
    push = _offsets("push", False)


@blp.route("")
class ReminderSettings(MethodView):
    @blp.doc(operationId="getReminderSettings", security=BEARER)
    @blp.response(200, ReminderSettingsSchema)
    def get(self):
        """When you are reminded before a deadline, per channel."""
        with service().pool.connection() as conn:
            return reminders.settings(conn, current_player())

    @blp.doc(operationId="updateReminderSettings", security=BEARER)
    @blp.arguments(ReminderSettingsChangeSchema)
    @blp.response(200, ReminderSettingsSchema)
    def patch(self, changes):
        """Change when you are reminded; your games' next reminders follow at once."""
        player = current_player()
        with service().pool.connection() as conn:
            chosen = reminders.update_settings(conn, player, changes)
            games = reminders.games_of(conn, player)
        for game_id in games:
            service().reminders.schedule(game_id, service().scheduler)
        return chosen
