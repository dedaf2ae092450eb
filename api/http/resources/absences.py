"""The caller's absences: declared for all of his games, within a yearly
allowance (BOARDLOG_ABSENCE_DAYS_PER_YEAR); see api/service/absences.py for
what they do to the games."""

from __future__ import annotations

import uuid

import marshmallow as ma
from flask.views import MethodView
from flask_smorest import Blueprint

from ..auth import BEARER, current_player
from ..context import service
from ..contract import declare
from ..idempotency import idempotent
from ...service.absences import AbsenceNotFound

blp = Blueprint("absences", __name__, url_prefix="/v1/players/me/absences",
                description="Your absences: while one lasts, your seats are away, their deadlines and banks stopped")


class AbsenceSchema(ma.Schema):
    """An absence you declared: while it runs, every seat you hold is away,
    its deadlines and time bank stopped."""

    id = ma.fields.UUID(required=True, metadata={
        "description": "the absence's id: DELETE /v1/players/me/absences/{id} ends or withdraws it"})
    from_ = ma.fields.DateTime(required=True, data_key="from", metadata={"description": "when it begins (UTC)"})
    to = ma.fields.DateTime(required=True, metadata={"description": "when it ends (UTC)"})
    declared_at = ma.fields.DateTime(required=True, metadata={"description": "when you declared it (UTC)"})
    current = ma.fields.Boolean(required=True, metadata={"description": "it runs now"})
    instead_of_timeout = ma.fields.Boolean(required=True, metadata={
        "description": "a day of the allowance spent instead of a timeout (you did not declare it)"})


class AbsenceListSchema(ma.Schema):
    """Your absences that have not ended, and how much of this year's allowance you used."""

    absences = ma.fields.List(ma.fields.Nested(AbsenceSchema), required=True,
                              metadata={"description": "your absences that have not ended, soonest first"})
    allowance_days = ma.fields.Integer(required=True, metadata={"description": "days of absence a player may "
                                                                "declare per year (by the year each begins)"})
    used_this_year_days = ma.fields.Float(required=True, metadata={"description": "days declared for this year"})
    spend_before_timeout = ma.fields.Boolean(required=True, metadata={
        "description": "when one of your seats would time out and a whole day of the allowance is left, a day is "
                       "spent instead: you are away for a day from then, in all your games (true unless you opt out)"})


class AbsenceSpendingSchema(ma.Schema):
    """Whether a day of your allowance is spent instead of a timeout."""

    spend_before_timeout = ma.fields.Boolean(required=True, metadata={
        "description": "true (the default): spend a day rather than time out; false: time out as the deadline says"})


class DeclareAbsenceSchema(ma.Schema):
    """An absence to declare for all of your games, within the year's allowance."""

    from_ = ma.fields.AwareDateTime(required=True, data_key="from", default_timezone=None,
                                    metadata={"description": "when it begins: now or later (ISO 8601 with its offset)",
                                              "example": "2026-07-01T00:00:00Z"})
    to = ma.fields.AwareDateTime(required=True, metadata={"description": "when it ends, after it begins",
                                                          "example": "2026-07-08T00:00:00Z"})


def _shown(absence: dict) -> dict:
    return {**absence, "from_": absence["from"]}


@blp.route("")
class Absences(MethodView):
    @blp.doc(operationId="listAbsences", security=BEARER)
    @blp.response(200, AbsenceListSchema)
    def get(self):
        """Your absences that have not ended, and how much of this year's allowance you used."""
        listed = service().absences.absences_of(current_player())
        return {**listed, "absences": [_shown(a) for a in listed["absences"]]}

    @idempotent
    @blp.doc(operationId="declareAbsence", security=BEARER)
    @blp.arguments(DeclareAbsenceSchema)
    @blp.response(201, AbsenceSchema)
    @declare(blp, "absence-refused")
    def post(self, body):
        """Declare an absence for all of your games. Refused (422, nothing
        stored) when it starts in the past, ends before it starts, overlaps
        another of yours, or exceeds what is left of the year's allowance."""
        return _shown(service().absences.declare_absence(current_player(), body["from_"], body["to"]))


@blp.route("/spending")
class AbsenceSpending(MethodView):
    @blp.doc(operationId="setAbsenceSpending", security=BEARER)
    @blp.arguments(AbsenceSpendingSchema)
    @blp.response(200, AbsenceListSchema)
    def put(self, body):
        """Choose whether a day of your absence allowance is spent when one of your seats would time out."""
        listed = service().absences.set_spending(current_player(), body["spend_before_timeout"])
        return {**listed, "absences": [_shown(a) for a in listed["absences"]]}


@blp.route("/<absence_id>")
class Absence(MethodView):
    @blp.doc(operationId="endAbsence", security=BEARER)
    @blp.response(200, AbsenceSchema)
    @declare(blp, "absence-not-found", "wrong-status")
    def delete(self, absence_id):
        """End an absence early (now), or withdraw one that has not begun."""
        try:
            parsed = uuid.UUID(absence_id)
        except ValueError:
            raise AbsenceNotFound(f"you declared no absence {absence_id!r}") from None
        return _shown(service().absences.end_absence(current_player(), parsed))
