# A small Chrome DevTools Protocol client for the tests that drive a page
# in headless Chromium (python3's standard library only: its own websocket).
#   b = Browser(url, chromium, tmpdir); b.eval("1+1"); b.click(x, y);
#   b.drag(x0, y0, x1, y1); b.screenshot("a.png"); b.close()
import atexit, base64, json, os, signal, socket, struct, subprocess, time, urllib.request


class Browser:
    def __init__(self, url, chromium, tmpdir, width=1400, height=900):
        self.prof = os.path.join(tmpdir, 'cdp-profile-%d' % os.getpid())
        os.makedirs(self.prof, exist_ok=True)
        self.proc = subprocess.Popen(
            [chromium, '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic',
             '--no-first-run', '--disable-background-networking', '--disable-component-update',
             '--disable-sync', '--hide-scrollbars', '--remote-debugging-port=0',
             '--user-data-dir=' + self.prof, '--window-size=%d,%d' % (width, height),
             'about:blank'], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            start_new_session=True)
        # a failed check must not leave chromium's processes behind
        atexit.register(self.kill)
        port_file = os.path.join(self.prof, 'DevToolsActivePort')
        for _ in range(600):
            if os.path.exists(port_file) and open(port_file).read().strip():
                break
            time.sleep(0.1)
        port = int(open(port_file).read().split()[0])
        for _ in range(100):
            targets = json.load(urllib.request.urlopen('http://127.0.0.1:%d/json/list' % port))
            pages = [t for t in targets if t['type'] == 'page']
            if pages:
                break
            time.sleep(0.1)
        ws = pages[0]['webSocketDebuggerUrl']
        host, path = ws[len('ws://'):].split('/', 1)
        h, p = host.split(':')
        self.sock = socket.create_connection((h, int(p)))
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(('GET /%s HTTP/1.1\r\nHost: %s\r\nUpgrade: websocket\r\n'
                           'Connection: Upgrade\r\nSec-WebSocket-Key: %s\r\n'
                           'Sec-WebSocket-Version: 13\r\n\r\n' % (path, host, key)).encode())
        resp = b''
        while b'\r\n\r\n' not in resp:
            resp += self.sock.recv(4096)
        assert b' 101 ' in resp.split(b'\r\n')[0], resp
        self.buf = resp.split(b'\r\n\r\n', 1)[1]
        self.id = 0
        self.call('Page.enable')
        self.call('Runtime.enable')
        if url:
            self.goto(url)

    def _send(self, text):
        data = text.encode()
        mask = os.urandom(4)
        n = len(data)
        head = bytes([0x81])
        if n < 126:
            head += bytes([0x80 | n])
        elif n < 65536:
            head += bytes([0x80 | 126]) + struct.pack('>H', n)
        else:
            head += bytes([0x80 | 127]) + struct.pack('>Q', n)
        self.sock.sendall(head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))

    def _need(self, n):
        while len(self.buf) < n:
            chunk = self.sock.recv(1 << 20)
            if not chunk:
                raise EOFError('chromium closed the connection')
            self.buf += chunk

    def _recv(self):
        msg = b''
        while True:
            self._need(2)
            b0, b1 = self.buf[0], self.buf[1]
            n, off = b1 & 0x7f, 2
            if n == 126:
                self._need(4)
                n, off = struct.unpack('>H', self.buf[2:4])[0], 4
            elif n == 127:
                self._need(10)
                n, off = struct.unpack('>Q', self.buf[2:10])[0], 10
            self._need(off + n)
            msg += self.buf[off:off + n]
            self.buf = self.buf[off + n:]
            if b0 & 0x80:
                return json.loads(msg)

    def call(self, method, **params):
        self.id += 1
        self._send(json.dumps({'id': self.id, 'method': method, 'params': params}))
        while True:
            m = self._recv()
            if m.get('id') == self.id:
                if 'error' in m:
                    raise RuntimeError('%s: %s' % (method, m['error']))
                return m.get('result', {})

    def goto(self, url):
        self.call('Page.navigate', url=url)

    def eval(self, expr):
        r = self.call('Runtime.evaluate', expression=expr, returnByValue=True, awaitPromise=True)
        if 'exceptionDetails' in r:
            raise RuntimeError('in the page: %s: %s' % (expr[:80], r['exceptionDetails']))
        return r['result'].get('value')

    def wait(self, expr, timeout=30):
        end = time.time() + timeout
        while time.time() < end:
            try:
                v = self.eval(expr)
                if v:
                    return v
            except RuntimeError:
                pass
            time.sleep(0.05)
        raise TimeoutError('the page never made true: ' + expr)

    def mouse(self, kind, x, y, modifiers=0):
        self.call('Input.dispatchMouseEvent', type=kind, x=x, y=y, button='left',
                  clickCount=1 if kind != 'mouseMoved' else 0, modifiers=modifiers)

    def click(self, x, y, modifiers=0):
        self.mouse('mousePressed', x, y, modifiers)
        self.mouse('mouseReleased', x, y, modifiers)

    def drag(self, x0, y0, x1, y1):
        self.mouse('mousePressed', x0, y0)
        for i in range(1, 6):
            self.call('Input.dispatchMouseEvent', type='mouseMoved', x=x0 + (x1 - x0) * i / 5,
                      y=y0 + (y1 - y0) * i / 5, button='left', buttons=1)
        self.mouse('mouseReleased', x1, y1)

    def screenshot(self, path):
        r = self.call('Page.captureScreenshot', format='png', captureBeyondViewport=True)
        open(path, 'wb').write(base64.b64decode(r['data']))

    def kill(self):
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except OSError:
            pass
        self.proc.wait()

    def close(self):
        try:
            self.call('Browser.close')
            self.proc.wait(timeout=10)
        except Exception:
            pass
        self.kill()
