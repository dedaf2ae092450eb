"""The body limit for bodies sent without a Content-Length (chunked).

werkzeug applies MAX_CONTENT_LENGTH to such a stream by reading up to the
limit and stopping there without a word, so a body over the limit reached the
app cut short: broken JSON, a 400. Here the body is read up to one byte past
the limit before Flask sees it: over the limit is a 413 like a body whose
Content-Length says so; within it, the app reads the whole body as usual.
"""

from __future__ import annotations

import io

from .errors import problem


class ChunkedBodyLimit:
    def __init__(self, wsgi_app, app):
        self.wsgi_app = wsgi_app
        self.app = app

    def __call__(self, environ, start_response):
        limit = self.app.config.get("MAX_CONTENT_LENGTH")
        # Only a server that ends the stream itself (it decodes the chunks)
        # gives a stream that is safe to read to its end.
        chunked = "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower()
        if limit and chunked and environ.get("wsgi.input_terminated"):
            body = environ["wsgi.input"].read(limit + 1)
            if len(body) > limit:
                response = problem(413, f"the body is larger than {limit} bytes; send less",
                                   headers={"Connection": "close"})
                return response(environ, start_response)
            environ["wsgi.input"] = io.BytesIO(body)
        return self.wsgi_app(environ, start_response)
