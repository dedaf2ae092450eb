"""The registry of problem types, served so that a client can list every
``type`` URI an error may carry."""

from __future__ import annotations

import marshmallow as ma
from flask.views import MethodView
from flask_smorest import Blueprint

from .. import problems

blp = Blueprint("problems", __name__, url_prefix="/v1/problems", description="Every kind of error, one type URI per cause")


class ProblemTypeSchema(ma.Schema):
    """One kind of error: the type URI a problem document carries, and what it means."""

    type = ma.fields.String(required=True, metadata={"description": "the URI a problem document's `type` holds"})
    slug = ma.fields.String(required=True, metadata={"description": "the last segment of the URI"})
    status = ma.fields.Integer(required=True, metadata={"description": "the HTTP status it comes with"})
    title = ma.fields.String(required=True, metadata={"description": "its short name, for people (the problem's title)"})
    description = ma.fields.String(required=True, metadata={"description": "the cause, and what a client should do"})


class ProblemTypeListSchema(ma.Schema):
    """Every problem type an error of this server may carry."""

    problems = ma.fields.List(ma.fields.Nested(ProblemTypeSchema), required=True,
                              metadata={"description": "each type, by status, then by slug"})


@blp.route("")
class ProblemTypes(MethodView):
    @blp.doc(operationId="listProblemTypes")
    @blp.response(200, ProblemTypeListSchema)
    def get(self):
        """Every problem type, by status."""
        ordered = sorted(problems.REGISTRY.values(), key=lambda kind: (kind.status, kind.slug))
        return {"problems": [kind.to_json() for kind in ordered]}
