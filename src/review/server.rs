//! The review page's one door: an HTTP server bound to 127.0.0.1 only, answering nothing but paths
//! below a random token (`http://127.0.0.1:PORT/TOKEN/`), for a `Host` of this machine (no DNS
//! rebinding), saves only as same-origin JSON, bodies capped; every answer with a strict Content
//! Security Policy (scripts and styles only with the answer's nonce, nothing fetched from elsewhere).
//! `tiny_http` reads the requests (a small, well-kept server, no async runtime); requests are
//! answered one at a time, so saves never race.

use std::io::Read as _;

use super::{Class, Request, Response, BODY_CAP};

/// What a request must carry to be let in.
pub struct Door {
    pub token: String,
    pub port: u16,
}

impl Door {
    /// The path below the token of a request for `url`, or the status to refuse it with: 404 for any
    /// path not below the token (nothing says whether it exists), for another `Host`, and for a save
    /// that is not same-origin JSON.
    ///
    /// # Errors
    /// The status to answer with.
    pub fn admit<'u>(
        &self,
        method: &str,
        url: &'u str,
        header: &dyn Fn(&str) -> Option<String>,
    ) -> Result<&'u str, u16> {
        let prefix = format!("/{}/", self.token);
        let path = url.split(['?', '#']).next().unwrap_or_default();
        let Some(rest) = path.strip_prefix(&prefix) else {
            return Err(404);
        };
        // Only this machine's names for the server: a page elsewhere that resolves its own name to
        // 127.0.0.1 sends its own `Host`.
        let hosts = [
            format!("127.0.0.1:{}", self.port),
            format!("localhost:{}", self.port),
        ];
        if !header("Host").is_some_and(|h| hosts.contains(&h.to_ascii_lowercase())) {
            return Err(404);
        }
        match method {
            "GET" => {}
            "POST" => {
                let json = header("Content-Type")
                    .is_some_and(|t| t.to_ascii_lowercase().starts_with("application/json"));
                let origin_ok = header("Origin")
                    .is_none_or(|o| hosts.iter().any(|h| o == format!("http://{h}")));
                let site_ok = header("Sec-Fetch-Site").is_none_or(|s| s == "same-origin");
                if !(json && origin_ok && site_ok) {
                    return Err(404);
                }
            }
            _ => return Err(404),
        }
        if rest.split('/').any(|s| s == ".." || s == ".")
            || rest.contains("//")
            || rest.contains('\\')
        {
            return Err(404);
        }
        Ok(rest)
    }
}

/// 32 hexadecimal digits from the kernel's random source.
///
/// # Errors
/// `/dev/urandom` cannot be read.
pub fn random_hex() -> std::io::Result<String> {
    let mut bytes = [0u8; 16];
    std::fs::File::open("/dev/urandom")?.read_exact(&mut bytes)?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// Serves `class` on 127.0.0.1:`port` (0: any free port) until the process ends, calling `ready`
/// with the page's address once listening.
///
/// # Errors
/// The port cannot be bound, or no random token can be made.
pub fn serve(class: &mut Class, port: u16, ready: impl FnOnce(&str)) -> anyhow::Result<()> {
    let server = tiny_http::Server::http(("127.0.0.1", port))
        .map_err(|e| anyhow::anyhow!("cannot listen on 127.0.0.1:{port}: {e}"))?;
    let port = server.server_addr().to_ip().map_or(port, |a| a.port());
    let door = Door {
        token: random_hex()?,
        port,
    };
    ready(&format!("http://127.0.0.1:{port}/{}/", door.token));
    for mut request in server.incoming_requests() {
        let method = request.method().as_str().to_string();
        let url = request.url().to_string();
        let headers: Vec<(String, String)> = request
            .headers()
            .iter()
            .map(|h| {
                (
                    h.field.as_str().as_str().to_string(),
                    h.value.as_str().to_string(),
                )
            })
            .collect();
        let header = |name: &str| {
            headers
                .iter()
                .find(|(f, _)| f.eq_ignore_ascii_case(name))
                .map(|(_, v)| v.clone())
        };
        let nonce = random_hex()?;
        let answer = match door.admit(&method, &url, &header) {
            Err(status) => Response {
                status,
                ..Response::not_found()
            },
            Ok(path) => {
                let mut body = Vec::new();
                let read = request
                    .as_reader()
                    .take(BODY_CAP as u64 + 1)
                    .read_to_end(&mut body);
                if read.is_err() || body.len() > BODY_CAP {
                    Response {
                        status: 413,
                        ..Response::text(413, "too large\n")
                    }
                } else {
                    class.handle(
                        &Request {
                            method: &method,
                            path,
                            body: &body,
                        },
                        &nonce,
                    )
                }
            }
        };
        let _ = request.respond(respond(answer, &door, &nonce));
    }
    Ok(())
}

/// The answer with its headers: the content type, the policy, no caching, no sniffing, no referrer.
fn respond(a: Response, door: &Door, nonce: &str) -> tiny_http::Response<std::io::Cursor<Vec<u8>>> {
    let mut r = tiny_http::Response::from_data(a.body).with_status_code(a.status);
    let csp = format!("default-src 'none'; script-src 'nonce-{nonce}'; style-src 'nonce-{nonce}'; img-src data:; connect-src 'self'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'");
    let mut headers = vec![
        ("Content-Type", a.content_type.to_string()),
        ("Content-Security-Policy", csp),
        ("X-Content-Type-Options", "nosniff".into()),
        ("Referrer-Policy", "no-referrer".into()),
        ("Cache-Control", "no-store".into()),
        ("X-Frame-Options", "DENY".into()),
        ("Cross-Origin-Resource-Policy", "same-origin".into()),
    ];
    if let Some(to) = a.location {
        headers.push(("Location", format!("/{}/{to}", door.token)));
    }
    for (name, value) in headers {
        if let Ok(h) = tiny_http::Header::from_bytes(name.as_bytes(), value.as_bytes()) {
            r.add_header(h);
        }
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_paths_below_the_token_from_this_machine_get_in() {
        let door = Door {
            token: "0123456789abcdef0123456789abcdef".into(),
            port: 8123,
        };
        let local = |h: &str| match h {
            "Host" => Some("127.0.0.1:8123".to_string()),
            "Content-Type" => Some("application/json".into()),
            _ => None,
        };
        let t = "/0123456789abcdef0123456789abcdef";
        assert_eq!(
            door.admit("GET", &format!("{t}/s/ann"), &local),
            Ok("s/ann")
        );
        assert_eq!(door.admit("GET", &format!("{t}/"), &local), Ok(""));
        for url in [
            "/",
            "/s/ann",
            "/0123456789abcdef0123456789abcdeX/s/ann",
            t,
            &format!("{t}/s/../../etc/passwd"),
            &format!("{t}/s//ann"),
            "/etc/passwd",
        ] {
            assert_eq!(door.admit("GET", url, &local), Err(404), "{url}");
        }
        assert_eq!(
            door.admit("DELETE", &format!("{t}/s/ann"), &local),
            Err(404)
        );
        let rebound = |h: &str| (h == "Host").then(|| "evil.example:8123".to_string());
        assert_eq!(door.admit("GET", &format!("{t}/s/ann"), &rebound), Err(404));
        let form = |h: &str| match h {
            "Host" => Some("127.0.0.1:8123".to_string()),
            "Content-Type" => Some("application/x-www-form-urlencoded".into()),
            _ => None,
        };
        assert_eq!(
            door.admit("POST", &format!("{t}/s/ann/mark"), &form),
            Err(404)
        );
        let cross = |h: &str| match h {
            "Origin" => Some("http://evil.example".to_string()),
            other => local(other),
        };
        assert_eq!(
            door.admit("POST", &format!("{t}/s/ann/mark"), &cross),
            Err(404)
        );
        assert_eq!(
            door.admit("POST", &format!("{t}/s/ann/mark"), &local),
            Ok("s/ann/mark")
        );
        assert_eq!(random_hex().unwrap().len(), 32);
    }
}
