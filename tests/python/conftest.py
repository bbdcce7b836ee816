"""Shared fixtures of the Python module's tests: the built awb, its mutants and fixtures."""

import os
import pathlib

import pytest

# ctest's SKIP_RETURN_CODE for python.module: without NumPy every file is skipped, and the run
# says so to ctest rather than passing.
NO_NUMPY_EXIT = 77


def pytest_sessionfinish(session, exitstatus):
    if not _numpy_imports():
        session.exitstatus = NO_NUMPY_EXIT


def _numpy_imports():
    try:
        import numpy  # noqa: F401
    except ImportError:
        return False
    return True


BUILD = pathlib.Path(os.environ.get("AWB_BUILD_DIR", ""))


@pytest.fixture(scope="session")
def build_dir():
    if not (BUILD / "bin" / "awb").exists():
        pytest.fail("AWB_BUILD_DIR must name the build folder holding bin/awb (ctest sets it)")
    return BUILD


@pytest.fixture(scope="session")
def awb_cli(build_dir):
    return str(build_dir / "bin" / "awb")
