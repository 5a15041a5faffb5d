# perf's tests/shell/record.sh with its hardware events replaced by software
# ones (this VM has no hardware PMU): instructions:u -> cpu-clock:u, the
# br_inst_retired.near_call:p register capture -> cpu-clock:p, and the
# "perf list" check for that event -> one for cpu-clock. The per-thread
# test records `true`: at cpu-clock's default 4 kHz its few hundred
# microseconds of user time get no sample one run in four (perf and lupe
# alike), so that record samples every 10 us (-c 10000).
s/instructions:u/cpu-clock:u/g
s/egrep -q 'br_inst_retired\.near_call'/egrep -q 'cpu-clock'/
s/br_inst_retired\.near_call:p/cpu-clock:p/g
s/cpu-clock:u --per-thread/cpu-clock:u -c 10000 --per-thread/
