"""Shared fixtures of the Python module's tests: the built awb, its mutants and fixtures."""

import os
import pathlib

import pytest

# Without NumPy there is no module to test: the suite says so and is skipped, nothing else.
np = pytest.importorskip("numpy", reason="this python3 has no NumPy (python3-numpy)")

BUILD = pathlib.Path(os.environ.get("AWB_BUILD_DIR", ""))


@pytest.fixture(scope="session")
def build_dir():
    if not (BUILD / "bin" / "awb").exists():
        pytest.fail("AWB_BUILD_DIR must name the build folder holding bin/awb (ctest sets it)")
    return BUILD


@pytest.fixture(scope="session")
def awb_cli(build_dir):
    return str(build_dir / "bin" / "awb")
