"""awb's errors in Python: one class per exit code of the CLI, each carrying the CLI's error id."""


class Error(Exception):
    """An error awb reports: ``id`` is the CLI's stable id (docs/errors.md), ``exit_code`` the
    code ``awb`` exits with for it, ``message`` the text after ``[id]``."""

    def __init__(self, id, message, exit_code=1):
        super().__init__(message)
        self.id = id
        self.message = message
        self.exit_code = exit_code


class UsageError(Error):
    """A call that names nothing or asks for what does not go together (the CLI's exit 2)."""


class InputError(Error):
    """An input file or array that is invalid (the CLI's exit 3)."""


class PluginError(Error):
    """A plugin that did not load, was not found, or failed or crashed in its call: every
    ``plugin.*`` and ``runner.*`` id, and the CLI's exit 4."""


class CannotRunError(Error):
    """The variant cannot do what is asked: a capability or parameter it lacks (the CLI's exit
    5)."""


_BY_EXIT_CODE = {2: UsageError, 3: InputError, 4: PluginError, 5: CannotRunError}


def from_failure(failure):
    """The awb.Error for a ``_core.Failure(id, text, exit_code)``."""
    id, text, exit_code = failure.args
    if id.startswith(("plugin.", "runner.")):
        cls = PluginError
    else:
        cls = _BY_EXIT_CODE.get(exit_code, Error)
    return cls(id, text, exit_code)
