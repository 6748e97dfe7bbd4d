//! A running `dgscope serve` as the tests reach it: the address it announces, and a scrape.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::Child;

/// Reads serve's first stderr line ("dgscope serve: listening on http://HOST:PORT/metrics —
/// N pair(s): …") and returns `HOST:PORT` with the line.
pub fn listening(child: &mut Child) -> (String, String) {
    let mut line = String::new();
    BufReader::new(child.stderr.take().expect("serve's stderr piped"))
        .read_line(&mut line)
        .unwrap();
    let hostport = line
        .split_whitespace()
        .find_map(|w| w.strip_prefix("http://"))
        .and_then(|u| u.strip_suffix("/metrics"))
        .unwrap_or_else(|| panic!("serve said {line:?}"))
        .to_string();
    (hostport, line)
}

/// `GET /metrics` on `hostport`: the whole response, status line and headers included.
pub fn get_metrics(hostport: &str) -> String {
    let mut s = std::net::TcpStream::connect(hostport).unwrap();
    s.set_read_timeout(Some(std::time::Duration::from_secs(10)))
        .unwrap();
    s.write_all(b"GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n")
        .unwrap();
    let mut response = String::new();
    s.read_to_string(&mut response).unwrap();
    response
}
