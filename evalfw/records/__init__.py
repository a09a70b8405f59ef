"""Stored run records: the record schema, the atomic versioned store, loading and listing.

Layout: ``<output_dir>/<experiment>/<version>/`` holding ``record.json`` (validated against
``record.schema.json``), ``segments.npz`` (per-segment statistics) and rendered reports.
"""
