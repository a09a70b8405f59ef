"""The mark of tests that need MLflow, the optional extra ``evalfw[mlflow]``."""

from __future__ import annotations

import importlib.util

import pytest

needs_mlflow = pytest.mark.skipif(importlib.util.find_spec("mlflow") is None,
                                  reason="MLflow is the optional extra evalfw[mlflow]; "
                                         "pip install 'evalfw[mlflow]' to run these tests")
