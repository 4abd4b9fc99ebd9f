# Counts the instructions one incall executes, by single-stepping it in gdb
# (this VM exposes no hardware counters, and valgrind crashes on Go
# binaries). Deterministic, unlike CPU time on a shared machine. Usage
# (lab/perf-incall.md):
#
#   go test -c -o calc.test ./runtime/probe/internal/calcbench/
#   GOGC=off GODEBUG=asyncpreemptoff=1 gdb -q -batch -x lab/scripts/count-instructions.py \
#       --args ./calc.test -test.run XXX -test.bench 'Incall/caller' -test.benchtime 1000x -test.cpu 1
#
# It stops at the 151st call of calcbench._capture_in_0 (the instrumented
# Add, capture on), steps through that call to its return and prints the
# total and the instructions per function (inlined code counts under the
# inlined function's name).
import collections

import gdb

gdb.execute("set pagination off")
gdb.execute("set confirm off")
gdb.execute("break *'github.com/rules-capture/rules_capture/runtime/probe/internal/calcbench._capture_in_0'")
gdb.execute("run", to_string=True)
gdb.execute("ignore 1 150", to_string=True)
gdb.execute("continue", to_string=True)
gdb.execute("set scheduler-locking on")
inf = gdb.selected_inferior()
sp = int(gdb.parse_and_eval("$sp"))
ret = int.from_bytes(inf.read_memory(sp, 8).tobytes(), "little")
n = 0
per_func = collections.Counter()
while n < 20000:
    pc = int(gdb.parse_and_eval("$pc"))
    if pc == ret and int(gdb.parse_and_eval("$sp")) > sp:
        break
    per_func[gdb.selected_frame().name() or hex(pc)] += 1
    gdb.execute("stepi", to_string=True)
    n += 1
print("instructions per call:", n)
for f, c in per_func.most_common():
    print("  %5d %s" % (c, f.replace("github.com/rules-capture/rules_capture/", "")))
gdb.execute("kill")
