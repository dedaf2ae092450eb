"""The referee's tools: checking an exported game offline, signed receipts, and every stored
history against the installed code."""
