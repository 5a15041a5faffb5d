# perf's tests/shell/record.sh with its hardware events replaced by software
# ones (this VM has no hardware PMU): instructions:u -> cpu-clock:u, the
# br_inst_retired.near_call:p register capture -> cpu-clock:p, and the
# "perf list" check for that event -> one for cpu-clock.
s/instructions:u/cpu-clock:u/g
s/egrep -q 'br_inst_retired\.near_call'/egrep -q 'cpu-clock'/
s/br_inst_retired\.near_call:p/cpu-clock:p/g
