"""Replay, export/import and independent verification of match logs."""
