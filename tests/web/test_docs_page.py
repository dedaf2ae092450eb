"""The interactive docs page draws the document under its
Content-Security-Policy (api/http/security_headers.py): no script or style it
needs is refused."""

from __future__ import annotations


def test_the_docs_page_draws_every_operation_with_no_policy_violation(person):
    reader = person()
    page = reader.open("/v1/docs")
    page.wait_for_selector(".opblock", timeout=15_000)
    assert page.locator(".opblock").count() > 20
    assert not [error for error in reader.console_errors if "Content Security Policy" in error
                or "Refused" in error], reader.console_errors
    assert reader.foreign_requests == []
