"""Runs a stdio server and keeps a transcript: `record.py DIR -- CMD ARGS...`.

What the client writes goes to the server and to DIR/in, what the server
writes to the client and to DIR/out, line by line as they pass; when the
server exits, its status goes to DIR/status. The tests of Flow Tools served
over MCP put it between an official client and the Tool, to see what the
client sent (a cancel, with the request's id) and what the Tool did not send
(a response to a cancelled request), and that the Tool ended by itself once
its input ended (it waits for its running calls first, so a cancel that did
not reach its call would keep it running).

The standard library only: it runs under any Python 3.
"""

import os
import signal
import subprocess
import sys
import threading


def pump(source, sinks):
    try:
        for line in iter(source.readline, b""):
            for sink in sinks:
                sink.write(line)
                sink.flush()
        for sink in sinks[1:]:
            sink.close()
    except (OSError, ValueError):
        # The other side is gone (the server exited, or the logs closed).
        pass


def main():
    directory, dash, *command = sys.argv[1:]
    assert dash == "--" and command, __doc__
    server = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    # A client that gives up on the server stops this process: stop the server too.
    signal.signal(signal.SIGTERM, lambda *_: (server.kill(), os._exit(143)))
    with open(os.path.join(directory, "in"), "wb") as log_in, open(os.path.join(directory, "out"), "wb") as log_out:
        to_server = threading.Thread(target=pump, args=(sys.stdin.buffer, [log_in, server.stdin]))
        to_client = threading.Thread(target=pump, args=(server.stdout, [log_out, sys.stdout.buffer]))
        to_server.start()
        to_client.start()
        status = server.wait()
        to_client.join()
    with open(os.path.join(directory, "status"), "w") as log_status:
        log_status.write(f"{status}\n")
    # The thread still reading our stdin ends with the process.
    os._exit(status)


main()
