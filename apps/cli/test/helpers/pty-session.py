"""Runs a command in a pseudo-terminal and answers its y/n prompts, like a person at a terminal.

Usage: python3 pty-session.py '<json list of answers>' command [args...]
Each time the output shows one more prompt ("[y/n", or a follow-up question ending in ":" such as the reason of a
denial) than has been answered, the next answer is typed.
Prints everything the terminal showed and exits with the command's exit code (124 on timeout).
"""
import json
import os
import pty
import select
import signal
import sys
import time

answers = json.loads(sys.argv[1])
PROMPTS = (b"[y/n", b"(the agent sees it): ", b"(JSON object): ", b"sees instead: ")
command = sys.argv[2:]
pid, fd = pty.fork()
if pid == 0:
    os.execvp(command[0], command)

output = b""
answered = 0
deadline = time.time() + 60
while True:
    if time.time() > deadline:
        os.kill(pid, signal.SIGKILL)
        sys.stdout.buffer.write(output)
        sys.exit(124)
    ready, _, _ = select.select([fd], [], [], 0.2)
    if fd not in ready:
        continue
    try:
        data = os.read(fd, 65536)
    except OSError:
        break
    if not data:
        break
    output += data
    while sum(output.count(prompt) for prompt in PROMPTS) > answered and answered < len(answers):
        os.write(fd, (answers[answered] + "\n").encode())
        answered += 1

_, status = os.waitpid(pid, 0)
sys.stdout.buffer.write(output)
sys.exit(os.waitstatus_to_exitcode(status))
