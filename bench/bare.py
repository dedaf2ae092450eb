"""The baseline of bench/api.py: a bare Flask app served the same way."""

from flask import Flask, jsonify, request

app = Flask("bare")


@app.get("/ping")
def ping():
    if request.headers.get("If-None-Match") == '"1"':
        return "", 304
    return jsonify(ok=True)


@app.post("/ping")
def pong():
    return jsonify(ok=True, got=request.get_json(silent=True))
