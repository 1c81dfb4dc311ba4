"""Runs the tests' Python verifier scripts (and `python -c` probes) one after another in one long-lived
interpreter, so that each run does not pay for starting Python and importing cryptography, PyJWT or
Apple's library again (Tests/InteropSupport/PythonRunner.swift starts it).

Reads requests on stdin, one JSON object per line: {"argv": ["SCRIPT.py" or "-c", ...], "stdin": "base64"};
answers each on stdout with one line: {"status": N, "stdout": "base64", "stderr": "base64"}, as if
`python ARGV...` had run with that standard input: the script runs as `__main__` with sys.argv,
sys.stdin, sys.stdout and sys.stderr of its own, and its exit status is what sys.exit gave (0 when it
returned, 1 with the traceback on stderr when it raised). Only the library modules it imports are
shared between runs; every run executes the script afresh.
"""
import base64
import io
import json
import os
import runpy
import sys
import traceback


def run(argv, stdin):
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
            exec(compile(argv[1], "<string>", "exec"), {"__name__": "__main__"})
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
    answer = status, out.getvalue(), err.getvalue()
    for stream in streams:
        stream.detach()
    return answer


def main():
    requests, answers = sys.stdin.buffer, sys.stdout.buffer
    for line in requests:
        request = json.loads(line)
        status, out, err = run(request["argv"], base64.b64decode(request.get("stdin", "")))
        answer = {
            "status": status,
            "stdout": base64.b64encode(out).decode(),
            "stderr": base64.b64encode(err).decode(),
        }
        answers.write(json.dumps(answer).encode() + b"\n")
        answers.flush()


if __name__ == "__main__":
    main()
