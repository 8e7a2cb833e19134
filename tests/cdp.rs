//! A small DevTools-protocol client for the browser tests: headless Chromium on a free port, one page
//! attached, commands as JSON over a websocket. `tungstenite` is used without its `handshake` feature
//! (no HTTP crates): the upgrade request is a few lines written here, to a browser on localhost.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::{json, Value};
use tungstenite::protocol::{Role, WebSocket};
use tungstenite::Message;

/// How long any one answer from the browser may take before the test fails (never hangs).
const WAIT: Duration = Duration::from_secs(60);

/// A headless Chromium with one page, killed when dropped.
pub struct Browser {
    child: Child,
    ws: WebSocket<TcpStream>,
    session: String,
    next: u64,
    loaded: bool,
    /// Every script error and `console.error` the page produced.
    pub errors: Vec<String>,
    _profile: tempfile::TempDir,
}

impl Browser {
    /// Chromium started headless, or `None` (with the reason printed) when it is not installed.
    #[must_use]
    pub fn launch() -> Option<Browser> {
        if Command::new("chromium").arg("--version").output().is_err() {
            eprintln!("skipped: Chromium (`chromium`) is not installed");
            return None;
        }
        let profile = tempfile::tempdir().unwrap();
        let mut child = Command::new("chromium")
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
                "--remote-debugging-port=0",
                "--window-size=900,640",
            ])
            .arg(format!("--user-data-dir={}", profile.path().display()))
            .arg("about:blank")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("chromium starts");
        // The browser names its websocket on stderr; a thread reads it so a silent browser fails
        // the test after WAIT instead of hanging it, and keeps draining the pipe afterwards.
        let stderr = child.stderr.take().unwrap();
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                if let Some(url) = line.strip_prefix("DevTools listening on ") {
                    let _ = tx.send(url.trim().to_string());
                }
            }
        });
        let url = rx
            .recv_timeout(WAIT)
            .expect("chromium names its DevTools websocket");
        let rest = url.strip_prefix("ws://").expect("a ws:// address");
        let (host, path) = rest.split_at(rest.find('/').unwrap());
        let mut stream = TcpStream::connect(host).unwrap();
        stream.set_read_timeout(Some(WAIT)).unwrap();
        write!(
            stream,
            "GET {path} HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
             Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
        )
        .unwrap();
        // The answer's head, byte by byte: nothing past it may be consumed before the websocket.
        let mut head = Vec::new();
        let mut byte = [0u8];
        while !head.ends_with(b"\r\n\r\n") {
            stream.read_exact(&mut byte).unwrap();
            head.push(byte[0]);
            assert!(head.len() < 1 << 16, "no end to the upgrade answer");
        }
        let head = String::from_utf8_lossy(&head);
        assert!(head.starts_with("HTTP/1.1 101"), "{head}");
        let ws = WebSocket::from_raw_socket(stream, Role::Client, None);
        let mut b = Browser {
            child,
            ws,
            session: String::new(),
            next: 0,
            loaded: false,
            errors: Vec::new(),
            _profile: profile,
        };
        let target = b.call("Target.createTarget", json!({"url": "about:blank"}));
        let target = target["targetId"].as_str().unwrap().to_string();
        let attached = b.call(
            "Target.attachToTarget",
            json!({"targetId": target, "flatten": true}),
        );
        b.session = attached["sessionId"].as_str().unwrap().to_string();
        for domain in ["Page.enable", "Runtime.enable"] {
            b.call(domain, json!({}));
        }
        Some(b)
    }

    /// Sends `method` (to the page once attached) and returns its result, noting the events that
    /// arrive meanwhile. A protocol error fails the test.
    pub fn call(&mut self, method: &str, params: Value) -> Value {
        self.next += 1;
        let id = self.next;
        let mut msg = json!({"id": id, "method": method, "params": params});
        if !self.session.is_empty() {
            msg["sessionId"] = json!(self.session);
        }
        self.ws.send(Message::text(msg.to_string())).unwrap();
        loop {
            let v = self.receive();
            if v["id"] == json!(id) {
                assert!(v.get("error").is_none(), "{method}: {v}");
                return v["result"].clone();
            }
        }
    }

    /// One message from the browser; events are noted as they pass.
    fn receive(&mut self) -> Value {
        let text = match self.ws.read().expect("a message from chromium") {
            Message::Text(t) => t,
            _ => return Value::Null,
        };
        let v: Value = serde_json::from_str(&text).unwrap();
        match v["method"].as_str() {
            Some("Page.loadEventFired") => self.loaded = true,
            Some("Runtime.exceptionThrown") => self.errors.push(v["params"].to_string()),
            Some("Runtime.consoleAPICalled") if v["params"]["type"] == "error" => {
                self.errors.push(v["params"].to_string());
            }
            _ => {}
        }
        v
    }

    /// Opens `url` and waits for its load event (scripts have run).
    pub fn goto(&mut self, url: &str) {
        self.loaded = false;
        self.call("Page.navigate", json!({"url": url}));
        while !self.loaded {
            self.receive();
        }
    }

    /// The value of the JavaScript expression `expr` on the page.
    pub fn eval(&mut self, expr: &str) -> Value {
        let r = self.call(
            "Runtime.evaluate",
            json!({"expression": expr, "returnByValue": true}),
        );
        assert!(r.get("exceptionDetails").is_none(), "{expr}: {r}");
        r["result"]["value"].clone()
    }

    /// Presses and releases `key` (`ArrowLeft`, `Home`, ...) as a keyboard would, to the focused element.
    pub fn press(&mut self, key: &str, code: u32) {
        for kind in ["rawKeyDown", "keyUp"] {
            self.call(
                "Input.dispatchKeyEvent",
                json!({"type": kind, "key": key, "code": key, "windowsVirtualKeyCode": code}),
            );
        }
    }

    /// The page as a PNG, base64-encoded as the protocol sends it.
    pub fn screenshot(&mut self) -> String {
        let r = self.call("Page.captureScreenshot", json!({"format": "png"}));
        r["data"].as_str().unwrap().to_string()
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
