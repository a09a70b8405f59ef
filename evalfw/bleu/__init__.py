"""The BLEU engine: options -> components (spec), statistics, scoring, fast paths, public API."""
