"""Runs the tests' Python verifier scripts (and `python -c` probes) one after another in one long-lived
interpreter, so that each run does not pay for starting Python and importing cryptography, PyJWT or
Apple's library again (Tests/InteropSupport/PythonRunner.swift starts it).

Reads requests on stdin, one JSON object per line: {"argv": ["SCRIPT.py" or "-c", ...], "stdin": "base64"};
answers each on stdout with one line: {"status": N, "stdout": "base64", "stderr": "base64"}, as if
`python ARGV...` had run with that standard input: the script runs as `__main__` with sys.argv,
sys.stdin, sys.stdout and sys.stderr of its own, and its exit status is what sys.exit gave (0 when it
returned, 1 with the traceback on stderr when it raised). Every run executes the script afresh.

Where it differs from a process of its own (no verifier of Tests/Interop does any of this): the
library modules it imports, and their state (logging's configuration, warning filters), os.environ
and the working folder are shared between runs; what child processes or C code write to fds 1 and 2
comes after the script's own output, and what they write after the run has ended comes with the
next run; sys.stdout has no file descriptor (fileno() raises); atexit handlers do not run.
"""
import base64
import fcntl
import io
import json
import os
import runpy
import sys
import tempfile
import traceback


def run(argv, stdin, fd_out, fd_err):
    out, err = io.BytesIO(), io.BytesIO()
    saved = sys.argv, sys.stdin, sys.stdout, sys.stderr
    # Kept here, and detached at the end: a wrapper that is collected closes the buffer beneath it.
    streams = (
        io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8"),
        io.TextIOWrapper(out, encoding="utf-8", write_through=True),
        io.TextIOWrapper(err, encoding="utf-8", write_through=True),
    )
    sys.stdin, sys.stdout, sys.stderr = streams
    status = 0
    try:
        if argv[0] == "-c":
            sys.argv = ["-c"] + argv[2:]
            # As `python -c` does: the current folder ("") first on the module path.
            sys.path.insert(0, "")
            try:
                exec(compile(argv[1], "<string>", "exec"), {"__name__": "__main__"})
            finally:
                del sys.path[0]
        else:
            sys.argv = list(argv)
            # As `python SCRIPT` does: the script's folder first on the module path.
            sys.path.insert(0, os.path.dirname(os.path.abspath(argv[0])))
            try:
                runpy.run_path(argv[0], run_name="__main__")
            finally:
                del sys.path[0]
    except SystemExit as exit:
        code = exit.code
        if code is None:
            status = 0
        elif isinstance(code, int):
            status = code
        else:
            print(code, file=sys.stderr)
            status = 1
    except BaseException:
        traceback.print_exc()
        status = 1
    finally:
        for stream in streams[1:]:
            stream.flush()
        sys.argv, sys.stdin, sys.stdout, sys.stderr = saved
    for stream in streams:
        stream.detach()
    # What the run's child processes (or C code) wrote to file descriptors 1 and 2, after its own.
    return status, out.getvalue() + drain(fd_out), err.getvalue() + drain(fd_err)


def drain(handle):
    """The bytes written to `handle` (a temporary file behind fd 1 or 2) since the last drain."""
    handle.flush()
    handle.seek(0)
    data = handle.read()
    handle.seek(0)
    handle.truncate()
    return data


def appending_temporary_file():
    """A temporary file (already unlinked) opened for reading and appending."""
    handle = tempfile.TemporaryFile()
    flags = fcntl.fcntl(handle.fileno(), fcntl.F_GETFL)
    fcntl.fcntl(handle.fileno(), fcntl.F_SETFL, flags | os.O_APPEND)
    return handle


def main():
    # The requests and answers travel on copies of fds 0 and 1; fd 0 becomes /dev/null and fds 1 and 2
    # temporary files, so nothing a run starts (a child process inherits 0, 1 and 2; a thread or C code
    # may write to them later) can read a request or write into the answers: the caller reads exactly
    # one line per request.
    requests = os.fdopen(os.dup(0), "rb")
    answers = os.fdopen(os.dup(1), "wb")
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    # O_APPEND: a writer's next write lands at the end even after a drain has emptied the file.
    fd_out, fd_err = appending_temporary_file(), appending_temporary_file()
    os.dup2(fd_out.fileno(), 1)
    os.dup2(fd_err.fileno(), 2)
    for line in requests:
        request = json.loads(line)
        status, out, err = run(request["argv"], base64.b64decode(request.get("stdin", "")), fd_out, fd_err)
        answer = {
            "status": status,
            "stdout": base64.b64encode(out).decode(),
            "stderr": base64.b64encode(err).decode(),
        }
        answers.write(json.dumps(answer).encode() + b"\n")
        answers.flush()


if __name__ == "__main__":
    main()
