"""The interactive docs page's scripts and styles, served from the installed
swagger-ui-bundle-v2 package (Swagger UI, Apache 2.0; its licence ships with
the package), so that /v1/docs works offline. The path names the Swagger UI
version, so the files may be cached for good."""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, abort, send_from_directory
from swagger_ui_bundle import swagger_ui_path

FOLDER = Path(swagger_ui_path)
VERSION = FOLDER.name  # "swagger-ui-5.31.0"
URL = f"/v1/docs/{VERSION}/"
FILES = {"swagger-ui-bundle.js", "swagger-ui-standalone-preset.js", "swagger-ui.css", "favicon-32x32.png",
         "favicon-16x16.png", "oauth2-redirect.html", "oauth2-redirect.js"}

blp = Blueprint("docs_assets", __name__)


@blp.get(f"{URL}<name>")
def asset(name: str):
    if name not in FILES:
        abort(404)
    response = send_from_directory(FOLDER, name, max_age=365 * 24 * 3600)
    response.headers["Cache-Control"] = "public, max-age=31536000, immutable"
    return response
