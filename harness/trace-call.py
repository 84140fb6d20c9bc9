# SPDX-License-Identifier: GPL-2.0
# gdb script of `make trace-call`: single-step one call of the tracee
# that harness/guest/trace.sh keeps calling, from its first instruction
# to its return, and count the instructions by function.
#
# gdb -batch -nx -x trace-call.py with the environment:
#   TRACE_PORT  QEMU's gdbstub on localhost
#   TRACE_MAP   the kernel's System.map
#   TRACE_SYMS  the guest's report (@@sym and @@tracee lines)
#   TRACE_OUT   where the instruction-by-instruction trace goes
import bisect
import gdb
import os

MAX_STEPS = 20000


def load_symbols():
    syms = []
    for path, prefix in ((os.environ["TRACE_MAP"], ""),
                         (os.environ["TRACE_SYMS"], "@@sym ")):
        for line in open(path, errors="replace"):
            if not line.startswith(prefix):
                continue
            p = line[len(prefix):].split()
            if len(p) >= 3 and p[1] in "tTwW":
                name = p[2] + (" " + p[3] if len(p) > 3 else "")
                syms.append((int(p[0], 16), name))
    syms.sort()
    return [a for a, _ in syms], [n for _, n in syms]


def calls_wanted():
    """How many calls in a row the guest asked to step (@@calls), 1 if none."""
    with open(os.environ["TRACE_SYMS"]) as f:
        for line in f:
            if line.startswith("@@calls "):
                return int(line.split()[1])
    return 1


def tracee_address():
    for line in open(os.environ["TRACE_SYMS"], errors="replace"):
        if line.startswith("@@tracee "):
            return int(line.split()[1], 16)
    raise gdb.GdbError("the guest reported no tracee")


def reg(name):
    return int(gdb.parse_and_eval("$" + name)) & (2**64 - 1)


def one_call(tracee):
    """The pcs of one call of the tracee, or None if it was not hooked."""
    # Every vCPU runs until one meets the breakpoint; then that one
    # alone steps, so that the others' work stays out of the count.
    gdb.execute("set scheduler-locking off")
    gdb.execute("continue", to_string=True)
    gdb.execute("set scheduler-locking on")
    if reg("pc") != tracee:
        return None
    ret = int(gdb.selected_inferior().read_memory(reg("sp"), 8).tobytes()[::-1].hex(), 16)
    pcs = [reg("pc")]
    while len(pcs) < MAX_STEPS:
        gdb.execute("stepi", to_string=True)
        pc = reg("pc")
        if pc == ret:
            return pcs
        # A step now and then reports the pc it started from: a pc is
        # counted once in a row (so is a rep-prefixed instruction, which
        # stops once per iteration).
        if pc != pcs[-1]:
            pcs.append(pc)
    raise gdb.GdbError(f"no return after {MAX_STEPS} instructions")


def main():
    addrs, names = load_symbols()
    tracee = tracee_address()
    gdb.execute("set pagination off")
    gdb.execute(f"target remote localhost:{os.environ['TRACE_PORT']}",
                to_string=True)
    gdb.execute(f"break *{tracee:#x}", to_string=True)
    for _ in range(10):
        pcs = one_call(tracee)
        # A call made while the hooks were still being set up is short.
        if pcs and len(pcs) > 8:
            break
    else:
        raise gdb.GdbError("no hooked call of the tracee seen")
    # A row may ask for the next calls too (a workload's round of calls).
    for _ in range(calls_wanted() - 1):
        more = one_call(tracee)
        if more is None:
            raise gdb.GdbError("the tracee's next call was not seen")
        pcs += more

    def name(pc):
        i = bisect.bisect_right(addrs, pc) - 1
        return names[i] if i >= 0 else "?"

    runs = []
    with open(os.environ["TRACE_OUT"], "w") as f:
        for pc in pcs:
            n = name(pc)
            f.write(f"{pc:#x} {n}\n")
            if runs and runs[-1][0] == n:
                runs[-1][1] += 1
            else:
                runs.append([n, 1])
    totals = {}
    for n, c in runs:
        totals[n] = totals.get(n, 0) + c
    print("@@path")
    for n, c in runs:
        print(f"  {c:5d}  {n}")
    print("@@functions")
    for n, c in sorted(totals.items(), key=lambda t: -t[1]):
        print(f"  {c:5d}  {n}")
    print(f"@@total {len(pcs)}")
    gdb.execute("delete")
    gdb.execute("kill", to_string=True)


main()
