"""Ingest: read hand histories, replay every game through the engine, load the valid ones into
the warehouse and quarantine the rest with the reason."""

from ingest.run import IngestIOError, IngestSummary, ingest_paths, rebuild_paths

__all__ = ["IngestIOError", "IngestSummary", "ingest_paths", "rebuild_paths"]
