#!/usr/bin/env python3
# A reference folding of perf script's text by stackcollapse-perf.pl's rules
# (FlameGraph's script, default options), written from its documented
# behaviour for the tests: lines "comm [pid/]tid ... [period] event:" open
# a sample, indented "addr sym[+0xoff] (dso)" lines are its frames from the
# innermost out, a blank line ends it; only samples of the first event
# (by name) count, weighted by their period (1 when the line shows none).
import re
import sys

head = re.compile(r'^(\S.+?)\s+(\d+)/*(\d+)*\s+')
period_event = re.compile(r':\s*(\d+)*\s+(\S+):\s*$')
frame = re.compile(r'^\s*(\w+)\s*(.+) \((.*)\)')

def tidy(func, mod):
    out = []
    parts = func.split('->')
    while len(parts) > 1 and parts[-1] == '':
        parts.pop()   # perl's split drops trailing empty fields
    for i, f in enumerate(parts):
        if f == '[unknown]':
            f = '[' + (re.sub(r'.*/', '', mod) if mod != '[unknown]' else 'unknown') + ']'
        f = f.replace(';', ':')
        if not re.search(r'\.\(.*\)\.', f):
            f = re.sub(r'\((?!anonymous namespace\)).*', '', f)
        f = f.replace('"', '').replace("'", '')
        if i > 0 and '_[i]' not in f:
            f += '_[i]'
        out.append(f)
    return out

def main():
    collapsed = {}
    stack, pname, period, event_filter = [], None, 1, ''
    for line in sys.stdin:
        if line.startswith('#'):
            continue
        line = line.rstrip('\n')
        if line == '':
            if pname:
                key = ';'.join([pname] + stack)
                collapsed[key] = collapsed.get(key, 0) + period
            stack, pname = [], None
            continue
        m = head.match(line)
        if m:
            comm = m.group(1)
            pe = period_event.search(line)
            p = None
            if pe:
                p, event = pe.group(1), pe.group(2)
                if event_filter == '':
                    event_filter = event
                elif event != event_filter:
                    continue
            period = int(p) if p else 1
            pname = comm.replace(' ', '_')
            continue
        m = frame.match(line)
        if m:
            if not pname:
                continue
            rawfunc, mod = m.group(2), m.group(3)
            rawfunc = re.sub(r'\+0x[\da-f]+$', '', rawfunc)
            if rawfunc.startswith('('):
                continue
            parts = tidy(rawfunc, mod)
            if pname.startswith('java'):
                parts = [f[1:] if f.startswith('L') and '/' in f else f for f in parts]
            stack[0:0] = parts
            continue
        sys.stderr.write('unrecognized line: %s\n' % line)
    for k in sorted(collapsed, key=lambda s: s.encode()):
        print('%s %d' % (k, collapsed[k]))

main()
