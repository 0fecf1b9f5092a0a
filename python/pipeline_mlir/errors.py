"""Exceptions of pipeline_mlir.

Every failure the package can see is one of these, with a message that says
what was wrong and, for compiler diagnostics, where in the user's source.
"""


class PipelineError(Exception):
    """Base class of every error raised by pipeline_mlir."""


class Diagnostic:
    """One diagnostic of the compiler: severity, location, message, notes."""

    def __init__(self, severity, message, file="", line=0, column=0, notes=()):
        self.severity = severity
        self.message = message
        self.file = file
        self.line = line
        self.column = column
        self.notes = list(notes)

    @property
    def location(self):
        if not self.file:
            return ""
        return f"{self.file}:{self.line}:{self.column}"

    def format(self):
        where = self.location
        text = f"{where}: {self.severity}: {self.message}" if where else \
            f"{self.severity}: {self.message}"
        for note in self.notes:
            text += "\n  " + note.format().replace("\n", "\n  ")
        return text

    def __repr__(self):
        return f"Diagnostic({self.format()!r})"


class CompileError(PipelineError):
    """The compiler rejected a kernel. `diagnostics` holds what it said;
    the message lists them with their locations (the user's Python lines
    for kernels built with this package)."""

    def __init__(self, summary, diagnostics):
        self.diagnostics = list(diagnostics)
        self.summary = summary
        body = "\n".join(d.format() for d in self.diagnostics)
        super().__init__(f"{summary}\n{body}" if body else summary)

    @property
    def errors(self):
        return [d for d in self.diagnostics if d.severity == "error"]


class ToolchainError(PipelineError):
    """The compiler library or the CUDA toolkit is missing or unusable."""


class BuildError(PipelineError):
    """A kernel under construction was used wrongly (a Python-side check,
    raised at the offending line before any compilation)."""


class CudaError(PipelineError):
    """The CUDA driver is missing or a driver call failed."""

    def __init__(self, message, code=None):
        self.code = code
        super().__init__(message)


class LaunchError(PipelineError):
    """A launch was refused before reaching the GPU (arguments, shared
    memory, chip) or failed on it."""
