/* lupe's browser view: one page, plain JS, no library. The data
 * (lib/export/web.c) is columns of typed arrays: a selection (a time range
 * and a set of threads) is added up into a weight per stack-tree node in
 * one pass over the samples, and every view is drawn from those weights. */
'use strict';
var L = {}; /* the state; tests read it (window.lupe) */
window.lupe = L;

function $(id) { return document.getElementById(id); }
function esc(s) { return String(s).replace(/[&<>"]/g, function (c) { return '&#' + c.charCodeAt(0) + ';'; }); }
function pct(a, b) { return b ? (100 * a / b).toFixed(2) + '%' : '0.00%'; }
function fmtNs(ns) { return ns >= 1e9 ? (ns / 1e9).toFixed(3) + ' s' : (ns / 1e6).toFixed(3) + ' ms'; }

function bytes(s) {
	var bin = atob(s), n = bin.length, u = new Uint8Array(n);
	for (var i = 0; i < n; i++) u[i] = bin.charCodeAt(i);
	return u.buffer;
}

/* The profile's typed columns, and what does not change with a selection. */
function decode(d) {
	var p = { d: d, nf: d.funcs.length, nn: d.nr_nodes, ns: d.nr_samples };
	var nodes = new Uint32Array(bytes(d.nodes));
	p.parent = new Int32Array(p.nn); p.func = new Uint32Array(p.nn); p.depth = new Uint16Array(p.nn);
	var maxd = 0;
	for (var i = 0; i < p.nn; i++) {
		p.parent[i] = nodes[2 * i] - 1; p.func[i] = nodes[2 * i + 1];
		/* a parent always comes before its children */
		p.depth[i] = p.parent[i] < 0 ? 0 : p.depth[p.parent[i]] + 1;
		if (p.depth[i] > maxd) maxd = p.depth[i];
	}
	p.maxDepth = maxd;
	/* times: ns since the previous sample (uint32), or since the first (float64) */
	if (d.time_bytes == 8) p.time = new Float64Array(bytes(d.time));
	else {
		var dt = new Uint32Array(bytes(d.time)), acc = 0;
		p.time = new Float64Array(dt.length);
		for (var j = 0; j < dt.length; j++) { acc += dt[j]; p.time[j] = acc; }
	}
	p.thread = d.thread_bytes == 2 ? new Uint16Array(bytes(d.thread)) : new Uint32Array(bytes(d.thread));
	p.stack = new Uint32Array(bytes(d.stack));
	if (d.period_bytes == 0) p.period = new Float64Array(p.ns).fill(d.period);
	else p.period = d.period_bytes == 8 ? new Float64Array(bytes(d.period)) : new Uint32Array(bytes(d.period));
	p.name = d.funcs.map(function (f) { return f[0]; });
	p.dso = d.funcs.map(function (f) { return f[1] >= 0 ? d.dsos[f[1]] : '[unknown]'; });
	p.kind = d.funcs.map(function (f) { return f[2]; });
	p.duration = d.last_time > d.first_time ? d.last_time - d.first_time : (p.ns ? p.time[p.ns - 1] : 0);
	/* lanes: one per (pid, tid), grouped by process */
	var lanes = [], byKey = {};
	p.laneOf = new Uint32Array(d.threads.length);
	d.threads.forEach(function (t, i) {
		var k = t[0] + '/' + t[1];
		if (!(k in byKey)) { byKey[k] = lanes.length; lanes.push({ pid: t[0], tid: t[1], comm: t[2], n: 0 }); }
		lanes[byKey[k]].comm = t[2]; /* the last comm names it */
		p.laneOf[i] = byKey[k];
	});
	var order = lanes.map(function (l, i) { return i; });
	order.sort(function (a, b) { return lanes[a].pid - lanes[b].pid || lanes[a].tid - lanes[b].tid; });
	var rank = new Uint32Array(lanes.length);
	order.forEach(function (l, r) { rank[l] = r; });
	p.lanes = order.map(function (l) { return lanes[l]; });
	for (var t = 0; t < p.laneOf.length; t++) p.laneOf[t] = rank[p.laneOf[t]];
	p.sampleLane = new Uint16Array(p.ns);
	for (var s = 0; s < p.ns; s++) { p.sampleLane[s] = p.laneOf[p.thread[s]]; p.lanes[p.sampleLane[s]].n++; }
	return p;
}

/* First sample at or after time t (samples are in time order). */
function lowerBound(a, t) {
	var lo = 0, hi = a.length;
	while (lo < hi) { var m = (lo + hi) >> 1; if (a[m] < t) lo = m + 1; else hi = m; }
	return lo;
}

/* First sample after time t. */
function upperBound(a, t) {
	var lo = 0, hi = a.length;
	while (lo < hi) { var m = (lo + hi) >> 1; if (a[m] <= t) lo = m + 1; else hi = m; }
	return lo;
}

/* The selection added up: weight (period) and count per node, and totals. */
function aggregate(p, sel) {
	var t0 = performance.now();
	var a = { self: new Float64Array(p.nn + 1), cnt: new Float64Array(p.nn + 1), total: 0, n: 0 };
	var i0 = sel.t0 == null ? 0 : lowerBound(p.time, sel.t0);
	var i1 = sel.t1 == null ? p.ns : upperBound(p.time, sel.t1); /* both ends in */
	var lanes = sel.lanes, st = p.stack, per = p.period, sl = p.sampleLane, self = a.self, cnt = a.cnt;
	for (var i = i0; i < i1; i++) {
		if (lanes && !lanes[sl[i]]) continue;
		var k = st[i], w = per[i];
		self[k] += w; cnt[k]++;
	}
	/* node k + 1 holds node k; slot 0: empty stacks */
	var tot = new Float64Array(p.nn + 1), tcnt = new Float64Array(p.nn + 1);
	for (var j = 0; j <= p.nn; j++) { a.total += self[j]; a.n += cnt[j]; tot[j] = self[j]; tcnt[j] = cnt[j]; }
	for (var k2 = p.nn - 1; k2 >= 0; k2--) {
		var par = p.parent[k2];
		if (par >= 0) { tot[par + 1] += tot[k2 + 1]; tcnt[par + 1] += tcnt[k2 + 1]; }
	}
	a.tot = tot; a.tcnt = tcnt;
	/* per function: children (samples through it, once each) and self, as report --children */
	var fch = new Float64Array(p.nf), fself = new Float64Array(p.nf), fchn = new Float64Array(p.nf);
	var stamp = new Int32Array(p.nf).fill(-1);
	for (var n = 0; n < p.nn; n++) {
		var w2 = self[n + 1];
		if (!w2 && !cnt[n + 1]) continue;
		fself[p.func[n]] += w2;
		for (var m = n; m >= 0; m = p.parent[m]) {
			var f = p.func[m];
			if (stamp[f] === n) continue;
			stamp[f] = n; fch[f] += w2; fchn[f] += cnt[n + 1];
		}
	}
	a.fch = fch; a.fself = fself; a.fchn = fchn;
	a.ms = performance.now() - t0;
	return a;
}

/* ---- the selection ---- */

L.sel = { t0: null, t1: null, lanes: null, laneIds: [] };
L.view = 'summary';

function selText() {
	var s = L.sel, p = L.p, out = [];
	if (s.t0 != null) out.push('time ' + fmtNs(s.t0) + ' to ' + fmtNs(s.t1));
	if (s.lanes) out.push('threads ' + s.laneIds.map(function (i) { return p.lanes[i].tid; }).join(','));
	return out.length ? 'selection: ' + out.join(', ') + ' (' + L.a.n + ' samples)' : '';
}

function setSelection(t0, t1, laneIds) {
	var s = L.sel, start = performance.now();
	if (t0 !== undefined) { s.t0 = t0; s.t1 = t1; }
	if (laneIds !== undefined) {
		s.laneIds = laneIds || [];
		s.lanes = null;
		if (s.laneIds.length) {
			s.lanes = new Uint8Array(L.p.lanes.length);
			s.laneIds.forEach(function (i) { s.lanes[i] = 1; });
		}
	}
	refresh();
	/* L.selectMs: from the selection to the frame that shows it (the bench reads it) */
	L.selectMs = null;
	requestAnimationFrame(function () { L.selectMs = performance.now() - start; });
}
L.select = setSelection;

/* Every view again from the selection; L.lastRedraw: its cost in ms. */
function refresh() {
	var t0 = performance.now();
	L.a = aggregate(L.p, L.sel);
	$('selinfo').textContent = selText();
	$('selinfo').dataset.t0 = L.sel.t0 == null ? '' : L.sel.t0;
	$('selinfo').dataset.t1 = L.sel.t1 == null ? '' : L.sel.t1;
	drawTimeline();
	drawView();
	L.lastRedraw = performance.now() - t0;
	document.body.dataset.redraws = (+(document.body.dataset.redraws || 0) + 1);
}

/* ---- timeline: a lane per thread, samples per pixel column ---- */

var TL = { label: 170, lane: 16, top: 18 };

function drawTimeline() {
	var p = L.p, c = $('timeline'), W = c.clientWidth || 1000;
	var H = TL.top + p.lanes.length * TL.lane + 4;
	var dpr = window.devicePixelRatio || 1;
	c.width = W * dpr; c.height = H * dpr; c.style.height = H + 'px';
	var g = c.getContext('2d');
	g.setTransform(dpr, 0, 0, dpr, 0, 0);
	g.fillStyle = '#fff'; g.fillRect(0, 0, W, H);
	var PW = W - TL.label - 4, dur = p.duration || 1;
	TL.W = W; TL.PW = PW;
	/* samples per pixel column and lane */
	var bins = new Uint32Array(p.lanes.length * PW), max = 1;
	for (var i = 0; i < p.ns; i++) {
		var x = Math.min(PW - 1, Math.floor(p.time[i] / dur * PW)), k = p.sampleLane[i] * PW + x;
		if (++bins[k] > max) max = bins[k];
	}
	g.font = '11px sans-serif'; g.textBaseline = 'middle';
	var lastPid = null;
	for (var l = 0; l < p.lanes.length; l++) {
		var y = TL.top + l * TL.lane, ln = p.lanes[l];
		var on = !L.sel.lanes || L.sel.lanes[l];
		if (ln.pid !== lastPid) {
			g.fillStyle = '#ddd'; g.fillRect(0, y, W, 1); lastPid = ln.pid;
		}
		g.fillStyle = on ? '#222' : '#aaa';
		g.fillText((ln.pid === ln.tid ? '' : '  ') + ln.comm + ' ' + ln.pid + '/' + ln.tid, 4, y + TL.lane / 2);
		for (var x2 = 0; x2 < PW; x2++) {
			var v = bins[l * PW + x2];
			if (!v) continue;
			var h = Math.max(1, Math.round((TL.lane - 3) * v / max));
			g.fillStyle = on ? '#d9534f' : '#c8c8c8';
			g.fillRect(TL.label + x2, y + TL.lane - 1 - h, 1, h);
		}
	}
	/* the time axis and the selected range */
	g.fillStyle = '#555';
	for (var t = 0; t <= 4; t++) g.fillText(fmtNs(dur * t / 4), TL.label + PW * t / 4 - (t == 4 ? 50 : 0), 8);
	if (L.sel.t0 != null) {
		var xa = TL.label + L.sel.t0 / dur * PW, xb = TL.label + L.sel.t1 / dur * PW;
		g.fillStyle = 'rgba(0,0,0,0.18)';
		g.fillRect(TL.label, TL.top, xa - TL.label, H - TL.top);
		g.fillRect(xb, TL.top, TL.label + PW - xb, H - TL.top);
		g.strokeStyle = '#2d3e50'; g.strokeRect(xa, TL.top, xb - xa, H - TL.top - 1);
	}
	if (TL.drag) {
		g.fillStyle = 'rgba(45,62,80,0.25)';
		g.fillRect(Math.min(TL.drag.x0, TL.drag.x1), TL.top, Math.abs(TL.drag.x1 - TL.drag.x0), H - TL.top);
	}
}

function tlTime(x) {
	var f = (x - TL.label) / TL.PW;
	return Math.max(0, Math.min(1, f)) * (L.p.duration || 1);
}

function tlEvents() {
	var c = $('timeline');
	function pos(e) { var r = c.getBoundingClientRect(); return { x: e.clientX - r.left, y: e.clientY - r.top }; }
	c.addEventListener('mousedown', function (e) {
		var q = pos(e);
		TL.drag = { x0: Math.max(TL.label, q.x), x1: Math.max(TL.label, q.x), y: q.y, shift: e.shiftKey || e.ctrlKey };
	});
	window.addEventListener('mousemove', function (e) {
		if (!TL.drag) return;
		TL.drag.x1 = Math.max(TL.label, Math.min(TL.label + TL.PW, pos(e).x));
		drawTimeline();
	});
	window.addEventListener('mouseup', function (e) {
		var d = TL.drag;
		if (!d) return;
		TL.drag = null;
		if (Math.abs(d.x1 - d.x0) >= 3) {
			var a = tlTime(Math.min(d.x0, d.x1)), b = tlTime(Math.max(d.x0, d.x1));
			setSelection(a, b);
			return;
		}
		/* a click: the lane under it (shift or ctrl adds it to the set) */
		var lane = Math.floor((d.y - TL.top) / TL.lane);
		if (lane < 0 || lane >= L.p.lanes.length) { drawTimeline(); return; }
		var ids = d.shift ? L.sel.laneIds.slice() : [];
		var at = ids.indexOf(lane);
		if (at >= 0) ids.splice(at, 1); else ids.push(lane);
		if (!d.shift && L.sel.laneIds.length == 1 && L.sel.laneIds[0] == lane) ids = [];
		setSelection(undefined, undefined, ids);
	});
}

/* ---- the views ---- */

function searchRe() {
	var s = $('search').value;
	if (!s) return null;
	try { return new RegExp(s); } catch (e) { return null; }
}

function fnLink(f) { return '<span class="fn" data-f="' + f + '">' + esc(L.p.name[f]) + '</span>'; }

/* Functions by children (or self) weight, the order of report --children. */
function topFuncs(a, key, n) {
	var ids = [];
	for (var f = 0; f < L.p.nf; f++) if (a[key][f] > 0) ids.push(f);
	ids.sort(function (x, y) { return a[key][y] - a[key][x] || a.fself[y] - a.fself[x]; });
	return n ? ids.slice(0, n) : ids;
}

function drawSummary() {
	var p = L.p, d = p.d, a = L.a, ev = d.events[d.event] || { name: '?' };
	var h = '<div class="grid">';
	function row(k, v, id) { h += '<div>' + k + '</div><div' + (id ? ' id="' + id + '"' : '') + '>' + v + '</div>'; }
	row('file', esc(L.data.title));
	row('samples', '' + p.ns + ' of event ' + esc(ev.name), 'sum-samples');
	row('selected samples', '' + a.n, 'sum-selected');
	row('duration', fmtNs(p.duration));
	row('lost samples', '' + d.lost, 'sum-lost');
	row('events', d.events.map(function (e) { return esc(e.name) + ' (' + e.samples + ')'; }).join(', '));
	row('threads', '' + p.lanes.length + ' in ' + new Set(p.lanes.map(function (l) { return l.pid; })).size + ' processes');
	h += '</div><h3>Hot spots (self, of the selection)</h3><table><tr><th>Self</th><th>Children</th><th>Function</th><th>DSO</th></tr>';
	topFuncs(a, 'fself', 15).forEach(function (f) {
		h += '<tr><td class="n">' + pct(a.fself[f], a.total) + '</td><td class="n">' + pct(a.fch[f], a.total) +
			'</td><td>' + fnLink(f) + '</td><td>' + esc(p.dso[f]) + '</td></tr>';
	});
	$('summary').innerHTML = h + '</table>';
}

/* Top-down: the stack tree, each node its share of the selection. */
function childrenOf(p) {
	if (p.kids) return p.kids;
	var kids = [], roots = [];
	for (var n = 0; n < p.nn; n++) {
		if (p.parent[n] < 0) roots.push(n);
		else (kids[p.parent[n]] || (kids[p.parent[n]] = [])).push(n);
	}
	/* by name, as flame graphs sort them: an update does not reorder the frames */
	function byName(x, y) { var a = p.name[p.func[x]], b = p.name[p.func[y]]; return a < b ? -1 : a > b ? 1 : 0; }
	kids.forEach(function (k) { if (k) k.sort(byName); });
	roots.sort(byName);
	p.kids = kids; p.roots = roots;
	return kids;
}

function drawTopDown() {
	var p = L.p, a = L.a, re = searchRe(), kids = childrenOf(p);
	var h = '<p>Top-down call tree: Children (the samples under the frame) and Self; click to open. ' +
		'Functions, as report --children:</p>';
	/* the function table first: what the test and report compare */
	h += '<table id="func-table"><tr><th>Children</th><th>Self</th><th>Samples</th><th>Function</th><th>DSO</th></tr>';
	topFuncs(a, 'fch', 30).forEach(function (f) {
		if (re && !re.test(p.name[f])) return;
		h += '<tr data-f="' + f + '"' + (re ? ' class="hit"' : '') + '><td class="n">' + pct(a.fch[f], a.total) +
			'</td><td class="n">' + pct(a.fself[f], a.total) + '</td><td class="n">' + a.fchn[f] +
			'</td><td>' + fnLink(f) + '</td><td>' + esc(p.dso[f]) + '</td></tr>';
	});
	h += '</table><h3>Call tree</h3><div class="tree" id="td-tree"></div>';
	$('topdown').innerHTML = h;
	var box = $('td-tree');
	function rows(list, depth, into) {
		list = list.filter(function (n) { return a.tot[n + 1] > 0; });
		list.sort(function (x, y) { return a.tot[y + 1] - a.tot[x + 1]; });
		list.forEach(function (n) {
			var div = document.createElement('div'), has = kids[n] && kids[n].some(function (c) { return a.tot[c + 1] > 0; });
			div.className = 'row';
			div.style.paddingLeft = (depth * 14) + 'px';
			div.innerHTML = '<span class="tog">' + (has ? '+' : '') + '</span><span class="pct">' + pct(a.tot[n + 1], a.total) +
				'</span><span class="self">' + pct(a.self[n + 1], a.total) + '</span>' +
				(re && re.test(p.name[p.func[n]]) ? '<mark>' + esc(p.name[p.func[n]]) + '</mark>' : esc(p.name[p.func[n]]));
			into.appendChild(div);
			var sub = document.createElement('div');
			into.appendChild(sub);
			var open = false;
			div.onclick = function () {
				open = !open;
				sub.innerHTML = '';
				if (open && has) rows(kids[n].slice(), depth + 1, sub);
				div.firstChild.textContent = has ? (open ? '-' : '+') : '';
			};
			/* the hottest path opens by itself, a few levels deep */
			if (depth < 6 && has && a.tot[n + 1] > 0.5 * a.total) div.onclick();
		});
	}
	rows(p.roots.slice(), 0, box);
}

/* Bottom-up: functions where samples stop, opened towards their callers. */
function drawBottomUp() {
	var p = L.p, a = L.a, re = searchRe();
	$('bottomup').innerHTML = '<p>Bottom-up: each function by its self share; open it to see who called it.</p><div class="tree" id="bu-tree"></div>';
	function group(entries) { /* entries: [leaf node, node at this level] */
		var by = new Map();
		entries.forEach(function (e) {
			var f = e[1] < 0 ? -1 : p.func[e[1]];
			var g = by.get(f);
			if (!g) by.set(f, g = { f: f, w: 0, e: [] });
			g.w += a.self[e[0] + 1];
			g.e.push(e);
		});
		return Array.from(by.values()).sort(function (x, y) { return y.w - x.w; });
	}
	function rows(groups, depth, into) {
		groups.slice(0, 200).forEach(function (g) {
			if (g.f < 0) return;
			var div = document.createElement('div'), sub = document.createElement('div'), open = false;
			div.className = 'row';
			div.style.paddingLeft = (depth * 14) + 'px';
			var name = esc(p.name[g.f]);
			div.innerHTML = '<span class="tog">+</span><span class="pct">' + pct(g.w, a.total) + '</span>' +
				(re && re.test(p.name[g.f]) ? '<mark>' + name + '</mark>' : name);
			into.appendChild(div); into.appendChild(sub);
			div.onclick = function () {
				open = !open; sub.innerHTML = '';
				div.firstChild.textContent = open ? '-' : '+';
				if (open) rows(group(g.e.map(function (e) { return [e[0], p.parent[e[1]]]; })), depth + 1, sub);
			};
		});
	}
	var leaves = [];
	for (var n = 0; n < p.nn; n++) if (a.self[n + 1] > 0) leaves.push([n, n]);
	rows(group(leaves), 0, $('bu-tree'));
}

/* Caller/callee of one function (L.focus), recursion counted once. */
function drawCallers() {
	var p = L.p, a = L.a, f = L.focus;
	if (f == null) f = L.focus = topFuncs(a, 'fself', 1)[0];
	if (f == null) { $('callers').innerHTML = '<p>no samples selected</p>'; return; }
	var callers = new Map(), callees = new Map(), re = searchRe();
	for (var n = 0; n < p.nn; n++) {
		if (p.func[n] !== f || !a.tot[n + 1]) continue;
		var outer = false;
		for (var m = p.parent[n]; m >= 0; m = p.parent[m]) if (p.func[m] === f) { outer = true; break; }
		if (outer) continue;
		var c = p.parent[n] < 0 ? -1 : p.func[p.parent[n]];
		callers.set(c, (callers.get(c) || 0) + a.tot[n + 1]);
		(childrenOf(p)[n] || []).forEach(function (k) {
			if (a.tot[k + 1]) callees.set(p.func[k], (callees.get(p.func[k]) || 0) + a.tot[k + 1]);
		});
	}
	function table(title, map) {
		var rows = Array.from(map.entries()).sort(function (x, y) { return y[1] - x[1]; });
		var h = '<h3>' + title + '</h3><table><tr><th>Share</th><th>Function</th></tr>';
		rows.forEach(function (r) {
			h += '<tr><td class="n">' + pct(r[1], a.total) + '</td><td>' + (r[0] < 0 ? '[the root]' : fnLink(r[0])) + '</td></tr>';
		});
		return h + '</table>';
	}
	var list = '';
	if (re) topFuncs(a, 'fch', 0).forEach(function (g) { if (re.test(p.name[g])) list += '<li>' + fnLink(g) + ' ' + pct(a.fch[g], a.total) + '</li>'; });
	$('callers').innerHTML = (re ? '<h3>Matching functions</h3><ul>' + list + '</ul>' : '') +
		'<h2 id="focus" data-f="' + f + '">' + esc(p.name[f]) + '</h2><p>children ' + pct(a.fch[f], a.total) +
		', self ' + pct(a.fself[f], a.total) + ' (' + esc(p.dso[f]) + ')</p>' +
		table('Callers', callers) + table('Callees', callees);
}

/* ---- flame graph (and icicle) on a canvas ---- */

var FG = { h: 17, zoom: -1 };

function kindColor(p, f, name) {
	var k = p.kind[f], hsh = 0;
	for (var i = 0; i < name.length && i < 12; i++) hsh = (hsh * 31 + name.charCodeAt(i)) & 0xffff;
	var v = hsh % 40;
	if (k == 1) return 'rgb(' + (200 + v % 50) + ',' + (110 + v) + ',70)';   /* kernel: orange */
	if (k == 2) return 'rgb(90,' + (170 + v) + ',90)';                      /* JIT: green */
	if (k == 3) return 'rgb(90,' + (150 + v) + ',200)';                     /* inlined: blue */
	return 'rgb(230,' + (80 + v * 2) + ',' + (40 + v) + ')';                /* user: red-orange */
}

/* Grown red, shrunk blue: the change of a function's self share (diff). */
function diffColor(f) {
	var d = L.fdelta ? L.fdelta[f] : 0, v = Math.min(1, Math.abs(d) / 5);
	if (Math.abs(d) < 0.005) return '#e4e4e4';
	var c = Math.round(255 - 175 * v);
	return d > 0 ? 'rgb(255,' + c + ',' + c + ')' : 'rgb(' + c + ',' + c + ',255)';
}

function drawFlame() {
	var p = L.p, a = L.a, kids = childrenOf(p), c = $('flame-canvas'), icicle = $('icicle').checked;
	var W = c.clientWidth || 1000, re = searchRe();
	var dpr = window.devicePixelRatio || 1;
	/* the zoomed node's path: its callers span the width */
	var path = [];
	for (var z = FG.zoom; z >= 0; z = p.parent[z]) path.unshift(z);
	var base = FG.zoom >= 0 ? a.tot[FG.zoom + 1] : a.total;
	if (FG.zoom >= 0 && !base) { FG.zoom = -1; path = []; base = a.total; }
	var depth = p.maxDepth + 2, H = depth * FG.h + 4;
	c.width = W * dpr; c.height = H * dpr; c.style.height = H + 'px';
	var g = c.getContext('2d');
	g.setTransform(dpr, 0, 0, dpr, 0, 0);
	g.fillStyle = '#fff'; g.fillRect(0, 0, W, H);
	g.font = '11px sans-serif'; g.textBaseline = 'middle';
	FG.boxes = [];
	var matched = 0;
	function y(d) { return icicle ? d * FG.h : H - (d + 1) * FG.h; }
	function box(x, d, w, label, fill, node) {
		g.fillStyle = fill; g.fillRect(x, y(d), Math.max(w - 0.5, 0.5), FG.h - 1);
		if (w > 30) { g.fillStyle = '#000'; g.fillText(label.length * 6 > w - 6 ? label.slice(0, Math.floor((w - 6) / 6)) + '..' : label, x + 3, y(d) + FG.h / 2); }
		FG.boxes.push({ x: x, y: y(d), w: w, node: node });
	}
	box(0, 0, W, 'all (' + a.n + ' samples)', '#d8d8d8', -1);
	path.forEach(function (n, i) { box(0, i + 1, W, p.name[p.func[n]], '#c8c8c8', n); });
	var scale = base ? W / base : 0;
	function walk(n, x, d) {
		var w = a.tot[n + 1] * scale;
		if (w < 0.3) return;
		var f = p.func[n], hit = re && re.test(p.name[f]);
		if (hit) matched += a.tot[n + 1];
		box(x, d, w, p.name[f], hit ? '#e040e0' : L.before ? diffColor(f) : kindColor(p, f, p.name[f]), n);
		var ks = kids[n];
		if (!ks) return;
		var cx = x;
		for (var i = 0; i < ks.length; i++) { if (a.tot[ks[i] + 1]) { walk(ks[i], cx, d + 1); cx += a.tot[ks[i] + 1] * scale; } }
	}
	if (FG.zoom >= 0) walk(FG.zoom, 0, path.length);
	else { var x0 = 0; p.roots.forEach(function (r) { if (a.tot[r + 1]) { walk(r, x0, 1); x0 += a.tot[r + 1] * scale; } }); }
	var info = $('flame-info');
	info.dataset.samples = a.n; info.dataset.period = a.total;
	info.textContent = 'root: ' + a.n + ' samples' + (re ? ', matched ' + pct(matched, a.total) : '') +
		(FG.zoom >= 0 ? ', zoomed to ' + p.name[p.func[FG.zoom]] : '');
}

function flameAt(e) {
	var c = $('flame-canvas'), r = c.getBoundingClientRect(), x = e.clientX - r.left, y = e.clientY - r.top;
	for (var i = FG.boxes.length - 1; i >= 0; i--) {
		var b = FG.boxes[i];
		if (x >= b.x && x < b.x + b.w && y >= b.y && y < b.y + FG.h) return b;
	}
	return null;
}

function flameEvents() {
	var c = $('flame-canvas'), tip = $('tip');
	c.addEventListener('mousemove', function (e) {
		var b = flameAt(e), p = L.p, a = L.a;
		if (!b) { tip.style.display = 'none'; return; }
		var w = b.node < 0 ? a.total : a.tot[b.node + 1], n = b.node < 0 ? a.n : a.tcnt[b.node + 1];
		tip.textContent = (b.node < 0 ? 'all' : p.name[p.func[b.node]] + ' (' + p.dso[p.func[b.node]] + ')') +
			': ' + n + ' samples, ' + pct(w, a.total);
		tip.style.display = 'block'; tip.style.left = (e.clientX + 12) + 'px'; tip.style.top = (e.clientY + 12) + 'px';
	});
	c.addEventListener('mouseleave', function () { tip.style.display = 'none'; });
	c.addEventListener('click', function (e) { var b = flameAt(e); if (b) { FG.zoom = b.node; drawFlame(); } });
	c.addEventListener('dblclick', function (e) {
		var b = flameAt(e);
		if (b && b.node >= 0) { L.focus = L.p.func[b.node]; show('source'); }
	});
	$('unzoom').onclick = function () { FG.zoom = -1; drawFlame(); };
	$('icicle').onchange = drawFlame;
}

/* ---- source and disassembly (the server's annotate) ---- */

function drawSource() {
	var p = L.p, a = L.a, f = L.focus, box = $('source');
	if (f == null) f = L.focus = topFuncs(a, 'fself', 1)[0];
	if (f == null) { box.innerHTML = '<p>no samples selected</p>'; return; }
	if (!L.data.annotate) { box.innerHTML = '<p>Source and disassembly need the server: run lupe report --web.</p>'; return; }
	if (L.ann && L.ann.f === f) return renderSource(L.ann.j);
	box.innerHTML = '<p>reading the code of ' + esc(p.name[f]) + '...</p>';
	fetch('annotate/' + f).then(function (r) { return r.json(); }).then(function (j) {
		L.ann = { f: f, j: j };
		if (L.view === 'source') renderSource(j);
	}).catch(function (e) { box.innerHTML = '<p class="err">' + esc(e) + '</p>'; });
}

/* Per source line and per instruction: their share of the function's samples (all of the file's, as annotate). */
function renderSource(j) {
	var box = $('source');
	if (j.error) { box.innerHTML = '<p class="err">' + esc(L.p.name[L.focus]) + ': ' + esc(j.error) + '</p>'; return; }
	var lines = new Map(), order = [];
	j.insns.forEach(function (i) {
		if (i[3] < 1) return;
		var k = i[2] + ':' + i[3];
		if (!lines.has(k)) { lines.set(k, 0); order.push(k); }
		lines.set(k, lines.get(k) + i[4]);
	});
	var h = '<h2>' + esc(j.name) + '</h2><p>' + esc(j.dso) + ': ' + j.samples + ' samples of ' + esc(j.event) +
		' (percent: local period, the whole file as lupe annotate)</p><h3>Source lines</h3><table id="src-lines"><tr><th>Share</th><th>Line</th><th>Source</th></tr>';
	order.sort(function (x, y) { return lines.get(y) - lines.get(x); });
	order.forEach(function (k) {
		var fl = k.split(':'), file = j.files[+fl[0]];
		h += '<tr data-line="' + fl[1] + '"><td class="n">' + pct(lines.get(k), j.period) + '</td><td>' +
			esc((file ? file.name.replace(/.*\//, '') : '?') + ':' + fl[1]) + '</td><td><code>' +
			esc(file && file.lines[fl[1]] || '') + '</code></td></tr>';
	});
	h += '</table><h3>Disassembly</h3><pre class="src" id="asm">';
	var lastLine = null;
	j.insns.forEach(function (i) {
		var k = i[2] + ':' + i[3];
		if (i[3] > 0 && k !== lastLine) {
			var file = j.files[i[2]];
			h += '<span class="line">         : ' + i[3] + ' ' + esc(file && file.lines[i[3]] || '') + '</span>\n';
			lastLine = k;
		}
		var s = j.period ? 100 * i[4] / j.period : 0;
		h += '<span' + (s >= 5 ? ' class="hot"' : '') + '>' + (s.toFixed(2) + '').padStart(8) + ' :   ' + i[0].toString(16) + ':   ' + esc(i[1]) + '</span>\n';
	});
	box.innerHTML = h + '</pre>';
}

/* ---- diff: lupe diff's rows (the server computed them with lupe diff's code) ---- */

function diffDeltas() {
	var p = L.p, by = {};
	if (L.fdelta) return;
	L.data.diff_rows.forEach(function (r) { if (r[4] != null) by[r[0] + '\u0001' + r[1]] = r[4]; });
	L.fdelta = new Float64Array(p.nf);
	for (var f = 0; f < p.nf; f++) L.fdelta[f] = by[p.dso[f].replace(/.*\//, '') + '\u0001' + p.name[f]] || 0;
}

function drawDiff() {
	var box = $('diff');
	if (!L.before) { box.innerHTML = '<p>Two files make a diff: lupe diff --web BEFORE AFTER.</p>'; return; }
	diffDeltas();
	var h = '<p>' + esc(L.data.title) + ': lupe diff\'s table (self shares of the whole files; Delta: after minus before). ' +
		'The flame graph shows the after file coloured by these deltas: red grew, blue shrank.</p>' +
		'<table id="diff-table"><tr><th>Baseline</th><th>Delta Abs</th><th>Shared Object</th><th>Symbol</th></tr>';
	L.data.diff_rows.slice(0, 300).forEach(function (r) {
		var d = r[4];
		h += '<tr data-name="' + esc(r[1]) + '" data-delta="' + (d == null ? '' : d.toFixed(2)) + '"><td class="n">' +
			(r[3] == null ? '' : r[3].toFixed(2) + '%') + '</td><td class="n ' + (d >= 0 ? 'pos' : 'neg') + '">' +
			(d == null ? '' : (d >= 0 ? '+' : '') + d.toFixed(2) + '%') + '</td><td>' + esc(r[0]) + '</td><td>[' +
			(r[2] ? 'k' : '.') + '] ' + esc(r[1]) + '</td></tr>';
	});
	box.innerHTML = h + '</table>';
}

var VIEWS = { summary: drawSummary, flame: drawFlame, topdown: drawTopDown, bottomup: drawBottomUp,
	callers: drawCallers, source: drawSource, diff: drawDiff };

function drawView() {
	if (L.before) diffDeltas(); /* the flame graph's colours */
	VIEWS[L.view]();
}

function show(v) {
	L.view = v;
	document.querySelectorAll('.view').forEach(function (s) { s.classList.toggle('on', s.id === v); });
	document.querySelectorAll('nav button').forEach(function (b) { b.classList.toggle('on', b.dataset.view === v); });
	if (location.hash !== '#' + v) history.replaceState(null, '', '#' + v);
	if (L.a) drawView();
}
L.show = show;

/* ---- live (top --web): new data each refresh, the selection kept ---- */

function zoomPath() {
	var p = L.p, names = [];
	for (var z = FG.zoom; z >= 0; z = p.parent[z]) names.unshift(p.name[p.func[z]]);
	return names;
}

function update(data) {
	var old = L.p, keys = L.sel.laneIds.map(function (i) { return old.lanes[i].pid + '/' + old.lanes[i].tid; });
	var focus = L.focus == null ? null : old.name[L.focus], zp = zoomPath(), shift = old.d.first_time;
	var p = decode(data.profile);
	L.data = data; L.p = p; L.fdelta = null;
	shift -= p.d.first_time;
	if (L.sel.t0 != null) { L.sel.t0 += shift; L.sel.t1 += shift; }
	var ids = [];
	p.lanes.forEach(function (l, i) { if (keys.indexOf(l.pid + '/' + l.tid) >= 0) ids.push(i); });
	L.focus = focus == null ? null : (p.name.indexOf(focus) >= 0 ? p.name.indexOf(focus) : null);
	L.ann = null;
	FG.zoom = -1;
	var kids = childrenOf(p), level = p.roots;
	zp.forEach(function (name) {
		var n = (level || []).filter(function (k) { return p.name[p.func[k]] === name; })[0];
		if (n == null) return;
		FG.zoom = n; level = kids[n];
	});
	$('live').textContent = 'live: update ' + data.version + ' at ' + new Date().toLocaleTimeString();
	$('live').dataset.version = data.version;
	setSelection(undefined, undefined, ids);
}

function poll() {
	fetch('data').then(function (r) { return r.ok ? r.json() : null; }).then(function (d) {
		if (d && d.version !== L.data.version) update(d);
	}).catch(function () { $('live').textContent = 'live: the server is gone'; });
}

/* ---- start ---- */

function start(data) {
	var t0 = performance.now();
	L.data = data;
	L.p = decode(data.profile);
	if (data.before) L.before = decode(data.before);
	$('title').textContent = data.title;
	document.title = 'lupe: ' + data.title;
	if (!L.before) document.querySelector('nav button[data-view="diff"]').style.display = 'none';
	document.querySelectorAll('nav button').forEach(function (b) { b.onclick = function () { show(b.dataset.view); }; });
	$('clear').onclick = function () { setSelection(null, null, []); };
	$('search').oninput = function () { drawView(); };
	document.addEventListener('click', function (e) {
		var f = e.target.dataset && e.target.dataset.f;
		if (f != null && e.target.classList.contains('fn')) { L.focus = +f; L.ann = null; show('callers'); }
	});
	tlEvents(); flameEvents();
	window.addEventListener('resize', function () { drawTimeline(); if (L.view === 'flame') drawFlame(); });
	L.decodeMs = performance.now() - t0;
	var v = location.hash.slice(1);
	L.view = VIEWS[v] ? v : (L.before ? 'diff' : 'summary');
	show(L.view);
	refresh();
	requestAnimationFrame(function () { L.ready = performance.now(); });
	if (data.live) {
		$('live').textContent = 'live: update ' + data.version;
		$('live').dataset.version = data.version;
		setInterval(poll, Math.max(500, data.live * 1000));
	}
	document.body.dataset.ready = '1';
}

(function () {
	var el = $('lupe-data'), text = el && el.textContent.trim();
	if (text) return start(JSON.parse(text));
	fetch('data').then(function (r) {
		if (!r.ok) throw new Error('the server answered ' + r.status);
		return r.json();
	}).then(start).catch(function (e) {
		document.body.insertAdjacentHTML('afterbegin', '<p class="err">cannot load the profile: ' + esc(e.message) + '</p>');
	});
})();
