//! A small HTTP/1.1 responder for scrapes: GET (and HEAD) only, the telemetry path, a landing
//! page at `/`, 404 otherwise. Requests are bounded in size and time, concurrent connections
//! in number; every response closes its connection. Rendering reads the board only.

use super::web_config::WebConfig;
use super::Board;
use super::Published;
use crate::exposition::{assemble_into, pieces, Format, PairSnapshot, Rendered};
use std::io::IoSlice;
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::net::TcpListener;
use tokio::sync::Semaphore;

/// Largest request head accepted (request line and headers).
pub const MAX_REQUEST: usize = 16 * 1024;
/// Time allowed to send the whole request head. A scraper sends it in one packet; a client
/// that trickles it (slowloris) is cut off before it can hold anything for long.
pub const READ_TIMEOUT: Duration = Duration::from_secs(2);
/// Time allowed to take the response.
pub const WRITE_TIMEOUT: Duration = Duration::from_secs(30);
/// Responses rendered and written at once; a connection takes one of these only once its
/// request head is in, so clients still sending theirs never hold up a scrape.
pub const MAX_CONNECTIONS: usize = 32;
/// Connections still sending their request head, in all.
pub const MAX_WAITING: usize = 512;
/// Connections the kernel queues before they are accepted (capped by `net.core.somaxconn`).
pub const LISTEN_BACKLOG: u32 = 4096;
/// Connections open at once from one address; more are closed at once. Prometheus scrapes a
/// target one request at a time.
pub const MAX_PER_PEER: usize = 8;

/// What the responder serves.
pub struct Site {
    pub board: Arc<Board>,
    /// `--web.telemetry-path` (default `/metrics`).
    pub telemetry_path: String,
    /// `--web.config.file`: TLS and basic auth (none without it).
    pub web: WebConfig,
}

impl Site {
    pub fn new(board: Arc<Board>, telemetry_path: &str) -> Arc<Self> {
        Site::with_web(board, telemetry_path, WebConfig::none())
    }

    /// As [`Site::new`], served with `web`'s TLS and users.
    pub fn with_web(board: Arc<Board>, telemetry_path: &str, web: WebConfig) -> Arc<Self> {
        Arc::new(Site {
            board,
            telemetry_path: telemetry_path.to_string(),
            web,
        })
    }

    /// The exposition of the board now, in the format `accept` asks for, joined.
    pub fn metrics(&self, accept: Option<&str>) -> (Format, String) {
        let format = Format::from_accept(accept);
        let pairs = self.board.published();
        let lines: Vec<&Rendered> = pairs.iter().map(|p| p.lines(format)).collect();
        let mut body = String::new();
        assemble_into(&mut body, &lines, format);
        (format, body)
    }

    /// The response to one request head (`None`: not HTTP we answer; the caller sends 400).
    pub fn respond(&self, head: &str) -> Response {
        // Lines end in CRLF; a bare LF is accepted too, as RFC 9112 §2.2 allows.
        let request = head.split('\n').next().unwrap_or("");
        let request = request.strip_suffix('\r').unwrap_or(request);
        let mut parts = request.split(' ');
        let (method, target, version) = (parts.next(), parts.next(), parts.next());
        let (Some(method), Some(target), Some(version)) = (method, target, version) else {
            return Response::plain(400, "Bad Request", "malformed request line\n");
        };
        if parts.next().is_some() {
            return Response::plain(400, "Bad Request", "malformed request line\n");
        }
        if !matches!(version, "HTTP/1.0" | "HTTP/1.1") {
            return Response::plain(
                505,
                "HTTP Version Not Supported",
                "HTTP/1.0 and HTTP/1.1 only\n",
            );
        }
        let head_only = method == "HEAD";
        if method != "GET" && !head_only {
            let mut r = Response::plain(405, "Method Not Allowed", "GET only\n");
            r.extra = "Allow: GET, HEAD\r\n";
            return r;
        }
        let path = target.split(['?', '#']).next().unwrap_or("");
        let accept = header(head, "accept");
        let mut r = if path == self.telemetry_path {
            // Written piece by piece from the board's rendered lines (write_response).
            let format = Format::from_accept(accept);
            Response {
                status: 200,
                reason: "OK",
                content_type: format.content_type(),
                body: Body::Exposition {
                    format,
                    pairs: self.board.published(),
                },
                extra: "",
                head_only: false,
            }
        } else if path == "/" {
            Response {
                status: 200,
                reason: "OK",
                content_type: "text/html; charset=utf-8",
                body: Body::Text(landing(&self.board.snapshot(), &self.telemetry_path)),
                extra: "",
                head_only: false,
            }
        } else {
            Response::plain(
                404,
                "Not Found",
                "not found; metrics are at the telemetry path\n",
            )
        };
        r.head_only = head_only;
        r
    }
}

pub struct Response {
    pub status: u16,
    pub reason: &'static str,
    pub content_type: &'static str,
    body: Body,
    extra: &'static str,
    head_only: bool,
}

/// A response's body: a text, or a scrape's exposition as the board's pairs rendered.
enum Body {
    Text(String),
    Exposition {
        format: Format,
        pairs: Vec<Arc<Published>>,
    },
}

impl Body {
    fn len(&self) -> usize {
        match self {
            Body::Text(s) => s.len(),
            Body::Exposition { format, pairs } => {
                let lines: Vec<&Rendered> = pairs.iter().map(|p| p.lines(*format)).collect();
                let mut len = 0;
                pieces(&lines, *format, |p| len += p.len());
                len
            }
        }
    }

    /// Writes the body: an exposition as its pieces, without joining them first.
    async fn write_to<S: AsyncWrite + Unpin>(&self, stream: &mut S) -> std::io::Result<()> {
        let (format, pairs) = match self {
            Body::Text(s) => return stream.write_all(s.as_bytes()).await,
            Body::Exposition { format, pairs } => (*format, pairs),
        };
        let lines: Vec<&Rendered> = pairs.iter().map(|p| p.lines(format)).collect();
        if stream.is_write_vectored() {
            let mut slices = Vec::new();
            pieces(&lines, format, |p| slices.push(IoSlice::new(p.as_bytes())));
            return write_all_vectored(stream, &mut slices).await;
        }
        // TLS writes a record per write: pieces are joined into chunks of 64 KiB first.
        let mut chunk: Vec<u8> = Vec::with_capacity(CHUNK);
        let mut chunks = Vec::new();
        pieces(&lines, format, |p| {
            if chunk.len() + p.len() > CHUNK && !chunk.is_empty() {
                chunks.push(std::mem::replace(&mut chunk, Vec::with_capacity(CHUNK)));
            }
            chunk.extend_from_slice(p.as_bytes());
        });
        chunks.push(chunk);
        for c in &chunks {
            stream.write_all(c).await?;
        }
        Ok(())
    }
}

/// What a stream that cannot write vectored is given at a time.
const CHUNK: usize = 64 * 1024;

/// `write_all` for many buffers: `writev` as many as the system takes (1024 on Linux) at once.
async fn write_all_vectored<S: AsyncWrite + Unpin>(
    stream: &mut S,
    mut bufs: &mut [IoSlice<'_>],
) -> std::io::Result<()> {
    IoSlice::advance_slices(&mut bufs, 0);
    while !bufs.is_empty() {
        let n = stream.write_vectored(&bufs[..bufs.len().min(1024)]).await?;
        if n == 0 {
            return Err(std::io::ErrorKind::WriteZero.into());
        }
        IoSlice::advance_slices(&mut bufs, n);
    }
    Ok(())
}

impl Response {
    fn plain(status: u16, reason: &'static str, body: &str) -> Self {
        Response {
            status,
            reason,
            content_type: "text/plain; charset=utf-8",
            body: Body::Text(body.to_string()),
            extra: "",
            head_only: false,
        }
    }

    fn head(&self) -> String {
        format!(
            "HTTP/1.1 {} {}\r\nContent-Type: {}\r\nContent-Length: {}\r\n{}Connection: close\r\nServer: dgscope/{}\r\n\r\n",
            self.status,
            self.reason,
            self.content_type,
            self.body.len(),
            self.extra,
            env!("CARGO_PKG_VERSION"),
        )
    }
}

fn html_escape(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&#39;"),
            c => o.push(c),
        }
    }
    o
}

/// The landing page: every pair, its slots' state and what is raised.
pub fn landing(pairs: &[Arc<PairSnapshot>], telemetry_path: &str) -> String {
    let mut s = String::from(
        "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>dgscope serve</title></head><body>\n<h1>dgscope serve</h1>\n",
    );
    s.push_str(&format!(
        "<p>Metrics: <a href=\"{0}\">{0}</a> ({1} pair(s)). dgscope {2}.</p>\n",
        html_escape(telemetry_path),
        pairs.len(),
        env!("CARGO_PKG_VERSION")
    ));
    s.push_str("<table border=\"1\" cellpadding=\"4\">\n<tr><th>pair</th><th>source</th><th>slots</th><th>findings</th></tr>\n");
    for p in pairs {
        let slots: Vec<String> = p
            .slots
            .iter()
            .map(|sl| {
                let db = sl.database().map(|d| format!(" ({d})")).unwrap_or_default();
                match &sl.error {
                    None => format!("{}{db}: up", sl.slot),
                    Some(e) => format!("{}{db}: down, {e}", sl.slot),
                }
            })
            .collect();
        let findings = if p.findings.is_empty() {
            if p.warming_up {
                "warming up".to_string()
            } else {
                "none".to_string()
            }
        } else {
            p.findings
                .iter()
                .map(|f| format!("{} {}", f.severity, f.id))
                .collect::<Vec<_>>()
                .join(", ")
        };
        s.push_str(&format!(
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
            html_escape(&p.pair),
            html_escape(&p.source),
            html_escape(&slots.join("; ")),
            html_escape(&findings)
        ));
    }
    s.push_str("</table>\n</body></html>\n");
    s
}

/// Where the head in `buf` ends: the first LF of the blank line's pair (CRLF CRLF, or LF LF
/// as RFC 9112 §2.2 allows). A CR left before it is stripped with the line.
fn head_end(buf: &[u8]) -> Option<usize> {
    let mut last_lf: Option<usize> = None;
    for (i, &b) in buf.iter().enumerate() {
        match b {
            b'\n' if last_lf.is_some() => return last_lf,
            b'\n' => last_lf = Some(i),
            b'\r' => {}
            _ => last_lf = None,
        }
    }
    None
}

/// Reads one request head: up to the blank line, at most [`MAX_REQUEST`] bytes.
async fn read_head<S: AsyncRead + Unpin>(stream: &mut S) -> Result<String, u16> {
    let mut buf = Vec::with_capacity(1024);
    let mut chunk = [0u8; 2048];
    loop {
        let n = stream.read(&mut chunk).await.map_err(|_| 0u16)?;
        if n == 0 {
            return Err(0);
        }
        // Only the new bytes (and the three before them) can hold the end of the head.
        let from = buf.len().saturating_sub(3);
        buf.extend_from_slice(&chunk[..n]);
        if let Some(end) = head_end(&buf[from..]).map(|e| e + from) {
            let len = end - usize::from(end > 0 && buf[end - 1] == b'\r');
            if len > MAX_REQUEST {
                return Err(431);
            }
            buf.truncate(end);
            return String::from_utf8(buf).map_err(|_| 400);
        }
        if buf.len() > MAX_REQUEST {
            return Err(431);
        }
    }
}

/// The value of header `name` in a request head, if it has one.
fn header<'a>(head: &'a str, name: &str) -> Option<&'a str> {
    head.split('\n')
        .skip(1)
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .filter_map(|l| l.split_once(':'))
        .find(|(k, _)| k.trim().eq_ignore_ascii_case(name))
        .map(|(_, v)| v.trim())
}

async fn handle<S: AsyncRead + AsyncWrite + Unpin>(
    site: Arc<Site>,
    mut stream: S,
    responding: Arc<Semaphore>,
) {
    let head = tokio::time::timeout(READ_TIMEOUT, read_head(&mut stream)).await;
    let response = match head {
        Ok(Ok(head)) => {
            // Every path asks for the user first, as the exporter toolkit does.
            if site.web.auth_required() && !site.web.check(header(&head, "authorization")).await {
                let mut r = Response::plain(401, "Unauthorized", "unauthorized\n");
                r.extra = "WWW-Authenticate: Basic realm=\"dgscope\", charset=\"UTF-8\"\r\n";
                write_response(&mut stream, &r).await;
                return;
            }
            let Ok(_permit) = responding.acquire_owned().await else {
                return;
            };
            let response = site.respond(&head);
            write_response(&mut stream, &response).await;
            return;
        }
        Ok(Err(431)) => Response::plain(
            431,
            "Request Header Fields Too Large",
            "request too large\n",
        ),
        Ok(Err(400)) => Response::plain(400, "Bad Request", "bad request\n"),
        Ok(Err(_)) => return,
        Err(_) => Response::plain(408, "Request Timeout", "request timeout\n"),
    };
    write_response(&mut stream, &response).await;
}

async fn write_response<S: AsyncRead + AsyncWrite + Unpin>(stream: &mut S, response: &Response) {
    let write = async {
        stream.write_all(response.head().as_bytes()).await?;
        if !response.head_only {
            response.body.write_to(stream).await?;
        }
        stream.shutdown().await
    };
    let _ = tokio::time::timeout(WRITE_TIMEOUT, write).await;
    if response.status >= 400 {
        // A refused request may still be arriving: read (a bounded amount of) it, so closing
        // with unread data does not reset the connection before the client reads the answer.
        let drain = async {
            let mut sink = [0u8; 4096];
            let mut total = 0usize;
            while total < (1 << 20) {
                match stream.read(&mut sink).await {
                    Ok(0) | Err(_) => break,
                    Ok(n) => total += n,
                }
            }
        };
        let _ = tokio::time::timeout(Duration::from_secs(1), drain).await;
    }
}

/// Open connections per peer address.
#[derive(Default)]
struct Peers(std::sync::Mutex<std::collections::HashMap<std::net::IpAddr, usize>>);

impl Peers {
    /// Counts a new connection from `ip`; `None` when that address already has
    /// [`MAX_PER_PEER`] open.
    fn enter(self: &Arc<Self>, ip: std::net::IpAddr) -> Option<PeerGuard> {
        let mut m = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let n = m.entry(ip).or_insert(0);
        if *n >= MAX_PER_PEER {
            return None;
        }
        *n += 1;
        Some(PeerGuard {
            peers: self.clone(),
            ip,
        })
    }
}

struct PeerGuard {
    peers: Arc<Peers>,
    ip: std::net::IpAddr,
}

impl Drop for PeerGuard {
    fn drop(&mut self) {
        let mut m = self.peers.0.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(n) = m.get_mut(&self.ip) {
            *n -= 1;
            if *n == 0 {
                m.remove(&self.ip);
            }
        }
    }
}

/// Accepts connections until the task is dropped.
pub async fn serve(listener: TcpListener, site: Arc<Site>) {
    let waiting = Arc::new(Semaphore::new(MAX_WAITING));
    let responding = Arc::new(Semaphore::new(MAX_CONNECTIONS));
    let peers = Arc::new(Peers::default());
    loop {
        let Ok(permit) = waiting.clone().acquire_owned().await else {
            return;
        };
        let (stream, addr) = match listener.accept().await {
            Ok(x) => x,
            Err(_) => {
                // Out of file descriptors and the like: do not spin.
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        // One address cannot take every slot: past its share it is closed at once.
        let Some(guard) = peers.enter(addr.ip()) else {
            drop(stream);
            continue;
        };
        let (site, responding) = (site.clone(), responding.clone());
        let tls = site.web.tls.clone();
        tokio::spawn(async move {
            match tls {
                // The handshake counts against the same deadline as a request head: a client
                // that stalls in it is cut off like one that trickles its request.
                Some(config) => {
                    let acceptor = tokio_rustls::TlsAcceptor::from(config);
                    if let Ok(Ok(tls)) =
                        tokio::time::timeout(READ_TIMEOUT, acceptor.accept(stream)).await
                    {
                        handle(site, tls, responding).await;
                    }
                }
                None => handle(site, stream, responding).await,
            }
            drop(guard);
            drop(permit);
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exposition::PairSnapshot;
    use dgscope_model::sample::Slot;
    use std::pin::Pin;
    use std::task::{Context, Poll};

    /// A socket that takes at most `max` bytes a write, vectored or not, as a full send
    /// buffer does.
    struct Short {
        out: Vec<u8>,
        max: usize,
        vectored: bool,
    }

    impl AsyncWrite for Short {
        fn poll_write(
            mut self: Pin<&mut Self>,
            _: &mut Context<'_>,
            buf: &[u8],
        ) -> Poll<std::io::Result<usize>> {
            let n = buf.len().min(self.max);
            self.out.extend_from_slice(&buf[..n]);
            Poll::Ready(Ok(n))
        }

        fn poll_write_vectored(
            mut self: Pin<&mut Self>,
            _: &mut Context<'_>,
            bufs: &[IoSlice<'_>],
        ) -> Poll<std::io::Result<usize>> {
            let mut n = 0;
            for b in bufs {
                let take = b.len().min(self.max - n);
                self.out.extend_from_slice(&b[..take]);
                n += take;
                if n == self.max {
                    break;
                }
            }
            Poll::Ready(Ok(n))
        }

        fn is_write_vectored(&self) -> bool {
            self.vectored
        }

        fn poll_flush(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<std::io::Result<()>> {
            Poll::Ready(Ok(()))
        }

        fn poll_shutdown(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<std::io::Result<()>> {
            Poll::Ready(Ok(()))
        }
    }

    /// A scrape written piece by piece, through short writes vectored or not, is the joined
    /// document byte for byte, and its Content-Length is that document's length.
    #[tokio::test]
    async fn a_scrape_written_in_pieces_is_the_joined_document() {
        let slots = [Slot::primary(), Slot::standby()];
        let board = Board::new(
            (0..30)
                .map(|i| PairSnapshot::pending(&format!("p{i}"), "twin", &slots, "connecting"))
                .collect(),
        );
        let site = Site::new(board, "/metrics");
        for accept in [None, Some("application/openmetrics-text;version=1.0.0")] {
            let (_, joined) = site.metrics(accept);
            let head = match accept {
                Some(a) => format!("GET /metrics HTTP/1.1\r\nAccept: {a}\r\n\r\n"),
                None => "GET /metrics HTTP/1.1\r\n\r\n".to_string(),
            };
            let r = site.respond(&head);
            assert!(
                r.head()
                    .contains(&format!("Content-Length: {}\r\n", joined.len())),
                "{}",
                r.head()
            );
            for vectored in [true, false] {
                let mut s = Short {
                    out: Vec::new(),
                    max: 777,
                    vectored,
                };
                r.body.write_to(&mut s).await.unwrap();
                assert_eq!(
                    String::from_utf8(s.out).unwrap(),
                    joined,
                    "vectored {vectored}"
                );
            }
        }
    }
}
